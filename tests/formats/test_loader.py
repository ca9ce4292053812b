"""The loader: exact positions, the bank format's contract, and broken input as findings, never exceptions."""
from __future__ import annotations

import pytest

from qlint.formats import read_path as load_file
from qlint.formats.base import decode
from qlint.formats.yaml_reader import load_text
from qlint.limits import Limits

GOOD = """\
questions:
  - id: q-1
    stem: Which call returns a Python float from a one-element tensor?
    options:
      - text: loss.item()
        correct: true
        rationale: Correct. It copies the value out.
      - text: loss.detach()
        rationale: Incorrect. It returns a tensor.
"""


def test_positions_are_one_based_and_exact():
    result = load_text(GOOD, "a.yaml")
    assert not result.findings
    item = result.questions[0]
    assert item.locate("stem") == (3, 5)
    assert item.locate("options[1].rationale") == (9, 9)
    assert item.locate("options[1].missing") == (8, 9)  # falls back to the option
    assert item.locate(None) == (item.line, item.column)


def test_single_question_file():
    text = "id: one\nstem: Is a single mapping a question?\noptions:\n  - {text: 'yes', correct: true}\n  - {text: 'no'}\n"
    result = load_text(text, "s.yaml")
    assert [q.question.id for q in result.questions] == ["one"]
    # YAML 1.1 booleans stay text: an option reading "no" is the word, not False
    assert [o.text for o in result.questions[0].question.options] == ["yes", "no"]


def test_numbers_keep_their_spelling():
    text = "id: 007\nstem: How many?\noptions:\n  - {text: 1.50, correct: true}\n  - {text: 2.0}\n"
    q = load_text(text, "n.yaml").questions[0].question
    assert q.id == "007"
    assert [o.text for o in q.options] == ["1.50", "2.0"]


@pytest.mark.parametrize("text,needle,line", [
    ("id: a\nstem: \"unclosed\noptions: []\n", "YAML syntax error", 4),
    ("id: a\n  stem: bad indent\n", "YAML syntax error", 2),
    ("\tid: x\n", "YAML syntax error", 1),
    ("", "no questions", 1),
    ("# just a comment\n", "no questions", 1),
    ("a bare scalar\n", "single value", 1),
    ("- a\n- b\n", "a list", 1),
    ("id: a\n---\nid: b\n", "another document", 2),
    ("questions: 3\n", "must be a list", 1),
    ("questions: []\n", "empty", 1),
])
def test_broken_text_is_a_finding(text, needle, line):
    result = load_text(text, "bad.yaml")
    assert not result.questions
    assert any(needle in f.message and f.line == line for f in result.findings), result.findings
    assert all(f.path == "bad.yaml" and f.rule in ("parse-error", "schema") for f in result.findings)


def test_unknown_keys_get_did_you_mean():
    text = ("id: a\nstem: Typos?\nrationnale: x\noptions:\n  - {text: a, corect: true, rationale: r}\n"
            "  - {text: b, rationale: r}\n")
    messages = {f.message: f for f in load_text(text, "t.yaml").findings}
    assert any("'corect'" in m and "did you mean 'correct'" in m for m in messages)
    assert any("'rationnale'" in m and "did you mean 'rationale'" in m for m in messages)
    typo = next(f for m, f in messages.items() if "corect" in m)
    assert (typo.line, typo.question, typo.field) == (5, "a", "options[0].corect")


def test_wrong_types_and_missing_fields():
    text = "id: a\noptions:\n  - text: [1, 2]\n    correct: maybe\n  - text: ''\nselect: zero\n"
    findings = load_text(text, "w.yaml").findings
    fields = {f.field for f in findings}
    assert {"stem", "options[0].text", "options[0].correct", "options[1].text", "select"} <= fields
    assert all(f.rule == "schema" for f in findings)


def test_duplicate_keys_are_reported():
    text = "id: a\nid: b\nstem: Dup?\noptions:\n  - {text: a, correct: true, rationale: r}\n  - {text: b, rationale: r}\n"
    result = load_text(text, "d.yaml")
    assert any("duplicate key 'id'" in f.message and f.line == 2 for f in result.findings)
    assert result.questions[0].question.id == "b"  # the last value, as YAML loaders read it


def test_tags_are_never_constructed(tmp_path):
    marker = tmp_path / "pwned"
    text = (f"id: a\nstem: !!python/object/apply:os.system ['touch {marker}']\noptions:\n"
            "  - {text: a, correct: true, rationale: r}\n  - !custom {text: b, rationale: r}\n")
    result = load_text(text, "t.yaml")
    assert not marker.exists()
    tags = [f for f in result.findings if "tag" in f.message]
    assert len(tags) == 2 and tags[0].line == 2


def test_alias_bomb_is_bounded():
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    result = load_text("\n".join(lines) + "\nid: x\nstem: s\noptions: *i\n", "bomb.yaml", Limits(max_alias_expansion=1000))
    assert any("max-alias-expansion" in f.message for f in result.findings)


def test_deep_nesting_is_bounded():
    text = "id: a\nstem: s\nmeta: " + "[" * 200 + "]" * 200 + "\noptions: []\n"
    result = load_text(text, "deep.yaml", Limits(max_depth=50))
    assert any("max-depth" in f.message for f in result.findings)
    text = "meta: " + "[" * 30000 + "]" * 30000
    assert load_text(text, "deeper.yaml").findings


@pytest.mark.parametrize("data,needle", [
    (b"id: x\nstem: caf\xe9\n", "invalid UTF-8"),
    (b"\x00\x01\x02binary", "binary"),
    ("id: x\n".encode("utf-16"), "UTF-16"),
])
def test_bad_bytes(data, needle):
    text, findings = decode(data, "b.yaml")
    assert any(needle in f.message for f in findings)


def test_bom_and_crlf_are_fine():
    text, findings = decode(b"\xef\xbb\xbf" + GOOD.replace("\n", "\r\n").encode(), "b.yaml")
    assert not findings
    result = load_text(text, "b.yaml")
    assert not result.findings and result.questions[0].locate("stem") == (3, 5)


def test_unreadable_and_oversized_files(tmp_path):
    missing = load_file(tmp_path / "gone.yaml")
    assert "cannot read" in missing.findings[0].message
    big = tmp_path / "big.yaml"
    big.write_text("x" * 2000)
    assert "max-file-size" in load_file(big, limits=Limits(max_file_size=1000)).findings[0].message


def test_booleans_and_numbers_only_when_unquoted():
    text = ("id: 17\nstem: Which?\nselect: '1'\noptions:\n  - {text: a, correct: 'true', rationale: r}\n"
            "  - {text: b, correct: yes, rationale: r}\n  - {text: c, correct: TRUE, rationale: r}\n")
    findings = load_text(text, "q.yaml").findings
    assert {f.field for f in findings} == {"select", "options[0].correct", "options[1].correct"}
    assert all("unquoted" in f.message for f in findings)
