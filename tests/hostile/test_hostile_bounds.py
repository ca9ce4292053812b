"""Work bounded in the input's size: rules linear in a question's options, suppressions linear in a file's lines,
and a per-file time budget past which a file's remaining rules are skipped with one finding that says so.

Speed targets live in benchmarks/; these tests only hold each case to a bound the quadratic code it replaced misses
by an order of magnitude or more, under an alarm so that the old code fails the test instead of stalling the run.
"""
from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from helpers import within
from qlint.config import Config, ConfigError, Settings, load_config, resolve_rules
from qlint.engine import check_file, check_questions, timed_out
from qlint.formats.yaml_reader import load_text
from qlint.limits import Limits
from qlint.model import Question
from qlint.rules import convergence_cue
from qlint.sourcemap import find_suppressions


def _active(registry, *names: str):
    return resolve_rules(Config(Settings(), Path.cwd(), None), registry, select=list(names))


# --- convergence-cue: one count of each part's holders instead of comparing every pair of options ----------------

def test_convergence_cue_is_linear_in_options():
    # 50,000 options: comparing every pair is billions of set lookups (many minutes); counting holders, about a second
    options = [{"text": f"bf16 weights {i}", "correct": i == 0} for i in range(50_000)]
    question = Question(id="many", stem="Which settings give the lowest peak memory?", options=options)
    with within(20):
        assert list(convergence_cue.check(question, convergence_cue.Options())) == []


def test_convergence_cue_scores_unchanged_on_its_examples(registry):
    from helpers import lint_text

    failing = lint_text(convergence_cue.RULE.invalid[0].text, registry, select=["convergence-cue"])
    assert [(f.rule, f.field) for f in failing] == [("convergence-cue", "options[0].text")]
    assert not lint_text(convergence_cue.RULE.valid[0].text, registry, select=["convergence-cue"])


# --- find_suppressions: one pass, every lone comment waits for the next content line --------------------------------

def test_find_suppressions_is_linear_in_comment_lines():
    # 50,000 lone comments in a row: each searched ahead over all the rest before (over a billion steps)
    text = "# qlint: ignore[missing-rationale] legacy\n" * 50_000 + "id: q\n"
    with within(20):
        found = find_suppressions(text)
    assert len(found) == 50_000
    assert {s.target_line for s in found} == {50_001}


def test_find_suppressions_targets_unchanged():
    text = ("# qlint: ignore-question[a] one\n\n# plain comment\n  # qlint: ignore[b] two\nid: q  # qlint: ignore[c] three\n"
            "stem: s\n# qlint: ignore[d] at the end\n\n")
    got = [(s.line, s.column, s.target_line, s.scope, s.rules, s.reason) for s in find_suppressions(text)]
    assert got == [(1, 1, 5, "question", ("a",), "one"), (4, 3, 5, "line", ("b",), "two"),
                   (5, 8, 5, "line", ("c",), "three"), (7, 1, 7, "line", ("d",), "at the end")]


# --- the per-file rule time budget ---------------------------------------------------------------------------------

BANK = "questions:\n" + "".join(
    f"  - id: q{i}\n    stem: Which device holds a tensor created by default number {i}?\n    options:\n"
    f"      - {{text: The CPU, correct: true, rationale: Correct. The default.}}\n"
    f"      - {{text: The GPU, rationale: Incorrect. Needs a device.}}\n" for i in range(40))


def test_budget_skips_the_remaining_rules_with_one_finding(registry, monkeypatch):
    active = _active(registry, "missing-rationale", "stray-whitespace", "rule-timeout")
    clock = iter(range(0, 10_000, 10))   # every reading of the clock is 10 s later than the last
    monkeypatch.setattr("qlint.engine.monotonic", lambda: next(clock))
    outcome = check_file(load_text(BANK, "big.yaml"), active, budget=25)
    timeouts = [f for f in outcome.findings if f.rule == "rule-timeout"]
    assert len(timeouts) == 1 and timed_out(outcome)
    finding = timeouts[0]
    assert (finding.code, finding.path, finding.line, str(finding.severity)) == ("Q904", "big.yaml", 1, "error")
    # start 0, deadline 25; checks at 10 (question 0) and 20 (question 16) pass, 30 (question 32) is past it
    assert "missing-rationale stopped after 32 of 40 questions; skipped stray-whitespace" in finding.message
    assert "(rule-time-budget = 25 s)" in finding.message


