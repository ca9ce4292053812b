"""Rules and suppressions on inputs shaped to make them cost the square of their size: runs of dashes, spaces or
digits in an option, thousands of questions under one id, a file with a suppression per question, a bank adopting a
blueprint of thousands of objectives (reading-level's shapes: test_hostile_reading_level.py). Each took seconds to
minutes before; each bound here is this process's CPU time (a busy machine cannot trip it) and many times what the
linear code needs."""
from __future__ import annotations

from pathlib import Path

from helpers import cpu_seconds, model_question

from qlint.blueprint import coverage, validate
from qlint.config import resolve_rules
from qlint.finding import finding
from qlint.items import BankItem, CheckedFile, Places
from qlint.rules import duplicate_id, objective_not_in_blueprint, rationale_in_option
from qlint.run.pipeline import setup
from qlint.run.suppress import apply_suppressions
from qlint.sourcemap import Suppression, pack

BOUND = 5.0   # seconds of CPU; the linear code takes well under one




def test_runs_of_dashes_and_spaces_in_an_option_cost_linear_time():
    # a run given back a character at a time to the commentary patterns after a break: a minute for 10,000
    for text in ("Set it " + "-" * 20000 + " x", "Set it; " + " \t" * 10000 + "x", "a -" + " " * 20000 + "- b",
                 "Set it. " + " " * 20000 + "Teams pick this because"):
        question = model_question([text, "Other"])
        rule = rationale_in_option.RULE
        seconds, _ = cpu_seconds(lambda: list(rule.check(question, rule.options())))
        assert seconds < BOUND


def test_commentary_after_a_long_break_is_still_seen():
    question = model_question(["Use a queue;" + " " * 5000 + "this is a common trap for beginners", "Other"])
    assert list(rationale_in_option.RULE.check(question, rationale_in_option.RULE.options()))


def test_thousands_of_questions_under_one_id_name_a_few_places_each():
    # every copy's message listed every other copy: 8,000 copies made 2.3 GB of report
    items = [BankItem("same", f"f{i}.yaml", 1, 1, 5, 1, (0,), 4, None, (), None, {}, Places({"id": pack(1, 5)}))
             for i in range(8000)]
    seconds, found = cpu_seconds(lambda: list(duplicate_id.check(items, None)))
    assert seconds < BOUND and len(found) == 8000
    assert found[0].message == ("id 'same' is also used at f1.yaml:1, f2.yaml:1, f3.yaml:1, f4.yaml:1, f5.yaml:1 "
                                "and 7,994 more")
    assert found[2].message.startswith("id 'same' is also used at f0.yaml:1, f1.yaml:1, f3.yaml:1,")
    assert max(len(f.message) for f in found) < 200
    two = list(duplicate_id.check(items[:2], None))
    assert [f.message for f in two] == ["id 'same' is also used at f1.yaml:1", "id 'same' is also used at f0.yaml:1"]


def test_a_suppression_per_question_is_looked_up_not_scanned():
    config, registry = setup(None, Path.cwd(), ())
    active = resolve_rules(config, registry, select=["missing-rationale", "unused-suppression", "stray-whitespace"])
    n = 16000
    suppressions = [Suppression(i + 1, 1, i + 1, "file", ("stray-whitespace",), "legacy") for i in range(n)]
    found = [finding("a.yaml", i + 1, 1, ("Q101", "missing-rationale"), "option 1 has no rationale", f"q{i}")
             for i in range(n)]
    files = [CheckedFile("a.yaml", [], [], suppressions)]
    seconds, kept = cpu_seconds(lambda: apply_suppressions(found, files, active))
    assert seconds < BOUND
    assert sum(f.rule == "missing-rationale" for f in kept) == n   # suppressions of another rule silence nothing


def _blueprint(objectives: int):
    return validate({"domains": [{"id": "D", "name": "All", "weight": 1.0,
                                  "objectives": [{"id": f"obj-{i}", "count": 1} for i in range(objectives)]}]}, "test")


