"""qlint stats / report with --responses: the item-analysis table and the report section."""
from __future__ import annotations

import json
import re
from collections import Counter

import pytest

pytest.importorskip("duckdb")

from qlint.analysis.simulate import simulate  # noqa: E402


@pytest.fixture
def folder(tmp_path):
    sim = simulate(seed=9, items=15)
    (tmp_path / "bank.yaml").write_text(sim.bank_yaml, encoding="utf-8")
    with open(tmp_path / "responses.csv", "w", encoding="utf-8") as handle:
        handle.write("person,item,response\n")
        handle.writelines(sim.long_rows(400, 9))
    return sim, tmp_path


def test_stats_prints_the_item_table(folder, run_cli):
    sim, path = folder
    code, out, err = run_cli("stats", "bank.yaml", "--responses", "responses.csv", "--width", "220", cwd=path)
    assert code == 0, err
    assert "Item analysis: 400 persons, 15 questions, KR-20" in out
    for qid in sim.truth.miskeyed:
        assert f"{qid} !" in out


def test_stats_json_carries_the_rows(folder, run_cli):
    sim, path = folder
    code, out, _ = run_cli("stats", "bank.yaml", "--responses", "responses.csv", "--format", "json", cwd=path)
    rows = json.loads(out)["item_analysis"]
    assert len(rows) == 15
    flagged = {r["id"] for r in rows if "likely-miskeyed" in r["flags"]}
    assert flagged == set(sim.truth.miskeyed)
    assert all(len(o["groups"]) == 5 for r in rows for o in r["options"])


def test_report_has_the_section_with_curves_and_scatter(folder, run_cli):
    sim, path = folder
    code, out, err = run_cli("report", "bank.yaml", "--responses", "responses.csv", "-o", "r.html", cwd=path)
    assert code == 0, err
    page = (path / "r.html").read_text()
    assert '<section id="items"><h2>Item analysis</h2>' in page
    assert 'id="ia-scatter"' in page
    assert page.count('id="ia-curve-') >= len(sim.truth.miskeyed)


def test_report_and_stats_count_what_check_with_responses_counts(folder, run_cli):
    """One run, one set of counts: the response rules' findings are in the totals, by rule and per question."""
    _, path = folder
    code, out, _ = run_cli("check", "bank.yaml", "--responses", "responses.csv", "--format", "json", cwd=path)
    checked = json.loads(out)
    severities = Counter(f["severity"] for f in checked["findings"])
    assert {"likely-miskeyed", "missing-rationale"} <= {f["rule"] for f in checked["findings"]}
    _, out, _ = run_cli("stats", "bank.yaml", "--responses", "responses.csv", "--format", "json", cwd=path)
    summary = json.loads(out)
    assert summary["totals"]["findings"] == len(checked["findings"])
    assert [summary["totals"][s] for s in ("error", "warning", "info")] == [severities[s] for s in
                                                                              ("error", "warning", "info")]
    by_rule = {r["name"]: r["findings"] for r in summary["by_rule"] if r["findings"]}
    assert by_rule == dict(Counter(f["rule"] for f in checked["findings"]))
    assert next(r for r in summary["by_rule"] if r["name"] == "likely-miskeyed")["severity"] == "error"
    per_question = Counter(f["question"] for f in checked["findings"] if f["question"])
    assert {q["id"]: q["findings"] for q in summary["questions"] if q["findings"]} == dict(per_question)
    run_cli("report", "bank.yaml", "--responses", "responses.csv", "-o", "r.html", cwd=path)
    page = (path / "r.html").read_text()
    tiles = dict((label, int(value)) for value, label in re.findall(r'<div class="total[^"]*"><b>(\d+)</b><span>(\w+)',
                                                                      page))
    assert tiles["findings"] == len(checked["findings"]) and tiles["errors"] == severities["error"], tiles


def test_a_suppressed_response_finding_is_neither_counted_nor_flagged(folder, run_cli):
    sim, path = folder
    victim = sorted(sim.truth.miskeyed)[0]
    text = (path / "bank.yaml").read_text().replace(
        f"  - id: {victim}\n", f"  - id: {victim}\n    qlint:\n      ignore:\n        likely-miskeyed: key confirmed\n")
    (path / "bank.yaml").write_text(text)
    _, out, _ = run_cli("stats", "bank.yaml", "--responses", "responses.csv", "--format", "json", cwd=path)
    summary = json.loads(out)
    row = next(r for r in summary["item_analysis"] if r["id"] == victim)
    assert "likely-miskeyed" not in row["flags"]
    counted = next(r for r in summary["by_rule"] if r["name"] == "likely-miskeyed")["findings"]
    assert counted == len(sim.truth.miskeyed) - 1
