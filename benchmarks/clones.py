#!/usr/bin/env python3
"""Clones of real stems: does near-duplicate-stem find them, and stay quiet on everything else?

usage:
  python benchmarks/clones.py [--per-corpus 70] [--seed 1] [--out DIR] [--corpora DIR]

Reads the public corpora beside the checkout (../shared/corpora, JSON Lines) at run time and never copies them:
the bank is written to a temporary folder (or --out) and removed afterwards unless --out is given. From each
corpus it draws real questions whose stems are unlike each other, and clones each one with one or two small edits
to the stem (a filler word, a swapped pair of neighbouring words, a comma), in one of these kinds:

  same      the options kept as they are
  shuffled  the options kept, in another order
  half      half of the options (rounded up) replaced by options of other questions of the corpus
  all       every option replaced
  miskey    the options kept, another option marked as the key

The bank also holds, for an original that shares its passage or scenario with other questions of its corpus, up
to ``--siblings`` of those questions: they ask something else about the same setup and must not be reported. The
script runs ``qlint check --select near-duplicate-stem`` on the bank and prints, per kind, the share of clones
reported against their original (recall), and how many questions without a twin were reported. It also checks the
wording: a clone whose options differ says so, and one whose key disagrees is called a likely mis-key.
"""
from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPORA = HERE.parent.parent / "shared" / "corpora"
NAMES = ("linkedin-skill-assessments", "javascript-questions", "ditectrev-cloud-exams", "opentriviaqa",
         "agieval-en", "frenchmedmcqa")
KINDS = ("same", "shuffled", "half", "all", "miskey")
FILLERS = {"en": ("actually", "really", "just", "exactly", "currently", "then", "also", "indeed", "basically",
                  "here", "now", "generally"),
           "fr": ("bien", "donc", "alors", "aussi", "ici", "ensuite", "vraiment", "exactement")}
_FRENCH = re.compile(r"\b(?:le|la|les|des|est|sont|une|du|parmi|quelle|quel|suivantes?)\b", re.I)
# a plain word (accents as combining marks included), not part of an identifier
_WORD = re.compile(r"(?<![\w'\u0300-\u036f-])(?:[^\W\d_]|[\u0300-\u036f]){2,}(?![\w'\u0300-\u036f-])")
# code, quoted terms, images and links: a clone's edits stay in the prose
_CODE = re.compile(r"```.*?(?:```|\Z)|`[^`\n]*`|\"[^\"\n]{1,40}\"|“[^”\n]{1,40}”|!\[[^\]]*\]\([^)]*\)|https?://\S+"
                   r"|^(?: {4}|\t).*$", re.S | re.M)


def corpus_rows(corpora: Path, name: str) -> list[dict]:
    plain = corpora / f"{name}.jsonl"
    path = plain if plain.exists() else corpora / f"{name}.jsonl.gz"
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def _language(stem: str) -> str:
    return "fr" if len(_FRENCH.findall(stem)) >= 2 else "en"


# --- small edits of a stem -------------------------------------------------------------------------------------

def _in_code(stem: str) -> list[tuple[int, int]]:
    return [m.span() for m in _CODE.finditer(stem)]


def _prose(spans: list[tuple[int, int]], at: int) -> bool:
    return not any(a <= at < b for a, b in spans)


def _word_spans(stem: str) -> list[tuple[int, int]]:
    """Where the plain words of the stem's prose are (not in code, an image or a link)."""
    code = _in_code(stem)
    return [m.span() for m in _WORD.finditer(stem) if _prose(code, m.start())]


def insert_filler(stem: str, rng: random.Random) -> str | None:
    spans = _word_spans(stem)
    if len(spans) < 3:
        return None
    start, _ = spans[rng.randrange(1, len(spans))]
    return stem[:start] + rng.choice(FILLERS[_language(stem)]) + " " + stem[start:]


def swap_pair(stem: str, rng: random.Random) -> str | None:
    """Two neighbouring words of the prose swapped."""
    spans = _word_spans(stem)
    pairs = [(a, b) for a, b in zip(spans, spans[1:]) if stem[a[1]:b[0]] == " "
             and stem[a[0]:a[1]].lower() != stem[b[0]:b[1]].lower()]
    if not pairs:
        return None
    (a0, a1), (b0, b1) = rng.choice(pairs)
    return stem[:a0] + stem[b0:b1] + " " + stem[a0:a1] + stem[b1:]


def toggle_comma(stem: str, rng: random.Random) -> str | None:
    """A comma added after a word of the prose, or one removed."""
    code = _in_code(stem)
    commas = [m.start() for m in re.finditer(r"(?<=[^\W\d_]),(?= )", stem) if _prose(code, m.start())]
    if commas and rng.random() < 0.5:
        at = rng.choice(commas)
        return stem[:at] + stem[at + 1:]
    spans = _word_spans(stem)
    ends = [b for (_, b), (c, _) in zip(spans, spans[1:]) if stem[b:c] == " "]
    if not ends:
        return None
    at = rng.choice(ends)
    return stem[:at] + "," + stem[at:]


