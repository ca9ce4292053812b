#!/usr/bin/env python3
"""Judged precision of qlint's default findings on real banks: draw a sample, hand it to reviewers, score it.

usage:
  python scripts/judged.py sample  [--per-rule 60] [--per-corpus 20] [--seed 1] [--top-up]
                                   draw findings to judge, round-robin across the corpora (each draw goes to the
                                   corpus with the fewest judged or drawn findings of that rule), so that a small
                                   bank counts as much as a big one; findings with a verdict are never drawn again
                                   but count towards their bank's share; --top-up keeps the sample file's rows
  python scripts/judged.py packets OUTDIR [--parts 3]
                                   review packets: the flaw's definition (../shared/eval/judging-definitions.md),
                                   what the checker says, and the question(s) re-attached from the corpus; nothing
                                   of the rule's code
  python scripts/judged.py settle A.csv B.csv [--third C.csv]
                                   merge two reviewers' verdicts (and a third look on their disagreements)
  python scripts/judged.py score   [--json] [--write]
                                   precision per rule and per corpus with 95% Wilson intervals, and whether each
                                   default rule meets its bar in every corpus where it fires 10 times or more
                                   (0.90; 0.95 at error); --write stores it in src/qlint/data/accuracy.json, from
                                   which the README and the rule cards publish it

The corpora are the six public banks in ../shared/corpora (JSON Lines). They are never copied into the project:
``eval/judged/verdicts.csv`` keeps only (corpus, question id, rule, verdict, one-line reason), and every command
re-attaches the text from ../shared/corpora by the id (``<corpus>-<line number>``, as ``to_bank.py`` writes it).
A bank-level finding (answer-position-bias) has the id ``*``: it is judged from the whole corpus's key table.

The findings are those of ``qlint check`` with the default rules and no configuration, per corpus (bank rules
compare a corpus's questions with each other); ``score`` also runs every rule that has verdicts, so that a rule
turned off by default for its judged precision keeps its number. A verdict is ``flaw``, ``false-alarm`` or
``debatable``; precision counts only ``flaw`` as right (debatable counts against the rule). A verdict whose
finding the rules no longer report is kept but not counted; a finding with no verdict is unjudged, and ``score``
lists how many there are per rule (``sample --top-up`` draws from them).
"""
from __future__ import annotations

import argparse
import csv
import gzip
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT.parent / "shared" / "corpora"
FLAWS = ROOT.parent / "shared" / "docs" / "item-writing-flaws.md"
DEFINITIONS = ROOT.parent / "shared" / "eval" / "judging-definitions.md"
# the project's own, for the rules the shared definitions leave out (read after them: they never override one)
OWN_DEFINITIONS = (ROOT / "eval" / "judged" / "definitions.md", ROOT / "eval" / "judged" / "bank-consistency-definitions.md")
JUDGED = ROOT / "eval" / "judged"
SAMPLE = JUDGED / "sample.csv"
STORED = ROOT / "src" / "qlint" / "data" / "accuracy.json"
VERDICTS = JUDGED / "verdicts.csv"
NAMES = ("linkedin-skill-assessments", "javascript-questions", "ditectrev-cloud-exams", "opentriviaqa",
         "agieval-en", "frenchmedmcqa")
VERDICT_WORDS = ("flaw", "false-alarm", "debatable")
BANK_LEVEL = "*"
PEER = re.compile(r"question '([^']+)'")
PAIR_RULES = frozenset(("near-duplicate-stem", "contradictory-keys", "enemy-items"))   # the claim names another question
NOT_JUDGED = frozenset(("internal-error",))   # a crash is a bug to fix, not a finding to judge
# a default rule must reach BAR in every corpus where it fires at least MIN_FINDINGS times; an error, ERROR_BAR
BAR, ERROR_BAR, MIN_FINDINGS = 0.90, 0.95, 10


def corpus_file(name: str) -> Path:
    plain = CORPORA / f"{name}.jsonl"
    return plain if plain.exists() else CORPORA / f"{name}.jsonl.gz"


