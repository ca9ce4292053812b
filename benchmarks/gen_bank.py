#!/usr/bin/env python3
"""Write a synthetic qlint bank: N questions shaped like real ones, with planted near-duplicate stems.

usage: gen_bank.py OUTDIR --questions N [--per-file 50] [--dup-rate 0.02] [--seed 1]

Questions are ~2.6 KB (stem, four or five options with rationales, an explanation), made of
words drawn from a Zipf-like vocabulary so that stems share common words the way real ones
do. About ``dup-rate`` of the questions are near-duplicates of an earlier one (one or two
words changed, or a clause dropped). The planted pairs are written to OUTDIR/truth.json.
"""
from __future__ import annotations

import argparse
import itertools
import json
import random
from pathlib import Path

SYLLABLES = ["ka", "lo", "mi", "ne", "ta", "ro", "si", "vu", "pe", "da", "gri", "tor", "len", "mas", "bel", "cur"]
LEADS = ["Which of the following", "What is the most likely cause when", "A team reports that", "During training,",
         "An engineer notices that", "Which statement best explains why", "What should you do first if"]


def vocabulary(rng: random.Random, size: int = 30000) -> list[str]:
    words = set()
    while len(words) < size:
        # mostly one- and two-syllable words, as in English prose
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.choice((1, 1, 1, 2, 2, 2, 3, 4)))))
    return sorted(words)


class Writer:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.vocab = vocabulary(self.rng)
        # Zipf-like: a few words are very common, most are rare
        self.cumulative = list(itertools.accumulate(1 / (i + 1) ** 0.9 for i in range(len(self.vocab))))

    def words(self, n: int) -> list[str]:
        return self.rng.choices(self.vocab, cum_weights=self.cumulative, k=n)

    def sentence(self, lo: int, hi: int) -> str:
        w = self.words(self.rng.randint(lo, hi))
        return " ".join(w).capitalize() + "."

    def stem(self) -> str:
        body = " ".join(self.sentence(8, 20) for _ in range(self.rng.randint(1, 3)))
        return f"{body} {self.rng.choice(LEADS)} {' '.join(self.words(self.rng.randint(5, 12)))}?"

    def near_duplicate(self, stem: str) -> str:
        words = stem.split()
        for _ in range(self.rng.randint(1, 2)):
            i = self.rng.randrange(len(words))
            if self.rng.random() < 0.5:
                words[i] = self.rng.choice(self.vocab[:200])  # a common-word substitution
            elif len(words) > 10:
                del words[i]
        return " ".join(words)

    def question(self, qid: str, stem: str) -> dict:
        n = self.rng.choice((4, 4, 4, 5))
        key = self.rng.randrange(n)
        options = []
        for i in range(n):
            option = {"text": " ".join(self.words(self.rng.randint(4, 12)))}
            if i == key:
                option["correct"] = True
            option["rationale"] = ("Correct. " if i == key else "Incorrect. ") + self.sentence(25, 45)
            options.append(option)
        return {"id": qid, "stem": stem, "objective": " ".join(self.words(4)), "difficulty": self.rng.randint(1, 3),
                "tags": self.words(2), "options": options, "explanation": " ".join(self.sentence(15, 30) for _ in range(3))}


def _scalar(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def dump(question: dict) -> str:
    """Hand-written YAML (fast, stable): block style, double-quoted strings."""
    out = [f"  - id: {question['id']}", f"    stem: {_scalar(question['stem'])}",
           f"    objective: {_scalar(question['objective'])}", f"    difficulty: {question['difficulty']}",
           f"    tags: [{', '.join(question['tags'])}]", "    options:"]
    for option in question["options"]:
        out.append(f"      - text: {_scalar(option['text'])}")
        if option.get("correct"):
            out.append("        correct: true")
        out.append(f"        rationale: {_scalar(option['rationale'])}")
    out.append(f"    explanation: {_scalar(question['explanation'])}")
    return "\n".join(out) + "\n"


def generate(outdir: Path, questions: int, per_file: int = 50, dup_rate: float = 0.02, seed: int = 1) -> dict:
    writer = Writer(seed)
    outdir.mkdir(parents=True, exist_ok=True)
    stems: list[str] = []
    truth: list[tuple[str, str]] = []
    buffer: list[str] = []
    folder = 0
    for index in range(questions):
        qid = f"q{index:07d}"
        if stems and writer.rng.random() < dup_rate:
            source = writer.rng.randrange(len(stems))
            stem = writer.near_duplicate(stems[source])
            truth.append((f"q{source:07d}", qid))
        else:
            stem = writer.stem()
        stems.append(stem)
        buffer.append(dump(writer.question(qid, stem)))
        if len(buffer) == per_file or index == questions - 1:
            folder_path = outdir / f"part{folder // 100:04d}"
            folder_path.mkdir(exist_ok=True)
            (folder_path / f"file{folder:06d}.yaml").write_text("questions:\n" + "".join(buffer), encoding="utf-8")
            buffer = []
            folder += 1
    meta = {"questions": questions, "files": folder, "planted_pairs": truth}
    (outdir / "truth.json").write_text(json.dumps(meta), encoding="utf-8")
    return meta


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--questions", type=int, required=True)
    parser.add_argument("--per-file", type=int, default=50)
    parser.add_argument("--dup-rate", type=float, default=0.02)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    meta = generate(args.outdir, args.questions, args.per_file, args.dup_rate, args.seed)
    print(f"wrote {meta['questions']} questions in {meta['files']} files, {len(meta['planted_pairs'])} planted pairs")


if __name__ == "__main__":
    main()
