"""Hand-made held-out cases for unfocused-stem and option-length: clean items a naive rule trips on, and flaws.

None of these come from the labelled dev data; they are written to the idea of each flaw.
"""
from __future__ import annotations

import pytest
from helpers import fired
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


STEM = "Which one is right?"

EVEN = [
    [("Balance sheet", True), ("Income statement", False), ("Statement of cash flows", False),
     ("Statement of changes in equity", False)],
    [("Statement of changes in equity", True), ("Balance sheet", False), ("Income statement", False),
     ("Statement of cash flows", False)],
    [("Core", True), ("Radiative zone", False), ("Convection zone", False), ("Photosphere", False)],
    [("Standard deviation", True), ("Mean", False), ("Median", False), ("Mode", False)],
    [("Water", True), ("Hydrochloric acid", False), ("Sodium hydroxide", False), ("Acetic acid", False)],
    [("Lungs", False), ("Skin", False), ("Kidneys", False), ("Large intestine", True)],
    [("Magna Carta", True), ("Declaration of Independence", False), ("Bill of Rights", False),
     ("Articles of Confederation", False)],
    [("FIFO", False), ("LIFO", True), ("Weighted average cost", False), ("Specific identification", False)],
    [("Sole proprietorship", False), ("Partnership", False), ("Corporation", True),
     ("Limited liability company", False)],
    [("$1,800", True), ("$600", False), ("$13,800", False), ("$1,890.75", False)],
    [("0.5", False), ("0.25", False), ("0.125", True), ("0.0625", False)],
    [("3x^2 + 2", True), ("3x^2", False), ("x^4/4 + x^2", False), ("3x + 2", False)],
    [("(a + b)(a - b)", True), ("(a - b)^2", False), ("(b - a)^2", False), ("a^2 + b^2", False)],
    [("It recomputes activations", True),
     ("It keeps every intermediate activation on the host in pinned memory buffers", False),
     ("It stores two copies of the optimizer state in separate worker processes", False),
     ("It moves the weights of each layer to local disk between the training steps", False)],
]

UNEVEN = [
    [("Each stored loss still references its autograd graph, so the activations of every step stay allocated "
      "on the GPU until the list is cleared", True), ("The optimizer copies it", False),
     ("Lists are pinned", False), ("Python leaks", False)],
    [("Short-lived credentials", False), ("Least privilege", False), ("Longer key names", False),
     ("Rotating every key by hand each morning before any of the engineers start their work", True)],
    [("It halves the number of parameters while keeping every layer and its accuracy the same", True),
     ("It is faster", False)],
    [("Recompute activations in the backward pass and discard them after the forward pass", True),
     ("Use fp16", False), ("Add GPUs", False), ("Shard data", False)],
    [("Nitrogen", False), ("Oxygen", False), ("Argon", False),
     ("Carbon dioxide released when fossil fuels burn in power plants", True)],
    [("A linked list whose nodes each keep a pointer to the next and previous node", True),
     ("Hash table", False), ("Binary heap", False), ("Trie", False)],
]


# a long or a short distractor is uneven, but it points to no key: a test-wise candidate who picks the longest option
# is wrong here, and one who drops the shortest loses nothing
NO_KEY_CUE = [
    [("Blood pressure", False), ("Heart rate", False),
     ("The ratio of the stroke volume to the end-diastolic volume of the left ventricle, in percent", False),
     ("Cardiac output", True)],
    [("The court will apply the reasonable person standard to the defendant's conduct", True),
     ("Negligence", False), ("A tort claim for battery under the common law of the forum state", False),
     ("The plaintiff wins because the defendant breached the duty of care owed to every visitor", False)],
]


@pytest.mark.parametrize("options", EVEN + NO_KEY_CUE, ids=[f"even-{i}" for i in range(len(EVEN))]
                         + [f"no-key-cue-{i}" for i in range(len(NO_KEY_CUE))])
def test_natural_option_lists_pass(options, registry):
    assert fired(q(STEM, options), "option-length", registry) == []


@pytest.mark.parametrize("options", UNEVEN, ids=[f"uneven-{i}" for i in range(len(UNEVEN))])
def test_conspicuous_lengths_fire(options, registry):
    assert fired(q(STEM, options), "option-length", registry)
