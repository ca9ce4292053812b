"""What the bank rules keep of each question, kept small: a million questions stay in memory at once.

The kept positions and features are read-only mappings over a shared tuple of names; keys, tags and objectives are
shared between the questions that have the same ones; near-duplicate-stem keeps its option digests packed and makes
a stem's sorted words only when it compares two stems. None of this may change what a rule reports.
"""
from __future__ import annotations

import json
import pickle
import sys

import pytest

from qlint import items
from qlint.items import Features, Places, one_copy, to_item
from qlint.neardup.stemkey import (DIGEST, MAX_COMPARE_CHARS, bag_of, content_sentences, decode_keys, digest_count,
                                   digest_set, encode_keys, stem_key)
from qlint.rules import key_length_bias, near_duplicate_stem
from qlint.model import Question
from qlint.rules.near_duplicate_stem import Options
from qlint.sourcemap import LoadedQuestion


def _spelled(sentences: list[list[str]]) -> str:
    return " | ".join(" ".join(words) for words in sentences)


def q(id: str = "x", stem: str = "Which port does DNS use by default?", options: list[str] | None = None, key: int = 0,
      **fields) -> Question:
    texts = options or ["53", "80", "443", "22"]
    return Question.model_validate({"id": id, "stem": stem, **fields, "options": [
        {"text": t, "correct": i == key, "rationale": "Correct." if i == key else "Incorrect."}
        for i, t in enumerate(texts)]})


def _loaded(qid: str, line: int = 1, **fields) -> LoadedQuestion:
    question = q(id=qid, **fields)
    return LoadedQuestion(question, "bank/a.yaml", line, 3, {"id": (line, 3), "stem": (line + 1, 5),
                                                             "options": (line + 2, 3), "explanation": (line + 9, 3)})


def test_places_read_as_the_positions_they_were_made_from():
    places = Places({"id": 5, "stem": 7})
    assert dict(places) == {"id": 5, "stem": 7} and places["stem"] == 7 and "id" in places and len(places) == 2
    assert places.get("options") is None and "options" not in places
    with pytest.raises(KeyError):
        places["options"]
    again = pickle.loads(pickle.dumps(places))
    assert again == places and again._names is places._names   # the names are shared, not copied


def test_features_read_as_a_dict_and_cross_processes_whole():
    features = Features({"near-duplicate-stem": ("key",), "reading-level": None})
    assert features.get("reading-level", "absent") is None and features.get("key-length-bias", "absent") == "absent"
    assert list(features) == ["near-duplicate-stem", "reading-level"] and features["near-duplicate-stem"] == ("key",)
    with pytest.raises(KeyError):
        features["key-length-bias"]
    again = pickle.loads(pickle.dumps(features))
    assert again == features and again._names is features._names
    assert sys.getsizeof(features) + sys.getsizeof(features._values) < sys.getsizeof(dict(features))


def test_an_item_keeps_only_the_positions_bank_rules_report_at_and_shares_its_names():
    a, b = to_item(_loaded("a", tags=["net", "dns"], objective="1.2")), to_item(_loaded("b", 20, tags=["net", "dns"],
                                                                                        objective="1.2"))
    assert dict(a.positions).keys() == {"id", "stem", "options"} and a.locate("stem") == (2, 5)
    assert a.locate("options[1].text") == (3, 3) and a.locate("explanation") == (1, 3)   # not kept: the question's
    assert a.tags is b.tags and a.keys is b.keys and a.objective is b.objective


def test_shared_copies_are_bounded(monkeypatch):
    monkeypatch.setattr(items, "_COPIES", {})   # this process's copies as they were, after the test
    for n in range(70000):
        one_copy(("tag", n))
    odd = ("odd", "one")
    assert one_copy(odd) is odd and one_copy(tuple(["odd", "one"])) is not odd   # past the bound, kept as it is


def _key(stem: str, options: list[str], keyed: int = 0):
    return near_duplicate_stem.extract(q(stem=stem, options=options, key=keyed), Options())


