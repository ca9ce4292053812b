#!/usr/bin/env python3
"""Measure `qlint check ONE_FILE` in a big bank (a pre-commit run, an editor opening a file) against the parse floor.

usage:
  python benchmarks/one_file.py --questions 100000      # generate a synthetic bank, then measure
  python benchmarks/one_file.py --bank PATH             # a bank folder (a qlint.toml with paths = ["."] is added)

Prints, in one run on one bank: the GC-free libyaml parse of the whole bank (CSafeLoader, one process, every file
kept alive: the floor), `qlint check ONE_FILE` cold (no cache folder) and warm (the same again), and the ratio
cold / floor. The named file is compared with the whole bank (the bank rules), as pre-commit runs it.
"""
from __future__ import annotations

import argparse
import gc
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import _timed, launcher  # noqa: E402  (the benchmarks folder is not a package)


def parse_floor(files: list[Path]) -> float:
    """Single-process PyYAML CSafeLoader load of every file, all kept alive, the garbage collector off."""
    import yaml

    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        kept = [yaml.load(f.read_bytes(), Loader=yaml.CSafeLoader) for f in files]
        elapsed = time.perf_counter() - start
    finally:
        gc.enable()
    del kept
    return elapsed


def check_one(bank: Path, target: Path) -> tuple[float, int, dict]:
    """Wall time, peak RSS (bytes) and JSON output of one `qlint check TARGET` in a fresh process, from the bank."""
    out = Path(tempfile.mkstemp(suffix=".json")[1])
    cmd = [sys.executable, "-m", "qlint", "check", str(target.relative_to(bank)), "--format", "json",
           "--exit-zero", "-o", str(out)]
    elapsed, peak, code, stderr = launcher().submit(_timed, cmd, str(bank)).result()
    if code != 0:
        raise SystemExit(f"qlint failed ({code}): {stderr}")
    doc = json.loads(out.read_text())
    out.unlink()
    return elapsed, peak, doc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bank", type=Path)
    parser.add_argument("--questions", type=int, default=10000)
    parser.add_argument("--keep", action="store_true", help="keep a generated bank")
    args = parser.parse_args()

    launcher()   # before this process holds any bank
    made = None
    if args.bank:
        bank = args.bank.resolve()
    else:
        from gen_bank import generate

        made = Path(tempfile.mkdtemp(prefix="qlint-bench-"))
        bank = made / "bank"
        generate(bank, args.questions)
    config = bank / "qlint.toml"
    if not config.exists():   # the whole folder is the bank the named file belongs to
        config.write_text('paths = ["."]\n', encoding="utf-8")
    files = sorted(p for p in bank.rglob("*.y*ml") if ".qlint_cache" not in p.parts)
    size = sum(f.stat().st_size for f in files)
    target = files[len(files) // 2]
    shutil.rmtree(bank / ".qlint_cache", ignore_errors=True)

    floor = parse_floor(files)
    cold, cold_rss, doc = check_one(bank, target)
    warm, warm_rss, warm_doc = check_one(bank, target)

    print(f"bank: {bank} ({len(files)} files, {size / 1e6:.0f} MB); named file: {target.relative_to(bank)} "
          f"({doc['summary']['questions']} questions, {len(doc['findings'])} findings)")
    print(f"libyaml parse of the whole bank, GC off (1 process): {floor:8.2f} s   (the floor)")
    print(f"qlint check ONE_FILE, cold (no cache):            {cold:8.2f} s   peak RSS {cold_rss / 2**20:6.0f} MB   "
          f"ratio to floor {cold / floor:5.2f}x (target <= 1.5x)")
    print(f"qlint check ONE_FILE, warm:                       {warm:8.2f} s   peak RSS {warm_rss / 2**20:6.0f} MB   "
          f"(target <= 0.5 s); same findings as cold: {doc == warm_doc}")
    print(f"cold one-file ratio: {cold / floor:.2f}")
    if made and not args.keep:
        shutil.rmtree(made, ignore_errors=True)
    elif made:
        print(f"kept {bank}")


if __name__ == "__main__":
    main()
