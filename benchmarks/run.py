#!/usr/bin/env python3
"""Measure qlint on one bank in one run and print ratios against the libyaml parse floor.

usage:
  python benchmarks/run.py --questions 100000            # generate a synthetic bank, then measure
  python benchmarks/run.py --bank PATH [--truth truth.json]
  python benchmarks/run.py --corpus linkedin-skill-assessments --repeat 10   # real questions from ../shared

Prints, for one bank: the single-process libyaml parse-only time (the floor, the garbage collector on), `qlint check`
cold (empty cache), warm (nothing changed), warm after one file changed, peak RSS of each
run, near-duplicate recall against the planted truth and against an exhaustive comparison
(on a sample), and the ratios the targets are stated in. `benchmarks/all.py` measures this and the rest of the targets
in one run, against the GC-free parse.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (CHANGED_OF_COLD, COLD_OF_FLOOR, WARM_OF_COLD, bank_files, corpus_bank,  # noqa: E402
                    cross_file_findings, launcher, parse_floor, synthetic_bank, touch_one_file)
from common import run_qlint as _run_in  # noqa: E402


def run_qlint(bank: Path, *extra: str) -> tuple[float, int, dict]:
    """Wall time, peak RSS (bytes) and JSON output of one `qlint check BANK` in a fresh process."""
    return _run_in(bank, [str(bank)], *extra)


def near_duplicate_ids(doc: dict) -> set[str]:
    return {f["question"] for f in doc["findings"] if f["rule"] == "near-duplicate-stem"}


def planted_recall(doc: dict, truth: list[tuple[str, str]]) -> float:
    flagged = near_duplicate_ids(doc)
    found = sum(1 for a, b in truth if a in flagged and b in flagged)
    return found / len(truth) if truth else float("nan")


def exhaustive_recall(files: list[Path], sample: int) -> tuple[float, int, int]:
    """Blocked search vs every pair compared, on the first ``sample`` stems, at the default threshold."""
    import yaml
    from rapidfuzz import fuzz, process

    from qlint.neardup.search import find_pairs
    from qlint.neardup.stemkey import stem_key
    from qlint.rules.near_duplicate_stem import Options

    stems: list[str] = []
    for f in files:
        doc = yaml.load(f.read_bytes(), Loader=yaml.CSafeLoader)
        for q in doc.get("questions", [doc]) if isinstance(doc, dict) else []:
            if isinstance(q, dict) and isinstance(q.get("stem"), str):
                stems.append(q["stem"])
        if len(stems) >= sample:
            break
    stems = stems[:sample]
    keys = [stem_key(s) for s in stems]
    opts = Options()
    blocked = {(a, b) for a, b, _ in find_pairs(keys, opts.threshold, min_overlap=opts.min_word_overlap)}
    # exhaustive: every pair scored in C by rapidfuzz, then the same confirmation as the blocked search
    texts = [k.text for k in keys]
    bags = [k.bag for k in keys]
    candidates = set()
    for matrix in (process.cdist(texts, texts, scorer=fuzz.ratio, score_cutoff=opts.threshold, workers=-1, dtype="uint8"),
                   process.cdist(bags, bags, scorer=fuzz.ratio, score_cutoff=opts.threshold, workers=-1, dtype="uint8")):
        rows, cols = matrix.nonzero()
        candidates |= {(int(a), int(b)) for a, b in zip(rows, cols) if a < b}
        del matrix
    exact = {}
    for i, t in enumerate(texts):
        if t:
            exact.setdefault(t, []).append(i)
    for group in exact.values():
        candidates |= {(a, b) for i, a in enumerate(group) for b in group[i + 1:]}
    reference = {(a, b) for a, b, _ in find_pairs(keys, opts.threshold, min_overlap=opts.min_word_overlap,
                                                   candidates=candidates)}
    # identical stems are chained, not paired all-to-all: compare the questions involved
    members = lambda pairs: {i for p in pairs for i in p}  # noqa: E731
    ref, got = members(reference), members(blocked)
    return (len(ref & got) / len(ref) if ref else 1.0), len(reference), len(blocked)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bank", type=Path)
    parser.add_argument("--truth", type=Path)
    parser.add_argument("--questions", type=int, default=10000)
    parser.add_argument("--corpus", help="a corpus name in ../shared/corpora (e.g. linkedin-skill-assessments)")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--sample", type=int, default=5000, help="stems for the exhaustive recall check (0: skip)")
    parser.add_argument("--keep", action="store_true", help="keep a generated bank")
    args = parser.parse_args()

    launcher()   # before this process holds any bank
    made = None
    truth: list[tuple[str, str]] = []
    if args.bank:
        bank = args.bank.resolve()
        truth_file = args.truth or bank / "truth.json"
        if truth_file.exists():
            truth = [tuple(p) for p in json.loads(truth_file.read_text())["planted_pairs"]]
    else:
        made = Path(tempfile.mkdtemp(prefix="qlint-bench-"))
        bank = made / "bank"
        if args.corpus:
            corpus_bank(bank, [args.corpus], args.repeat)
        else:
            meta = synthetic_bank(bank, args.questions)
            truth = [tuple(p) for p in meta["planted_pairs"]]
    files = bank_files(bank)
    size = sum(f.stat().st_size for f in files)
    shutil.rmtree(bank / ".qlint_cache", ignore_errors=True)

    floor = parse_floor(files, gc_off=False)
    cold, cold_rss, doc = run_qlint(bank)
    questions = doc["summary"]["questions"]
    warm, warm_rss, warm_doc = run_qlint(bank)
    touched, before = touch_one_file(files)
    try:
        changed, changed_rss, changed_doc = run_qlint(bank)
        fresh, _, fresh_doc = run_qlint(bank, "--no-cache")
    finally:
        touched.write_text(before, encoding="utf-8")   # the next run on this bank starts from the same files
    exact = cross_file_findings(changed_doc) == cross_file_findings(fresh_doc)

    print(f"bank: {bank} ({questions} questions, {len(files)} files, {size / 1e6:.0f} MB), {os.cpu_count()} cores")
    print(f"libyaml parse, GC on (1 process): {floor:8.2f} s   {questions / floor:9.0f} q/s   (the floor)")
    print(f"qlint check, cold:                {cold:8.2f} s   {questions / cold:9.0f} q/s   "
          f"peak RSS {cold_rss / 2**20:6.0f} MB   ratio to floor {cold / floor:5.2f}x (target <= {COLD_OF_FLOOR}x)")
    print(f"qlint check, warm, no change:     {warm:8.2f} s   peak RSS {warm_rss / 2**20:6.0f} MB   "
          f"{warm / cold:6.1%} of cold (target <= {WARM_OF_COLD:.0%})")
    print(f"qlint check, one file changed:    {changed:8.2f} s   peak RSS {changed_rss / 2**20:6.0f} MB   "
          f"{changed / cold:6.1%} of cold (target <= {CHANGED_OF_COLD:.0%}); "
          f"cross-file findings equal a --no-cache run: {exact}")
    print(f"findings: {len(doc['findings'])} cold, {len(warm_doc['findings'])} warm (identical: {doc == warm_doc}); "
          f"changed file: {touched.relative_to(bank)}")
    if truth:
        print(f"near-duplicate recall, planted pairs: {planted_recall(doc, truth):.4f} ({len(truth)} pairs)")
    if args.sample:
        recall, ref, got = exhaustive_recall(files, args.sample)
        print(f"near-duplicate recall vs exhaustive comparison on {args.sample} stems: {recall:.4f} "
              f"({ref} exhaustive pairs, {got} blocked pairs)")
    if made and not args.keep:
        shutil.rmtree(made, ignore_errors=True)
    elif made:
        print(f"kept {bank}")


if __name__ == "__main__":
    main()
