"""Item analysis end to end: bank files and response files in, located findings and statistics out."""
from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from qlint.analysis import AnalysisError, connect
from qlint.analysis.bankkeys import load_bank
from qlint.analysis.ctt import Statistics, compute
from qlint.analysis.irt import fit_2pl
from qlint.analysis.readers import NOT_SCORED, SLOT, STATUS_NAMES, UNKNOWN_ITEM, UNKNOWN_OPTION, Intake, create_answers, read_file
from qlint.analysis.sources import first_line
from qlint.finding import Finding, Severity, finding
from qlint.formats import read_path as load_file
from qlint.items import CheckedFile
from qlint.problems import INTERNAL_ERROR, RESPONSE_DATA
from qlint.responserule import BankQuestion, ItemView, ResponseRule
from qlint.rule import ActiveRule
from qlint.sourcemap import LoadedQuestion

DATA_RULE = RESPONSE_DATA


@dataclass
class Analysis:
    """Findings, the statistics behind them, what the readers did, and which rules stayed silent for want of data."""

    findings: list[Finding]
    stats: Statistics
    intake: Intake
    questions: list[BankQuestion]
    silent: dict[str, int] = field(default_factory=dict)
    irt: list = field(default_factory=list)   # IrtItem per question and form, when asked for

    def summary(self) -> list[str]:
        """Lines for the end of a run: what was read, what was not, who stayed silent and why."""
        counts = self.intake.status_counts
        lines = [f"item analysis: {sum(counts.values())} answers read; " + ", ".join(
            f"{n} {STATUS_NAMES[s]}" for s, n in sorted(counts.items()) if n)]
        for form in self.stats.forms:
            alpha = "n/a" if form.alpha is None else f"{form.alpha:.3f}"
            name = f"form {form.form!r}: " if form.form else ""
            lines.append(f"item analysis: {name}{form.persons} persons, {form.items} questions, mean {form.mean:.2f}, "
                         f"sd {form.sd:.2f}, alpha (KR-20) {alpha}")
        if self.stats.repeats:
            lines.append(f"item analysis: {self.stats.repeats} repeated answers (later attempts) not scored")
        for rule, n in sorted(self.silent.items()):
            lines.append(f"item analysis: {rule} did not judge {n} question{'s' if n != 1 else ''} "
                         "with fewer answers than its min-responses")
        return lines


def bank_questions(paths: Sequence[str]) -> list[BankQuestion]:
    """The bank's questions with every field's position, in file order (the order Moodle slots refer to)."""
    loaded: list[LoadedQuestion] = []
    for path in paths:
        loaded += load_file(Path(path), path).questions
    return [BankQuestion(i, q) for i, q in enumerate(loaded)]


def kept_questions(outcomes: Sequence[CheckedFile]) -> list[BankQuestion]:
    """The questions a check run read (and kept), in file order: the run's reading, under its limits and
    formats, is the bank the responses are matched with; no file is read again."""
    loaded = [q for outcome in outcomes for q in outcome.questions or ()]
    return [BankQuestion(i, q) for i, q in enumerate(loaded)]


def analyze(questions: list[BankQuestion], responses: Sequence[Path], active: Sequence[ActiveRule],
            data_severity: Severity | None = Severity.WARNING, irt: bool = False) -> Analysis:
    """Read the responses (a file named twice, once), compute the statistics (and a 2PL fit when ``irt``), run the
    response rules."""
    named: dict[str, Path] = {}
    for path in responses:
        named.setdefault(os.path.realpath(path), path)
    responses = list(named.values())
    if not responses:
        raise AnalysisError("no response files to analyse: name at least one (CSV, TSV or Parquet) besides the bank")
    if not questions:
        raise AnalysisError("the bank has no valid questions to join the responses to")
    con = connect()
    # the engine's own error class: connect() has loaded DuckDB (or said how to install it), an optional extra
    import duckdb

    try:
        load_bank(con, questions)
        create_answers(con)
        intake = Intake()
        for i, path in enumerate(responses):
            read_file(con, path, f"f{i}", questions, intake)
        if not any(intake.answers.values()):
            raise AnalysisError("no answers to analyse: " + "; ".join(f"{p}: {why}" for p, why in intake.empty.items()))
        _tally(con, intake)
        attempts = con.execute("SELECT 1 FROM answers WHERE attempt IS NOT NULL LIMIT 1").fetchone() is not None
        stats = compute(con, {q.index: q.key for q in questions}, {q.index: len(q.options) for q in questions},
                        attempts)
        unknown_options = _unknown_options(con)
        fitted = fit_2pl(con, [f.form for f in stats.forms]) if irt else []
    except duckdb.Error as exc:   # the files were read: what is left is the engine itself (memory, disk)
        raise AnalysisError(f"item analysis failed: {first_line(exc)}") from None
    finally:
        con.close()
    result = Analysis([], stats, intake, questions, irt=fitted)
    _judge(result, [a for a in active if isinstance(a.rule, ResponseRule) and a.rule.name != DATA_RULE[1]])
    if data_severity is not None:
        result.findings += data_findings(result, responses, unknown_options, data_severity)
    return result


