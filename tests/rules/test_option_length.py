"""option-length: the key is the longest option by a clear margin in a question; natural option lists (names, terms,
numbers, a long distractor) are no cue. Hand-made held-out cases included, written apart from the labelled dev data."""
from __future__ import annotations

import pytest
from helpers import fired
from helpers import question as q

STEM = "Why does storing the loss in a list every step make GPU memory grow?"


def test_a_key_longer_than_every_distractor_is_named_with_its_numbers(registry):
    options = [("Each stored loss keeps its autograd graph and its activations alive", True),
               ("The optimizer copies it", False), ("Lists are pinned", False), ("Python leaks", False)]
    (message,) = fired(q(STEM, options), "option-length", registry)
    assert message == ("the key is the longest option by far: 11 words, 2.9x the characters of the longest "
                       "distractor (4 words); length alone points to it")


def test_the_key_must_beat_every_distractor_not_their_median(registry):
    options = [("Each stored loss keeps its autograd graph and its activations alive", True),
               ("The optimizer keeps a copy of every loss on the GPU for its statistics", False),
               ("Lists are pinned", False), ("Python leaks", False)]
    assert fired(q(STEM, options), "option-length", registry) == []


def test_both_margins_are_options(run_cli, write):
    options = [("Each stored loss keeps its autograd graph alive", True), ("The optimizer copies it", False),
               ("Lists are pinned", False)]
    path = write("q.yaml", q(STEM, options))
    assert "option-length" in run_cli("check", path)[1]
    write("qlint.toml", "[rules.option-length]\nkey-ratio = 3\n")
    assert "option-length" not in run_cli("check", path)[1]
    write("qlint.toml", "[rules.option-length]\nmin-extra-words = 5\n")
    assert "option-length" not in run_cli("check", path)[1]


@pytest.mark.parametrize("options", [
    # a long distractor or a stub points to no key
    [("Gradient tracking", True), ("Dropout and the running statistics of batch normalization in every module", False),
     ("Automatic casting", False), ("The allocator", False)],
    # names and titles: a longer title is how titles are
    [("The Lord of the Rings: The Return of the King", True), ("Mystic River", False), ("Seabiscuit", False)],
    # a longer term among terms
    [("Leaky rectified linear unit", True), ("tanh", False), ("GELU", False), ("Swish", False)],
    # numbers, formulas and code
    [("12,345.678 kg", True), ("12 kg", False), ("1 kg", False)],
    [("`loss.detach().cpu().numpy().item()`", True), ("`loss.data`", False), ("`loss.cpu()`", False)],
    # 'None of the above' is not compared, and a key that is one is not judged
    [("None of the above", True), ("A", False), ("B", False)],
], ids=["long-distractor", "titles", "terms", "numbers", "code", "meta"])
def test_no_cue_to_the_key_is_no_finding(options, registry):
    assert fired(q(STEM, options), "option-length", registry) == []


def test_a_statement_among_names_is_a_cue(registry):
    options = [("Carbon dioxide released when fossil fuels burn in power plants", True), ("Nitrogen", False),
               ("Oxygen", False), ("Argon", False)]
    assert fired(q("Which gas drives most of the recent warming?", options), "option-length", registry)


def test_several_keys_must_all_be_the_longest(registry):
    long_keys = [("Pinning host memory so that copies run asynchronously", True),
                 ("Several worker processes that prepare batches in parallel", True),
                 ("Shuffling", False), ("A smaller batch", False)]
    (message,) = fired(q("Which two settings speed up copies? (Select two.)", long_keys, select=2), "option-length",
                       registry)
    assert message.startswith("the 2 keys are the 2 longest options by far")
    one_short = [("Pinning host memory so that copies run asynchronously", True), ("Workers", True),
                 ("Shuffling", False), ("A smaller batch", False)]
    assert fired(q("Which two settings speed up copies? (Select two.)", one_short, select=2), "option-length",
                 registry) == []


def test_among_names_only_a_key_that_is_a_statement_is_a_length_cue(registry):
    # a longer name among names is how the names are; a qualified statement among names is the cue
    long_name = [("Leaky rectified linear", True), ("tanh", False), ("GELU", False), ("ReLU", False)]
    assert fired(q("Which activation keeps a small slope for negative inputs?", long_name),
                 "option-length", registry) == []
    statement = [("A rectifier that keeps a small slope for negative inputs", True), ("tanh", False),
                 ("GELU", False), ("Swish", False)]
    assert fired(q("Which activation suits sparse negative inputs best?", statement), "option-length",
                 registry)
    near_key = [("state-sponsored hackers", True), ("black hat hackers", False), ("hacktivists", False),
                ("competitors", False)]
    assert fired(q("Which attackers have the most resources?", near_key), "option-length", registry) == []


# ---- held-out option lists -----------------------------------------------------------------------------------------

ANY_STEM = "Which one is right?"

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
    assert fired(q(ANY_STEM, options), "option-length", registry) == []


@pytest.mark.parametrize("options", UNEVEN, ids=[f"uneven-{i}" for i in range(len(UNEVEN))])
def test_conspicuous_lengths_fire(options, registry):
    assert fired(q(ANY_STEM, options), "option-length", registry)
