"""key-length-bias: across the bank (or a folder, or an objective) the key is the longest option far more often
than chance."""
from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

from pydantic import Field

from qlint.finding import Severity
from qlint.items import BankItem, one_copy
from qlint.language.chisquare import binomial_sum_tail
from qlint.language.phrases import is_meta
from qlint.language.words import IMAGE, is_code, is_numeric, plain, strip_code
from qlint.model import Question
from qlint.rule import BankRule, BankViolation, Invalid, RuleOptions
from qlint.shapes import only

WORST = 3   # questions named in a finding


class Options(RuleOptions):
    min_ratio: float = Field(default=1.25, gt=1, le=1000, description=(
        "an option is clearly the longest when it has at least this many times the characters of the next ..."))
    min_extra_chars: int = Field(default=5, ge=0, le=1_000_000, description="... and at least this many more")
    alpha: float = Field(default=0.01, gt=0, lt=0.5, description=(
        "significance level of the exact test, shared (Bonferroni) among the bank, its folders and its objectives"))
    min_lift: float = Field(default=1.5, ge=1, le=1000, description=(
        "the key must be the clearly longest option at least this many times as often as chance would have it: "
        "a big bank's small tilt is significant but not worth fixing"))
    min_questions: int = Field(default=10, ge=2, le=10_000_000, description=(
        "groups with fewer questions that have a clearly longest option are not tested"))


@dataclass(frozen=True, slots=True)
class Longest:
    """One question as the rule sees it: how many options were compared (not 'All/None of the above'), how many
    of those are keys, which option (its index in the question) is clearly the longest, or -1, and how many times
    the next one's characters it has."""

    compared: int
    keys: int
    longest: int
    ratio: float


def extract(question: Question, options: Options) -> Longest:
    compared = [(plain(strip_code(o.text)), i) for i, o in enumerate(question.options) if not is_meta(o.text)]
    lengths = [(len(text), i) for text, i in compared]
    keys = sum(question.options[i].correct for _, i in lengths)
    # a picture has no length, and a number's or a piece of code's says nothing of a writer's qualifying
    if (len(lengths) < 2 or any(IMAGE.search(o.text) for o in question.options)
            or any(is_code(question.options[i].text) or is_numeric(text) for text, i in compared)):
        return one_copy(Longest(len(lengths), keys, -1, 0.0))
    lengths.sort(reverse=True)
    (first, index), (second, _) = lengths[0], lengths[1]
    clear = first >= options.min_ratio * second and first - second >= options.min_extra_chars
    return one_copy(Longest(len(lengths), keys, index if clear else -1, round(first / max(1, second), 2)))


def encode(features: list[Longest]) -> list[list]:
    return [[f.compared, f.keys, f.longest, f.ratio] for f in features]


def decode(data: object, count: int) -> list[Longest]:
    if not isinstance(data, list) or len(data) != count:
        raise ValueError("not an encoding of this rule's features")
    if not (only(data, list) and set(map(len, data)) <= {4}):
        raise ValueError("not a longest-option record")
    compared, keys, longest, ratio = zip(*data) if data else ((), (), (), ())
    if not (only(compared, int) and only(keys, int) and only(longest, int) and set(map(type, ratio)) <= {int, float}):
        raise ValueError("not a longest-option record")
    # a bank's questions share a few records: each distinct one is made once (its numbers, their types checked, are
    # equal as a key only where the records are equal)
    made: dict[tuple, Longest] = {}
    out = []
    for row in zip(compared, keys, longest, ratio):
        found = made.get(row)
        if found is None:
            found = made[row] = one_copy(Longest(row[0], row[1], row[2], float(row[3])))
        out.append(found)
    return out


@dataclass
class Group:
    """The questions of one part of the bank that have a clearly longest option, and how often it is a key."""

    kind: str      # "bank", "folder" or "objective"
    name: str
    items: list[BankItem]   # each with its feature, a ``Longest`` that ``_eligible`` accepts

    @property
    def members(self) -> Iterator[tuple[BankItem, Longest]]:
        """The questions with their features (made when asked: a group of a million keeps only its questions)."""
        name = RULE.name
        return ((item, item.features[name]) for item in self.items)

    @property
    def hits(self) -> list[tuple[BankItem, Longest]]:
        return [(item, f) for item, f in self.members if f.longest in item.keys]

    @cached_property
    def _tally(self) -> tuple[int, float, dict[float, int]]:
        """In one pass over the questions: how many have the key as the clearly longest option, how many chance
        would give, and how many questions have each chance (a test, its effect floor and the finding read all
        three, and a bank's group has every question)."""
        hits, expected = 0, 0
        by_chance: dict[float, int] = defaultdict(int)
        for item, f in self.members:
            chance = f.keys / f.compared
            expected += chance
            by_chance[chance] += 1
            hits += f.longest in item.keys
        return hits, float(expected), by_chance

    @property
    def hit_count(self) -> int:
        return self._tally[0]

    @property
    def expected(self) -> float:
        return self._tally[1]

    def p_value(self) -> float:
        by_chance = self._tally[2]
        return binomial_sum_tail([(n, p) for p, n in sorted(by_chance.items())], self.hit_count)

    def where(self) -> str:
        return {"bank": "the bank", "folder": f"{self.name}/", "objective": f"objective {self.name!r}"}[self.kind]