def test_a_blueprint_of_thousands_of_objectives_is_covered_in_linear_time():
    blueprint = _blueprint(10000)
    seconds, found = cpu_seconds(lambda: coverage(blueprint, [(f"obj-{i}", None) for i in range(10000)]))
    assert seconds < BOUND
    objectives = [row for row in found.rows if row.kind == "objective"]
    assert len(objectives) == 10000 and {row.target_share for row in objectives} == {1 / 10000}
    assert {row.questions for row in objectives} == {1}


def test_questions_with_objectives_not_in_the_blueprint_are_hinted_once_per_objective():
    blueprint = _blueprint(1000)
    items = [BankItem(f"q{i}", "a.yaml", 1 + i, 1, 1 + i, 1, (0,), 4, f"objective-{i % 20}", (), None, {},
                      Places({"objective": pack(1 + i, 3)})) for i in range(2000)]
    options = objective_not_in_blueprint.Options(blueprint=blueprint)
    seconds, found = cpu_seconds(lambda: list(objective_not_in_blueprint.check(items, options)))
    assert seconds < BOUND and len(found) == 2000
    assert found[0].message == found[20].message


def test_long_runs_of_digits_and_spaces_in_an_option_cost_linear_time_in_the_rules_that_read_numbers_and_lists():
    from qlint.rules import complex_option, option_order

    for text in ("1" * 20000, "A" + " " * 20000 + "B", "x" + "\t " * 10000 + "y, z", "3" * 20000 + " over 4"):
        question = model_question([text, "2", "3"], stem="Which?")
        seconds, _ = cpu_seconds(lambda: (list(option_order.RULE.check(question, option_order.RULE.options())),
                                   list(complex_option.RULE.check(question, complex_option.RULE.options()))))
        assert seconds < BOUND


def test_the_exact_key_position_test_of_a_big_group_gives_a_probability_not_an_overflow():
    # comb(2000, i) * p**i as floats overflowed: reachable when min-questions is set above a group of that size
    from qlint.rules.answer_position_bias import _binomial_tail

    assert 0.0 < _binomial_tail(2000, 4, 700) < 1e-20
    assert abs(_binomial_tail(20, 4, 9) - 0.0409251677065185) < 1e-12


# options and rationales that open with a long run of spaces (or of markup): the option-label and verdict patterns
# handed the run back a character at a time (a minute and more for 20,000 spaces: rule-time-budget cannot stop one
# pattern); the other shipped rules are held to the same bound on the same texts
_RUNS = (" " * 40000 + "x", "\n" * 40000 + "none", " " * 40000 + "all of them", "(a)" + " " * 40000 + "x",
         "none" + " " * 40000 + "x", "1, 2" + " " * 40000 + "x", "*" + " \t" * 20000 + "correct because", "![" * 40000,
         "![a](" * 20000, "_" * 40000 + "x")


def test_long_runs_in_an_option_or_rationale_cost_linear_time(registry):
    from qlint.model import Option, Question
    from qlint.rule import QuestionRule

    config, _ = setup(None, Path.cwd())
    active = resolve_rules(config, registry, select=["ALL"])
    slow = []
    for text in _RUNS:
        question = Question(id="q", stem=text, options=(Option(text=text, correct=True, rationale=text),
                                                        Option(text="all of them", rationale="Incorrect."),
                                                        Option(text="none of these", rationale=text)))
        for a in active:
            work = ((lambda: list(a.rule.check(question, a.options))) if isinstance(a.rule, QuestionRule) else
                    (lambda: a.rule.extract(question, a.options)) if a.rule.extract is not None else None)
            if work is not None:
                seconds, _ = cpu_seconds(work)
                if seconds >= BOUND:
                    slow.append((a.rule.name, text[:12], round(seconds, 1)))
    assert not slow


def test_a_stem_ending_in_a_count_tag_and_a_long_run_of_spaces_costs_linear_time():
    from qlint.rules import unfocused_stem

    for stem in ("Which two? Select two" + " " * 40000 + "x", "Which two? (Choose 2.)" + " " * 40000):
        question = model_question(["a", "b"], stem=stem)
        rule = unfocused_stem.RULE
        seconds, _ = cpu_seconds(lambda: list(rule.check(question, rule.options())))
        assert seconds < BOUND
