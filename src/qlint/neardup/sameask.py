"""Whether two similar stems ask the same thing, and how their answers compare.

The search (``qlint.neardup.search``) finds stems that read alike. Two of them are the same question when what they ask
is the same: their content words are the same but for words a clone adds or drops (a modifier, a retouched
clause), and nothing says they ask for opposite things. They ask different things when:

- the words that say what is asked for oppose ("true" / "false", "must" / "could", "least" / "most", "first" /
  "second"), or one stem has a "not" the other lacks;
- a content word is swapped for its opposite ("inducers" / "inhibitors", "increase" / "decrease");
- a content word differs in a two-option item (a Yes/No series: "Solution: you use Redis" / "... PostgreSQL");
- a content word is swapped for another in a short stem, in a short sentence ("Quelle est sa sensibilite ?" /
  "... specificite ?"), or where a third question varies the same place (a set of questions on one passage or
  scenario: "If Young is ..." / "If Togowa is ...");
- more than a few content words differ, or a sentence is mostly words the other lacks (a condition added to the
  question after a shared passage: "If Mei is on the green team, then which one must be true?");
- a word was swapped for another and the same options are keyed differently (the swap changed the answer);
- in a short stem, a word (or an ask mark) was added and the keys have nothing in common ("President" / "Vice
  President", "real name" / "real first name");
- the stem leaves its question to the options (a verdict ask such as "Which one of the following could be
  true?", a bare topic such as "Le virus de l'hepatite B :") and the options are not the same ones.

Otherwise the two are duplicates whatever their options, and the verdict says how their answers compare: the
same, different options, or the same options with disagreeing keys (one of them is likely mis-keyed).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import Enum
from functools import lru_cache

from qlint.language.wordlists import word_lists
from qlint.neardup.stemkey import StemKey, digest_count, digest_set

SHORT_STEM = 12      # content words below which any swapped word makes another question
MAX_SWAPPED = 2      # content words a longer stem may have swapped for others and still ask the same
MAX_CHANGED = 4      # content words two stems that ask the same may differ in, all told
SHORT_SENTENCE = 5   # content words of a sentence in which a swapped word is most of what it asks
MAX_SIBLINGS = 200   # neighbours looked at for a third question varying the same place


class Answers(Enum):
    """How the answers of two questions that ask the same thing compare."""

    SAME = "same"
    DIFFER = "options differ"
    MISKEYED = "keys disagree"


_LISTS = word_lists("near-duplicate-stem")
_OPPOSITES = tuple((a, b) for a, b in (entry.split() for entry in _LISTS["opposites"]))
_PREFIXES = tuple((a, b) for a, b in (entry.split() for entry in _LISTS["opposite_prefixes"]))
_NEGATING = frozenset(_LISTS["negating_prefixes"])


def _begins(word: str, start: str) -> bool:
    """Whether a stemmed word is ``start`` with an ending: a short beginning takes only a short ending ("add" is
    "adds" or "added", not "address")."""
    return word.startswith(start) and (len(start) >= 5 or len(word) - len(start) <= 3)


def opposite(x: str, y: str) -> bool:
    """Whether two stemmed words mean opposite things: a listed pair, opposite prefixes on one rest
    ("hyperkalaemia" / "hypokalaemia"), or one the other negated ("exact" / "inexact")."""
    ox, oy = _openings(x), _openings(y)
    for a, oa, b, ob in ((x, ox, y, oy), (y, oy, x, ox)):
        if not oa[0].isdisjoint(ob[1]):
            return True
        if any(a[len(p):] == b[len(q):] and len(a) - len(p) >= 3 for p, q in (_PREFIXES[k] for k in oa[2] & ob[3])):
            return True
        if len(b) >= 4 and len(a) > len(b) and a.endswith(b) and a[:len(a) - len(b)] in _NEGATING:
            return True
    return False


@lru_cache(maxsize=200_000)
def _openings(word: str) -> tuple[frozenset[int], frozenset[int], frozenset[int], frozenset[int]]:
    """Which listed opposites a stemmed word begins as the first word and as the second (``_begins``), and which
    opposite prefixes it starts with, first and second, by their index: ``opposite`` meets the same words in pair
    after pair of a bank's near-duplicates, and tests these once per word instead of the lists once per pair."""
    return (frozenset(k for k, (p, _) in enumerate(_OPPOSITES) if _begins(word, p)),
            frozenset(k for k, (_, q) in enumerate(_OPPOSITES) if _begins(word, q)),
            frozenset(k for k, (p, _) in enumerate(_PREFIXES) if word.startswith(p)),
            frozenset(k for k, (_, q) in enumerate(_PREFIXES) if word.startswith(q)))