def _eligible(item: BankItem) -> Longest | None:
    f = item.features.get(RULE.name)
    if not isinstance(f, Longest) or f.longest < 0 or not 0 < f.keys < f.compared or len(item.keys) != f.keys:
        return None
    return f


def groups(items: Sequence[BankItem]) -> list[Group]:
    """The bank, each of its folders (when it has several) and each declared objective, without repeats: a folder
    that holds the whole bank, or an objective that is a folder, is tested once."""
    members = [item for item in items if _eligible(item) is not None]
    folders: dict[str, list] = defaultdict(list)
    objectives: dict[str, list] = defaultdict(list)
    for item in members:
        folders[posixpath.dirname(item.path.replace("\\", "/")) or "."].append(item)
        if item.objective and item.objective.strip():
            objectives[item.objective.strip()].append(item)
    out = [Group("bank", "", members)]
    # every group lists its questions in bank order: two that hold the same questions have the same size, first
    # and last question, and are then compared item by item (by identity, in C)
    seen: dict[tuple[int, int, int], list[list[BankItem]]] = defaultdict(list)
    seen[_ends(members)].append(members)
    for kind, table in (("folder", folders), ("objective", objectives)):
        for name in sorted(table):
            group = table[name]
            alike = seen[_ends(group)]
            if not any(group == other for other in alike):
                alike.append(group)
                out.append(Group(kind, name, group))
    return out


def _ends(group: list[BankItem]) -> tuple[int, int, int]:
    return (len(group), id(group[0]), id(group[-1])) if group else (0, 0, 0)


@dataclass
class Verdict:
    """One group's test: its p-value (None when too small to test) and whether check reports it."""

    group: Group
    p_value: float | None
    reported: bool


def _biased(g: Group, alpha: float, options: Options) -> tuple[float, bool]:
    hits = g.hit_count
    if not hits or hits < options.min_lift * g.expected:
        return g.p_value(), False   # below the effect floor: whatever the p-value, not worth a finding
    p = g.p_value()
    return p, p < alpha


def verdicts(items: Sequence[BankItem], options: Options) -> list[Verdict]:
    """Every group with its test. A group biased only through narrower groups that are reported (the bank through a
    folder, a folder through an objective inside it) is reported through those: it is reported itself when it is
    still biased without their questions."""
    found = groups(items)
    # by identity: comparing groups as dataclasses would compare every folder's name with every other's
    tested = {id(g) for g in found if len(g.items) >= options.min_questions}
    alpha = options.alpha / max(1, len(tested))
    out = []
    for g in found:
        p, reported = _biased(g, alpha, options) if id(g) in tested else (None, False)
        out.append(Verdict(g, p, reported))
    flagged = [v for v in out if v.reported]
    members = [{id(item) for item in v.group.items} for v in flagged]
    # the flagged groups each question is in (the bank, its folder, its objective: three at most), so that a
    # group's narrower ones are found among those holding their first question, not among every other group
    holding: dict[int, list[int]] = defaultdict(list)
    for n, own in enumerate(members):
        for question in own:
            holding[question].append(n)
    inside: dict[int, list[int]] = defaultdict(list)
    for n, v in enumerate(flagged):
        for m in holding[id(v.group.items[0])] if v.group.items else ():
            if m != n and members[n] < members[m]:
                inside[m].append(n)
    for m, v in enumerate(flagged):
        narrower = set().union(*(members[n] for n in inside[m]))
        if narrower:
            rest = Group(v.group.kind, v.group.name, [i for i in v.group.items if id(i) not in narrower])
            v.reported = len(rest.items) >= options.min_questions and _biased(rest, alpha, options)[1]
    return out


def _starkest(g: Group) -> list[tuple[BankItem, Longest]]:
    return sorted(g.hits, key=lambda h: (-h[1].ratio, h[0].path, h[0].line))


