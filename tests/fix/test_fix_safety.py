"""--fix and --diff on hostile banks: ids that collide for some reader, anchors and aliases, and file-system
cases (links, read-only files and folders, write failures). A bank is never corrupted: a fix lands on the
question the checker read, or the file is left alone with a reason."""
from __future__ import annotations

import json
import os
import tempfile

import pytest
from helpers import with_rules

import qlint.formats.yaml_edit as fix_module
from qlint.edits import Fix, Reorder, SetText
from qlint.formats.yaml_edit import FixError, apply_fixes, apply_to_text, replace_fixed


@pytest.fixture
def run_cli(run_cli):
    """The CLI with option-order and negative-stem on: their safe fixes are what these tests exercise, and both
    rules are off by default (reviewers of real banks disagreed with too many of their findings)."""
    return with_rules(run_cli, "option-order", "negative-stem")



def _question(qid: str, stem: str, texts: tuple[str, str] = ("item()", "detach()")) -> str:
    return (f"  - id: {qid}\n"
            f"    stem: {stem}\n"
            f"    options:\n"
            f"      - text: {texts[0]}\n"
            f"        correct: true\n"
            f"        rationale: Correct. It copies the scalar out.\n"
            f"      - text: {texts[1]}\n"
            f"        rationale: Incorrect. It returns a tensor.\n")


def _bank(*questions: str) -> str:
    return "questions:\n" + "".join(questions)


PADDED = '"Which tensor method returns a Python number?  "'
CLEAN = "Which method frees the graph?"


def _json_findings(run_cli, *args):
    code, out, err = run_cli("check", *args, "--format", "json", "--no-cache")
    return code, json.loads(out)["findings"] if out.strip() else [], err


# --- ids that qlint keeps apart but other readers do not --------------------------------------------------------

@pytest.mark.parametrize("first, second", [
    ('"31"', "0x1F"),        # a quoted string and a hex number that ruamel reads as 31
    ("007", "7"),            # leading zeros: the same integer for every YAML reader
    ('"True"', "true"),      # a quoted word and a boolean that str() spells the same
    ("ab-1", "ab-1"),        # literal duplicates
])
def test_colliding_ids_leave_the_file_alone(run_cli, write, first, second):
    text = _bank(_question(first, PADDED), _question(second, CLEAN))
    path = write("bank/a.yaml", text)
    code, out, err = run_cli("check", path, "--fix", "--no-cache")
    assert path.read_text() == text, "a fix was applied to a file whose ids collide"
    assert "not fixed" in err and "same id" in err
    assert "fix-skipped" in out
    run_cli("check", path, "--fix", "--no-cache")
    assert path.read_text() == text


def test_fix_addresses_the_question_by_position_not_by_id(write):
    """Even past the collision check, each edit lands on the mapping the checker read: ruamel's id is never used."""
    text = _bank(_question("q-a", CLEAN), _question("q-b", PADDED))
    result = apply_fixes(text, [("q-b", Fix("strip", (SetText("stem", "Which tensor method returns a Python number?"),)))])
    assert result.applied == 1
    assert result.text == text.replace(PADDED, '"Which tensor method returns a Python number?"')


def test_a_misplaced_edit_is_caught_before_writing(monkeypatch):
    """Were an edit to land on another question, the check after editing refuses the file."""
    text = _bank(_question("q-a", CLEAN), _question("q-b", PADDED))
    real = fix_module._located

    def swapped(checked, entries):
        found = real(checked, entries)
        return {"q-b": (found["q-b"][0], found["q-a"][1])}   # the index of q-b, the mapping of q-a

    monkeypatch.setattr(fix_module, "_located", swapped)
    with pytest.raises(FixError, match="beyond the fields"):
        apply_fixes(text, [("q-b", Fix("strip", (SetText("stem", "Which tensor method returns?"),)))])


