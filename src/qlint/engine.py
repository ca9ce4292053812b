"""Runs rules. Pure: what a reader made of a file, and the active rules, in; findings out; no I/O.

Work splits in two so that it can be parallel and cached: ``check_file`` does everything
that depends on one file alone (and returns a picklable CheckedFile); ``check_bank`` runs
the whole-bank rules over the BankItems of every file. The run applies suppressions and sorts.
"""
from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Sequence
from time import monotonic
from typing import Any

from qlint.finding import Finding, Severity, finding
from qlint.items import BankItem, CheckedFile, Features, rejected_item, to_item
from qlint.problems import IMPORT_HAZARD, INTERNAL_ERROR, RATIONALES_NOT_HELD, RULE_TIMEOUT, UNSUPPORTED
from qlint.rule import ActiveRule, BankRule, QuestionRule, Store
from qlint.sourcemap import LoadedQuestion, ParsedFile

# reading the clock costs about as much as a small rule's call, so the budget is checked every this many questions;
# every built-in rule is linear in a question's size, so the overshoot is a few calls of one rule
_CLOCK_STRIDE = 16
# loader findings that are reported only while their rule is on (parse and schema errors always are)
_SWITCHABLE = frozenset((UNSUPPORTED.name, RULE_TIMEOUT.name, RATIONALES_NOT_HELD.name, IMPORT_HAZARD.name))
_MISSING_RATIONALE = "missing-rationale"


def _crash(rule_name: str, path: str, line: int, column: int, qid: str | None, exc: BaseException) -> Finding:
    return finding(path, line, column, INTERNAL_ERROR, f"rule {rule_name} failed: {type(exc).__name__}: {exc}", qid)


def check_questions(questions: Sequence[LoadedQuestion], rules: Sequence[ActiveRule],
                    budget: float = math.inf, held: frozenset[int] = frozenset(), spent: float = 0.0) -> list[Finding]:
    """All question-rule findings for the questions of one file, rule by rule.

    Each rule runs over every question before the next starts: one rule's code, patterns and memos stay hot in
    the CPU's caches, which made the rules about a sixth faster than taking each question through every rule.
    Findings come out grouped by rule (``finish`` sorts them); for any one question the rules keep their order,
    so fixes to one field still apply first come, first served.

    A finding about words inside a field points at them; one whose words sit on a later line than the field's key
    (in a ``|`` block) stays at the key when a line suppression covers the key's line (``held``): that comment,
    which cannot go inside the block, is where the author said the field's findings are fine.

    Once ``budget`` seconds have passed the remaining work is skipped and one rule-timeout finding, last in the
    list, says which rules did not run (or stopped part way), so that one file can never stall a run. ``spent`` is
    what reading the file already took of the budget.
    """
    deadline = monotonic() + budget - spent
    out: list[Finding] = []
    for index, active in enumerate(rules):
        rule = active.rule
        check, options, severity, code, name = rule.check, active.options, active.severity, rule.code, rule.name  # type: ignore[attr-defined]
        for done, item in enumerate(questions):
            if done % _CLOCK_STRIDE == 0 and monotonic() >= deadline:
                out.append(_timeout(questions[0], rules[index:], done, len(questions), budget))
                return out
            try:
                for violation in check(item.question, options):
                    if violation.span is None:
                        line, column = item.locate(violation.field)
                        end_line = end_column = None
                    else:   # the offending words themselves, where the value's writing lets them be placed
                        line, column, end_line, end_column = item.locate_span(violation.field, violation.span)
                        if held and (key := item.locate(violation.field))[0] in held and key[0] != line:
                            line, column, end_line, end_column = *key, None, None
                    out.append(finding(item.path, line, column, (code, name), violation.message, item.question.id,
                                       violation.field, severity, fix=violation.fix, end_line=end_line,
                                       end_column=end_column))
            except (Exception, SystemExit) as exc:  # a broken rule is a finding, never a crash (nor an exit)
                out.append(_crash(name, item.path, item.line, item.column, item.question.id, exc))
    return out


def _timeout(first: LoadedQuestion, left: Sequence[ActiveRule], done: int, total: int, budget: float) -> Finding:
    """The one finding that says which rules the file's time budget cut short; ``left[0]`` stopped after ``done``."""
    names = [a.rule.name for a in left]
    cut = [f"{names[0]} stopped after {done} of {total} questions"] if done else []
    skipped = names[1:] if done else names
    cut += [f"skipped {', '.join(skipped)}"] if skipped else []
    message = (f"the rules ran past this file's time budget (rule-time-budget = {budget:g} s): {'; '.join(cut)}; "
               "the file is not fully checked")
    return finding(first.path, 1, 1, RULE_TIMEOUT, message)


