"""Command-line behaviour a ruff user expects."""
from __future__ import annotations

import json


def test_output_format_is_an_alias_of_format(run_cli, tmp_path):
    (tmp_path / "q.yaml").write_text("id: a\nstem: S?\noptions:\n  - {text: x, correct: true, rationale: r}\n"
                                     "  - {text: y, rationale: r}\n", encoding="utf-8")
    code, out, _ = run_cli("check", tmp_path / "q.yaml", "--output-format", "json", "--no-cache")
    assert json.loads(out)["summary"]["questions"] == 1 and code == 0


def test_an_empty_folder_is_a_usage_error_unless_allowed(run_cli, tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.txt").write_text("not a bank file", encoding="utf-8")
    code, _, err = run_cli("check", tmp_path / "empty", "--no-cache")
    assert code == 2 and "no bank files found" in err and "--allow-empty" in err
    code, out, _ = run_cli("check", tmp_path / "empty", "--no-cache", "--allow-empty")
    assert code == 0 and "0 files" in out


BROKEN = "id: a\nstem: \"unclosed\noptions: []\n"
MISSPELT = ("id: a\nstem: Which is the cheapest option of all?\noptions:\n"
            "  - {text: Always the first one, correct: true, rationnale: Correct.}\n"
            "  - {text: The second, rationale: Incorrect.}\n")


def test_parse_and_schema_errors_are_reported_whatever_select_and_ignore_say(run_cli, tmp_path):
    (tmp_path / "broken.yaml").write_text(BROKEN, encoding="utf-8")
    for args in (["--select", "option-length"], ["--ignore", "parse-error,schema"]):
        code, out, _ = run_cli("check", tmp_path, "--format", "json", "--no-cache", *args)
        assert [f["rule"] for f in json.loads(out)["findings"]] == ["parse-error"], args
        assert code == 1


def test_a_misspelt_key_does_not_hide_the_question_from_the_other_rules(run_cli, tmp_path):
    (tmp_path / "q.yaml").write_text(MISSPELT, encoding="utf-8")
    code, out, _ = run_cli("check", tmp_path, "--format", "json", "--no-cache")
    doc = json.loads(out)
    rules = {f["rule"] for f in doc["findings"]}
    assert "schema" in rules and "missing-rationale" in rules, rules   # the key's rationale is missing as written
    assert doc["summary"]["questions"] == 1
