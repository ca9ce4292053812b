"""Response rules: every rule's own examples (bank + responses) run through the readers, statistics and rules."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("duckdb")

from qlint.analysis.rule import ResponseRule, split_example  # noqa: E402
from qlint.analysis.run import DATA_RULE, analyze, bank_questions  # noqa: E402
from qlint.config import Config, Settings, resolve_rules  # noqa: E402
from qlint.finding import Severity  # noqa: E402
from qlint.registry import load_registry  # noqa: E402
from qlint.testing import assert_findings  # noqa: E402

RULES = [r for r in load_registry() if isinstance(r, ResponseRule)]
CASES = [(r.name, kind, i, example) for r in RULES for kind in ("invalid", "valid")
         for i, example in enumerate(getattr(r, kind))]


def analyze_example(text: str, rule: str, tmp_path: Path):
    bank, responses = split_example(text)
    (tmp_path / "bank.yaml").write_text(bank, encoding="utf-8")
    (tmp_path / "responses.csv").write_text(responses, encoding="utf-8")
    registry = load_registry()
    active = resolve_rules(Config(Settings(), tmp_path, None), registry, select=[rule])
    severity = Severity.WARNING if rule == DATA_RULE[1] else None
    return analyze(bank_questions([str(tmp_path / "bank.yaml")]), [tmp_path / "responses.csv"], active, severity)


def test_there_are_response_rules():
    assert {"likely-miskeyed", "non-discriminating", "too-easy", "too-hard", "non-functioning-distractor",
            "alpha-if-deleted", "response-data"} <= {r.name for r in RULES}


@pytest.mark.parametrize("name,kind,index,example", CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CASES])
def test_response_rule_example(name, kind, index, example, tmp_path):
    fired = [f for f in analyze_example(example.text, name, tmp_path).findings if f.rule == name]
    if kind == "invalid":   # fires, located, with the field and message the example states
        assert example.message is not None, f"{name}: failing example {index} states no message"
        assert_findings(example, fired, name)
    else:
        assert not fired, f"{name}: passing example {index} fired: {[f.message for f in fired]}"


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
