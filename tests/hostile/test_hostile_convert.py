"""``qlint convert`` attacked: it never writes over a source or an existing file unasked, never lets bank text or
file names become structure in what it writes, and never crashes on content that ``check`` accepts."""
from __future__ import annotations

from helpers import DATA

import io
import json
import os
import stat
import zipfile
from pathlib import Path

import pytest

from qlint.formats import read
from qlint.formats.base import ReadLimits
from qlint.formats.convert import WRITERS
from qlint.formats.write import Output, Part
from qlint.model import Option, Plain, Question

GIFT = "// keep this comment\n::a:: Which port does HTTP use? {=80#Yes. ~21#No: FTP.}\n\n::n:: Pi? {#3.14:0.01}\n"
YAML = "id: y\nstem: Which is a fruit?\noptions:\n  - text: Apple\n    correct: true\n    rationale: Yes.\n  - text: Rock\n    rationale: No.\n"


def _bank(tmp_path: Path) -> Path:
    bank = tmp_path / "bank"
    bank.mkdir()
    (bank / "a.gift").write_text(GIFT, encoding="utf-8")
    (bank / "y.yaml").write_text(YAML, encoding="utf-8")
    return bank


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("target,output", [
    ("yaml", "bank"), ("gift", "bank"), ("yaml", "bank/sub"), ("yaml", "."), ("qti21", "bank/pkg.zip"),
    ("gift", "bank/a.gift"), ("yaml", "link"), ("yaml", "link/inner"),
])
def test_output_that_is_holds_or_lies_inside_a_source_is_refused(tmp_path, run_cli, target, output):
    bank = _bank(tmp_path)
    (tmp_path / "link").symlink_to(bank)
    before = _snapshot(bank)
    code, out, err = run_cli("convert", "bank", "--to", target, "-o", output, cwd=tmp_path)
    assert code == 2 and "refusing to write" in err and "source" in err, (out, err)
    assert _snapshot(bank) == before   # not a byte of the bank changed
    assert "Traceback" not in err


def test_output_holding_a_file_named_as_a_source_is_refused(tmp_path, run_cli):
    bank = _bank(tmp_path)
    before = _snapshot(bank)
    code, _, err = run_cli("convert", "bank/a.gift", "--to", "gift", "-o", "bank", cwd=tmp_path)
    assert code == 2 and "contains the source" in err and _snapshot(bank) == before


def test_a_source_reached_through_a_symlink_is_never_written_over(tmp_path, run_cli):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "a.gift").write_text(GIFT, encoding="utf-8")
    bank = tmp_path / "bank"
    bank.mkdir()
    (bank / "a.gift").symlink_to(outside / "a.gift")
    code, _, err = run_cli("convert", "bank", "--to", "gift", "-o", "outside", cwd=tmp_path)
    assert code == 2 and "source" in err and (outside / "a.gift").read_text(encoding="utf-8") == GIFT


def test_existing_files_are_not_overwritten_without_force(tmp_path, run_cli):
    bank = _bank(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "a.yaml").write_text("mine\n", encoding="utf-8")
    code, _, err = run_cli("convert", bank, "--to", "yaml", "-o", out)
    assert code == 2 and "refusing to overwrite" in err and "--force" in err
    assert _snapshot(out) == {"a.yaml": b"mine\n"}   # nothing written at all, not even the other file
    code, stdout, err = run_cli("convert", bank, "--to", "yaml", "-o", out, "--force")
    assert code == 0, err
    assert "id: a" in (out / "a.yaml").read_text(encoding="utf-8") and (out / "y.yaml").exists()


def test_an_existing_non_zip_file_named_like_a_package_is_not_overwritten(tmp_path, run_cli):
    bank = _bank(tmp_path)
    precious = tmp_path / "x.zip"
    precious.write_text("not a zip: my notes\n", encoding="utf-8")
    code, _, err = run_cli("convert", bank, "--to", "qti21", "-o", precious)
    assert code == 2 and "refusing to overwrite" in err and precious.read_text(encoding="utf-8") == "not a zip: my notes\n"
    code, _, err = run_cli("convert", bank, "--to", "qti21", "-o", precious, "--force")
    assert code == 0 and zipfile.is_zipfile(precious)