NUMERIC = """\
questions:
  - id: n-1
    stem: How many bytes does one fp32 value take?
    options:
      - text: '8'
        rationale: Incorrect. That is fp64.
      - text: ' 2'
        rationale: Incorrect. That is fp16.
      - text: '4'
        correct: true
        rationale: Correct. 32 bits.
      - text: '1'
        rationale: Incorrect. That is int8.
"""


def _options(text: str) -> list[tuple[str, str]]:
    lines = text.splitlines()
    return [(line.split("'")[1], lines[i + 1].strip()) for i, line in enumerate(lines) if "- text: '" in line]


def test_a_text_fix_inside_reordered_options_waits_for_the_next_round():
    """Both fixes name indices of the old order: in one pass the text fix would land on another option."""
    fixes = [("n-1", Fix("sort", (Reorder("options", (3, 1, 2, 0)),))),
             ("n-1", Fix("strip", (SetText("options[1].text", "2"),)))]
    new = apply_to_text(NUMERIC, fixes)
    assert _options(new) == [("1", "rationale: Incorrect. That is int8."), (" 2", "rationale: Incorrect. That is fp16."),
                             ("4", "correct: true"), ("8", "rationale: Incorrect. That is fp64.")]


def test_reorder_and_a_text_fix_in_one_question_both_apply_over_rounds(run_cli, write):
    path = write("bank/a.yaml", NUMERIC)
    run_cli("check", path, "--fix", "--no-cache")
    assert _options(path.read_text()) == [("1", "rationale: Incorrect. That is int8."),
                                          ("2", "rationale: Incorrect. That is fp16."),
                                          ("4", "correct: true"), ("8", "rationale: Incorrect. That is fp64.")]


# --- anchors and aliases ----------------------------------------------------------------------------------------

SHARED = """\
questions:
  - id: s-1
    stem: How many bytes does one fp32 value take?
    options: &sizes
      - text: '8'
        rationale: Incorrect. Too many.
      - text: '2'
        rationale: Incorrect. Too few.
      - text: '4'
        correct: true
        rationale: Correct. 32 bits.
      - text: '1'
        rationale: Incorrect. Too few.
  - id: s-2
    stem: How many bytes does one float32 value take?
    options: *sizes
  - id: s-3
    stem: "Which tensor method returns a Python number?  "
    options:
      - text: item()
        correct: true
        rationale: Correct. It copies the scalar out.
      - text: detach()
        rationale: Incorrect. It returns a tensor.
"""


def test_fix_on_options_shared_through_an_alias_is_refused_and_settles(run_cli, write):
    path = write("bank/a.yaml", SHARED)
    code, out, err = run_cli("check", path, "--fix", "--no-cache")
    fixed = path.read_text()
    assert fixed == SHARED.replace('number?  "', 'number?"'), "only the unshared fix may be applied"
    assert "anchor &sizes" in err and "not fixed" in err
    run_cli("check", path, "--fix", "--no-cache")
    assert path.read_text() == fixed, "a second run changed the file again"


def test_fix_on_an_aliased_scalar_is_refused(run_cli, write):
    text = _bank(_question("a-1", "&pad " + PADDED), _question("a-2", "*pad"))
    path = write("bank/a.yaml", text)
    code, out, err = run_cli("check", path, "--fix", "--no-cache")
    assert path.read_text() == text and "anchor &pad" in err


# --- the file system --------------------------------------------------------------------------------------------

def _padded_bank(qid: str = "f-1") -> str:
    return _bank(_question(qid, PADDED))


def test_symlink_is_followed_and_kept(run_cli, write, tmp_path):
    target = write("store/real.yaml", _padded_bank())
    link = tmp_path / "bank" / "a.yaml"
    link.parent.mkdir()
    link.symlink_to(target)
    run_cli("check", link, "--fix", "--no-cache")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert '"Which tensor method returns a Python number?"' in target.read_text()


