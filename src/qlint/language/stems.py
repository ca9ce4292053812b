"""Stop words and stemmers.

There are two of each, because two kinds of comparison need different ones, and each is held to outputs
the rules and the near-duplicate search already give:

- the **near-duplicate key** (``KEY_STOPWORDS``, ``key_stem``): function words and exam boilerplate; a light
  suffix stripper that rewrites some endings ('-ational' -> '-ate', '-ies' -> '-y') and keeps agent nouns
  ('layers' -> 'layer');
- the **cue rules** (``CUE_STOPWORDS``, ``cue_stem``, ``content_stems``): a longer list that also drops
  vague verbs and nouns ('use', 'thing', 'people'); a stemmer that only cuts ('layers' -> 'lay', 'heating' ->
  'heat'), also '-er', '-ness', '-ation' and a possessive "'s", so that a stem and an option sharing a root
  are seen to share it.

Merging them would change which questions are near duplicates and which options give the answer away.
"""
from __future__ import annotations

import string
from collections.abc import Callable
from functools import lru_cache, partial

from qlint.language.words import MARKUP, WORD, AsciiRuns

KEY_STOPWORDS = frozenset("""
a about above after again against all am an and any are as at be because been before being below
between both but by can could did do does doing down during each few for from further had has have
having he her here hers herself him himself his how i if in into is it its itself just me more most
my myself no nor not now of off on once only or other our ours ourselves out over own same she
should so some such than that the their theirs them themselves then there these they this those
through to too under until up very was we were what when where which while who whom why will with
would you your yours yourself yourselves following best likely most least true statement describes
correct answer question option options
""".split())

CUE_STOPWORDS = frozenset("""
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

# French function words and exam boilerplate, accents folded as ``normalize`` folds them: for the comparisons that
# read a bank's content words whatever its language (the bank-consistency rules); the two lists above stay English
FRENCH_STOPWORDS = frozenset("""
a au aux avec c ce ceci cela celle celles celui ces cet cette ceux chez comme d dans de des du elle elles en entre
est et etre il ils j l la laquelle le lequel les lesquelles lesquels leur leurs lors m ma mais me meme mes moins n
ne ni nos notre on ont ou par parmi pas peut peuvent plus pour qu quand que quel quelle quelles quels qui s sa sans
se ses seule si son sont sur t ta te tes tous tout toute toutes tres un une vos votre y
suivante suivantes suivant suivants proposition propositions reponse reponses exacte exactes inexacte inexactes
fausse fausses vraie vraies juste justes indiquer indiquez cocher concernant
""".split())

_KEY_SUFFIXES = (("ational", "ate"), ("ization", "ize"), ("iveness", "ive"), ("fulness", "ful"),
                 ("ousness", "ous"), ("ements", ""), ("ement", ""), ("ments", ""), ("ment", ""),
                 ("ities", ""), ("ity", ""), ("ings", ""), ("ing", ""), ("edly", ""), ("ies", "y"),
                 ("ied", "y"), ("es", ""), ("ed", ""), ("ly", ""), ("s", ""))
_CUE_SUFFIXES = ("ational", "ization", "fulness", "ousness", "iveness", "ations", "ation", "ments", "ment",
                 "ness", "ings", "ing", "ies", "ied", "ers", "er", "ed", "es", "ly", "s")


@lru_cache(maxsize=1_000_000)
def key_stem(word: str) -> str:
    """The near-duplicate key's stemmer: a light suffix stripper, enough to match 'layers' with 'layer',
    'scaling' with 'scale'."""
    w = word.lower()
    for suffix, keep in _KEY_SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: len(w) - len(suffix)] + keep
            break
    if len(w) > 4 and w.endswith("e"):
        w = w[:-1]
    return w


@lru_cache(maxsize=65536)
def cue_stem(word: str) -> str:
    """The cue rules' stemmer, tuned for stem/option overlap ('layers'/'layer', 'heating'/'heat'): cuts a
    possessive and one suffix, rewrites nothing."""
    w = word.lower().strip("'-").replace("'s", "")
    for suffix in _CUE_SUFFIXES:
        if len(w) - len(suffix) >= 3 and w.endswith(suffix):
            w = w[: -len(suffix)]
            break
    if w.endswith("e") and len(w) > 4:
        w = w[:-1]
    return w


def _content_stem(word: str, min_chars: int) -> str:
    lw = word.lower().strip("'-")
    return cue_stem(lw) if len(lw) >= min_chars and lw not in CUE_STOPWORDS else ""


@lru_cache(maxsize=16)
def _content_stemmer(min_chars: int) -> Callable[[str], str]:
    """word -> its content stem, or "" when it is no content word; memoised per word (words are Zipfian, and
    ``map`` over a C-level cache keeps the per-word cost low)."""
    return lru_cache(maxsize=500_000)(partial(_content_stem, min_chars=min_chars))


_LETTER_RUNS = AsciiRuns(string.ascii_letters + "'-")


def content_stems(text: str, min_chars: int = 3) -> set[str]:
    """Stemmed content words of a text (stop words, markup and short words dropped)."""
    if "[" in text:
        text = MARKUP.sub(" ", text)
    tokens = _LETTER_RUNS(text)   # runs that start with ' or - differ from WORD's tokens only in what is stripped
    out = set(map(_content_stemmer(min_chars), WORD.findall(text) if tokens is None else tokens))
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
