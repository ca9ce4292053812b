"""Hostile response data for ``qlint analyze``: names that are patterns, files that hold nothing to analyse, files the
engine cannot read. The engine reads exactly the file that was named, nothing to analyse is an error, and every
engine error names the file (and the line)."""
from __future__ import annotations

from helpers import DATA

import gzip
import shutil
from pathlib import Path

import pytest

pytest.importorskip("duckdb")

from qlint.analysis import AnalysisError, sources  # noqa: E402
from qlint.analysis.run import analyze, bank_questions  # noqa: E402

DATA = DATA / "responses"


def _answers(person: str, n: int = 1) -> str:
    rows = "".join(f"{person}{i},boil,B\n{person}{i},capital-fr,Paris\n" for i in range(n))
    return "person,item,response\n" + rows


@pytest.fixture
def folder(tmp_path: Path, monkeypatch) -> Path:
    shutil.copy(DATA / "bank.yaml", tmp_path / "bank.yaml")
    # siblings a pattern would reach: each holds a different number of persons, so a stray read shows
    (tmp_path / "secret.csv").write_text(_answers("secret", 7))
    (tmp_path / "a.csv").write_text(_answers("a", 5))
    (tmp_path / "b.csv").write_text(_answers("b", 3))
    home = tmp_path / "home"
    home.mkdir()
    (home / "resp.csv").write_text(_answers("home", 4))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _persons(name: str) -> int:
    questions = bank_questions(["bank.yaml"])
    return analyze(questions, [Path(name)], [], None).stats.forms[0].persons


@pytest.mark.parametrize("name", ["*.csv", "[ab].csv", "?.csv", "**.csv", "~/resp.csv", "x[*]y.csv"])
@pytest.mark.parametrize("descriptor", [True, False], ids=["by-descriptor", "escaped-path"])
def test_a_name_that_is_a_pattern_reads_only_that_file(name, descriptor, folder, monkeypatch):
    if not descriptor:   # a system without /dev/fd: the absolute path, every pattern character escaped
        monkeypatch.setattr(sources, "by_descriptor", lambda fd: None)
    target = folder / name
    target.parent.mkdir(exist_ok=True)
    target.write_text(_answers("named", 1))
    assert _persons(name) == 1


def test_a_missing_name_that_is_a_pattern_matches_nothing(folder):
    with pytest.raises(AnalysisError, match=r"\*\.csv: cannot read it"):
        _persons("*.csv")


def test_a_partition_like_folder_adds_no_column(folder):
    """DuckDB turns ``year=2024/`` into a column; in a wide file that column would be read as a question."""
    (folder / "year=2024").mkdir()
    (folder / "year=2024" / "w.csv").write_text("person,boil,capital-fr\np1,B,Paris\np2,A,Lyon\n")
    result = analyze(bank_questions(["bank.yaml"]), [Path("year=2024/w.csv")], [], None)
    assert result.intake.status_counts == {0: 4} and not result.intake.unknown_items


def test_compressed_and_parquet_files_are_still_read_by_their_suffix(folder):
    with gzip.open(folder / "r.tsv.gz", "wt") as handle:
        handle.write("person\titem\tresponse\np1\tboil\tB\np2\tboil\tA\n")
    shutil.copy(DATA / "long.parquet", folder / "r[1].parquet")
    assert _persons("r.tsv.gz") == 2
    assert _persons("r[1].parquet") == 3


@pytest.mark.parametrize("name, text", [("x.json", '[{"person": "p", "item": "boil", "response": "B"}]\n'),
                                        ("x.ndjson", '{"person": "p", "item": "boil", "response": "B"}\n'),
                                        ("x.jsonl", '{"person": "p", "item": "boil", "response": "B"}\n')])
def test_a_json_response_file_is_refused_clearly(name, text, folder, run_cli):
    (folder / name).write_text(text)
    code, out, err = run_cli("analyze", name, "bank.yaml")
    assert code == 2 and "All clear" not in out, out + err
    assert err.startswith(f"qlint: error: {name}: a JSON file") and "CSV, TSV or Parquet" in err, err


def test_analyze_without_a_response_file_is_an_error(folder, run_cli):
    code, out, err = run_cli("analyze", "bank.yaml")
    assert code == 2 and "All clear" not in out and "needs response files" in err, out + err


@pytest.mark.parametrize("data, why", [(b"", "the file is empty"),
                                       (b"person,item,response\n", "it has a header and no rows"),
                                       (b"person,item,response\r\n", "it has a header and no rows"),
                                       (b"\xef\xbb\xbfperson,capital-fr,boil\n", "it has a header and no rows")])
def test_a_file_with_no_answers_is_an_error_naming_it(data, why, folder, run_cli):
    (folder / "r.csv").write_bytes(data)
    for command in (("analyze", "r.csv", "bank.yaml"), ("check", "bank.yaml", "--responses", "r.csv"),
                    ("stats", "bank.yaml", "--responses", "r.csv")):
        code, out, err = run_cli(*command)
        assert code == 2 and "All clear" not in out, (command, out, err)
        assert f"no answers to analyse: r.csv: {why}" in err, (command, err)


def test_a_file_with_no_answers_beside_one_with_answers_is_a_finding(folder, run_cli):
    (folder / "none.csv").write_text("person,item,response\n")
    code, out, err = run_cli("analyze", "none.csv", "b.csv", "bank.yaml")
    assert "none.csv:1:1: warning: Q700 response-data: no answers read: it has a header and no rows" in out, out


