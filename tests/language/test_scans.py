"""The cheap tests that decide whether a text is scanned, and the patterns written to be scanned in C, agree with the
plain definitions they stand for, on texts made of the pieces each one looks at."""
from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from qlint.language import readability
from qlint.language.phrases import _META_OPTION, _UNDETERMINED, is_meta
from qlint.language.readability import _ADVERBS, _OPENERS, long_words_in, may_spell, most_words, syllables
from qlint.language.words import CODE_SPAN, MARKUP, plain, strip_code
from qlint.rules.reading_level import _QUOTE_WORDS, _QUOTES, _WORK, _WORK_WORDS

# the characters an ASCII letter matches when case is ignored, besides the ASCII letters
_FOLDED = ["\u0130", "\u0131", "\u017f", "\u212a"]


def _texts(pieces: list[str], max_size: int = 40) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(pieces), max_size=max_size).map("".join)


# ---- where a sentence may end ----------------------------------------------------------------------------------------

# the marks as one alternative after another, each with its own first character
_MARK_ALTERNATIVES = re.compile(r"[.!?…]+[\"')\]”’»]*|[:\n(]|; | (?:--|–|—) | (?=" + _OPENERS + r"\b)|, (?="
                                + _ADVERBS + r"\b)| (?=[A-Z][a-z]+ [A-Za-z])")


@settings(max_examples=1500, deadline=None)
@given(_texts(["a", "The", "the", "However", "To which", "In what", "Besides", "Cloud Watch", " ", ", ", "; ", ";",
               " -- ", " – ", "—", "-", "--", "–", ".", "...", "!?", "…", "\"", ")", "”", "»", ":", "\n", "(", "x", "A",
               "b c", "Foo", "It", "Z", "é"]), st.integers(0, 200), st.integers(0, 200))
def test_marks_are_found_where_the_alternatives_find_them(text, start, end):
    start, end = min(start, len(text)), min(max(start, end), len(text))
    assert (list(readability._marks(text, start, end))
            == [m.span() for m in _MARK_ALTERNATIVES.finditer(text, start, end)])


@settings(max_examples=400, deadline=None)
@given(_texts(["word", " ", "\t", "\n", "\u00a0", "\u2003", "_", "__", "-", "é", "٣", "½", ".", "`", "x_y", "\x1c"]))
def test_words_are_the_tokens_with_a_letter_or_a_digit(text):
    assert readability._words(text) == sum(any(map(str.isalnum, token)) for token in text.split())


# ---- cheap tests before a scan ---------------------------------------------------------------------------------------

@settings(max_examples=600, deadline=None)
@given(_texts(["this ", "these ", "the following ", "THIS ", "Quote", "quotation", "words", "lines", "Lyrics",
               "passage", "letter", "said", "SAID", "wrote", "stated", ", ", ": ", "The", "is ", "a ", "novel",
               "Book", "story", "stories", "song", "plays", "film", "x", " ", "\n", *_FOLDED, "ſaid", "é"]))
def test_a_stem_that_may_not_spell_a_cue_has_no_match_of_it(text):
    if _QUOTES.search(text):
        assert may_spell(text, _QUOTE_WORDS)
    if _WORK.search(text):
        assert may_spell(text, _WORK_WORDS) and may_spell(text, ("this", "these"))


def test_letters_that_fold_to_ascii_are_not_ruled_out():
    text = "Who \u017faid this?"   # a long s, which a pattern that ignores case reads as "s"
    assert _QUOTES.search(text) and may_spell(text, _QUOTE_WORDS)
    assert not may_spell("Which service stores the logs?", _QUOTE_WORDS)


@settings(max_examples=600, deadline=None)
@given(_texts(["All", "all ", "of ", "the ", "above", "None", "none", "neither", "Both", "these", "cannot", "can not",
               "can't", " be ", "BE ", "determined", "known", "found", "not enough information", "data inadequate",
               "I have no comment", "The", "x", " ", "\n", ".", *_FOLDED, "\u0130 have no comment", "é"], 20))
def test_an_option_about_the_others_is_told_as_the_patterns_tell_it(text):
    expected = bool(_META_OPTION.search(text)) or (len(text.split()) <= 12 and bool(_UNDETERMINED.search(text)))
    assert is_meta(text) == expected


@settings(max_examples=400, deadline=None)
@given(_texts(["a", "`x`", "`", "``", "[step]", "[", "]", "[x1]", " ", "\n", "b c"]))
def test_plain_text_is_the_same_without_a_bracket_or_a_backtick(text):
    assert strip_code(text) == CODE_SPAN.sub(lambda m: m.group(0).strip("`"), text)
    assert plain(text) == " ".join(MARKUP.sub(" ", text).split())


