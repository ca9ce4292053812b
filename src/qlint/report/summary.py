"""One ``BankSummary`` from one ``Run``: the single source of every number the report and ``qlint stats`` show.

Finding counts come straight from ``run.findings`` (exactly what ``qlint check --format json`` prints for the
same arguments). Per-question figures (key positions, reading grades, option lengths, coverage) are computed
over the questions ``check`` reports on (``run.shown``), with the options of the rules as this run configured
them. Bank-wide analyses (the key-position table, near-duplicate clusters) come from what the bank rules publish
about every loaded question (``Run.published``): the report shows a rule's results, it never recomputes them.
"""
from __future__ import annotations

import os
import posixpath
import statistics
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from qlint.finding import Finding, Severity
from qlint.language.readability import measure_stem, words_in_text
from qlint.wording import plural

if TYPE_CHECKING:
    from qlint.run.pipeline import Run
    from qlint.sourcemap import LoadedQuestion

SUMMARY_VERSION = 1
SEVERITIES = ("error", "warning", "info")
LETTERS = "ABCDEFGHIJ"
# Option-length ratio bands (key chars / mean distractor chars), lower bound inclusive.
RATIO_BANDS: tuple[tuple[str, float, float], ...] = (
    ("< 0.75", 0.0, 0.75),
    ("0.75 - 1.25", 0.75, 1.25),
    ("1.25 - 1.6", 1.25, 1.6),
    ("1.6 - 2.0", 1.6, 2.0),
    (">= 2.0", 2.0, float("inf")),
)
# the rules whose results the report shows, by name
KEY_POSITIONS, NEAR_DUPLICATES, READING_LEVEL, OPTION_LENGTH = (
    "answer-position-bias", "near-duplicate-stem", "reading-level", "option-length")
READING_GRADE, KEY_LENGTH = "reading-grade", "key-length-bias"


@dataclass
class RuleCount:
    code: str
    name: str
    severity: str  # the rule's effective severity in this run ("" for a rule that did not run)
    active: bool
    findings: int
    error: int = 0
    warning: int = 0
    info: int = 0


@dataclass
class FolderCount:
    folder: str
    files: int
    questions: int
    findings: int
    error: int = 0
    warning: int = 0
    info: int = 0


@dataclass
class QuestionFacts:
    id: str
    path: str
    line: int
    options: int
    select: int
    keys: list[int]
    grade: float | None  # reading-grade's Flesch-Kincaid grade, None when the stem is too short to grade
    words: int  # words of the stem after any passage, as reading-level counts them
    graded: bool  # long enough for reading-grade to judge
    above_target: bool
    longest_sentence: int  # words of the stem's longest sentence (after any passage)
    passage_words: int  # words of a passage the question asks about (0: none)
    length_ratio: float | None  # key chars / mean distractor chars
    objective: str | None
    difficulty: str | None
    tags: list[str]
    findings: int


@dataclass
class PositionGroup:
    options: int
    questions: int
    counts: list[int]
    expected: float
    tested: bool
    reason: str  # why not tested, or what the test found, in words
    statistic: float | None = None  # chi-square's statistic, or the exact test's keys at the fullest position
    p_value: float | None = None
    biased: bool | None = None
    test: str | None = None  # the spread test the rule ran: "chi-square" or "exact binomial"
    alpha: float | None = None  # the significance level the test was held to (shared among the groups)
    runs: list[dict] = field(default_factory=list)  # runs of one key position: id, path, line, length, position


@dataclass
class KeyPositions:
    rule_active: bool
    alpha: float
    min_questions: int
    groups: list[PositionGroup]
    excluded: int  # multi-key, key-less or > 10-option questions: not part of the test
    findings: list[dict]  # the answer-position-bias findings of this run, as check prints them
    verdict: str  # "biased" (a spread test fired), "runs" (only runs), "no bias detected", "not tested", "rule off"


@dataclass
class Reading:
    rule_active: bool  # reading-level ran (the sentence, stem, option and passage limits)
    target: float  # reading-grade's max-grade
    min_words: int  # reading-grade's min-words
    stems: int
    graded: int
    too_short: int
    above_target: int
    findings: int  # reading-level findings check reported (suppressions and ignores applied)
    mean: float | None
    median: float | None
    max: float | None
    bins: list[dict]  # whole-grade bins: {"grade": g, "stems": n} for graded stems
    grade_active: bool = False  # reading-grade ran
    grade_findings: int = 0  # reading-grade findings check reported
    min_sentences: int = 0
    limits: dict = field(default_factory=dict)  # reading-level's word limits, by option name
    reported: dict = field(default_factory=dict)  # the words above which reading-level reports, by limit's name
    long_sentences: int = 0  # stems with a sentence over max-sentence-words and its tolerance
    long_stems: int = 0  # stems over max-stem-words and its tolerance (after any passage)
    long_options: int = 0  # options over max-option-words and its tolerance
    passages: int = 0  # stems with a passage the question asks about
    sentence_bins: list[dict] = field(default_factory=list)  # {"words": "0-9", "stems": n}: each stem's longest sentence
    objectives: list[dict] = field(default_factory=list)  # the same figures per objective


