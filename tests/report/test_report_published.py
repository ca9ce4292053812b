"""The bank report reads what the bank rules publish about a run; it never imports a rule or recomputes one."""
from __future__ import annotations

import ast

import pytest
from helpers import ROOT, report_bank

from qlint.report import consistency
from qlint.report.summary import summarize
from qlint.run.pipeline import run_check

REPORT = ROOT / "src" / "qlint" / "report"


@pytest.fixture
def run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    report_bank(tmp_path)
    return run_check(["bank"], use_cache=False, keep_questions=True)


def test_what_the_rules_publish_is_computed_once_with_the_bank_rules(tmp_path, monkeypatch):
    """A run asked to publish holds every bank rule's table when it returns; asking again hands out the same one,
    so the report and stats (which ask for several, some twice) never run a rule's search a second time."""
    monkeypatch.chdir(tmp_path)
    report_bank(tmp_path)
    run = run_check(["bank"], use_cache=False, keep_questions=True, publish=True)
    publishing = {r.name for r in run.registry if r.kind == "bank" and r.publish is not None}
    assert {"near-duplicate-stem", "answer-position-bias", "reading-grade"} <= publishing
    assert publishing <= set(run.tables)
    first = {name: run.tables[name][0] for name in publishing}
    summarize(run, ["bank"])
    consistency.published(run)
    assert all(run.published(name)[0] is first[name] for name in publishing)


def test_items_and_kept_questions_are_one_to_one(run):
    # the report indexes the kept questions with the positions the rules publish over the bank items
    items = [i for o in run.results for i in o.items]
    questions = [q for o in run.results for q in o.questions]
    assert [(i.path, i.id) for i in items] == [(q.path, q.question.id) for q in questions]


def test_key_position_table_is_the_one_check_tests(run):
    table, options, ran = run.published("answer-position-bias")
    assert ran and options.alpha == 0.01
    four = next(g for g in table["groups"] if g["options"] == 4)
    assert sum(four["counts"]) == four["questions"] == 29 and four["counts"][1] > 20
    assert four["tested"] and four["biased"] and four["p_value"] < options.alpha
    (finding,) = [f for f in run.findings if f.rule == "answer-position-bias" and f.question is None]
    spread = ", ".join(f"{'ABCD'[i]} {c}" for i, c in enumerate(four["counts"]))
    assert spread in finding.message and f"chi-square {four['statistic']:.1f}" in finding.message
    assert table["excluded"] == 0


def test_key_position_table_of_a_rule_that_did_not_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    report_bank(tmp_path)
    run = run_check(["bank"], use_cache=False, keep_questions=True, ignore=["answer-position-bias"],
                    select=["near-duplicate-stem"])
    table, options, ran = run.published("answer-position-bias")
    assert not ran and options.min_questions == 20   # the defaults
    assert [g["options"] for g in table["groups"]] == [4]


def test_near_duplicate_pairs_are_the_ones_check_reports(run):
    pairs, options, ran = run.published("near-duplicate-stem")
    assert ran and options.threshold == 90.0
    items = [i for o in run.results for i in o.items]
    in_pairs = {items[i].id for a, b, _ in pairs for i in (a, b)}
    flagged = {f.question for f in run.findings if f.rule == "near-duplicate-stem"}
    assert in_pairs == flagged == {"dup-a0", "dup-a1", "dup-a2", "dup-b0", "dup-b1"}
    assert all(a < b and 90 <= s <= 100 for a, b, s in pairs)


def test_near_duplicates_publish_nothing_when_the_rule_did_not_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    report_bank(tmp_path)
    run = run_check(["bank"], use_cache=False, keep_questions=True, ignore=["near-duplicate-stem"])
    assert run.published("near-duplicate-stem")[0] is None


@pytest.mark.parametrize("module", sorted(p.name for p in REPORT.glob("*.py")))
def test_report_imports_no_rule_internals(module):
    tree = ast.parse((REPORT / module).read_text(encoding="utf-8"))
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    names += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    forbidden = ("qlint.rules", "qlint.neardup.search", "qlint.neardup.index")
    assert not [n for n in names if n.startswith(forbidden)], module
