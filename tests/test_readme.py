"""The README's snippets, taken from the README itself and run as a new user pastes them: a snippet that stops
working fails here, not in a user's first minutes."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
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
