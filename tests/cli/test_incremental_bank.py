"""A warm run after an edit gives exactly the findings of a cold one, bank rules included, whichever way the edit
goes (a question changed, a duplicate id added, a file removed), in one process or with workers; and an outcome
crosses from a worker to the main process unchanged."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from qlint.edits import Fix
from qlint.finding import Finding, Severity
from qlint.items import CheckedFile
from qlint.run import batch
from qlint.run.pipeline import run_check

FILES = 8
PER_FILE = 6


def _question(f: int, q: int) -> str:
    # the key is always the first and the longest option: the key-position and key-length tables fill up
    stem = f"In topic {f}, which statement about item {q} of the reference list holds for case number {f * 10 + q}?"
    if q == 0:   # the same stem in every file: near-duplicates across files
        stem = "Which call returns a Python float from a one-element loss tensor in the training loop?"
    return (f"  - id: t{f}-{q}\n    stem: {json.dumps(stem)}\n    options:\n"
            f"      - {{text: the statement that holds for item {q} in every case, correct: true}}\n"
            f"      - {{text: not item {q}}}\n      - {{text: item {q + 1}}}\n      - {{text: neither}}\n")


@pytest.fixture
def bank(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "bank"
    (folder / "one").mkdir(parents=True)
    (folder / "two").mkdir()
    for f in range(FILES):
        sub = "one" if f % 2 else "two"
        (folder / sub / f"f{f}.yaml").write_text("questions:\n" + "".join(_question(f, q) for q in range(PER_FILE)))
    # a question the schema rejects: its finding names the id as the YAML reader gave it
    (folder / "one" / "f1.yaml").write_text((folder / "one" / "f1.yaml").read_text()
                                            + "  - id: bad-1\n    stem: Which one?\n    options: 7\n")
    monkeypatch.setenv("QLINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(folder)
    return folder


def check(bank: Path, use_cache: bool = True, jobs: int = 1) -> list[str]:
    return [f.to_json() for f in run_check([str(bank)], jobs=jobs, use_cache=use_cache).findings]


def _edits(bank: Path):
    one = bank / "one" / "f1.yaml"
    yield "a question changed", lambda: one.write_text(one.read_text().replace("item 2 of", "element 2 of"))
    two = bank / "two" / "f2.yaml"
    yield "a duplicate id added", lambda: two.write_text(two.read_text() + _question(3, 4).replace("topic 3", "a topic"))
    yield "a file removed", lambda: (bank / "one" / "f5.yaml").unlink()
    yield "a file added", lambda: (bank / "two" / "new.yaml").write_text("questions:\n" + _question(9, 1))


@pytest.mark.parametrize("jobs", [1, 2])
def test_warm_runs_after_edits_equal_cold_runs(bank, monkeypatch, jobs):
    monkeypatch.setattr(batch, "PARALLEL_MIN_BYTES", 0)   # workers even for a small bank
    cold = check(bank, jobs=jobs)
    rules = {json.loads(f)["rule"] for f in cold}
    assert {"near-duplicate-stem", "answer-position-bias", "schema"} <= rules
    assert check(bank, jobs=jobs) == cold == check(bank, use_cache=False)
    for what, edit in _edits(bank):
        edit()
        warm = check(bank, jobs=jobs)
        assert warm == check(bank, use_cache=False), what
        if what == "a duplicate id added":
            assert "duplicate-id" in {json.loads(f)["rule"] for f in warm}
        assert check(bank, jobs=jobs) == warm, what   # and nothing changed since: the same again


def test_an_outcome_crosses_the_wire_unchanged(bank):
    outcome = run_check([str(bank / "one" / "f1.yaml")], jobs=1, use_cache=False).results[0]
    fix = Fix("a safe fix", ())
    outcome.findings += [Finding("elsewhere.yaml", 3, 4, "Q999", "some-rule", Severity.INFO, "message", None, None, fix,
                                 3, 9)]
    assert any(f.rule == "schema" and f.question == "bad-1" for f in outcome.findings)
    back = batch.unpack(batch.pack(outcome))
    assert isinstance(back, CheckedFile) and back.path == outcome.path
    assert back.findings == outcome.findings and [f.fix for f in back.findings] == [f.fix for f in outcome.findings]
    assert [f.severity for f in back.findings] == [f.severity for f in outcome.findings]
    fields = lambda items: [(i.id, i.path, i.line, i.keys, i.positions, i.features.keys()) for i in items]  # noqa: E731
    assert fields(back.items) == fields(outcome.items) and fields(back.rejected) == fields(outcome.rejected)
    assert (back.suppressions, back.count) == (outcome.suppressions, outcome.count)
