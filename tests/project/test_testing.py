"""``qlint.testing``, the helper rule authors test with, can fail: on each part an example states (field, message,
number of findings, fixed text), on a passing example that fires and a failing one that does not; and a rule's
``fixable`` is what its examples show."""
from __future__ import annotations

import pytest

from qlint.rule import Invalid, QuestionRule, Valid, Violation
from qlint.rules import missing_rationale, reading_level, stray_whitespace
from qlint.testing import assert_findings, assert_rule, check_example, lint_example, stated_options

WHITESPACE = stray_whitespace.RULE
SPACED = stray_whitespace.RULE.invalid[0]
RATIONALE = missing_rationale.RULE


def test_the_rules_own_examples_pass():
    assert_rule(WHITESPACE)
    assert_rule(RATIONALE)


def test_a_wrong_field_or_message_fails():
    with pytest.raises(AssertionError, match="finding 1 names field 'stem', the example states 'explanation'"):
        check_example(WHITESPACE, Invalid(SPACED.text, field=("explanation", "options[0].text")))
    with pytest.raises(AssertionError, match="finding 2 has message .*, the example states 'has no rationale'"):
        check_example(WHITESPACE, Invalid(SPACED.text, message=("starts or ends", "has no rationale")))
    with pytest.raises(AssertionError, match="reported 2 finding\\(s\\), the example states 1"):
        check_example(WHITESPACE, Invalid(SPACED.text, field=("stem",)))
    check_example(WHITESPACE, Invalid(SPACED.text, field=("stem", "options[0].text"), message="starts or ends"))


def test_a_wrong_fixed_text_fails_and_so_does_a_fix_that_is_not_offered():
    with pytest.raises(AssertionError, match="--fix gives"):
        check_example(WHITESPACE, Invalid(SPACED.text, fixed=SPACED.text.replace("Which", "What")))
    text = RATIONALE.invalid[0].text
    with pytest.raises(AssertionError, match="offers no fix on an example that states its fixed text"):
        check_example(RATIONALE, Invalid(text, fixed=text))


def test_a_passing_example_that_fires_and_a_failing_one_that_does_not_fail():
    with pytest.raises(AssertionError, match="fired on a passing example"):
        assert_rule(WHITESPACE, valid=[SPACED.text], invalid=[])
    with pytest.raises(AssertionError, match="did not fire"):
        assert_rule(WHITESPACE, valid=[], invalid=[WHITESPACE.valid[0].text])
    with pytest.raises(TypeError):
        check_example(WHITESPACE, SPACED.text)   # a plain string says neither


def test_every_problem_is_listed_at_once():
    with pytest.raises(AssertionError) as raised:
        assert_rule(WHITESPACE, valid=[SPACED.text], invalid=[Invalid(SPACED.text, field="stem")])
    assert "passing example 0" in str(raised.value) and "failing example 0" in str(raised.value)


def test_options_and_settings_are_those_the_example_states():
    long = reading_level.RULE.invalid[0]
    assert lint_example(reading_level.RULE, long)
    assert not lint_example(reading_level.RULE, Valid(long.text, options={"max-sentence-words": 1000}))
    assert stated_options("# options:\n#   max-grade: 9\nid: x\n") == {"max-grade": 9}
    quick = Invalid(long.text, settings={"rule-time-budget": 1e-9}, message="ran past its time budget")
    from qlint.rules import rule_timeout

    check_example(rule_timeout.RULE, quick)


def test_findings_from_elsewhere_are_checked_the_same_way():
    found = lint_example(RATIONALE, RATIONALE.invalid[0])
    assert_findings(RATIONALE.invalid[0], found)
    with pytest.raises(AssertionError, match="did not fire"):
        assert_findings(RATIONALE.invalid[0], [])


def _flag_stem(question, options):
    if "?" not in question.stem:
        yield Violation("stem", "the stem asks no question")


def _plugin(**kwargs) -> QuestionRule:
    return QuestionRule(code="X901", name="stem-asks", summary="s", why="w", use_instead="u", check=_flag_stem,
                        passing=("id: a\nstem: Which?\noptions:\n  - {text: x, correct: true, rationale: R.}\n"
                                 "  - {text: y, rationale: R.}\n",), **kwargs)


def test_a_plugin_rule_with_plain_string_examples():
    rule = _plugin(failing=("id: a\nstem: Pick one.\noptions:\n  - {text: x, correct: true, rationale: R.}\n"
                            "  - {text: y, rationale: R.}\n",))
    assert not rule.fixable and isinstance(rule.invalid[0], Invalid) and isinstance(rule.valid[0], Valid)
    assert_rule(rule)
    with pytest.raises(AssertionError, match="the example states 'asks a question'"):
        assert_rule(rule, invalid=[Invalid(rule.invalid[0].text, message="asks a question")])


def test_fixable_is_derived_from_the_examples_and_must_agree_with_them():
    assert WHITESPACE.fixable and not RATIONALE.fixable
    text = "id: a\nstem: Pick one.\noptions:\n  - {text: x, correct: true, rationale: R.}\n  - {text: y, rationale: R.}\n"
    with pytest.raises(ValueError, match="says fixable=True but no failing example states its fixed text"):
        _plugin(failing=(text,), fixable=True)
    with pytest.raises(ValueError, match="says fixable=False but a failing example states a fixed text"):
        _plugin(failing=(Invalid(text, fixed=text),), fixable=False)
    assert _plugin(failing=(Invalid(text, fixed=text),)).fixable
    with pytest.raises(ValueError, match="field is a string or a non-empty tuple"):
        Invalid(text, field=())
    with pytest.raises(TypeError):
        _plugin(failing=(Valid(text),)).invalid   # a passing example among the failing ones



def test_a_response_rule_runs_with_its_answers_and_a_form_rule_says_it_cannot():
    pytest.importorskip("duckdb")
    from qlint.rules import form_coverage, too_easy

    assert_rule(too_easy.RULE)
    with pytest.raises(AssertionError, match="the example states 'too hard'"):
        check_example(too_easy.RULE, Invalid(too_easy.RULE.invalid[0].text, message="too hard"))
    with pytest.raises(TypeError, match="is a form rule"):
        lint_example(form_coverage.RULE, form_coverage.RULE.invalid[0])
