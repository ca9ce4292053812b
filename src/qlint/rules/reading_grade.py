"""reading-grade: a long stem reads above the bank's audience, not counting the bank's own vocabulary."""
from __future__ import annotations

import base64
import statistics
import zlib
from array import array
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from pydantic import Field

from qlint.finding import Severity
from qlint.items import BankItem
from qlint.language.readability import (GradeParts, grade_parts, is_english, long_words_in, measure_stem, most_words,
                                        syllables)
from qlint.model import Question
from qlint.rule import BankRule, BankViolation, Invalid, RuleOptions

# a stem's distinct long words kept for the bank's vocabulary (what the count of a bank's terms needs, and no more)
MAX_TERMS = 16


class Options(RuleOptions):
    max_grade: float = Field(default=16.0, gt=0, le=100, description=(
        "the bank's audience: the highest Flesch-Kincaid grade a stem should read at (12: the end of secondary "
        "school; 16: a graduate)"))
    min_words: int = Field(default=100, ge=20, le=1_000_000, description=(
        "stems with fewer words are not graded: the formula is unstable on short text"))
    min_sentences: int = Field(default=3, ge=1, le=1_000_000, description="... nor stems with fewer sentences")
    vocabulary_share: float = Field(default=0.01, ge=0, le=1, description=(
        "a long word in at least this share of the bank's stems (and in at least vocabulary-questions of them) is "
        "the bank's own vocabulary: counted as a familiar word, not a hard one"))
    vocabulary_questions: int = Field(default=3, ge=1, le=10_000_000, description="... see vocabulary-share")


@dataclass(frozen=True, slots=True)
class Feature:
    """What the rule needs of one question: the hashes of its stem's distinct long words (three syllables or more,
    the MAX_TERMS smallest hashes: a sample the same for every question that has the word), and, when the stem is
    long enough to be graded, the parts of its grade."""

    terms: bytes
    parts: GradeParts | None


@lru_cache(maxsize=200_000)
def _hash(word: str) -> int:
    return zlib.crc32(word.encode("utf-8"))


def extract(question: Question, options: Options) -> Feature:
    stem = question.stem
    terms = array("I", sorted(map(_hash, long_words_in(stem)))[:MAX_TERMS])
    if most_words(stem) < options.min_words:
        return Feature(terms.tobytes(), None)   # too short to grade, whatever its sentences
    asked = measure_stem(stem).asked
    parts = grade_parts(stem, asked)
    graded = (parts.words >= options.min_words and parts.sentences >= options.min_sentences
              and is_english(stem[asked[0].start:asked[-1].end]))
    return Feature(terms.tobytes(), parts if graded else None)


def encode(features: list[Feature]) -> list:
    return [[base64.b64encode(f.terms).decode("ascii"),
             [f.parts.words, f.parts.sentences, f.parts.syllables, sorted(f.parts.long_words.items())]
             if f.parts else 0] for f in features]


def _parts(data: object) -> GradeParts | None:
    if data == 0:
        return None
    words, count, syllables, long_words = data  # type: ignore[misc]
    if not all(type(v) is int and v >= 0 for v in (words, count, syllables)):
        raise ValueError("not grade parts")
    table = {}
    for word, n in long_words:
        if type(word) is not str or type(n) is not int:
            raise ValueError("not a long word and its count")
        table[word] = n
    return GradeParts(words, count, syllables, table)


def decode(data: object, count: int) -> list[Feature]:
    if not isinstance(data, list) or len(data) != count:
        raise ValueError("not an encoding of this rule's features")
    out = []
    for terms, parts in data:
        raw = base64.b64decode(terms, validate=True)
        if len(raw) % 4 or len(raw) > 4 * MAX_TERMS:
            raise ValueError("not term hashes")
        out.append(Feature(raw, _parts(parts)))
    return out


def vocabulary(items: Sequence[BankItem], options: Options) -> frozenset[str]:
    """The long words of the graded stems that are the bank's own: used in at least vocabulary-share of its stems
    (and at least vocabulary-questions of them)."""
    features = [f for f in (item.features.get(RULE.name) for item in items) if isinstance(f, Feature)]
    graded = {w for f in features if f.parts for w in f.parts.long_words}
    if not graded:
        return frozenset()
    wanted = {_hash(w): w for w in graded}
    counts: dict[int, int] = defaultdict(int)
    for f in features:
        for h in array("I", f.terms):
            if h in wanted:
                counts[h] += 1
    needed = max(options.vocabulary_questions, options.vocabulary_share * len(items))
    return frozenset(wanted[h] for h, n in counts.items() if n >= needed)


@dataclass(frozen=True, slots=True)
class Graded:
    item: BankItem
    parts: GradeParts
    grade: float
    plain_grade: float   # counting every long word as hard


def graded(items: Sequence[BankItem], options: Options) -> tuple[list[Graded], frozenset[str]]:
    """The stems long enough to grade, with their grades (shown rounded to one decimal, and judged as shown), and the
    bank's vocabulary they were graded with."""
    vocab = vocabulary(items, options)
    out = []
    for item in items:
        f = item.features.get(RULE.name)
        if isinstance(f, Feature) and f.parts:
            out.append(Graded(item, f.parts, round(f.parts.grade(vocab), 1), round(f.parts.grade(), 1)))
    return out, vocab


def _hard_words(parts: GradeParts, vocab: frozenset[str]) -> list[str]:
    """The long words of a stem that are not the bank's own, longest first."""
    return sorted((w for w in parts.long_words if w not in vocab), key=lambda w: (-syllables(w), w))


