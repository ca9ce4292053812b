"""Hostile input, second round: a hidden second ``questions:`` list, source snippets that would open files again,
file names that are not UTF-8 or carry newlines, stdin past the size limit, and one file named twice.

Each case runs the installed CLI in a subprocess under the memory limit and timeout of the first round.
"""
from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from helpers import FLAWED, VALID, run_qlint

from qlint.formats.yaml_reader import load_text

TIMEOUT = 30  # seconds; a hang fails the case instead of stalling the suite
COLOUR = {"NO_COLOR": "", "FORCE_COLOR": "1"}  # snippets are shown on a terminal or with FORCE_COLOR


@pytest.fixture
def bank(tmp_path: Path) -> Path:
    root = tmp_path / "bank"
    root.mkdir()
    (root / "valid.yaml").write_text(VALID)
    (root / "flawed.yaml").write_text(FLAWED)
    (tmp_path / "qlint.toml").write_text("")  # stop the config search here
    return root


def check(tmp: Path, *args: str, env: dict[str, str] | None = None, stdin: bytes | None = None
          ) -> tuple[int, str, str]:
    env = {"QLINT_CACHE_DIR": str(tmp.parent / f"{tmp.name}-cache"), **(env or {})}
    code, out, err, _ = run_qlint(["check", *args], tmp, env, stdin=stdin, timeout=TIMEOUT)
    assert "Traceback" not in err and "internal error" not in err, err
    return code, out, err


def findings_of(out: str) -> list[dict]:
    return json.loads(out)["findings"]


# --- a duplicate top-level key -------------------------------------------------------------------

def _indented(question: str) -> str:
    lines = question.splitlines()
    return "".join(("  - " if i == 0 else "    ") + line + "\n" for i, line in enumerate(lines))


def test_second_questions_list_is_reported_and_checked(bank, tmp_path):
    # the first list is clean, the second (what PyYAML and most consumers read) has two correct options
    (bank / "hostile.yaml").write_text("questions:\n" + _indented(VALID.replace("valid-1", "first-1"))
                                       + "questions:\n" + _indented(FLAWED.replace("flawed-1", "second-1")))
    code, out, _ = check(tmp_path, "bank", "--format", "json")
    mine = [f for f in findings_of(out) if f["path"] == "bank/hostile.yaml"]
    assert code == 1, mine
    dup = [f for f in mine if f["code"] == "Q102" and "duplicate key 'questions'" in f["message"]]
    assert dup and dup[0]["line"] == 10 and dup[0]["severity"] == "error", mine
    assert "first at line 1" in dup[0]["message"] and "last" in dup[0]["message"], dup
    assert any(f["rule"] == "correct-count" and f["question"] == "second-1" for f in mine), mine


def test_duplicate_key_in_a_question_keeps_the_last_value_like_yaml_loaders():
    text = "id: a\nid: b\nstem: Dup?\noptions:\n  - {text: a, correct: true, rationale: r}\n  - {text: b, rationale: r}\n"
    result = load_text(text, "d.yaml")
    dup = [f for f in result.findings if "duplicate key 'id'" in f.message]
    assert [f.line for f in dup] == [2] and "the last value is used" in dup[0].message, result.findings
    assert result.questions[0].question.id == "b"


# --- snippets never open a file the loader refused ------------------------------------------------

def _fifo(bank: Path, tmp: Path) -> None:
    os.mkfifo(bank / "hostile.yaml")


def _dev_zero(bank: Path, tmp: Path) -> None:
    (bank / "hostile.yaml").symlink_to("/dev/zero")


def _sparse(bank: Path, tmp: Path) -> None:
    with open(bank / "hostile.yaml", "wb") as handle:
        handle.truncate(6 * 1024 ** 3)  # over the size limit, and over the memory limit if read whole


@pytest.mark.parametrize("build, needle", [(_fifo, "not a regular file"), (_dev_zero, "not a regular file"),
                                           (_sparse, "max-file-size")], ids=["fifo", "dev-zero", "sparse-6gb"])
def test_snippets_do_not_read_refused_files(build, needle, bank, tmp_path):
    build(bank, tmp_path)
    code, out, _ = check(tmp_path, "bank", "--no-cache", env=COLOUR)
    assert code == 1
    lines = [line for line in out.splitlines() if "bank/hostile.yaml:1:1:" in line]
    assert lines and needle in lines[0], out
    # the flawed neighbour's snippet is still shown, from the file the loader read
    assert "bank/flawed.yaml:3:" in out and "3 | options:" in out, out


