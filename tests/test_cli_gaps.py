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
