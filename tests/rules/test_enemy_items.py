"""enemy-items: a question whose stem, explanation or keyed statement states another's key, in words about what
that question asks; and the mentions that give nothing away."""
from __future__ import annotations

import json
from array import array

import pytest
from helpers import lint_text

from qlint.model import Question
from qlint.neardup.bankwords import decode_records, encode_records
from qlint.neardup.giveaway import extract
from qlint.neardup.giveawaysearch import join

RULE = "enemy-items"


def _q(qid: str, stem: str, key: str, others: tuple[str, ...] = ("Scott Summers", "Bruce Banner"),
       explanation: str = "", select: int = 1) -> str:
    lines = [f"  - id: {qid}", f"    stem: {json.dumps(stem)}", f"    select: {select}", "    options:",
             f"      - {{text: {json.dumps(key)}, correct: true, rationale: Correct.}}"]
    lines += [f"      - {{text: {json.dumps(o)}, rationale: Incorrect.}}" for o in others]
    if explanation:
        lines.append(f"    explanation: {json.dumps(explanation)}")
    return "\n".join(lines) + "\n"


ASKS = _q("asks", "What is the real name of the X-Men member Wolverine?", "James Howlett")


def _found(registry, *questions: str, options: dict | None = None) -> dict[str, list[str]]:
    findings = lint_text("questions:\n" + "".join(questions), registry, select=[RULE],
                         options={RULE: options} if options else None)
    out: dict[str, list[str]] = {}
    for f in findings:
        if f.rule == RULE:
            out.setdefault(f.question, []).append(f.message)
    return out


def test_a_stem_that_states_the_key_is_reported_on_both_questions(registry):
    gives = _q("gives", "Wolverine's real name is James Howlett. Which comic first featured him?", "Hulk #181",
               ("X-Men #1", "Avengers #4"))
    found = _found(registry, ASKS, gives)
    assert found["gives"] == ["this question's stem states 'James Howlett', the key of question 'asks' at "
                              "example.yaml:3, and speaks of what that question asks (3 of the 5 content words it asks stand "
                              "around it, 52% by rarity): keep the two off one form"]
    assert found["asks"] == ["the key 'James Howlett' is stated in the stem of question 'gives' at example.yaml:10, "
                             "which speaks of what this question asks (3 of the 5 content words it asks stand around it, 52% "
                             "by rarity): keep the two off one form"]


def test_an_explanation_or_a_keyed_statement_gives_it_away_too(registry):
    explained = _q("explained", "Which comic first featured Wolverine?", "Hulk #181", ("X-Men #1", "Avengers #4"),
                   explanation="Wolverine, whose real name is James Howlett, first appeared in a Hulk comic.")
    every = {"fields": ["stem", "options", "explanation"]}
    assert "explanation states 'James Howlett'" in _found(registry, ASKS, explained, options=every)["explained"][0]
    assert _found(registry, ASKS, explained) == {}   # explanations only when asked: no exam form shows them
    stated = _q("stated", "Which of these is true of the X-Men?", "Wolverine's real name is James Howlett",
                ("Cyclops can fly", "Storm is a telepath"))
    assert "keyed option states 'James Howlett'" in _found(registry, ASKS, stated)["stated"][0]
    # ... unless that question asks for the false statement: its key then states nothing true
    denied = stated.replace("Which of these is true of the X-Men?", "Which of these is NOT true of the X-Men?")
    assert _found(registry, ASKS, denied) == {}


@pytest.mark.parametrize("other", [
    # named in passing: nothing around it speaks of a real name or of Wolverine
    _q("passing", "James Howlett is also a name used in a spy novel. Which genre is that novel?", "Thriller",
       ("Romance", "Poetry")),
    # the key stands in its own stem: nothing left to give away
    _q("own", "Which comic first featured Wolverine?", "Hulk #181", ("X-Men #1", "Avengers #4")),
    # a keyed option that is only the answer, not a statement about it
    _q("answer", "Who is Wolverine's alter ego in the comics?", "James Howlett", ("Logan Smith", "Kurt Wagner")),
])
def test_mentions_that_give_nothing_away_are_silent(registry, other):
    assert _found(registry, ASKS, other) == {}


def test_a_key_stated_in_its_own_stem_is_no_phrase_to_find(registry):
    own = _q("own", "James Howlett is Wolverine's real name. What is the real name of Wolverine?", "James Howlett")
    gives = _q("gives", "Wolverine's real name is James Howlett. Which comic first featured him?", "Hulk #181",
               ("X-Men #1", "Avengers #4"))
    assert _found(registry, own, gives) == {}


def test_a_stock_phrase_is_no_give_away(registry):
    key = _q("k", "Which structure lets a breadth-first search visit nodes in first-in first-out order?",
             "a queue data structure", ("a stack", "a heap"))
    many = [_q(f"m{i}", f"Program {i} runs a breadth-first search over a graph with a queue data structure to visit "
                        f"nodes in first-in first-out order. What does line {i} print?", f"Line {i} output",
               ("Other", "Else")) for i in range(7)]
    assert set(_found(registry, key, *many[:2])) >= {"k", "m0"}
    assert _found(registry, key, *many) == {}


@pytest.mark.parametrize("asks", [
    _q("value", "What does this print? `console.log({name: 'Lydia', age: 22})`", '`{name: "Lydia", age: 22}`'),
    _q("negative", "Which of these is NOT the real name of an X-Men member?", "James Howlett"),
    _q("yes", "Is Wolverine's real name a secret?", "Yes", ("No",)),
])
def test_keys_that_are_values_answers_of_not_questions_or_single_words_are_not_looked_for(registry, asks):
    gives = _q("gives", "Wolverine's real name is James Howlett and he once said Yes to {name: 'Lydia', age: 22}. "
                        "Which comic first featured him?", "Hulk #181", ("X-Men #1", "Avengers #4"))
    assert _found(registry, asks, gives) == {}


