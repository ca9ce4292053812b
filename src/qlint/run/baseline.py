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


def read(path: Path) -> Counter:
    try:
        doc = json.loads(read_regular(path).decode("utf-8"))   # a FIFO named by mistake is refused, never waited on
        if doc.get("qlint-baseline") != FORMAT:
            raise ValueError("not a qlint baseline (format 1)")
        return Counter({(e["kind"], e["of"], e["rule"]): int(e["count"]) for e in doc["findings"]})
    except OSError as exc:
        raise BaselineError(f"cannot read baseline {path}: {exc.strerror}") from None
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
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
