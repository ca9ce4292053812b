"""The one quantity an option states, for comparing numeric options: "3 km", "two weeks", "1/2", "$1,200".

Number words, scale words and units come from the word list ``quantities``.
"""
from __future__ import annotations

import re
import string
from functools import lru_cache

from qlint.language.wordlists import word_lists
from qlint.language.words import AsciiRuns, has_digit

_Q = word_lists("quantities")
_UFRAC = {k: float(v) for k, v in _Q["unicode_fractions"].items()}
_SCALE = {k: float(v) for k, v in _Q["scale_words"].items()}
_WORDS = {k: float(v) for k, v in _Q["number_words"].items()}
_TIME = {k: float(v) for k, v in _Q["time_units"].items()}
_METRIC = {k: float(v) for k, v in _Q["metric_units"].items()}
_SCALES = "|".join(_SCALE)
_NUMQ = re.compile(
    r"(?P<cur>\$|€|£|¥|₹|rs\.?|inr|usd|eur|gbp)?\s*(?P<num>[-+−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[-+−]?\.\d+)"
    r"(?:\s+(?P<wf>\d+)\s*/\s*(?P<wd>\d+)|\s*/\s*(?P<den>\d+)|\s+and\s+(?P<an>\d+)\s+over\s+(?P<ad>\d+)"
    r"|\s+over\s+(?P<od>\d+)|\s*(?P<uf>[½⅓⅔¼¾⅕⅛]))?" rf"(?:\s*(?P<scale>{_SCALES})\b)?\s*(?P<pct>%|percent\b)?", re.I)
_TIMES = "|".join(sorted(_TIME, key=len, reverse=True))
_WORDQ = re.compile(r"\b(?P<w>" + "|".join(sorted(_WORDS, key=len, reverse=True)) + r")\b(?:\s+(?:a|an)\b)?\s*"
                    rf"(?P<scale>{_SCALES})?\s*(?P<unit>(?:{_TIMES})s?)?\b", re.I)
# a number is matched from its first digit, its digits taken whole (possessive): tried from every digit of a long run
# of them, as a plain \d+ is, the search cost the square of the run
_RANGE = re.compile(r"(?<!\d)(?P<a>\d++(?:\.\d+)?)\s*(?:-|–|to)\s*(?P<b>\d+(?:\.\d+)?)")
_FRACTION_WORDS = re.compile(r"(?<!\d)\d++\s+over\s+\d+")   # "3 over 4"
_IDENT = re.compile(r"(?:\b[A-Z]{2,}|\b(?:" + "|".join(_Q["identifier_words"]) + r"))\s*-?\s*$")
_WORDOP = re.compile(r"\b(?:plus|minus|times|divided|squared|cubed|over|root|log|sin|cos|tan)\b", re.I)
_EXPR = re.compile(r"[=*^×÷()\[\]{}<>|\\]|\d\s*[-+]\s*\d|[a-z]\d|\d[a-z]{1}\b(?<!\d[smhgl]\b)", re.I)
_APPROX = re.compile(r"^\s*(?:>=|<=|>|<|≥|≤|more than|less than|over|under|about|approximately|around|~)\s*", re.I)
_UNIT = re.compile(r"^\s*([a-zA-Z]+)")
_QLABEL = re.compile(r"^\s*(?:\(?[A-Ha-h]\)\s*|[A-H]\.\s+)")  # letters only: "4." is a number


def _unit_factor(rest: str) -> float:
    m = _UNIT.match(rest)
    if m:
        u = m.group(1).lower()
        for key in (u, u.rstrip("s")):
            if key in _TIME:
                return _TIME[key]
            if key in _METRIC and len(key) <= 2:
                return _METRIC[key]
    return 1.0


def _digit_value(m: re.Match) -> float:
    num = float(m.group("num").replace(",", "").replace("−", "-"))
    if m.group("wf"):
        num += (1 if num >= 0 else -1) * float(m.group("wf")) / float(m.group("wd"))
    elif m.group("den") and float(m.group("den")):
        num /= float(m.group("den"))
    elif m.group("an"):
        num += float(m.group("an")) / float(m.group("ad"))
    elif m.group("od") and float(m.group("od")):
        num /= float(m.group("od"))
    elif m.group("uf"):
        num += _UFRAC[m.group("uf")]
    return num * (_SCALE[m.group("scale").lower()] if m.group("scale") else 1)


