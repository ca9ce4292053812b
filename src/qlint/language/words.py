"""Words and characters of a text: tokens, normalisation, markup and code, cheap tests. No I/O, no state."""
from __future__ import annotations

import re
import string
import unicodedata
from functools import lru_cache

# a word as the cue rules read it: letters, then letters, apostrophes and hyphens
WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*")
CODE_SPAN = re.compile(r"`[^`]*`")
# a Markdown image, or an HTML one (alt text and address hold no brackets: a scan stops at the next one)
IMAGE = re.compile(r"!\[[^\[\]\n]*\]\([^()\n]*\)|<img\b", re.I)
# "[title]", "[step]" markers of how-to sources; never content
MARKUP = re.compile(r"\[[a-z]+\]")
# runs of lower-case letters and digits (what ``lower_words`` and the term lists compare)
LOWER_ALNUM = re.compile(r"[a-z0-9]+")
_SPACE = re.compile(r"\s+")
_PUNCT = re.compile(r"[^\w\s]")
_DIGIT = re.compile(r"\d")
_IDENT_TOKEN = re.compile(r"^[\w.\[\]()'\"=,:*+\-/<>]+$")
# what makes a lone token code: a mark of a name's parts, a call, an index or an assignment, or camelCase
_CODE_MARK = re.compile(r"[_.()\[\]=]|[a-z][A-Z]")


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
_LOWER_ALNUM_RUNS = AsciiRuns(string.ascii_lowercase + string.digits)


def has_digit(text: str) -> bool:
    """Whether ``re.search(r"\\d", text)`` finds one: for ASCII text by deleting every other byte in C."""
    if text.isascii():
        return bool(text.encode("ascii").translate(None, _NOT_DIGITS))
    return _DIGIT.search(text) is not None


# ASCII text, as bytes: upper case to lower, punctuation (``[^\w\s]`` on ASCII: everything printable but letters,
# digits and "_") and the control characters to a space
_ASCII_FOLD = bytes(c + 32 if 65 <= c <= 90 else 32 if chr(c) in "!\"#$%&'()*+,-./:;<=>?@[\\]^`{|}~" or c < 32 or c == 127
                    else c for c in range(256))


# what accented Latin text is once decomposed, but ASCII: the combining accents of U+0300-U+036F (deleted, as every
# combining character is) and the typographic punctuation around it (each a space, as ``[^\w\s]`` makes it); found
# by patterns of sets, which skip through the rest of the text in C
_LATIN_ACCENTS = re.compile("[" + "".join(chr(c) for c in range(0x300, 0x370) if unicodedata.combining(chr(c))) + "]+")
_LATIN_PUNCT = re.compile("[\u2018\u2019\u201c\u201d\u00ab\u00bb\u2013\u2014\u2026]")


def normalize(text: str) -> str:
    """Lowercase, accents folded, punctuation dropped, whitespace collapsed."""
    if text.isascii():
        # the same as the general path below, by one C translation of the bytes: \s on ASCII is exactly what
        # str.split() splits on, and the ASCII control characters other than whitespace are \W and not \s: they
        # become spaces too, so that what is left to split at is spaces, where the bytes' split splits
        return b" ".join(text.encode("ascii").translate(_ASCII_FOLD).split()).decode("ascii")
    text = unicodedata.normalize("NFKD", text)
    bare = _LATIN_PUNCT.sub(" ", _LATIN_ACCENTS.sub("", text))
    if bare.isascii():   # accented Latin text (most of a French bank): the ASCII path, not a loop over characters
        return b" ".join(bare.encode("ascii").translate(_ASCII_FOLD).split()).decode("ascii")
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return _SPACE.sub(" ", _PUNCT.sub(" ", text)).strip()


def plain(text: str) -> str:
    """Markup removed, whitespace collapsed (a text without a bracket has no markup to remove)."""
    return " ".join((MARKUP.sub(" ", text) if "[" in text else text).split())


def strip_code(text: str) -> str:
    """Backticked spans replaced by their contents (for measuring prose that quotes code; a text without a backtick
    has none)."""
    return CODE_SPAN.sub(lambda m: m.group(0).strip("`"), text) if "`" in text else text


def short(text: str, limit: int = 60) -> str:
    """One line of an option or stem for a message."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def words_in(text: str) -> int:
    """How many alphabetic words a text has."""
    return len(re.findall(r"[A-Za-z]+", text))


@lru_cache(maxsize=512)
def lower_words(text: str) -> frozenset[str]:
    """The lower-case runs of letters and digits of a text; shared by the term rules, which scan the same stem
    and options."""
    lower = text.lower()
    runs = _LOWER_ALNUM_RUNS(lower)
    return frozenset(LOWER_ALNUM.findall(lower) if runs is None else runs)


def is_numeric(text: str) -> bool:
    """Mostly digits and symbols: a number, a formula, a date."""
    t = text.strip()
    if not _DIGIT.search(t):
        return False
    return sum(map(str.isalpha, t)) <= max(3, len(t) // 3)


def is_code(text: str) -> bool:
    """The option is code: a backticked span, a multi-line block, or a lone identifier/call like ``x.grad``."""
    t = text.strip()
    if "\n" in t or (t.startswith("`") and t.endswith("`")):
        return True
    if " " not in t and _IDENT_TOKEN.match(t) and _CODE_MARK.search(t):
        return True
    return False


# the small words a title leaves in lower case ("The Lord of the Rings", "Le Rouge et le Noir")
_TITLE_SMALL = frozenset("a an and as at but by for from in into nor of on or the to with vs de des du et la le les "
                         "l d un une".split())
_TITLE_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")


def is_title(text: str) -> bool:
    """A name or a title rather than a statement: nearly every word that is not a small word is capitalised
    ("Amazon Simple Storage Service", "The Return of the King", "Martin Luther King, Jr.")."""
    words = [w for w in _TITLE_WORD.findall(text) if w.lower() not in _TITLE_SMALL]
    return bool(words) and sum(w[0].isupper() for w in words) >= 0.75 * len(words)