@dataclass
class Lengths:
    measured: int
    unmeasured: int
    mean: float | None
    median: float | None
    max: float | None
    bands: list[dict]  # {"band": label, "questions": n}
    key_longest: int  # questions whose key is longer than every distractor
    findings: int  # option-length findings check reported
    rule_active: bool
    bias: dict | None = None  # key-length-bias's table (None when it did not run): see its publish
    bias_findings: list[dict] = field(default_factory=list)  # key-length-bias findings, as check prints them


@dataclass
class Coverage:
    objectives: list[dict]  # {"name", "questions"}
    tags: list[dict]
    difficulty: list[dict]
    no_objective: int
    no_tags: int
    no_difficulty: int


@dataclass
class ClusterMember:
    id: str
    path: str
    line: int
    stem: str
    flagged: bool  # has a near-duplicate-stem finding in this run


@dataclass
class Cluster:
    number: int
    size: int
    max_similarity: float
    members: list[ClusterMember]
    pairs: list[dict]  # {"a": id, "b": id, "similarity": s}


@dataclass
class NearDuplicates:
    rule_active: bool
    threshold: float
    clusters: list[Cluster]
    questions_in_clusters: int
    findings: int  # near-duplicate-stem findings check reported


@dataclass
class BankSummary:
    """Everything the report shows, as plain JSON-serialisable data."""

    name: str
    paths: list[str]
    totals: dict  # files, questions, findings, error, warning, info: equal to check's JSON "summary"
    rules_run: int
    by_rule: list[RuleCount]
    by_folder: list[FolderCount]
    key_positions: KeyPositions
    reading: Reading
    lengths: Lengths
    coverage: Coverage
    near_duplicates: NearDuplicates
    questions: list[QuestionFacts] = field(default_factory=list)
    version: int = SUMMARY_VERSION

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# -- helpers -----------------------------------------------------------------------------------------------


def length_ratio(question) -> float | None:
    """Characters of the key (mean of the keys) over the mean characters of the distractors; None if undefined."""
    keys = [len(o.text.strip()) for o in question.options if o.correct]
    others = [len(o.text.strip()) for o in question.options if not o.correct]
    if not keys or not others:
        return None
    mean_other = sum(others) / len(others)
    if mean_other == 0:
        return None
    return round((sum(keys) / len(keys)) / mean_other, 4)


def folder_of(path: str) -> str:
    """The folder a finding or file belongs to, as a posix path ('.' for the working folder)."""
    if path.startswith("<"):
        return path  # <bank>, <stdin>
    return posixpath.dirname(path.replace(os.sep, "/")) or "."


def _active(run: Run, name: str):
    return next((a for a in run.active if a.rule.name == name), None)


def _configured(run: Run, name: str):
    """The options rule ``name`` ran with in this run (its defaults when it did not run), and whether it ran."""
    chosen = _active(run, name)
    return (chosen.options, True) if chosen else (run.registry.get(name).options(), False)


def _count_severity(findings: list[Finding]) -> dict[str, int]:
    counts = {s: 0 for s in SEVERITIES}
    for f in findings:
        counts[str(f.severity)] += 1
    return counts


def _difficulty(value) -> str | None:
    return None if value is None else str(value)


def _round(value: float | None, digits: int = 2) -> float | None:
    return None if value is None else round(value, digits)


# -- sections ----------------------------------------------------------------------------------------------


def _by_rule(run: Run) -> list[RuleCount]:
    found: dict[str, list[Finding]] = defaultdict(list)
    codes: dict[str, str] = {}
    for f in run.findings:
        found[f.rule].append(f)
        codes.setdefault(f.rule, f.code)
    rows = []
    seen = set()
    for a in run.active:
        seen.add(a.rule.name)
        fs = found.get(a.rule.name, [])
        rows.append(RuleCount(a.rule.code, a.rule.name, str(a.severity), True, len(fs), **_count_severity(fs)))
    for name, fs in found.items():
        if name not in seen:  # internal-error and the like: reported, but not an active rule
            rows.append(RuleCount(codes[name], name, "", False, len(fs), **_count_severity(fs)))
    rows.sort(key=lambda r: (-r.findings, r.code, r.name))
    return rows