@pytest.mark.parametrize("data, line, ending, first", [
    (b"person,item,response\r\np1,boil,B\np2,boil,A\r\n", 2, "LF", "CRLF"),
    (b"person,item,response\np1,boil,B\np2,boil,A\r\np3,boil,A\n", 3, "CRLF", "LF"),
    (b"person,item,response\rp1,boil,B\np2,boil,A\r\n", 2, "LF", "CR"),
])
def test_mixed_line_endings_are_explained_with_the_line(data, line, ending, first, folder, run_cli):
    (folder / "m.csv").write_bytes(data)
    code, out, err = run_cli("analyze", "m.csv", "bank.yaml")
    assert code == 2, out + err
    assert err.startswith(f"qlint: error: m.csv:{line}: line {line} ends with {ending} where line 1 ends with "
                          f"{first}: the file mixes line endings"), err
    assert "sniff" not in err and "Candidates" not in err and "LINE 1" not in err, err


def test_a_crlf_split_between_two_chunks_is_one_ending(folder, monkeypatch):
    monkeypatch.setattr(sources, "_CHUNK", 4)
    path = folder / "c.csv"
    path.write_bytes(b"abc\r\nd\r\ne\nf\r\n")
    with open(path, "rb") as handle:
        assert sources.mixed_ending(handle) == (3, "LF", "CRLF")
    path.write_bytes(b"abc\r\ndef\r\n")
    with open(path, "rb") as handle:
        assert sources.mixed_ending(handle) is None


@pytest.mark.parametrize("name, data, needle", [
    ("bin.csv", bytes(range(256)) * 20, "bin.csv: a binary file, not a table of responses"),
    ("fake.parquet", b"PAR1 not really", "fake.parquet: not a Parquet file the engine can read"),
    ("junk.parquet", b"x" * 5000, "junk.parquet: not a Parquet file the engine can read"),
])
def test_engine_errors_name_the_file_and_never_leak_the_query(name, data, needle, folder, run_cli):
    (folder / name).write_bytes(data)
    code, out, err = run_cli("analyze", name, "bank.yaml")
    assert code == 2 and needle in err, err
    assert "/dev/fd" not in err and "LINE 1" not in err and "read_csv" not in err and "read_parquet" not in err, err
    assert len(err.splitlines()) == 1, err


def test_a_fifo_named_as_responses_is_refused_without_hanging(folder, run_cli):
    import os

    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(folder / "pipe.csv")
    code, _, err = run_cli("analyze", "pipe.csv", "bank.yaml")
    assert code == 2 and "pipe.csv: not a regular file" in err, err


def test_an_engine_message_loses_its_advice_and_names_the_file(tmp_path):
    path = tmp_path / "r.csv"
    path.write_bytes(b"person,item,response\np1,boil,B\n")
    with sources.opened(path) as file:
        memory = Exception(f"Out of Memory Error: failed to allocate data of size 32.0 KiB (953.6 MiB/953.6 MiB used)\n"
                           f"Possible solutions:\n* Reducing the number of threads\nLINE 1: SELECT * FROM read_csv('{file.name}')")
        assert sources.explain(memory, path, file).startswith(f"{path}: the engine ran out of memory reading it")
        other = Exception(f"Invalid Input Error: Error in file \"{file.name}\" on line 7: bad thing\n"
                          "Possible Solution: set something\nLINE 1: SELECT 1")
        said = sources.explain(other, path, file)
    assert said == f"{path}:7: cannot read it: Error in file \"{path}\" on line 7: bad thing", said


def test_a_response_file_named_twice_is_read_once(folder):
    questions = bank_questions(["bank.yaml"])
    once = analyze(questions, [Path("b.csv")], [], None).intake.status_counts
    twice = analyze(questions, [Path("b.csv"), Path("./b.csv"), Path("b.csv")], [], None)
    assert twice.intake.status_counts == once and not twice.stats.repeats


def _gzip_rows(path: Path, row: bytes, copies: int, header: bytes = b"person,item,response\n") -> None:
    with gzip.open(path, "wb", compresslevel=9) as handle:
        handle.write(header)
        block = row * (1 << 16)
        for _ in range(copies):
            handle.write(block)


def test_a_compression_bomb_is_refused_before_the_engine_reads_it(folder, run_cli):
    """1.2 MB of gzip inflating to 800 MB of rows held the engine past 90 s: a gzip file is inflated as it is
    looked at, and refused once it inflates past 100 times its size."""
    _gzip_rows(folder / "rows.csv.gz", b"p1,boil,B\n", 200)   # 130 MB of rows in about 200 kB
    code, _, err = run_cli("analyze", "rows.csv.gz", "bank.yaml")
    assert code == 2 and "inflates to more than 100 times its size" in err, err


def test_a_long_line_inside_a_gzip_file_is_found_inflated(folder, run_cli):
    """The line-length pre-check ran over the compressed bytes, which say nothing of the lines the engine reads."""
    with gzip.open(folder / "line.csv.gz", "wb") as handle:
        handle.write(b"person,item,response\n" + b"a" * 3_000_000 + b"\n")
    code, _, err = run_cli("analyze", "line.csv.gz", "bank.yaml")
    assert code == 2 and "line 2 is longer than 2,000,000 bytes" in err, err


def test_a_file_named_gz_that_is_no_gzip_is_named(folder, run_cli):
    (folder / "bad.csv.gz").write_bytes(b"person,item,response\np1,boil,B\n")
    code, _, err = run_cli("analyze", "bad.csv.gz", "bank.yaml")
    assert code == 2 and "bad.csv.gz: not a gzip file the reader can inflate" in err, err
