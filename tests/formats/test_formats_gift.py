"""GIFT read as Moodle's importer reads it (question/format/gift/format.php): format markers on every text, only
Moodle's escapes, partial credit, blank answers, numeric feedback, $CATEGORY blocks; and a lexer whose memory does
not grow with the length of a token."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from qlint.formats import read
from qlint.formats.base import ReadLimits


def _one(text: str):
    result = read(text.encode("utf-8"), "q.gift", ReadLimits())
    assert len(result.questions) == 1, result.findings
    return result.questions[0].question, result.findings


def _options(q):
    return [(o.text, o.correct, o.rationale) for o in q.options]


def test_format_markers_are_taken_off_answers_and_feedback_too():
    q, _ = _one("::m::[html]<p>Which?</p> {=[html]<b>bold</b>#[html]<i>yes</i> ~[plain]x < y#[markdown]no ####[html]<p>why</p>}\n")
    assert q.stem == "Which?"
    assert _options(q) == [("bold", True, "yes"), ("x < y", False, "no")]
    assert q.explanation == "why"


def test_answers_take_the_questions_format_unless_they_name_their_own():
    q, _ = _one("::m::[plain]Is 1 < 2 &amp; so? {=a &amp; b ~[html]c &amp; d}\n")
    assert q.stem == "Is 1 < 2 &amp; so?"   # plain: no HTML at all
    assert _options(q) == [("a &amp; b", True, None), ("c & d", False, None)]


def test_only_lower_case_marker_names_are_markers_as_in_moodle():
    q, _ = _one("::m::[HTML]Which? {=[Plain]a ~b}\n")
    assert q.stem == "[HTML]Which?" and q.options[0].text == "[Plain]a"


def test_numeric_answer_with_feedback_is_counted_not_a_syntax_error():
    result = read(b"::n:: Pi to one decimal? {#3.1:0.05~#Completely wrong}\n\n::m:: Which? {=a ~b}\n", "q.gift", ReadLimits())
    assert [f.code for f in result.findings] == ["Q109"] and "1 numeric" in result.findings[0].message
    assert len(result.questions) == 1


def test_partial_credit_in_a_single_answer_question_is_a_distractor_with_credit():
    q, _ = _one("::p:: Which? {~wrong ~%50%half =full ~%-25%bad}\n")
    assert q.keys == (2,) and q.select == 1
    assert [(o.text, o.correct, o.credit) for o in q.options] == [
        ("wrong", False, None), ("half", False, 50.0), ("full", True, None), ("bad", False, -25.0)]


def test_weighted_answers_without_an_equals_answer_are_the_keys_of_a_multiple_answer_question():
    q, _ = _one("::p:: Which are prime? {~%50%2 ~%50%3 ~%-100%4}\n")
    assert q.keys == (0, 1) and q.select == 2
    assert [o.credit for o in q.options] == [50.0, 50.0, -100.0]


def test_a_weight_after_equals_is_text_as_moodle_reads_it():
    q, _ = _one("::p:: Which discount? {=%50% off ~%0%%10% off}\n")
    assert _options(q) == [("%50% off", True, None), ("%10% off", False, None)]


@pytest.mark.parametrize("written,expected", [
    ("C:\\ Users", "C:\\ Users"),            # a backslash before an ordinary character stays
    ("a\\\\b", "a\\b"),                      # \\ is one backslash
    ("\\[x\\]", "\\[x\\]"),
    ("x \\= y \\~ z \\# w \\{ \\}", "x = y ~ z # w { }"),
    ("line\\nbreak", "line\nbreak"),
    ("\\\\n", "\\n"),                        # an escaped backslash, then the letter n
])
def test_only_moodles_escapes_are_undone(written, expected):
    q, _ = _one(f"::e:: Which? {{={written} ~other}}\n")
    assert q.options[0].text == expected


def test_a_lone_escaped_space_is_an_answer_not_a_dropped_question():
    q, findings = _one("::e:: Which? {=\\  ~b}\n")
    assert q.options[0].text == "\\" and not [f for f in findings if f.code == "Q102"]


def test_blank_answers_are_left_out_as_moodle_leaves_them_out():
    q, findings = _one("::k:: Which colour is the sky? {\n~=blue\n~green\n~red\n}\n")
    assert _options(q) == [("blue", True, None), ("green", False, None), ("red", False, None)]
    assert not [f for f in findings if f.code in ("Q101", "Q102")]


def test_category_without_a_blank_line_after_it_is_a_warning():
    text = "$CATEGORY: $course$/top/Networks\n::a:: Which port? {=80 ~21}\n\n$CATEGORY: Other\n\n::b:: Which? {=x ~y}\n"
    result = read(text.encode(), "q.gift", ReadLimits())
    (hazard,) = [f for f in result.findings if f.rule == "import-hazard"]
    assert (hazard.line, hazard.severity.name) == (1, "WARNING") and "blank line" in hazard.message
    assert [q.question.tags for q in result.questions] == [("Networks",), ("Other",)]


def test_a_comment_line_between_category_and_question_does_not_end_the_block():
    text = "$CATEGORY: Networks\n// a note\n::a:: Which port? {=80 ~21}\n"
    (hazard,) = [f for f in read(text.encode(), "q.gift", ReadLimits()).findings if f.rule == "import-hazard"]
    assert hazard.line == 1


def test_line_separators_inside_a_line_do_not_split_questions():
    # U+2028, NEL and form feed are characters of a line to Moodle and to editors; only \n, \r\n and \r break lines
    for separator in ("\u2028", "\u2029", "\x85", "\x0c", "\x0b", "\x1c"):
        text = f"::a:: First stem{separator}{separator}::evil:: Injected? {{=x ~y}}\n\n::b:: Second? {{=c ~d}}\n"
        result = read(text.encode("utf-8"), "q.gift", ReadLimits())
        assert [q.question.id for q in result.questions] == ["a", "b"], (separator, result.findings)
        assert "::evil::" in result.questions[0].question.stem


def test_true_false_without_feedback_is_one_rationales_not_held_finding(registry):
    from helpers import lint_text
    findings = lint_text("::sky:: The sky is green. {FALSE}\n\n::sea:: The sea is wet. {TRUE#No.#Yes.}\n", registry,
                         path="q.gift")
    assert [(f.rule, f.line) for f in findings if f.rule in ("missing-rationale", "rationales-not-held")] == [
        ("rationales-not-held", 1)]


def test_code_keeps_its_indentation_in_a_plain_question():
    q, _ = _one("::c::[plain]What does this print?\\n    if a < b:\\n        print(\"a  &  b\") {=x ~y}\n")
    assert q.stem == 'What does this print?\n    if a < b:\n        print("a  &  b")'


_MEMORY = textwrap.dedent("""
    import resource, sys
    from qlint.formats import read
    from qlint.formats.base import ReadLimits
    data = {data}
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = read(data, "big.gift", ReadLimits(max_file_size=10**9))
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    print(grown * 1024 / len(data), len(result.questions))
""")


@pytest.mark.parametrize("data", [
    'b"::t:: " + b"word " * 400_000 + b"{=a ~b}\\n"',           # one long stem
    'b"::t:: Q {=" + b"word " * 400_000 + b" ~b}\\n"',          # one long answer
    'b"::" + b"w:" * 1_000_000 + b":: Q {=a ~b}\\n"',           # a long title of single colons
    'b"::t:: " + b"\\\\{" * 1_000_000 + b"{=a ~b}\\n"',          # a long run of escapes
])
def test_lexer_memory_does_not_grow_per_character_of_a_token(data):
    # the old terminals kept a regex backtracking frame per character: 110-170 bytes for every character of the
    # longest token (a 2 MB token took over 300 MB); the reader keeps a small multiple of the text itself
    out = subprocess.run([sys.executable, "-c", _MEMORY.format(data=data)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    per_char, questions = out.stdout.split()
    assert float(per_char) < 40 and questions == "1"


def test_gift_json_is_what_the_cli_reports(run_cli, tmp_path):
    bank = tmp_path / "k.gift"
    bank.write_text("::k:: Which colour is the sky? {~=blue#Yes. ~green#No. ~%50%grey#Half.}\n", encoding="utf-8")
    code, out, _ = run_cli("check", "--no-cache", "--format", "json", "--select", "schema,correct-count", bank)
    assert json.loads(out)["findings"] == []


def test_an_answer_of_markup_alone_is_not_blank_as_written_and_is_named():
    result = read(b"::a:: Which? {=<br> ~b ~=c}\n", "q.gift", ReadLimits())
    assert not result.questions and "options[0].text" in result.findings[0].message