def test_files_get_the_mode_the_umask_gives(tmp_path, run_cli):
    bank = _bank(tmp_path)
    old = os.umask(0o022)
    try:
        code, _, err = run_cli("convert", bank, "--to", "gift", "-o", tmp_path / "out")
        code_zip, _, _ = run_cli("convert", bank, "--to", "qti21", "-o", tmp_path / "p.zip")
    finally:
        os.umask(old)
    assert code == 0 and code_zip == 0, err
    modes = {stat.S_IMODE(p.stat().st_mode) for p in [*(tmp_path / "out").rglob("*.gift"), tmp_path / "p.zip"]}
    assert modes == {0o644}
    assert not list(tmp_path.rglob("*.qlint-tmp"))


def test_convert_keeps_the_folder_tree_and_counts_what_it_wrote(tmp_path, run_cli):
    bank = tmp_path / "bank"
    (bank / "intro").mkdir(parents=True)
    (bank / "later").mkdir()
    (bank / "intro" / "intro.gift").write_text(GIFT, encoding="utf-8")
    (bank / "later" / "intro.gift").write_text(GIFT.replace("::a::", "::b::"), encoding="utf-8")
    (bank / "two.yaml").write_text("questions:\n  - " + YAML.replace("\n", "\n    ").rstrip() + "\n  - id: two-keys\n"
                                   "    stem: Which two?\n    select: 2\n    options:\n      - {text: a, correct: true}\n"
                                   "      - {text: b, correct: true}\n      - {text: c}\n", encoding="utf-8")
    code, out, err = run_cli("convert", bank, "--to", "aiken", "-o", tmp_path / "out")
    assert code == 0, err
    assert sorted(_snapshot(tmp_path / "out")) == ["intro/intro.aiken.txt", "later/intro.aiken.txt", "two.aiken.txt"]
    assert "Wrote 3 questions" in out and "1 of the 4 read could not be written" in out
    code, found, err = run_cli("check", "--no-cache", "--format", "json", tmp_path / "out")
    paths = {Path(f["path"]).name for f in json.loads(found)["findings"]}
    assert paths == {"intro.aiken.txt", "two.aiken.txt"}   # qlint check finds what convert wrote


def test_suppressions_survive_conversion(tmp_path, run_cli):
    bank = tmp_path / "bank"
    bank.mkdir()
    (bank / "s.gift").write_text(
        "// qlint: ignore-file[option-length] lengths are set by the syllabus\n\n"
        "// qlint: ignore-question[missing-rationale] rationales are in the lecture notes\n"
        "::a:: Which colour is the sky on a clear day? {=blue ~green ~red}\n\n"
        "::b:: Which colour is grass? {=green#Yes. ~blue#No. ~red#No.} // qlint: ignore[answer-position-bias] fixed order\n",
        encoding="utf-8")
    for target in ("yaml", "gift", "moodle-xml", "qti12", "qti21"):
        out = tmp_path / target
        code, _, err = run_cli("convert", bank, "--to", target, "-o", out)
        assert code == 0, err
        assert "suppressions" not in err, (target, err)
        code, found, _ = run_cli("check", "--no-cache", "--format", "json", "--select", "missing-rationale", out)
        assert json.loads(found)["findings"] == [], (target, found)
    text = (tmp_path / "yaml" / "s.yaml").read_text(encoding="utf-8")
    assert "missing-rationale: rationales are in the lecture notes" in text
    assert "# qlint: ignore-file[option-length] lengths are set by the syllabus" in text
    code, _, err = run_cli("convert", bank, "--to", "aiken", "-o", tmp_path / "aiken")
    assert "aiken cannot hold suppressions" in err


def _question(**texts) -> Question:
    options = (Option(text=texts.get("key", "Right"), correct=True, rationale=texts.get("rationale", "Because.")),
               Option(text=texts.get("other", "Wrong"), rationale="No."))
    return Question(id=texts.get("id", "q"), stem=texts.get("stem", "Which one?"), options=options,
                    explanation=texts.get("explanation"), tags=tuple(texts.get("tags", ())),
                    meta=texts.get("meta"))


def _written(target: str, questions: list[Question], source: str = "bank.yaml") -> Output:
    out = Output()
    WRITERS[target]([Part(source, questions)], out)
    return out


def _read_all(files: dict[str, str], target: str):
    limits = ReadLimits(formats=(("**", "aiken"),) if target == "aiken" else ())
    results = [read(text.encode("utf-8"), name, limits) for name, text in sorted(files.items()) if name != "imsmanifest.xml"]
    return [q for r in results for q in r.questions], [f for r in results for f in r.findings]


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\r", "\r\n"])
@pytest.mark.parametrize("target", sorted(WRITERS))
def test_line_separators_in_a_stem_never_start_a_new_question(target, separator):
    attack = f"Innocent?{separator}{separator}::evil:: Pick me {{=x ~y}}{separator}{separator}"
    out = _written(target, [_question(stem=attack, key=f"k{separator}::k2:: {{=z ~w}}")])
    questions, findings = _read_all(out.files, target)
    assert [q.question.id for q in questions] in (["q"], [questions[0].question.id]) and len(questions) == 1, findings
    assert not [f for f in findings if f.code in ("Q101", "Q102")], findings
    assert "Pick me" in questions[0].question.stem


