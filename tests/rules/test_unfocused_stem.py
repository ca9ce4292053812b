"""unfocused-stem on hand-made held-out items: focused stems a naive rule trips on stay quiet, stems that leave their
question to the options fire. None of these come from the labelled dev data; they are written to the idea of the flaw.
"""
from __future__ import annotations

import pytest
from helpers import fired, lint_text
from helpers import question as q

ABCD = [("Alpha", True), ("Beta", False), ("Gamma", False), ("Delta", False)]

FOCUSED = [
    "Which enzyme in saliva starts the digestion of starch?",
    "Identify the organ that produces insulin.",
    "Select the data structure that gives constant-time average lookup by key.",
    "Calculate the simple interest on $2,000 at 5% a year for 3 years.",
    "The main product of photosynthesis, besides oxygen, is:",
    "According to Le Chatelier's principle, raising the pressure on a gas-phase equilibrium shifts it toward:",
    "The process by which plants lose water vapour through their leaves is called ____.",
    "A patient has a fever, a stiff neck and a rash that does not fade under pressure. Which diagnosis is most "
    "likely?",
    "A firm buys a machine for $50,000 and depreciates it straight-line over 5 years with no salvage value. "
    "What is the annual depreciation expense?",
    "Is 91 a prime number?",
    "Using the ideal gas law, find the pressure of 2 mol of gas in 10 L at 300 K.",
    "The chemical symbol for sodium is ____?",
    "If x + 3 = 7, what is the value of 2x?",
    "Which two of these gases are noble gases? (Select two.)",
    "Which of the following is the most likely cause of the patient's hypokalaemia?",
    "All of the following are symptoms of scurvy EXCEPT",
    "Who wrote Hamlet?",
    "What are enzymes?",
    "What is capital?",
    "Who has the authority to veto a bill passed by Congress?",
    "Who has jurisdiction over federal crimes?",
    "What has caused the rise in global sea level since 1900?",
    "What might have happened?",
    "What has a higher boiling point, water or ethanol?",
    "What has to be checked before a blood transfusion?",
    "A nurse is about to give digoxin. What must the nurse check before giving it?",
]

UNFOCUSED = [
    "Photosynthesis",
    "The French Revolution",
    "How to calculate compound interest",
    "Mitochondria:",
    "Which of the following is true about the mitochondrion?",
    "Which of the following statements about inflation is correct?",
    "Which statement is true?",
    "Choose the correct statement about enzymes.",
    "The boiling point of water at sea level is?",
    "All of the following are true EXCEPT",
    "What can be magnetic?",
    "Who has feathers and wings?",
    "What are flammable?",
    "What could be harmful?",
    "Maya planted tomatoes in the spring. What does Maya need to do before this?",
]


@pytest.mark.parametrize("stem", FOCUSED, ids=[f"focused-{i}" for i in range(len(FOCUSED))])
def test_focused_stems_pass(stem, registry):
    assert fired(q(stem, ABCD), "unfocused-stem", registry) == []


@pytest.mark.parametrize("stem", UNFOCUSED, ids=[f"unfocused-{i}" for i in range(len(UNFOCUSED))])
def test_unfocused_stems_fire(stem, registry):
    assert fired(q(stem, ABCD), "unfocused-stem", registry)


def test_statements_judged_only_by_verdict_options(registry):
    stem = "Statement 1: Every square is a rectangle. Statement 2: Every rectangle is a square."
    verdicts = [("True, True", False), ("True, False", True), ("False, True", False), ("False, False", False)]
    assert fired(q(stem, verdicts), "unfocused-stem", registry)
    asked = stem + " Which of the two statements are true?"
    assert fired(q(asked, verdicts), "unfocused-stem", registry) == []


def test_combined_verdicts_are_still_an_unfocused_stem(registry):
    stem = "Checkpointing trades compute for memory. Checkpointing changes the gradients."
    verdicts = [("True, True", False), ("True, False", True), ("False, True", False), ("False, False", False)]
    assert fired(q(stem, verdicts), "unfocused-stem", registry)


def test_question_then_listed_statements_is_focused(registry):
    text = q("Which of these elements are noble gases? I. Neon II. Nitrogen III. Argon",
             [("I and III", True), ("I and II", False), ("II and III", False)])
    rules = {f.rule for f in lint_text(text, registry, extend=["unfocused-stem", "complex-option"])}
    assert "unfocused-stem" not in rules and "complex-option" in rules  # K-type, but a focused stem
