"""qlint stats / report with --responses: the item-analysis table and the report section."""
from __future__ import annotations

import json

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
