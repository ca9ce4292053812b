"""The fast sentence counter and token-memo grade agree with the definitions they replace."""
from __future__ import annotations

import re

import textstat
from hypothesis import given, settings
from hypothesis import strategies as st

from qlint.language import readability

_ALPHABET = st.sampled_from(list("abc XYZ.!?,;'-_()`0123\n") + ["the", "end. ", "Mr. ", "e.g. ", "x.y", "www.a.b "])
TEXTS = st.lists(_ALPHABET, max_size=60).map("".join)


@settings(max_examples=400, deadline=None)
@given(TEXTS)
def test_sentence_count_is_textstats(text: str) -> None:
    assert readability.sentence_count(text) == textstat.sentence_count(text)


# code spans, then URLs, then identifiers, replaced by a one-syllable word in one pass
_NOT_PROSE = re.compile("|".join(f"(?:{p.pattern})" for p in (readability.CODE_SPAN, readability._URL,
                                                                readability._IDENT)))


def _reference_grade(text: str) -> tuple[float, int]:
    """The straightforward definition: one regex pass for code/URLs/identifiers, then Flesch-Kincaid."""
    plain = _NOT_PROSE.sub(" term ", text)
    words = re.findall(r"[A-Za-z]+(?:'[a-z]+)?", plain)
    if not words:
        return 0.0, 0
    sentences = max(1, textstat.sentence_count(plain), len(readability._SENTENCE_END.findall(plain)))
    total = sum(readability.syllables(w) for w in words)
    return 0.39 * len(words) / sentences + 11.8 * total / len(words) - 15.59, len(words)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["Which", "layer", "normalises", "the", "torch.nn.Linear", "snake_case", "camelCase",
                                 "HTTP", "v2", "https://x.org/a", "f()", "is", "used?", "first.", "Then", ",", "\n"]),
                max_size=40).map(" ".join))
def test_grade_matches_reference(text: str) -> None:
    got, want = readability.grade(text), _reference_grade(text)
    assert got[1] == want[1]
    assert abs(got[0] - want[0]) < 1e-9
