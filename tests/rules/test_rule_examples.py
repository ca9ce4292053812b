"""Every rule's own examples, run through the real loader, engine and --fix (a response rule's through the statistics
of its answers) by ``qlint.testing``, the helper plugin authors use: passing ones draw nothing, failing ones fire with the field and message they state, and a stated fixed
text is what --fix makes of them.

The examples are also what `qlint rule NAME` and the docs show, so a rule cannot drift from its documentation.
"""
from __future__ import annotations

import pytest
from helpers import lint_text

from qlint.registry import load_registry
from qlint.testing import check_example, lint_example

RULES = list(load_registry())
# a form rule's examples need a drawn form: tests/rules/test_forms.py runs them through `check --form`, and checks
# what they state with qlint.testing.assert_findings; a response rule's run with their answers, which need DuckDB; a
# machine rule's (internal-error, fix-skipped) with the machinery its `made_by` declares, as qlint.testing runs them
LINTED = [r for r in RULES if r.kind != "form"]
CASES = [(r, True, i, e) for r in LINTED for i, e in enumerate(r.invalid)] + \
        [(r, False, i, e) for r in LINTED for i, e in enumerate(r.valid)]


@pytest.mark.parametrize("rule,failing,index,example", CASES,
                         ids=[f"{c[0].name}-{'failing' if c[1] else 'passing'}-{c[2]}" for c in CASES])
def test_rule_example(rule, failing, index, example, registry):
    if rule.kind == "response":
        pytest.importorskip("duckdb")
    check_example(rule, example, failing=failing, registry=registry)


def test_every_rule_has_both_kinds_of_example():
    for rule in RULES:
        assert rule.failing, rule.name
        assert rule.passing, rule.name
        assert rule.summary and rule.why and rule.use_instead, rule.name


def test_every_failing_example_states_its_message_and_the_field_its_findings_name(registry):
    """What an example shows is checked: each built-in failing example states a message fragment, and the field
    wherever its findings name one (a file-level finding, such as a YAML syntax error, names none)."""
    unstated = []
    for rule in LINTED:
        for index, example in enumerate(rule.invalid):
            fields = [f.field for f in lint_example(rule, example, registry=registry)] if example.field is None else []
            if example.message is None or (example.field is None and any(fields)):
                unstated.append(f"{rule.name} #{index}")
    assert not unstated, unstated


def test_every_fix_a_rule_offers_on_its_examples_is_shown(registry):
    """A failing example on which the rule offers a fix states what --fix makes of it: no fix goes unchecked."""
    fixers = [r for r in LINTED if r.kind != "response"]   # a finding on response data has no fix
    unshown = [f"{rule.name} #{index}" for rule in fixers for index, example in enumerate(rule.invalid)
               if example.fixed is None and any(f.fix is not None for f in lint_example(rule, example, registry=registry))]
    assert not unshown, unshown


def test_a_fixable_rule_is_one_whose_example_shows_its_fix(registry):
    for rule in RULES:
        assert rule.fixable == any(e.fixed is not None for e in rule.invalid), rule.name
    assert {r.name for r in RULES if r.fixable} == {"stray-whitespace", "option-order", "negative-stem"}


def test_names_and_codes_unique():
    """Every rule has its own name and code, and a registry refuses a second rule that takes either."""
    import dataclasses

    from qlint.registry import Registry, RegistryError

    assert len({r.name for r in RULES}) == len(RULES)
    assert len({r.code for r in RULES}) == len(RULES)
    first, other = RULES[0], RULES[1]
    registry = Registry()
    registry.add(first, "builtin")
    registry.add(first, "builtin")  # the same rule twice is the same rule
    for clash, needle in ((dataclasses.replace(other, name=first.name), "name"),
                          (dataclasses.replace(other, code=first.code), "code")):
        with pytest.raises(RegistryError, match=f"rule {needle}"):
            registry.add(clash, "plugin")


def test_every_example_is_a_question_that_loads(registry):
    """A passing example that does not load (a comma in a flow mapping) passes for the wrong reason: every example
    loads without a schema or parse error, but the failing examples of those two rules themselves."""
    reading = ("schema", "parse-error")
    broken = [(rule.name, example.text.splitlines()[0]) for rule in LINTED
              for example in (*rule.valid, *(() if rule.name in reading else rule.invalid))
              if any(f.rule in reading for f in lint_text(example.text, registry, path=example.path))]
    assert broken == []
