"""Every rule's own examples, run through the real loader and engine: failing ones fire, passing ones do not.

The examples are also what `qlint rule NAME` and the docs show, so a rule cannot drift from its documentation.
"""
from __future__ import annotations

import pytest
from conftest import example_options, lint_text

from qlint.registry import load_registry

RULES = list(load_registry())
EXAMPLE_PATHS = {"unsupported-question": "example.gift", "rationales-not-held": "example.gift",
                 "import-hazard": "example.gift"}
# response rules' examples need their response data (tests/test_analysis_rules.py runs them with it), form rules'
# examples their form (tests/test_forms.py)
LINTED = [r for r in RULES if r.kind not in ("response", "form")]
CASES = [(r.name, "failing", i, text) for r in LINTED for i, text in enumerate(r.failing)] + \
        [(r.name, "passing", i, text) for r in LINTED for i, text in enumerate(r.passing)]
# rule-timeout's failing example fires only under a tiny rule-time-budget: test_hostile_bounds.py runs it so
CASES = [c for c in CASES if c[:2] != ("rule-timeout", "failing")]


@pytest.mark.parametrize("name,kind,index,text", CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CASES])
def test_rule_example(name, kind, index, text, registry):
    # a rule about other bank formats shows its examples in one of them
    findings = lint_text(text, registry, extend=[name], path=EXAMPLE_PATHS.get(name, "example.yaml"),
                         options={name: example_options(text)})
    fired = [f for f in findings if f.rule == name]
    if kind == "failing":
        assert fired, f"{name}: failing example {index} did not fire:\n{text}"
        for f in fired:
            assert f.line >= 1 and f.column >= 1
    else:
        assert not fired, f"{name}: passing example {index} fired: {[f.message for f in fired]}"


def test_every_rule_has_both_kinds_of_example():
    for rule in RULES:
        assert rule.failing, rule.name
        assert rule.passing, rule.name
        assert rule.summary and rule.why and rule.use_instead, rule.name


def test_names_and_codes_unique():
    assert len({r.name for r in RULES}) == len(RULES)
    assert len({r.code for r in RULES}) == len(RULES)
