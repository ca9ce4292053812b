"""qlint analyze / check --responses through the CLI: layouts, reporters, suppressions, baseline, hostile input."""
from __future__ import annotations

import json
import shutil

import pytest
from helpers import DATA, NETWORK_GUARD

pytest.importorskip("duckdb")

from qlint.analysis.simulate import simulate  # noqa: E402

DATA = DATA / "responses"


@pytest.fixture
def sim_files(tmp_path):
    sim = simulate(seed=4)
    (tmp_path / "bank.yaml").write_text(sim.bank_yaml, encoding="utf-8")
    with open(tmp_path / "responses.csv", "w", encoding="utf-8") as handle:
        handle.write("person,item,response\n")
        handle.writelines(sim.long_rows(500, 4))
    return sim, tmp_path


def test_analyze_reports_the_planted_miskeys_in_every_format(sim_files, run_cli):
    sim, folder = sim_files
    code, out, err = run_cli("analyze", "responses.csv", "bank.yaml", "--format", "json", cwd=folder)
    assert code == 1, err
    found = json.loads(out)["findings"]
    assert {f["question"] for f in found if f["rule"] == "likely-miskeyed"} == set(sim.truth.miskeyed)
    assert "alpha (KR-20)" in err
    for fmt in ("text", "sarif", "github", "gitlab", "junit", "json-lines"):
        code, out, err = run_cli("analyze", "responses.csv", "bank.yaml", "--format", fmt, "-q", cwd=folder)
        assert code == 1 and "likely-miskeyed" in out and "Traceback" not in err, fmt


def test_check_with_responses_adds_response_findings_to_the_lint(sim_files, run_cli):
    _, folder = sim_files
    code, out, _ = run_cli("check", "bank.yaml", "--responses", "responses.csv", "--format", "json", cwd=folder)
    rules = {f["rule"] for f in json.loads(out)["findings"]}
    assert {"likely-miskeyed", "missing-rationale"} <= rules
    code, out, _ = run_cli("check", "bank.yaml", "--format", "json", cwd=folder)
    assert "likely-miskeyed" not in {f["rule"] for f in json.loads(out)["findings"]}


def test_a_question_level_suppression_silences_a_response_rule(sim_files, run_cli):
    sim, folder = sim_files
    victim = sorted(sim.truth.miskeyed)[0]
    text = (folder / "bank.yaml").read_text().replace(
        f"  - id: {victim}\n", f"  - id: {victim}\n    qlint:\n      ignore:\n        likely-miskeyed: key confirmed by the board\n")
    (folder / "bank.yaml").write_text(text)
    _, out, _ = run_cli("analyze", "responses.csv", "bank.yaml", "--format", "json", cwd=folder)
    flagged = {f["question"] for f in json.loads(out)["findings"] if f["rule"] == "likely-miskeyed"}
    assert flagged == set(sim.truth.miskeyed) - {victim}


def test_baseline_round_trip(sim_files, run_cli):
    _, folder = sim_files
    assert run_cli("analyze", "responses.csv", "bank.yaml", "--write-baseline", "base.json", cwd=folder)[0] == 0
    code, out, _ = run_cli("analyze", "responses.csv", "bank.yaml", "--baseline", "base.json", cwd=folder)
    assert code == 0, out


def test_finding_on_an_option_points_at_its_text(sim_files, run_cli):
    sim, folder = sim_files
    _, out, _ = run_cli("analyze", "responses.csv", "bank.yaml", "--format", "json", "--select",
                        "non-functioning-distractor", cwd=folder)
    lines = (folder / "bank.yaml").read_text().splitlines()
    found = json.loads(out)["findings"]
    assert found
    for f in found:
        assert lines[f["line"] - 1].strip().startswith("- text: Answer"), f


@pytest.mark.parametrize("name", ["long.csv", "long.tsv", "long.parquet", "wide.csv", "moodle.csv", "canvas.csv"])
def test_every_documented_layout_reads_without_loss(name, tmp_path, run_cli):
    for f in DATA.iterdir():
        shutil.copy(f, tmp_path / f.name)
    code, out, err = run_cli("analyze", name, "bank.yaml", "--format", "json", cwd=tmp_path)
    assert code == 0, out + err
    assert "answered" in err and "unknown" not in err and "no such option" not in err, err


def test_layouts_agree(tmp_path, run_cli):
    """The long and wide example files hold the same answers: the same statistics come out."""
    from qlint.analysis.run import analyze, bank_questions

    questions = bank_questions([str(DATA / "bank.yaml")])
    long = analyze(questions, [DATA / "long.csv"], [], None).stats
    wide = analyze(questions, [DATA / "wide.csv"], [], None).stats
    assert [(i.qi, i.p) for i in long.items] == [(i.qi, i.p) for i in wide.items]
    assert long.forms[0].alpha == pytest.approx(wide.forms[0].alpha)


