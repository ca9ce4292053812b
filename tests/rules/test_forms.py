"""``qlint check --form``: a drawn form against the blueprint's weights and difficulty mix, and the bank's pairs
(enemy items, near-duplicates, contradictory copies) that sit on it."""
from __future__ import annotations

from helpers import ROOT

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml
from helpers import example_options

from qlint.finding import Finding, Severity
from qlint.formrule import split_example
from qlint.registry import load_registry
from qlint.testing import assert_findings

CLF = ROOT / "docs" / "examples" / "clf-c02-blueprint.yaml"
CLF_BANK = ROOT / "tests" / "data" / "clf-c02" / "bank.yaml"
FORM_RULES = [r for r in load_registry() if r.kind == "form"]
CASES = [(r.name, kind, i, example) for r in FORM_RULES for kind in ("invalid", "valid")
         for i, example in enumerate(getattr(r, kind))]


def _project(tmp_path: Path, bank: str, form: list[str] | str, options: dict | None = None) -> Path:
    (tmp_path / "bank").mkdir()
    (tmp_path / "bank" / "bank.yaml").write_text(bank, encoding="utf-8")
    config = 'paths = ["bank"]\n'
    blueprint = (options or {}).get("blueprint")
    if blueprint is not None:
        (tmp_path / "blueprint.yaml").write_text(yaml.safe_dump(blueprint), encoding="utf-8")
        config += 'blueprint = "blueprint.yaml"\n'
    (tmp_path / "qlint.toml").write_text(config, encoding="utf-8")
    (tmp_path / "form.yaml").write_text(form if isinstance(form, str) else yaml.safe_dump(form), encoding="utf-8")
    return tmp_path


def _form_findings(run_cli, project: Path, *extra: str) -> tuple[int, list[dict], str]:
    code, out, err = run_cli("check", "--form", "form.yaml", "--format", "json", *extra, cwd=project)
    found = json.loads(out)["findings"] if out else []
    return code, [f for f in found if f["rule"].startswith("form-")], err


@pytest.mark.parametrize("name,kind,index,example", CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CASES])
def test_form_rule_example(run_cli, tmp_path, name, kind, index, example):
    bank, form = split_example(example.text)
    project = _project(tmp_path, bank, form, example_options(example.text))
    _, found, _ = _form_findings(run_cli, project)
    fired = [f for f in found if f["rule"] == name]
    if kind == "invalid":   # fires on the form, with the field and message the example states
        assert example.message is not None, f"{name}: failing example {index} states no message"
        assert_findings(example, [Finding(**{**f, "severity": Severity.parse(f["severity"])}) for f in fired], name)
        assert all(f["path"] == "form.yaml" for f in fired)
    else:
        assert not fired, f"{name}: passing example {index} fired: {[f['message'] for f in fired]}"


def test_form_rules_are_listed_off_and_quiet_without_a_form(run_cli, tmp_path):
    bank, _ = split_example(FORM_RULES[0].invalid[0].text)
    project = _project(tmp_path, bank, [])
    code, out, _ = run_cli("check", "--format", "json", cwd=project)
    assert not [f for f in json.loads(out)["findings"] if f["rule"].startswith("form-")]
    listed = json.loads(run_cli("rules", "--format", "json")[1])
    assert {r["name"]: (r["kind"], r["enabled"]) for r in listed if r["name"].startswith("form-")} == {
        "form-coverage": ("form", False), "form-conflict": ("form", False)}


def test_pairs_on_the_form_point_at_the_later_line(run_cli, tmp_path):
    rule = next(r for r in FORM_RULES if r.name == "form-conflict")
    bank, _ = split_example(rule.invalid[0].text)
    form = "name: Spring sitting\nquestions:\n  - wolverine-name\n  - storm-power\n  - wolverine-debut\n"
    project = _project(tmp_path, bank, form)
    code, found, _ = _form_findings(run_cli, project)
    assert [(f["line"], f["question"]) for f in found] == [(5, "wolverine-debut")]
    assert found[0]["message"].startswith("question 'wolverine-debut' and question 'wolverine-name' (line 3) are both "
                                          "on this form, and one gives the other away (enemy-items: ")
    assert code == 0   # form-conflict warns, and the default fail-on is error
    code, found, _ = _form_findings(run_cli, project, "--ignore", "form-conflict")
    assert found == []


