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
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (NAMED_COLD_OF_FLOOR, NAMED_WARM_SECONDS, bank_files, launcher, named_file,  # noqa: E402
                    parse_floor, run_qlint, synthetic_bank, whole_folder_is_the_bank)


def check_one(bank: Path, target: Path) -> tuple[float, int, dict]:
    """Wall time, peak RSS (bytes) and JSON output of one `qlint check TARGET` in a fresh process, from the bank."""
    return run_qlint(bank, [str(target.relative_to(bank))])


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
        made = Path(tempfile.mkdtemp(prefix="qlint-bench-"))
        bank = made / "bank"
        synthetic_bank(bank, args.questions)
    whole_folder_is_the_bank(bank)
    files = bank_files(bank)
    size = sum(f.stat().st_size for f in files)
    target = named_file(files)
    shutil.rmtree(bank / ".qlint_cache", ignore_errors=True)

    floor = parse_floor(files)
    cold, cold_rss, doc = check_one(bank, target)
    warm, warm_rss, warm_doc = check_one(bank, target)

    print(f"bank: {bank} ({len(files)} files, {size / 1e6:.0f} MB); named file: {target.relative_to(bank)} "
          f"({doc['summary']['questions']} questions, {len(doc['findings'])} findings)")
    print(f"libyaml parse of the whole bank, GC off (1 process): {floor:8.2f} s   (the floor)")
    print(f"qlint check ONE_FILE, cold (no cache):            {cold:8.2f} s   peak RSS {cold_rss / 2**20:6.0f} MB   "
          f"ratio to floor {cold / floor:5.2f}x (target <= {NAMED_COLD_OF_FLOOR}x)")
    print(f"qlint check ONE_FILE, warm:                       {warm:8.2f} s   peak RSS {warm_rss / 2**20:6.0f} MB   "
          f"(target <= {NAMED_WARM_SECONDS} s); same findings as cold: {doc == warm_doc}")
    print(f"cold one-file ratio: {cold / floor:.2f}")
    if made and not args.keep:
        shutil.rmtree(made, ignore_errors=True)
    elif made:
        print(f"kept {bank}")


if __name__ == "__main__":
    main()
