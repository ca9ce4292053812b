#!/usr/bin/env python3
"""Measure a run after one file changed against a cold run, and check it says byte for byte what --no-cache says.

usage:
  python benchmarks/changed.py --bank BANK                     # BANK: a folder of banks (copied, not touched)
  python benchmarks/changed.py --bank BANK --against OLD/src   # an older source tree too, run by run beside this one

For each tree, on its own copy of the bank: a cold run (empty cache), a warm one (nothing changed), then --runs
rounds of: one stem changed in one file (``common.touch_one_file``'s file and place, a new text each round, so the
cache never holds it), `qlint check . --format json` timed, and the same again with nothing changed (warm). The
trees take turns at every step. Prints each tree's medians, in wall and in CPU seconds (on a shared machine the
CPU's say more): cold, one changed (and its share of cold), warm. At the end this tree's run after one more change
is checked against --no-cache: its JSON must be the same bytes.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import CHANGED_OF_COLD, bank_files, qlint_env  # noqa: E402


def check(bank: Path, out: Path, source: str, *extra: str) -> tuple[float, float]:
    """Wall and CPU seconds (user and system, qlint's and its workers') of one run: on a machine shared with other
    work the CPU seconds say more than the wall's."""
    cmd = [sys.executable, "-m", "qlint", "check", ".", "--format", "json", "--exit-zero", "-o", str(out), *extra]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=bank, env=qlint_env(source), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stderr = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"qlint failed ({code}): {stderr.strip()[-2000:]}")
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


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
    here = str(Path(__file__).resolve().parents[1] / "src")   # this checkout's qlint, whichever one is installed
    trees = {"this": here, **({"older": str(Path(args.against).resolve())} if args.against else {})}
    with tempfile.TemporaryDirectory(prefix="qlint-changed-") as tmp:
        banks, files, originals = {}, {}, {}
        times: dict[str, dict[str, list[tuple[float, float]]]] = {
            name: {"cold": [], "changed": [], "warm": []} for name in trees}
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
            report(name, times[name])
        changed, fresh = Path(tmp) / "changed.json", Path(tmp) / "fresh.json"
        edit(files["this"], originals["this"], args.runs)
        check(banks["this"], changed, trees["this"])
        check(banks["this"], fresh, trees["this"], "--no-cache")
        same = changed.read_bytes() == fresh.read_bytes()
        print(f"this tree after one change: {'the same bytes as --no-cache' if same else 'DIFFERS from --no-cache'}")
        if not same:
            raise SystemExit(1)


def report(name: str, times: dict[str, list[tuple[float, float]]]) -> None:
    """One tree's medians, wall and CPU seconds, and each run after a change."""
    def median(kind: str, at: int) -> float:
        return statistics.median(t[at] for t in times[kind])

    for at, what in ((0, "wall"), (1, "cpu")):
        cold, one, warm = median("cold", at), median("changed", at), median("warm", at)
        print(f"{name:6} {what:4} cold {cold:6.2f} s  one changed {one:5.2f} s ({one / cold:6.1%} of cold, target "
              f"{CHANGED_OF_COLD:.0%})  warm {warm:5.2f} s  changed {' '.join(f'{t[at]:.2f}' for t in times['changed'])}")


if __name__ == "__main__":
    main()
