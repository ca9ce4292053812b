"""Other bank formats: every construct of the hand-written corpus in tests/data/formats, read into the questions
its .expected.json records (stems, options, keys, rationales, explanations, tags, lines and findings)."""
from __future__ import annotations

from helpers import DATA

import json
from pathlib import Path

import pytest

from qlint.formats import read, reader_for
from qlint.formats.base import ReadLimits

DATA = DATA / "formats"
CORPUS = sorted(p for p in DATA.iterdir() if p.is_file() and not p.name.endswith(".json"))


def snapshot(path: Path) -> dict:
    """What a reader made of a corpus file, in the shape its expected file records."""
    forced = (("**", "aiken"),) if ".aiken" in path.name else ()
    result = read(path.read_bytes(), path.name, ReadLimits(formats=forced))
    questions = [{"id": q.question.id, "path": q.path, "line": q.line, "stem": q.question.stem, "select": q.question.select,
                  "options": [[o.text, o.correct, o.rationale] for o in q.question.options],
                  "explanation": q.question.explanation, "tags": list(q.question.tags),
                  "positions": {k: list(v) for k, v in sorted(q.positions.items())}} for q in result.questions]
    return {"questions": questions, "findings": [[f.path, f.line, f.column, f.code, f.message] for f in result.findings]}


@pytest.mark.parametrize("path", CORPUS, ids=[p.name for p in CORPUS])
def test_corpus_file_reads_as_expected(path):
    expected = json.loads(path.with_name(path.name + ".expected.json").read_text(encoding="utf-8"))
    assert snapshot(path) == expected


def test_corpus_covers_every_reader():
    names = {reader_for(p.name, p.read_bytes(), "aiken" if ".aiken" in p.name else None).name for p in CORPUS}
    assert names >= {"gift", "aiken", "moodle-xml", "qti"}


def test_gift_escapes_and_feedback():
    text = b"::t:: Braces \\{x\\} {=a\\#b#why\\: this ~c ####all}\n"
    (question,) = read(text, "x.gift", ReadLimits()).questions
    q = question.question
    assert q.stem == "Braces {x}"
    assert [(o.text, o.correct, o.rationale) for o in q.options] == [("a#b", True, "why: this"), ("c", False, None)]
    assert q.explanation == "all"
    assert question.locate("options[0].rationale") == (1, 27)   # the "w" of "why"


def test_gift_syntax_error_has_line_and_column_and_later_questions_still_read():
    text = b"::a:: One? {=x ~y}\n\n::b:: Bad { =x ~y\n\n::c:: Three? {=x ~y}\n"
    result = read(text, "x.gift", ReadLimits())
    assert [q.question.id for q in result.questions] == ["a", "c"]
    (error,) = result.findings
    assert (error.code, error.line) == ("Q101", 3) and error.column > 1


def test_mixed_folder_checks_every_format(tmp_path, run_cli):
    for path in CORPUS:
        if ".aiken" not in path.name:
            (tmp_path / path.name).write_bytes(path.read_bytes())
    (tmp_path / "own.yaml").write_text("id: y\nstem: Which is a fruit?\noptions:\n  - text: Apple\n    correct: true\n"
                                       "  - text: Rock\n", encoding="utf-8")
    (tmp_path / "build.xml").write_text("<project><target/></project>", encoding="utf-8")  # not a bank: left alone
    code, out, _ = run_cli("check", "--no-cache", "--format", "json", str(tmp_path))
    paths = {Path(f["path"]).name for f in json.loads(out)["findings"]}
    assert code == 1
    assert {"basic.gift", "broken.gift", "quiz.moodle.xml", "canvas.qti12.xml", "own.yaml"} <= paths
    assert "build.xml" not in paths


def test_from_reads_txt_as_aiken(tmp_path, run_cli):
    (tmp_path / "bank.txt").write_bytes((DATA / "bank.aiken.txt").read_bytes())
    code, out, _ = run_cli("check", "--no-cache", "--from", "aiken", "--format", "json", str(tmp_path))
    found = json.loads(out)["findings"]
    assert {f["rule"] for f in found} >= {"schema", "rationales-not-held"}
    assert all(f["path"].endswith("bank.txt") for f in found)


def test_config_glob_names_a_format(tmp_path, run_cli):
    (tmp_path / "aiken").mkdir()
    (tmp_path / "aiken" / "bank.txt").write_bytes((DATA / "bank.aiken.txt").read_bytes())
    (tmp_path / "qlint.toml").write_text('[formats]\n"aiken/*.txt" = "aiken"\n', encoding="utf-8")
    code, out, _ = run_cli("check", "--no-cache", "--format", "json", "--config", str(tmp_path / "qlint.toml"),
                            str(tmp_path))
    assert any(f["rule"] == "rationales-not-held" and f["path"].endswith("bank.txt") for f in json.loads(out)["findings"])


def test_unknown_format_in_config_is_a_usage_error(tmp_path, run_cli):
    (tmp_path / "qlint.toml").write_text('[formats]\n"*.txt" = "word"\n', encoding="utf-8")
    code, _, err = run_cli("check", "--config", str(tmp_path / "qlint.toml"), str(tmp_path))
    assert code == 2 and "unknown bank format" in err


