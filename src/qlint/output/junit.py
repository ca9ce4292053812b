"""JUnit XML: one testsuite per file with findings, each finding a testcase ``CODE name: path:line``.

CI test UIs (GitLab's test report, Jenkins) list testcases by ``classname`` and ``name``, so every finding is
its own named testcase. Only a finding that fails the run (``--fail-on``, default error) is a failure; the
others pass, with their severity, rule and place as properties, so a green run is green there too.
``classname`` is ``qlint.<folders>.<file stem>``, which Jenkins shows as a package tree and GitLab as the
suite; the exact path is in ``file``. A clean run is one passing testcase, so the report is never empty.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import PurePosixPath
from typing import TextIO

from qlint.finding import Finding, Severity
from qlint.output.base import Report, relative_path
from qlint.wording import plural

# Characters XML 1.0 cannot carry at all, even escaped; ElementTree would write them raw.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def _replace(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if 0xDC80 <= code <= 0xDCFF:  # a file name's byte that is not UTF-8 (os.fsdecode's surrogate): that byte
        return f"\\x{code - 0xDC00:02x}"
    return "\ufffd"


def clean(text: str) -> str:
    return _NOT_XML.sub(lambda m: _replace(m.group()), text)


def classname(path: str) -> str:
    parts = [p for p in PurePosixPath(path).with_suffix("").parts if p not in {"/", ".", ".."}]
    return ".".join(["qlint", *(p.replace(".", "_") for p in parts)]) if parts else "qlint"


def _testcase(parent: ET.Element, finding: Finding, path: str, fails: bool) -> None:
    case = ET.SubElement(parent, "testcase", {
        "name": clean(f"{finding.code} {finding.rule}: {path}:{finding.line}"),
        "classname": clean(classname(path)),
        "file": clean(path),
        "line": str(finding.line),
        "time": "0",
    })
    properties = ET.SubElement(case, "properties")
    for name, value in (("severity", str(finding.severity)), ("rule", finding.rule), ("code", finding.code),
                        ("line", str(finding.line)), ("column", str(finding.column)),
                        ("question", finding.question), ("field", finding.field), ("message", finding.message)):
        if value is not None:
            ET.SubElement(properties, "property", {"name": name, "value": clean(value)})
    if not fails:
        return
    details = [f"{path}:{finding.line}:{finding.column}: {finding.code} {finding.rule}: {finding.message}"]
    if finding.question:
        details.append(f"question: {finding.question}")
    if finding.field:
        details.append(f"field: {finding.field}")
    failure = ET.SubElement(case, "failure", {"message": clean(finding.message), "type": str(finding.severity)})
    failure.text = clean("\n".join(details))


def build(report: Report, fail_on: Severity | None = Severity.ERROR) -> ET.Element:
    """The report as JUnit XML; only findings at ``fail_on`` or worse (those that fail the run) are failures, and
    none with ``fail_on`` None (``--exit-zero``: nothing fails the run, so the CI's test view stays green too)."""
    by_file: dict[str, list[Finding]] = defaultdict(list)
    for finding in report.findings:
        by_file[relative_path(finding.path, report.root)].append(finding)

    root = ET.Element("testsuites", {"name": "qlint", "tests": "0", "failures": "0", "errors": "0", "time": "0"})
    failures = 0
    for path in sorted(by_file):
        findings = by_file[path]
        failing = sum(1 for f in findings if _fails(f, fail_on))
        suite = ET.SubElement(root, "testsuite", {
            "name": clean(path), "tests": str(len(findings)), "failures": str(failing),
            "errors": "0", "skipped": "0", "time": "0",
        })
        for finding in findings:
            _testcase(suite, finding, path, _fails(finding, fail_on))
        failures += failing
    if not report.findings:
        suite = ET.SubElement(root, "testsuite", {"name": "qlint", "tests": "1", "failures": "0", "errors": "0",
                                                  "skipped": "0", "time": "0"})
        ET.SubElement(suite, "testcase", {
            "name": f"no problems in {plural(report.questions, 'question')}, {plural(report.files, 'file')}",
            "classname": "qlint", "time": "0",
        })
    root.set("tests", str(max(len(report.findings), 1)))
    root.set("failures", str(failures))
    return root


def _fails(finding: Finding, fail_on: Severity | None) -> bool:
    return fail_on is not None and finding.severity >= fail_on


def render(report: Report, stream: TextIO, options: dict) -> None:
    fail_on = options.get("fail_on", Severity.ERROR)
    root = build(report, None if fail_on is None else Severity.parse(fail_on))
    ET.indent(root)
    stream.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    stream.write(ET.tostring(root, encoding="unicode"))
    stream.write("\n")