def _tally(con, intake: Intake) -> None:
    intake.status_counts = dict(con.execute("SELECT status, count(*) FROM answers GROUP BY status").fetchall())
    intake.unknown_items = con.execute(
        f"SELECT raw_item, count(*) FROM answers WHERE status = {UNKNOWN_ITEM} GROUP BY raw_item "
        "ORDER BY count(*) DESC, raw_item LIMIT 5").fetchall()


def _unknown_options(con) -> dict[int, tuple[int, list[tuple[str, int]]]]:
    """Per question: how many answers named no option, and the five commonest of them (free text in a response
    column can hold millions of distinct values: only these few leave the engine)."""
    out: dict[int, tuple[int, list[tuple[str, int]]]] = {}
    for qi, total, response, n in con.execute(f"""
            WITH c AS (SELECT qi, raw_response, count(*) AS n FROM answers WHERE status = {UNKNOWN_OPTION}
                       GROUP BY qi, raw_response)
            SELECT qi, sum(n) OVER (PARTITION BY qi), raw_response, n FROM c
            QUALIFY row_number() OVER (PARTITION BY qi ORDER BY n DESC, raw_response) <= 5
            ORDER BY qi, n DESC, raw_response""").fetchall():
        out.setdefault(qi, (int(total), []))[1].append((response, n))
    return out


def _judge(result: Analysis, rules: Sequence[ActiveRule]) -> None:
    forms = {f.form: f for f in result.stats.forms}
    for stats in result.stats.items:
        question = result.questions[stats.qi]
        view = ItemView(question, stats, forms[stats.form], len(forms))
        for active in rules:
            rule = active.rule
            if stats.n < getattr(active.options, "min_responses", 0):
                result.silent[rule.name] = result.silent.get(rule.name, 0) + 1
                continue
            try:
                for violation in rule.check(view, active.options):  # type: ignore[attr-defined]
                    line, column = question.loaded.locate(violation.field)
                    result.findings.append(finding(question.loaded.path, line, column, (rule.code, rule.name),
                                                   violation.message, question.id, violation.field, active.severity))
            except (Exception, SystemExit) as exc:  # a broken rule (a plugin's) is a finding, never a crash
                loaded = question.loaded
                result.findings.append(finding(loaded.path, loaded.line, loaded.column, INTERNAL_ERROR,
                                               f"rule {rule.name} failed: {type(exc).__name__}: {exc}", question.id))


def data_findings(result: Analysis, responses: Sequence[Path],
                  unknown_options: dict[int, tuple[int, list[tuple[str, int]]]],
                  severity: Severity) -> list[Finding]:
    """Response rows that could not be used, as findings: on the response file, or on the question they name."""
    out = [finding(path, 1, 1, DATA_RULE, f"no answers read: {why}", severity=severity)
           for path, why in result.intake.empty.items()]
    for rejected in result.intake.rejected:
        lines = ", ".join(str(n) for n in rejected.lines)
        more = ", ..." if rejected.count > len(rejected.lines) else ""
        hint = "; the file is not UTF-8: save it as UTF-8 (or UTF-16 with its byte-order mark)" \
            if "encoding" in rejected.kind else ""
        out.append(finding(rejected.path, rejected.lines[0] if rejected.lines else 1, 1, DATA_RULE,
                           f"{_count(rejected.count, 'row')} not read ({rejected.kind}): line {lines}{more}{hint}",
                           severity=severity))
    if result.intake.unknown_items:
        total = result.intake.status_counts.get(UNKNOWN_ITEM, 0)
        shown = ", ".join(f"{_item_name(item)} ({n})" for item, n in result.intake.unknown_items)
        where = str(responses[0]) if len(responses) == 1 else "<responses>"
        out.append(finding(where, 1, 1, DATA_RULE,
                           f"{_count(total, 'answer')} named question ids the bank does not have: {shown}",
                           severity=severity))
    for qi, (total, seen) in unknown_options.items():
        q = result.questions[qi]
        line, column = q.loaded.locate("options")
        shown = ", ".join(f"{r!r} ({n})" for r, n in seen)
        out.append(finding(q.loaded.path, line, column, DATA_RULE,
                           f"{_count(total, 'answer')} named no option of this question: {shown} "
                           "(a letter, a 1-based number or an option's exact text is expected)", q.id, "options",
                           severity))
    unscored = result.intake.status_counts.get(NOT_SCORED, 0)
    if unscored:
        out.append(finding(str(responses[0]), 1, 1, DATA_RULE, severity=Severity.INFO, message=
                           f"not scored: {_count(unscored, 'answer')} to questions with more than one key "
                           "(item analysis covers single-key questions)"))
    return out


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _item_name(raw: str | None) -> str:
    """An unknown item as the file names it: a Moodle slot by its number, an id quoted."""
    if raw is not None and raw.startswith(SLOT) and raw[len(SLOT):].isdigit():
        return f"question slot {int(raw[len(SLOT):]) + 1}"
    return repr(raw)