def _by_folder(run: Run) -> list[FolderCount]:
    files: Counter[str] = Counter()
    questions: Counter[str] = Counter()
    for r in run.shown:
        files[folder_of(r.path)] += 1
        questions[folder_of(r.path)] += r.question_count
    found: dict[str, list[Finding]] = defaultdict(list)
    for f in run.findings:
        found[folder_of(f.path)].append(f)
    folders = sorted(set(files) | set(found))
    rows = [FolderCount(d, files[d], questions[d], len(found.get(d, [])), **_count_severity(found.get(d, [])))
            for d in folders]
    rows.sort(key=lambda r: (-r.findings, r.folder))
    return rows


def _position_group(g: dict) -> PositionGroup:
    """One option-count group of the rule's table, with what its test found in words."""
    k, n = g["options"], g["questions"]
    runs = g.get("runs", [])
    if not g["tested"]:
        return PositionGroup(k, n, g["counts"], round(n / k, 2), False, f"not tested: {plural(n, 'question')}")
    statistic, p, biased, alpha = g["statistic"], g["p_value"], g["biased"], g["alpha"]
    words = "biased" if biased else "no bias detected"
    test = (f"chi-square {statistic:.1f}" if g["test"] == "chi-square" else
            f"exact binomial test, {statistic:.0f} keys at one position")
    reason = f"{words}: {test}, p={p:.2g} (alpha {alpha:.2g})"
    if runs:
        reason += "; " + ", ".join(f"a run of {r['length']} keys at {r['position']} from {r['id']}" for r in runs)
    return PositionGroup(k, n, g["counts"], round(n / k, 2), True, reason, round(statistic, 4), float(f"{p:.4g}"),
                         biased, g["test"], alpha, runs)


def _key_positions(run: Run) -> KeyPositions:
    table, options, active = run.published(KEY_POSITIONS)
    out = [_position_group(g) for g in table["groups"]]
    findings = [f.to_dict() for f in run.findings if f.rule == KEY_POSITIONS]
    if not active:
        verdict = "rule off"
    elif any(g.biased for g in out):
        verdict = "biased"
    elif any(g.runs for g in out):
        verdict = "runs"
    elif any(g.tested for g in out):
        verdict = "no bias detected"
    else:
        verdict = "not tested"
    return KeyPositions(active, options.alpha, options.min_questions, out, table["excluded"], findings, verdict)


LIMITS = ("max_sentence_words", "max_stem_words", "max_option_words")


def _sentence_bins(longest: list[int], limit: int, reported: int) -> list[dict]:
    """Each stem's longest sentence in bins of ten words up to reading-level's sentence limit, then the words over
    the limit that its tolerance allows, then the sentences it reports."""
    edges = sorted({*range(0, min(limit, 50) + 1, 10), limit + 1, reported + 1})
    bins = [*zip(edges, edges[1:]), (edges[-1], None)]
    return [{"words": f"{lo}-{hi - 1}" if hi else f"{lo}+", "stems": sum(lo <= n < (hi or n + 1) for n in longest)}
            for lo, hi in bins]


def _reading_figures(facts: list[QuestionFacts], reported: dict, target: float) -> dict:
    """The reading figures of some stems: the limits reading-level holds them to (with their tolerance, as the rule
    reports them), the grades reading-grade gave."""
    graded = [f.grade for f in facts if f.graded and f.grade is not None]
    return {
        "stems": len(facts), "graded": len(graded), "above_target": sum(g > target for g in graded),
        "median_grade": _round(statistics.median(graded) if graded else None),
        "long_sentences": sum(f.longest_sentence > reported["max_sentence_words"] for f in facts),
        "long_stems": sum(f.words > reported["max_stem_words"] for f in facts),
        "median_words": _round(statistics.median(f.words for f in facts) if facts else None, 1),
        "longest_sentence": max((f.longest_sentence for f in facts), default=0),
    }


