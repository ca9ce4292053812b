"""Baselines silence old findings (even after lines move) and not new ones."""
from __future__ import annotations

import json

import pytest

FLAWED = """\
questions:
  - id: legacy-1
    stem: Which call returns a Python float from a one-element loss tensor?
    options:
      - {text: loss.item(), correct: true, rationale: Correct. It copies the value out.}
      - {text: loss.detach(), correct: true, rationale: Correct. Also fine.}
      - {text: loss.clone(), rationale: Incorrect. A clone keeps the graph alive.}
"""
NEW = """\
  - id: new-1
    stem: Which precision format keeps the exponent range of fp32 in sixteen bits?
    options:
      - {text: bfloat16, rationale: Correct. Eight exponent bits.}
      - {text: float16, rationale: Incorrect. Five exponent bits.}
"""


def test_baseline_silences_old_and_reports_new(run_cli, write, tmp_path):
    bank = write("bank/a.yaml", FLAWED)
    base = tmp_path / "baseline.json"
    code, _, err = run_cli("check", bank, "--write-baseline", base)
    assert code == 0 and "wrote" in err
    doc = json.loads(base.read_text())
    assert {e["of"] for e in doc["findings"]} == {"legacy-1"} and all("line" not in e for e in doc["findings"])
    assert run_cli("check", bank, "--baseline", base)[0] == 0
    # move the old question down and add a new flawed one: only the new one is reported
    bank.write_text("questions:\n" + NEW + FLAWED.split("questions:\n", 1)[1])
    code, out, _ = run_cli("check", bank, "--baseline", base, "--format", "json")
    reported = {(f["question"], f["rule"]) for f in json.loads(out)["findings"]}
    assert code == 1 and reported == {("new-1", "correct-count")}


def test_bad_baseline_is_a_usage_error(run_cli, write, tmp_path):
    bank = write("bank/a.yaml", FLAWED)
    bad = write("baseline.json", "{not json")
    code, _, err = run_cli("check", bank, "--baseline", bad)
    assert code == 2 and "not a valid qlint baseline" in err


def test_a_baseline_is_replaced_whole_or_not_at_all(tmp_path, monkeypatch):
    """A write that fails before the new baseline is in place leaves the old one as it was, keeps its mode, and
    leaves no temporary file beside it."""
    import os

    from qlint.finding import Finding, Severity
    from qlint.run import baseline

    path = tmp_path / "baseline.json"
    finding = Finding("a.yaml", 1, 1, "Q106", "missing-rationale", Severity.ERROR, "option 1 has no rationale", "q1")
    assert baseline.write(path, [finding]) == 1
    os.chmod(path, 0o640)
    old = path.read_bytes()

    def failing(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing)
    with pytest.raises(OSError, match="No space left"):
        baseline.write(path, [finding, finding])
    assert path.read_bytes() == old
    assert os.listdir(tmp_path) == ["baseline.json"]
    monkeypatch.undo()
    assert baseline.write(path, [finding, finding]) == 2
    assert os.stat(path).st_mode & 0o777 == 0o640


def _entry(**changed) -> dict:
    return {"kind": "question", "of": "legacy-1", "rule": "correct-count", "count": 1, **changed}


def _doc(*entries, **top) -> str:
    return json.dumps({"qlint-baseline": 1, "qlint": "0.1", "findings": list(entries), **top})


