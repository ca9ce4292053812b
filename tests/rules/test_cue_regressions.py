"""Cases found by an independent held-out review: clean wording that must stay quiet, flaws that must fire."""
from __future__ import annotations

import pytest
from helpers import lint_text
from helpers import question as q

CLEAN = [
    q("Which two practices reduce the damage an attacker can do with a leaked cloud access key? (Select two.)",
      [("Short-lived credentials", True), ("Least-privilege policies", True), ("Longer key names", False),
       ("Public bucket listings", False)], select=2),
    q("What is 7 × 8?", [("54", False), ("56", True), ("63", False), ("64", False)]),
    q("Which inventory cost formula does IFRS prohibit?",
      [("FIFO", False), ("Weighted average cost", False), ("LIFO", True), ("Specific identification", False)]),
    q("Which standard of proof applies in a criminal trial in the United States?",
      [("Beyond a reasonable doubt", True), ("Preponderance of the evidence", False),
       ("Clear and convincing evidence", False), ("Probable cause to believe", False)]),
    q("Which chip type keeps its contents without power and is written once at the factory?",
      [("Read-only memory", True), ("Static RAM cells", False), ("Dynamic RAM cells", False), ("CPU cache lines", False)]),
    q("Which cloud service model gives the customer control of the guest operating system while the provider "
      "manages the physical hardware?",
      [("Infrastructure as a service", True), ("Platform as a service", False), ("Software as a service", False),
       ("Function as a service", False)]),
]


@pytest.mark.parametrize("text", CLEAN, ids=[f"clean-{i}" for i in range(len(CLEAN))])
def test_clean_questions_stay_quiet(text, registry):
    assert [f"{f.rule}: {f.message}" for f in lint_text(text, registry)] == []


def test_question_then_listed_statements_is_focused(registry):
    text = q("Which of these elements are noble gases? I. Neon II. Nitrogen III. Argon",
             [("I and III", True), ("I and II", False), ("II and III", False)])
    rules = {f.rule for f in lint_text(text, registry, extend=["unfocused-stem", "complex-option"])}
    assert "unfocused-stem" not in rules and "complex-option" in rules  # K-type, but a focused stem


FLAWED = [
    ("negative-stem", q("Which data structure is the least suitable for constant-time lookup by key?",
                        [("Hash table", False), ("Linked list", True), ("Direct-address table", False)])),
    ("rationale-in-option", q("Which doctrine binds lower courts to the decisions of higher courts?",
                              [("Stare decisis - this is a common misconception", True), ("Res judicata", False),
                               ("Habeas corpus", False)])),
]


@pytest.mark.parametrize("rule,text", FLAWED, ids=[r for r, _ in FLAWED])
def test_flaws_fire(rule, text, registry):
    assert rule in {f.rule for f in lint_text(text, registry, extend=[rule])}


def test_negative_stem_prefilter_covers_every_listed_pattern():
    """negative-stem skips clauses holding none of its trigger words: each listed pattern must need one."""
    import re

    from qlint.rules import negative_stem

    for pattern in (*negative_stem._DATA["negations"], *negative_stem._DATA["false_words"], r"\bleast\b"):
        literal = re.sub(r"\\[a-zA-Z]|\(\?[=!<][^)]*\)|[+*?]", " ", pattern).lower()
        assert any(t in literal for t in negative_stem._TRIGGERS), pattern
