"""Runs rules over loaded files. Pure: loaded files and active rules in, sorted findings out."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from qlint.config import ActiveRule
from qlint.finding import Finding, Severity
from qlint.loader import FileResult, LoadedQuestion
from qlint.rule import BankRule, LoaderRule, QuestionRule

INTERNAL_ERROR = ("Q901", "internal-error")


def _crash(rule_name: str, where: LoadedQuestion | None, path: str, exc: BaseException) -> Finding:
    line, column = (where.line, where.column) if where else (1, 1)
    qid = where.question.id if where else None
    return Finding(path, line, column, INTERNAL_ERROR[0], INTERNAL_ERROR[1], Severity.ERROR,
                   f"rule {rule_name} failed: {type(exc).__name__}: {exc}", qid)


def check_question(item: LoadedQuestion, rules: Sequence[ActiveRule]) -> list[Finding]:
    """All question-rule findings for one question."""
    out: list[Finding] = []
    for active in rules:
        rule = active.rule
        try:
            for violation in rule.check(item.question, active.options):  # type: ignore[attr-defined]
                line, column = item.locate(violation.field)
                out.append(Finding(item.path, line, column, rule.code, rule.name, active.severity,
                                   violation.message, item.question.id, violation.field, violation.fix))
        except Exception as exc:  # a broken rule is a finding, never a crash
            out.append(_crash(rule.name, item, item.path, exc))
    return out


def check_files(files: Iterable[FileResult], active: Sequence[ActiveRule]) -> list[Finding]:
    """Per-file work: loader findings that are switched on, and every question rule."""
    by_name = {a.rule.name: a for a in active}
    question_rules = [a for a in active if isinstance(a.rule, QuestionRule)]
    out: list[Finding] = []
    for result in files:
        for finding in result.findings:
            chosen = by_name.get(finding.rule)
            if chosen is None and finding.rule in _LOADER_NAMES:
                continue
            severity = chosen.severity if chosen else finding.severity
            out.append(_with_severity(finding, severity))
        for item in result.questions:
            out.extend(check_question(item, question_rules))
    return out


_LOADER_NAMES = frozenset(("parse-error", "schema"))


def _with_severity(finding: Finding, severity: Severity) -> Finding:
    if finding.severity == severity:
        return finding
    return Finding(finding.path, finding.line, finding.column, finding.code, finding.rule, severity,
                   finding.message, finding.question, finding.field, finding.fix)


def check_bank(questions: Sequence[LoadedQuestion], active: Sequence[ActiveRule]) -> list[Finding]:
    """Whole-bank rules, run once over every question."""
    out: list[Finding] = []
    for chosen in active:
        rule = chosen.rule
        if not isinstance(rule, BankRule):
            continue
        try:
            for violation in rule.check(questions, chosen.options):
                item = violation.item
                line, column = item.locate(violation.field)
                owner = None if violation.bank_level else item.question.id
                out.append(Finding(item.path, line, column, rule.code, rule.name, chosen.severity,
                                   violation.message, owner, violation.field))
        except Exception as exc:
            out.append(_crash(rule.name, None, "<bank>", exc))
    return out


def lint(files: Sequence[FileResult], active: Sequence[ActiveRule], *,
         ignored: Callable[[str], frozenset[str]] | None = None,
         report_only: Mapping[str, object] | set[str] | None = None,
         all_rules: Iterable[str] = ()) -> list[Finding]:
    """Everything qlint reports for these files, sorted; ``report_only`` limits output to some paths."""
    from qlint.suppress import apply_suppressions

    findings = check_files(files, active)
    findings += check_bank([q for f in files for q in f.questions], active)
    findings = apply_suppressions(findings, files, active, all_rules)
    if ignored is not None:
        findings = [f for f in findings if f.rule not in ignored(f.path)]
    if report_only is not None:
        findings = [f for f in findings if f.path in report_only]
    findings.sort(key=Finding.sort_key)
    return findings


def exit_code(findings: Iterable[Finding], fail_on: Severity) -> int:
    """1 when any finding is at or above the failing severity, else 0."""
    return 1 if any(f.severity >= fail_on for f in findings) else 0


__all__ = ["lint", "check_files", "check_bank", "check_question", "exit_code", "LoaderRule"]
