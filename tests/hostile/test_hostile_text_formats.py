"""The text formats (YAML, GIFT, Aiken) read as hostile input: reading counts against the file's time budget as the
XML readers' does, and no line pattern makes reading cost the square of the file."""
from __future__ import annotations

import time

import pytest

from qlint.formats import read
from qlint.formats.base import ReadLimits

MANY = {
    "a.gift": "".join(f"::q{i}::Stem number {i}? {{=yes#Correct. a ~no#Incorrect. b}}\n\n" for i in range(200)),
    "a.aiken": "".join(f"Stem number {i}?\nA. yes\nB. no\nANSWER: A\n\n" for i in range(200)),
    "a.yaml": "questions:\n" + "".join(f"  - {{id: q{i}, stem: Stem {i}?, options: [{{text: a, correct: true}}, "
                                       f"{{text: b}}]}}\n" for i in range(200)),
}


@pytest.mark.parametrize("name", sorted(MANY))
def test_reading_a_text_format_counts_against_the_time_budget(name):
    """A file past its budget while it is read ends as one rule-timeout finding (a 300,000-question GIFT file read
    for 103 s past a 60 s budget: only the XML readers looked at the clock)."""
    result = read(MANY[name].encode(), name, ReadLimits(rule_time_budget=1e-9))
    assert [f.rule for f in result.findings] == ["rule-timeout"] and not result.questions, result.findings


@pytest.mark.parametrize("name", sorted(MANY))
def test_a_generous_budget_reads_every_question(name):
    assert len(read(MANY[name].encode(), name, ReadLimits()).questions) == 200


def test_aiken_option_continued_over_many_lines_reads_in_linear_time():
    """Each line after an option continues it: added to a growing string, 100,000 of them took minutes."""
    text = "Which?\nA. one\n" + "more words here\n" * 100_000 + "B. two\nANSWER: A\n"
    started = time.process_time()   # this process's CPU time: a busy machine cannot trip it
    (question,) = read(text.encode(), "a.aiken", ReadLimits()).questions
    assert time.process_time() - started < 5
    assert question.question.options[0].text == "one" + " more words here" * 100_000
