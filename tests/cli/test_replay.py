"""The replayed report: a check whose every input is as an earlier run's gives that run's report, its summary and its
exit code again without reading a finding; any input changed gives the fresh result, and a damaged answer is a miss."""
from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from helpers import CACHE_BANK, house_pack
from qlint.cli.main import main
from qlint.run import cache as cache_module

FORMATS = ["text", "concise", "grouped", "json", "json-lines", "sarif", "github", "gitlab", "junit", "pylint",
           "azure", "rdjson", "parsable"]


@pytest.fixture
def bank(tmp_path, monkeypatch) -> Path:
    """The bank's folder; the run is made from its parent, the project (where qlint.toml and packs/ go)."""
    folder = tmp_path / "project" / "bank"
    folder.mkdir(parents=True)
    for name, text in CACHE_BANK.items():
        (folder / name).write_text(text)
    monkeypatch.setenv("QLINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home"))
    for name in ("NO_COLOR", "FORCE_COLOR", "GITHUB_ACTIONS"):
        monkeypatch.delenv(name, raising=False)
    # every signature as if recorded long after its file settled: the replay needs no wait of two seconds
    monkeypatch.setattr(cache_module.Cache, "SETTLED_NS", -10 ** 15)
    monkeypatch.chdir(folder.parent)
    return folder


def qlint(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["check", *args, "-j", "1"])
    return code, out.getvalue(), err.getvalue()


def answers(bank: Path) -> list[Path]:
    return sorted((bank.parent.parent / "cache").glob("*/answers/*"))


def nothing_read(monkeypatch) -> None:
    """Any finding read from the cache fails the test: a replayed run reads none."""
    def refuse(*args, **kwargs):
        raise AssertionError("the cache was asked for findings")
    for name in ("get_run", "get_with_text", "get_bank"):
        monkeypatch.setattr(cache_module.Cache, name, refuse)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_replayed_report_is_the_fresh_one_byte_for_byte(bank, monkeypatch, fmt):
    fresh = qlint("bank", "--format", fmt, "--no-cache")
    assert fresh[0] == 1 and fresh[1]
    assert qlint("bank", "--format", fmt) == fresh   # the cold run: it leaves its answer
    assert len(answers(bank)) == 1
    with monkeypatch.context() as patched:
        nothing_read(patched)
        assert qlint("bank", "--format", fmt) == fresh


@pytest.mark.parametrize("fmt", ["json", "sarif", "junit", "text"])
def test_a_replayed_output_file_is_the_fresh_one_byte_for_byte(bank, monkeypatch, fmt):
    code, out, err = qlint("bank", "--format", fmt, "-o", "fresh.out", "--no-cache")
    assert (code, out) == (1, "") and "written to fresh.out" in err
    assert qlint("bank", "--format", fmt, "-o", "report.out") == (code, out, err.replace("fresh", "report"))
    cold = (bank.parent / "report.out").read_bytes()
    assert cold == (bank.parent / "fresh.out").read_bytes()
    (bank.parent / "report.out").write_text("stale")
    nothing_read(monkeypatch)
    assert qlint("bank", "--format", fmt, "-o", "report.out") == (code, out, err.replace("fresh", "report"))
    assert (bank.parent / "report.out").read_bytes() == cold
    # another name for the output file gives the same report, and the summary names the file of this run
    assert qlint("bank", "--format", fmt, "-o", "other.out") == (code, out, err.replace("fresh", "other"))
    assert (bank.parent / "other.out").read_bytes() == cold


def _edit(bank: Path) -> None:
    (bank / "b.yaml").write_text(CACHE_BANK["b.yaml"].replace("correct: true, rationale: Correct. Also",
                                                              "rationale: Incorrect. Also"))


def _touch(bank: Path) -> None:
    (bank / "a.yaml").write_text(CACHE_BANK["a.yaml"])   # the same bytes again: a new signature, the same digest


def _config(bank: Path) -> None:
    (bank.parent / "qlint.toml").write_text('ignore = ["near-duplicate-stem"]\n')


def _pack(bank: Path) -> None:
    (bank.parent / "packs" / "house.yaml").write_text(house_pack(token="tensor"))


# each change, and the arguments of the run before it and after it
CHANGES = {
    "edit": (_edit, [], []),
    "touch": (_touch, [], []),
    "config": (_config, [], []),
    "pack": (_pack, [], []),
    "select": (None, [], ["--select", "correct-count"]),
    "ignore": (None, [], ["--ignore", "near-duplicate-stem"]),
    "fail-on": (None, [], ["--fail-on", "error", "--exit-zero"]),
    "statistics": (None, [], ["--statistics"]),
    "quiet": (None, [], ["--quiet"]),
    "format": (None, ["--format", "json"], ["--format", "json-lines"]),
    "output file": (None, ["--format", "json"], ["--format", "json", "-o", "-"]),
    "colour": (None, ["--no-show-source"], ["--no-show-source", "--color", "always"]),
}


