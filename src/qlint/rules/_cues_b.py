"""Shared text helpers for the item-writing cue rules (overlap, length, terms, grammar, stem focus).

Not a rule (no ``RULE``): discovery skips modules whose name starts with an underscore.
Pure functions over strings; word lists for the term rules live in ``data/*.yaml``.
"""
from __future__ import annotations

import re
import string
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from qlint.text import CODE_SPAN, AsciiRuns, WordMemo

DATA_DIR = Path(__file__).parent / "data"

# "[title]", "[step]" markers of how-to sources; never content
MARKUP = re.compile(r"\[[a-z]+\]")
# options that are about the other options, not answers: they are naturally of another length/form
META_OPTION = re.compile(
    r"^\s*(?:all|none|neither|both)\s+(?:of\s+)?(?:the\s+)?(?:above|these|those|them|of these)\b|"
    r"^\s*(?:none|cannot be determined|can ?not be determined|not enough information|data inadequate|"
    r"i have no comment)\W*$", re.I)
UNDETERMINED = re.compile(r"\b(?:can ?not|can't) be (?:determined|calculated|found|known)\b", re.I)
WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*")

STOPWORDS = frozenset("""
a about above after again against all also although am among an and any are around as at be because been
before being below between both but by can cannot could did do does doing done down during each either
else etc even ever every few for from further get gets getting got had has have having he her here hers
herself him himself his how however i if in into is it its itself just least less let like likely made make
makes many may me might more most much must my myself near neither no nor not now of off often on once one
only onto or other others otherwise our ours ourselves out over own per perhaps quite rather really same
shall she should since so some such than that the their theirs them themselves then there these they thing
things this those though through thus to too toward towards under until up upon us use used uses using very
was we well were what whatever when where whether which while who whom whose why will with within without
would yet you your yours yourself yourselves following best true false correct statement answer option
choose select describe describes described explain explains example examples
someone something person people want need needs next feel happen happens
""".split())
_SUFFIXES = ("ational", "ization", "fulness", "ousness", "iveness", "ations", "ation", "ments", "ment",
             "ness", "ings", "ing", "ies", "ied", "ers", "er", "ed", "es", "ly", "s")


def load_data(name: str) -> dict[str, Any]:
    """A rule's word lists from ``data/<name>.yaml``."""
    return yaml.safe_load((DATA_DIR / f"{name}.yaml").read_text(encoding="utf-8"))


def plain(text: str) -> str:
    """Markup removed, whitespace collapsed."""
    return " ".join(MARKUP.sub(" ", text).split())


def is_meta(text: str) -> bool:
    """About the other options, or "the value cannot be determined (from the information given)"."""
    return bool(META_OPTION.search(text)) or (len(text.split()) <= 12 and bool(UNDETERMINED.search(text)))


@lru_cache(maxsize=65536)
def stem_token(word: str) -> str:
    """Suffix-stripping stemmer tuned for stem/option overlap ('layers'/'layer', 'heating'/'heat')."""
    w = word.lower().strip("'-").replace("'s", "")
    for suffix in _SUFFIXES:
        if len(w) - len(suffix) >= 3 and w.endswith(suffix):
            w = w[: -len(suffix)]
            break
    if w.endswith("e") and len(w) > 4:
        w = w[:-1]
    return w


def _content_stem(word: str, min_chars: int) -> str:
    lw = word.lower().strip("'-")
    return stem_token(lw) if len(lw) >= min_chars and lw not in STOPWORDS else ""


_LETTER_RUNS = AsciiRuns(string.ascii_letters + "'-")
_CONTENT: dict[int, WordMemo] = {}   # min_chars -> word -> its stem, or "" when it is no content word


def content_stems(text: str, min_chars: int = 3) -> set[str]:
    """Stemmed content words of a text (stop words, markup and short words dropped)."""
    if "[" in text:
        text = MARKUP.sub(" ", text)
    memo = _CONTENT.get(min_chars)
    if memo is None:
        memo = _CONTENT[min_chars] = WordMemo(lambda w: _content_stem(w, min_chars))
    tokens = _LETTER_RUNS(text)   # runs that start with ' or - differ from WORD's tokens only in what memo strips
    out = set(map(memo.__getitem__, WORD.findall(text) if tokens is None else tokens))
    out.discard("")
    return out