HOSTILE = {
    "ragged.csv": b"person,item,response\np1,capital-fr,A\np2,capital-fr\np3,capital-fr,A,extra\np4,boil,B\n",
    "latin1.csv": "person,item,response\np1,capital-fr,A\np\xe9,boil,B\n".encode("latin-1"),
    "binary.csv": bytes(range(256)) * 20,
    "empty.csv": b"",
    "header-only.csv": b"person,item,response\n",
    "unknown.csv": b'person,item,response\np1,"no,such ""id""",A\np1,capital-fr,Z\n',
    "one-line.csv": b"person,item,response\n" + b"x" * 3_000_000,
    "no-newline.csv": b"y" * 3_000_000,
}
# files with rows to read; the others (binary, empty, a header alone, one line past the line limit) are no table
READABLE = ("ragged.csv", "latin1.csv", "unknown.csv")


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_response_files_give_a_finding_or_a_clear_error(name, tmp_path, run_cli):
    shutil.copy(DATA / "bank.yaml", tmp_path / "bank.yaml")
    (tmp_path / name).write_bytes(HOSTILE[name])
    code, out, err = run_cli("analyze", name, "bank.yaml", cwd=tmp_path)
    assert "Traceback" not in err and "internal error" not in err, err
    if name in READABLE:   # the rows it can read are analysed, the others are response-data warnings: exit 0
        assert code == 0 and "response-data" in out, (code, out, err)
    else:                  # no table of responses at all: a usage error of a line or three
        assert code == 2 and err.startswith("qlint: error:") and len(err.splitlines()) <= 3, (code, err)


def test_missing_response_file_is_a_usage_error(tmp_path, run_cli):
    shutil.copy(DATA / "bank.yaml", tmp_path / "bank.yaml")
    code, _, err = run_cli("analyze", "nope.csv", "bank.yaml", cwd=tmp_path)
    assert code == 2 and "nope.csv" in err


def test_missing_engine_gives_an_install_hint(monkeypatch, tmp_path, run_cli):
    import builtins

    real = builtins.__import__

    def no_duckdb(name, *args, **kwargs):
        if name == "duckdb":
            raise ImportError("no duckdb")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_duckdb)
    shutil.copy(DATA / "bank.yaml", tmp_path / "bank.yaml")
    shutil.copy(DATA / "long.csv", tmp_path / "long.csv")
    code, _, err = run_cli("analyze", "long.csv", "bank.yaml", cwd=tmp_path)
    assert code == 2 and "pip install 'duckdb>=1.1'" in err and "qlint[" not in err


def test_a_wide_file_without_a_person_column_numbers_its_rows(tmp_path, run_cli):
    shutil.copy(DATA / "bank.yaml", tmp_path / "bank.yaml")
    (tmp_path / "w.csv").write_text('capital-fr,"q,""2",boil\nA,B,B\nB,B,A\nA,,C\n')
    code, out, err = run_cli("analyze", "w.csv", "bank.yaml", cwd=tmp_path)
    assert code == 0, out + err
    assert "9 answers read; 8 answered, 1 omitted" in err and "3 persons" in err


def test_utf16_export_with_its_byte_order_mark_is_read(tmp_path, run_cli):
    shutil.copy(DATA / "bank.yaml", tmp_path / "bank.yaml")
    (tmp_path / "u.csv").write_text("person\titem\tresponse\np1\tboil\t100 °C\np2\tboil\tA\n", encoding="utf-16")
    code, out, err = run_cli("analyze", "u.csv", "bank.yaml", cwd=tmp_path)
    assert code == 0 and "2 answers read; 2 answered" in err, out + err


def test_latin1_rows_are_reported_with_a_hint(tmp_path, run_cli):
    shutil.copy(DATA / "bank.yaml", tmp_path / "bank.yaml")
    (tmp_path / "l.csv").write_bytes("person,item,response\np1,boil,B\np\xe9,boil,A\n".encode("latin-1"))
    code, out, _ = run_cli("analyze", "l.csv", "bank.yaml", cwd=tmp_path)
    assert "l.csv:3:1: warning: Q700 response-data: 1 row not read (invalid encoding): line 3; the file is not UTF-8" in out


def test_a_file_of_one_huge_line_is_refused_quickly(tmp_path, run_cli):
    import time

    shutil.copy(DATA / "bank.yaml", tmp_path / "bank.yaml")
    with open(tmp_path / "huge.csv", "wb") as handle:
        for _ in range(8):
            handle.write(b"z" * (1 << 24))   # 128 MB, no line break
    start = time.process_time()   # this process's CPU time: a busy machine cannot trip it
    code, _, err = run_cli("analyze", "huge.csv", "bank.yaml", cwd=tmp_path)
    assert code == 2 and "line 1 is longer than" in err, err
    assert time.process_time() - start < 20   # the engine alone took over 30 s on 128 MB


def test_moodle_slots_beyond_the_bank_are_named_by_number(tmp_path, run_cli):
    shutil.copy(DATA / "bank.yaml", tmp_path / "bank.yaml")
    (tmp_path / "m.csv").write_text("Surname,Email address,Response 1,Response 2,Response 3,Response 4\n"
                                    "Smith,a@x.org,Paris,Oxygen,100 °C,Blue\n")
    code, out, _ = run_cli("analyze", "m.csv", "bank.yaml", cwd=tmp_path)
    assert "1 answer named question ids the bank does not have: question slot 4 (1)" in out


