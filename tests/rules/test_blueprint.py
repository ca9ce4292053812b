"""The exam blueprint: read and validated at the boundary (a bad one is a configuration error with file and line),
and the coverage of a bank written against a public exam outline (CLF-C02) counted right."""
from __future__ import annotations

from helpers import ROOT

import json
import shutil
from pathlib import Path

import pytest
import yaml

from qlint.blueprint import Blueprint, BlueprintError, coverage, load_blueprint, validate

CLF = ROOT / "docs" / "examples" / "clf-c02-blueprint.yaml"
CLF_BANK = ROOT / "tests" / "data" / "clf-c02" / "bank.yaml"


def _project(tmp_path: Path, blueprint: str | None = None, config: str = 'blueprint = "blueprint.yaml"\n') -> Path:
    (tmp_path / "qlint.toml").write_text('paths = ["bank"]\n' + config, encoding="utf-8")
    (tmp_path / "bank").mkdir()
    shutil.copy(CLF_BANK, tmp_path / "bank" / "bank.yaml")
    (tmp_path / "blueprint.yaml").write_text(blueprint if blueprint is not None else CLF.read_text(), encoding="utf-8")
    return tmp_path


def test_the_clf_c02_outline_loads_with_its_weights():
    blueprint = load_blueprint(CLF)
    assert [(d.id, d.name, d.weight) for d in blueprint.domains] == [
        ("1", "Cloud Concepts", 0.24), ("2", "Security and Compliance", 0.30),
        ("3", "Cloud Technology and Services", 0.34), ("4", "Billing, Pricing, and Support", 0.12)]
    assert [len(d.objectives) for d in blueprint.domains] == [4, 4, 8, 3]
    assert blueprint.form_size == 50 and blueprint.min_questions == 5
    assert blueprint.where("domains", 2, "objectives", 6)[1] == CLF.read_text().splitlines().index(
        "      - {id: \"3.7\", name: Identify AWS artificial intelligence and machine learning (AI/ML) services and "
        "analytics services}") + 1


def test_coverage_of_the_bank_written_against_it(run_cli, tmp_path):
    project = _project(tmp_path)
    code, out, _ = run_cli("stats", "--format", "json", cwd=project)
    assert code == 0
    table = json.loads(out)["blueprint"]
    assert (table["counted"], table["total"], table["no_objective"], table["unknown"]) == (40, 42, 1, {"3.9": 1})
    domains = {r["id"]: r for r in table["rows"] if r["kind"] == "domain"}
    assert {k: (r["questions"], round(r["share"], 3), r["target_share"], r["status"]) for k, r in domains.items()} == {
        "1": (7, 0.175, 0.24, "under"), "2": (15, 0.375, 0.30, "over"), "3": (13, 0.325, 0.34, "ok"),
        "4": (5, 0.125, 0.12, "ok")}
    objectives = {r["id"]: (r["questions"], r["minimum"], r["status"]) for r in table["rows"] if r["kind"] == "objective"}
    assert objectives["1.4"] == (0, 5, "missing") and objectives["2.1"] == (4, 5, "too few")
    assert sum(n for n, _, _ in objectives.values()) == 40
    assert all(status == "too few" for key, (_, _, status) in objectives.items() if key != "1.4")
    # on a form of 50 the blueprint's weights are counts: 12, 15, 17 and 6 questions
    assert [round(r["target_count"]) for r in domains.values()] == [12, 15, 17, 6]


def test_stats_prints_the_coverage_table(run_cli, tmp_path):
    project = _project(tmp_path)
    code, out, _ = run_cli("stats", "--width", "160", cwd=project)
    assert code == 0
    section = out[out.index("Blueprint coverage"):]
    assert "Cloud Concepts" in section and "24%" in section and "17.5%" in section and "under" in section
    assert "1.4" in section and "missing" in section


def test_stats_prints_names_that_look_like_terminal_markup_as_they_are(run_cli, tmp_path):
    blueprint = CLF.read_text().replace("name: Cloud Concepts", 'name: "Cloud [/b] Concepts [bold]"')
    project = _project(tmp_path, blueprint)
    code, out, err = run_cli("stats", "--width", "160", cwd=project)
    assert code == 0, err
    assert "Cloud [/b] Concepts [bold]" in out


def test_report_draws_target_against_actual(run_cli, tmp_path):
    project = _project(tmp_path)
    code, _, _ = run_cli("report", "-o", "report.html", cwd=project)
    assert code == 0
    page = (project / "report.html").read_text(encoding="utf-8")
    section = page[page.index('id="blueprint"'):]
    assert "Blueprint coverage" in page and 'aria-label="Blueprint coverage by domain"' in section
    assert "Security and Compliance" in section and "37.5%" in section and "30%" in section


def test_check_reports_the_shortfalls_at_the_blueprint_lines(run_cli, tmp_path):
    project = _project(tmp_path)
    code, out, _ = run_cli("check", "--format", "json", cwd=project)
    found = json.loads(out)["findings"]
    coverage_findings = [f for f in found if f["rule"] == "blueprint-coverage"]
    lines = CLF.read_text().splitlines()
    missing = next(f for f in coverage_findings if "'1.4'" in f["message"])
    assert missing["path"] == "blueprint.yaml" and lines[missing["line"] - 1].strip().startswith('- {id: "1.4"')
    assert "has no questions in the bank; the blueprint asks for at least 5" in missing["message"]
    under = next(f for f in coverage_findings if f["message"].startswith("domain '1'"))
    assert "is 18% of the bank (7 of 40" in under["message"] and "weighs it 24%" in under["message"]
    unknown = [f for f in found if f["rule"] == "objective-not-in-blueprint"]
    assert {f["message"] for f in unknown} == {
        "objective '3.9' is not in the blueprint; did you mean '3.8'?",
        "the question has no `objective`: the blueprint's coverage cannot count it"}
    assert code == 1   # objective-not-in-blueprint is an error