def test_read_only_file_is_reported_not_written(run_cli, write):
    locked = write("bank/a.yaml", _padded_bank("f-1"))
    other = write("bank/b.yaml", _padded_bank("f-2"))
    os.chmod(locked, 0o444)
    code, findings, err = _json_findings(run_cli, locked.parent, "--fix")
    assert locked.read_text() == _padded_bank("f-1") and (locked.stat().st_mode & 0o777) == 0o444
    assert "read-only" in err
    assert any(f["rule"] == "fix-skipped" and f["path"].endswith("a.yaml") for f in findings)
    assert any(f["rule"] == "stray-whitespace" and f["path"].endswith("a.yaml") for f in findings)
    assert '"Which tensor method returns a Python number?"' in other.read_text()


def test_read_only_folder_is_reported_not_written(run_cli, write):
    path = write("bank/a.yaml", _padded_bank())
    os.chmod(path.parent, 0o555)
    try:
        code, out, err = run_cli("check", path, "--fix", "--no-cache")
    finally:
        os.chmod(path.parent, 0o755)
    assert path.read_text() == _padded_bank() and "folder is read-only" in err and "internal error" not in err
    assert [p.name for p in path.parent.iterdir()] == ["a.yaml"]


def test_hard_links_are_not_split(run_cli, write):
    path = write("bank/a.yaml", _padded_bank())
    twin = path.parent.parent / "twin.yaml"
    os.link(path, twin)
    code, out, err = run_cli("check", path, "--fix", "--no-cache")
    assert os.path.samefile(path, twin), "the hard link was split"
    assert path.read_text() == _padded_bank() and "hard links" in err


def test_a_write_failure_is_a_finding_and_the_other_files_go_on(run_cli, write, monkeypatch):
    first = write("bank/a.yaml", _padded_bank("f-1"))
    second = write("bank/b.yaml", _padded_bank("f-2"))
    real = tempfile.mkstemp

    def refusing(*args, **kwargs):
        if kwargs.get("prefix", "").startswith(".a.yaml"):
            raise PermissionError(13, "Permission denied")
        return real(*args, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", refusing)
    code, findings, err = _json_findings(run_cli, first.parent, "--fix")
    # fix-skipped is a warning: the run passes under the default fail-on (error), and says why in the report
    assert "internal error" not in err and code == 0
    assert "a.yaml: not fixed: cannot write it: Permission denied" in err
    assert any(f["rule"] == "fix-skipped" and f["path"].endswith("a.yaml") for f in findings)
    assert first.read_text() == _padded_bank("f-1")
    assert '"Which tensor method returns a Python number?"' in second.read_text()


def test_a_file_changed_since_it_was_read_is_not_overwritten(tmp_path):
    path = tmp_path / "a.yaml"
    path.write_text("someone else's edit\n")
    with pytest.raises(FixError, match="changed on disk"):
        replace_fixed(path, "new\n", expected=b"what qlint read\n")
    assert path.read_text() == "someone else's edit\n"


# --- comments around reordered options --------------------------------------------------------------------------

AROUND = """\
questions:
  - id: c-1
    stem: How many bytes does one fp32 value take?
    options:
      - text: '2'
        rationale: Incorrect. That is fp16.
      - text: '8'
        rationale: Incorrect. That is fp64.   # eight
      # four is the key
      - text: '4'
        correct: true
        rationale: Correct. 32 bits.
      - text: '1'
        rationale: Incorrect. That is int8.
  # the next question
  - id: c-2
    stem: Which tensor method returns a Python number?
    options:
      - text: item()
        correct: true
        rationale: Correct. It copies the scalar out.
      - text: detach()
        rationale: Incorrect. It returns a tensor.
"""


def test_comments_between_and_after_reordered_options_stay_where_they_belong(run_cli, write):
    path = write("bank/a.yaml", AROUND)
    run_cli("check", path, "--fix", "--no-cache")
    lines = path.read_text().splitlines()
    assert [line.split("'")[1] for line in lines if "- text: '" in line] == ["1", "2", "4", "8"]
    assert lines[lines.index("      # four is the key") + 1] == "      - text: '4'", "a comment left its option"
    assert lines[lines.index("  # the next question") + 1] == "  - id: c-2", "the comment after the list moved"