@pytest.mark.parametrize("responses", ["long.parquet", "https://example.org/responses.csv"])
def test_analyze_never_reaches_the_network(responses, tmp_path):
    import subprocess
    import sys

    for f in DATA.iterdir():
        shutil.copy(f, tmp_path / f.name)
    proc = subprocess.run([sys.executable, "-c", NETWORK_GUARD, "analyze", responses, "bank.yaml"], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path)
    assert "network access attempted" not in proc.stdout + proc.stderr
    # a local Parquet file is read (exit 0); a URL is not a file qlint opens: a usage error
    assert "Traceback" not in proc.stderr and proc.returncode == (2 if "://" in responses else 0), proc.stderr


def test_thresholds_are_options_and_a_rule_below_its_sample_says_so(sim_files, run_cli):
    sim, folder = sim_files
    (folder / "qlint.toml").write_text('[rules.likely-miskeyed]\nmin-responses = 1000\n\n'
                                       '[rules.too-hard]\nmin-p = 0.5\nseverity = "error"\n')
    code, out, err = run_cli("analyze", "responses.csv", "bank.yaml", "--format", "json", cwd=folder)
    found = json.loads(out)["findings"]
    assert not [f for f in found if f["rule"] == "likely-miskeyed"]
    assert "likely-miskeyed did not judge 40 questions with fewer answers than its min-responses" in err
    hard = [f for f in found if f["rule"] == "too-hard"]
    assert len(hard) > 8 and all(f["severity"] == "error" for f in hard)
    (folder / "qlint.toml").write_text('[rules.likely-miskeyed]\nmargin = -1\n')
    code, out, err = run_cli("analyze", "responses.csv", "bank.yaml", cwd=folder)
    assert code == 2 and "margin" in err


def test_responses_with_a_bank_on_stdin_is_a_usage_error(tmp_path, run_cli):
    shutil.copy(DATA / "long.csv", tmp_path / "long.csv")
    code, _, err = run_cli("check", "-", "--responses", "long.csv", cwd=tmp_path,
                           stdin=(DATA / "bank.yaml").read_text())
    assert code == 2 and "not stdin" in err


@pytest.mark.parametrize("before", [3, 500_000])
def test_a_huge_line_after_good_rows_is_refused_quickly_with_its_number(before, tmp_path, run_cli):
    import time

    shutil.copy(DATA / "bank.yaml", tmp_path / "bank.yaml")
    with open(tmp_path / "late.csv", "wb") as handle:
        handle.write(b"person,item,response\r\n" + b"p1,boil,B\r\n" * before)
        for _ in range(8):
            handle.write(b"z" * (1 << 24))
        handle.write(b"\np2,boil,A\n")
    start = time.process_time()   # this process's CPU time: a busy machine cannot trip it
    code, _, err = run_cli("analyze", "late.csv", "bank.yaml", cwd=tmp_path)
    assert code == 2 and f"line {before + 2} is longer than" in err, err
    assert time.process_time() - start < 20   # the engine alone took over 30 s on 128 MB


@pytest.mark.parametrize(("command", "exit_code"), [(["analyze", "long.csv", "bank.yaml"], 0),
                                                   (["check", "bank.yaml", "--responses", "long.csv"], 1)])
def test_the_responses_are_matched_with_the_questions_the_run_read(command, exit_code, tmp_path, run_cli, monkeypatch):
    """The bank is read once, by the run, under its limits: the item analysis takes the run's questions and never
    reads a bank file again (it used to, with the default limits, whatever the config said)."""
    import qlint.analysis.run

    pytest.importorskip("duckdb")
    for name in ("bank.yaml", "long.csv"):
        shutil.copy(DATA / name, tmp_path / name)

    def read_again(*args, **kwargs):
        raise AssertionError(f"a bank file read again: {args[0]}")

    monkeypatch.setattr(qlint.analysis.run, "load_file", read_again)
    code, out, err = run_cli(*command, "--format", "json", cwd=tmp_path)
    assert code == exit_code and "read again" not in err, err   # check exits 1 on the bank's missing rationales
    assert json.loads(out)["summary"]["questions"] == 3


def test_a_bank_over_the_configs_size_limit_is_not_analysed(tmp_path, run_cli):
    pytest.importorskip("duckdb")
    for name in ("bank.yaml", "long.csv"):
        shutil.copy(DATA / name, tmp_path / name)
    (tmp_path / "qlint.toml").write_text("max-file-size = 100\n", encoding="utf-8")
    code, out, err = run_cli("analyze", "long.csv", "bank.yaml", "--format", "json", cwd=tmp_path)
    # the run read no question of the file (it is over the limit): the answers have nothing to be matched with
    assert code == 2 and "no valid questions" in err, (code, out, err)
