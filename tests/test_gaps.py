"""The command line where a ruff user expects it to behave like ruff: --force-exclude for pre-commit, fixable
marks, --statistics alone, whole-file suppressions, JUnit that fails only what fails the run, a hint for a
[tool.qlint] header in qlint.toml, and counts in the right number."""
from __future__ import annotations

import shlex
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml


ROOT = Path(__file__).resolve().parents[1]

CLEAN = """\
id: clean-1
stem: Which call returns a Python float from a one-element loss tensor?
options:
  - text: loss.item()
    correct: true
    rationale: Correct. It copies the value out and keeps no graph.
  - text: loss.detach()
    rationale: Incorrect. It still returns a tensor.
  - text: loss.clone()
    rationale: Incorrect. A clone keeps the graph alive.
"""
TWO_KEYS = CLEAN.replace("id: clean-1", "id: keys-1").replace(
    "Which call returns a Python float from a one-element loss tensor?",
    "A training loop logs its loss every step. Which call gives a plain number without keeping the graph?").replace(
    "  - text: loss.detach()\n    rationale: Incorrect. It still returns a tensor.\n",
    "  - text: loss.detach().item()\n    correct: true\n    rationale: Correct. The same number, detached first.\n")
# two safe fixes: a trailing space in the stem (info) and numeric options out of order (warning)
FIXABLE = """\
id: nums-1
stem: "How many bytes does one float32 value occupy in memory? "
options:
  - text: "8"
    rationale: Incorrect. That is float64.
  - text: "4"
    correct: true
    rationale: Correct. Thirty-two bits are four bytes.
  - text: "2"
    rationale: Incorrect. That is float16.
"""
PRE_COMMIT_CONFIG = "repos:\n  - repo: local\n    hooks:\n      - id: qlint\n"
CI_YAML = "stages: [test]\nlint:\n  script: qlint check\n"


@pytest.fixture
def repo(tmp_path, write):
    """A bank repository: the bank under bank/, pre-commit and CI YAML beside it."""
    write("pyproject.toml", '[tool.qlint]\npaths = ["bank"]\nexclude = ["bank/legacy/**"]\n')
    write(".pre-commit-config.yaml", PRE_COMMIT_CONFIG)
    write("ci/pipeline.yml", CI_YAML)
    write("bank/good.yaml", CLEAN)
    write("bank/legacy/old.yaml", TWO_KEYS)
    return tmp_path


# --- ignore-file ---------------------------------------------------------------------------------------------

SECOND_STEM = "Which tensor method detaches a scalar metric before it is appended to a Python list of losses?"
TWO_FLAWED = ("questions:\n" + "".join(
    "  - " + text.replace("\n", "\n    ").rstrip() + "\n"
    for text in (TWO_KEYS, TWO_KEYS.replace("keys-1", "keys-2").replace(TWO_KEYS.splitlines()[1][6:], SECOND_STEM))))


def test_ignore_file_silences_a_rule_in_every_question(run_cli, tmp_path, write):
    write("bank/legacy.yaml", TWO_FLAWED)
    code, out, _ = run_cli("check", "bank", "--no-cache", cwd=tmp_path)
    assert code == 1 and out.count("Q104 correct-count") == 2
    write("bank/legacy.yaml", "# qlint: ignore-file[correct-count] imported exam; its two-key items are kept as set\n"
          + TWO_FLAWED)
    code, out, err = run_cli("check", "bank", "--no-cache", cwd=tmp_path)
    assert code == 0, out + err
    assert "Q104" not in out and "Q903" not in out and "Q902" not in out


def test_ignore_file_needs_a_reason(run_cli, tmp_path, write):
    write("bank/legacy.yaml", "# qlint: ignore-file[correct-count]\n" + TWO_FLAWED)
    code, out, _ = run_cli("check", "bank", "--no-cache", cwd=tmp_path)
    assert code == 1
    assert "bank/legacy.yaml:1:1: Q903 invalid-suppression: suppression needs a reason: " \
           "# qlint: ignore-file[rule] reason" in out
    assert out.count("Q104 correct-count") == 2


def test_ignore_file_that_silences_nothing_is_reported(run_cli, tmp_path, write):
    write("bank/a.yaml", "# qlint: ignore-file[correct-count] kept from the old bank\n" + CLEAN)
    code, out, _ = run_cli("check", "bank", "--no-cache", "--fail-on", "warning", cwd=tmp_path)
    assert code == 1
    assert "bank/a.yaml:1:1: Q902 unused-suppression: suppression of correct-count silences nothing" in out


def test_ignore_file_in_the_middle_of_a_file_still_covers_all_of_it(run_cli, tmp_path, write):
    text = TWO_FLAWED.replace("  - id: keys-2", "  # qlint: ignore-file[Q104] one exam's keys, kept as set\n"
                              "  - id: keys-2")
    write("bank/legacy.yaml", text)
    code, out, _ = run_cli("check", "bank", "--no-cache", cwd=tmp_path)
    assert code == 0 and "Q104" not in out


# --- [tool.qlint] in qlint.toml ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["qlint.toml", ".qlint.toml"])
def test_tool_qlint_header_in_qlint_toml_gets_a_hint(run_cli, tmp_path, write, name):
    write(name, '# settings\n[tool.qlint]\npaths = ["bank"]\n')
    write("bank/a.yaml", CLEAN)
    code, _, err = run_cli("check", "bank", cwd=tmp_path)
    assert code == 2
    assert f"{name}:2: [tool.qlint]: in {name} the settings go at the top level" in err
    assert "unknown key" not in err


def test_tool_qlint_in_pyproject_is_still_read(run_cli, tmp_path, write):
    write("pyproject.toml", '[tool.qlint]\nignore = ["correct-count"]\n')
    write("bank/a.yaml", TWO_KEYS)
    assert run_cli("check", "bank", "--no-cache", cwd=tmp_path)[0] == 0