def rows(name: str) -> list[dict]:
    path = corpus_file(name)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def line_of(qid: str) -> int:
    """The corpus line number in an id ``<corpus>-<line>``."""
    return int(qid.rsplit("-", 1)[1])


# --- running qlint over the corpora --------------------------------------------------------------------------

def findings(workdir: Path, extra: tuple[str, ...] = ()) -> dict[str, list[dict]]:
    """Default-rule findings per corpus (and those of the ``extra`` rules, on or off by default), from a bank
    written by ../shared/corpora/to_bank.py into ``workdir``."""
    out = {}
    for name in NAMES:
        bank = workdir / name
        if not bank.exists():
            subprocess.run([sys.executable, str(CORPORA / "to_bank.py"), str(corpus_file(name)), str(workdir)],
                           check=True, capture_output=True)
        report = workdir / f"{name}.json"
        select = ["--extend-select", ",".join(extra)] if extra else []
        subprocess.run([sys.executable, "-m", "qlint", "check", str(bank), "--format", "json", "--exit-zero",
                        "--no-cache", "-o", str(report), *select], check=True, cwd=workdir)
        out[name] = json.loads(report.read_text(encoding="utf-8"))["findings"]
    return out


def keys_of(found: dict[str, list[dict]]) -> dict[str, dict[tuple[str, str], dict]]:
    """rule -> (corpus, id) -> one finding (the first, when a rule fires twice on one question)."""
    by_rule: dict[str, dict[tuple[str, str], dict]] = defaultdict(dict)
    for corpus, items in found.items():
        for f in items:
            key = (corpus, f["question"] or BANK_LEVEL)
            by_rule[f["rule"]].setdefault(key, f)
    return by_rule


# --- files -----------------------------------------------------------------------------------------------------

