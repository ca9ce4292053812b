"""The words the bank-consistency rules compare: the one normalisation (its fast ASCII path held to the general
one), stems read once, statements, and the records' cache encoding."""
from __future__ import annotations

import re
import string
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from qlint.language.words import normalize
from qlint.neardup.bankwords import _EXHIBIT, _EXHIBIT_CUES, _INLINE_EXHIBIT, _NEGATIVE, _NEGATIVE_CUES, Stem, _codes, \
    ask_digests, one_swap, statement

_PUNCT, _SPACE = re.compile(r"[^\w\s]"), re.compile(r"\s+")


def _general(text: str) -> str:
    """``normalize``'s definition, as its non-ASCII path spells it."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return _SPACE.sub(" ", _PUNCT.sub(" ", text)).strip()


@settings(max_examples=500)
@given(st.text(alphabet=string.printable + "\x00\x01\x1c\x1d\x1e\x1f\x7f", max_size=60))
def test_the_ascii_path_of_normalize_is_the_general_one(text):
    assert normalize(text) == _general(text)


# what the paths of ``normalize`` tell apart: accented Latin letters, decomposed or not, the combining marks (U+034F
# is one that ``unicodedata.combining`` does not count), the typographic punctuation, letters whose case folds oddly,
# compatibility forms that decompose, and whitespace of every kind
_UNICODE_WHITESPACE = [chr(c) for c in range(0x3001) if chr(c).isspace()]
_LATIN = list("éèêàçôÉÀÇœæøßñ‘’“”«»–—…İıſ\u212aﬁ²½№™") + [chr(c) for c in range(0x300, 0x370)]


@settings(max_examples=1500)
@given(st.one_of(st.text(alphabet=st.one_of(st.sampled_from(_LATIN), st.sampled_from(string.printable)), max_size=60),
                 st.text(alphabet=st.one_of(st.sampled_from(_LATIN + _UNICODE_WHITESPACE),
                                            st.sampled_from(string.printable), st.characters()), max_size=60)))
def test_normalize_is_its_definition_on_any_text(text):
    assert normalize(text) == _general(text)


def test_a_stem_says_how_it_asks():
    assert Stem("Which of these is NOT a greenhouse gas?").negative
    assert Stem("Parmi les propositions suivantes, laquelle est fausse ?").negative
    assert not Stem("Why does the cache not help here?").negative   # "not" alone asks for nothing false
    assert Stem("What is the BEST way to store backups?").superlative
    assert Stem("What hero does this phrase belong to?").unseen_exhibit
    assert not Stem('Which film is this quote from: "Here is Johnny"?').unseen_exhibit
    assert not Stem("Refer to the exhibit ![diagram](net.png). Which host is unreachable?").unseen_exhibit


# the words and the marks the stem patterns are made of, in several cases, whole phrases of them, and a few words that
# fold or match oddly
_STEM_WORDS = tuple("""not NOT Not except EXCEPT false FALSE incorrect untrue inaccurate wrong true correct accurate
valid right case fausse fausses inexacte incorrectes sauf est pas this these This the following above shown pictured
displayed below here in refer see exhibit phrase quote clips lyricss photograph screen shot screenshots table Table
maps figure which is wrongly not_true falsehood n’est ıncorrect ſauf thıs tablé""".split()) + (
    "n'est pas", "ne sont pas", "bonne sont pas", "not the case", "not  right", "this screen shot", "these song clips",
    "the following table", "the above lyricss", "shown in the", "depicted here", "refer to the exhibit",
    "see to the exhibit", "the shown photos")
_STEM_MARKS = (" ", "  ", "\n", "\t", ", ", ".", "?", "'", '"', "“", "-", "_", "`", "![", "|", "    ")


def _reads_as_its_patterns_say(text: str) -> None:
    """A stem's cheap tests of its words stand in for its patterns: they never leave out a stem a pattern finds."""
    stem = Stem(text)
    words = frozenset(normalize(text).split())
    assert stem.negative == (not words.isdisjoint(_NEGATIVE_CUES) and _NEGATIVE.search(text) is not None)
    assert stem.unseen_exhibit == (not words.isdisjoint(_EXHIBIT_CUES) and _EXHIBIT.search(text) is not None
                                   and not _INLINE_EXHIBIT.search(text) and '"' not in text and "“" not in text)
    assert stem.asks == [a for _, a in map(_codes, stem.words) if a]
    assert stem.phrase == [p for p, _ in map(_codes, stem.words) if p]


def test_each_phrase_of_a_stem_pattern_is_found_alone():
    for part in _STEM_WORDS:
        for text in (part, f"Which is {part}?", part.upper()):
            _reads_as_its_patterns_say(text)


@settings(max_examples=1000)
@given(st.lists(st.one_of(st.sampled_from(_STEM_WORDS), st.sampled_from(_STEM_MARKS)), max_size=14))
def test_a_stem_is_searched_for_how_it_asks_only_when_its_words_could_match(parts):
    _reads_as_its_patterns_say("".join(parts))


def test_what_a_stem_asks_leaves_out_how_it_says_it():
    def ask(text: str) -> tuple[int, int]:
        return ask_digests(Stem(text))[:2]
    assert ask("Which statement about TCP is true?") == ask("Which statement about TCP is NOT true?")
    assert ask("Which command, actually, lists files?") == ask("Which command lists files")
    assert ask("Which command lists files?") != ask("Which command lists folders?")
    assert ask("Which runs first, `a()` or `b()`?") != ask("Which runs first, `b()` or `a()`?")
    swapped = ask_digests(Stem("Compare Python and Java."))[2], ask_digests(Stem("Compare Java and Python."))[2]
    crossed = (ask_digests(Stem("A male lion and a female tiger"))[2],
               ask_digests(Stem("A female lion and a male tiger"))[2])
    assert one_swap(tuple(swapped[0]), tuple(swapped[1])) and not one_swap(tuple(crossed[0]), tuple(crossed[1]))


def test_statements_compare_prose_loosely_and_code_as_written():
    assert statement("Live Paint.")[0] == statement("live paint")[0]
    assert statement("`pt.1`")[0] != statement("`pt[1]`")[0]
    for relational in ("All of the above", "None of these", "A and B", "I and III only", "Aucune de ces réponses "
                       "n'est exacte", "Both"):
        assert statement(relational) == (0, True), relational
    assert statement("None")[1] and not statement("Nonetheless, it runs")[1]