def test_option_digests_are_packed_and_read_back():
    key = _key("Which port does DNS use by default?", ["53", "80", "443", "22"], 1)
    assert len(key.choices) == 4 * DIGEST and digest_count(key.choices) == 4 and digest_count(key.keyed) == 1
    assert digest_set(key.keyed) <= digest_set(key.choices)
    assert decode_keys(json.loads(json.dumps(encode_keys([key]))), 1) == [key]   # as the cache stores them


@pytest.mark.parametrize("choices", ["abc", "zz" * DIGEST, "00 11 22 33 44", "00" * (DIGEST + 1)])
def test_a_cached_key_with_digests_out_of_shape_is_refused(choices):
    data = json.loads(json.dumps(encode_keys([_key("Which port does DNS use by default?", ["53", "80", "443"])])))
    data[9] = [choices]
    with pytest.raises(ValueError):
        decode_keys(data, 1)


def test_sorted_words_are_made_from_the_text_and_only_their_length_is_kept():
    key = stem_key("Which protocol resolves names to addresses on a network?")
    assert key.bag == bag_of(key.text) and key.bag_chars == len(key.bag)
    assert key.bag.split() == sorted(key.bag.split())


@pytest.mark.parametrize("stem", [
    "Which protocol resolves names to addresses on a network?",
    "A server is slow. Users complain at noon; the logs show nothing. What should the administrator check first?",
    "Who was the U. S. President in 1990? Name him.",                  # single letters joined, not across a stop
    "Le virus de l'hépatite B :",
    "The patient is 54.\n\nShe takes aspirin.\nWhich drug interacts with it?",
    "x" * 10 + ". " + "A long case study sentence goes on. " * 150 + "\n\nWhich step comes next? Pick one.",
    "",
    ". ; : \n",
])
def test_content_words_are_made_from_the_text_and_its_sentence_ends(stem):
    key = stem_key(stem)
    assert key.core == _spelled(content_sentences(stem))
    assert (key.tail != "") == (len(stem) > MAX_COMPARE_CHARS)
    assert decode_keys(json.loads(json.dumps(encode_keys([key]))), 1)[0].core == key.core


def test_sentence_ends_are_kept_as_a_few_bytes_not_a_second_text():
    key = stem_key("A server is slow. Users complain at noon; the logs show nothing. What should be checked first?")
    assert len(key.ends) == 4 * 3 and key.core.count(" | ") == 3
    assert stem_key("Which protocol resolves names to addresses?").ends == b""


@pytest.mark.parametrize("ends", ["abc", "00" * 3, "zz" * 4])
def test_a_cached_key_with_sentence_ends_out_of_shape_is_refused(ends):
    data = json.loads(json.dumps(encode_keys([stem_key("One sentence. Two sentences?")])))
    data[10] = [ends]
    with pytest.raises(ValueError):
        decode_keys(data, 1)


def test_key_length_groups_that_hold_the_same_questions_are_tested_once():
    long_key = "Each stored loss keeps its whole autograd graph alive on the device"

    def item(i: int, folder: str, objective: str):
        loaded = _loaded(f"q{i}", 10 * i, objective=objective,
                         options=[long_key, "Setting one", "Setting two", "Setting three"])
        made = to_item(LoadedQuestion(loaded.question, f"{folder}/f.yaml", loaded.line, 3, loaded.positions))
        made.features = Features({key_length_bias.RULE.name: key_length_bias.extract(loaded.question,
                                                                                   key_length_bias.Options())})
        return made

    # one folder that is the whole bank, an objective that is that folder too, and many small folders of one size
    same = [item(i, "all", "only") for i in range(30)]
    assert [(g.kind, g.name) for g in key_length_bias.groups(same)] == [("bank", "")]
    many = [item(i, f"part{i // 3}", f"obj{i // 3}") for i in range(3000)]
    found = key_length_bias.groups(many)
    assert len(found) == 1 + 1000   # the bank and each folder; each objective is its folder
    assert all(len(g.items) == 3 for g in found[1:])