# Cheap superset test: text without any of these cannot state a quantity, so the parser is skipped.
_STRAY_DOLLAR = re.compile(r"(?<!\s)\s++\$\s+(?=\D|$)|^\$\s+(?=\D)")
_DOLLAR_BEFORE_DIGIT = re.compile(r"(?<!\s)\s++\$\s+(?=\d)")
_NUMBERISH = re.compile(
    r"\d|[½⅓⅔¼¾⅕⅛]|\b(?:" + "|".join(w for w in _WORDS if w not in ("a", "an", "half")) + r")\b"
    rf"|\b(?:a|an|half)\s+(?:(?:a|an)\s+)?(?:{_SCALES}|{_TIMES})", re.I)


_DIGITISH = re.compile(r"[\d½⅓⅔¼¾⅕⅛]")
_LOWER_LETTERS = re.compile(r"[a-z]+")
_LOWER_RUNS = AsciiRuns(string.ascii_lowercase)
_NUMBER_WORDS = frozenset(w for w in _WORDS if w not in ("a", "an", "half"))
_A_SCALE = re.compile(rf"\b(?:a|an|half)\s+(?:(?:a|an)\s+)?(?:{_SCALES}|{_TIMES})", re.I)


def _numberish(text: str) -> bool:
    """``_NUMBERISH.search(text)``, answered mostly by a digit test and a word-set lookup (the regex's
    alternation of number words, tried at every position, cost more than all the rest of the rule)."""
    lower = text.lower()
    runs = _LOWER_RUNS(lower)
    if runs is None:   # not ASCII: fraction characters and other digits are possible
        if _DIGITISH.search(text):
            return True
        runs = _LOWER_LETTERS.findall(lower)
    elif has_digit(text):
        return True
    words = set(runs)
    if not words.isdisjoint(_NUMBER_WORDS):
        return bool(_NUMBERISH.search(text))
    return not words.isdisjoint(("a", "an", "half")) and bool(_A_SCALE.search(text))


@lru_cache(maxsize=8192)
def quantity(text: str) -> tuple[float, str] | None:
    """(value, template) when an option states exactly one quantity; None for text, expressions, names."""
    if not _numberish(text):
        return None
    t = _QLABEL.sub("", text).replace("$", " $ ").strip()
    t = re.sub(r"\\frac\{(\d+)\}\{(\d+)\}", r"\1/\2", t)
    # stray LaTeX math delimiters; a run of spaces is tried from its first (from every one of a long run, the
    # search read the run again each time: quadratic)
    t = _STRAY_DOLLAR.sub(" ", t).strip()
    t = _DOLLAR_BEFORE_DIGIT.sub(" $", t)
    if _WORDOP.search(_FRACTION_WORDS.sub("", t)):
        return None
    rng = _RANGE.search(t)
    if rng and float(rng["b"]) > float(rng["a"]) and not re.search(r"[\d()*/^=]", t[:rng.start()] + t[rng.end():]):
        return (float(rng["a"]) + float(rng["b"])) / 2, (t[:rng.start()] + "#" + t[rng.end():]).lower()
    t = _APPROX.sub("", t)
    digits = [m for m in _NUMQ.finditer(t) if m.group("num")]
    if len(digits) == 1:
        m = digits[0]
        before, after = t[:m.start()], t[m.end():]
        if (not m.group("cur") and _IDENT.search(before)) or _EXPR.search(before + " " + after) \
                or re.search(r"\d", before + after) or re.match(r"^\s*[-+*/^]", after) \
                or re.search(r"[-+*/^]\s*$", before):
            return None
        return _digit_value(m) * _unit_factor(after), (before + "#" + after).lower().strip()
    if digits:
        return None
    # a one-letter unit counts only after digits: "a S" in "To become a S-nin" is no quantity
    found = [w for w in _WORDQ.finditer(t) if len(w["unit"] or "") > 1 or w["scale"]
             or w["w"].lower() not in ("a", "an", "half")]
    if len(found) != 1 or (found[0]["w"].lower() == "half" and not found[0]["unit"]):
        return None
    w = found[0]
    value = _WORDS[w["w"].lower()] * (_SCALE[w["scale"].lower()] if w["scale"] else 1)
    unit = (w["unit"] or "").lower()
    value *= _TIME.get(unit, _TIME.get(unit[:-1], 1)) if len(unit) > 1 else 1
    return value, (t[:w.start()] + "#" + t[w.end():]).lower().strip()
