#!/usr/bin/env python3
"""Measure qlint's start-up: `qlint --version` and a warm check of one small file, with yamllint on the same file.

usage:
  python benchmarks/startup.py                      # this qlint, 15 runs of each command
  python benchmarks/startup.py --runs 30
  python benchmarks/startup.py --against OLD/src    # also an older source tree, run by run beside this one

These are the paths an editor and a pre-commit hook pay on every call. Each command runs in a fresh process, in
turn with the others (so a busy moment of a shared machine falls on all of them alike), from a folder holding one
small bank file and its cache (the warm check: the cache was filled by a first run). Prints the median wall time
of each (with Python doing nothing, and importing pydantic alone, as floors), the ratio of the warm check to
yamllint on the same file (target at most 1.7x, and at most 0.2 s), of `--version` to the target 0.12 s, and with
``--against`` the ratio of this tree to the older one, command by command.
The same check with ``--no-cache`` (every rule imported and run on the file) is shown beside them.
yamllint is left out, with a note, when it is not installed.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import TINY_OF_YAMLLINT, TINY_WARM_SECONDS, VERSION_SECONDS, qlint_env  # noqa: E402

SMALL_BANK = """\
questions:
  - id: capital-fr
    stem: What is the capital of France?
    options:
      - {text: Paris, correct: true, rationale: Paris has been the capital since the tenth century.}
      - {text: Lyon, rationale: Lyon is the third city of France by population.}
      - {text: Marseille, rationale: Marseille is the main port on the Mediterranean.}
      - {text: Lille, rationale: Lille is the main city of the north.}
  - id: photosynthesis-gas
    stem: Which gas do plants take in for photosynthesis?
    options:
      - {text: Oxygen, rationale: Plants give off oxygen; they take in carbon dioxide.}
      - {text: Carbon dioxide, correct: true, rationale: Carbon dioxide is fixed into sugars.}
      - {text: Nitrogen, rationale: "Nitrogen is taken up through the roots, as nitrates."}
      - {text: Helium, rationale: Helium plays no part in a plant's life.}
"""


PYDANTIC = "python: import pydantic's BaseModel"


def _qlint_command() -> list[str]:
    """The ``qlint`` console script beside this interpreter, as a user runs it; else ``python -m qlint``."""
    script = Path(sys.executable).with_name("qlint")
    return [str(script)] if script.exists() else [sys.executable, "-m", "qlint"]


def _yamllint_command() -> list[str] | None:
    script = Path(sys.executable).with_name("yamllint")
    if script.exists():
        return [str(script)]
    found = shutil.which("yamllint")
    return [found] if found else None


def _once(cmd: list[str], cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def _commands(qlint: list[str], yamllint: list[str] | None, against: str | None) -> dict[str, tuple]:
    """Each timed command by its label: (argv, environment)."""
    trees = [("", None)] + ([(" (older)", against)] if against else [])
    commands: dict[str, tuple] = {
        "python -c pass": ([sys.executable, "-c", "pass"], qlint_env()),
        # what a check still pays before any of qlint's own work: its settings and options are pydantic models
        PYDANTIC: ([sys.executable, "-c", "from pydantic import BaseModel"], qlint_env()),
    }
    for suffix, source in trees:
        env = qlint_env(source)
        commands[f"qlint --version{suffix}"] = ([*qlint, "--version"], env)
        commands[f"qlint check one.yaml, warm{suffix}"] = ([*qlint, "check", "one.yaml", "--exit-zero"], env)
        commands[f"qlint check one.yaml --no-cache{suffix}"] = ([*qlint, "check", "one.yaml", "--exit-zero", "--no-cache"],
                                                             env)
    if yamllint:
        commands["yamllint one.yaml"] = ([*yamllint, "one.yaml"], qlint_env())
    return commands


def measure(runs: int, against: str | None) -> dict[str, float]:
    """The median wall time of each command over ``runs`` rounds, the commands in turn within each round."""
    folder = Path(tempfile.mkdtemp(prefix="qlint-startup-"))
    try:
        (folder / "one.yaml").write_text(SMALL_BANK, encoding="utf-8")
        commands = _commands(_qlint_command(), _yamllint_command(), against)
        for argv, env in commands.values():   # warms the cache, the bytecode and the file cache
            _once(argv, folder, env)
        times: dict[str, list[float]] = {label: [] for label in commands}
        for _ in range(runs):
            for label, (argv, env) in commands.items():
                times[label].append(_once(argv, folder, env))
        return {label: statistics.median(values) for label, values in times.items()}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def report(medians: dict[str, float], runs: int) -> None:
    print(f"medians of {runs} runs, commands in turn (one small bank file, 2 questions; the check's cache warm)")
    for label, value in medians.items():
        print(f"  {label:<38} {value * 1000:7.1f} ms")
    version, warm = medians["qlint --version"], medians["qlint check one.yaml, warm"]
    print(f"qlint --version: {version:.3f} s, {version / VERSION_SECONDS:.2f}x the {VERSION_SECONDS} s target")
    pydantic = medians[PYDANTIC]
    print(f"warm one-file check: {warm:.3f} s, {warm / TINY_WARM_SECONDS:.2f}x the {TINY_WARM_SECONDS} s target; "
          f"{warm - pydantic:.3f} s more than importing pydantic alone ({pydantic:.3f} s)")
    if "yamllint one.yaml" in medians:
        print(f"warm one-file check / yamllint on the same file: {warm / medians['yamllint one.yaml']:.2f}x "
              f"(target at most {TINY_OF_YAMLLINT}x)")
    else:
        print("yamllint is not installed: no peer ratio (pip install yamllint)")
    for label in ("qlint --version", "qlint check one.yaml, warm", "qlint check one.yaml --no-cache"):
        older = medians.get(f"{label} (older)")
        if older:
            print(f"{label}: {medians[label] / older:.2f}x the older tree's time")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="rounds of every command (default 15)")
    parser.add_argument("--against", metavar="SRC", help="an older qlint's source folder (its src/), timed beside this one")
    args = parser.parse_args()
    report(measure(max(1, args.runs), args.against), max(1, args.runs))


if __name__ == "__main__":
    main()