def read_csv(path: Path) -> list[dict]:
    if not path.exists():
        return []
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def write_csv(path: Path, fields: list[str], records: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with tmp.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(records)
    os.replace(tmp, path)


# --- sample ----------------------------------------------------------------------------------------------------

def round_robin(pools: dict[str, list[str]], taken: dict[str, int], need: int, per_corpus: int | None = None
                ) -> dict[str, list[str]]:
    """Draws from each corpus's pool (already in random order), each going to the corpus with the fewest judged or
    drawn findings so far (``taken``), ties by name; ``need`` in all (or all there are), at most ``per_corpus``
    judged and drawn in a corpus."""
    counts = {c: taken.get(c, 0) for c in pools}
    picked: dict[str, list[str]] = {c: [] for c in pools}
    while need > 0:
        open_ = [c for c in pools if len(picked[c]) < len(pools[c])
                 and (per_corpus is None or counts[c] < per_corpus)]
        if not open_:
            break
        corpus = min(open_, key=lambda c: (counts[c], c))
        picked[corpus].append(pools[corpus][len(picked[corpus])])
        counts[corpus] += 1
        need -= 1
    return picked


def draw(by_rule: dict, per_rule: int, seed: int, skip: set[tuple[str, str, str]],
         only: set[str] | None = None, per_corpus: int | None = None) -> list[dict]:
    picked = []
    for rule in sorted(set(by_rule) - NOT_JUDGED):
        if only is not None and rule not in only:
            continue
        rng = random.Random(f"{seed}:{rule}")
        pools: dict[str, list[str]] = defaultdict(list)
        taken: Counter = Counter()
        for corpus, qid in sorted(by_rule[rule]):
            if (corpus, qid, rule) in skip:
                taken[corpus] += 1
            else:
                pools[corpus].append(qid)
        for pool in pools.values():
            rng.shuffle(pool)
        need = per_rule - sum(taken.values())
        for corpus, ids in sorted(round_robin(dict(pools), taken, need, per_corpus).items()):
            for qid in ids:
                f = by_rule[rule][(corpus, qid)]
                picked.append({"corpus": corpus, "id": qid, "rule": rule, "field": f.get("field") or "",
                               "message": f["message"]})
    return picked


def cmd_sample(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        by_rule = keys_of(findings(Path(tmp), tuple(args.rules.split(",")) if args.rules else ()))
    old = read_csv(SAMPLE) if args.top_up else []
    # findings with a verdict are never drawn again, and count towards their bank's share
    skip = {(r["corpus"], r["id"], r["rule"]) for r in [*old, *read_csv(VERDICTS)]}
    picked = draw(by_rule, args.per_rule, args.seed, skip, set(args.rules.split(",")) if args.rules else None,
                  args.per_corpus)
    records = old + picked
    write_csv(SAMPLE, ["corpus", "id", "rule", "field", "message"], records)
    counts = Counter(r["rule"] for r in records)
    per = Counter((r["rule"], r["corpus"]) for r in records)
    for rule in sorted(by_rule):
        spread = ", ".join(f"{short_name(c)} {per[(rule, c)]}" for c in NAMES if per[(rule, c)])
        print(f"{rule:28} {len(by_rule[rule]):6} findings  {counts[rule]:4} sampled  ({spread})")
    print(f"wrote {SAMPLE.relative_to(ROOT)} ({len(records)} rows, {len(picked)} new)")
    return 0


# --- packets ---------------------------------------------------------------------------------------------------

def judging_definitions(path: Path = DEFINITIONS) -> dict[str, str]:
    """rule name -> what it claims and when a finding is a true flaw, from the reviewers' definitions (a bullet
    ``- rule-name: ...`` and its indented continuation lines)."""
    out: dict[str, str] = {}
    current = None
    for line in path.read_text(encoding="utf-8").splitlines() if path.exists() else []:
        bullet = re.match(r"^- ([a-z][a-z0-9-]+): (.*)$", line)
        if bullet:
            current = bullet.group(1)
            out[current] = bullet.group(2).strip()
        elif current and line.startswith("  ") and line.strip():
            out[current] += " " + line.strip()
        else:
            current = None
    return out


def definitions() -> dict[str, str]:
    """rule name -> the definition a reviewer reads: the judging definition where there is one, else the flaw
    catalogue's row (../shared/docs/item-writing-flaws.md) and the rule card's summary and reason. Nothing of how
    the rule decides."""
    from qlint.registry import load_registry

    judging = judging_definitions()
    for own in OWN_DEFINITIONS:
        for name, text in judging_definitions(own).items():
            judging.setdefault(name, text)
    rows_ = {}
    for line in FLAWS.read_text(encoding="utf-8").splitlines() if FLAWS.exists() else []:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 4 and cells[0] and not cells[0].startswith("-"):
            rows_[cells[0]] = f"{cells[1]}; what identifies it: {cells[2]}; pitfalls (not the flaw): {cells[3]}"
    out = {}
    for rule in load_registry():
        if rule.name in judging:
            out[rule.name] = f"{rule.name}: {judging[rule.name]}\n"
            continue
        catalogue = rows_.get(rule.name, "")
        out[rule.name] = (f"{rule.name}: {rule.summary}\n  Why it is a flaw: {rule.why}\n"
                          + (f"  Catalogue: {catalogue}\n" if catalogue else ""))
    return out


def render_question(row: dict) -> str:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    lines = ["STEM:", row["stem"], "", "OPTIONS (* = marked correct):"]
    for i, option in enumerate(row["options"]):
        mark = "*" if option.get("correct") else " "
        lines.append(f" {mark} {letters[i % 26]}. {option['text']}")
        if option.get("rationale"):
            lines.append(f"      rationale: {option['rationale']}")
    if row.get("explanation"):
        lines += ["", "EXPLANATION:", row["explanation"]]
    return "\n".join(lines)


def key_table(corpus_rows: list[dict]) -> str:
    counts: dict[int, Counter] = defaultdict(Counter)
    for row in corpus_rows:
        keys = [i for i, o in enumerate(row["options"]) if o.get("correct")]
        if len(keys) == 1:
            counts[len(row["options"])][keys[0]] += 1
    lines = ["Key positions of single-key questions, by option count:"]
    for k in sorted(counts):
        total = sum(counts[k].values())
        cells = ", ".join(f"{'ABCDEFGHIJ'[i] if i < 10 else i}: {counts[k][i]}" for i in range(k))
        lines.append(f"  {k} options ({total} questions): {cells}")
    return "\n".join(lines)


def cmd_packets(args: argparse.Namespace) -> int:
    sample = read_csv(SAMPLE)
    done = {(r["corpus"], r["id"], r["rule"]) for r in read_csv(VERDICTS)}
    todo = [r for r in sample if (r["corpus"], r["id"], r["rule"]) not in done]
    defs = definitions()
    cache = {}
    out = Path(args.outdir)
    out.mkdir(parents=True, exist_ok=True)
    order = sorted(todo, key=lambda r: (random.Random(f"{r['corpus']}{r['id']}{r['rule']}").random()))
    for part in range(args.parts):
        chunk = order[part::args.parts]
        blocks = [PACKET_HEAD]
        for number, r in enumerate(chunk, 1):
            if r["corpus"] not in cache:
                cache[r["corpus"]] = rows(r["corpus"])
            corpus_rows = cache[r["corpus"]]
            body = "" if r["id"] == BANK_LEVEL else render_question(corpus_rows[line_of(r["id"]) - 1])
            if r["rule"] == "answer-position-bias":
                body = key_table(corpus_rows) + "\n\n" + body
            peer = PEER.search(r.get("message", "")) if r["rule"] in PAIR_RULES else None
            if peer is not None:   # the other question, so that the reviewer can compare the two
                other = corpus_rows[line_of(peer.group(1)) - 1]
                body = f"QUESTION 1 (flagged):\n{body}\n\nQUESTION 2 (the one the claim names):\n" + \
                    render_question(other)
            blocks.append(f"=== item {number} | key {r['corpus']}|{r['id']}|{r['rule']} ===\n"
                          f"FLAW CLAIMED: {defs.get(r['rule'], r['rule'])}"
                          f"WHERE: {r['field'] or 'the question'}\nCHECKER SAYS: {r.get('message', '')}\n\n{body}\n")
        (out / f"part-{part + 1}.txt").write_text("\n".join(blocks), encoding="utf-8")
        print(f"{out / f'part-{part + 1}.txt'}: {len(chunk)} items")
    return 0


PACKET_HEAD = """\
Judge each item below on its own. Each names a flaw that a checker claims the question has, and where.
Read the flaw's definition and the question, then decide whether a careful item writer would agree that THIS
question has THIS flaw at that place:
  flaw         - yes, the flaw is there and worth the author's attention
  false-alarm  - no, the claimed flaw is not there (or what is there is not that flaw)
  debatable    - reasonable item writers could disagree
Answer with one CSV line per item: key,verdict,reason  (the key exactly as given after "key"; the reason one short
line, no commas needed but allowed inside double quotes). Do not copy question text into the reason beyond a word
or two.
"""


# --- settle ----------------------------------------------------------------------------------------------------

def read_verdicts(path: Path) -> dict[tuple[str, str, str], tuple[str, str]]:
    out = {}
    with path.open(encoding="utf-8", newline="") as handle:
        for record in csv.reader(handle):
            if len(record) < 2 or record[0] == "key":
                continue
            corpus, qid, rule = record[0].split("|")
            verdict = record[1].strip().lower()
            if verdict not in VERDICT_WORDS:
                raise SystemExit(f"{path}: {record[0]}: verdict {verdict!r} is not one of {VERDICT_WORDS}")
            out[(corpus, qid, rule)] = (verdict, ",".join(record[2:]).strip())
    return out


def cmd_settle(args: argparse.Namespace) -> int:
    a, b = read_verdicts(Path(args.a)), read_verdicts(Path(args.b))
    third = read_verdicts(Path(args.third)) if args.third else {}
    kept = {(r["corpus"], r["id"], r["rule"]): r for r in read_csv(VERDICTS)}
    open_ = []
    for key in sorted(set(a) & set(b)):
        (va, ra), (vb, rb) = a[key], b[key]
        if va == vb:
            kept[key] = {"corpus": key[0], "id": key[1], "rule": key[2], "verdict": va, "reason": ra,
                         "agreement": "both"}
        elif key in third:
            vc, rc = third[key]
            kept[key] = {"corpus": key[0], "id": key[1], "rule": key[2], "verdict": vc, "reason": rc,
                         "agreement": f"third look ({va} vs {vb})"}
        else:
            open_.append((key, va, ra, vb, rb))
    write_csv(VERDICTS, ["corpus", "id", "rule", "verdict", "reason", "agreement"],
              [kept[k] for k in sorted(kept)])
    agree = sum(1 for k in set(a) & set(b) if a[k][0] == b[k][0])
    print(f"{len(set(a) & set(b))} judged twice, {agree} agreed; {len(open_)} disagreements need a third look")
    for key, va, ra, vb, rb in open_:
        print(f"{'|'.join(key)}: {va} ({ra}) / {vb} ({rb})")
    return 0


# --- score -----------------------------------------------------------------------------------------------------

def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _cell(verdicts: list[str], findings: int) -> dict:
    verdict = Counter(verdicts)
    n = sum(verdict.values())
    low, high = wilson(verdict["flaw"], n)
    return {"findings": findings, "judged": n, "flaw": verdict["flaw"], "false_alarm": verdict["false-alarm"],
            "debatable": verdict["debatable"], "precision": round(verdict["flaw"] / n, 3) if n else None,
            "low": round(low, 3), "high": round(high, 3), "unjudged": findings - n}


def score(by_rule: dict, verdicts: list[dict]) -> dict[str, dict]:
    """Per rule: the pooled precision, and ``by_corpus``: the same per corpus (only flaw counts as right)."""
    table = {}
    judged: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    stale: Counter = Counter()
    for v in verdicts:
        if (v["corpus"], v["id"]) in by_rule.get(v["rule"], {}):
            judged[v["rule"]][v["corpus"]].append(v["verdict"])
        else:
            stale[v["rule"]] += 1
    for rule in sorted(set(by_rule) | set(judged)):
        found = Counter(corpus for corpus, _ in by_rule.get(rule, {}))
        row = _cell([x for c in judged[rule].values() for x in c], sum(found.values()))
        row["no_longer_reported"] = stale[rule]
        row["by_corpus"] = {c: _cell(judged[rule][c], found[c]) for c in NAMES if found[c] or judged[rule][c]}
        table[rule] = row
    return table


def short_name(corpus: str) -> str:
    return corpus.split("-")[0]


def verdict_on_bars(table: dict, severities: dict[str, str]) -> dict[str, list[str]]:
    """For each default rule, the corpora where it fires MIN_FINDINGS times or more and its judged precision falls
    short of its bar (0.95 at error, else 0.90), or that have no verdicts to tell."""
    out: dict[str, list[str]] = {}
    for rule, row in table.items():
        if rule not in severities:
            continue
        bar = ERROR_BAR if severities[rule] == "error" else BAR
        notes = []
        for corpus, cell in row["by_corpus"].items():
            if cell["findings"] < MIN_FINDINGS:
                continue
            if not cell["judged"]:
                notes.append(f"{short_name(corpus)}: no verdicts")
            elif cell["precision"] < bar:
                notes.append(f"{short_name(corpus)}: {cell['precision']:.2f} < {bar:.2f} (n={cell['judged']})")
        out[rule] = notes
    return out


def _write(table: dict) -> None:
    stored = json.loads(STORED.read_text(encoding="utf-8")) if STORED.exists() else {}
    for row in stored.values():
        row.pop("judged", None)
        row.pop("judged_by_corpus", None)
    keys = ("judged", "flaw", "false_alarm", "debatable", "precision", "low", "high")
    for rule, row in table.items():
        if row["judged"]:
            stored.setdefault(rule, {})["judged"] = {k: row[k] for k in keys}
            stored[rule]["judged_by_corpus"] = {c: {k: cell[k] for k in ("findings", *keys)}
                                                for c, cell in row["by_corpus"].items()}
    STORED.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def _print(table: dict, bars: dict[str, list[str]]) -> None:
    print(f"{'rule':28} {'findings':>8} {'judged':>6} {'flaw':>5} {'FA':>4} {'deb':>4} {'precision':>9} "
          f"{'95% interval':>14} {'unjudged':>8}")
    for rule, row in table.items():
        p = "-" if row["precision"] is None else f"{row['precision']:.2f}"
        print(f"{rule:28} {row['findings']:8} {row['judged']:6} {row['flaw']:5} {row['false_alarm']:4} "
              f"{row['debatable']:4} {p:>9} {row['low']:6.2f}-{row['high']:.2f} {row['unjudged']:8}")
    print("\nper corpus: precision (95% interval) judged/findings")
    print(f"{'rule':28}" + "".join(f" {short_name(c):>24}" for c in NAMES))
    for rule, row in table.items():
        cells = []
        for c in NAMES:
            cell = row["by_corpus"].get(c)
            if cell is None:
                cells.append("-")
            elif not cell["judged"]:
                cells.append(f"?  0/{cell['findings']}")
            else:
                cells.append(f"{cell['precision']:.2f} ({cell['low']:.2f}-{cell['high']:.2f}) "
                             f"{cell['judged']}/{cell['findings']}")
        print(f"{rule:28}" + "".join(f" {x:>24}" for x in cells))
    total = Counter()
    for row in table.values():
        total.update({"flaw": row["flaw"], "judged": row["judged"]})
    if total["judged"]:
        low, high = wilson(total["flaw"], total["judged"])
        print(f"\nall judged findings: {total['flaw']}/{total['judged']} = {total['flaw'] / total['judged']:.2f} "
              f"({low:.2f}-{high:.2f})")
    print(f"\ndefault rules against their bar ({BAR:.2f}, {ERROR_BAR:.2f} at error) in every corpus where they fire "
          f"{MIN_FINDINGS} times or more:")
    for rule, notes in sorted(bars.items()):
        print(f"  {rule:28} {'meets it' if not notes else '; '.join(notes)}")


def _defaults() -> dict[str, str]:
    """rule name -> default severity, for the rules on by default."""
    from qlint.registry import load_registry

    return {r.name: str(r.severity) for r in load_registry() if r.enabled}


def cmd_score(args: argparse.Namespace) -> int:
    verdicts = read_csv(VERDICTS)
    # every rule with verdicts runs, off by default or not: a rule turned off for its precision keeps its number
    with tempfile.TemporaryDirectory() as tmp:
        by_rule = keys_of(findings(Path(tmp), tuple(sorted({v["rule"] for v in verdicts}))))
    table = score(by_rule, verdicts)
    bars = verdict_on_bars(table, _defaults())
    if args.write:
        _write(table)
    if args.json:
        json.dump({"rules": table, "bars": bars}, sys.stdout, indent=1, sort_keys=True)
        print()
        return 0
    _print(table, bars)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("sample")
    p.add_argument("--per-rule", type=int, default=60, help="findings per rule, judged ones included")
    p.add_argument("--per-corpus", type=int, default=None, help="at most this many per rule and corpus")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--top-up", action="store_true")
    p.add_argument("--rules", help="only these rules (comma-separated names)")
    p = sub.add_parser("packets")
    p.add_argument("outdir")
    p.add_argument("--parts", type=int, default=3)
    p = sub.add_parser("settle")
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--third")
    p = sub.add_parser("score")
    p.add_argument("--json", action="store_true")
    p.add_argument("--write", action="store_true")
    args = parser.parse_args()
    if not CORPORA.is_dir():
        print(f"no corpora at {CORPORA}; nothing to do")
        return 0
    return {"sample": cmd_sample, "packets": cmd_packets, "settle": cmd_settle, "score": cmd_score}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
