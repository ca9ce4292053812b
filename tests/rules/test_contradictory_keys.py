"""contradictory-keys: a statement keyed one way in one question and the other way in another that asks the same
thing; which copy is probably wrong; and the cases that only look like it."""
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from helpers import lint_text

from qlint.neardup.keyfacts import extract
from qlint.model import Question
from qlint.neardup.bankwords import decode_records as decode
from qlint.neardup.bankwords import encode_records as encode
from qlint.neardup.bankwords import gather

RULE = "contradictory-keys"


def _q(qid: str, stem: str, options: list[tuple[str, bool] | tuple[str, bool, str]], explanation: str = "") -> str:
    lines = [f"  - id: {qid}", f"    stem: {json.dumps(stem)}", "    options:"]
    for text, key, *why in options:
        rationale = why[0] if why else ("Correct." if key else "Incorrect.")
        lines.append(f"      - {{text: {json.dumps(text)}, correct: {'true' if key else 'false'}, "
                     f"rationale: {json.dumps(rationale)}}}")
    if explanation:
        lines.append(f"    explanation: {json.dumps(explanation)}")
    return "\n".join(lines) + "\n"


def _found(registry, *questions: str) -> dict[str, str]:
    findings = lint_text("questions:\n" + "".join(questions), registry, select=[RULE])
    return {f.question: f.message for f in findings if f.rule == RULE}


STEM = "Which command in the Links panel replaces a linked file with one of another name?"
OPTIONS = ["Placement Options", "Edit Original", "Update Link", "Relink"]


def _copy(qid: str, key: int, stem: str = STEM, rationales: dict[int, str] | None = None, **kw) -> str:
    rationales = rationales or {}
    return _q(qid, stem, [(t, i == key, rationales.get(i, "Correct." if i == key else "Incorrect."))
                          for i, t in enumerate(OPTIONS)], **kw)


def test_two_copies_keyed_differently_name_each_other_and_the_options(registry):
    found = _found(registry, _copy("a", 3), _copy("b", 2))
    assert set(found) == {"a", "b"}
    assert found["a"].startswith("option D 'Relink' is the key here but a distractor of question 'b' at example.yaml:")
    assert "(option D), which asks the same thing; one of them is mis-keyed" in found["a"]
    assert found["b"].startswith("option C 'Update Link' is the key here but a distractor of question 'a'")


def test_the_majority_of_copies_points_at_the_odd_one_out(registry):
    found = _found(registry, _copy("a", 3), _copy("b", 2), _copy("c", 3))
    assert "this copy is probably the mis-keyed one: 2 of 3 copies key it the other way" in found["b"]
    # only 'b' keys 'a''s statement the other way ('c' agrees with 'a'): no "more copies" to name
    assert found["a"].endswith("which asks the same thing; 'b' is probably the mis-keyed one: 2 of 3 copies key it the "
                               "other way")


def test_a_rationale_that_argues_against_its_own_key_points_at_its_copy(registry):
    found = _found(registry, _copy("a", 3), _copy("b", 2, rationales={2: "Incorrect. Update Link reloads the same "
                                                                         "file.", 3: "Correct. Relink picks another."}))
    assert "this copy is probably the mis-keyed one: its rationale for option C calls it incorrect" in found["b"]
    assert "'b' is probably the mis-keyed one" in found["a"]


def test_an_explanation_that_names_another_answer_points_at_its_copy(registry):
    found = _found(registry, _copy("a", 3, rationales={3: "This one."}),
                   _copy("b", 2, rationales={2: "It updates.", 3: "It relinks."}, explanation="Answer: D"))
    assert "this copy is probably the mis-keyed one: its explanation names option D as the answer" in found["b"]


def test_small_edits_still_ask_the_same_thing(registry):
    edited = "Which command in the Links panel, actually, replaces a linked file with one of another name?"
    assert set(_found(registry, _copy("a", 3), _copy("b", 2, stem=edited))) == {"a", "b"}
    swapped = "Which command in the Links panel replaces a linked file with one of another name ?".replace(
        "linked file", "file linked")
    assert set(_found(registry, _copy("a", 3), _copy("b", 2, stem=swapped))) == {"a", "b"}


def test_a_not_question_asks_the_same_thing_the_other_way_round(registry):
    true = _q("t", "Which statement about TCP is true?", [("It retransmits lost segments", True),
                                                        ("It has no handshake", False)])
    not_true_same_key = _q("n", "Which statement about TCP is NOT true?", [("It retransmits lost segments", True),
                                                                         ("It has no handshake", False)])
    found = _found(registry, true, not_true_same_key)
    assert "the question holds it false" in found["n"] and "the other way round" in found["n"]
    consistent = _q("n", "Which statement about TCP is NOT true?", [("It retransmits lost segments", False),
                                                                  ("It has no handshake", True)])
    assert _found(registry, true, consistent) == {}


