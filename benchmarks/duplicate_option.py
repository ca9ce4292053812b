#!/usr/bin/env python3
"""Measure duplicate-option on questions with very many options: is its time linear in the input?

usage:
  python benchmarks/duplicate_option.py              # 10,000 and 100,000 options; 2,000 and 20,000 filler variants
  python benchmarks/duplicate_option.py --scale 0.1  # a quick look: every size a tenth

Runs the rule's check in this process on three generated questions, each at a small and a ten times larger size:
  list     distinct options ("choice number i of the list") and one duplicate at the end,
  filler   filler words before and after one core ("just just Ottawa simply"): the options grow with their number,
  core     every option one core behind other leading filler words ("it is called Ottawa"): all share one group.
For each it prints the seconds (the best of --runs runs), the characters of the options, the microseconds per
thousand characters, and the ratio of the large size's cost per character to the small one's: a linear check keeps
it near 1 (target at most 2; the pairwise search it replaced grew with the number of options). The tests count the
comparisons instead (tests/rules/test_duplicate_option.py); a time here is no test.
Also shown: the 100,000-option list against the 30 s a loaded machine once allowed it.
"""
from __future__ import annotations

import argparse
import itertools
import time

from qlint.model import Option, Question
from qlint.rules import duplicate_option

LINEAR_RATIO = 2.0      # cost per character, large size over small: at most 2x
LIST_SECONDS = 30.0     # 100,000 distinct options on a loaded 2-core machine


def _question(texts: list[str]) -> Question:
    return Question(id="q", stem="Which one?", options=tuple(Option(text=t, correct=i == 0) for i, t in enumerate(texts)))


def listed(size: int) -> list[str]:
    return [f"choice number {i} of the list" for i in range(size)] + ["Choice number 7 of the list."]


def fillers(size: int) -> list[str]:
    return ["it is Ottawa"] + [f"{'just ' * (i % 50)}Ottawa {'simply ' * (i // 50)}" for i in range(size)]


def one_core(size: int) -> list[str]:
    words = sorted(duplicate_option._FILLER - {"it's"})
    behind = (" ".join(w) for r in itertools.count(1) for w in itertools.permutations(words, r))
    return ["Ottawa"] + [f"{w} Ottawa" for w in itertools.islice(behind, size)]


def best_seconds(texts: list[str], runs: int) -> float:
    question = _question(texts)
    best = float("inf")
    for _ in range(runs):
        duplicate_option._normal_cased.cache_clear()
        duplicate_option._number.cache_clear()
        started = time.perf_counter()
        found = list(duplicate_option.check(question, duplicate_option.Options()))
        best = min(best, time.perf_counter() - started)
        assert found, "the generated question holds a duplicate"
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="every size times this (default 1)")
    parser.add_argument("--runs", type=int, default=3, help="runs per size; the best is kept (default 3)")
    args = parser.parse_args(argv)
    missed = 0
    print(f"{'question':<8} {'options':>9} {'seconds':>9} {'chars':>11} {'us/1k chars':>12}")
    for name, make, small in (("list", listed, 10_000), ("filler", fillers, 2_000), ("core", one_core, 1_000)):
        costs = []
        for size in (max(1, int(small * args.scale)), max(1, int(small * 10 * args.scale))):
            texts = make(size)
            seconds = best_seconds(texts, args.runs)
            chars = sum(len(t) for t in texts)
            costs.append(seconds / chars)
            print(f"{name:<8} {len(texts):>9,} {seconds:>9.3f} {chars:>11,} {seconds / chars * 1e9:>12.1f}")
            if name == "list" and size == 100_000:
                print(f"  100,000 options: {seconds:.2f} s, {seconds / LIST_SECONDS:.3f}x the {LIST_SECONDS:.0f} s bound")
        ratio = costs[1] / costs[0]
        verdict = "PASS" if ratio <= LINEAR_RATIO else "MISS"
        missed += verdict == "MISS"
        print(f"  {name}: cost per character, ten times the size over one: {ratio:.2f}x (target <= {LINEAR_RATIO}x) "
              f"{verdict}")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