def _with_severity(finding: Finding, severity: Severity) -> Finding:
    if finding.severity == severity:
        return finding
    return dataclasses.replace(finding, severity=severity)


def check_file(result: ParsedFile, active: Sequence[ActiveRule], keep_questions: bool = False,
               budget: float = math.inf, spent: float = 0.0) -> CheckedFile:
    """Everything that depends on this file alone: reader findings that are on, question rules, bank features.

    ``budget`` is the seconds reading and the question rules may take over this file (the run's
    ``rule-time-budget``); ``spent`` what reading took of it.
    """
    by_name = {a.rule.name: a for a in active}
    question_rules = [a for a in active if isinstance(a.rule, QuestionRule)]
    extractors = [a for a in active if isinstance(a.rule, BankRule) and a.rule.extract is not None]
    held = frozenset(s.target_line for s in result.suppressions if s.scope == "line")
    checked = check_questions(result.questions, question_rules, budget, held, spent)
    if result.rationales_not_held:   # the format cannot hold them: its reader's note says so once instead
        checked = [f for f in checked if f.rule != _MISSING_RATIONALE or f.question not in result.rationales_not_held]
    timed_out = checked[-1:] if checked and checked[-1].rule == RULE_TIMEOUT[1] else []
    findings: list[Finding] = []
    for problem in result.findings + timed_out:
        # a file that cannot be read, or a question that is not one, is reported whatever --select or --ignore say
        # (as ruff never hides a syntax error): the rules that are on did not see what it hides
        chosen = by_name.get(problem.rule)
        if chosen is None and problem.rule in _SWITCHABLE:
            continue
        if problem.rule == RATIONALES_NOT_HELD.name and _MISSING_RATIONALE not in by_name:
            continue   # nobody asked for rationales
        findings.append(_with_severity(problem, chosen.severity if chosen else problem.severity))
    findings += checked[:len(checked) - len(timed_out)]
    items = []
    for loaded in result.questions:
        item = to_item(loaded)
        for a in extractors:
            try:
                item.features[a.rule.name] = a.rule.extract(loaded.question, a.options)  # type: ignore[misc]
            except (Exception, SystemExit) as exc:
                findings.append(_crash(a.rule.name, loaded.path, loaded.line, loaded.column, item.id, exc))
        item.features = Features(item.features)
        items.append(item)
    return CheckedFile(result.path, findings, items, result.suppressions,
                       list(result.questions) if keep_questions else None,
                       rejected=[rejected_item(r, result.path) for r in result.rejected])


def timed_out(outcome: CheckedFile) -> bool:
    """Whether the time budget cut this file's rules short: an outcome that depends on the clock, not to be cached."""
    return any(f.rule == RULE_TIMEOUT[1] for f in outcome.findings)


def check_bank(items: Sequence[BankItem], active: Sequence[ActiveRule],
               stores: Callable[[str], Store] | None = None, with_rejected: Sequence[BankItem] | None = None,
               surveys: dict[str, Any] | None = None) -> list[Finding]:
    """Whole-bank rules, run once over every question; a rule that keeps work between runs (``memo``) gets the
    store ``stores(name)`` hands out for it (nothing without a cache). A rule that ``counts_rejected`` sees
    ``with_rejected`` instead: the same items with the rejected questions that name an id among them. What a rule's
    ``survey`` found over ``items`` goes into ``surveys`` (by rule name), for its ``publish`` to read."""
    out: list[Finding] = []
    for chosen in active:
        rule = chosen.rule
        if not isinstance(rule, BankRule):
            continue
        extra = {"store": stores(rule.name) if stores is not None else None} if rule.memo else {}
        seen = with_rejected if rule.counts_rejected and with_rejected is not None else items
        try:
            if rule.survey is not None:
                found = rule.survey(seen, chosen.options, **extra)
                if surveys is not None and seen is items:
                    surveys[rule.name] = found
                violations = rule.check(seen, chosen.options, found)
            else:
                violations = rule.check(seen, chosen.options, **extra)
            for violation in violations:
                item = violation.item
                path, (line, column) = item.path, item.locate(violation.field)
                if violation.at is not None:
                    (path, line), column = violation.at, 1
                owner = None if violation.bank_level else item.id
                out.append(finding(path, line, column, (rule.code, rule.name), violation.message, owner,
                                   violation.field, chosen.severity))
        except (Exception, SystemExit) as exc:
            out.append(_crash(rule.name, "<bank>", 1, 1, None, exc))
    return out



def exit_code(findings: Iterable[Finding], fail_on: Severity) -> int:
    """1 when any finding is at or above the failing severity, else 0."""
    return 1 if any(f.severity >= fail_on for f in findings) else 0