@pytest.mark.parametrize("change", CHANGES)
def test_each_input_of_the_answer_changed_gives_the_fresh_result(bank, change):
    how, before, after = CHANGES[change]
    if change == "pack":
        (bank.parent / "packs").mkdir()
        (bank.parent / "packs" / "house.yaml").write_text(house_pack())
        (bank.parent / "qlint.toml").write_text('rule-packs = ["packs"]\n')
    first = qlint("bank", *before)
    assert qlint("bank", *before) == first   # replayed
    if how is not None:
        how(bank)
    fresh = qlint("bank", *after, "--no-cache")
    assert qlint("bank", *after) == fresh
    assert qlint("bank", *after) == fresh    # and its own answer, replayed
    assert (fresh == first) == (change in ("touch", "output file"))


def test_no_color_and_force_color_are_inputs_of_the_answer(bank, monkeypatch):
    monkeypatch.setenv("FORCE_COLOR", "1")
    coloured = qlint("bank", "--no-show-source")
    assert "\033[" in coloured[1] and qlint("bank", "--no-show-source") == coloured
    monkeypatch.setenv("NO_COLOR", "1")
    plain = qlint("bank", "--no-show-source")
    assert "\033[" not in plain[1] and plain == qlint("bank", "--no-show-source", "--no-cache")


def test_a_changed_baseline_gives_the_fresh_result(bank):
    baseline = bank.parent / "baseline.json"
    assert qlint("bank", "--write-baseline", str(baseline))[0] == 0
    clean = qlint("bank", "--baseline", str(baseline))
    assert clean[0] == 0 and qlint("bank", "--baseline", str(baseline)) == clean
    before = baseline.read_text()
    assert qlint("bank", "--write-baseline", str(baseline), "--select", "correct-count")[0] == 0
    assert baseline.read_text() != before
    fresh = qlint("bank", "--baseline", str(baseline), "--no-cache")
    assert fresh != clean and qlint("bank", "--baseline", str(baseline)) == fresh


def test_a_report_with_snippets_read_from_the_files_is_never_replayed(bank):
    assert qlint("bank", "--show-source")[0] == 1
    assert qlint("bank", "--format", "full")[0] == 1
    assert answers(bank) == []


@pytest.mark.parametrize("args", [["--fix"], ["--diff"], ["--no-cache"], ["--statistics", "--no-cache"]])
def test_fixes_diffs_and_runs_without_the_cache_leave_no_answer(bank, args):
    qlint("bank", *args)
    qlint("bank", *args)
    assert answers(bank) == []


def test_an_answer_over_the_size_limit_is_not_kept(bank, monkeypatch):
    monkeypatch.setattr(cache_module.Cache, "MAX_ANSWER_BYTES", 64)
    first = qlint("bank", "--format", "json")
    assert answers(bank) == []
    assert qlint("bank", "--format", "json") == first


def test_only_the_newest_answers_are_kept(bank, monkeypatch):
    monkeypatch.setattr(cache_module.Cache, "ANSWERS_KEPT", 2)
    for fmt in ("json", "sarif", "gitlab"):
        qlint("bank", "--format", fmt)
    assert len(answers(bank)) == 2


def _damage(answer: Path, how: str, other: Path) -> None:
    data = answer.read_bytes()
    if how == "truncated":
        answer.write_bytes(data[: len(data) // 2])
    elif how == "flipped":
        answer.write_bytes(data[:-8] + bytes([data[-8] ^ 1]) + data[-7:])
    elif how == "empty":
        answer.write_bytes(b"")
    elif how == "garbage":
        answer.write_bytes(b"\x00not an answer\n" * 40)
    elif how == "swapped":   # another run's answer under this run's name
        answer.write_bytes(other.read_bytes())


@pytest.mark.parametrize("how", ["truncated", "flipped", "empty", "garbage", "swapped"])
def test_a_damaged_answer_falls_back_to_the_run(bank, how):
    json_run = qlint("bank", "--format", "json")
    [mine] = answers(bank)
    sarif_run = qlint("bank", "--format", "sarif")
    [other] = [a for a in answers(bank) if a != mine]
    _damage(mine, how, other)
    assert qlint("bank", "--format", "json") == json_run
    assert qlint("bank", "--format", "json") == json_run   # answered again, from a sound answer
    assert qlint("bank", "--format", "sarif") == sarif_run