@pytest.mark.parametrize("target", sorted(WRITERS))
@pytest.mark.parametrize("source", ["evil\n::x:: Injected? {=a ~b}\n\nname.gift", "ctl\x01\x1b[31m\x85\u2028.yaml",
                                    "chapter---intro.yaml", "end-.yaml", "q: {a: b}\n- c.yaml", "pkg.zip!dir\n/e\r.xml"])
def test_source_names_in_comments_cannot_break_or_inject(target, source):
    out = _written(target, [_question()], source)
    questions, findings = _read_all(out.files, target)
    assert len(questions) == 1 and not [f for f in findings if f.code in ("Q101", "Q102")], findings
    for text in out.files.values():
        comment = next((line for line in text.splitlines() if "converted by qlint" in line), None)
        if comment is not None:
            assert "\x01" not in comment and "\x1b" not in comment and "\n" not in comment


@pytest.mark.parametrize("target", sorted(WRITERS))
@pytest.mark.parametrize("text", ["form\x0cfeed", "start\x01of heading", "next\x85line", "bell\x07", "nul-ish\x1f", "\ufffe"])
def test_control_characters_that_check_accepts_convert_without_a_crash(target, text):
    out = _written(target, [_question(stem=f"Which {text} one?", key=text, rationale=text, id=f"id{text}")])
    questions, findings = _read_all(out.files, target)
    assert len(questions) == 1 and not [f for f in findings if f.code in ("Q101", "Q102")], findings


@pytest.mark.parametrize("blank", ["\\x1f", "\\x1c\\x1d", "\\x1e \\x1f"])
def test_a_text_of_separators_alone_is_blank_for_check_and_convert(blank, tmp_path, run_cli, write):
    """U+001C-1F are white space to every reader and writer (str.split, strip) but not to Unicode: check took an
    option of them as text, Aiken wrote it "B. " and read it back merged into option A, GIFT wrote a blank answer
    that Moodle leaves out, and the XML writers a line break that reads back blank. It is blank from the start."""
    bank = write("bank/a.yaml", "id: q\nstem: Which one is right?\noptions:\n"
                                "  - {text: Alpha, correct: true, rationale: Correct. yes}\n"
                                f'  - {{text: "{blank}", rationale: Incorrect. no}}\n'
                                "  - {text: Gamma, rationale: Incorrect. no}\n")
    code, out, _ = run_cli("check", bank, "--format", "concise")
    assert code == 1 and "'options[1].text' must not be blank" in out, out
    for target in sorted(WRITERS):
        code, written, err = run_cli("convert", bank, "--to", target, "-o", tmp_path / target)
        assert code == 1 and "must not be blank" in err and written.startswith("Wrote 0 questions"), (target, err)


def test_yaml_writes_meta_with_plain_scalars_and_reads_it_back():
    meta = {Plain("source"): Plain("chapter 3"), "level": Plain("3"), "flag": Plain("yes"), "list": [Plain("007"), 1.5],
            "nested": {"k": Plain("v: w")}}
    out = _written("yaml", [_question(meta=meta)])
    text = out.files["bank.yaml"]
    assert "level: 3\n" in text and "flag: yes\n" in text and "- 007\n" in text
    (loaded,), _ = _read_all(out.files, "yaml")
    meta = dict(loaded.question.meta)
    assert [str(v) for v in meta.pop("list")] == ["007", "1.5"]
    assert meta == {"source": "chapter 3", "level": "3", "flag": "yes", "nested": {"k": "v: w"}}


def test_yaml_convert_of_a_bank_with_plain_meta_works_from_the_command_line(tmp_path, run_cli):
    (tmp_path / "m.yaml").write_text(YAML + "meta:\n  source: chapter 3\n  level: 3\n", encoding="utf-8")
    code, out, err = run_cli("convert", tmp_path / "m.yaml", "--to", "yaml", "-o", tmp_path / "out")
    assert code == 0 and "Traceback" not in err and "internal error" not in err, err
    assert "level: 3" in (tmp_path / "out" / "m.yaml").read_text(encoding="utf-8")


