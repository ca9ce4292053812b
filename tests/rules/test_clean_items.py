"""Hand-made clean items get nothing loud from the default rules (and nothing at all from the cue rules), and a
hand-made bank gets exactly the cues planted in it. The items were written apart from the rules' own examples and
the labelled dev data, some by an independent held-out review; a rule's own held-out cases are in its file."""
from __future__ import annotations

import json

import pytest
from helpers import fired, lint_text, question

from qlint.finding import Severity

# ---- clean items, including short option lists of format names: no warning or error from the default rules ----------

CLEAN_TECHNICAL = [
    ("Which format keeps fp32's exponent range in half the bits?",
     [("bf16", True), ("fp16", False), ("fp32", False), ("int8", False)]),
    ("Which number format does post-training quantization most often target for weights?",
     [("int8", True), ("fp16", False), ("bf16", False), ("fp32", False)]),
    ("What does the development tool print once it has bound its port?",
     [("server running at http://127.0.0.1:3000/", True), ("error: address 127.0.0.1:3000 in use", False),
      ("warning: no port given, using 3000", False)]),
    ("Which alert rule fires when the message backlog grows?",
     [("Metric source: queue. Metric name: depth.", True), ("Metric source: pool. Metric name: CPU time.", False),
      ("Metric source: disk. Metric name: reads.", False)]),
    ("Which collective leaves the summed gradients on every rank?",
     [("all-reduce", True), ("reduce-scatter with padding", False), ("broadcast", False), ("gather", False)]),
    ("What does a deadlock detector report?",
     [("A cycle of threads that may each wait for a lock another holds", True),
      ("Statistics about lock contention per thread", False), ("Threads that could run but wait for the scheduler", False)]),
    ("Which lipoprotein carries triglycerides from the liver to the tissues?",
     [("very low-density lipoprotein", True), ("high-density lipoprotein", False), ("chylomicron remnants", False)]),
    ("What does fsync guarantee once it returns?",
     [("Every write made before the call is on stable storage", True),
      ("Writes are not always visible to other processes", False), ("The file stays locked until closed", False)]),
    ("Checkpointing activations lowers the peak memory of a training step.",
     [("True", True), ("False", False)]),
    ("Why does stochastic rounding help low-precision training?",
     [("Small updates survive on average. Each rounding is random but unbiased.", True),
      ("Gradients get larger. The optimizer then takes bigger steps.", False),
      ("Weights stay in fp32. The rounding is skipped for them.", False)]),
]


# option-order reads "fp16", "int8" as the numbers 16 and 8: a finding of that rule, not of the ones tested here
ELSEWHERE = ("option-order",)


@pytest.mark.parametrize("stem,options", CLEAN_TECHNICAL, ids=[f"clean-{i}" for i in range(len(CLEAN_TECHNICAL))])
def test_clean_items_get_no_warning_or_error(stem, options, registry):
    loud = [f"{f.rule}: {f.message}" for f in lint_text(question(stem, options), registry)
            if f.severity in (Severity.WARNING, Severity.ERROR) and f.rule not in ELSEWHERE]
    assert loud == []


OURS = ("rationale-in-option", "vague-terms", "absolute-terms", "unfocused-stem", "option-length",
        "stem-option-overlap")


@pytest.mark.parametrize("stem,options", CLEAN_TECHNICAL, ids=[f"clean-ours-{i}" for i in range(len(CLEAN_TECHNICAL))])
def test_clean_items_get_nothing_from_the_cue_rules(stem, options, registry):
    text = question(stem, options)
    assert [(rule, fired(text, rule, registry)) for rule in OURS if fired(text, rule, registry)] == []


# ---- clean wording from an independent held-out review: nothing at all from the default rules --------------------

CLEAN_REVIEWED = [
    question("Which two practices reduce the damage an attacker can do with a leaked cloud access key? (Select two.)",
             [("Short-lived credentials", True), ("Least-privilege policies", True), ("Longer key names", False),
              ("Public bucket listings", False)], select=2),
    question("What is 7 × 8?", [("54", False), ("56", True), ("63", False), ("64", False)]),
    question("Which inventory cost formula does IFRS prohibit?",
             [("FIFO", False), ("Weighted average cost", False), ("LIFO", True), ("Specific identification", False)]),
    question("Which standard of proof applies in a criminal trial in the United States?",
             [("Beyond a reasonable doubt", True), ("Preponderance of the evidence", False),
              ("Clear and convincing evidence", False), ("Probable cause to believe", False)]),
    question("Which chip type keeps its contents without power and is written once at the factory?",
             [("Read-only memory", True), ("Static RAM cells", False), ("Dynamic RAM cells", False),
              ("CPU cache lines", False)]),
    question("Which cloud service model gives the customer control of the guest operating system while the provider "
             "manages the physical hardware?",
             [("Infrastructure as a service", True), ("Platform as a service", False), ("Software as a service", False),
              ("Function as a service", False)]),
]


@pytest.mark.parametrize("text", CLEAN_REVIEWED, ids=[f"clean-{i}" for i in range(len(CLEAN_REVIEWED))])
def test_clean_questions_stay_quiet(text, registry):
    assert [f"{f.rule}: {f.message}" for f in lint_text(text, registry)] == []


# ---- a hand-made bank: the default rules see the cues and stay silent on the clean questions -------------------------

BANK_CLEAN = [
    ("Which component of a data loader prepares batches in parallel?",
     [("Worker processes", True), ("The sampler", False), ("The collate function", False)]),
    ("What does gradient checkpointing trade for lower activation memory?",
     [("Extra forward compute", True), ("Lower accuracy", False), ("Larger batches", False)]),
    ("A run in fp16 overflows after a few hundred steps. The same run in fp32 trains well. What should you check "
     "first?", [("Whether the loss scaler skips steps", True), ("Whether the data is shuffled", False),
                ("Whether the learning rate warms up", False)]),
]
BANK_CUES = [
    ("Why does storing the loss in a list make GPU memory grow?",
     [("Each stored loss keeps its whole autograd graph and every activation alive", True),
      ("Lists are pinned", False), ("The optimizer copies it", False)], "option-length"),
    ("When a nightly export job that copies every table of the reporting database into the analytics bucket runs "
     "in the same window as the backup that the operations team scheduled last year for the very same databases, "
     "which of the two should move first?", [("The export", True), ("The backup", False), ("The index rebuild", False)],
     "reading-level"),
]


def _bank(questions: list[tuple[str, str, list[tuple[str, bool]]]]) -> str:
    out = ["questions:\n"]
    for qid, stem, options in questions:
        out.append(f"  - id: {qid}\n    stem: {json.dumps(stem)}\n    options:\n")
        out += [f"      - text: {json.dumps(text)}\n" + ("        correct: true\n" if key else "")
                + f"        rationale: {'Correct' if key else 'Incorrect'}. Because of how it works.\n"
                for text, key in options]
    return "".join(out)


def test_a_hand_made_bank(registry):
    text = _bank([(f"clean{i}", stem, options) for i, (stem, options) in enumerate(BANK_CLEAN)]
                 + [(f"cue{i}", stem, options) for i, (stem, options, _) in enumerate(BANK_CUES)])
    found = lint_text(text, registry)
    assert {(f.question, f.rule) for f in found} == {(f"cue{i}", rule) for i, (_, _, rule) in enumerate(BANK_CUES)}
