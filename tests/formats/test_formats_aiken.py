"""Aiken read as Moodle reads it (question/format/aiken/format.php), in one pass over every line, and a format
that cannot hold rationales said once per file instead of an error per option."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from qlint.formats import read
from qlint.formats.base import ReadLimits

AIKEN = ReadLimits(formats=(("**", "aiken"),))


def _read(text: str):
    return read(text.encode("utf-8"), "bank.txt", AIKEN)


def test_option_without_a_space_after_its_letter_is_an_option():
    # Moodle's own fixture (tests/fixtures/aiken_errors.txt) expects "A)Incorrect (No space)" to be an option
    result = _read("A second good question\nA)Incorrect (No space)\nB)Correct (No space)\nANSWER: B\n")
    (loaded,) = result.questions
    assert [(o.text, o.correct) for o in loaded.question.options] == [("Incorrect (No space)", False),
                                                                      ("Correct (No space)", True)]
    assert loaded.locate("options[1].text") == (3, 3)


def test_answer_naming_two_letters_says_aiken_holds_one_key():
    result = _read("Which are prime?\nA. 2\nB. 3\nC. 4\nANSWER: A, B\n")
    (error,) = [f for f in result.findings if f.code == "Q102"]
    assert "one key" in error.message and "'A, B'" in error.message and (error.line, error.column) == (5, 9)
    assert "no 'ANSWER" not in error.message


def test_answer_naming_a_word_says_it_is_not_an_option():
    (error,) = [f for f in _read("Which?\nA. x\nB. y\nANSWER: Mars\n").findings if f.code == "Q102"]
    assert "not one of the options A, B" in error.message


_SLOW = textwrap.dedent("""
    from qlint.formats import read
    from qlint.formats.base import ReadLimits
    data = {data}
    result = read(data, "bank.txt", ReadLimits(formats=(("**", "aiken"),), max_file_size=10**9))
    print(len(result.questions), len(result.findings))
""")


@pytest.mark.parametrize("data", [
    'b"Q?\\nA. x\\nB. y\\nANSWER:" + b" " * 1_000_000 + b"A B\\n"',
    'b"Q?\\nA." + b" " * 1_000_000 + b"\\nB. y\\nANSWER: B\\n"',
    'b"Q?\\nA. x" + b" " * 1_000_000 + b"y\\nB. y\\nANSWER: A\\n"',
    'b"Q?\\n" + b"A." + b" \\t" * 500_000 + b"\\n"',
])
def test_runs_of_spaces_are_read_in_one_pass(data):
    # the old patterns backtracked over the run for every space of it: past 60 s for a million spaces
    out = subprocess.run([sys.executable, "-c", _SLOW.format(data=data)], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr


def test_an_aiken_file_gets_one_rationales_note_instead_of_an_error_per_option(tmp_path, run_cli):
    bank = tmp_path / "bank.aiken"
    bank.write_text("Which is red?\nA. Venus\nB. Mars\nANSWER: B\n\nWhich is gold?\nA. Ag\nB. Au\nANSWER: B\n",
                    encoding="utf-8")
    code, out, _ = run_cli("check", "--no-cache", "--format", "json", bank)
    found = json.loads(out)["findings"]
    assert not [f for f in found if f["rule"] == "missing-rationale"]
    (note,) = [f for f in found if f["rule"] == "rationales-not-held"]
    assert note["severity"] == "warning" and note["line"] == 1 and "qlint convert" in note["message"]
    assert code == 0   # a limit of the format, not an error of the bank


def test_the_note_takes_the_severity_the_config_gives_it(tmp_path, run_cli):
    bank = tmp_path / "bank.aiken"
    bank.write_text("Which is red?\nA. Venus\nB. Mars\nANSWER: B\n", encoding="utf-8")
    config = tmp_path / "qlint.toml"
    config.write_text("[rules.rationales-not-held]\nseverity = \"error\"\n", encoding="utf-8")
    code, out, err = run_cli("check", "--no-cache", "--format", "json", "--config", config, bank)
    assert [(f["rule"], f["severity"]) for f in json.loads(out)["findings"]] == [("rationales-not-held", "error")], err
    assert code == 1
    config.write_text('ignore = ["rationales-not-held"]\n', encoding="utf-8")
    code, out, _ = run_cli("check", "--no-cache", "--format", "json", "--config", config, bank)
    assert json.loads(out)["findings"] == [] and code == 0
    config.write_text('ignore = ["missing-rationale"]\n', encoding="utf-8")   # nobody asked for rationales
    code, out, _ = run_cli("check", "--no-cache", "--format", "json", "--config", config, bank)
    assert json.loads(out)["findings"] == []


def test_convert_from_aiken_does_not_repeat_the_note_meant_for_check(tmp_path, run_cli):
    bank = tmp_path / "bank.aiken"
    bank.write_text("Which is red?\nA. Venus\nB. Mars\nANSWER: B\n", encoding="utf-8")
    code, out, err = run_cli("convert", bank, "--to", "yaml", "-o", tmp_path / "out")
    assert code == 0 and "Aiken cannot hold rationales" not in err and "Wrote 1 question" in out
