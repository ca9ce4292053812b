"""The CI output formats: SARIF (schema-valid), GitHub workflow commands, GitLab Code Quality, JUnit XML."""
from __future__ import annotations

from helpers import SHARED

import io
import json
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qlint.finding import Finding, Severity
from qlint.output import FORMATS, Report, escape_text, fingerprint, fingerprints, renderers
from qlint.registry import load_registry

SARIF_SCHEMA = SHARED / "eval" / "schemas" / "sarif-schema-2.1.0.json"

NASTY = "50% of \"options\", say: a, b & <c>\nsecond line\r\nthird — naïve 日本 ✓"

FINDINGS = [
    Finding("bank/a.yaml", 3, 5, "Q104", "correct-count", Severity.ERROR,
            "2 options are marked correct; a single-answer question needs exactly one", "q-1", "options"),
    Finding("bank/a.yaml", 12, 7, "Q201", "option-length", Severity.WARNING, NASTY, "q-2", "options[0].text"),
    Finding("bank/sub dir/b,c:d.yaml", 4, 3, "Q404", "reading-level", Severity.INFO,
            "stem reads at grade 14.2, above the target of 12", "q-3", "stem"),
    Finding("bank/a.yaml", 20, 9, "Q106", "missing-rationale", Severity.ERROR, "option 2 has no rationale",
            "q-4", "options[1]"),
    Finding("bank/a.yaml", 22, 9, "Q106", "missing-rationale", Severity.ERROR, "option 3 has no rationale",
            "q-4", "options[2]"),
    Finding("broken-plugin", 1, 1, "Q901", "internal-error", Severity.ERROR,
            "plugin failed to load: ImportError: no module named 'x'"),
    Finding("bank/c.yaml", 1, 1, "Q101", "parse-error", Severity.ERROR, "bad byte \x00 and \x0b here"),
]


@pytest.fixture(scope="module")
def rules():
    return list(load_registry())


@pytest.fixture(scope="module")
def report(rules):
    return Report(list(FINDINGS), files=3, questions=5, rules=rules)


def render(fmt: str, report: Report, **options) -> str:
    buffer = io.StringIO()
    renderers()[fmt](report, buffer, options)
    return buffer.getvalue()


def test_formats_registered():
    assert set(FORMATS) == set(renderers())
    assert {"sarif", "github", "gitlab", "junit"} <= set(FORMATS)


# --- fingerprints -----------------------------------------------------------------------------------------------

def test_fingerprint_ignores_line_and_column():
    f = FINDINGS[0]
    assert fingerprint(f) == fingerprint(replace(f, line=f.line + 40, column=1))


def test_fingerprint_ignores_numbers_in_the_message():
    f = FINDINGS[2]
    assert fingerprint(f) == fingerprint(replace(f, message="stem reads at grade 15.8, above the target of 12"))


def test_fingerprint_differs_across_questions_rules_paths_and_fields():
    f = FINDINGS[0]
    base = fingerprint(f)
    assert fingerprint(replace(f, question="q-99")) != base
    assert fingerprint(replace(f, code="Q105", rule="select-mismatch")) != base
    assert fingerprint(replace(f, path="bank/other.yaml")) != base
    assert fingerprint(replace(f, message="something else entirely")) != base
    assert fingerprint(FINDINGS[3]) != fingerprint(FINDINGS[4])  # same message shape, other option


def test_fingerprint_path_spelling_does_not_matter():
    f = FINDINGS[0]
    assert fingerprint(f) == fingerprint(replace(f, path="./bank/a.yaml"))


def test_fingerprints_unique_even_for_identical_findings():
    twin = replace(FINDINGS[0], line=99)
    prints = fingerprints([FINDINGS[0], twin])
    assert prints[0] == fingerprint(FINDINGS[0])
    assert len(set(prints)) == 2
    assert fingerprints([FINDINGS[0], twin]) == prints  # deterministic


# --- SARIF ------------------------------------------------------------------------------------------------------

def test_sarif_valid_against_schema(report):
    if not SARIF_SCHEMA.is_file():
        pytest.skip(f"SARIF schema not found at {SARIF_SCHEMA}")
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    doc = json.loads(render("sarif", report))
    validator_cls = jsonschema.validators.validator_for(schema)
    validator = validator_cls(schema, format_checker=validator_cls.FORMAT_CHECKER)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])


