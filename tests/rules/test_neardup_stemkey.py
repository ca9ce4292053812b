"""near-duplicate-stem's per-question key: the memos and the shortcuts agree with the plain computation."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from qlint.language.stems import key_stem
from qlint.language.words import normalize
from qlint.neardup.stemkey import (_BREAK, CONTENT_STOPWORDS, WordMemo, _joined, _sentences, ask_marks, bag_chars,
                                   bag_of, stem_key)

# normalised words as a stem's head gives them: single letters (joined into one word), stopwords, numbers,
# words with suffixes the stemmer cuts, accented words, and sentence ends
_WORDS = st.lists(st.sampled_from(["a", "b", "u", "s", "1", "2024", "the", "of", "not", "false", "most", "layers",
                                   "scaling", "queue", "deque", "é", "hépatite", "virus", _BREAK, "activation",
                                   "memory", "which", "following", "correct"]), max_size=40)


def _plain_sentences(words: list[str]) -> list[list[str]]:
    """The stemmed content words of each sentence, word by word."""
    out, sentence = [], []
    for word in _joined(words):
        if word == _BREAK:
            if sentence:
                out.append(sentence)
            sentence = []
        elif word not in CONTENT_STOPWORDS and not word.isdigit():
            sentence.append(key_stem(word))
    if sentence:
        out.append(sentence)
    return out


@settings(max_examples=300, deadline=None)
@given(_WORDS)
def test_sentences_are_the_content_stems_between_ends(words):
    assert _sentences(words) == _plain_sentences(words)


@settings(max_examples=300, deadline=None)
@given(_WORDS.map(lambda words: [w for w in words if w != _BREAK]))
def test_bag_chars_is_the_length_of_the_bag(tokens):
    assert bag_chars(tokens) == len(bag_of(" ".join(tokens)))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["Which of the following", "Select the best", "Choose two", "is", "not", "most",
                                 "correct", "true", "answers", "statements", "Which statement", "best describes",
                                 "mark", "the", "following", "?", ".", ":", "\n"]), max_size=20).map(" ".join))
def test_a_keys_ask_marks_are_those_of_every_word_of_its_head_lead_ins_and_all(stem):
    assert stem_key(stem).marks == ask_marks(normalize(stem).split())


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab .?\n:é", max_size=120))
def test_a_keys_bag_chars_is_the_length_of_its_bag(stem):
    key = stem_key(stem)
    assert key.bag_chars == len(key.bag)


def test_a_word_memo_is_emptied_when_full_and_keeps_its_answers():
    memo = WordMemo(str.upper, size=3)
    words = ["a", "b", "c", "d", "a", "e", "b"]
    assert list(map(memo.__getitem__, words)) == [w.upper() for w in words]
    assert len(memo) <= 3
