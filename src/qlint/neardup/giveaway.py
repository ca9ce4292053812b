"""Questions that give each other away: one question's stem, explanation or keyed statement states another's key.

Per question (with its file, in the workers, and cached) a record keeps its key as a phrase of word numbers (when
the key is a phrase worth finding: two content words or more, not in its own stem), and the words of the texts
where another's key may stand. The bank-wide search (``qlint.neardup.giveawaysearch``, numpy) joins every record into one
array of 32-bit words and finds each key's first two words in every text at once, then confirms the whole phrase,
drops phrases found in many questions (stock phrases), and keeps a find only where the words around it speak of what
the key's own stem asks (a key named in passing gives nothing away). This module is plain Python, so that a run
which only extracts records never imports numpy.

A record is bytes, a whole number of 32-bit words long (so that the bank's records, joined, are one array of
words): three header words of flags and counts, the key's words, the stem's, the explanation's, the keyed
statements' (each stretch of text ended by a 0 word, which no word's number is), then the key's short text for
messages.
"""
from __future__ import annotations

import struct
from array import array

from qlint.language.words import short
from qlint.model import Question
from qlint.neardup.bankwords import CONTENT_BIT, phrase_codes, read_stem, statement

_HEADER = struct.Struct("<BBHHHHH")   # flags, key words, stem words, explanation words, statement words, quote bytes, 0
HEADER_WORDS = 3
KEYED, NEGATIVE_STEM = 1, 2   # flags: the key is a phrase to look for; the stem asks for what is false
# a stem that asks for what does not hold: its key is no fact another question could state
_DENIES = frozenset("not cannot can t never except false incorrect untrue least fausse fausses inexacte inexactes "
                    "sauf pas".split())
MIN_CONTENT, MAX_KEY = 2, 12
MAX_STEM, MAX_EXPLANATION, MAX_STATEMENTS = 400, 300, 120
QUOTE_CHARS = 60


def _contains(words: list[int], phrase: list[int]) -> bool:
    """Whether ``phrase`` stands in ``words`` as a whole (a search of their bytes, at word boundaries only)."""
    if not phrase:
        return False
    haystack, needle = array("I", words).tobytes(), array("I", phrase).tobytes()
    at = haystack.find(needle)
    while at >= 0 and at % 4:
        at = haystack.find(needle, at + 1)
    return at >= 0


def _phrase(text: str) -> bool:
    """Whether a key is a phrase another text could state: not "All of the above", and, written as code, one name
    (`justify-content`, `server.listen`), not a value with spaces, quotes or brackets."""
    spelled = " ".join(text.split())
    if statement(text)[1] or any(c in spelled for c in "{}[]"):
        return False
    return not ("`" in spelled and any(c in spelled.strip("`.") for c in " \"',"))


def extract(question: Question, explanations: bool = False) -> bytes:
    """A question's record: its key as a phrase (if it is one worth finding), and the words of its stem, its keyed
    statements and (with ``explanations``) its explanation."""
    asked = read_stem(question.stem)
    # every stretch of text ends with a 0 word: joined for the whole bank, no phrase runs from one into the next
    stem = asked.phrase[:MAX_STEM] + [0]
    explanation = (phrase_codes(question.explanation)[:MAX_EXPLANATION] + [0]
                   if explanations and question.explanation else [])
    keys = [o for o in question.options if o.correct]
    keyed = [phrase_codes(o.text) for o in keys]
    statements: list[int] = []
    for words in keyed:
        if len(words) >= 4 and len(statements) + len(words) < MAX_STATEMENTS:
            statements += words + [0]    # 0 ends a statement: a phrase never runs from one into the next
    key: list[int] = []
    flags = NEGATIVE_STEM if asked.negative else 0
    # the key of a question about a clip or a picture it does not show is no fact another question's words state
    if (len(keys) == 1 and question.select == 1 and asked.vocabulary.isdisjoint(_DENIES)
            and _phrase(keys[0].text) and not asked.unseen_exhibit):
        words = keyed[0]
        content = sum(1 for w in words if w & CONTENT_BIT)
        if content >= MIN_CONTENT and len(words) <= MAX_KEY and not _contains(stem[:-1], words):
            key, flags = words, flags | KEYED
    quote = short(keys[0].text, QUOTE_CHARS).encode("utf-8", "surrogatepass") if key else b""
    quote += b" " * (-len(quote) % 4)
    words = key + stem + explanation + statements
    return (_HEADER.pack(flags, len(key), len(stem), len(explanation), len(statements), len(quote), 0)
            + struct.pack(f"<{len(words)}I", *words) + quote)