def test_snippet_never_shows_a_symlink_target(bank, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0:SECRET-TOKEN:/root:/bin/bash\n")
    (bank / "hostile.yaml").symlink_to(secret)
    code, out, _ = check(tmp_path, "bank", "--no-cache", env=COLOUR)
    assert code == 1 and "bank/hostile.yaml:1:1:" in out, out
    assert "SECRET-TOKEN" not in out, out


def test_stdin_snippet_comes_from_stdin_not_the_named_file(tmp_path):
    (tmp_path / "qlint.toml").write_text("")
    (tmp_path / "named.yaml").write_text("SECRET-TOKEN: @x\n")
    code, out, _ = check(tmp_path, "-", "--stdin-filename", "named.yaml", env=COLOUR, stdin=b"stem: @bad\n")
    assert code == 1 and "named.yaml:1:" in out, out
    assert "SECRET-TOKEN" not in out and "1 | stem: @bad" in out, out


def test_snippet_escapes_terminal_control_sequences(bank, tmp_path):
    (bank / "hostile.yaml").write_bytes(b"id: t\nstem: \x1b]0;owned\x07 title\n")
    code, out, _ = check(tmp_path, "bank", "--no-cache", env=COLOUR)
    assert code == 1 and "bank/hostile.yaml:2:" in out, out
    assert "\x1b]0;" not in out and "\x07" not in out, out


# --- file names that are not UTF-8, or that carry newlines ----------------------------------------

BAD_NAME = b"bank/bad\xffname.yaml"


@pytest.mark.parametrize("fmt", ["text", "json", "json-lines", "sarif", "github", "gitlab", "junit"])
def test_non_utf8_file_name_in_every_format(fmt, bank, tmp_path):
    (tmp_path / os.fsdecode(BAD_NAME)).write_text(FLAWED)
    code, out, _ = check(tmp_path, "bank", "--format", fmt)
    assert code == 1, out
    code, _, _ = check(tmp_path, "bank", "--format", fmt, "-o", "report.out")
    assert code == 1
    written = (tmp_path / "report.out").read_text(encoding="utf-8")
    assert written == out
    if fmt == "sarif":
        results = json.loads(out)["runs"][0]["results"]
        uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
        assert "bank/bad%FFname.yaml" in uris, uris  # the URI of the name's own bytes
    elif fmt in ("json", "json-lines", "gitlab"):
        docs = [json.loads(line) for line in out.splitlines()] if fmt == "json-lines" else json.loads(out)
        text = json.dumps(docs)  # lone surrogates come back as \udcff escapes: the name's own byte, recoverable
        assert "bad\\udcffname.yaml" in text, out
        if fmt == "json":
            paths = {os.fsencode(f["path"]) for f in docs["findings"]}
            assert BAD_NAME in paths, paths
    elif fmt == "junit":
        ET.fromstring(out)
        assert "bad\\xffname.yaml" in out, out
    else:
        assert "bank/bad\\xffname.yaml" in out, out


@pytest.mark.parametrize("command", [("report", "-o", "report.html"), ("stats", "--format", "json"), ("stats",)])
def test_non_utf8_file_name_in_the_bank_report(command, bank, tmp_path):
    """The report and stats show such a name escaped, and the report's link opens the file (its own bytes)."""
    (tmp_path / os.fsdecode(BAD_NAME)).write_text(FLAWED)
    env = {"QLINT_CACHE_DIR": str(tmp_path.parent / f"{tmp_path.name}-cache")}
    code, out, err, _ = run_qlint([command[0], "bank", *command[1:]], tmp_path, env, timeout=TIMEOUT)
    assert code == 0 and "Traceback" not in err and "internal error" not in err, err
    if command[0] == "report":
        page = (tmp_path / "report.html").read_text(encoding="utf-8")
        assert "bank/bad\\xffname.yaml:" in page and 'href="bank/bad%FFname.yaml' in page
    elif "json" in command:
        assert "bad\\udcffname.yaml" in out, out


def test_non_utf8_file_name_in_a_baseline(bank, tmp_path):
    (tmp_path / os.fsdecode(BAD_NAME)).write_text("id: [\n")  # a file-level finding: keyed by its path
    code, _, err = check(tmp_path, "bank", "--write-baseline", "baseline.json", "--select", "ALL")
    assert code == 0 and re.search(r"wrote [1-9]\d* findings?", err), err
    code, out, _ = check(tmp_path, "bank", "--baseline", "baseline.json", "--format", "json", "--select", "ALL")
    assert code == 0 and findings_of(out) == [], out


def test_newline_in_file_name_forges_no_line(bank, tmp_path):
    (bank / "x\n::error file=forged.yaml,line=1::forged\n\x1b[2Jy.yaml").write_text(FLAWED)
    # the text format escapes the newline as Python does, GitHub's workflow commands percent-encode it
    for fmt, shown in (("text", "x\\n::error"), ("github", "x%0A::error")):
        code, out, _ = check(tmp_path, "bank", "--format", fmt)
        assert code == 1, out
        assert not [line for line in out.splitlines() if "file=forged.yaml" in line and line.startswith("::error")
                    and "::error file=bank" not in line], out
        assert "\x1b[2J" not in out, out
        assert shown in out, out


# --- stdin under the size limit; one file named twice ---------------------------------------------

def test_stdin_over_the_size_limit_is_a_finding_not_a_read(tmp_path):
    (tmp_path / "qlint.toml").write_text("max-file-size = 100000\n")
    data = b"# " + b"x" * 198 + b"\n"
    code, out, _ = check(tmp_path, "-", "--stdin-filename", "in.yaml", "--format", "json", stdin=data * 1000)
    found = findings_of(out)
    assert code == 1 and [f["code"] for f in found] == ["Q101"], found
    assert found[0]["path"] == "in.yaml" and found[0]["line"] == 1 and "max-file-size" in found[0]["message"]


def test_stdin_of_fifty_megabytes_stays_cheap(tmp_path):
    (tmp_path / "qlint.toml").write_text("")
    stem = b"- {id: q, stem: s, options: [{text: a, correct: true}, {text: b}]}\n"
    code, out, _ = check(tmp_path, "-", "--format", "json", stdin=b"questions:\n" + stem * (50 * 1024 ** 2 // len(stem)))
    found = findings_of(out)
    assert code == 1 and any("max-file-size" in f["message"] for f in found), found[:5]


@pytest.mark.parametrize("second", ["absolute", "folder-again", "symlink"])
def test_one_file_named_twice_is_checked_once(second, bank, tmp_path):
    args = ["bank/flawed.yaml"]
    if second == "absolute":
        args.append(str(bank / "flawed.yaml"))
    elif second == "folder-again":
        args = ["bank", "./bank", str(bank)]
    else:
        (bank / "alias.yaml").symlink_to("flawed.yaml")
        args = ["bank"]
    code, out, _ = check(tmp_path, *args, "--format", "json")
    found = findings_of(out)
    assert code == 1 and not [f for f in found if f["rule"] == "duplicate-id"], found
    assert len([f for f in found if f["rule"] == "correct-count"]) == 1, found


# --- the pieces, in process ----------------------------------------------------------------------------

def test_escape_text_shows_control_characters_and_undecodable_bytes():
    from qlint.output import escape_text, json_safe

    assert escape_text("ok/é.yaml") == "ok/é.yaml"
    assert escape_text("a\nb\r\t\x1b[2J\x7f\u2028" + os.fsdecode(b"\xff")) == "a\\nb\\r\\t\\x1b[2J\\x7f\\u2028\\xff"
    assert json.loads(json_safe(json.dumps(os.fsdecode(b"x\xff"), ensure_ascii=False))) == os.fsdecode(b"x\xff")


def test_source_lines_read_only_what_the_loader_would(tmp_path):
    from qlint.finding import Finding, Severity
    from qlint.limits import Limits
    from qlint.run.sources import KEPT_WIDTH, source_lines

    def at(path: Path | str, line: int) -> Finding:
        return Finding(str(path), line, 1, "Q101", "parse-error", Severity.ERROR, "m")

    good = tmp_path / "good.yaml"
    good.write_bytes(b"one\rtwo\r\nthree\n" + b"x" * 1000 + b"\n")  # YAML counts a lone CR as a line break
    big = tmp_path / "big.yaml"
    big.write_bytes(b"a\n" * 1000)
    link = tmp_path / "link.yaml"
    link.symlink_to(good)
    os.mkfifo(tmp_path / "pipe.yaml")
    found = source_lines([at(good, 2), at(good, 3), at(good, 4), at(big, 1), at(link, 1),
                          at(tmp_path / "pipe.yaml", 1), at(tmp_path / "missing.yaml", 1)], Limits(max_file_size=1100))
    assert found == {(str(good), 2): "two", (str(good), 3): "three", (str(good), 4): "x" * KEPT_WIDTH}
    # stdin: the bytes read, whatever file the name names
    assert source_lines([at(good, 1)], Limits(), (str(good), b"from stdin\n")) == {(str(good), 1): "from stdin"}
