"""Phrases: readable phrase templates as regexes, options that are about the other options, and the clause
of a stem that asks."""
from __future__ import annotations

import re
from functools import lru_cache

# an option label the source left in the text: "(D)", "D)", "d.", "4." (the spaces possessive: neither a label nor
# what follows starts with a space, and a run of spaces handed back one at a time made a long one quadratic)
LABEL = r"^\s*+(?:\(?[a-hA-H1-8]\)|[a-hA-H1-8]\.)?\s*+"
# options that are about the other options, not answers: they are naturally of another length/form
_META_OPTION = re.compile(
    r"^\s*(?:all|none|neither|both)\s+(?:of\s+)?(?:the\s+)?(?:above|these|those|them|of these)\b|"
    r"^\s*(?:none|cannot be determined|can ?not be determined|not enough information|data inadequate|"
    r"i have no comment)\W*$", re.I)
_UNDETERMINED = re.compile(r"\b(?:can ?not|can't) be (?:determined|calculated|found|known)\b", re.I)


def phrase_regex(template: str) -> str:
    """'all [of] [the] {above|these}' -> all\\s+(?:of\\s+)?(?:the\\s+)?(?:above|these)\\b."""
    tokens = template.split()
    out = []
    for k, tok in enumerate(tokens):
        last = k == len(tokens) - 1
        if tok.startswith("[") and tok.endswith("]"):
            out.append(rf"(?:{_alts(tok[1:-1])}\s+)?")
        else:
            out.append(_alts(tok.strip("{}")) + ("" if last else r"\s+"))
    return "".join(out) + r"(?![\w-])"


def _alts(body: str) -> str:
    return "(?:" + "|".join(re.escape(a) for a in body.split("|")) + ")"


# the letters an option about the other options opens with (after any spaces), in either case; "İ" and "ı" are what
# else matches "i" when case is ignored
_META_FIRST = frozenset("aAbBcCdDiInN\u0130\u0131")


def is_meta(text: str) -> bool:
    """About the other options, or "the value cannot be determined (from the information given)". A text is scanned
    only for what it can hold: the first pattern opens with one of _META_FIRST, and every match of the second has
    " be " in it (in a case no other character folds to)."""
    return ((text.lstrip()[:1] in _META_FIRST and bool(_META_OPTION.search(text)))
            or (" be " in text.lower() and len(text.split()) <= 12 and bool(_UNDETERMINED.search(text))))


_SENTENCES = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(\[])|\n+")
_WH = re.compile(r"^(?:what|which|who|whom|whose|where|when|why|how|in\s+which|of\s+which|for\s+which)\b", re.I)
_IMPERATIVE = re.compile(r"^(?:select|choose|identify|name|find|pick|determine|indicate|mark|give|state)\b", re.I)


@lru_cache(maxsize=8192)
def question_clause(stem: str) -> str | None:
    """The clause that asks: the last sentence if it is a question, a completion lead-in or an imperative
    (narrowed to a final ', which ...' clause); None when the stem ends in a plain statement."""
    sentences = [s.strip() for s in _SENTENCES.split(stem.strip()) if s and s.strip()]
    sentences = [s for s in sentences if not re.fullmatch(r"\(.*\)[.]?", s)] or sentences
    if not sentences:
        return None
    last = sentences[-1]
    parts = re.split(r",\s+", last)
    for k in range(len(parts) - 1, 0, -1):
        if _WH.match(parts[k]):
            last = ", ".join(parts[k:])
            break
    if last.endswith(("?", ":")) or not re.search(r"[.!]$", last) or _WH.match(last) or _IMPERATIVE.match(last):
        return last
    return None
