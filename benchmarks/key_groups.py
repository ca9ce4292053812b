#!/usr/bin/env python3
"""Measure key-length-bias's bank stage on banks of many folders: is its time linear in the number of groups?

usage:
  python benchmarks/key_groups.py              # 2,000 and 8,000 folders of 10 questions each
  python benchmarks/key_groups.py --scale 0.5  # every size halved

Runs the rule's survey and check in this process (the garbage collector off, as in a run) on generated bank items,
at a small and a four times larger size, in two shapes:
  tested   no folder is biased: every folder is tested, none reported,
  biased   every folder is biased: each is reported, and the bank, biased only through them, is not.
For each it prints the seconds (the best of --runs runs), the microseconds per question, and the ratio of the large
size's cost per question to the small one's: a linear stage keeps it near 1 (target at most 2; comparing every
group with every other grew it with the number of folders, 4x at these sizes). A time here is no test: the tests
check the verdicts against the card's reference (tests/rules/test_key_length_bias.py).
"""
from __future__ import annotations

import argparse
import gc
import time

from qlint.items import BankItem, Features, Places
from qlint.rules import key_length_bias

LINEAR_RATIO = 2.0
PER_FOLDER = 10


def items(folders: int, biased: bool) -> list[BankItem]:
    out = []
    for f in range(folders):
        for q in range(PER_FOLDER):
            n = f * PER_FOLDER + q
            # the long option is the key in every question (biased), or wherever chance puts it
            feature = key_length_bias.Longest(4, 1, 0 if biased else q % 4, 1.6)
            out.append(BankItem(f"q{n}", f"d{f}/a.yaml", 1 + 10 * q, 1, 9 + 10 * q, 1, (0,), 4, None, (), None, {},
                                Places({}), Features({key_length_bias.RULE.name: feature})))
    return out


def best_seconds(bank: list[BankItem], runs: int) -> float:
    options = key_length_bias.Options()
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        found = key_length_bias.verdicts(bank, options)
        list(key_length_bias.check(bank, options, found))
        best = min(best, time.perf_counter() - started)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="every size times this (default 1)")
    parser.add_argument("--runs", type=int, default=3, help="runs per size; the best is kept (default 3)")
    args = parser.parse_args(argv)
    gc.disable()
    missed = 0
    print(f"{'shape':<8} {'folders':>8} {'seconds':>9} {'us/question':>12}")
    for shape, biased in (("tested", False), ("biased", True)):
        costs = []
        for folders in (max(1, int(2000 * args.scale)), max(1, int(8000 * args.scale))):
            bank = items(folders, biased)
            seconds = best_seconds(bank, args.runs)
            costs.append(seconds / len(bank))
            print(f"{shape:<8} {folders:>8,} {seconds:>9.3f} {seconds / len(bank) * 1e6:>12.2f}")
        ratio = costs[1] / costs[0]
        verdict = "PASS" if ratio <= LINEAR_RATIO else "MISS"
        missed += verdict == "MISS"
        print(f"  cost per question, 4x the folders: {ratio:.2f}x (target <= {LINEAR_RATIO:.0f}x) {verdict}")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
