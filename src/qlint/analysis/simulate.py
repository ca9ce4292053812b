"""Simulated response data with known truth: a 2PL model for right or wrong, a nominal model for which wrong.

Planted faults: mis-keyed questions (people behave as if another option were the key, the bank names a
distractor), dead distractors (almost nobody picks them) and non-discriminating questions (slope near zero).
Used by the tests (recall and precision of the findings) and by benchmarks/analysis.py (scale).
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from qlint.wording import letter


@dataclass
class Truth:
    """What was planted: which questions and options the findings should name."""

    miskeyed: dict[str, str] = field(default_factory=dict)       # id -> the letter people treat as the key
    dead: set[tuple[str, str]] = field(default_factory=set)      # (id, letter) of distractors nobody picks
    flat: set[str] = field(default_factory=set)                  # ids of non-discriminating questions


@dataclass
class Simulation:
    """A bank (YAML text), the true parameters, and a way to draw responses."""

    bank_yaml: str
    ids: list[str]
    bank_keys: np.ndarray     # the key the bank states, per question
    true_keys: np.ndarray     # the option people with high ability choose
    a: np.ndarray
    b: np.ndarray
    weights: np.ndarray       # (items, options) attractiveness of each option among wrong answers
    truth: Truth
    omit_rate: float = 0.01

    def responses(self, persons: int, seed: int, start: int = 0) -> np.ndarray:
        """(persons, items) chosen option indices, -1 for omitted."""
        rng = np.random.default_rng(seed)
        theta = rng.normal(size=(persons, 1))
        right = rng.random((persons, len(self.ids))) < 1 / (1 + np.exp(-self.a * (theta - self.b)))
        # a wrong answer picks among the non-keys in proportion to their weights (the key's weight is zero)
        cum = np.cumsum(self.weights, axis=1)
        cum = cum / cum[:, -1:]
        draw = rng.random((persons, len(self.ids), 1))
        wrong = (draw > cum[None, :, :]).sum(axis=2)
        chosen = np.where(right, self.true_keys[None, :], wrong)
        chosen[rng.random(chosen.shape) < self.omit_rate] = -1
        return chosen

    def long_rows(self, persons: int, seed: int, chunk: int = 20_000) -> Iterator[str]:
        """The responses as long CSV text (``person,item,response``), a chunk of persons at a time."""
        for start in range(0, persons, chunk):
            block = self.responses(min(chunk, persons - start), seed * 1_000_003 + start)
            letters = np.array([letter(i) for i in range(block.max(initial=0) + 1)] + [""])
            rows = [f"p{start + p},{qid},{letters[c]}" for p in range(block.shape[0])
                    for qid, c in zip(self.ids, block[p])]
            yield "\n".join(rows) + "\n"


def simulate(items: int = 40, options: int = 4, seed: int = 0, miskeyed: int = 4, dead: int = 4,
             flat: int = 2) -> Simulation:
    """A bank of ``items`` questions with the given numbers of planted faults, chosen at random."""
    rng = np.random.default_rng(seed)
    ids = [f"q{i + 1:03d}" for i in range(items)]
    a = rng.uniform(0.9, 2.2, items)
    b = rng.uniform(-1.5, 1.2, items)
    true_keys = rng.integers(0, options, items)
    bank_keys = true_keys.copy()
    weights = rng.uniform(0.6, 1.4, (items, options))
    order = rng.permutation(items)
    truth = Truth()
    for i in order[:miskeyed]:
        bank_keys[i] = (true_keys[i] + 1 + rng.integers(0, options - 1)) % options
        truth.miskeyed[ids[i]] = letter(int(true_keys[i]))
    for i in order[miskeyed:miskeyed + dead]:
        d = (true_keys[i] + 1 + rng.integers(0, options - 1)) % options
        weights[i, d] = 0.002
        truth.dead.add((ids[i], letter(int(d))))
    for i in order[miskeyed + dead:miskeyed + dead + flat]:
        a[i] = 0.0
        truth.flat.add(ids[i])
    weights[np.arange(items), true_keys] = 0.0
    _keep_distractors_working(a, b, weights, truth, ids)
    return Simulation(_bank(ids, bank_keys, options), ids, bank_keys, true_keys, a, b, weights, truth)


def expected_shares(a: np.ndarray, b: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """(items, options) share of wrong-answer choices each option gets, expected over ability ~ N(0, 1)."""
    theta = np.linspace(-4, 4, 81)
    density = np.exp(-theta ** 2 / 2)
    density /= density.sum()
    wrong = 1 - (1 / (1 + np.exp(-a[:, None] * (theta[None, :] - b[:, None])))) @ density
    return wrong[:, None] * weights / weights.sum(axis=1, keepdims=True)


def _keep_distractors_working(a, b, weights, truth: Truth, ids: list[str]) -> None:
    """Make every distractor not planted dead draw at least 8% of answers in expectation (a question easy
    enough to starve its distractors is made harder), so that a flagged distractor is either planted or a
    real error of the rule: the truth the tests measure precision against."""
    dead = {ids.index(qid) for qid, _ in truth.dead}
    for i in range(len(ids)):
        if i in dead:
            continue
        for _ in range(200):
            shares = expected_shares(a[i:i + 1], b[i:i + 1], weights[i:i + 1])[0]
            if shares[weights[i] > 0].min() >= 0.08:
                break
            b[i] += 0.05


def _bank(ids: list[str], keys: np.ndarray, options: int) -> str:
    lines = ["questions:"]
    for qid, key in zip(ids, keys):
        lines += [f"  - id: {qid}", f"    stem: What is the answer to question {qid}?", "    options:"]
        for o in range(options):
            lines.append(f"      - text: Answer {letter(o)} of {qid}")
            if o == key:
                lines.append("        correct: true")
    return "\n".join(lines) + "\n"