def test_questions_that_share_their_stem_are_left_to_near_duplicate_stem(registry):
    a = _q("a", "Six people are seated in a row: Ann, Ben, Cal, Dee, Eve and Fay. Ann sits next to Ben. Which pair "
                "can sit at the ends?", "Ann and Fay", ("Ben and Cal", "Dee and Eve"))
    b = _q("b", "Six people are seated in a row: Ann, Ben, Cal, Dee, Eve and Fay. Ann sits next to Ben. If Ann and "
                "Fay sit at the ends, who sits third?", "Cal", ("Dee", "Eve"))
    assert _found(registry, a, b) == {}


def test_fields_can_be_narrowed(registry):
    explained = _q("explained", "Which comic first featured Wolverine?", "Hulk #181", ("X-Men #1", "Avengers #4"),
                   explanation="Wolverine, whose real name is James Howlett, first appeared in a Hulk comic.")
    assert _found(registry, ASKS, explained, options={"fields": ["stem"]}) == {}


def test_records_are_words_and_survive_the_cache():
    questions = [Question.model_validate({"id": f"q{i}", "stem": f"What is the real name of hero {i}?",
                                          "explanation": "Because.",
                                          "options": [{"text": "James Howlett", "correct": True}, {"text": "No one"}]})
                 for i in range(3)]
    records = [extract(q) for q in questions]
    assert all(len(r) % 4 == 0 for r in records)
    data = json.loads(json.dumps(encode_records(records)))
    decoded = decode_records(data, 3, unit=4)
    assert decoded[0].data == b"".join(records) and list(decoded[0].lengths) == [len(r) for r in records]
    odd = encode_records([records[0][:-1], records[1], records[2]])
    with pytest.raises(ValueError):   # a record that is not a whole number of words
        decode_records(odd, 3, unit=4)
    bad = records[0][:4] + b"\xff\xff\xff\xff" + records[0][8:]
    with pytest.raises(ValueError):   # counts that point past the record are refused, never read
        join(bad, array("I", [len(bad)]))


def test_stats_and_the_report_list_the_pairs(run_cli, tmp_path):
    bank = tmp_path / "bank"
    bank.mkdir()
    gives = _q("gives", "Wolverine's real name is James Howlett. Which comic first featured him?", "Hulk #181",
               ("X-Men #1", "Avengers #4"))
    copy = ("  - id: {id}\n    stem: Which command in the Links panel replaces a linked file with one of another "
            "name?\n    options:\n      - {{text: Relink, {a}rationale: Because.}}\n"
            "      - {{text: Update Link, {b}rationale: Because.}}\n")
    (bank / "bank.yaml").write_text("questions:\n" + ASKS + gives + copy.format(id="c1", a="correct: true, ", b="")
                                    + copy.format(id="c2", a="", b="correct: true, "), encoding="utf-8")
    code, out, _ = run_cli("stats", str(bank), "--format", "json", "--extend-select", RULE, cwd=tmp_path)
    data = json.loads(out)
    assert data["enemies"] == [{"gives": {"id": "gives", "path": "bank/bank.yaml", "line": 10},
                                "answers": {"id": "asks", "path": "bank/bank.yaml", "line": 3},
                                "field": "stem", "key": "James Howlett"}]
    assert [c["id"] for c in data["contradictions"][0]["copies"]] == ["c1", "c2"]
    assert "blueprint" not in data   # no blueprint configured
    code, out, _ = run_cli("stats", str(bank), "--width", "200", "--extend-select", RULE, cwd=tmp_path)
    assert "Questions that give each other away (1)" in out and "Keys that contradict each other (2)" in out
    code, _, _ = run_cli("report", str(bank), "-o", str(tmp_path / "r.html"), "--extend-select", RULE, cwd=tmp_path)
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert '<section id="enemies"><h2>Enemy items</h2>' in page and "James Howlett" in page
    assert '<section id="contradictions"><h2>Contradictory keys</h2>' in page


def test_a_bank_of_one_phrase_everywhere_stays_bounded(registry):
    # every question's key is the same phrase and every stem states it: a stock phrase, found at once, and the work
    # stays linear (the phrase's first words stand in too many places to be looked for one by one)
    many = "".join(_q(f"q{i}", f"The answer is James Howlett, the real name of hero {i}. What is step {i}?",
                      "James Howlett", ("Logan Smith", f"Other {i}")) for i in range(2100))
    assert _found(registry, many) == {}


def test_a_warm_run_and_a_run_after_an_edit_report_what_a_fresh_run_does(run_cli, tmp_path):
    bank = tmp_path / "bank"
    bank.mkdir()
    gives = _q("gives", "Wolverine's real name is James Howlett. Which comic first featured him?", "Hulk #181",
               ("X-Men #1", "Avengers #4"))
    (bank / "a.yaml").write_text("questions:\n" + ASKS, encoding="utf-8")
    (bank / "b.yaml").write_text("questions:\n" + gives + _q("other", "Who founded the X-Men?", "Charles Xavier"),
                                 encoding="utf-8")

    def findings(*extra: str) -> list:
        out = run_cli("check", str(bank), "--select", RULE, "--format", "json", *extra, cwd=tmp_path)[1]
        return json.loads(out)["findings"]
    cold, warm = findings(), findings()
    assert cold == warm and len(cold) == 2
    (bank / "b.yaml").write_text("questions:\n" + gives.replace("James Howlett", "a secret"), encoding="utf-8")
    assert findings() == findings("--no-cache") == []
