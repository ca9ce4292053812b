"""The format table is the one place a bank format is declared: every command's idea of the formats comes from it,
and a reader, writer or hook pattern that falls out of step with it fails here."""
from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from qlint.formats import discover_banks, forced, reader_for
from qlint.formats.base import ReadLimits
from qlint.formats.table import ALIASES, BY_NAME, TABLE, TARGETS, WALKED, hook_pattern, is_bank_name

from helpers import DATA, ROOT  # noqa: E402
FORMATS_DIR = importlib.import_module("qlint.formats").__path__[0]


def test_every_reader_module_is_a_row_of_the_table():
    """A reader module added under formats/ without a row is never dispatched to: it fails here."""
    readers = {p.stem for p in Path(FORMATS_DIR).glob("*.py")
               if "READER = " in p.read_text(encoding="utf-8")}
    assert readers == {row.module for row in TABLE}


@pytest.mark.parametrize("row", TABLE, ids=lambda r: r.name)
def test_each_row_names_its_reader(row):
    reader = importlib.import_module(f"qlint.formats.{row.module}").READER
    assert reader.name == row.name
    assert set(reader.suffixes) == set(row.suffixes + row.shared)
    assert row.walk or row.suffixes, "a format a folder walk never takes"


def test_the_command_line_knows_every_format_and_name():
    from qlint.cli.common import FROM_ALIASES, FROM_FORMATS

    assert FROM_FORMATS == tuple(BY_NAME) and FROM_ALIASES == tuple(ALIASES)


def test_convert_writes_every_target_of_the_table():
    from qlint.formats.convert import WRITERS

    assert tuple(WRITERS) == TARGETS
    assert all(row.targets for row in TABLE), "every format qlint reads can be written back"


def test_the_hook_takes_every_file_a_folder_walk_takes():
    """The pre-commit hook's `files` pattern is the table's: a file `check` takes in a folder reaches the hook."""
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    pattern = next(h["files"] for h in hooks if h["id"] == "qlint")
    assert pattern == hook_pattern()
    for suffix in {s for s in WALKED if s != ".txt"}:
        assert re.search(pattern, f"bank/questions{suffix}"), suffix
    assert re.search(pattern, "bank/notes.txt") is None and re.search(pattern, "bank/answers.csv") is None


def test_every_walked_suffix_is_discovered(tmp_path):
    (tmp_path / "a.gift").write_text("::q1:: Pick {=a ~b}\n", encoding="utf-8")
    (tmp_path / "b.gift.txt").write_text("::q1:: Pick {=a ~b}\n", encoding="utf-8")
    (tmp_path / "c.aiken.txt").write_text("Pick?\nA. a\nB. b\nANSWER: A\n", encoding="utf-8")
    (tmp_path / "d.xml").write_text("<quiz></quiz>", encoding="utf-8")
    (tmp_path / "e.xml").write_text("<project></project>", encoding="utf-8")   # a build file: left alone
    (tmp_path / "f.txt").write_text("notes", encoding="utf-8")
    found = {p.name for p in discover_banks([tmp_path])}
    assert found == {"a.gift", "b.gift.txt", "c.aiken.txt", "d.xml"}


@pytest.mark.parametrize(("name", "data", "expected"), [
    ("bank.yaml", b"questions: []", "yaml"),
    ("bank.gift.txt", b"", "gift"),
    ("bank.aiken.txt", b"", "aiken"),
    ("bank.txt", b"::q:: Pick {=a ~b}", "gift"),
    ("bank.txt", b"Pick?\nA. a\nB. b\nANSWER: A\n", "aiken"),
    ("bank.txt", b"questions: []", "yaml"),
    ("quiz.xml", b"<?xml version='1.0'?><quiz></quiz>", "moodle-xml"),
    ("item.xml", b"<questestinterop></questestinterop>", "qti"),
    ("package.zip", b"PK\x03\x04", "qti"),
    ("bank", b"questions: []", "yaml"),
])
def test_dispatch_follows_the_table(name, data, expected):
    assert reader_for(name, data).name == expected


def test_from_leaves_settled_and_held_names_alone():
    def limits(name):
        return ReadLimits(formats=(("**", name),))

    assert forced("bank.txt", limits("aiken")) == "aiken"
    assert forced("bank.gift", limits("aiken")) is None
    assert forced("quiz.xml", limits("gift")) is None and forced("quiz.xml", limits("qti")) == "qti"
    assert forced("package.zip", limits("moodle-xml")) is None


@pytest.mark.parametrize("path", ["bank.yaml", "b.yml", "b.gift", "b.gift.txt", "b.aiken", "b.AIKEN.TXT", "q.xml",
                                  "p.zip", "i.qti"])
def test_bank_names(path):
    assert is_bank_name(path)


@pytest.mark.parametrize("path", ["responses.csv", "r.tsv", "r.csv.gz", "r.parquet", "notes.txt", "r.json"])
def test_response_names_are_not_banks(path):
    assert not is_bank_name(path)


def _qlint(*argv, cwd):
    done = subprocess.run([sys.executable, "-m", "qlint", *argv], cwd=cwd, capture_output=True, text=True,
                          timeout=120)
    return done.returncode, done.stdout, done.stderr


def test_analyze_takes_a_gift_bank_as_the_bank(tmp_path):
    """`qlint analyze responses.csv bank.gift`: the GIFT file is the bank (it used to be fed to the engine as
    response data), and the analysis is the one of the same bank in YAML."""
    code, _, err = _qlint("convert", str(DATA / "responses" / "bank.yaml"), "--to", "gift", "-o", "out", cwd=tmp_path)
    assert code == 0, err
    responses = str(DATA / "responses" / "long.csv")
    as_gift = _qlint("analyze", responses, "out/bank.gift", "--format", "json", cwd=tmp_path)
    as_yaml = _qlint("analyze", responses, str(DATA / "responses" / "bank.yaml"), "--format", "json", cwd=tmp_path)
    assert as_gift[0] == as_yaml[0] == 0, as_gift[2]
    assert json.loads(as_gift[1])["summary"]["questions"] == 3
    assert json.loads(as_gift[1])["summary"] == json.loads(as_yaml[1])["summary"]
    assert as_gift[2] == as_yaml[2] and "3 persons, 3 questions" in as_gift[2]
    # the order of the arguments does not matter
    swapped = _qlint("analyze", "out/bank.gift", responses, "--format", "json", cwd=tmp_path)
    assert swapped[:2] == as_gift[:2]


def test_analyze_with_only_banks_names_them(tmp_path):
    for name in ("bank.gift", "quiz.xml"):
        (tmp_path / name).write_text("", encoding="utf-8")
    code, out, err = _qlint("analyze", "bank.gift", "quiz.xml", cwd=tmp_path)
    assert code == 2 and "All clear" not in out
    assert "needs response files" in err and "bank.gift, quiz.xml are all banks" in err, err


def test_the_readme_s_local_hook_takes_what_the_hook_repository_takes():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"files: {hook_pattern()}\n" in text
    assert "files: \\.(ya?ml|gift|aiken|xml|zip)$" not in text
