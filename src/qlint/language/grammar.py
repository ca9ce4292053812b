"""Grammar by spelling, without a lexicon: 'a' or 'an' before a word, the rough form of a short phrase
(noun, verb, gerund, ...), and the grammatical number and head of a short noun phrase."""
from __future__ import annotations

import re

from qlint.language.stems import CUE_STOPWORDS
from qlint.language.words import WORD, plain

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
_FINITE = frozenset("is are was were will would can could should shall may might must has have had does do "
                    "did isn't aren't wasn't weren't won't can't don't doesn't didn't".split())
_SUBJECT = frozenset("i you he she it we they there this that these those".split())
_PREPOSITIONS = frozenset("in on at by with from for during into onto under over through after before "
                          "because since while when if".split())
DETERMINERS = frozenset("a an the some any many much few several all each every no his her their its my "
                        "your our this that these those one two three four five".split())
_OBJECT_STARTERS = frozenset("the a an it them him her his their your my our its this that these those "
                             "some up out down off".split())
# common base-form verbs: enough to tell "swim" from "fish" in short options
_VERBS = frozenset("""
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
    has_finite = any(w in _FINITE for w in lw[1:]) or (len(lw) >= 3 and lw[0] in _SUBJECT)
    if len(lw) >= 3 and (has_finite or t.endswith((".", "!", "?"))):
        return "sentence"
    if lw[0] in ("not", "never") and len(lw) > 1:
        lw = lw[1:]
    first = lw[0]
    nxt = lw[1] if len(lw) > 1 else None
    if first == "to" and nxt:
        return "verb"
    if first in _PREPOSITIONS:
        return "prep"
    if first in DETERMINERS:
        return "noun"
    if first in _FINITE:
        return "verb"                       # "are conductors", "can float"
    if tokens[0][0].isupper() and tokens[0][1:].islower() and len(tokens) <= 3 and not t.endswith("."):
        return "noun"                       # proper noun: "Mars", "Lake Erie"
    verbish = first in _VERBS or (first.endswith(("ing", "ed")) and len(first) >= 5 and first not in _ING_NOUNS)
    if first.endswith(("ing", "ed")) and verbish:
        if nxt is None or nxt in _OBJECT_STARTERS or nxt in _PREPOSITIONS or nxt in (
                "with", "to", "and", "or", "enough", "more", "less", "too", "very", "up", "out"):
            return "gerund" if first.endswith("ing") else "verb"
        return "noun"                       # modifier: "bowling alley", "graduated cylinder"
    if nxt in _OBJECT_STARTERS and first not in ("of",):
        return "verb"                       # "cover the pan", "fan the flames": a verb taking an object
    if first in _VERBS and ((nxt is None and first not in _NOUN_TOO) or nxt in _PREPOSITIONS):
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
                         "beyond", "near", "per", "toward", "towards", "upon", "via", "like", "as", *_PREPOSITIONS))


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
            head.lower() in CUE_STOPWORDS:
        return None
    return head.lower()
