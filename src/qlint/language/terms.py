"""Term lists (absolute terms, vague terms): listed words and phrases matched on word boundaries, except
inside the idioms that use them in another sense, and except where a criterion follows ("about 5 km")."""
from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from qlint.language.patterns import check_pattern_safety
from qlint.language.words import LOWER_ALNUM, lower_words

_NEAR = 80  # characters around a term searched for an exception idiom


class TermList:
    """Terms and weak terms matched on word boundaries after masking the exception phrases."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.weak = frozenset(" ".join(t.lower().split()) for t in data.get("weak", ()))
        terms = sorted(set(data["terms"]) | self.weak, key=len, reverse=True)
        # one telling word of every term (its longest): a text holding none of them cannot match,
        # and a set test is far cheaper than the big alternation
        self.telling = {t: max(LOWER_ALNUM.findall(t.lower()) or [t.lower()], key=len) for t in terms}
        self.first_words = frozenset(self.telling.values())
        self.ordered = tuple(terms)
        self.terms = re.compile(r"\b(" + "|".join(re.escape(t).replace(r"\ ", r"\s+") for t in terms) + r")\b", re.I)
        for pattern in (*data.get("exceptions", ()), data.get("criterion") or ""):
            check_pattern_safety(pattern)
        self.exceptions = re.compile("|".join(f"(?:{p})" for p in data.get("exceptions", ())) or "(?!)", re.I)
        self.criterion = re.compile(data["criterion"], re.I) if data.get("criterion") else None

    def hits(self, text: str, include_weak: bool) -> list[str]:
        return [term for term, _ in self.located(text, include_weak)]

    def located(self, text: str, include_weak: bool) -> list[tuple[str, tuple[int, int]]]:
        """Each term the text uses, with where it stands in the text."""
        present = self.first_words.intersection(lower_words(text))
        if not present:
            return []  # most texts hold no listed term: skip the costly matching and masking
        terms = _matcher(self, frozenset(present))
        found = [m.span() for m in terms.finditer(text)]
        if not found:
            return []
        # An idiom always contains or touches its term, so exceptions are looked for only near the terms:
        # scanning a long text with the whole exception alternation costs more than the rest of the rule.
        chars = list(text)
        end = -1
        for start, stop in found:
            lo, hi = max(start - _NEAR, end, 0), min(stop + _NEAR, len(text))
            for m in self.exceptions.finditer(text, lo, hi):
                chars[m.start():m.end()] = " " * (m.end() - m.start())
            end = hi
        masked = "".join(chars)
        out = []
        for match in terms.finditer(masked):
            term = " ".join(match.group(1).lower().split())
            if term in self.weak and not include_weak:
                continue
            if self.criterion is not None and self.criterion.match(masked[match.end():]):
                continue  # "usually within 30 minutes", "about 5 km": the criterion is stated
            out.append((term, match.span(1)))
        return out


@lru_cache(maxsize=4096)
def _matcher(terms: TermList, present: frozenset[str]) -> re.Pattern:
    """The term pattern cut down to the terms whose telling word the text holds (same order, same result)."""
    chosen = [t for t in terms.ordered if terms.telling[t] in present]
    return re.compile(r"\b(" + "|".join(re.escape(t).replace(r"\ ", r"\s+") for t in chosen) + r")\b", re.I)


def term_findings(question, terms: TermList, include_weak: bool, max_words: int, skip_if_in_stem: bool):
    """(option index, sorted distinct terms, span of the first) for each option that uses a listed term the stem
    does not."""
    stem_terms = set(terms.hits(question.stem, True)) if skip_if_in_stem else set()
    for i, option in enumerate(question.options):
        if len(option.text.split()) > max_words:
            continue
        located = [(t, span) for t, span in terms.located(option.text, include_weak) if t not in stem_terms]
        if located:
            yield i, sorted({t for t, _ in located}), located[0][1]
