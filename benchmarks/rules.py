#!/usr/bin/env python3
"""Time each stage of a cold check over a bank, one process, no cache: where does a cold run's time go?

usage:
  python benchmarks/rules.py BANK               # every file under BANK, the rules BANK's config turns on
  python benchmarks/rules.py BANK --top 15      # only the 15 costliest rows

Reads every file of the bank as `qlint check BANK --no-cache --jobs 1` would (its own config, the same walk), with
the garbage collector off as in a run, and prints the seconds of: reading (bytes to questions), each question rule's
check over every question (findings built and placed as the engine builds them), each bank rule's per-question
features (``extract``), building the bank items, and each bank rule over the whole bank. Beside them the GC-free
libyaml parse of the same files (benchmarks/common.py ``parse_floor``), which the cold target is stated against.
Every figure is this process's CPU seconds (``time.process_time``), the floor's too: on a machine shared with other
work they move far less than wall seconds. Each stage runs once, over a file's questions before the next stage: a
small memo two bank rules share (a stem read once for both) is charged to the first, where a run, which extracts
every rule's features of one question before the next question's, shares it. The numbers are for choosing what to
make faster, not a test.
"""
from __future__ import annotations

import argparse
import gc
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import parse_floor  # noqa: E402

from qlint.config import resolve_rules  # noqa: E402
from qlint.engine import check_bank, check_questions  # noqa: E402
from qlint.files import read_file, relative  # noqa: E402
from qlint.formats import parse  # noqa: E402
from qlint.items import to_item  # noqa: E402
from qlint.rule import BankRule, QuestionRule  # noqa: E402
from qlint.run.pipeline import setup, walk_files  # noqa: E402
from qlint.run.settings import resolve  # noqa: E402


def measure(bank: Path) -> tuple[dict[str, float], list[Path]]:
    """Seconds by stage (``read``, ``question NAME``, ``extract NAME``, ``items``, ``bank NAME``) over the bank."""
    config, registry = setup(None, bank)
    active = resolve_rules(config, registry)
    stages = resolve(config, registry, None)
    files = list(walk_files(stages.walk, [bank]))
    seconds: dict[str, float] = defaultdict(float)
    items = []
    for path in files:
        start = time.process_time()
        data, _, problem = read_file(path, stages.limits)
        parsed = parse(data, relative(path), stages.limits, path, problem)
        seconds["read"] += time.process_time() - start
        for a in active:
            start = time.process_time()
            if isinstance(a.rule, QuestionRule):
                check_questions(parsed.questions, [a])
                seconds[f"question {a.rule.name}"] += time.process_time() - start
        start = time.process_time()
        made = [to_item(q) for q in parsed.questions]
        seconds["items"] += time.process_time() - start
        for a in active:
            if isinstance(a.rule, BankRule) and a.rule.extract is not None:
                start = time.process_time()
                for item, loaded in zip(made, parsed.questions):
                    item.features[a.rule.name] = a.rule.extract(loaded.question, a.options)
                seconds[f"extract {a.rule.name}"] += time.process_time() - start
        items += made
    for a in active:
        if isinstance(a.rule, BankRule):
            start = time.process_time()
            check_bank(items, [a])
            seconds[f"bank {a.rule.name}"] += time.process_time() - start
    return seconds, files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bank", type=Path, help="the bank's folder")
    parser.add_argument("--top", type=int, default=0, help="show only this many of the costliest rows")
    args = parser.parse_args(argv)
    gc.disable()
    seconds, files = measure(args.bank.resolve())
    floor = parse_floor(files, clock=time.process_time)
    total = sum(seconds.values())
    rows = sorted(seconds.items(), key=lambda kv: -kv[1])
    if args.top:
        rows = rows[:args.top]
    print(f"{'stage':<40} {'seconds':>8} {'of floor':>9}")
    for name, value in rows:
        print(f"{name:<40} {value:>8.2f} {value / floor:>8.2f}x")
    print(f"{'all stages':<40} {total:>8.2f} {total / floor:>8.2f}x")
    print(f"{'floor (GC-free libyaml parse)':<40} {floor:>8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