def test_fix_leaves_other_formats_unchanged_and_says_so(tmp_path, run_cli):
    bank = tmp_path / "q.gift"
    text = "::w:: Which one?  {=yes  ~no}\n"
    bank.write_text(text, encoding="utf-8")
    code, _, err = run_cli("check", "--no-cache", "--fix", str(bank))
    assert "rewrite YAML banks only" in err
    assert bank.read_text(encoding="utf-8") == text


def test_unsupported_questions_are_counted_once_per_file():
    result = read((DATA / "quiz.moodle.xml").read_bytes(), "quiz.xml", ReadLimits())
    (info,) = [f for f in result.findings if f.rule == "unsupported-question"]
    assert "2 questions" in info.message and "essay" in info.message and "numeric" in info.message


def test_gift_suppression_comment_covers_its_question(tmp_path, run_cli):
    bank = tmp_path / "a.gift"
    bank.write_text("// qlint: ignore-question[missing-rationale] feedback is given in class\n"
                    "::q:: Which colour is the sky on a clear day? {=blue ~green ~red}\n\n"
                    "::r:: Which colour is grass? {=green ~blue ~red}\n", encoding="utf-8")
    code, out, _ = run_cli("check", "--no-cache", "--format", "json", "--select", "missing-rationale", bank)
    assert {f["line"] for f in json.loads(out)["findings"]} == {4}


def test_stdin_is_read_by_the_format_its_filename_names(run_cli):
    code, out, _ = run_cli("check", "--format", "json", "--select", "missing-rationale", "-",
                           "--stdin-filename", "bank/q.gift", stdin="::q:: Which? {=a ~b}\n")
    assert [f["line"] for f in json.loads(out)["findings"]] == [1, 1]


def test_from_leaves_files_whose_suffix_settles_their_format(tmp_path, run_cli):
    for path in CORPUS:
        target = tmp_path / ("bank.txt" if ".aiken" in path.name else path.name)
        target.write_bytes(path.read_bytes())
    code, out, _ = run_cli("stats", "--from", "aiken", "--format", "json", tmp_path)
    with_from = json.loads(out)["totals"]
    code, out, _ = run_cli("stats", "--format", "json", tmp_path)
    without = json.loads(out)["totals"]
    assert with_from["questions"] == without["questions"] + 2   # the two good Aiken questions, nothing lost


def test_a_package_named_on_its_own_reports_its_entries(tmp_path, run_cli):
    # pre-commit names files: only their findings are shown, and a package's findings carry its entries' paths
    package = tmp_path / "package.qti.zip"
    package.write_bytes((DATA / "package.qti.zip").read_bytes())
    code, out, _ = run_cli("check", "--no-cache", "--format", "json", package)
    paths = {f["path"].split("!")[-1] for f in json.loads(out)["findings"]}
    assert code == 1 and {"items/sum.xml", "quiz/canvas.xml"} <= paths


def test_second_run_from_the_cache_reports_the_same(tmp_path, run_cli):
    for name in ("basic.gift", "package.qti.zip", "quiz.moodle.xml"):
        (tmp_path / name).write_bytes((DATA / name).read_bytes())
    first = run_cli("check", "--format", "json", tmp_path, cwd=tmp_path)
    second = run_cli("check", "--format", "json", tmp_path, cwd=tmp_path)
    assert (tmp_path / ".qlint_cache").is_dir() and first == second and first[0] == 1


def test_unpacked_canvas_export_checks_its_questions_and_skips_its_settings_file(tmp_path, run_cli):
    (tmp_path / "assessment_meta.xml").write_text(
        '<?xml version="1.0"?>\n<quiz xmlns="http://canvas.instructure.com/xsd/cccv1p0" identifier="x">'
        "<title>Quiz</title></quiz>\n", encoding="utf-8")
    (tmp_path / "questions.xml").write_bytes((DATA / "canvas.qti12.xml").read_bytes())
    code, out, _ = run_cli("check", "--no-cache", "--format", "json", tmp_path)
    paths = {Path(f["path"]).name for f in json.loads(out)["findings"]}
    assert paths == {"questions.xml"}


def test_xml_comment_suppresses_like_a_yaml_comment(tmp_path, run_cli):
    quiz = (DATA / "quiz.moodle.xml").read_text(encoding="utf-8").replace(
        '  <question type="multichoice">\n    <name><text>noble-gases',
        '  <!-- qlint: ignore-question[missing-rationale] rationales are in the lecture notes -->\n'
        '  <question type="multichoice">\n    <name><text>noble-gases', 1)
    (tmp_path / "quiz.xml").write_text(quiz, encoding="utf-8")
    code, out, _ = run_cli("check", "--no-cache", "--format", "json", "--select", "missing-rationale", tmp_path)
    questions = {f["question"] for f in json.loads(out)["findings"]}
    assert "noble-gases" not in questions and "water-formula" in questions
