"""Each reader reads suppression comments in its own comment syntax (YAML ``#``, GIFT ``//``, XML ``<!-- -->``):
only a real comment of the format suppresses, and what follows it on the line is not its reason."""
from __future__ import annotations

from qlint.formats import read
from qlint.formats.base import ReadLimits
from qlint.formats.table import TABLE
from qlint.sourcemap import CommentLine, collect_suppressions


def _found(data: bytes, path: str):
    return [(s.line, s.column, s.target_line, s.scope, s.rules, s.reason)
            for s in read(data, path, ReadLimits()).suppressions]


def test_an_xml_comment_s_reason_ends_at_its_close():
    data = (b"<quiz>\n<!-- qlint: ignore-question[x] why --> <question type='multichoice'>\n</question>\n</quiz>\n")
    assert _found(data, "quiz.xml") == [(2, 1, 3, "question", ("x",), "why")]


def test_bank_text_before_an_xml_comment_suppresses_nothing():
    """A ``# qlint:`` in a text on the comment's line is bank text: only the comment is read."""
    data = (b"<quiz>\n<question><name><text># qlint: ignore[y] hi</text></name> <!-- qlint: ignore[x] -->\n"
            b"</question>\n</quiz>\n")
    assert _found(data, "quiz.xml") == [(2, 59, 2, "line", ("x",), "")]


def test_a_gift_comment_suppresses_only_when_it_opens_with_qlint():
    text = "// a note # qlint: ignore[x]\n::q:: Pick {=a ~b}\n\n// qlint: ignore-question[y] because\n::r:: Pick {=a ~b}\n"
    assert _found(text.encode(), "bank.gift") == [(4, 1, 5, "question", ("y",), "because")]


def test_a_gift_feedback_hash_is_bank_text():
    text = "::q:: Pick {=a #qlint: ignore-file[x] ~b}\n"
    assert _found(text.encode(), "bank.gift") == []


def test_lone_comments_wait_for_the_next_content_line():
    lines = [CommentLine(1, False, 1, " qlint: ignore[a]", True), CommentLine(2, False, 1, " qlint: ignore[b]", True),
             CommentLine(4, True), CommentLine(5, True, 9, " qlint: ignore[c] r", False)]
    assert [(s.line, s.target_line, s.rules, s.reason) for s in collect_suppressions(lines)] == [
        (1, 4, ("a",), ""), (2, 4, ("b",), ""), (5, 5, ("c",), "r")]


def test_every_format_that_holds_suppressions_names_its_comment():
    assert {row.name: row.comment for row in TABLE} == {
        "yaml": "#", "gift": "//", "aiken": None, "moodle-xml": "<!--", "qti": "<!--"}


CR_QUIZ = ("<quiz>\n<question type=\"multichoice\">\n<name><text>q1</text></name>\n"
           "<questiontext><text>Which is right?</text></questiontext>\n<!-- qlint: ignore[missing-rationale] ok -->\n"
           "<answer fraction=\"100\"><text>Yes</text></answer>\n<answer fraction=\"0\"><text>No</text></answer>\n"
           "</question>\n</quiz>\n")


def test_a_moodle_export_with_lone_carriage_returns_is_read_line_by_line_as_with_line_feeds(registry):
    # an old Mac export ends its lines in a lone CR: its findings fell on line 1, where one suppression covered all
    from helpers import lint_text

    lf, cr, crlf = (CR_QUIZ.replace("\n", end).encode() for end in ("\n", "\r", "\r\n"))
    places = [[(f.line, f.column, f.rule) for f in lint_text(d.decode(), registry, ["missing-rationale"], path="quiz.xml")]
              for d in (lf, cr, crlf)]
    assert places[0] == places[1] == places[2] == [(7, 1, "missing-rationale")]
    assert _found(cr, "quiz.xml") == _found(lf, "quiz.xml") == [(5, 1, 6, "line", ("missing-rationale",), "ok")]
    texts = [[q.question.stem for q in read(d, "quiz.xml", ReadLimits()).questions] for d in (lf, cr)]
    assert texts[0] == texts[1] == ["Which is right?"]
