"""option-length and key-length-bias: the key is the longest option by a clear margin in a question, or far more often
than chance across the bank, a folder or an objective."""
from __future__ import annotations

import json

import pytest
from helpers import fired, lint_text
from helpers import question as q

from qlint.rules import key_length_bias
from qlint.run.pipeline import run_check

STEM = "Why does storing the loss in a list every step make GPU memory grow?"


# ---- option-length -----------------------------------------------------------------------------------------------------

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


# ---- key-length-bias -------------------------------------------------------------------------------------------------

def _question(qid: str, key: int, long: int, objective: str | None = None) -> str:
    lines = [f"  - id: {qid}", f"    stem: Which setting explains case {qid} of the memory report?"]
    if objective:
        lines.append(f"    objective: {objective}")
    lines.append("    options:")
    for j in range(4):
        text = "Each stored loss keeps its whole autograd graph alive" if j == long else f"Setting {j}"
        lines.append(f"      - {{text: {text}, {'correct: true, ' if j == key else ''}rationale: Reason.}}")
    return "\n".join(lines) + "\n"


def _write(folder, name: str, questions: list[str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text("questions:\n" + "".join(questions), encoding="utf-8")


def _findings(path, **kwargs):
    run = run_check([str(path)], use_cache=False, keep_questions=True, select=["key-length-bias"], **kwargs)
    return run, [f for f in run.findings if f.rule == "key-length-bias"]


def test_a_bank_whose_keys_are_the_longest_gets_one_finding_with_the_numbers(tmp_path):
    # 30 questions, keys evenly over A-D; the long option is the key in 24 of them (chance: a quarter)
    _write(tmp_path / "bank", "a.yaml", [_question(f"q{i}", i % 4, i % 4 if i % 5 else (i + 1) % 4)
                                         for i in range(30)])
    run, (finding,) = _findings(tmp_path / "bank")
    assert finding.question is None and finding.field.startswith("options[")
    assert finding.message.startswith("across the bank, the key is the clearly longest option in 24 of the 30 "
                                      "questions that have one (80%); chance is 25% (exact binomial test, p=")
    assert "; the starkest: q" in finding.message
    table, _, ran = run.published("key-length-bias")
    (bank,) = [g for g in table["groups"] if g["kind"] == "bank"]
    assert ran and bank["questions"] == 30 and bank["key_longest"] == 24 and bank["flagged"]
    assert table["by_options"] == [{"options": 4, "questions": 30, "key_longest": 24, "chance": 0.25}]


def test_chance_and_a_small_tilt_in_a_big_bank_are_no_finding(tmp_path):
    # the long option is the key wherever chance puts it (a quarter of the time)
    _write(tmp_path / "fair", "a.yaml", [_question(f"q{i}", i % 4, (i // 4) % 4) for i in range(64)])
    assert _findings(tmp_path / "fair")[1] == []
    # 2,000 questions, the key is the long option in 30%: significant (p ~ 1e-7), but below 1.5x chance
    _write(tmp_path / "big", "a.yaml", [_question(f"q{i}", i % 4, i % 4 if i % 10 < 3 else (i + 1) % 4)
                                        for i in range(2000)])
    run, found = _findings(tmp_path / "big")
    assert found == []
    (bank,) = [g for g in run.published("key-length-bias")[0]["groups"] if g["kind"] == "bank"]
    assert bank["p_value"] < 1e-5 and not bank["flagged"]


def test_a_folder_or_an_objective_is_reported_where_its_questions_are(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "bank" / "cloud", "a.yaml", [_question(f"c{i}", i % 4, i % 4) for i in range(20)])
    _write(tmp_path / "bank" / "maths", "a.yaml", [_question(f"m{i}", i % 4, (i // 4) % 4) for i in range(60)])
    _write(tmp_path / "bank" / "mixed", "a.yaml", [_question(f"x{i}", i % 4, i % 4 if i % 2 else (i // 4) % 4,
                                                             objective="Caching" if i % 2 else "Paging")
                                                   for i in range(80)])
    run, found = _findings("bank")
    # the cloud folder and the Caching objective; the bank, biased only through them, is not reported again
    assert sorted((f.path, f.message.split(",")[0]) for f in found) == [
        ("bank/cloud/a.yaml", "across bank/cloud/"), ("bank/mixed/a.yaml", "across objective 'Caching'")]
    rows = {(g["kind"], g["name"]): g for g in run.published("key-length-bias")[0]["groups"]}
    assert rows[("folder", "bank/cloud")]["flagged"] and rows[("objective", "Caching")]["flagged"]
    assert not rows[("bank", "")]["flagged"] and not rows[("folder", "bank/maths")]["flagged"]


def test_the_feature_is_cached_and_read_back_exactly():
    features = [key_length_bias.Longest(4, 1, 2, 2.5), key_length_bias.Longest(2, 1, -1, 1.1)]
    data = json.loads(json.dumps(key_length_bias.encode(features)))
    assert key_length_bias.decode(data, 2) == features
    for bad in ([[4, 1, "2", 2.5], [2, 1, -1, 1.1]], [[4, 1, 2]], "x", [[True, 1, 2, 2.5], [2, 1, -1, 1.1]]):
        with pytest.raises(Exception):
            key_length_bias.decode(bad, 2)


def test_a_warm_run_reports_what_a_cold_run_does(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "bank", "a.yaml", [_question(f"q{i}", i % 4, i % 4) for i in range(24)])
    cold = [f.message for f in run_check(["bank"], select=["key-length-bias"]).findings]
    warm = [f.message for f in run_check(["bank"], select=["key-length-bias"]).findings]
    assert cold == warm and len(cold) == 1


# ---- a hand-made bank: the default rules see the cues and stay silent on the clean questions -------------------------

CLEAN = [
    ("Which component of a data loader prepares batches in parallel?",
     [("Worker processes", True), ("The sampler", False), ("The collate function", False)]),
    ("What does gradient checkpointing trade for lower activation memory?",
     [("Extra forward compute", True), ("Lower accuracy", False), ("Larger batches", False)]),
    ("A run in fp16 overflows after a few hundred steps. The same run in fp32 trains well. What should you check "
     "first?", [("Whether the loss scaler skips steps", True), ("Whether the data is shuffled", False),
                ("Whether the learning rate warms up", False)]),
]
CUES = [
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
    text = _bank([(f"clean{i}", stem, options) for i, (stem, options) in enumerate(CLEAN)]
                 + [(f"cue{i}", stem, options) for i, (stem, options, _) in enumerate(CUES)])
    found = lint_text(text, registry)
    assert {(f.question, f.rule) for f in found} == {(f"cue{i}", rule) for i, (_, _, rule) in enumerate(CUES)}