EDITS = (insert_filler, swap_pair, toggle_comma)


def edit_stem(stem: str, rng: random.Random) -> tuple[str, list[str]]:
    """The stem with one or two small edits, and their names."""
    done = []
    for _ in range(rng.choice((1, 2))):
        for edit in rng.sample(EDITS, len(EDITS)):
            changed = edit(stem, rng)
            if changed is not None and changed != stem:
                stem, done = changed, done + [edit.__name__]
                break
    return stem, done


# --- options ---------------------------------------------------------------------------------------------------

def _options(row: dict) -> list[dict]:
    return [{"text": o["text"], **({"correct": True} if o.get("correct") else {})} for o in row["options"]]


def rewrite_options(row: dict, kind: str, pool: list[str], rng: random.Random) -> list[dict]:
    options = _options(row)
    if kind == "shuffled":
        order = list(range(len(options)))
        while len(options) > 1 and order == sorted(order):
            rng.shuffle(order)
        return [options[i] for i in order]
    if kind == "miskey":
        keys = [i for i, o in enumerate(options) if o.get("correct")]
        others = [i for i in range(len(options)) if i not in keys]
        if not keys or not others:
            return options
        for o in options:
            o.pop("correct", None)
        for i in rng.sample(others, min(len(keys), len(others))):
            options[i]["correct"] = True
        return options
    if kind in ("half", "all"):
        count = len(options) if kind == "all" else -(-len(options) // 2)
        own = {o["text"] for o in options}
        for i in rng.sample(range(len(options)), count):
            text = rng.choice(pool)
            while text in own:
                text = rng.choice(pool)
            own.add(text)
            options[i]["text"] = text
    return options


# --- choosing originals ----------------------------------------------------------------------------------------

def _normal(stem: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", stem.lower()).split())


def choose(rows: list[dict], count: int, rng: random.Random) -> list[int]:
    """Questions whose stems are unlike those of the others chosen (none 80% alike or more), with at least two
    options and a key, in random order."""
    from rapidfuzz import fuzz

    picked: list[int] = []
    texts: list[str] = []
    for i in rng.sample(range(len(rows)), len(rows)):
        row = rows[i]
        if len(row["options"]) < 2 or not any(o.get("correct") for o in row["options"]):
            continue
        text = _normal(row["stem"])
        if len(text.split()) < 4 or any(fuzz.ratio(text, t) >= 80 for t in texts):
            continue
        picked.append(i)
        texts.append(text)
        if len(picked) == count:
            break
    return picked


def siblings(rows: list[dict], original: int, limit: int) -> list[int]:
    """Other questions of the corpus that share the original's long passage or scenario (the same first 150
    characters and at least 90% alike overall) but offer other answers."""
    from rapidfuzz import fuzz

    stem = rows[original]["stem"]
    if len(stem) < 300:
        return []
    head, mine = stem[:150], {o["text"] for o in rows[original]["options"]}
    found = []
    for j, row in enumerate(rows):
        if j != original and row["stem"].startswith(head) and fuzz.ratio(row["stem"], stem) >= 90:
            theirs = {o["text"] for o in row["options"]}
            if len(mine & theirs) * 2 < min(len(mine), len(theirs)):
                found.append(j)
        if len(found) == limit:
            break
    return found


# --- the bank --------------------------------------------------------------------------------------------------

def build(corpora: Path, out: Path, per_corpus: int, seed: int, sibling_limit: int) -> dict:
    """Write the bank (one YAML file per corpus) and return what was planted."""
    import yaml

    planted, lonely = [], []
    out.mkdir(parents=True, exist_ok=True)
    for name in NAMES:
        rng = random.Random(f"{seed}:{name}")
        rows = corpus_rows(corpora, name)
        pool = [o["text"] for r in rows for o in r["options"] if o["text"].strip()]
        questions = []
        chosen = choose(rows, per_corpus, rng)
        taken = set(chosen)
        for number, i in enumerate(chosen):
            kind = KINDS[number % len(KINDS)]
            row = rows[i]
            original, clone = f"{name}-{i + 1:06d}", f"{name}-{i + 1:06d}-clone"
            stem, edits = edit_stem(row["stem"], rng)
            options = rewrite_options(row, kind, pool, rng)
            if kind == "miskey" and options == _options(row):
                kind = "same"   # no other option to mark: a plain clone
            questions.append({"id": original, "stem": row["stem"], "options": _options(row)})
            questions.append({"id": clone, "stem": stem, "options": options})
            planted.append({"original": original, "clone": clone, "kind": kind, "edits": edits})
            for j in siblings(rows, i, sibling_limit):
                if j not in taken:
                    taken.add(j)
                    questions.append({"id": f"{name}-{j + 1:06d}", "stem": rows[j]["stem"], "options": _options(rows[j])})
                    lonely.append(f"{name}-{j + 1:06d}")
        for q in questions:
            if sum(1 for o in q["options"] if o.get("correct")) != 1:
                q["select"] = sum(1 for o in q["options"] if o.get("correct")) or 1
        (out / f"{name}.yaml").write_text(yaml.safe_dump({"questions": questions}, allow_unicode=True, sort_keys=False,
                                                         width=100), encoding="utf-8")
    truth = {"planted": planted, "siblings": lonely}
    (out / "truth.json").write_text(json.dumps(truth, indent=1), encoding="utf-8")
    return truth


PEER = re.compile(r"similar to question '([^']+)'")
MORE = re.compile(r"\(and (\d+) more\)")


def measure(bank: Path, truth: dict) -> dict:
    """Run qlint on the bank; recall per kind, questions reported without a twin, and the wording."""
    report = bank / "findings.json"
    subprocess.run([sys.executable, "-m", "qlint", "check", str(bank), "--select", "near-duplicate-stem",
                    "--format", "json", "--exit-zero", "--no-cache", "-o", str(report)], check=True, cwd=bank)
    findings = [f for f in json.loads(report.read_text(encoding="utf-8"))["findings"]
                if f["rule"] == "near-duplicate-stem"]
    report.unlink()
    said: dict[str, list[str]] = defaultdict(list)
    for f in findings:
        said[f["question"]].append(f["message"])
    twin = {p["clone"]: p["original"] for p in truth["planted"]} | {p["original"]: p["clone"] for p in truth["planted"]}
    found, total, worded = Counter(), Counter(), Counter()
    for p in truth["planted"]:
        corpus = p["original"].rsplit("-", 1)[0]
        total[p["kind"]] += 1
        total[(p["kind"], corpus)] += 1
        messages = said.get(p["clone"], [])
        if any(f"'{p['original']}'" in m for m in messages):
            found[p["kind"]] += 1
            found[(p["kind"], corpus)] += 1
            text = " ".join(messages)
            worded[p["kind"]] += ("keys disagree" in text) if p["kind"] == "miskey" else \
                ("options differ" in text) == (p["kind"] in ("half", "all"))
    wrong = []   # a question reported against another than its twin, or against more than its twin
    for qid, messages in said.items():
        for m in messages:
            peer, more = PEER.search(m), MORE.search(m)
            if qid not in twin or (peer and peer.group(1) != twin[qid]) or more:
                wrong.append((qid, m))
    return {"kinds": {k: {"clones": total[k], "found": found[k], "recall": found[k] / total[k] if total[k] else None,
                          "worded": worded[k]} for k in KINDS},
            "per_corpus": {c: {k: [found[(k, c)], total[(k, c)]] for k in KINDS} for c in NAMES},
            "questions": 2 * len(truth["planted"]) + len(truth["siblings"]), "siblings": len(truth["siblings"]),
            "without_twin": len({q for q, _ in wrong}), "examples": wrong[:10]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-corpus", type=int, default=70)
    parser.add_argument("--siblings", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="keep the bank here")
    parser.add_argument("--corpora", type=Path, default=CORPORA)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not args.corpora.is_dir():
        print(f"no corpora at {args.corpora}; nothing to do")
        return 0
    bank = args.out or Path(tempfile.mkdtemp(prefix="clones-"))
    try:
        truth = build(args.corpora, bank, args.per_corpus, args.seed, args.siblings)
        result = measure(bank, truth)
    finally:
        if args.out is None:
            shutil.rmtree(bank, ignore_errors=True)
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(f"{'kind':10} {'clones':>6} {'found':>6} {'recall':>7} {'worded':>7}")
    for kind, row in result["kinds"].items():
        recall = "-" if row["recall"] is None else f"{row['recall']:.3f}"
        print(f"{kind:10} {row['clones']:6} {row['found']:6} {recall:>7} {row['worded']:7}")
    print("\nfound / clones per corpus:")
    print(f"{'corpus':28}" + "".join(f"{k:>10}" for k in KINDS))
    for corpus, row in result["per_corpus"].items():
        print(f"{corpus:28}" + "".join(f"{f'{f}/{t}':>10}" for f, t in row.values()))
    print(f"{result['questions']} questions ({result['siblings']} siblings sharing a setup); "
          f"reported without their twin: {result['without_twin']}")
    for qid, message in result["examples"]:
        print(f"  {qid}: {message}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