def _reading(run: Run, facts: list[QuestionFacts], shown: list[LoadedQuestion]) -> Reading:
    limits_options, active = _configured(run, READING_LEVEL)
    grading, grade_options, grade_active = run.published(READING_GRADE)
    limits = {name: getattr(limits_options, name) for name in limits_options.__class__.model_fields}
    reported = {name: limits_options.reported(limits[name]) for name in LIMITS}
    graded = [f.grade for f in facts if f.graded and f.grade is not None]
    bins: Counter[int] = Counter(int(g // 1) for g in graded)
    by_objective: dict[str | None, list[QuestionFacts]] = defaultdict(list)
    for f in facts:
        by_objective[f.objective].append(f)
    return Reading(
        rule_active=active, target=grade_options.max_grade, min_words=grade_options.min_words, stems=len(facts),
        graded=len(graded), too_short=len(facts) - len(graded),
        above_target=sum(g > grade_options.max_grade for g in graded),
        findings=sum(1 for f in run.findings if f.rule == READING_LEVEL),
        mean=_round(statistics.fmean(graded) if graded else None),
        median=_round(statistics.median(graded) if graded else None),
        max=_round(max(graded) if graded else None),
        bins=[{"grade": g, "stems": bins[g]} for g in sorted(bins)],
        grade_active=grade_active and grading is not None,
        grade_findings=sum(1 for f in run.findings if f.rule == READING_GRADE),
        min_sentences=grade_options.min_sentences, limits=limits, reported=reported,
        long_sentences=sum(f.longest_sentence > reported["max_sentence_words"] for f in facts),
        long_stems=sum(f.words > reported["max_stem_words"] for f in facts),
        # the options reading-level reports (over the limit and repeating another option or the stem), or, when it
        # did not run, every option over the limit
        long_options=(sum(1 for f in run.findings if f.rule == READING_LEVEL and (f.field or "").startswith("options["))
                      if active else sum(words_in_text(o.text) > reported["max_option_words"] for q in shown
                                         for o in q.question.options)),
        passages=sum(f.passage_words > 0 for f in facts),
        sentence_bins=_sentence_bins([f.longest_sentence for f in facts], limits["max_sentence_words"],
                                     reported["max_sentence_words"]),
        objectives=[{"objective": name, **_reading_figures(items, reported, grade_options.max_grade)}
                    for name, items in sorted(by_objective.items(), key=lambda kv: (kv[0] is None, kv[0] or ""))],
    )


def _lengths(run: Run, facts: list[QuestionFacts], shown: list[LoadedQuestion]) -> Lengths:
    ratios = [f.length_ratio for f in facts if f.length_ratio is not None]
    bands = [{"band": label, "questions": sum(1 for r in ratios if lo <= r < hi)} for label, lo, hi in RATIO_BANDS]
    key_longest = 0
    for item in shown:
        keys = [len(o.text.strip()) for o in item.question.options if o.correct]
        others = [len(o.text.strip()) for o in item.question.options if not o.correct]
        if keys and others and min(keys) > max(others):
            key_longest += 1
    bias, _, bias_active = run.published(KEY_LENGTH)
    return Lengths(
        measured=len(ratios), unmeasured=len(facts) - len(ratios),
        mean=_round(statistics.fmean(ratios) if ratios else None),
        median=_round(statistics.median(ratios) if ratios else None),
        max=_round(max(ratios) if ratios else None), bands=bands, key_longest=key_longest,
        findings=sum(1 for f in run.findings if f.rule == OPTION_LENGTH),
        rule_active=_active(run, OPTION_LENGTH) is not None,
        bias=bias if bias_active else None,
        bias_findings=[f.to_dict() for f in run.findings if f.rule == KEY_LENGTH],
    )


def _coverage(facts: list[QuestionFacts]) -> Coverage:
    objectives = Counter(f.objective for f in facts if f.objective)
    tags = Counter(t for f in facts for t in dict.fromkeys(f.tags))
    difficulty = Counter(f.difficulty for f in facts if f.difficulty is not None)

    def order(value: str):
        return (0, int(value), "") if value.lstrip("+-").isdigit() else (1, 0, value)

    return Coverage(
        objectives=[{"name": k, "questions": v} for k, v in sorted(objectives.items(), key=lambda kv: (-kv[1], kv[0]))],
        tags=[{"name": k, "questions": v} for k, v in sorted(tags.items(), key=lambda kv: (-kv[1], kv[0]))],
        difficulty=[{"name": k, "questions": difficulty[k]} for k in sorted(difficulty, key=order)],
        no_objective=sum(1 for f in facts if not f.objective),
        no_tags=sum(1 for f in facts if not f.tags),
        no_difficulty=sum(1 for f in facts if f.difficulty is None),
    )


def _near_duplicates(run: Run, every: list[LoadedQuestion]) -> NearDuplicates:
    confirmed, options, active = run.published(NEAR_DUPLICATES)
    reported = [f for f in run.findings if f.rule == NEAR_DUPLICATES]
    if not active:
        return NearDuplicates(False, options.threshold, [], 0, len(reported))
    flagged = {(f.path, f.question, f.line) for f in reported}

    def is_flagged(item: LoadedQuestion) -> bool:
        return (item.path, item.question.id, item.locate("stem")[0]) in flagged

    # The rule's own pairs, over the same questions in the same order; an edge counts when check still reports
    # at least one of its two questions, so suppressed or ignored pairs do not form clusters.
    pairs = [(a, b, s) for a, b, s in confirmed if is_flagged(every[a]) or is_flagged(every[b])]
    parent = list(range(len(every)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b, _ in pairs:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    members: dict[int, set[int]] = defaultdict(set)
    edges: dict[int, list[tuple[int, int, float]]] = defaultdict(list)
    for a, b, s in pairs:
        root = find(a)
        members[root].update((a, b))
        edges[root].append((a, b, s))
    clusters = []
    for root in sorted(members, key=lambda r: (-len(members[r]), min(members[r]))):
        idx = sorted(members[root])
        clusters.append(Cluster(
            number=len(clusters) + 1, size=len(idx),
            max_similarity=round(max(s for _, _, s in edges[root]), 1),
            members=[ClusterMember(every[i].question.id, every[i].path, every[i].locate("stem")[0],
                                   " ".join(every[i].question.stem.split())[:240], is_flagged(every[i]))
                     for i in idx],
            pairs=[{"a": every[a].question.id, "b": every[b].question.id, "similarity": round(s, 1)}
                   for a, b, s in sorted(edges[root], key=lambda e: (-e[2], e[0], e[1]))],
        ))
    return NearDuplicates(True, options.threshold, clusters, sum(c.size for c in clusters), len(reported))


# -- entry point -------------------------------------------------------------------------------------------


def bank_name(run: Run, paths: list[str]) -> str:
    """A readable name for the bank: the one folder checked, else the config root's folder name."""
    if len(paths) == 1 and paths[0] != "-":
        target = Path(paths[0]).resolve()
        return target.name if target.is_dir() else target.stem
    if not paths and run.config.settings.paths and len(run.config.settings.paths) == 1:
        return Path(run.config.settings.paths[0]).name
    return run.config.root.resolve().name or "bank"


def summarize(run: Run, paths: list[str] | None = None, *, name: str | None = None) -> BankSummary:
    """The bank summary of one finished run."""
    paths = list(paths or [])
    shown = [q for r in run.shown for q in r.questions or ()]
    every = [q for r in run.results for q in r.questions or ()]
    grading, grade_options, _ = run.published(READING_GRADE)
    grades = {(q["path"], q["id"], q["line"]): q["grade"] for q in (grading or {}).get("questions", ())}
    # the stems reading-level measured, as its findings count them (quotations, lists and shared setups read as it
    # reads them); a stem it did not measure, too short for any limit, counts as it stands
    measured, _, _ = run.published(READING_LEVEL)
    figures = {(q["path"], q["id"], q["line"]): q for q in (measured or {}).get("questions", ())}
    per_question: Counter[tuple[str, str | None]] = Counter((f.path, f.question) for f in run.findings)

    facts = []
    for item in shown:
        q = item.question
        level = grades.get((item.path, q.id, item.line))
        counted = figures.get((item.path, q.id, item.line))
        if counted is None:
            measure = measure_stem(q.stem)
            counted = {"longest_sentence": measure.longest, "words": measure.words,
                       "passage_words": measure.passage_words}
        facts.append(QuestionFacts(
            id=q.id, path=item.path, line=item.line, options=len(q.options), select=q.select, keys=list(q.keys),
            grade=level, words=counted["words"], graded=level is not None,
            above_target=level is not None and level > grade_options.max_grade, length_ratio=length_ratio(q),
            objective=q.objective.strip() if q.objective and q.objective.strip() else None,
            difficulty=_difficulty(q.difficulty), tags=list(dict.fromkeys(t.strip() for t in q.tags if t.strip())),
            findings=per_question[(item.path, q.id)], longest_sentence=counted["longest_sentence"],
            passage_words=counted["passage_words"],
        ))

    totals = {"files": len(run.shown), "questions": len(shown), "findings": len(run.findings),
              **_count_severity(run.findings)}
    return BankSummary(
        name=name or bank_name(run, paths),
        paths=paths or [str(p) for p in run.config.settings.paths],
        totals=totals,
        rules_run=len(run.active),
        by_rule=_by_rule(run),
        by_folder=_by_folder(run),
        key_positions=_key_positions(run),
        reading=_reading(run, facts, shown),
        lengths=_lengths(run, facts, shown),
        coverage=_coverage(facts),
        near_duplicates=_near_duplicates(run, every),
        questions=facts,
    )


__all__ = ["BankSummary", "summarize", "length_ratio", "folder_of", "Severity"]
