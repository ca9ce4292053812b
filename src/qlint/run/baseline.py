"""Baselines: adopt qlint on a legacy bank by recording today's findings and gating only new ones.

Findings are keyed by question id and rule (file-level findings by path and rule), never by
line numbers, so editing, moving or reformatting a question does not resurrect its old
findings. Counts are kept per key: a question that had one option-length finding and now has
two reports one.
"""
from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from qlint import __version__
from qlint.files import read_regular, replacing_mode, write_atomic
from qlint.finding import Finding

FORMAT = 1


class BaselineError(Exception):
    """An unreadable or malformed baseline file: a usage error."""


def _key(finding: Finding) -> tuple[str, str, str]:
    return ("question", finding.question, finding.rule) if finding.question else ("file", finding.path, finding.rule)


def write(path: Path, findings: Iterable[Finding]) -> int:
    counts = Counter(_key(f) for f in findings)
    entries = [{"kind": kind, "of": of, "rule": rule, "count": n} for (kind, of, rule), n in sorted(counts.items())]
    doc = {"qlint-baseline": FORMAT, "qlint": __version__, "findings": entries}
    # backslashreplace: a file name's byte that is not UTF-8 (a lone surrogate) is written as the JSON escape
    # \udcff, which reads back as the same name
    data = (json.dumps(doc, indent=1, ensure_ascii=False) + "\n").encode("utf-8", "backslashreplace")
    target = Path(os.path.realpath(path))   # a link to the baseline stays a link; its file gets the new text
    # whole or not at all, with the old file's mode; a FIFO or a device named by mistake is refused, not written to
    write_atomic(target, [data], mode=replacing_mode(target), durable=True)
    return sum(counts.values())


KINDS = ("question", "file")   # what _key records a finding under: its question's id, or its file's path
MAX_DIGITS = 20   # a count qlint writes has far fewer digits; a longer number is refused before Python converts it


class _Malformed(Exception):
    """What is wrong with a baseline's content, said after its path."""


def _number(text: str) -> int:
    """A JSON integer, refused when it is too long to be a count (Python would refuse it with its own words)."""
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Malformed(f"a number longer than {MAX_DIGITS} digits")
    return int(text)


def _entries(doc: object) -> Counter:
    """The counts a baseline document records; _Malformed saying where it differs from what ``write`` makes."""
    if not isinstance(doc, dict) or "qlint-baseline" not in doc:
        raise _Malformed("not a qlint baseline (format 1)")
    version = doc["qlint-baseline"]
    if type(version) is not int or version != FORMAT:   # type(): JSON true equals 1 in Python, and is no format
        raise _Malformed(f"qlint-baseline must be {FORMAT}, the only baseline format this qlint reads")
    entries = doc.get("findings")
    if not isinstance(entries, list):
        raise _Malformed("findings must be a list")
    counts: Counter = Counter()
    for i, entry in enumerate(entries):
        where = f"findings[{i}]"
        if not isinstance(entry, dict):
            raise _Malformed(f"{where} must be an object with kind, of, rule and count")
        for field in ("kind", "of", "rule", "count"):
            if field not in entry:
                raise _Malformed(f"{where} has no {field}")
        kind, of, rule, count = entry["kind"], entry["of"], entry["rule"], entry["count"]
        if kind not in KINDS:
            raise _Malformed(f"{where}.kind must be \"question\" or \"file\"")
        for field, value in (("of", of), ("rule", rule)):
            if not isinstance(value, str) or not value:
                raise _Malformed(f"{where}.{field} must be a non-empty string")
        if type(count) is not int or count < 1:   # type(): JSON true is no count, and 1e400 is a float (infinity)
            raise _Malformed(f"{where}.count must be a whole number of 1 or more")
        if (kind, of, rule) in counts:   # write() records each key once: a repeat is a hand edit gone wrong
            raise _Malformed(f"{where} repeats the kind, of and rule of an earlier entry")
        counts[(kind, of, rule)] = count
    return counts


def read(path: Path) -> Counter:
    """The finding counts a baseline file records, by key; BaselineError naming the file when it cannot be read or
    is not what ``write`` makes."""
    try:
        raw = read_regular(path)   # a FIFO named by mistake is refused, never waited on
    except OSError as exc:
        raise BaselineError(f"cannot read baseline {path}: {exc.strerror}") from None
    try:
        try:
            text = raw.decode("utf-8-sig")   # -sig: an editor's byte order mark is no reason to refuse the file
        except UnicodeDecodeError:
            raise _Malformed("not UTF-8 text") from None
        try:
            doc = json.loads(text, parse_int=_number)
        except json.JSONDecodeError as exc:
            raise _Malformed(f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
        except RecursionError:   # the decoder recurses once per nested list or object
            raise _Malformed("nested too deeply") from None
        return _entries(doc)
    except _Malformed as exc:
        raise BaselineError(f"{path} is not a valid qlint baseline: {exc}") from None


def new_findings(findings: list[Finding], baseline: Counter) -> list[Finding]:
    """The findings the baseline does not account for, in their original order."""
    left = Counter(baseline)
    out = []
    for finding in findings:
        key = _key(finding)
        if left[key] > 0:
            left[key] -= 1
        else:
            out.append(finding)
    return out
