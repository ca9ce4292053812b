"""``--fix``: apply the safe fixes a run found, file by file, re-checking each rewritten text through the same
per-file path as ``check`` until nothing more is fixable; a file that cannot be fixed safely is skipped, with why."""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from qlint.files import read_file
from qlint.finding import Finding, finding
from qlint.formats.yaml_edit import FixError, apply_fixes, apply_to_text, fixable, replace_fixed
from qlint.problems import FIX_SKIPPED
from qlint.rule import ActiveRule
from qlint.run.perfile import FileSetup, check_source
from qlint.run.pipeline import Run
from qlint.run.suppress import apply_suppressions


def fix_text(text: str, path: str, findings: Sequence[Finding]) -> str | None:
    """``text`` with the safe fixes of these findings applied (an editor's buffer, not a file); None when the text
    cannot be rewritten safely."""
    try:
        return apply_to_text(text, fixable(findings))
    except FixError:
        return None


@dataclass
class FixReport:
    """What a fix pass changed (or would change): new texts by path, and files or fixes left alone with why."""

    changed: dict[str, tuple[str, str]] = field(default_factory=dict)  # path -> (old text, new text)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, reason): a file or one fix in it
    applied: int = 0
    by_rule: dict[str, Counter[tuple[str, str]]] = field(default_factory=dict)   # path -> (code, rule) -> fixes


def fix_run(run: Run, *, write: bool, rounds: int = 5) -> FixReport:
    """Apply the safe fixes that ``run`` found, file by file, until nothing more is fixable. A file that cannot be
    read, fixed safely or written is skipped with its reason and the other files go on."""
    outcome = FixReport()
    for path in sorted({f.path for f in run.findings if f.fix is not None}):
        data, _, _ = read_file(Path(path), run.limits)  # a regular file within the size limit, or None
        try:
            if data is None:
                raise FixError("cannot read it as a regular file within the size limit")
            original = data.decode("utf-8")
            if original.startswith("\ufeff"):
                raise FixError("it starts with a byte-order mark")
            text, fixed, refused = _fix_text(run, path, original, rounds)
        except UnicodeDecodeError:
            outcome.skipped.append((path, "it is not valid UTF-8"))
            continue
        except FixError as exc:
            outcome.skipped.append((path, str(exc)))
            continue
        except Exception as exc:  # a fix that cannot be applied leaves the file untouched
            outcome.skipped.append((path, f"{type(exc).__name__}: {exc}"))
            continue
        outcome.skipped += [(path, reason) for reason in refused]
        if text == original:
            continue
        try:
            if write:
                replace_fixed(Path(path), text, expected=data)
        except FixError as exc:
            outcome.skipped.append((path, str(exc)))
        except OSError as exc:  # a full disk, a folder we may not write to: this file only
            outcome.skipped.append((path, f"cannot write it: {exc.strerror or type(exc).__name__}"))
        else:
            outcome.changed[path] = (original, text)
            outcome.applied += sum(fixed.values())
            outcome.by_rule[path] = fixed
    return outcome


def skipped_findings(report: FixReport, active: Sequence[ActiveRule]) -> list[Finding]:
    """A fix-skipped finding for every file or fix the pass left alone, so that the report (and with it the exit
    code) says so, not only stderr: fix-skipped is a rule like any other, at its severity, and none when it is
    not on."""
    chosen = next((a for a in active if a.rule.name == FIX_SKIPPED.name), None)
    if chosen is None:
        return []
    return [finding(path, 1, 1, FIX_SKIPPED, f"not fixed: {reason}", severity=chosen.severity)
            for path, reason in report.skipped]


def _fix_text(run: Run, path: str, text: str, rounds: int) -> tuple[str, Counter[tuple[str, str]], list[str]]:
    """A file's text with its fixes applied round after round (a fix can reveal another), how many went in of each
    rule (by code and name), and the fixes refused in the last round, with why."""
    setup = FileSetup(tuple(run.active), run.limits)
    names = [r.name for r in run.registry] + [r.code for r in run.registry]
    fixed: Counter[tuple[str, str]] = Counter()
    refused: list[str] = []
    for _ in range(rounds):
        checked = check_source(text.encode("utf-8"), path, setup, Path(path))
        found = [f for f in apply_suppressions(checked.findings, [checked], run.active, names)
                 if f.fix is not None and f.question is not None]
        if not found:
            break
        result = apply_fixes(text, fixable(found), setup.limits)   # one fix per finding of ``found``, in order
        refused = result.refused
        if result.text == text:
            break
        fixed.update((found[i].code, found[i].rule) for i in result.used)
        text = result.text
    return text, fixed, refused
