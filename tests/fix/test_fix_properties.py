"""Property: --fix on banks with colliding, numeric and odd ids, anchors and aliases changes each question only in
the fields its own findings named, keeps every comment, fixes everything a safe bank offers, and settles."""
from __future__ import annotations

import functools
import tempfile
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from qlint.config import Config, Settings, resolve_rules
from qlint.formats.yaml_reader import load_text
from qlint.registry import load_registry
from qlint.run.fix import fix_run
from qlint.run.pipeline import Run, check_sources

# (id as written, the text every reader agrees it collides on; None: no id at all, so no question)
IDS = [('"31"', "31"), ("0x1F", "31"), ("31", "31"),
       ("007", "7"), ("7", "7"), ('"7"', "7"),
       ("1e1", "10.0"), ("10.0", "10.0"),
       ("true", "True"), ('"True"', "True"), ("yes", "True"),
       ("null", None), ("~", None), ("", None), ('"null"', "null"), ('"~"', "~"), ("None", "None"),
       ("q-1", "q-1"), ("q-2", "q-2"), ("'q-3'", "q-3"), ("q-4", "q-4")]

STEMS = ['"Which value is right for case {n}?"',              # clean
         '"  Which value is right for case {n}?  "',          # stray whitespace
         "Which of these is not right for case {n}?"]         # a lower-case negative

NUMBERS = (["'8'", "'2'", "'4'", "'1'"], ["'1'", "'2'", "'4'", "'8'"])
WORDS = (["item()", "detach()", "numpy()"], ["' item()'", "detach()", "numpy() "])


# ruamel.yaml writes a null back as nothing ("id:"), so the round-trip guard leaves a bank spelling one alone
SPELLED_NULLS = ("null", "~")


@st.composite
def banks(draw) -> tuple[str, bool, bool]:
    """A bank file's text, whether --fix must leave it alone (its ids collide, or it spells a null), and whether
    it has anchors (and maybe aliases to them)."""
    count = draw(st.integers(1, 4))
    picks = [draw(st.sampled_from(IDS)) for _ in range(count)]
    classes = [c for _, c in picks if c is not None]
    untouchable = len(classes) != len(set(classes)) or any(qid in SPELLED_NULLS for qid, _ in picks)
    anchor = count > 1 and draw(st.booleans())   # the first question's stem and options carry anchors
    anchored = anchor
    lines = ["# a bank with odd ids", "questions:"]
    for n, (qid, _) in enumerate(picks):
        stem = draw(st.sampled_from(STEMS)).format(n=n)
        options = draw(st.sampled_from(NUMBERS + WORDS))
        lines += [f"  # question {n}", f"  - id: {qid}   # id {n}" if qid else "  - id:"]
        if n == 0 and anchor:
            stem = "&stem0 " + stem
        elif n > 0 and anchor and draw(st.integers(0, 3)) == 0:
            stem = "*stem0"
        lines.append(f"    stem: {stem}")
        if n > 0 and anchor and draw(st.integers(0, 2)) == 0:   # this question reuses the first one's options
            lines.append("    options: *opts0")
            continue
        lines.append("    options: &opts0" if n == 0 and anchor else "    options:")
        for i, text in enumerate(options):
            lines.append(f"      - text: {text}   # option {n}.{i}")
            if i == 1:
                lines.append("        correct: true")
            lines.append(f"        rationale: Because of reason {n}.{i}.")
    return "\n".join(lines) + "\n", untouchable, anchored


@functools.cache
def _rules():
    """The registry, and the rules that propose fixes (the others cannot change a file) with the loader's."""
    registry = load_registry()
    names = [r.name for r in registry if r.fixable or r.name in ("parse-error", "schema")]
    return registry, resolve_rules(Config(Settings(), Path.cwd(), None), registry, select=names)


def _findings(text: str, path: Path):
    registry, active = _rules()
    return check_sources([(str(path), text.encode("utf-8"))], active, all_rules=[r.name for r in registry])


def _fix(path: Path):
    """One ``--fix`` pass over one file, as the CLI runs it."""
    registry, active = _rules()
    findings = _findings(path.read_text(encoding="utf-8"), path)
    run = Run(Config(Settings(), path.parent, None), registry, active, [], findings)
    return findings, fix_run(run, write=True)


def _leaves(value, prefix: str = ""):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, f"{prefix}.{key}" if prefix else key)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, f"{prefix}[{index}]")
    else:
        yield prefix, value


def _covered(leaf: str, named: set[str]) -> bool:
    return any(leaf == n or leaf.startswith((n + ".", n + "[")) for n in named)


def _comments(text: str) -> Counter:
    return Counter(line[line.index("#"):] for line in text.splitlines() if "#" in line)


def _issue_bank(second_id: str, shared: bool) -> str:
    second = ("    options: *sizes\n" if shared else
              "    options:\n      - text: '4'\n      - text: '1'\n        correct: true\n")
    return ('questions:\n'
            '  - id: "31"\n    stem: "  Which value is right?"\n    options: &sizes\n'
            "      - text: '8'\n      - text: '2'\n        correct: true\n      - text: '4'\n"
            f"  - id: {second_id}\n    stem: Which of these is not right?\n" + second)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(banks())
@example((_issue_bank("0x1F", False), True, True))   # the reported case: "31" and 0x1F are one id to ruamel.yaml
@example((_issue_bank("q-2", True), False, True))   # options shared through an alias flipped on every run
def test_fix_touches_only_named_fields_and_settles(bank):
    text, untouchable, anchored = bank
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bank.yaml"
        path.write_text(text, encoding="utf-8")
        findings, _ = _fix(path)
        fixed = path.read_text(encoding="utf-8")

        old, new = load_text(text, "f"), load_text(fixed, "f")
        assert [q.question.id for q in old.questions] == [q.question.id for q in new.questions]
        assert Counter((f.rule, f.message) for f in old.findings) == Counter((f.rule, f.message) for f in new.findings)
        for before, after in zip(old.questions, new.questions):
            named = {f.field for f in findings
                     if f.fix is not None and f.question == before.question.id and f.field}
            was = dict(_leaves(before.question.model_dump(mode="json")))
            now = dict(_leaves(after.question.model_dump(mode="json")))
            changed = {leaf for leaf in was.keys() | now.keys() if was.get(leaf) != now.get(leaf)}
            assert all(_covered(leaf, named) for leaf in changed), (before.question.id, changed, named)
        assert _comments(fixed) == _comments(text)
        if untouchable:
            assert fixed == text, "a bank whose ids collide (or that spells a null) was rewritten"
        elif not anchored:
            left = [f for f in _findings(fixed, path) if f.fix is not None]
            assert not left, "a safe bank still has fixable findings after --fix"

        _, second = _fix(path)
        assert path.read_text(encoding="utf-8") == fixed, "a second --fix run changed the bank again"
        assert not second.changed
