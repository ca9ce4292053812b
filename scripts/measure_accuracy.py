#!/usr/bin/env python3
"""Measure every flaw rule against human labels and write the numbers the rule cards publish.

usage: python scripts/measure_accuracy.py [--labels DIR] [--write] [--check]

Runs `qlint check` with every rule on (those off by default included) over the labelled bank in
../shared/eval/benchmarker-dev/, scores the findings with ../shared/eval/score.py, and prints the
table. --write stores it in src/qlint/data/accuracy.json, which `qlint rule NAME` and the docs
read; --check exits 1 when the stored numbers differ from a fresh measurement. Exits 0 with a
note when ../shared is absent.

The labels are split once, by a hash of the item id, into a part the rules may be studied on (about 60%) and a
part that is only ever measured (about 40%; nobody reads its items). Both are published: the study part's numbers
are optimistic (the rules were developed with those items), the measured part's estimate new items.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT.parent / "shared" / "eval"
STORED = ROOT / "src" / "qlint" / "data" / "accuracy.json"
DATASET = "BenchMarker dev labels, 863 items"
JUDGED_KEYS = ("judged", "judged_by_corpus")
PARTS = {"study": "the 60% of the dev labels the rules were developed with (optimistic)",
         "measure": "the 40% of the dev labels never studied (an estimate for new items)"}


def part(qid: str) -> str:
    """Which part of the dev labels an item belongs to: fixed by its id, about 60% study and 40% measure."""
    return "study" if hashlib.sha256(qid.encode()).digest()[0] * 100 // 256 < 60 else "measure"


def _score(eval_dir: Path, labels: dict, findings: Path, tmp: Path) -> dict:
    path = tmp / "labels.json"
    path.write_text(json.dumps(labels), encoding="utf-8")
    out = subprocess.run([sys.executable, str(eval_dir / "score.py"), str(path), str(findings), "--json"],
                         check=True, capture_output=True, text=True).stdout
    table = {}
    for row in json.loads(out)["rules"]:
        n = row["tp"] + row["fp"] + row["fn"] + row["tn"]
        table[row["rule"]] = {k: (round(row[k], 3) if row[k] == row[k] else None)
                              for k in ("precision", "recall", "kappa")}
        table[row["rule"]].update({k: row[k] for k in ("tp", "fp", "fn", "tn")}, n=n, label=row["flaw"])
    return table


def measure(eval_dir: Path) -> dict:
    bank = eval_dir / "benchmarker-dev" / "bank"
    labels = json.loads((eval_dir / "benchmarker-dev" / "labels.json").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        findings = Path(tmp) / "findings.json"
        subprocess.run([sys.executable, "-m", "qlint", "check", str(bank), "--select", "ALL", "--format", "json",
                        "--exit-zero", "--no-cache", "-o", str(findings)], check=True, cwd=tmp)
        parts = {name: _score(eval_dir, {q: v for q, v in labels.items() if part(q) == name}, findings, Path(tmp))
                 for name in PARTS}
    table = {}
    for rule in sorted(set().union(*parts.values())):
        table[rule] = {"dataset": DATASET, **{name: parts[name].get(rule) for name in PARTS}}
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
    fmt = lambda v: "  nan" if v is None else f"{v:5.2f}"  # noqa: E731
    print(f"{'':24} {'study part (developed on)':>27}   {'measured part (held out)':>27}")
    print(f"{'rule':24} {'prec':>6} {'recall':>6} {'kappa':>6} {'n':>5}   {'prec':>6} {'recall':>6} {'kappa':>6} {'n':>5}")
    for name, row in sorted(table.items()):
        cells = []
        for p in PARTS:
            r = row[p] or {"precision": None, "recall": None, "kappa": None, "n": 0}
            cells.append(f"{fmt(r['precision']):>6} {fmt(r['recall']):>6} {fmt(r['kappa']):>6} {r['n']:5}")
        print(f"{name:24} {cells[0]}   {cells[1]}")
    for p in PARTS:
        ks = [row[p]["kappa"] for row in table.values() if row[p] and row[p]["kappa"] is not None]
        print(f"mean kappa, {p} part: {sum(ks) / len(ks):.3f} over {len(ks)} rules")
    stored = json.loads(STORED.read_text(encoding="utf-8")) if STORED.exists() else {}
    # the judged precision on real banks (scripts/judged.py), pooled and per bank, lives in the same file: keep it
    judged = {rule: {k: v for k, v in row.items() if k in JUDGED_KEYS} for rule, row in stored.items()}
    merged = {rule: {**row, **judged.get(rule, {})} for rule, row in table.items()}
    merged.update({rule: row for rule, row in judged.items() if rule not in table and row})
    if args.write:
        STORED.parent.mkdir(exist_ok=True)
        STORED.write_text(json.dumps(merged, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {STORED.relative_to(ROOT)}")
    if args.check:
        if stored != merged:
            print("stored accuracy differs from a fresh measurement: run with --write", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
