#!/usr/bin/env python3
"""Checking a bank kept as Moodle XML against checking the same questions kept as YAML.

usage: formats.py [--questions 10000] [--jobs 1] [--repeat 1]

Writes a synthetic YAML bank (gen_bank.py), converts it to Moodle XML with qlint's own writer (one XML file per
YAML file), then times a full uncached ``check`` of each and reading alone. Prints both times and the ratio
(Moodle XML / YAML); the target is a ratio of at most 2.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from qlint.formats import discover_banks, read
from qlint.formats.convert import collect
from qlint.formats.write import Output, save
from qlint.formats.write_xml import write_moodle
from qlint.limits import Limits
from qlint.run.pipeline import run_check

HERE = Path(__file__).resolve().parent


def _best(action, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return min(times)


def _read_all(folder: Path) -> int:
    limits = Limits()
    return sum(len(read(p.read_bytes(), p.name, limits).questions) for p in discover_banks([folder]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        yaml_dir, xml_dir = Path(tmp) / "yaml", Path(tmp) / "xml"
        subprocess.run([sys.executable, str(HERE / "gen_bank.py"), str(yaml_dir), "--questions", str(args.questions)],
                       check=True, stdout=subprocess.DEVNULL)
        (yaml_dir / "truth.json").unlink(missing_ok=True)
        parts, problems = collect([yaml_dir], Limits())
        output = Output()
        write_moodle(parts, output)
        save(output.files, xml_dir)
        count = sum(len(p.questions) for p in parts)
        run_check([str(xml_dir)], use_cache=False, jobs=args.jobs)   # warm-up: imports, rule data, first-call caches
        check = {name: _best(lambda d=folder: run_check([str(d)], use_cache=False, jobs=args.jobs), args.repeat)
                 for name, folder in (("yaml", yaml_dir), ("moodle-xml", xml_dir))}
        reading = {name: _best(lambda d=folder: _read_all(d), args.repeat)
                   for name, folder in (("yaml", yaml_dir), ("moodle-xml", xml_dir))}
    print(f"{count} questions ({len(problems)} problems reading the YAML), jobs={args.jobs}")
    for label, times in (("check", check), ("read only", reading)):
        ratio = times["moodle-xml"] / times["yaml"]
        print(f"{label:>9}: yaml {times['yaml']:.2f}s  moodle-xml {times['moodle-xml']:.2f}s  ratio {ratio:.2f}")


if __name__ == "__main__":
    main()
