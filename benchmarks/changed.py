#!/usr/bin/env python3
"""Measure a run after one file changed against a cold run, and check it says byte for byte what --no-cache says.

usage:
  python benchmarks/changed.py --bank BANK                     # BANK: a folder of banks (copied, not touched)
  python benchmarks/changed.py --bank BANK --against OLD/src   # an older source tree too, run by run beside this one

For each tree, on its own copy of the bank: a cold run (empty cache), a warm one (nothing changed), then --runs
rounds of: one stem changed in one file (``common.touch_one_file``'s file and place, a new text each round, so the
cache never holds it), `qlint check . --format json` timed, and the same again with nothing changed (warm). The
trees take turns at every step. At the end the last edit is checked again with --no-cache, and its JSON must be
the same bytes as the run after the change. Prints medians: cold, one changed (and its share of cold), warm.
"""
from __future__ import annotations

import argparse
import re
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import CHANGED_OF_COLD, bank_files, launcher, qlint_env, timed  # noqa: E402


def check(bank: Path, out: Path, source: str, *extra: str) -> float:
    cmd = [sys.executable, "-m", "qlint", "check", ".", "--format", "json", "--exit-zero", "-o", str(out), *extra]
    elapsed, _, code, stderr = timed(cmd, bank, qlint_env(source))
    if code != 0:
        raise SystemExit(f"qlint failed ({code}): {stderr.strip()[-2000:]}")
    return elapsed


def edit(files: list[Path], original: str, round_: int) -> None:
    """The middle file's first stem changed, as ``touch_one_file`` changes it, with this round's own words."""
    target = files[len(files) // 2]
    target.write_text(re.sub(r'(stem: "?)', rf"\1Edited {round_}. ", original, count=1), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bank", type=Path, required=True)
    parser.add_argument("--against", help="an older qlint's source folder")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    launcher()
    here = str(Path(__file__).resolve().parents[1] / "src")   # this checkout's qlint, whichever one is installed
    trees = {"this": here, **({"older": str(Path(args.against).resolve())} if args.against else {})}
    with tempfile.TemporaryDirectory(prefix="qlint-changed-") as tmp:
        banks, files, originals = {}, {}, {}
        times: dict[str, dict[str, list[float]]] = {name: {"cold": [], "changed": [], "warm": []} for name in trees}
        for name in trees:
            banks[name] = Path(tmp) / name
            shutil.copytree(args.bank, banks[name], ignore=shutil.ignore_patterns(".qlint_cache"))
            files[name] = bank_files(banks[name])
            originals[name] = files[name][len(files[name]) // 2].read_text(encoding="utf-8")
        out = Path(tmp) / "out.json"
        for name, source in trees.items():
            times[name]["cold"].append(check(banks[name], out, source))
            check(banks[name], out, source)   # warm: the run index and bank findings in place
        for round_ in range(args.runs):
            order = list(trees.items()) if round_ % 2 == 0 else list(trees.items())[::-1]
            for name, source in order:
                edit(files[name], originals[name], round_)
                times[name]["changed"].append(check(banks[name], out, source))
                times[name]["warm"].append(check(banks[name], out, source))
        for name, source in trees.items():
            changed, fresh = Path(tmp) / f"{name}-changed.json", Path(tmp) / f"{name}-fresh.json"
            edit(files[name], originals[name], args.runs)
            check(banks[name], changed, source)
            check(banks[name], fresh, source, "--no-cache")
            same = changed.read_bytes() == fresh.read_bytes()
            cold = statistics.median(times[name]["cold"])
            one = statistics.median(times[name]["changed"])
            print(f"{name:6} cold {cold:6.2f} s  one changed {one:5.2f} s ({one / cold:6.1%} of cold, target "
                  f"{CHANGED_OF_COLD:.0%})  warm {statistics.median(times[name]['warm']):5.2f} s  "
                  f"changed {' '.join(f'{t:.2f}' for t in times[name]['changed'])}  "
                  f"output {'the same bytes as --no-cache' if same else 'DIFFERS from --no-cache'}")
            if not same:
                raise SystemExit(1)


if __name__ == "__main__":
    main()