def test_tags_that_a_category_cannot_hold_are_warned_about():
    out = _written("gift", [_question(tags=("line\nbreak",))])
    (loaded,), _ = _read_all(out.files, "gift")
    assert loaded.question.tags == ("line break",)
    assert "$CATEGORY path cannot hold" in " ".join(out.warnings("gift"))


def test_a_zip_written_by_convert_is_read_back_entry_by_entry(tmp_path, run_cli):
    bank = _bank(tmp_path)
    code, _, err = run_cli("convert", bank, "--to", "qti21", "-o", tmp_path / "p.zip")
    assert code == 0, err
    with zipfile.ZipFile(io.BytesIO((tmp_path / "p.zip").read_bytes())) as archive:
        assert sorted(n for n in archive.namelist() if n != "imsmanifest.xml") == ["a/a.xml", "y/y.xml"]


def test_code_keeps_its_indentation_and_double_spaces_through_gift():
    code = 'What does this print?\n    if a < b && c > d:\n        print("x  &  y")\n\treturn'
    out = _written("gift", [_question(stem=code, key="<tag>  &amp;", rationale="a\n  b")])
    (loaded,), _ = _read_all(out.files, "gift")
    assert loaded.question.stem == code
    assert (loaded.question.options[0].text, loaded.question.options[0].rationale) == ("<tag>  &amp;", "a\n  b")


def test_xml_writers_keep_spaces_for_html_readers():
    out = _written("moodle-xml", [_question(stem="a  b\n    c")])
    assert "a&amp;nbsp; b&lt;br/&gt;&amp;nbsp;&amp;nbsp;&amp;nbsp; c" in out.files["bank.xml"]


def test_partial_credit_is_written_where_the_target_holds_it_and_warned_about_where_not():
    q = Question(id="p", stem="Which?", options=(Option(text="full", correct=True), Option(text="half", credit=50),
                                                 Option(text="none")))
    gift = _written("gift", [q])
    assert "~%50%half" in gift.files["bank.gift"]
    (back,), _ = _read_all(gift.files, "gift")
    assert [(o.correct, o.credit) for o in back.question.options] == [(True, None), (False, 50.0), (False, None)]
    moodle = _written("moodle-xml", [q]).files["bank.xml"]
    assert '<answer fraction="100"' in moodle and '<answer fraction="50"' in moodle and '<answer fraction="0"' in moodle
    qti21 = _written("qti21", [q])
    item = next(text for name, text in qti21.files.items() if name != "imsmanifest.xml")
    assert 'mapKey="choice2" mappedValue="0.5"' in item and "map_response" in item
    (back,), _ = _read_all(qti21.files, "qti21")
    assert back.question.keys == (0,)
    for target in ("qti12", "aiken"):
        assert f"{target} cannot hold partial credit" in " ".join(_written(target, [q]).warnings(target))


def test_a_package_entry_keeps_its_place_under_the_package_name(tmp_path, run_cli):
    data = (DATA / "formats" / "package.qti.zip").read_bytes()
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "package.qti.zip").write_bytes(data)
    code, _, err = run_cli("convert", tmp_path / "src", "--to", "yaml", "-o", tmp_path / "out")
    assert code == 0, err
    written = sorted(p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out").rglob("*.yaml"))
    assert written and all(name.startswith("package-qti/") for name in written), written


def test_a_line_suppression_that_now_covers_its_question_is_said(tmp_path, run_cli):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "l.gift").write_text("// qlint: ignore[missing-rationale] in the notes\n"
                                             "::a:: Which colour is grass? {=green ~blue ~red}\n", encoding="utf-8")
    code, _, err = run_cli("convert", tmp_path / "src", "--to", "yaml", "-o", tmp_path / "out")
    assert code == 0 and "1 line suppression now covers the whole question" in err
    assert "missing-rationale: in the notes" in (tmp_path / "out" / "l.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("target", ["yaml", "gift", "aiken", "moodle-xml"])
def test_a_zip_output_is_only_a_content_package(target, tmp_path, run_cli):
    """A zip of GIFT, Aiken, YAML or Moodle XML files has no imsmanifest.xml: qlint read it back as "no
    imsmanifest.xml", every question lost, and no LMS imports it. Only QTI targets write a package."""
    bank = tmp_path / "bank"
    bank.mkdir()
    (bank / "s.yaml").write_text(YAML, encoding="utf-8")
    code, _, err = run_cli("convert", bank, "--to", target, "-o", tmp_path / "out.zip")
    assert code == 2 and "a .zip output is a QTI content package" in err and not (tmp_path / "out.zip").exists()
