#!/usr/bin/env python3
"""Measure every flaw rule against human labels and write the numbers the rule cards publish.

usage: python scripts/measure_accuracy.py [--labels DIR] [--write] [--check]

Runs `qlint check` with every rule on (those off by default included) over the labelled bank in
../shared/eval/benchmarker-dev/, scores the findings with ../shared/eval/score.py, and prints the
table. --write stores it in src/qlint/data/accuracy.json, which `qlint rule NAME` and the docs
read; --check exits 1 when the stored numbers differ from a fresh measurement. Exits 0 with a
note when ../shared is absent.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT.parent / "shared" / "eval"
STORED = ROOT / "src" / "qlint" / "data" / "accuracy.json"
DATASET = "BenchMarker dev split (863 items, human flaw labels)"


def measure(eval_dir: Path) -> dict:
    bank = eval_dir / "benchmarker-dev" / "bank"
    labels = eval_dir / "benchmarker-dev" / "labels.json"
    with tempfile.TemporaryDirectory() as tmp:
        findings = Path(tmp) / "findings.json"
        subprocess.run([sys.executable, "-m", "qlint", "check", str(bank), "--select", "ALL", "--format", "json",
                        "--exit-zero", "--no-cache", "-o", str(findings)], check=True, cwd=tmp)
        out = subprocess.run([sys.executable, str(eval_dir / "score.py"), str(labels), str(findings), "--json"],
                             check=True, capture_output=True, text=True).stdout
    rows = json.loads(out)["rules"]
    table = {}
    for row in rows:
        n = row["tp"] + row["fp"] + row["fn"] + row["tn"]
        table[row["rule"]] = {k: (round(row[k], 3) if row[k] == row[k] else None)
                              for k in ("precision", "recall", "kappa")}
        table[row["rule"]].update({k: row[k] for k in ("tp", "fp", "fn", "tn")}, n=n, label=row["flaw"],
                                  dataset=DATASET)
    return table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", type=Path, default=DEFAULT, help="the eval folder (with score.py)")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    if not (args.labels / "score.py").exists():
        print(f"no labelled data at {args.labels}; nothing measured")
        return 0
    table = measure(args.labels)
    print(f"{'rule':24} {'precision':>9} {'recall':>7} {'kappa':>6} {'n':>5}")
    for name, row in sorted(table.items()):
        fmt = lambda v: "  nan" if v is None else f"{v:5.2f}"  # noqa: E731
        print(f"{name:24} {fmt(row['precision']):>9} {fmt(row['recall']):>7} {fmt(row['kappa']):>6} {row['n']:5}")
    if args.write:
        STORED.parent.mkdir(exist_ok=True)
        STORED.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {STORED.relative_to(ROOT)}")
    if args.check:
        stored = json.loads(STORED.read_text(encoding="utf-8")) if STORED.exists() else {}
        if stored != table:
            print("stored accuracy differs from a fresh measurement: run with --write", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