@pytest.mark.parametrize("a,b", [
    # a different word in the stem asks a different thing
    (_copy("a", 3), _copy("b", 2, stem=STEM.replace("another name", "the same name"))),
    # the same words in another order: who crosses with whom
    (_q("liger", "What is born of a male lion and a female tiger?", [("Liger", True), ("Tigon", False)]),
     _q("tigon", "What is born of a female lion and a male tiger?", [("Liger", False), ("Tigon", True)])),
    # a stem that points at a quote it does not hold: the same words, different quotes
    (_q("p1", "What hero does this phrase belong to?", [("Muradin", True), ("Footman", False), ("Knight", False)]),
     _q("p2", "What hero does this phrase belong to?", [("Muradin", False), ("Footman", True), ("Knight", False)])),
    # "All of the above" keyed: every other option is true there too
    (_q("x1", "Which is a nickname of New York City?", [("The Big Apple", True), ("Gotham", False)]),
     _q("x2", "Which is a nickname of New York City?", [("The Big Apple", False), ("Gotham", False),
                                                        ("All of the above", True)])),
    # a best-of question with other options: the other list holds a better answer
    (_q("b1", "What is the best way to store backups for a decade?", [("Tape", True), ("A USB stick", False)]),
     _q("b2", "What is the best way to store backups for a decade?", [("Tape", False), ("Archive storage", True)])),
    # code options differ by their punctuation
    (_q("c1", "Which selects the second element of the tuple?", [("`pt.1`", True), ("`pt[1]`", False)]),
     _q("c2", "Which selects the second element of the tuple?", [("`pt.1`", True), ("`pt[1]`", False)])),
])
def test_what_only_looks_like_a_contradiction_is_silent(registry, a, b):
    assert _found(registry, a, b) == {}


def test_a_duplicate_option_inside_one_copy_is_no_contradiction(registry):
    doubled = _q("d", STEM, [("Relink", False), ("Edit Original", False), ("Relink", True)])
    assert _found(registry, doubled, _copy("a", 3)) == {}


def test_best_of_questions_that_reject_each_others_key_still_contradict(registry):
    a = _q("b1", "What is the best way to store backups for a decade?", [("Tape", True), ("Archive storage", False)])
    b = _q("b2", "What is the best way to store backups for a decade?", [("Tape", False), ("Archive storage", True)])
    assert set(_found(registry, a, b)) == {"b1", "b2"}


def test_multiple_key_questions_compare_statement_by_statement(registry):
    a = _q("m1", "Une urétrite à gonocoque peut se compliquer de :", [("Stérilité", True), ("Arthrite", True),
                                                                      ("Conjonctivite", True), ("Méningite", False)])
    b = _q("m2", "Une urétrite à gonocoque peut se compliquer de", [("stérilité", True), ("arthrite", True),
                                                                   ("conjonctivite", False), ("Aucune", False)])
    found = _found(registry, a, b)
    assert found["m1"].startswith("option C 'Conjonctivite' is the key here but a distractor of question 'm2'")


def test_records_survive_the_cache_and_their_shape_is_checked():
    questions = [Question.model_validate({"id": f"q{i}", "stem": f"Stem {i}?", "options": [
        {"text": "Yes", "correct": True, "rationale": "Correct."}, {"text": "No", "rationale": "Incorrect."}]})
        for i in range(3)]
    records = [extract(q) for q in questions]
    data = json.loads(json.dumps(encode(records)))
    decoded = decode(data, 3)
    assert len(decoded) == 3 and all(d is decoded[0] for d in decoded)   # one object for the file's questions

    class Item:
        def __init__(self, feature):
            self.features = {"rule": feature}

    whole, lengths = gather([Item(d) for d in decoded] + [Item(records[0]), Item(None)], "rule")
    assert whole == b"".join(records) + records[0] and list(lengths) == [len(r) for r in records] + [len(records[0]), 0]
    assert encode(decoded) == encode(records)
    truncated = __import__("base64").b64encode(__import__("base64").b64decode(data)[:-1]).decode()
    for bad in ([1, 2], "not base64!", truncated, {"x": 1}, data[:8]):
        with pytest.raises(ValueError):
            decode(bad, 3)
    with pytest.raises(ValueError):
        decode(data, 4)   # another count than the file's


def test_warm_runs_report_the_same(run_cli, tmp_path):
    bank = tmp_path / "bank"
    bank.mkdir()
    (bank / "a.yaml").write_text("questions:\n" + _copy("a", 3), encoding="utf-8")
    (bank / "b.yaml").write_text("questions:\n" + _copy("b", 2) + _copy("c", 3), encoding="utf-8")
    runs = [run_cli("check", str(bank), "--select", RULE, "--format", "json", cwd=tmp_path)[1] for _ in range(2)]
    (bank / "b.yaml").write_text("questions:\n" + _copy("b", 3) + _copy("c", 3), encoding="utf-8")
    after = json.loads(run_cli("check", str(bank), "--select", RULE, "--format", "json", cwd=tmp_path)[1])
    assert runs[0] == runs[1] and len(json.loads(runs[0])["findings"]) == 3
    assert after["findings"] == []


def test_a_question_pasted_a_thousand_times_is_compared_in_its_first_copies(registry):
    copies = [_copy(f"p{i}", 3 if i % 2 else 2) for i in range(1200)]
    found = _found(registry, *copies)
    assert 0 < len(found) <= 1000 and all(int(q[1:]) < 1000 for q in found)


@given(st.text(alphabet="![]()\na ", max_size=40))
def test_image_addresses_are_the_patterns_found_in_linear_time(text):
    # the scan gives what the pattern's findall gives; a stem of 60,000 "![" (the pattern's worst case) is one pass
    from qlint.neardup.bankwords import _IMAGE, image_addresses

    assert image_addresses(text) == _IMAGE.findall(text)
    assert image_addresses(text * 3) == _IMAGE.findall(text * 3)


def test_a_stem_of_many_image_openings_is_read_at_once():
    from qlint.neardup.bankwords import image_addresses

    for text in ("![" * 200_000, "![a](" * 100_000, "![a]" * 100_000 + "]", ("![" * 1000 + "\n") * 200):
        assert image_addresses(text) == []   # the pattern's own findall would take minutes on each
    assert image_addresses("![a](b) ![c](d(e)f)") == ["b", "d(e"]
