"""Suppressions: ``# qlint: ignore[rule] reason`` comments (``ignore-question`` and ``ignore-file`` for wider
scopes) and the per-question ``qlint: ignore`` field.

A reason is required. A suppression that silences nothing is itself reported
(``unused-suppression``), as is one without a reason or naming an unknown rule
(``invalid-suppression``).
"""
from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Mapping, Sequence

from qlint.finding import Finding, Severity, finding
from qlint.items import BankItem, CheckedFile
from qlint.problems import INVALID_SUPPRESSION as INVALID
from qlint.problems import UNUSED_SUPPRESSION as UNUSED
from qlint.rule import ActiveRule
from qlint.sourcemap import UNKNOWN
from qlint.wording import did_you_mean

_NEVER_SUPPRESSED = frozenset((UNUSED[1], INVALID[1]))


def _names(active: Sequence[ActiveRule]) -> dict[str, str]:
    """Rule name and code -> rule name, for every rule that runs."""
    out = {}
    for a in active:
        out[a.rule.name] = a.rule.name
        out[a.rule.code] = a.rule.name
    return out


class _Key:
    __slots__ = ("path", "line", "column", "rules", "reason", "used", "origin")

    def __init__(self, path: str, line: int, column: int, rules: set[str], reason: str, origin: str) -> None:
        self.path, self.line, self.column = path, line, column
        self.rules, self.reason, self.origin = rules, reason, origin
        self.used: set[str] = set()


def _severity(active: Sequence[ActiveRule], name: str) -> Severity | None:
    return next((a.severity for a in active if a.rule.name == name), None)


class _Index:
    """Where each suppression applies: by line, by question, by file; and every one, to report the unused."""

    def __init__(self) -> None:
        # where -> rule -> the first suppression there that names it: a finding is one lookup per table, however
        # many suppressions its file has (a file with a comment per question would otherwise be scanned whole for
        # each of its findings)
        self.by_line: dict[tuple[str, int], dict[str, _Key]] = {}
        self.by_question: dict[tuple[str, str], dict[str, _Key]] = {}
        self.by_file: dict[str, dict[str, _Key]] = {}
        self.every: list[_Key] = []

    def add(self, key: _Key, table: dict, where: object) -> None:
        self.every.append(key)
        first = table.setdefault(where, {})
        for rule in key.rules:
            first.setdefault(rule, key)

    def hit(self, finding: Finding) -> _Key | None:
        """The suppression that silences ``finding``, if one does: one on its line, else one for its file, else one
        for its question (the first of each that names its rule)."""
        rule = finding.rule
        if rule in _NEVER_SUPPRESSED:
            return None
        key = self.by_line.get((finding.path, finding.line), _NONE).get(rule)
        if key is None:
            key = self.by_file.get(finding.path, _NONE).get(rule)
        if key is None and finding.question is not None:
            key = self.by_question.get((finding.path, finding.question), _NONE).get(rule)
        return key


_NONE: dict[str, _Key] = {}   # no suppression here; never changed


_FORMS = {"line": "ignore", "question": "ignore-question", "file": "ignore-file"}