COUNT = "findings[0].count must be a whole number of 1 or more"
MALFORMED = {   # what the file holds, and what is said after "PATH is not a valid qlint baseline: "
    "deep nesting": ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    "count 1e400": (_doc(_entry(count=1)).replace('"count": 1', '"count": 1e400'), COUNT),
    "count null": (_doc(_entry(count=None)), COUNT),
    "count negative": (_doc(_entry(count=-5)), COUNT),
    "count zero": (_doc(_entry(count=0)), COUNT),
    "count true": (_doc(_entry(count=True)), COUNT),
    "count fraction": (_doc(_entry(count=1.5)), COUNT),
    "count string": (_doc(_entry(count="3")), COUNT),
    "count of 5000 digits": (_doc(_entry()).replace('"count": 1', '"count": ' + "9" * 5000),
                             "a number longer than 20 digits"),
    "a list": ("[1, 2]", "not a qlint baseline (format 1)"),
    "no format": (json.dumps({"findings": []}), "not a qlint baseline (format 1)"),
    "format 2": (_doc(**{"qlint-baseline": 2}), "qlint-baseline must be 1, the only baseline format this qlint reads"),
    "format true": (_doc(**{"qlint-baseline": True}), "qlint-baseline must be 1, the only baseline format this qlint reads"),
    "findings null": (_doc().replace('"findings": []', '"findings": null'), "findings must be a list"),
    "no findings": (json.dumps({"qlint-baseline": 1}), "findings must be a list"),
    "an entry not an object": (_doc([1, 2]), "findings[0] must be an object with kind, of, rule and count"),
    "no kind": (_doc({k: v for k, v in _entry().items() if k != "kind"}), "findings[0] has no kind"),
    "no count": (_doc({k: v for k, v in _entry().items() if k != "count"}), "findings[0] has no count"),
    "kind evil": (_doc(_entry(kind="evil")), 'findings[0].kind must be "question" or "file"'),
    "kind a list": (_doc(_entry(kind=["question"])), 'findings[0].kind must be "question" or "file"'),
    "of a list": (_doc(_entry(of=["a"])), "findings[0].of must be a non-empty string"),
    "of empty": (_doc(_entry(of="")), "findings[0].of must be a non-empty string"),
    "rule a number": (_doc(_entry(rule=5)), "findings[0].rule must be a non-empty string"),
    "the second entry": (_doc(_entry(), _entry(rule={})), "findings[1].rule must be a non-empty string"),
    "a repeated entry": (_doc(_entry(), _entry(count=2)), "findings[1] repeats the kind, of and rule of an earlier entry"),
    "not UTF-8": (b'{"qlint-baseline": 1, "findings": [], "x": "\xff"}', "not UTF-8 text"),
    "not JSON": ('{"qlint-baseline": 1,', "not JSON: Expecting property name enclosed in double quotes at line 1 column 22"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_a_malformed_baseline_is_refused_with_what_is_wrong(run_cli, write, tmp_path, name):
    """Each shape a baseline must not have is refused with one line naming the file and what is wrong: deep nesting
    was an internal error (RecursionError), a count of 1e400 another (OverflowError), others Python's own words
    ("'list' object has no attribute 'get'", "'kind'"), and a count of -5 or true, a kind "evil", were taken."""
    bank = write("bank/a.yaml", FLAWED)
    text, wanted = MALFORMED[name]
    bad = write("bad.json", text)
    code, out, err = run_cli("check", bank, "--baseline", bad)
    assert code == 2 and out == ""
    errors = [line for line in err.splitlines() if line.startswith("qlint: error:")]
    assert errors == [f"qlint: error: {bad} is not a valid qlint baseline: {wanted}"], err
    assert "internal error" not in err and "Traceback" not in err


def test_what_qlint_writes_it_reads_back(tmp_path):
    """Question and file keys, a file name with a byte that is not UTF-8, a count above one; a byte order mark an
    editor adds is no reason to refuse the file."""
    from qlint.finding import Finding, Severity
    from qlint.run import baseline

    path = tmp_path / "baseline.json"
    odd = "bank/\udcffodd.yaml"
    findings = [Finding("a.yaml", 1, 1, "Q106", "missing-rationale", Severity.ERROR, "m", "q1"),
                Finding("a.yaml", 9, 1, "Q106", "missing-rationale", Severity.ERROR, "m", "q1"),
                Finding(odd, 1, 1, "Q101", "parse-error", Severity.ERROR, "m")]
    assert baseline.write(path, findings) == 3
    expected = {("question", "q1", "missing-rationale"): 2, ("file", odd, "parse-error"): 1}
    assert baseline.read(path) == expected
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert baseline.read(path) == expected
    path.write_text(_doc(), encoding="utf-8")   # no findings at all: a bank that was clean
    assert baseline.read(path) == {}