def test_a_near_duplicate_and_contradictory_copies_on_one_form(run_cli, tmp_path):
    copy = ("  - id: {id}\n    stem: Which command in the Links panel replaces a linked file with one of another "
            "name?\n    options:\n      - {{text: Relink, {a}rationale: Because.}}\n"
            "      - {{text: Update Link, {b}rationale: Because.}}\n      - {{text: Edit Original, rationale: No.}}\n")
    bank = "questions:\n" + copy.format(id="a", a="correct: true, ", b="") + copy.format(id="b", a="", b="correct: true, ")
    project = _project(tmp_path, bank, ["a", "b"])
    _, found, _ = _form_findings(run_cli, project)
    rules = sorted(re.search(r"\((enemy-items|near-duplicate-stem|contradictory-keys):", f["message"])[1]
                   for f in found)
    assert rules == ["contradictory-keys", "near-duplicate-stem"]


def test_a_form_against_the_clf_c02_blueprint(run_cli, tmp_path):
    bank = CLF_BANK.read_text(encoding="utf-8")
    ids = [q["id"] for q in yaml.safe_load(bank)["questions"]]
    # ten questions, seven of domain 1 and three of domain 2: domain 1 is over its 24%, domain 2 on its 30%, and
    # domains 3 (34%) and 4 (12%) are missing
    form = ids[:10] + ["clf-999", ids[0]]
    project = _project(tmp_path, bank, form, {"blueprint": yaml.safe_load(CLF.read_text())})
    _, found, _ = _form_findings(run_cli, project)
    messages = [f["message"] for f in found]
    assert "the form lists question 'clf-999', which is not in the bank" in messages
    assert f"the form lists question {ids[0]!r} twice (first on line 1)" in messages
    # a repeated question makes the counts meaningless: they are checked once the form lists each question once
    assert not [m for m in messages if m.startswith("domain")]
    (project / "form.yaml").write_text(yaml.safe_dump(ids[:10]), encoding="utf-8")
    _, found, _ = _form_findings(run_cli, project)
    domains = {f["message"].split("'")[1]: f["message"] for f in found if f["message"].startswith("domain")}
    assert set(domains) == {"1", "3", "4"}
    assert domains["3"] == ("domain '3' has 0 questions on this form of 10 (0%); the blueprint asks 34%, about 3 "
                            "(tolerance 5%)")
    assert all(f["path"] == "form.yaml" and f["line"] == 1 for f in found)


def test_a_folder_is_a_form(run_cli, tmp_path):
    rule = next(r for r in FORM_RULES if r.name == "form-conflict")
    bank, _ = split_example(rule.invalid[0].text)
    project = _project(tmp_path, bank, [])
    (project / "forms" / "spring").mkdir(parents=True)
    questions = yaml.safe_load(bank)["questions"]
    (project / "forms" / "spring" / "part1.yaml").write_text(yaml.safe_dump({"questions": questions[:2]}),
                                                              encoding="utf-8")
    code, out, _ = run_cli("check", "--form", "forms/spring", "--format", "json", cwd=project)
    found = [f for f in json.loads(out)["findings"] if f["rule"] == "form-conflict"]
    assert [(f["path"], f["question"]) for f in found] == [("forms/spring/part1.yaml", "wolverine-debut")]


@pytest.mark.parametrize("text,words", [
    ("questions: 3\n", "form.yaml:1: a form lists question ids"),
    ("- a\n- [b]\n", "form.yaml:2: a form entry must be a question id"),
    ("- a\n- b: [\n", "form.yaml:3: invalid YAML"),
    ("title: x\n", "form.yaml:1: a form is a list of question ids, or a mapping with 'questions'"),
])
def test_a_form_that_is_not_one_is_a_usage_error(run_cli, tmp_path, text, words):
    rule = next(r for r in FORM_RULES if r.name == "form-conflict")
    project = _project(tmp_path, split_example(rule.invalid[0].text)[0], text)
    code, _, err = run_cli("check", "--form", "form.yaml", cwd=project)
    assert code == 2 and words in err, err


def test_a_missing_form_is_a_usage_error(run_cli, tmp_path):
    rule = next(r for r in FORM_RULES if r.name == "form-conflict")
    project = _project(tmp_path, split_example(rule.invalid[0].text)[0], [])
    code, _, err = run_cli("check", "--form", "nowhere.yaml", cwd=project)
    assert code == 2 and "no such form: nowhere.yaml" in err


def test_pairs_of_a_rule_that_did_not_run_are_said_to_be_unchecked(run_cli, tmp_path):
    rule = next(r for r in FORM_RULES if r.name == "form-conflict")
    project = _project(tmp_path, split_example(rule.invalid[0].text)[0], ["wolverine-name", "wolverine-debut"])
    code, found, err = _form_findings(run_cli, project, "--ignore", "enemy-items")
    assert found == [] and "enemy-items did not run: the form's pairs of it are not checked" in err
    shutil.rmtree(project / ".qlint_cache", ignore_errors=True)