def apply_suppressions(findings: list[Finding], files: Sequence[CheckedFile],
                       active: Sequence[ActiveRule], all_rules: Iterable[str] = ()) -> list[Finding]:
    """Drop suppressed findings; add findings about the suppressions themselves."""
    known = _names(active)
    everything = set(all_rules or ()) | set(known)
    extra: list[Finding] = []
    invalid = _severity(active, INVALID[1])

    def resolve(raw: Sequence[str], path: str, line: int, column: int, question: str | None) -> set[str]:
        names = set()
        for r in raw:
            if r in known:
                names.add(known[r])
            elif r.upper() in known:
                names.add(known[r.upper()])
            elif r in everything or r.upper() in everything:
                continue  # a real rule that this run does not use: nothing to silence, nothing to report
            elif invalid is not None:
                hint = did_you_mean(r.lower(), sorted(n for n in everything if not n[:1].isupper()), "")
                extra.append(finding(path, line, column, INVALID,
                                     f"suppression names {r!r}, which is not a qlint rule{hint}", question,
                                     severity=invalid))
        return names

    index = _Index()
    for result in files:
        _index_comments(result, index, resolve, extra, invalid)
        for item in result.items:
            for rule, reason in item.ignore.items():
                line, column = item.locate(f"qlint.ignore.{rule}")
                names = resolve([rule], result.path, line, column, item.id)
                if names:
                    index.add(_Key(result.path, line, column, names, reason, "field"), index.by_question,
                              (result.path, item.id))
    if not index.every:
        return findings + extra
    kept = []
    for found in findings:
        hit = index.hit(found)
        if hit is None:
            kept.append(found)
        else:
            hit.used.add(found.rule)
    severity = _severity(active, UNUSED[1])
    if severity is not None:
        for key in index.every:
            for name in sorted(key.rules - key.used):
                extra.append(finding(key.path, key.line, key.column, UNUSED,
                                     f"suppression of {name} silences nothing; remove it", severity=severity))
    return kept + extra


def _index_comments(result: CheckedFile, index: _Index, resolve, extra: list[Finding],
                    invalid: Severity | None) -> None:
    """A file's suppression comments into ``index``; one without rule names or a reason is an invalid-suppression.
    A comment in a package entry (``sup.path``) covers that entry's lines and questions only."""
    starts: dict[str, tuple[list[int], list[BankItem]]] = {}

    def questions_of(path: str) -> tuple[list[int], list[BankItem]]:
        if path not in starts:
            own = sorted(((q.line, i, q) for i, q in enumerate([*result.items, *result.rejected]) if q.path == path),
                         key=lambda t: t[:2])
            starts[path] = ([line for line, _, _ in own], [q for _, _, q in own])
        return starts[path]

    for sup in result.suppressions:
        path = sup.path or result.path
        if sup.scope == UNKNOWN:   # "qlint: ignoree[...]": a directive mistyped, which silences nothing
            if invalid is not None:
                hint = did_you_mean(sup.reason.lower(), sorted(_FORMS.values()),
                                    "; qlint knows ignore, ignore-question and ignore-file")
                extra.append(finding(path, sup.line, sup.column, INVALID,
                                     f"unknown suppression directive {sup.reason!r}{hint}", severity=invalid))
            continue
        if not sup.reason or not sup.rules:
            if invalid is not None:
                what = "a reason" if sup.rules else "rule names in brackets"
                form = _FORMS.get(sup.scope, "ignore")
                extra.append(finding(path, sup.line, sup.column, INVALID,
                                     f"suppression needs {what}: # qlint: {form}[rule] reason", severity=invalid))
            continue
        names = resolve(sup.rules, path, sup.line, sup.column, None)
        if not names:
            continue
        key = _Key(path, sup.line, sup.column, names, sup.reason, "comment")
        if sup.scope == "line":
            index.add(key, index.by_line, (path, sup.target_line))
        elif sup.scope == "file":
            index.add(key, index.by_file, path)
        else:
            lines, items = questions_of(path)
            at = bisect.bisect_right(lines, sup.target_line) - 1
            if at >= 0:
                index.add(key, index.by_question, (path, items[at].id))


def finish(outcomes: Sequence[CheckedFile], findings: list[Finding], active: Sequence[ActiveRule], *,
           ignored: Callable[[str], frozenset[str]] | None = None,
           report_only: Mapping[str, object] | set[str] | None = None,
           all_rules: Iterable[str] = ()) -> list[Finding]:
    """Suppressions, per-file ignores and the report filter; findings come out sorted."""
    findings = apply_suppressions(findings, outcomes, active, all_rules)
    if ignored is not None:
        findings = [f for f in findings if f.rule not in ignored(f.path)]
    if report_only is not None:
        findings = [f for f in findings if f.path in report_only]
    findings.sort(key=Finding.sort_key)
    return findings