def test_budget_before_any_rule_names_every_rule(registry):
    active = _active(registry, "missing-rationale", "stray-whitespace")
    loaded = load_text(BANK, "big.yaml")
    findings = check_questions(loaded.questions, active, budget=0.0)   # no time at all: nothing runs
    assert [f.rule for f in findings] == ["rule-timeout"]
    assert "skipped missing-rationale, stray-whitespace" in findings[0].message


def test_budget_finding_follows_its_rule_switch_and_severity(registry):
    loaded = load_text(BANK, "big.yaml")
    off = check_file(loaded, _active(registry, "missing-rationale"), budget=0.0)
    assert [f.rule for f in off.findings] == []   # rule-timeout not selected: rules still stop, silently
    from qlint.finding import Severity
    from qlint.rule import ActiveRule

    warn = [ActiveRule(a.rule, a.options, Severity.WARNING) if a.rule.name == "rule-timeout" else a
            for a in _active(registry, "missing-rationale", "rule-timeout")]
    on = check_file(loaded, warn, budget=0.0)
    assert [(f.rule, str(f.severity)) for f in on.findings] == [("rule-timeout", "warning")]


def test_rule_timeout_examples(registry):
    from qlint.rules import rule_timeout

    active = _active(registry, "ALL")
    failing = check_file(load_text(rule_timeout.RULE.invalid[0].text, "ex.yaml"), active, budget=0.0)
    assert [f.rule for f in failing.findings] == ["rule-timeout"]
    passing = check_file(load_text(rule_timeout.RULE.valid[0].text, "ex.yaml"), active)
    assert not [f for f in passing.findings if f.rule == "rule-timeout"]


def test_generous_default_budget_changes_nothing(registry):
    active = _active(registry, "ALL")
    loaded = load_text(BANK, "big.yaml")
    assert not timed_out(check_file(loaded, active))
    assert Limits().rule_time_budget == Settings().rule_time_budget == 60


def test_budget_setting_is_read_and_bounded(tmp_path):
    (tmp_path / "qlint.toml").write_text("rule-time-budget = 2.5\n")
    assert load_config(None, tmp_path).settings.limits.rule_time_budget == 2.5
    for bad in ("0", "-1", "100000", '"soon"'):
        (tmp_path / "qlint.toml").write_text(f"rule-time-budget = {bad}\n")
        with pytest.raises(ConfigError, match="rule-time-budget"):
            load_config(None, tmp_path)


def test_budget_reaches_the_engine_from_the_config(run_cli, write):
    write("qlint.toml", "rule-time-budget = 0.000001\nextend-select = ['rule-timeout']\n")
    bank = write("bank/big.yaml", BANK)
    code, out, err = run_cli("check", bank, "--no-cache")
    assert code == 1 and "Q904 rule-timeout" in out, out + err


# --- Moodle XML suppressions: a line of many comment-like openings in question text, beside many real comments ----

def test_many_comment_openings_on_one_xml_line_are_read_in_linear_time(tmp_path):
    from qlint.formats import parse

    n = 40_000
    fake, real = "<!--qlint:-->" * n, "<!--qlint:x-->" * n
    text = ('<?xml version="1.0"?><quiz><question type="multichoice"><questiontext><text><![CDATA['
            f"{fake}<!--qlint: " * 2 + "]]></text></questiontext></question>" + real + "</quiz>\n")
    with within(20):   # a set of the real comments, and openings holding "--" passed over: a second or two
        parsed = parse(text.encode(), "q.xml", Limits(), tmp_path / "q.xml", None)
    assert [f.rule for f in parsed.findings] == ["schema"]   # no options; and no reading cut short (parse-error)
