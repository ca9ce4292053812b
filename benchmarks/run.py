#!/usr/bin/env python3
"""Measure qlint on one bank in one run and print ratios against the libyaml parse floor.

usage:
  python benchmarks/run.py --questions 100000            # generate a synthetic bank, then measure
  python benchmarks/run.py --bank PATH [--truth truth.json]
  python benchmarks/run.py --corpus linkedin-skill-assessments --repeat 10   # real questions from ../shared

Prints, for one bank: the single-process libyaml parse-only time (the floor), `qlint check`
cold (empty cache), warm (nothing changed), warm after one file changed, peak RSS of each
run, near-duplicate recall against the planted truth and against an exhaustive comparison
(on a sample), and the ratios the targets are stated in.
"""
from __future__ import annotations

import argparse
import gc
import json
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared"


def parse_floor(files: list[Path]) -> float:
    """Single-process PyYAML CSafeLoader load of every file, all kept alive: the practical floor."""
    import yaml

    gc.collect()
    start = time.perf_counter()
    kept = [yaml.load(f.read_bytes(), Loader=yaml.CSafeLoader) for f in files]
    elapsed = time.perf_counter() - start
    del kept
    return elapsed


def _timed(cmd: list[str], cwd: str) -> tuple[float, int, int, str]:
    """Run one command; its wall time, peak RSS (bytes, the largest of it and its workers), exit code, stderr.

    Python's bytecode is written and read as in an installed qlint (pip compiles it at install): a shell that sets
    PYTHONDONTWRITEBYTECODE would otherwise time compiling qlint's source again on every run."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stderr = proc.stderr.read().decode() if proc.stderr else ""
    _, status, usage = os.wait4(proc.pid, 0)
    return time.perf_counter() - start, usage.ru_maxrss * 1024, os.waitstatus_to_exitcode(status), stderr


# Linux carries a parent's peak RSS into its children (through fork and exec), so a qlint started from this
# process, which holds parsed files and reports, would report this process's peak as its own. qlint is started
# from a small process made before any of that: the peak RSS printed is qlint's.
_LAUNCHER: ProcessPoolExecutor | None = None


def launcher() -> ProcessPoolExecutor:
    global _LAUNCHER
    if _LAUNCHER is None:
        _LAUNCHER = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("forkserver"))
        _LAUNCHER.submit(time.perf_counter).result()   # started now, while this process is small
    return _LAUNCHER


def run_qlint(bank: Path, *extra: str) -> tuple[float, int, dict]:
    """Wall time, peak RSS (bytes) and JSON output of one `qlint check` in a fresh process."""
    out = Path(tempfile.mkstemp(suffix=".json")[1])
    cmd = [sys.executable, "-m", "qlint", "check", str(bank), "--format", "json", "--exit-zero", "-o", str(out), *extra]
    elapsed, peak, code, stderr = launcher().submit(_timed, cmd, str(bank)).result()
    if code != 0:
        raise SystemExit(f"qlint failed ({code}): {stderr}")
    doc = json.loads(out.read_text())
    out.unlink()
    return elapsed, peak, doc


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


def touch_one_file(files: list[Path]) -> tuple[Path, str]:
    """Change one stem in one file, as an author's commit would; returns the file and its text before."""
    target = files[len(files) // 2]
    before = target.read_text(encoding="utf-8")
    target.write_text(re.sub(r'(stem: "?)', r"\1Edited. ", before, count=1), encoding="utf-8")
    return target, before


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
            source = next((SHARED / "corpora").glob(f"{args.corpus}.jsonl*"), None)
            if source is None:
                raise SystemExit(f"no corpus {args.corpus!r} in {SHARED / 'corpora'}")
            subprocess.run([sys.executable, str(SHARED / "corpora" / "to_bank.py"), str(source), str(bank),
                            "--repeat", str(args.repeat)], check=True, stdout=subprocess.DEVNULL)
        else:
            sys.path.insert(0, str(HERE))
            from gen_bank import generate

            meta = generate(bank, args.questions)
            truth = [tuple(p) for p in meta["planted_pairs"]]
    files = sorted(p for p in bank.rglob("*.y*ml") if ".qlint_cache" not in p.parts)
    size = sum(f.stat().st_size for f in files)
    shutil.rmtree(bank / ".qlint_cache", ignore_errors=True)

    floor = parse_floor(files)
    cold, cold_rss, doc = run_qlint(bank)
    questions = doc["summary"]["questions"]
    warm, warm_rss, warm_doc = run_qlint(bank)
    touched, before = touch_one_file(files)
    try:
        changed, changed_rss, changed_doc = run_qlint(bank)
        fresh, _, fresh_doc = run_qlint(bank, "--no-cache")
    finally:
        touched.write_text(before, encoding="utf-8")   # the next run on this bank starts from the same files
    exact = [f for f in changed_doc["findings"] if f["rule"] in ("near-duplicate-stem", "duplicate-id")] == \
            [f for f in fresh_doc["findings"] if f["rule"] in ("near-duplicate-stem", "duplicate-id")]

    print(f"bank: {bank} ({questions} questions, {len(files)} files, {size / 1e6:.0f} MB), {os.cpu_count()} cores")
    print(f"libyaml parse only (1 process):  {floor:8.2f} s   {questions / floor:9.0f} q/s   (the floor)")
    print(f"qlint check, cold:               {cold:8.2f} s   {questions / cold:9.0f} q/s   "
          f"peak RSS {cold_rss / 2**20:6.0f} MB   ratio to floor {cold / floor:5.2f}x (target <= 1.5x)")
    print(f"qlint check, warm, no change:    {warm:8.2f} s   peak RSS {warm_rss / 2**20:6.0f} MB   "
          f"{warm / cold:6.1%} of cold (target <= 2%)")
    print(f"qlint check, one file changed:   {changed:8.2f} s   peak RSS {changed_rss / 2**20:6.0f} MB   "
          f"{changed / cold:6.1%} of cold (target <= 5%); cross-file findings equal a --no-cache run: {exact}")
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
