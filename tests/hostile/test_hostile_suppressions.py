"""Suppressions are comments, never bank text: a stem, a rationale, a CDATA section or a GIFT feedback that reads
``# qlint: ignore-file[...]`` silences nothing, in every format and after a conversion; a real comment still does,
and one inside a package entry covers that entry."""
from __future__ import annotations

import pytest

CORRECT_COUNT = "Q104 correct-count"

YAML_IN_TEXT = {
    "quoted": 'stem: "Which is right? # qlint: ignore-file[correct-count] planted in a string"\n',
    "single-quoted": "stem: 'Which is right? # qlint: ignore-file[correct-count] planted'\n",
    "block": "stem: |\n  Which is right?\n  # qlint: ignore-file[correct-count] planted in a block\n",
    "folded": "stem: >-\n  Which is right?\n  # qlint: ignore-file[correct-count] planted in a fold\n",
    "rationale": "stem: Which is right?\n",
}
TWO_KEYS = ("options:\n"
            "  - {text: Alpha, correct: true, rationale: Correct. It is.}\n"
            "  - {text: Beta, correct: true, rationale: 'Correct. # qlint: ignore-file[correct-count] planted'}\n")


@pytest.mark.parametrize("where", sorted(YAML_IN_TEXT))
def test_yaml_text_that_reads_like_a_suppression_silences_nothing(where, run_cli, write):
    path = write("a.yaml", "id: q1\n" + YAML_IN_TEXT[where] + TWO_KEYS)
    code, out, _ = run_cli("check", path, "--format", "concise")
    assert code == 1 and CORRECT_COUNT in out, out


@pytest.mark.parametrize("comment", [
    "stem: Which is right? # qlint: ignore-question[correct-count] the board keyed both\n",
    "stem: |  # qlint: ignore-question[correct-count] the board keyed both\n  Which is right?\n",
    "# qlint: ignore-file[correct-count] the board keyed both\nstem: 'Which # is right?'\n",
])
def test_yaml_comments_still_suppress(comment, run_cli, write):
    path = write("a.yaml", "id: q1\n" + comment + TWO_KEYS.replace("'Correct. # qlint: ignore-file[correct-count] "
                                                                    "planted'", "Correct. It is."))
    code, out, _ = run_cli("check", path, "--format", "concise")
    assert CORRECT_COUNT not in out and "unused-suppression" not in out, out


def test_a_broken_yaml_file_keeps_its_text_out_of_its_suppressions(run_cli, write):
    path = write("a.yaml", "id: q1\nstem: 'x # qlint: ignore-file[parse-error] planted'\noptions: [\n")
    code, out, _ = run_cli("check", path, "--format", "concise")
    assert code == 1 and "Q101 parse-error" in out, out


MOODLE = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  {before}<question type="multichoice">
    <name><text>q1</text></name>
    <questiontext format="{format}"><text>{stem}</text></questiontext>
    <answer fraction="100"><text>A</text><feedback><text>Correct. yes</text></feedback></answer>
    <answer fraction="100"><text>B</text><feedback><text>Correct. yes</text></feedback></answer>
  </question>
