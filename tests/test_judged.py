"""The judged-precision script's arithmetic: Wilson intervals, stratified allocation, scoring and settling."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "judged.py"


@pytest.fixture(scope="module")
def judged():
    spec = importlib.util.spec_from_file_location("judged", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["judged"] = module
    spec.loader.exec_module(module)
    return module


def test_wilson_interval_matches_the_textbook_values(judged):
    low, high = judged.wilson(38, 40)
    assert (round(low, 3), round(high, 3)) == (0.835, 0.986)
    assert judged.wilson(0, 0) == (0.0, 1.0)
    low, high = judged.wilson(40, 40)
    assert high == 1.0 and 0.91 < low < 0.92


def test_allocation_gives_every_bank_a_share_and_the_rest_in_proportion(judged):
    got = judged.allocate({"a": 1000, "b": 10, "c": 2}, 40)
    assert sum(got.values()) == 40
    assert got["c"] == 2 and got["b"] >= 5 and got["a"] > got["b"]
    assert judged.allocate({"a": 3, "b": 4}, 40) == {"a": 3, "b": 4}   # all, where fewer fire


def test_score_counts_only_findings_still_reported_and_only_flaws_as_right(judged):
    by_rule = {"r": {("c", "c-000001"): {}, ("c", "c-000002"): {}, ("c", "c-000003"): {}}}
    verdicts = [{"corpus": "c", "id": "c-000001", "rule": "r", "verdict": "flaw"},
                {"corpus": "c", "id": "c-000002", "rule": "r", "verdict": "debatable"},
                {"corpus": "c", "id": "c-000009", "rule": "r", "verdict": "false-alarm"}]
    row = judged.score(by_rule, verdicts)["r"]
    assert (row["judged"], row["flaw"], row["precision"]) == (2, 1, 0.5)
    assert row["unjudged"] == 1 and row["no_longer_reported"] == 1


def test_settle_keeps_agreement_and_lists_disagreement(judged, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(judged, "VERDICTS", tmp_path / "verdicts.csv")
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    a.write_text("c|c-000001|r,flaw,the word is there\nc|c-000002|r,flaw,yes\n", encoding="utf-8")
    b.write_text("c|c-000001|r,flaw,agreed\nc|c-000002|r,false-alarm,a name\n", encoding="utf-8")
    args = type("A", (), {"a": str(a), "b": str(b), "third": None})
    judged.cmd_settle(args)
    assert "c|c-000002|r: flaw" in capsys.readouterr().out
    kept = judged.read_csv(tmp_path / "verdicts.csv")
    assert [(r["id"], r["verdict"], r["agreement"]) for r in kept] == [("c-000001", "flaw", "both")]
