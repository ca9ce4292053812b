"""internal-error (Q901) and fix-skipped (Q905): findings qlint's own machinery makes, registered as rules with cards,
so that ``qlint rule`` shows them and ``--select``/``--ignore`` name them. The generic example test runs their
examples with the machinery their ``made_by`` declares; here fix-skipped's run through the command line too."""
from __future__ import annotations

import json

from qlint.finding import Severity
from qlint.registry import load_registry
from qlint.testing import assert_findings

REGISTRY = load_registry()
INTERNAL, SKIPPED = REGISTRY.get("internal-error"), REGISTRY.get("fix-skipped")


def test_both_are_registered_with_their_codes():
    assert (INTERNAL.code, SKIPPED.code) == ("Q901", "Q905")


def test_the_cards_are_shown(run_cli):
    for name in ("fix-skipped", "Q905", "internal-error", "Q901"):
        code, out, err = run_cli("rule", name)
        assert code == 0, err
        assert "(Q90" in out and "## What it does" in out


def test_ignore_and_select_accept_them(run_cli, tmp_path):
    (tmp_path / "a.yaml").write_text(SKIPPED.passing[0], encoding="utf-8")
    for flags in (["--ignore", "Q905"], ["--ignore", "fix-skipped,internal-error"], ["--extend-select", "Q905"]):
        code, out, err = run_cli("check", str(tmp_path / "a.yaml"), "--select", "schema", *flags)
        assert code == 0, err


def test_an_ignore_of_internal_error_says_it_cannot_hide_one(run_cli, tmp_path):
    (tmp_path / "a.yaml").write_text(INTERNAL.passing[0], encoding="utf-8")
    code, _, err = run_cli("check", str(tmp_path / "a.yaml"), "--ignore", "Q901")
    assert code == 0 and "internal-error findings are always reported" in err


def _fix_findings(run_cli, tmp_path, text: str, *flags: str) -> list:
    path = tmp_path / "bank.yaml"
    path.write_text(text, encoding="utf-8")
    _, out, err = run_cli("check", str(path), "--fix", "--format", "json", "--no-cache", *flags)
    return [f for f in json.loads(out)["findings"] if f["rule"] == "fix-skipped"], err


def test_fix_skipped_examples_through_check_fix(run_cli, tmp_path):
    from qlint.finding import Finding

    for example in SKIPPED.failing:
        found, err = _fix_findings(run_cli, tmp_path, example.text)
        assert "not fixed" in err
        assert_findings(example, [Finding(f["path"], f["line"], f["column"], f["code"], f["rule"],
                                          Severity.parse(f["severity"]), f["message"], f.get("question"), f.get("field"))
                                  for f in found], SKIPPED.name)
        assert {f["severity"] for f in found} == {"warning"}
    for example in SKIPPED.passing:
        assert _fix_findings(run_cli, tmp_path, example)[0] == []


def test_an_ignored_fix_skipped_leaves_the_report(run_cli, tmp_path):
    found, err = _fix_findings(run_cli, tmp_path, SKIPPED.failing[0].text, "--ignore", "Q905")
    assert found == [] and "not fixed" in err   # stderr still names the file left alone