# ---- counts worked out in C ------------------------------------------------------------------------------------------

@settings(max_examples=400, deadline=None)
@given(_texts(["word", " ", "\n", ".", "!", "?", ":", "(", "…", "`", "$", "/", "\\", "<", "é", "abcdefghij" * 4], 60))
def test_most_words_counts_tokens_and_splitting_characters(text):
    expected = (len(text) + 1) // 2 if len(text) < 80 else len(text.split()) + sum(map(text.count, ".!?:(…`$/\\<"))
    assert most_words(text) == expected


@settings(max_examples=300, deadline=None)
@given(_texts(["organisation", "Computational", "tree", "the ", "banana", "ANOTHER", "simple", " ", "_", "é",
               "interoperability", "x1y"]))
def test_long_words_are_those_of_three_syllables_also_once_the_memo_is_emptied(text):
    expected = frozenset(w for w in set(re.findall(r"[a-z]{5,}", text.lower())) if syllables(w) >= 3)
    assert long_words_in(text) == expected
    readability._LONG.clear()
    assert long_words_in(text) == expected


def test_the_memo_of_long_words_stays_bounded(monkeypatch):
    monkeypatch.setattr(readability, "MEMO_WORDS", 3)
    readability._LONG.clear()
    assert long_words_in("banana organisation") == {"banana", "organisation"}
    assert long_words_in("interoperability computational simple") == {"interoperability", "computational"}
    assert len(readability._LONG) <= 3
    assert long_words_in("banana simple") == {"banana"}


# ---- what is not prose -----------------------------------------------------------------------------------------------

# what is not prose as one pattern, each alternative from its first character
_OPAQUE = re.compile(
    r"(?P<cut>```[\s\S]*?(?:```|\Z)|~~~[\s\S]*?(?:~~~|\Z)|^[ \t]*\|[^\n]*\|[ \t]*$|!\[[^\[\]\n]*\]\([^()\n]*\)"
    r"|\$\$[^$]*\$\$|\\(?:begin|end)\{[^}\n]{0,40}\}|\\\\|\\hline|<br\s*/?>|</?p>)"
    r"|(?P<word>`[^`\n]+`|(?:https?://|www\.)[^\s<>]*[^\s<>.,;:!?)\]'\"]|\$[^$\n]{1,300}\$"
    r"|\"[^\"\n]{40,2000}\"|“[^“”\n]{40,2000}(?:”|$)|‘[^‘’\n]{40,2000}(?:’|$)"
    r"|(?i:lyrics|quote|quotation|commented|wrote)[^:\n]{0,30}: [^\n]{1,2000})",
    re.M)


@settings(max_examples=800, deadline=None)
@given(_texts(["```", "~~~", "`", "code", "|", " | ", "\n|", "\n  |", "\t", "![i](p)", "![", "](", ")", "$$", "$",
               "x", "\\begin{a}", "\\end{b}", "\\\\", "\\hline", "\\", "<br>", "<br />", "<p>", "</p>", "<", "http://a.b",
               "https://", "www.", "www.a.b/c.", ".", "\"", "“", "”", "‘", "’", "a quotation of forty characters or so ",
               "lyrics", "LYRICS", "Quote", "quotation", "commented", "Wrote", ": ", ":", " ", "\n", "é"], 40))
def test_what_is_not_prose_is_found_as_the_one_pattern_finds_it(text):
    expected = [(m.span(), m.group("word") is not None) for m in _OPAQUE.finditer(text)]
    assert [(m.span(), m.group("word") is not None) for m in readability._not_prose(text)] == expected


# ---- a text without a mark -------------------------------------------------------------------------------------------

def _split(text: str) -> list[readability.Sentence]:
    splitter = readability._Splitter(text)
    splitter.prose(0, len(text))
    splitter.close(len(text))
    return splitter.out


@settings(max_examples=800, deadline=None)
@given(_texts(["word", "Word", " ", "\t", "\u00a0", "\u2003", "\x1c", "\x85", "_", "-", "é", "٣", "½", "'", "*", "x_y",
               "Cloud Watch", "\n", ".", "`"], 30))
def test_a_text_without_a_mark_is_split_as_the_splitter_splits_it(text):
    if readability._MARK.search(text) is None and not any(c in text for c in readability._OPAQUE_STARTS):
        assert readability.sentences(text) == _split(text)
    start = next((i for i, c in enumerate(text) if not c.isspace()), None)
    splitter = readability._Splitter(text)
    splitter.add(0, len(text))
    words = len([t for t in text.split() if any(map(str.isalnum, t))])
    assert (splitter.start, splitter.words) == ((start, words) if words else (None, 0))
