"""Response rules: off without response data, and a broken one is a finding (their examples, bank and responses,
run with every rule's in tests/rules/test_rule_examples.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("duckdb")

from qlint.analysis.run import analyze, bank_questions  # noqa: E402
from qlint.config import Config, Settings, resolve_rules  # noqa: E402
from qlint.finding import Severity  # noqa: E402
from qlint.registry import load_registry  # noqa: E402
from qlint.responserule import ResponseRule, split_example  # noqa: E402

RULES = [r for r in load_registry() if isinstance(r, ResponseRule)]


def test_there_are_response_rules():
    assert {"likely-miskeyed", "non-discriminating", "too-easy", "too-hard", "non-functioning-distractor",
            "alpha-if-deleted", "response-data"} <= {r.name for r in RULES}


def test_response_rules_are_off_without_data(registry):
    active = resolve_rules(Config(Settings(), Path.cwd(), None), registry)
    assert not any(isinstance(a.rule, ResponseRule) for a in active)


def test_a_broken_response_rule_is_a_finding_not_a_crash(tmp_path):
    from dataclasses import replace

    from qlint.rule import ActiveRule

    rule = next(r for r in RULES if r.name == "too-easy")

    def explode(view, options):
        raise ZeroDivisionError("boom")

    broken = replace(rule, check=explode)
    bank, responses = split_example(rule.invalid[0].text)
    (tmp_path / "bank.yaml").write_text(bank)
    (tmp_path / "r.csv").write_text(responses)
    active = [ActiveRule(broken, rule.options(), Severity.INFO)]
    found = analyze(bank_questions([str(tmp_path / "bank.yaml")]), [tmp_path / "r.csv"], active, None).findings
    assert found and all(f.rule == "internal-error" and "boom" in f.message for f in found)