def test_sarif_empty_report_is_valid(rules):
    doc = json.loads(render("sarif", Report([], files=0, questions=0, rules=rules)))
    assert doc["runs"][0]["results"] == []
    assert len(doc["runs"][0]["tool"]["driver"]["rules"]) == len(rules)
    if SARIF_SCHEMA.is_file():
        jsonschema = pytest.importorskip("jsonschema")
        jsonschema.validate(doc, json.loads(SARIF_SCHEMA.read_text(encoding="utf-8")))


def test_sarif_content(report, rules):
    doc = json.loads(render("sarif", report))
    assert doc["version"] == "2.1.0" and "sarif" in doc["$schema"]
    run = doc["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "qlint" and driver["version"]
    descriptors = driver["rules"]
    ids = [d["id"] for d in descriptors]
    assert len(ids) == len(set(ids))
    assert set(ids) >= {r.code for r in rules} | {"Q901"}  # every rule that ran, plus findings-only ones
    by_id = {d["id"]: d for d in descriptors}
    assert rules, "the registry loaded no rules"
    for rule in rules:
        d = by_id[rule.code]
        assert d["name"] == rule.name
        assert d["shortDescription"]["text"] == rule.summary
        assert d["fullDescription"]["text"] == rule.why
        assert rule.use_instead in d["help"]["text"] and rule.use_instead in d["help"]["markdown"]
        assert d["defaultConfiguration"]["level"] == {"error": "error", "warning": "warning",
                                                      "info": "note"}[str(rule.severity)]
        assert rule.kind in d["properties"]["tags"]
    for finding in FINDINGS:  # rules seen only in findings still get a descriptor
        assert by_id[finding.code]["name"] == finding.rule
    assert by_id["Q901"]["name"] == "internal-error"

    results = run["results"]
    assert len(results) == len(FINDINGS)
    for finding, result in zip(FINDINGS, results):
        assert result["ruleId"] == finding.code
        assert descriptors[result["ruleIndex"]]["id"] == finding.code
        assert result["level"] == {"error": "error", "warning": "warning", "info": "note"}[str(finding.severity)]
        assert result["message"]["text"] == finding.message
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
        assert not location["artifactLocation"]["uri"].startswith("/")
        assert location["region"] == {"startLine": finding.line, "startColumn": finding.column}
        assert list(result["partialFingerprints"].values())[0]
    assert results[2]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "bank/sub%20dir/b%2Cc%3Ad.yaml"
    prints = [list(r["partialFingerprints"].values())[0] for r in results]
    assert len(set(prints)) == len(prints)


def test_sarif_fingerprints_survive_moved_lines(report):
    moved = Report([replace(f, line=f.line + 10) for f in report.findings], report.files, report.questions,
                   report.rules)
    before = [r["partialFingerprints"] for r in json.loads(render("sarif", report))["runs"][0]["results"]]
    after = [r["partialFingerprints"] for r in json.loads(render("sarif", moved))["runs"][0]["results"]]
    assert before == after


def test_sarif_absolute_path_outside_root_is_a_file_uri(rules, tmp_path):
    outside = tmp_path / "x.yaml"
    finding = replace(FINDINGS[0], path=str(outside))
    doc = json.loads(render("sarif", Report([finding], 1, 1, rules, root=str(tmp_path / "elsewhere"))))
    artifact = doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert artifact["uri"].startswith("file://") and "uriBaseId" not in artifact
    inside = json.loads(render("sarif", Report([finding], 1, 1, rules, root=str(tmp_path))))
    artifact = inside["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert artifact == {"uri": "x.yaml", "uriBaseId": "%SRCROOT%"}


# --- GitHub -----------------------------------------------------------------------------------------------------

COMMAND = re.compile(r"^::(?P<kind>error|warning|notice) (?P<props>[^:]*)::(?P<data>.*)$")


def unescape_data(text: str) -> str:
    return text.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")


def unescape_property(text: str) -> str:
    return unescape_data(text.replace("%3A", ":").replace("%2C", ","))


def parse_github(output: str) -> tuple[list[dict], list[str]]:
    commands, plain = [], []
    for line in output.split("\n")[:-1]:  # the runner splits on LF only, not on VT, FF, ...
        match = COMMAND.match(line)
        if not match:
            assert not line.startswith("::"), line
            plain.append(line)
            continue
        props = dict(p.split("=", 1) for p in match["props"].split(","))
        commands.append({"kind": match["kind"], **{k: unescape_property(v) for k, v in props.items()},
                         "message": unescape_data(match["data"])})
    return commands, plain


def test_github_round_trips_messages_and_properties(report):
    output = render("github", report)
    # one physical line per finding: no raw CR/LF leaked out of the escaping
    commands, plain = parse_github(output)
    assert len(commands) == len(FINDINGS)
    for finding, cmd in zip(FINDINGS, commands):
        assert cmd["kind"] == {"error": "error", "warning": "warning", "info": "notice"}[str(finding.severity)]
        # line breaks come back as they were; other control characters, which the log would render, as escapes
        assert cmd["message"] == "".join(c if c in "\r\n" else escape_text(c) for c in finding.message)
        assert cmd["file"] == finding.path
        assert cmd["line"] == str(finding.line) and cmd["col"] == str(finding.column)
        assert cmd["title"] == f"{finding.code} {finding.rule}"
    assert "\r" not in output
    assert len(plain) == 1 and "7 problems" in plain[0]


def test_github_escapes_exactly():
    from qlint.output.github import command, escape_data, escape_property

    assert escape_data("100%\r\nok: a,b") == "100%25%0D%0Aok: a,b"
    assert escape_property("C:\\x,y%") == "C%3A\\x%2Cy%25"
    line = command(Finding("a:b,c.yaml", 2, 3, "Q104", "correct-count", Severity.WARNING, "x: y, 5%"))
    assert line == "::warning file=a%3Ab%2Cc.yaml,line=2,col=3,title=Q104 correct-count::x: y, 5%25"


def test_github_summary_mentions_the_annotation_cap(rules):
    many = [replace(FINDINGS[0], line=i) for i in range(1, 13)]
    _, plain = parse_github(render("github", Report(many, 1, 1, rules)))
    assert "12 problems" in plain[-1] and "10" in plain[-1]
    _, plain = parse_github(render("github", Report([], 1, 4, rules)))
    assert plain == ["qlint: all clear: 4 questions in 1 file."]
    assert render("github", Report([], 1, 4, rules), quiet=True) == ""


# --- GitLab -----------------------------------------------------------------------------------------------------

def test_gitlab_code_quality(report):
    issues = json.loads(render("gitlab", report))
    assert isinstance(issues, list) and len(issues) == len(FINDINGS)
    severities = {"error": "major", "warning": "minor", "info": "info"}
    for finding, issue in zip(FINDINGS, issues):
        assert set(issue) == {"description", "check_name", "fingerprint", "severity", "location"}
        assert finding.message in issue["description"]
        assert issue["check_name"] == f"{finding.code} {finding.rule}"
        assert issue["severity"] == severities[str(finding.severity)]
        assert issue["location"] == {"path": finding.path, "lines": {"begin": finding.line}}
        assert re.fullmatch(r"[0-9a-f]{64}", issue["fingerprint"])
    assert len({i["fingerprint"] for i in issues}) == len(issues)
    assert issues[0]["fingerprint"] == fingerprint(FINDINGS[0])
    sarif = json.loads(render("sarif", report))["runs"][0]["results"]
    assert [i["fingerprint"] for i in issues] == [list(r["partialFingerprints"].values())[0] for r in sarif]


def test_gitlab_empty_is_an_empty_array(rules):
    assert json.loads(render("gitlab", Report([], 0, 0, rules))) == []


# --- JUnit ------------------------------------------------------------------------------------------------------

def test_junit_counts_and_escaping(report):
    output = render("junit", report, fail_on="info")   # every finding fails the run
    root = ET.fromstring(output.encode("utf-8"))
    assert root.tag == "testsuites"
    assert root.get("tests") == root.get("failures") == str(len(FINDINGS))
    suites = root.findall("testsuite")
    files = {f.path for f in FINDINGS}
    assert {s.get("name") for s in suites} == files
    for suite in suites:
        cases = suite.findall("testcase")
        assert suite.get("tests") == suite.get("failures") == str(len(cases))
        assert all(c.find("failure") is not None for c in cases)
    cases = root.iter("testcase")
    names = {c.get("name") for c in cases}
    assert "Q104 correct-count: bank/a.yaml:3" in names
    assert "Q404 reading-level: bank/sub dir/b,c:d.yaml:4" in names
    messages = [f.get("message") for f in root.iter("failure")]
    assert NASTY in messages  # CR and LF survive as character references in the attribute
    assert any("\\x00" in m for m in messages)  # characters XML cannot carry are spelled out
    types = {f.get("type") for f in root.iter("failure")}
    assert types == {"error", "warning", "info"}


def test_junit_clean_run_has_one_passing_testcase(rules):
    root = ET.fromstring(render("junit", Report([], 2, 9, rules)))
    cases = list(root.iter("testcase"))
    assert len(cases) == 1 and cases[0].find("failure") is None
    assert root.get("tests") == "1" and root.get("failures") == "0"


# --- end to end -------------------------------------------------------------------------------------------------

FLAWED = """\
questions:
  - id: e2e-1
    stem: Which layer normalises activations across the feature dimension?
    options:
      - text: LayerNorm
        correct: true
        rationale: Correct. It normalises each sample across its features.
      - text: BatchNorm
        correct: true
        rationale: Incorrect. It normalises across the batch.
      - text: Dropout
        rationale: Incorrect. It zeroes activations at random.
"""


@pytest.mark.parametrize("fmt", ["sarif", "github", "gitlab", "junit"])
def test_cli_end_to_end(fmt, run_cli, write, tmp_path):
    write("bank/flawed.yaml", FLAWED)
    code, out, err = run_cli("check", "bank", "--format", fmt, cwd=tmp_path)
    assert code == 1, err
    assert "Q104" in out
    if fmt == "sarif":
        doc = json.loads(out)
        results = doc["runs"][0]["results"]
        assert any(r["ruleId"] == "Q104" for r in results)
        uri = results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert uri == "bank/flawed.yaml"
        if SARIF_SCHEMA.is_file():
            jsonschema = pytest.importorskip("jsonschema")
            jsonschema.validate(doc, json.loads(SARIF_SCHEMA.read_text(encoding="utf-8")))
    elif fmt == "github":
        commands, _ = parse_github(out)
        assert any(c["title"] == "Q104 correct-count" and c["file"] == "bank/flawed.yaml" for c in commands)
    elif fmt == "gitlab":
        assert any(i["check_name"] == "Q104 correct-count" for i in json.loads(out))
    else:
        assert any(c.get("name", "").startswith("Q104 correct-count: bank/flawed.yaml:")
                   for c in ET.fromstring(out).iter("testcase"))


def test_cli_sarif_main_call(write, tmp_path, monkeypatch, capsys):
    from qlint.cli.main import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    write("bank/flawed.yaml", FLAWED)
    assert main(["check", "bank", "--format", "sarif"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["runs"][0]["tool"]["driver"]["name"] == "qlint"


def test_cli_picks_github_under_actions(run_cli, write, tmp_path, monkeypatch):
    write("bank/flawed.yaml", FLAWED)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")  # after run_cli's fixture setup cleared it
    code, out, _ = run_cli("check", "bank", cwd=tmp_path)
    assert code == 1
    assert "\n::error file=bank/flawed.yaml," in "\n" + out


def test_cli_output_file(run_cli, write, tmp_path):
    write("bank/flawed.yaml", FLAWED)
    code, out, err = run_cli("check", "bank", "--format", "junit", "-o", tmp_path / "report.xml", cwd=tmp_path)
    assert code == 1 and out == ""
    root = ET.parse(tmp_path / "report.xml").getroot()
    assert int(root.get("failures")) >= 1


@settings(max_examples=300, deadline=None)
@given(st.text(), st.text(), st.one_of(st.none(), st.text()), st.text(), st.integers(1, 10**6), st.integers(1, 10**4),
       st.sampled_from(list(Severity)))
def test_finding_to_json_is_json_dumps_of_to_dict(path, message, question, rule, line, column, severity):
    finding = Finding(path, line, column, "Q999", rule, severity, message, question)
    assert finding.to_json() == json.dumps(finding.to_dict(), ensure_ascii=False)


@pytest.mark.parametrize("where", ["path", "message", "question", "rule"])
def test_json_escapes_a_lone_surrogate_wherever_a_finding_carries_it(where):
    """A file name's undecodable byte (or a stem's lone surrogate) in any finding's text: the JSON stays writable
    as UTF-8 and reads back as the same text, and the findings around it are written as they are."""
    odd = "x\udcff\u00e9"
    plain = Finding("bank/é.yaml", 3, 5, "Q106", "missing-rationale", Severity.ERROR, "option 2 has no rationale", "q1")
    findings = [plain] * 3 + [replace(plain, **{where: odd})] + [plain] * 10001   # the odd one in the first slice
    text = render("json", Report(findings, 1, 4))
    text.encode("utf-8")
    assert json.loads(text)["findings"][3][where] == odd
    assert text.count("\\udcff") == 1 and "bank/é.yaml" in text
