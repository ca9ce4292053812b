"""The README's snippets, taken from the README itself and run as a new user pastes them: a snippet that stops
working fails here, not in a user's first minutes."""
from __future__ import annotations

from helpers import ROOT

import json
import re
from pathlib import Path

import pytest

README = (ROOT / "README.md").read_text(encoding="utf-8")


def block(after: str, language: str, starts: str = "") -> str:
    """The first fenced block of ``language`` after the heading or line ``after`` (that starts with ``starts``)."""
    rest = README[README.index(after):]
    for found in re.finditer(rf"```{language}\n(.*?)```", rest, re.S):
        if found.group(1).startswith(starts):
            return found.group(1)
    raise AssertionError(f"no {language} block after {after!r}")


def test_the_bank_format_example_is_a_clean_bank_as_pasted(run_cli, tmp_path):
    import jsonschema

    example = block("## The bank format", "yaml")
    (tmp_path / "bank").mkdir()
    (tmp_path / "bank" / "example.yaml").write_text(example, encoding="utf-8")
    code, out, err = run_cli("check", "bank/", "--no-cache", cwd=tmp_path)
    assert code == 0 and "All clear: 2 questions in 1 file." in out, out + err
    import yaml

    schema = json.loads(run_cli("schema")[1])
    jsonschema.validate(yaml.safe_load(example), schema)


def test_the_readme_installs_extras_by_path_never_by_name():
    """A package named qlint on PyPI is another project: `pip install 'qlint[server]'` would install that."""
    assert "qlint[" not in README.replace("tools/qlint[", "")
    assert "'.[report]'" in README and "'.[server]'" in README and "'.[analysis]'" in README


def test_the_readme_table_of_rules_on_by_default_is_every_rule_on_by_default(registry):
    section = README[README.index("## Rules"):README.index("Off by default, because")]
    listed = {code for row in re.findall(r"^\| (Q\d+(?:, Q\d+)*) \|", section, re.M) for code in row.split(", ")}
    on = {rule.code for rule in registry if rule.enabled and rule.code.startswith("Q")}
    assert listed == on, (sorted(on - listed), sorted(listed - on))


def _qlint_lines(text: str) -> list[list[str]]:
    """The qlint commands of a shell block, each split as the shell splits it, its trailing comment left out."""
    import shlex

    return [shlex.split(line, comments=True) for line in text.splitlines() if line.startswith("qlint ")]


@pytest.fixture
def bank_repo(tmp_path, monkeypatch):
    """A bank repository as the README sets one up: the sample bank, and its config naming the bank."""
    import shutil

    shutil.copytree(ROOT / "bank", tmp_path / "bank")
    (tmp_path / "pyproject.toml").write_text(block("## In a bank repository", "toml"), encoding="utf-8")
    monkeypatch.setenv("QLINT_CACHE_DIR", str(tmp_path / ".cache"))
    return tmp_path


def _ran(run_cli, command: list[str], cwd: Path) -> tuple[int, str, str]:
    assert command[0] == "qlint"
    code, out, err = run_cli(*command[1:], cwd=cwd)
    assert code == 0 and "error:" not in err, (command, err)   # the sample bank, as the README pastes it, passes
    return code, out, err


def test_the_ci_snippets_run_as_pasted(run_cli, bank_repo, monkeypatch):
    """Every `run:` of the GitHub workflow and `script:` line of the GitLab job that calls qlint (the install lines
    are pip's), in a bank repository: each runs, and writes the report its upload step reads."""
    import xml.etree.ElementTree as ET

    import yaml

    github = yaml.safe_load(block("### GitHub Actions", "yaml"))
    steps = [s["run"] for s in github["jobs"]["qlint"]["steps"] if s.get("run", "").startswith("qlint ")]
    gitlab = yaml.safe_load(block("### GitLab CI", "yaml"))["qlint"]
    lines = [line for line in gitlab["script"] if line.startswith("qlint ")]
    assert len(steps) == 2 and len(lines) == 2
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    for command in _qlint_lines("\n".join(steps)):
        _ran(run_cli, command, bank_repo)
    sarif = next(s for s in github["jobs"]["qlint"]["steps"] if "upload-sarif" in s.get("uses", ""))
    assert json.loads((bank_repo / sarif["with"]["sarif_file"]).read_text())["version"] == "2.1.0"
    monkeypatch.delenv("GITHUB_ACTIONS")
    for command in _qlint_lines("\n".join(lines)):
        _ran(run_cli, command, bank_repo)
    reports = gitlab["artifacts"]["reports"]
    assert isinstance(json.loads((bank_repo / reports["codequality"]).read_text()), list)
    assert ET.parse(bank_repo / reports["junit"]).getroot().tag == "testsuites"


def test_the_baseline_commands_run_as_pasted(run_cli, bank_repo):
    (bank_repo / "bank" / "legacy.yaml").write_text(
        "id: old-1\nstem: Which two?\noptions:\n  - {text: a, correct: true, rationale: Correct. A.}\n"
        "  - {text: b, correct: true, rationale: Correct. B.}\n", encoding="utf-8")
    write, check = _qlint_lines(block("### Adopting qlint on a legacy bank", "sh"))
    assert _ran(run_cli, write, bank_repo)[0] == 0
    assert _ran(run_cli, check, bank_repo)[0] == 0
    assert run_cli(*check[1:-2], cwd=bank_repo)[0] == 1   # without the baseline, the old error fails the run


def test_the_config_override_and_extend_snippets_run_as_pasted(run_cli, bank_repo):
    (command,) = _qlint_lines(block("On the command line, `--config`", "sh"))
    _ran(run_cli, command, bank_repo)
    extend = block("A sub-bank's config can add to its parent's", "toml", "# bank/medical/qlint.toml")
    medical = bank_repo / "bank" / "medical"
    medical.mkdir()
    (medical / "qlint.toml").write_text(extend, encoding="utf-8")
    (medical / "q.yaml").write_text(
        "id: med-1\nstem: Which vessel carries blood from the heart to the lungs?\noptions:\n"
        "  - {text: The pulmonary artery, correct: true, rationale: Correct. It leaves the right ventricle.}\n"
        "  - {text: The aorta, rationale: Incorrect. It leaves the left ventricle.}\n", encoding="utf-8")
    _, out, _ = _ran(run_cli, ["qlint", "check", "bank/medical/q.yaml", "--show-settings"], bank_repo)
    assert "bank/medical/qlint.toml" in out and "max-grade = 14" in out and "bank/medical/scratch/**" in out


def test_the_schema_command_runs_as_pasted(run_cli, tmp_path):
    (command,) = _qlint_lines(block("`qlint schema` prints a JSON Schema", "sh"))
    _ran(run_cli, command, tmp_path)
    output = command[command.index("-o") + 1]
    assert json.loads((tmp_path / output).read_text())["$schema"].startswith("http://json-schema.org/draft-07")