def _p(p: float) -> str:
    return "p<1e-12" if p < 1e-12 else f"p={p:.2g}"


def check(items: Sequence[BankItem], options: Options, found: list[Verdict]) -> Iterator[BankViolation]:
    for v in found:
        if not v.reported or v.p_value is None:
            continue
        g = v.group
        n, hits, expected = len(g.items), g.hit_count, g.expected
        worst = _starkest(g)
        named = ", ".join(f"{item.id} ({f.ratio:.1f}x)" for item, f in worst[:WORST])
        item, f = worst[0]
        yield BankViolation(item, f"options[{f.longest}].text", (
            f"across {g.where()}, the key is the clearly longest option in {hits} of the {n} questions that have "
            f"one ({hits / n:.0%}); chance is {expected / n:.0%} (exact binomial test, {_p(v.p_value)}); the "
            f"starkest: {named}"), bank_level=True)


def publish(items: Sequence[BankItem], options: Options, found: list[Verdict]) -> dict:
    """How often the clearly longest option is a key: for the bank, each folder and each objective (questions with
    a clearly longest option, how many of those have it as a key, the rate chance would give, the exact test's
    p-value where the group is big enough, and whether check reports it), and the bank per option count."""
    rows = []
    for v in found:
        g = v.group
        n, hits, expected = len(g.items), g.hit_count, g.expected
        rows.append({"kind": g.kind, "name": g.name, "questions": n, "key_longest": hits,
                     "rate": round(hits / n, 4) if n else None, "chance": round(expected / n, 4) if n else None,
                     "tested": v.p_value is not None, "p_value": v.p_value, "flagged": v.reported,
                     "starkest": [{"id": item.id, "path": item.path, "line": item.line, "ratio": f.ratio}
                                  for item, f in _starkest(g)[:WORST]]})
    by_options: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for item, f in found[0].group.members:
        by_options[f.compared][0] += 1
        by_options[f.compared][1] += f.longest in item.keys
    return {"min_ratio": options.min_ratio, "alpha": options.alpha, "min_lift": options.min_lift,
            "questions": len(items), "groups": rows,
            "by_options": [{"options": k, "questions": n, "key_longest": h, "chance": round(1 / k, 4)}
                           for k, (n, h) in sorted(by_options.items())]}


def _bank(keyed_long: bool) -> str:
    """24 four-option questions, keys spread evenly over A-D, one option of each much longer than the rest: the key
    in 20 of them, or wherever chance puts it (6 of 24)."""
    out = ["questions:\n"]
    for i in range(24):
        key = i % 4
        long = key if keyed_long and i % 6 else (i // 4) % 4
        out.append(f"  - id: q{i}\n    stem: Which setting explains case {i} of the memory report?\n    options:\n")
        out += [f"      - {{text: {'Each stored loss keeps its whole autograd graph alive' if j == long else f'Setting {j}'}"
                f", {'correct: true, ' if j == key else ''}rationale: Reason.}}\n" for j in range(4)]
    return "".join(out)


RULE = BankRule(
    code="Q603",
    name="key-length-bias",
    severity=Severity.WARNING,
    summary="Across the bank (or a folder or objective), the key is the longest option far more often than chance.",
    why=("Test-wise candidates learn a bank's habits: if the longest option is the key in half of the four-option "
         "questions, where chance gives a quarter, picking the longest pays (Haladyna, Downing & Rodriguez 2002, "
         "guideline 23). A single long key is a small cue; a bank-wide habit is a strategy."),
    use_instead="Review the starkest questions first: trim their keys or give their distractors the same detail.",
    options=Options,
    check=check,
    extract=extract,
    encode=encode,
    decode=decode,
    publish=publish,
    survey=verdicts,
    notes=("Only questions with a clearly longest option count (min-ratio times the characters of the next, and "
           "min-extra-chars more; 'All/None of the above' is not compared), and only where the options have a "
           "length to compare: not where one of them is a number, code or a picture. Under chance, that option "
           "is a key in keys/options of them (a quarter for four options and one key); the test is the exact "
           "distribution of that sum, one-sided, at alpha shared among the bank, each folder (when there are "
           "several) and each declared objective. A group is reported only when it has at least min-questions "
           "such questions and its rate is at least min-lift times chance; a group biased only through narrower "
           "groups that are reported (the bank through a folder, a folder through an objective in it) is not "
           "reported again. The finding sits on the starkest question of the group."),
    passing=(_bank(False),),
    failing=(Invalid(_bank(True),
        field="options[0].text",
        message="across the bank, the key is the clearly longest option in 21 of the 24 questions that have one (88%)"),),
)