def opposite_asks(x: str, y: str) -> bool:
    """Whether two stems' ask marks (``StemKey.marks``) ask for different things: a negation or a falsity one has
    and the other lacks ("Which is not ...", "Which is false?"), or each has a mark the other lacks ("must" /
    "could", "most" / "least", "first" / "second", "when" / "where"). A mark added alone ("the most likely cause" /
    "the likely cause") asks for the same."""
    cx, cy = Counter(filter(None, x.split(","))), Counter(filter(None, y.split(",")))
    if cx["not"] != cy["not"] or cx["false"] != cy["false"]:
        return True
    return bool(cx - cy) and bool(cy - cx)


def one_apart(x: str, y: str) -> bool:
    """Whether two different words are one typing slip apart: a letter changed, added or dropped, or two
    neighbouring letters swapped."""
    if abs(len(x) - len(y)) > 1 or x == y:
        return False
    start = next((i for i, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
    if len(x) == len(y):
        swapped = start + 1 < len(x) and x[start] == y[start + 1] and x[start + 1] == y[start]
        return x[start + 1:] == y[start + 1:] or (swapped and x[start + 2:] == y[start + 2:])
    longer, shorter = (x, y) if len(x) > len(y) else (y, x)
    return longer[start + 1:] == shorter[start:]


class _Stem:
    """A key's content words, counted, and the size of the sentence each one appears in (the smallest)."""

    __slots__ = ("count", "sentence", "sentences", "size")

    def __init__(self, key: StemKey) -> None:
        sentences = [s.split() for s in key.core.split(" | ")] if key.core else []
        self.sentences = sentences
        self.count = Counter(w for s in sentences for w in s)
        self.size = sum(self.count.values())
        self.sentence: dict[str, int] = {}
        for words in sentences:
            for w in words:
                self.sentence[w] = min(self.sentence.get(w, len(words)), len(words))


class _Change:
    """What differs between the content words of two stems: the words only one has, typing slips aside."""

    __slots__ = ("gone", "new", "swapped", "added", "counted")

    def __init__(self, a: _Stem, b: _Stem) -> None:
        gone, new = list((a.count - b.count).elements()), list((b.count - a.count).elements())
        self.counted = (gone[:], new[:])   # typing slips included: ``opposite`` reads these
        for x in list(gone):   # "Simmons" / "Simons": one letter apart is the same word
            twin = next((y for y in new if len(x) >= 4 and len(y) >= 4 and one_apart(x, y)), None)
            if twin is not None:
                gone.remove(x)
                new.remove(twin)
        self.gone, self.new = gone, new
        self.swapped = min(len(gone), len(new))
        self.added = abs(len(gone) - len(new))

    @property
    def opposite(self) -> bool:
        """Whether a word only one stem has means the opposite of a word only the other has ("inducers" /
        "inhibitors"). Tested by ``Judge.verdict`` last, once the rest has not already told the stems apart: a pair
        of stems that differ in many words would test every word of one against every word of the other."""
        gone, new = self.counted
        return any(opposite(x, y) for x in gone for y in new)


class Judge:
    """Decides the pairs of one search: which ask the same thing, and how their answers compare."""

    def __init__(self, keys: Sequence[StemKey], pairs: Sequence[tuple[int, int, float]], min_shared: float) -> None:
        self.keys, self.min_shared = keys, min_shared
        self.stems: dict[int, _Stem] = {}
        self.near: dict[int, set[int]] = {}
        for a, b, _ in pairs:
            self.near.setdefault(a, set()).add(b)
            self.near.setdefault(b, set()).add(a)

    def stem(self, i: int) -> _Stem:
        if i not in self.stems:
            self.stems[i] = _Stem(self.keys[i])
        return self.stems[i]

    def verdict(self, a: int, b: int) -> Answers | None:
        """How the answers of questions ``a`` and ``b`` compare when they ask the same thing; None when not."""
        x, y = self.keys[a], self.keys[b]
        if x.marks != y.marks and opposite_asks(x.marks, y.marks):
            return None
        answers = _answers(x, y)
        if x.core != y.core or x.marks != y.marks:
            change = _Change(self.stem(a), self.stem(b))
            if not self._same_despite(a, b, change, answers) or change.opposite:
                return None
        if (x.open or y.open) and x.choices and y.choices:
            shared = len(digest_set(x.choices) & digest_set(y.choices))
            if shared < self.min_shared * min(digest_count(x.choices), digest_count(y.choices)):
                return None
        return answers

    def _same_despite(self, a: int, b: int, change: _Change, answers: Answers) -> bool:
        """Whether stems whose content words differ by ``change`` still ask the same thing."""
        x, y = self.keys[a], self.keys[b]
        if not (change.gone or change.new or x.marks != y.marks):
            return True    # the same words in another order, or one typing slip apart
        if len(change.gone) + len(change.new) > MAX_CHANGED:
            return False
        if change.swapped and answers is Answers.MISKEYED:
            return False   # the same options, another key: the swapped word changed the answer
        if min(digest_count(x.choices), digest_count(y.choices)) in (1, 2):
            return False   # Yes / No, True / False: the stem is the claim judged, and any word of it counts
        size = max(self.stem(a).size, self.stem(b).size)
        if change.swapped:
            if size < SHORT_STEM or change.swapped > MAX_SWAPPED:
                return False
            sentence = min([self.stem(a).sentence.get(w, 0) for w in change.gone]
                           + [self.stem(b).sentence.get(w, 0) for w in change.new])
            if sentence < SHORT_SENTENCE or self._varies_with_others(a, b, change):
                return False
        if (change.added or x.marks != y.marks) and size < SHORT_STEM and x.keyed and y.keyed and \
                not digest_set(x.keyed) & digest_set(y.keyed):
            return False   # "Who was the first US (Vice) President ...", "Voldemort's real (first) name"
        # a sentence made mostly of words the other stem lacks is a question of its own ("If Mei is on the green
        # team, then which one must be true?" after the same passage as "Which one must be true?")
        return not (_mostly(self.stem(a).sentences, change.gone) or _mostly(self.stem(b).sentences, change.new))

    def reads(self, a: int, b: int) -> list[int]:
        """Every question whose key the verdict on ``a`` and ``b`` may read, in the order it reads them: the two,
        and the third questions near both (``_varies_with_others``). A verdict kept between runs is reused only
        where all of these keys are as they were."""
        return [a, b, *self._siblings(a, b)]

    def _siblings(self, a: int, b: int) -> list[int]:
        return sorted(self.near.get(a, set()) & self.near.get(b, set()))[:MAX_SIBLINGS]

    def _varies_with_others(self, a: int, b: int, change: _Change) -> bool:
        """Whether a third question near both lacks the words each of the two has at the place they differ: a
        set of questions that vary one place of a shared setup."""
        ca, cb = self.stem(a).count, self.stem(b).count
        for c in self._siblings(a, b):
            cc = self.stem(c).count
            if all(cc[w] < ca[w] for w in change.gone) and all(cc[w] < cb[w] for w in change.new):
                return True
        return False


def _mostly(sentences: list[list[str]], words: list[str]) -> bool:
    """Whether some sentence is more than half made of ``words`` (a multiset: each counts once)."""
    if not words:
        return False
    for sentence in sentences:
        left = Counter(words)
        own = 0
        for w in sentence:
            if left[w]:
                left[w] -= 1
                own += 1
        if own * 2 > len(sentence):
            return True
    return False


def _answers(x: StemKey, y: StemKey) -> Answers:
    if not (x.choices and y.choices) or x.choices == y.choices and x.keyed == y.keyed:
        return Answers.SAME
    if (x.keyed and y.keyed and x.keyed != y.keyed and digest_set(x.keyed) <= digest_set(y.choices)
            and digest_set(y.keyed) <= digest_set(x.choices)):
        return Answers.MISKEYED
    return Answers.DIFFER if x.choices != y.choices else Answers.SAME


def judged(keys: Sequence[StemKey], pairs: Sequence[tuple[int, int, float]], min_shared: float
           ) -> list[tuple[int, int, float, Answers]]:
    """The pairs that ask the same thing, with how their answers compare."""
    judge = Judge(keys, pairs, min_shared)
    out = []
    for a, b, score in pairs:
        answers = judge.verdict(a, b)
        if answers is not None:
            out.append((a, b, score, answers))
    return out
