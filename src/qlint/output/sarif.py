"""SARIF 2.1.0 for GitHub code scanning: one run, every rule that ran as a descriptor, one result per finding.

Rules are identified by code (``ruleId`` is what code scanning shows and keys alerts on; codes
never change), with the kebab-case name as ``name``. Locations are relative to ``%SRCROOT%``
so uploads from any checkout line up, and ``partialFingerprints`` carry qlint's own
line-independent identity so alerts survive lines moving.
"""
from __future__ import annotations

import json
import os
from importlib import metadata
from pathlib import Path
from typing import TextIO
from urllib.parse import quote

from qlint import __version__
from qlint.finding import Finding, Severity
from qlint.output.base import JsonSafeStream, Report, fingerprints, relative_path
from qlint.rule import Rule

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
FINGERPRINT_KEY = "qlintFingerprint/v1"
SRCROOT = "%SRCROOT%"

LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}

# Rules that only ever appear in findings, never in the registry.
_KNOWN_EXTRA = {
    "internal-error": ("A rule or plugin crashed; qlint reported it instead of stopping.",
                       "A broken rule or plugin means part of the bank went unchecked.",
                       "Report the crash with the command you ran, or fix or remove the plugin."),
}


def information_uri() -> str | None:
    """The project's home page from the installed metadata (``[project.urls]``), if it declares one."""
    try:
        urls = metadata.metadata("qlint").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return None
    for entry in urls:
        label, _, url = entry.partition(",")
        if label.strip().lower() in {"homepage", "home", "documentation", "repository", "source"} and url.strip():
            return url.strip()
    return None


# where a rule's whole card is, offline: no help URL (there is no address a reader could count on)
CARD_HINT = "The whole card: `qlint rule {code}`, or docs/rules.md in qlint's source."


def _descriptor(rule: Rule) -> dict:
    hint = CARD_HINT.format(code=rule.code)
    help_text = f"{rule.summary}\n\nUse instead: {rule.use_instead}\n\n{hint}"
    markdown = [f"**{rule.code} {rule.name}**: {rule.summary}", "", f"**Why is this bad?** {rule.why}", "",
                f"**Use instead:** {rule.use_instead}"]
    if rule.failing:
        markdown += ["", "**Example:**", "", "```yaml", rule.invalid[0].text.rstrip("\n"), "```"]
    if rule.passing:
        markdown += ["", "**Passes:**", "", "```yaml", rule.valid[0].text.rstrip("\n"), "```"]
    markdown += ["", hint]
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.why},
        "help": {"text": help_text, "markdown": "\n".join(markdown)},
        "defaultConfiguration": {"level": LEVELS[rule.severity], "enabled": rule.enabled},
        "properties": {"tags": ["qlint", rule.kind], "kind": rule.kind, "fixable": rule.fixable},
    }


def _extra_descriptor(finding: Finding) -> dict:
    summary, why, use_instead = _KNOWN_EXTRA.get(
        finding.rule, (f"{finding.code} {finding.rule}", f"Reported by qlint as {finding.rule}.", ""))
    descriptor = {
        "id": finding.code,
        "name": finding.rule,
        "shortDescription": {"text": summary},
        "fullDescription": {"text": why},
        "help": {"text": f"{summary}\n\nUse instead: {use_instead}" if use_instead else summary},
        "defaultConfiguration": {"level": LEVELS[finding.severity]},
        "properties": {"tags": ["qlint"]},
    }
    return descriptor


def _artifact(path: str, root: str) -> dict:
    rel = relative_path(path, root)
    if Path(rel).is_absolute() or rel.startswith("/"):
        return {"uri": Path(rel).as_uri()}
    # a URI names the file's bytes: a name that is not UTF-8 keeps its own byte (%FF), as as_uri does
    return {"uri": quote(os.fsencode(rel), safe="/"), "uriBaseId": SRCROOT}


def _root_uri(root: str) -> str:
    uri = Path(root).resolve().as_uri()
    return uri if uri.endswith("/") else uri + "/"


def region(finding: Finding) -> dict:
    """Where a finding is; with its end (one past its last character, as SARIF counts) when known."""
    start_line, start_column = max(finding.line, 1), max(finding.column, 1)
    out = {"startLine": start_line, "startColumn": start_column}
    if finding.end_line is not None and finding.end_column is not None:
        out["endLine"] = max(finding.end_line, start_line)
        out["endColumn"] = max(finding.end_column, start_column) if out["endLine"] == start_line \
            else max(finding.end_column, 1)
    return out


def build(report: Report) -> dict:
    descriptors: list[dict] = []
    index: dict[str, int] = {}
    for rule in report.rules:
        if rule.code not in index:
            index[rule.code] = len(descriptors)
            descriptors.append(_descriptor(rule))
    for finding in sorted(report.findings, key=lambda f: f.code):
        if finding.code not in index:
            index[finding.code] = len(descriptors)
            descriptors.append(_extra_descriptor(finding))

    results = []
    for finding, print_ in zip(report.findings, fingerprints(report.findings)):
        result: dict = {
            "ruleId": finding.code,
            "ruleIndex": index[finding.code],
            "level": LEVELS[finding.severity],
            "message": {"text": finding.message},
            "locations": [{"physicalLocation": {
                "artifactLocation": _artifact(finding.path, report.root),
                "region": region(finding),
            }}],
            "partialFingerprints": {FINGERPRINT_KEY: print_},
        }
        properties = {k: v for k, v in (("rule", finding.rule), ("question", finding.question),
                                         ("field", finding.field)) if v}
        result["properties"] = properties
        results.append(result)

    driver: dict = {"name": "qlint", "version": __version__, "semanticVersion": __version__}
    uri = information_uri()
    if uri:
        driver["informationUri"] = uri
    driver["rules"] = descriptors
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": driver},
            "originalUriBaseIds": {SRCROOT: {"uri": _root_uri(report.root)}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }


def render(report: Report, stream: TextIO, options: dict) -> None:
    json.dump(build(report), JsonSafeStream(stream), indent=2, ensure_ascii=False)
    stream.write("\n")
