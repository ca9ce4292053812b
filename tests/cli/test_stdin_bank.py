"""`qlint check - --stdin-filename PATH`: an editor's buffer is checked against the bank around PATH."""
from __future__ import annotations

import json
from pathlib import Path

QUESTION = """\
id: {id}
stem: {stem}
options:
  - {{text: Gradient checkpointing, correct: true, rationale: Correct. Activations are recomputed.}}
  - {{text: Larger batches, rationale: Incorrect. They increase memory.}}
"""
STEM = "Which technique reduces activation memory at the cost of recomputing activations in the backward pass?"


def _bank(root: Path) -> Path:
    (root / "qlint.toml").write_text('paths = ["bank"]\n', encoding="utf-8")
    bank = root / "bank"
    bank.mkdir()
    (bank / "a.yaml").write_text(QUESTION.format(id="a-1", stem=STEM), encoding="utf-8")
    (bank / "b.yaml").write_text(QUESTION.format(id="b-1", stem="Which optimizer keeps two moments per weight?"),
                                 encoding="utf-8")
    return bank


def test_stdin_sees_duplicates_in_the_rest_of_the_bank(tmp_path, run_cli):
    bank = _bank(tmp_path)
    buffer = QUESTION.format(id="a-1", stem=STEM)   # b.yaml being edited into a copy of a.yaml
    code, out, _ = run_cli("check", "-", "--stdin-filename", bank / "b.yaml", "--format", "json", "--no-cache",
                           cwd=tmp_path, stdin=buffer)
    found = json.loads(out)["findings"]
    rules = {f["rule"] for f in found}
    assert {"duplicate-id", "near-duplicate-stem"} <= rules, found
    assert {f["path"] for f in found} == {"bank/b.yaml"}   # only the buffer is reported on
    assert code == 1


def test_stdin_does_not_compare_the_buffer_with_its_own_file_on_disk(tmp_path, run_cli):
    bank = _bank(tmp_path)
    buffer = (bank / "a.yaml").read_text(encoding="utf-8")
    code, out, _ = run_cli("check", "-", "--stdin-filename", bank / "a.yaml", "--format", "json", "--no-cache",
                           cwd=tmp_path, stdin=buffer)
    assert [f["rule"] for f in json.loads(out)["findings"]] == []
    assert code == 0