def check(items: Sequence[BankItem], options: Options, surveyed: tuple[list[Graded], frozenset[str]]
          ) -> Iterator[BankViolation]:
    found, vocab = surveyed
    for g in found:
        if g.grade <= options.max_grade:
            continue
        hard = _hard_words(g.parts, vocab)
        own = len(g.parts.long_words) - len(hard)
        yield BankViolation(g.item, "stem", (
            f"the stem reads at grade {g.grade:.1f}, above the audience's {options.max_grade:g} (Flesch-Kincaid over "
            f"{g.parts.words} words in {g.parts.sentences} sentences, {g.parts.words / g.parts.sentences:.0f} words "
            f"a sentence; hard words: {', '.join(hard[:4]) or 'none'}"
            + (f"; {own} of the bank's own terms counted as plain" if own else "") + ")"))


def _summary(grades: list[float], target: float) -> dict:
    return {"graded": len(grades), "above": sum(g > target for g in grades),
            "mean": round(statistics.fmean(grades), 2) if grades else None,
            "median": round(statistics.median(grades), 2) if grades else None,
            "max": max(grades) if grades else None}


def publish(items: Sequence[BankItem], options: Options, surveyed: tuple[list[Graded], frozenset[str]]) -> dict:
    """The grades of the stems long enough to grade: for the bank and per objective, how many were graded, how many
    read above max-grade, their mean, median and highest; and each graded stem's grade."""
    found, _ = surveyed
    by_objective: dict[str, list[float]] = defaultdict(list)
    stems_by_objective: dict[str, int] = defaultdict(int)
    for item in items:
        stems_by_objective[(item.objective or "").strip()] += 1
    for g in found:
        by_objective[(g.item.objective or "").strip()].append(g.grade)
    return {
        "target": options.max_grade, "min_words": options.min_words, "min_sentences": options.min_sentences,
        "bank": {"stems": len(items), **_summary([g.grade for g in found], options.max_grade)},
        "objectives": [{"objective": name or None, "stems": stems_by_objective[name],
                        **_summary(by_objective.get(name, []), options.max_grade)}
                       for name in sorted(stems_by_objective, key=lambda n: (n == "", n))],
        "questions": [{"id": g.item.id, "path": g.item.path, "line": g.item.line, "grade": g.grade,
                       "plain_grade": g.plain_grade, "words": g.parts.words, "sentences": g.parts.sentences}
                      for g in sorted(found, key=lambda g: -g.grade)],
    }


_DENSE = ("Considering the aforementioned computational considerations regarding the instantiation of heterogeneous "
          "parallelisation configurations, notwithstanding the organisational particularities characterising "
          "contemporary institutional infrastructure, administrators must evaluate alternatives methodically. "
          "Comprehensive documentation, institutional accountability and interoperability requirements "
          "substantially complicate implementation decisions, particularly regarding authentication, authorisation "
          "and cryptographic certification. Organisational stakeholders additionally anticipate considerable "
          "operational variability, necessitating continuous monitoring, comprehensive instrumentation and "
          "sophisticated capacity planning methodologies. Institutional procurement regulations, contractual "
          "obligations and jurisdictional data-residency considerations introduce further complications, "
          "especially for multinational organisations operating heterogeneous environments simultaneously. "
          "Consequently, experienced practitioners systematically prioritise interoperability, maintainability "
          "and organisational sustainability. "
          "Which consideration predominantly determines the "
          "appropriateness of a particular implementation?")
_PLAIN = ("Your team runs a web shop on four servers. Last week the shop was slow every evening. The logs show that "
          "the database was busy at those times. The servers had plenty of free memory. The network was quiet. "
          "Most of the slow pages were search pages. Each search reads the whole product table. The table has grown "
          "to ten million rows this year. Your manager wants the shop fast again before the sale next month. She "
          "asks you to change as little as you can. You may add an index, a cache or a bigger database server. "
          "What should you try first?")

RULE = BankRule(
    code="Q406",
    name="reading-grade",
    severity=Severity.INFO,
    summary="A long stem reads above the bank's audience (Flesch-Kincaid grade), not counting the bank's own terms.",
    why=("Reading difficulty the subject does not need is construct-irrelevant (NBME): it penalises second-language "
         "and slow readers. A grade is only stable on longer text, and the technical terms every question of a "
         "subject uses are not what makes a stem hard for its candidates."),
    use_instead="Split long sentences and prefer common words; set max-grade to your candidates' reading level.",
    options=Options,
    check=check,
    extract=extract,
    encode=encode,
    decode=decode,
    publish=publish,
    survey=graded,
    notes=("Only stems of at least min-words words in min-sentences sentences are graded, and only English ones "
           "(the formula is English). A reading passage the question asks about is not graded (see reading-level); "
           "identifiers, code and URLs count as one-syllable words. A long word (three syllables or more) that at "
           "least vocabulary-share of the bank's stems use is the bank's own vocabulary and counts as a two-syllable "
           "word. The grade is shown to one decimal and judged as shown."),
    passing=(f"id: rg-plain\nstem: {_PLAIN}\noptions:\n"
             "  - {text: An index on the searched column, correct: true, rationale: Correct. Searches stop reading "
             "every row.}\n  - {text: A bigger database server, rationale: Incorrect. It changes the most.}\n",
             f"id: rg-short\nstem: {_DENSE[:_DENSE.index('.') + 1]}\noptions:\n"
             "  - {text: Bandwidth, correct: true, rationale: Correct. It bounds scaling.}\n"
             "  - {text: Colour, rationale: Incorrect. Irrelevant.}\n"),
    failing=(Invalid(f"id: rg-dense\nstem: {_DENSE}\noptions:\n"
             "  - {text: Communication bandwidth, correct: true, rationale: Correct. It bounds scaling.}\n"
             "  - {text: Colour of the racks, rationale: Incorrect. Irrelevant.}\n",
        field="stem",
        message="the stem reads at grade 37.9, above the audience's 16"),),
)
