"""Suppressions: comment forms and the per-question field; reasons required; unused ones reported."""
from __future__ import annotations

import pytest
from helpers import lint_text

BASE = """\
id: s-1
stem: Which setting lets a DataLoader copy batches to the GPU asynchronously?
options:
  - text: pin_memory=True
    correct: true
    rationale: Correct. Pinned host memory allows non-blocking copies.
  - text: drop_last=True{comment}
"""


def rules(findings):
    return sorted(f.rule for f in findings)


def test_line_comment_silences_its_line(registry):
    plain = lint_text(BASE.format(comment=""), registry)
    assert "missing-rationale" in rules(plain)
    quiet = lint_text(BASE.format(comment="  # qlint: ignore[missing-rationale] legacy item, rationale pending"), registry)
    assert "missing-rationale" not in rules(quiet) and "unused-suppression" not in rules(quiet)


def test_codes_work_as_names(registry):
    quiet = lint_text(BASE.format(comment="  # qlint: ignore[Q106] legacy item"), registry)
    assert "missing-rationale" not in rules(quiet)


def test_comment_alone_covers_the_next_line(registry):
    text = BASE.replace("  - text: drop_last=True", "  # qlint: ignore[missing-rationale] pending review\n  - text: drop_last=True")
    assert "missing-rationale" not in rules(lint_text(text.format(comment=""), registry))


def test_question_comment_covers_the_whole_question(registry):
    text = "# qlint: ignore-question[missing-rationale] imported from the 2019 bank\n" + BASE.format(comment="")
    found = rules(lint_text(text, registry))
    assert "missing-rationale" not in found and "invalid-suppression" not in found


def test_field_form(registry):
    text = BASE.format(comment="").replace("options:", "qlint:\n  ignore:\n    missing-rationale: legacy item\noptions:")
    assert "missing-rationale" not in rules(lint_text(text, registry))


def test_reason_is_required(registry):
    found = lint_text(BASE.format(comment="  # qlint: ignore[missing-rationale]"), registry)
    assert "missing-rationale" in rules(found) and "invalid-suppression" in rules(found)


def test_unknown_rule_and_unused_suppression(registry):
    found = lint_text(BASE.format(comment="  # qlint: ignore[missing-rationale, option-lenght] pending"), registry)
    assert "invalid-suppression" in rules(found)
    unused = lint_text(BASE.format(comment="  # qlint: ignore[option-length] short flags are fine"), registry,
                       extend=["option-length"])
    assert "unused-suppression" in rules(unused)



@pytest.mark.parametrize("directive, said", [
    ("ignoree", "unknown suppression directive 'ignoree'; did you mean 'ignore'?"),
    ("ignore_question", "unknown suppression directive 'ignore_question'; did you mean 'ignore-question'?"),
    ("ignore-questoin", "unknown suppression directive 'ignore-questoin'; did you mean 'ignore-question'?"),
    ("disable", "unknown suppression directive 'disable'; qlint knows ignore, ignore-question and ignore-file"),
])
def test_a_mistyped_directive_is_an_invalid_suppression_and_silences_nothing(registry, directive, said):
    found = lint_text(BASE.format(comment=f"  # qlint: {directive}[missing-rationale] legacy item"), registry)
    assert "missing-rationale" in rules(found)
    assert [f.message for f in found if f.rule == "invalid-suppression"] == [said]


@pytest.mark.parametrize("path, text", [
    ("quiz.gift", "// qlint: ignoree[missing-rationale] legacy\n::q1:: Which one? {=a ~b}\n"),
    ("quiz.xml", '<quiz><question type="multichoice"><questiontext><text>Which one?</text></questiontext>\n'
                 '<!-- qlint: ignoree[missing-rationale] legacy -->\n<answer fraction="100"><text>a</text></answer>\n'
                 '<answer fraction="0"><text>b</text></answer></question></quiz>\n'),
])
def test_a_mistyped_directive_is_said_in_every_format(registry, path, text):
    found = lint_text(text, registry, path=path)
    assert "missing-rationale" in rules(found)
    assert [f.message for f in found if f.rule == "invalid-suppression"] == [
        "unknown suppression directive 'ignoree'; did you mean 'ignore'?"]
