"""Baselines silence old findings (even after lines move) and not new ones."""
from __future__ import annotations

import json

import pytest

FLAWED = """\
questions:
  - id: legacy-1
    stem: Which call returns a Python float from a one-element loss tensor?
    options:
      - {text: loss.item(), correct: true, rationale: Correct. It copies the value out.}
      - {text: loss.detach(), correct: true, rationale: Correct. Also fine.}
      - {text: loss.clone(), rationale: Incorrect. A clone keeps the graph alive.}
"""
NEW = """\
  - id: new-1
    stem: Which precision format keeps the exponent range of fp32 in sixteen bits?
    options:
      - {text: bfloat16, rationale: Correct. Eight exponent bits.}
      - {text: float16, rationale: Incorrect. Five exponent bits.}
"""


def test_baseline_silences_old_and_reports_new(run_cli, write, tmp_path):
    bank = write("bank/a.yaml", FLAWED)
    base = tmp_path / "baseline.json"
    code, _, err = run_cli("check", bank, "--write-baseline", base)
    assert code == 0 and "wrote" in err
    doc = json.loads(base.read_text())
    assert {e["of"] for e in doc["findings"]} == {"legacy-1"} and all("line" not in e for e in doc["findings"])
    assert run_cli("check", bank, "--baseline", base)[0] == 0
    # move the old question down and add a new flawed one: only the new one is reported
    bank.write_text("questions:\n" + NEW + FLAWED.split("questions:\n", 1)[1])
    code, out, _ = run_cli("check", bank, "--baseline", base, "--format", "json")
    reported = {(f["question"], f["rule"]) for f in json.loads(out)["findings"]}
    assert code == 1 and reported == {("new-1", "correct-count")}


def test_bad_baseline_is_a_usage_error(run_cli, write, tmp_path):
    bank = write("bank/a.yaml", FLAWED)
    bad = write("baseline.json", "{not json")
    code, _, err = run_cli("check", bank, "--baseline", bad)
    assert code == 2 and "not a valid qlint baseline" in err


def test_a_baseline_is_replaced_whole_or_not_at_all(tmp_path, monkeypatch):
    """A write that fails before the new baseline is in place leaves the old one as it was, keeps its mode, and
    leaves no temporary file beside it."""
    import os

    from qlint.finding import Finding, Severity
    from qlint.run import baseline

    path = tmp_path / "baseline.json"
    finding = Finding("a.yaml", 1, 1, "Q106", "missing-rationale", Severity.ERROR, "option 1 has no rationale", "q1")
    assert baseline.write(path, [finding]) == 1
    os.chmod(path, 0o640)
    old = path.read_bytes()

    def failing(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing)
    with pytest.raises(OSError, match="No space left"):
        baseline.write(path, [finding, finding])
    assert path.read_bytes() == old
    assert os.listdir(tmp_path) == ["baseline.json"]
    monkeypatch.undo()
    assert baseline.write(path, [finding, finding]) == 2
    assert os.stat(path).st_mode & 0o777 == 0o640