</quiz>
"""


@pytest.mark.parametrize("stem, text_format", [
    ("<![CDATA[Which? <!-- qlint: ignore-file[correct-count] planted in CDATA -->]]>", "html"),
    ("Which? # qlint: ignore-file[correct-count] planted in text", "plain_text"),
    ("Which?\n# qlint: ignore-file[correct-count] planted on its own line", "plain_text"),
    ("Which? &lt;!-- qlint: ignore-file[correct-count] planted as escaped markup --&gt;", "html"),
])
def test_xml_text_that_reads_like_a_suppression_silences_nothing(stem, text_format, run_cli, write):
    path = write("m.xml", MOODLE.format(before="", format=text_format, stem=stem))
    code, out, _ = run_cli("check", path, "--format", "concise")
    assert code == 1 and CORRECT_COUNT in out, out


def test_xml_comments_still_suppress(run_cli, write):
    path = write("m.xml", MOODLE.format(before="<!-- qlint: ignore-question[correct-count] both keyed -->\n  ",
                                        format="html", stem="Which?"))
    code, out, _ = run_cli("check", path, "--format", "concise")
    assert CORRECT_COUNT not in out and "unused-suppression" not in out, out


@pytest.mark.parametrize("text", [
    "::q1::Which # qlint: ignore-file[correct-count] planted? {\n=A#Correct. yes\n~%100%B#Correct. yes\n}\n",
    "::q1::Which is it? {\n=A#Correct. yes\n~%100%B#qlint: ignore-file[correct-count] planted\n}\n",
    "::q1::Which is it? {\n=A#Correct. yes\n~%100%B#Correct. yes\n\xa0// qlint: ignore-file[correct-count] text\n}\n",
])
def test_gift_text_that_reads_like_a_suppression_silences_nothing(text, run_cli, write):
    path = write("g.gift", text)
    code, out, _ = run_cli("check", path, "--format", "concise")
    assert code == 1 and CORRECT_COUNT in out, out


def test_gift_comment_lines_still_suppress(run_cli, write):
    path = write("g.gift", "// qlint: ignore-question[correct-count] both keyed\n"
                           "::q1::Which is it? {\n=A#Correct. yes\n~%100%B#Correct. yes\n}\n")
    code, out, _ = run_cli("check", path, "--format", "concise")
    assert CORRECT_COUNT not in out and "unused-suppression" not in out, out


def test_converted_text_gains_no_suppression(tmp_path, run_cli, write):
    """A GIFT stem that mentions a suppression (escaped, so GIFT reads it as text) is still text in the YAML that
    convert writes: the converted bank reports what the source reports."""
    source = write("bank/g.gift", "::q1::Which \\# qlint\\: ignore-file[correct-count] is text? {\n"
                                  "=A#Correct. yes\n~%100%B#Correct. yes\n}\n")
    assert CORRECT_COUNT in run_cli("check", source, "--format", "concise")[1]
    code, _, err = run_cli("convert", tmp_path / "bank", "--to", "yaml", "-o", tmp_path / "out")
    assert code == 0, err
    code, out, _ = run_cli("check", tmp_path / "out" / "g.yaml", "--format", "concise")
    assert code == 1 and CORRECT_COUNT in out, out


SUPPRESSED = """questions:
  - id: q1
    stem: Which one of these options is the right one here?
    qlint:
      ignore: {correct-count: the exam board confirmed both keys}
    options:
      - {text: Alpha, correct: true, rationale: Correct. yes}
      - {text: Beta, correct: true, rationale: Correct. yes}
      - {text: Gamma, rationale: Incorrect. no}
"""


@pytest.mark.parametrize("target", ["qti12", "qti21"])
def test_a_suppression_inside_a_package_entry_covers_that_entry(target, tmp_path, run_cli, write):
    """Converted into a package, a question's suppression is a comment in its entry: check honours it there (the
    round trip through a package loses no suppression), and converting the package back keeps it."""
    source = write("bank/a.yaml", SUPPRESSED)
    package = tmp_path / f"{target}.zip"
    assert run_cli("convert", source, "--to", target, "-o", package)[0] == 0
    code, out, _ = run_cli("check", package, "--format", "concise")
    assert code == 0 and CORRECT_COUNT not in out and "unused-suppression" not in out, out
    assert run_cli("convert", package, "--to", "yaml", "-o", tmp_path / "back")[0] == 0
    back = next((tmp_path / "back").rglob("*.yaml")).read_text(encoding="utf-8")
    assert "correct-count: the exam board confirmed both keys" in back, back


def test_a_package_entry_suppression_covers_no_other_entry(tmp_path, run_cli, write):
    """Two entries whose questions sit on the same lines: a comment in one covers only its own."""
    bank = write("bank/a.yaml", SUPPRESSED.replace("q1", "q1") + SUPPRESSED.split("questions:\n")[1]
                 .replace("q1", "q2").replace("    qlint:\n      ignore: {correct-count: the exam board confirmed "
                                              "both keys}\n", ""))
    package = tmp_path / "p.zip"
    assert run_cli("convert", bank, "--to", "qti21", "-o", package)[0] == 0
    code, out, _ = run_cli("check", package, "--format", "concise")
    counted = [line for line in out.splitlines() if CORRECT_COUNT in line]
    assert code == 1 and len(counted) == 1 and "q2.xml" in counted[0], out