@pytest.mark.parametrize("text,where,words", [
    ("domains:\n  - name: A\n    weight: 60%\n  - name: B\n    weight: 50%\n", 1, "add up to 110%"),
    ("domains:\n  - name: A\n    weight: 24\n", 3, "more than the whole exam"),
    ("domains:\n  - name: A\n    wieght: 1.0\n", 3, "did you mean 'weight'?"),
    ("domains:\n  - name: A\n    weight: 100%\n    objectives:\n      - {name: x}\n", 5, "id: Field required"),
    ("domains: [\n", 2, "invalid YAML"),
    ("base: &b {name: A, weight: 1.0}\ndomains: [*b]\n", 1, "aliases are not allowed"),
    ("domains:\n  - name: A\n    weight: 50%\n  - name: a\n    weight: 50%\n", 1, "used twice"),
])
def test_a_bad_blueprint_is_a_configuration_error_with_file_and_line(run_cli, tmp_path, text, where, words):
    project = _project(tmp_path, text)
    code, _, err = run_cli("check", cwd=project)
    assert code == 2
    assert f"blueprint.yaml:{where}:" in err and words in err, err


def test_a_blueprint_outside_the_project_is_refused(run_cli, tmp_path):
    (tmp_path / "p").mkdir()
    project = _project(tmp_path / "p", config='blueprint = "../elsewhere.yaml"\n')
    (tmp_path / "elsewhere.yaml").write_text(CLF.read_text(), encoding="utf-8")
    code, _, err = run_cli("check", cwd=project)
    assert code == 2 and "must be a file below" in err


def test_a_blueprint_as_a_table_in_the_config(run_cli, tmp_path):
    config = ('[blueprint]\nmin-questions = 1\n[[blueprint.domains]]\nid = "1"\nname = "Cloud Concepts"\nweight = "50%"\n'
              '[[blueprint.domains]]\nid = "2"\nname = "Security"\nweight = "50%"\n')
    project = _project(tmp_path, config=config)
    code, out, _ = run_cli("check", "--format", "json", "--select", "blueprint-coverage,objective-not-in-blueprint",
                           cwd=project)
    found = json.loads(out)["findings"]
    # the bank names task statements (1.1, ...) that this two-domain blueprint does not have
    assert any(f["rule"] == "objective-not-in-blueprint" and "'1.1' is not in the blueprint" in f["message"]
               for f in found)


def test_a_huge_or_non_utf8_blueprint_is_refused(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_bytes(b"domains: []\n" + b"#" * (1024 * 1024 + 1))
    with pytest.raises(BlueprintError, match="larger than"):
        load_blueprint(big)
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"name: \xff\n")
    with pytest.raises(BlueprintError, match="bad.yaml:1: not UTF-8"):
        load_blueprint(bad)


def _inline(**extra) -> Blueprint:
    return validate({"domains": [{"id": "A", "name": "Alpha", "weight": 0.5, "objectives": [{"id": "a1"}]},
                                 {"id": "B", "name": "Beta", "weight": 0.5}], **extra}, "inline")


def test_a_share_is_off_only_by_more_than_the_tolerance_and_a_whole_question():
    blueprint = _inline()
    # 3 of 5 is 60% against 50%: off by ten points but by half a question, which no bank of five can do better
    rows = coverage(blueprint, [("a1", None)] * 3 + [("B", None)] * 2).rows
    assert [r.status for r in rows if r.kind == "domain"] == ["ok", "ok"]
    rows = coverage(blueprint, [("a1", None)] * 14 + [("B", None)] * 6).rows
    assert [r.status for r in rows if r.kind == "domain"] == ["over", "under"]


def test_difficulty_mix_and_names_as_well_as_ids():
    blueprint = _inline(difficulty={"easy": "50%", "hard": "50%"})
    found = coverage(blueprint, [("alpha", "Easy")] * 8 + [("beta", "hard")] * 2 + [("a1", None)])
    assert found.counted == 11 and found.rated == 10
    assert [(d["level"], d["questions"], d["status"]) for d in found.difficulty] == [("easy", 8, "over"),
                                                                                   ("hard", 2, "under")]


def test_a_form_is_held_to_counts_of_its_own_size():
    rows = coverage(_inline(), [("a1", None)] * 6 + [("B", None)] * 4, form=True).rows
    assert [(r.kind, r.id, r.target_count, r.status) for r in rows] == [
        ("domain", "A", 5.0, "over"), ("objective", "a1", None, "ok"), ("domain", "B", 5.0, "under")]


def test_the_readme_blueprint_is_a_valid_blueprint():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("```yaml\n# exam/blueprint.yaml\n", 1)[1].split("```", 1)[0]
    blueprint = validate(yaml.safe_load(block), "README")
    assert [d.weight for d in blueprint.domains] == [0.24, 0.76] and blueprint.difficulty == {
        "easy": 0.3, "medium": 0.5, "hard": 0.2}