def spelled_as(text: str, stems: set[str], min_chars: int = 3) -> list[str]:
    """The words of a text, as written, whose content stem is in ``stems`` (first spelling of each, in text
    order): what a message quotes, since a stem such as 'cach' is no word the writer used."""
    if "[" in text:
        text = MARKUP.sub(" ", text)
    seen: dict[str, str] = {}
    for word in WORD.findall(text):
        stem = _content_stem(word, min_chars)
        if stem in stems and stem not in seen:
            seen[stem] = word.strip("'-")
    return list(seen.values())


def first_spelled(text: str, stems: set[str], min_chars: int = 3) -> tuple[int, int] | None:
    """Where the first word of a text whose content stem is in ``stems`` stands (as ``spelled_as`` quotes it)."""
    for match in WORD.finditer(text):
        word = match.group()
        if _content_stem(word, min_chars) in stems:
            start = match.start() + len(word) - len(word.lstrip("'-"))
            return start, max(start, match.start() + len(word.rstrip("'-")))
    return None


def is_numeric(text: str) -> bool:
    """Mostly digits and symbols: a number, a formula, a date."""
    t = text.strip()
    if not _DIGIT.search(t):
        return False
    return sum(map(str.isalpha, t)) <= max(3, len(t) // 3)


_IDENT_TOKEN = re.compile(r"^[\w.\[\]()'\"=,:*+\-/<>]+$")


def is_code(text: str) -> bool:
    """The option is code: a backticked span, a multi-line block, or a lone identifier/call like ``x.grad``."""
    t = text.strip()
    if "\n" in t or (t.startswith("`") and t.endswith("`")):
        return True
    if " " not in t and _IDENT_TOKEN.match(t) and re.search(r"[_.()\[\]=]|[a-z][A-Z]", t):
        return True
    return False


def strip_code(text: str) -> str:
    """Backticked spans replaced by their contents (for measuring prose that quotes code)."""
    return CODE_SPAN.sub(lambda m: m.group(0).strip("`"), text)


# --- a/an: the first sound of a word, by spelling ---------------------------------------------
_AN_LETTERS = frozenset("aefhilmnorsx")           # letter names that start with a vowel sound: "an F", "an MRI"
_CONSONANT_SOUND = ("uni", "use", "usu", "usa", "uti", "ure", "uro", "eu", "ewe", "one", "once", "ubiq", "uku",
                    "uga", "ute", "uvu")
_SILENT_H = ("hour", "honest", "honor", "honour", "heir", "herb")   # "herb": US usage


def starts_with_vowel_sound(word: str) -> bool:
    """Whether 'an' (not 'a') goes before this word: vowel letters with the usual exceptions.

    Acronyms are read letter by letter ("an MRI", "a URL", "an FBI agent"); "uni-", "use", "eu-", "one"
    start with a consonant sound; the h of "hour", "honest", "heir" is silent.
    """
    w = word.strip("'\"(“‘`")
    if not w:
        return False
    if w[0].isdigit():
        return w.startswith(("8", "11", "18")) and not w.startswith(("110", "111", "112"))
    # acronyms are spelled out ("an MRI", "a URL") unless they read as a word ("a NASA", "a RAM", "a CUDA")
    head = w.split("-")[0]
    if len(head) == 1 and head.isalpha():          # "an X-ray", "an F-test", "a T-cell"
        return head.lower() in _AN_LETTERS
    reads_as_word = re.fullmatch(r"[B-DF-HJ-NP-TV-Z][AEIOU][B-DF-HJ-NP-TV-Z][A-Z]*", w)
    if len(w) == 1 or (w.isupper() and len(w) <= 5 and not reads_as_word):
        return w[0].lower() in _AN_LETTERS
    lw = w.lower()
    if lw.startswith(_SILENT_H):
        return True
    if lw.startswith(_CONSONANT_SOUND):
        return False
    return lw[0] in "aeiou"


# --- grammatical form of a short option, without a lexicon ---------------------------------------
FINITE = frozenset("is are was were will would can could should shall may might must has have had does do "
                   "did isn't aren't wasn't weren't won't can't don't doesn't didn't".split())
SUBJECT = frozenset("i you he she it we they there this that these those".split())
PREPOSITIONS = frozenset("in on at by with from for during into onto under over through after before "
                         "because since while when if".split())
DETERMINERS = frozenset("a an the some any many much few several all each every no his her their its my "
                        "your our this that these those one two three four five".split())
OBJECT_STARTERS = frozenset("the a an it them him her his their your my our its this that these those "
                            "some up out down off".split())
# common base-form verbs: enough to tell "swim" from "fish" in short options
VERBS = frozenset("""
add allow apply ask avoid bake be become begin believe boil break bring build burn buy call carry catch change
check choose clean climb close collect come cook count cover create cross cut dance decide die dig do drink
drive drop dry eat enjoy enter escape explain fall feed feel fight fill find finish fix fly follow forget
freeze get give go grow hang happen hate have hear heat help hide hit hold hope hunt hurry ignore improve
increase jump keep kick kill kiss knock know laugh lay lead learn leave let lie lift listen live look lose
love make marry measure meet melt mix move need open order paint pay pick plan plant play pour prepare
protect pull push put rain reach read relax remember remove repair rest return ride ring rise run save say
scream see sell send shake shout show shut sing sink sit sleep smell smile speak spend stand start stay
steal stop study swim take talk taste teach tell think throw touch travel try turn understand use visit
wait wake walk want wash watch wear win wish work worry write yell
""".split())
# ... of which these are as often nouns ("plant", "rain"): a single such word is read as a noun
_NOUN_TOO = frozenset("""
call catch change check climb cook count cover cut dance drink drive drop fall fight fix fly hope hunt kick
kiss knock laugh lead lie love need order paint pay plan plant play pour push rain reach rest return ride
ring rise run show sleep smell smile start stay study swim taste touch travel try turn use visit wait walk
wash watch wish work worry yell
""".split())
_ING_NOUNS = frozenset("thing things nothing something anything everything ring king spring string wing "
                       "ceiling building morning evening pudding clothing ending feeling painting".split())
_LY_NON_ADVERBS = frozenset("only family fly jelly belly supply reply apply holy ally lily rely italy "
                            "july bully early daily friendly lonely lovely ugly silly".split())


def form(text: str) -> str | None:
    """A rough phrase class: sentence, noun, verb, gerund, prep, adv, num (None when there are no words)."""
    t = plain(text)
    tokens = WORD.findall(t)
    if not tokens:
        return "num" if re.search(r"\d", t) else None
    lw = [w.lower() for w in tokens]
    if sum(map(str.isdigit, t)) >= len(tokens):
        return "num"
    has_finite = any(w in FINITE for w in lw[1:]) or (len(lw) >= 3 and lw[0] in SUBJECT)
    if len(lw) >= 3 and (has_finite or t.endswith((".", "!", "?"))):
        return "sentence"
    if lw[0] in ("not", "never") and len(lw) > 1:
        lw = lw[1:]
    first = lw[0]
    nxt = lw[1] if len(lw) > 1 else None
    if first == "to" and nxt:
        return "verb"
    if first in PREPOSITIONS:
        return "prep"
    if first in DETERMINERS:
        return "noun"
    if first in FINITE:
        return "verb"                       # "are conductors", "can float"
    if tokens[0][0].isupper() and tokens[0][1:].islower() and len(tokens) <= 3 and not t.endswith("."):
        return "noun"                       # proper noun: "Mars", "Lake Erie"
    verbish = first in VERBS or (first.endswith(("ing", "ed")) and len(first) >= 5 and first not in _ING_NOUNS)
    if first.endswith(("ing", "ed")) and verbish:
        if nxt is None or nxt in OBJECT_STARTERS or nxt in PREPOSITIONS or nxt in (
                "with", "to", "and", "or", "enough", "more", "less", "too", "very", "up", "out"):
            return "gerund" if first.endswith("ing") else "verb"
        return "noun"                       # modifier: "bowling alley", "graduated cylinder"
    if nxt in OBJECT_STARTERS and first not in ("of",):
        return "verb"                       # "cover the pan", "fan the flames": a verb taking an object
    if first in VERBS and ((nxt is None and first not in _NOUN_TOO) or nxt in PREPOSITIONS):
        return "verb"
    if first.endswith("ly") and len(first) > 4 and first not in _LY_NON_ADVERBS and len(lw) <= 2:
        return "adv"
    return "noun"


# --- grammatical number of a short noun phrase, by spelling ---------------------------------------
_IRREGULAR_PLURALS = frozenset("people children men women feet teeth mice geese criteria phenomena bacteria fungi "
                               "nuclei cacti larvae algae alumni oxen dice lice".split())
_SINGULAR_IN_S = frozenset("news series species means lens atlas canvas bias alias pancreas christmas measles mumps "
                           "diabetes rabies herpes tennis chess billiards rhinoceros cosmos chaos ethos thermos "
                           "yes".split())
# words that end the head of a noun phrase: "pieces of steel", "learning about bacteria", "cells that divide"
_AFTER_HEAD = frozenset(("of", "that", "which", "who", "whose", "than", "to", "about", "against", "among", "between",
                         "within", "without", "across", "along", "around", "behind", "below", "beneath", "beside",
                         "beyond", "near", "per", "toward", "towards", "upon", "via", "like", "as", *PREPOSITIONS))


def is_plural(word: str) -> bool:
    """Whether a lower-case noun is plural, by spelling: 'trees', 'bacteria'; not 'glass', 'virus', 'physics'."""
    if word in _IRREGULAR_PLURALS:
        return True
    if len(word) <= 3 or not word.endswith("s") or word in _SINGULAR_IN_S:
        return False
    return not word.endswith(("ss", "us", "is", "ics", "'s"))


def noun_head(text: str, max_words: int = 4) -> str | None:
    """The lower-case head noun of a short noun phrase ('radio waves', 'pieces of steel' -> 'pieces'), or None
    for a long phrase, a list ('salt and water'), a gerund phrase, a pronoun, or a proper noun ('New Orleans')."""
    tokens = WORD.findall(text)
    if not tokens or len(tokens) > max_words or tokens[0].lower().endswith("ing"):
        return None
    head = None
    for w in tokens:
        lw = w.lower()
        if lw in ("and", "or"):
            return None
        if lw in _AFTER_HEAD:
            break
        head = w
    # a capital on the first of several words is sentence case; anywhere else it marks a name
    if head is None or (head[0].isupper() and (head is not tokens[0] or len(tokens) == 1)) or \
            head.lower() in STOPWORDS:
        return None
    return head.lower()


_LOWER_WORD = re.compile(r"[a-z0-9]+")
_LOWER_RUNS = AsciiRuns(string.ascii_lowercase + string.digits)
_DIGIT = re.compile(r"\d")
_NEAR = 80  # characters around a term searched for an exception idiom


# --- term lists (absolute-terms, vague-terms) --------------------------------------------------
class TermList:
    """Terms and weak terms matched on word boundaries after masking the exception phrases."""

    def __init__(self, data: dict[str, Any]) -> None:
        from qlint.packs import check_pattern_safety

        self.weak = frozenset(" ".join(t.lower().split()) for t in data.get("weak", ()))
        terms = sorted(set(data["terms"]) | self.weak, key=len, reverse=True)
        # one telling word of every term (its longest): a text holding none of them cannot match,
        # and a set test is far cheaper than the big alternation
        self.telling = {t: max(_LOWER_WORD.findall(t.lower()) or [t.lower()], key=len) for t in terms}
        self.first_words = frozenset(self.telling.values())
        self._ordered = terms
        self._subsets: dict[frozenset[str], re.Pattern] = {}
        self.terms = re.compile(r"\b(" + "|".join(re.escape(t).replace(r"\ ", r"\s+") for t in terms) + r")\b", re.I)
        for pattern in (*data.get("exceptions", ()), data.get("criterion") or ""):
            check_pattern_safety(pattern)
        self.exceptions = re.compile("|".join(f"(?:{p})" for p in data.get("exceptions", ())) or "(?!)", re.I)
        self.criterion = re.compile(data["criterion"], re.I) if data.get("criterion") else None

    def _matcher(self, present: frozenset[str]) -> re.Pattern:
        """The term pattern cut down to the terms whose telling word the text holds (same order, same result)."""
        pattern = self._subsets.get(present)
        if pattern is None:
            chosen = [t for t in self._ordered if self.telling[t] in present]
            pattern = re.compile(r"\b(" + "|".join(re.escape(t).replace(r"\ ", r"\s+") for t in chosen) + r")\b", re.I)
            if len(self._subsets) < 4096:
                self._subsets[present] = pattern
        return pattern

    def hits(self, text: str, include_weak: bool) -> list[str]:
        return [term for term, _ in self.located(text, include_weak)]

    def located(self, text: str, include_weak: bool) -> list[tuple[str, tuple[int, int]]]:
        """Each term the text uses, with where it stands in the text."""
        present = self.first_words.intersection(lower_words(text))
        if not present:
            return []  # most texts hold no listed term: skip the costly matching and masking
        terms = self._matcher(frozenset(present))
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


@lru_cache(maxsize=512)
def lower_words(text: str) -> frozenset[str]:
    """The lower-case letter runs of a text; shared by the term rules, which scan the same stem and options."""
    lower = text.lower()
    runs = _LOWER_RUNS(lower)
    return frozenset(_LOWER_WORD.findall(lower) if runs is None else runs)


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
