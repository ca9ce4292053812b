"""Small, shared text helpers for rules: words, normalisation, numbers. No I/O, no state."""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

WORD = re.compile(r"[A-Za-z0-9]+(?:['’][A-Za-z]+)*")
_SPACE = re.compile(r"\s+")
_PUNCT = re.compile(r"[^\w\s]")
CODE_SPAN = re.compile(r"`[^`]*`")
IDENTIFIER = re.compile(r"\b\w*(?:[_./]\w+|\(\)|\w[a-z][A-Z])\w*(?:\(\))?")


class WordMemo(dict):
    """A bounded memo of a per-word function: ``memo[word]`` computes ``fn(word)`` once, later reads are a dict
    hit (so ``map(memo.__getitem__, words)`` runs in C). Words are Zipfian: a memo cleared when it outgrows
    ``limit`` keeps nearly every hit while a run's memory stays bounded."""

    def __init__(self, fn, limit: int = 500_000) -> None:
        super().__init__()
        self.fn, self.limit = fn, limit

    def __missing__(self, key):
        if len(self) >= self.limit:
            self.clear()
        value = self[key] = self.fn(key)
        return value


class AsciiRuns:
    """``runs(text)``: the maximal runs of the given ASCII characters in an ASCII text, as ``re.findall`` of
    ``[chars]+`` gives them, by one C translate and split (several times faster than the regex, which steps
    through every character in Python's engine); None for a non-ASCII text, where the caller's regex decides."""

    def __init__(self, chars: str) -> None:
        keep = frozenset(chars.encode("ascii"))
        self.table = bytes(b if b in keep else 32 for b in range(256))

    def __call__(self, text: str) -> list[str] | None:
        if not text.isascii():
            return None
        return text.encode("ascii").translate(self.table).decode("ascii").split()


_NOT_DIGITS = bytes(b for b in range(256) if not 48 <= b <= 57)


def has_digit(text: str) -> bool:
    """Whether ``re.search(r"\\d", text)`` finds one: for ASCII text by deleting every other byte in C."""
    if text.isascii():
        return bool(text.encode("ascii").translate(None, _NOT_DIGITS))
    return _DIGIT.search(text) is not None


_DIGIT = re.compile(r"\d")


def words(text: str) -> list[str]:
    """Word tokens in their original case."""
    return WORD.findall(text)


# ASCII punctuation (``[^\w\s]`` on ASCII: everything printable but letters, digits and "_") becomes a space
_ASCII_PUNCT = str.maketrans({c: " " for c in "!\"#$%&'()*+,-./:;<=>?@[\\]^`{|}~"})


def normalize(text: str) -> str:
    """Lowercase, accents folded, punctuation dropped, whitespace collapsed."""
    if text.isascii():
        # the same as the general path below, by translation: \s on ASCII is exactly what str.split() splits on,
        # and the ASCII control characters other than whitespace are \W and not \s: they become spaces too
        text = text.lower().translate(_ASCII_PUNCT)
        if not text.isprintable():
            text = _PUNCT.sub(" ", text)
        return " ".join(text.split())
    else:
        text = unicodedata.normalize("NFKD", text)
        text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return _SPACE.sub(" ", _PUNCT.sub(" ", text)).strip()


STOPWORDS = frozenset("""
a about above after again against all am an and any are as at be because been before being below
between both but by can could did do does doing down during each few for from further had has have
having he her here hers herself him himself his how i if in into is it its itself just me more most
my myself no nor not now of off on once only or other our ours ourselves out over own same she
should so some such than that the their theirs them themselves then there these they this those
through to too under until up very was we were what when where which while who whom why will with
would you your yours yourself yourselves following best likely most least true statement describes
correct answer question option options
""".split())


@lru_cache(maxsize=65536)
def stem_word(word: str) -> str:
    """A light suffix-stripping stemmer: enough to match 'layers' with 'layer', 'scaling' with 'scale'."""
    w = word.lower()
    for suffix, keep in (("ational", "ate"), ("ization", "ize"), ("iveness", "ive"), ("fulness", "ful"),
                         ("ousness", "ous"), ("ements", ""), ("ement", ""), ("ments", ""), ("ment", ""),
                         ("ities", ""), ("ity", ""), ("ings", ""), ("ing", ""), ("edly", ""), ("ies", "y"),
                         ("ied", "y"), ("es", ""), ("ed", ""), ("ly", ""), ("s", "")):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: len(w) - len(suffix)] + keep
            break
    if len(w) > 4 and w.endswith("e"):
        w = w[:-1]
    return w


def content_words(text: str, min_length: int = 4) -> set[str]:
    """Stemmed content words: stop words and short words dropped."""
    return {stem_word(w) for w in words(text) if len(w) >= min_length and w.lower() not in STOPWORDS}


_NUMBER = re.compile(
    r"^\s*(?P<sign>[-−+]?)\s*(?P<cur>[$€£¥])?\s*(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d*\.\d+|\d+)"
    r"(?:\s*/\s*(?P<den>\d+(?:\.\d+)?))?\s*(?P<unit>%|[A-Za-zµ°²³/.\s]{0,14})\s*$")


def parse_number(text: str) -> tuple[float, str] | None:
    """A number written as an option ('3', '-2.5', '1,000', '3/4', '$12', '45%', '96 men') -> (value, unit)."""
    match = _NUMBER.match(text)
    if match is None:
        return None
    value = float(match.group("num").replace(",", ""))
    if match.group("den"):
        den = float(match.group("den"))
        if den == 0:
            return None
        value /= den
    if match.group("sign") in ("-", "−"):
        value = -value
    unit = (match.group("unit") or "").strip().rstrip(".").lower()
    return value, unit
