"""Reading grade of a text, offline and fast.

textstat tokenises words and sentences; syllables come from pyphen (textstat's own
fallback) with a per-word memo. textstat's syllable functions are never called:
from 0.7.10 they fetch NLTK's cmudict over the network on first use, and qlint
must never touch the network (pre-commit.ci and air-gapped CI have none).
"""
from __future__ import annotations

import re
from functools import lru_cache

from qlint.text import CODE_SPAN

_URL = re.compile(r"https?://\S+|www\.\S+")
# identifiers and code-like tokens: dotted or slashed names, calls, snake_case, camelCase, digits, ACRONYMS
_IDENT = re.compile(r"\b\w+(?:[._/\\:]\w+)+(?:\(\))?|\b\w+\(\)|\b\w*_\w*|\b[a-z]+[A-Z]\w*|\b\w*\d\w*|\b[A-Z]{2,}s?\b")
_SENTENCE_END = re.compile(r"[.!?]+(?:\s|$)")


@lru_cache(maxsize=1)
def _hyphenator():
    import pyphen

    return pyphen.Pyphen(lang="en_US")


@lru_cache(maxsize=200_000)
def syllables(word: str) -> int:
    """Syllables in one plain word."""
    word = word.lower()
    if len(word) <= 3:
        return 1
    return len(_hyphenator().positions(word)) + 1


_NOT_PROSE = re.compile("|".join(f"(?:{p.pattern})" for p in (CODE_SPAN, _URL, _IDENT)))


def plain_text(text: str) -> str:
    """Text with code, URLs and identifiers replaced by a one-syllable word, so they do not inflate the grade."""
    return _NOT_PROSE.sub(" term ", text)  # one pass: code spans first, then URLs, then identifiers


def grade(text: str) -> tuple[float, int]:
    """Flesch-Kincaid grade of ``text`` and the number of words it was computed on."""
    import textstat

    plain = plain_text(text)
    words = re.findall(r"[A-Za-z]+(?:'[a-z]+)?", plain)
    count = len(words)
    if count == 0:
        return 0.0, 0
    sentences = max(1, textstat.sentence_count(plain), len(_SENTENCE_END.findall(plain)))
    total = sum(syllables(w) for w in words)
    return 0.39 * count / sentences + 11.8 * total / count - 15.59, count
