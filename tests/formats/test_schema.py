"""`qlint schema`: a draft-07 JSON Schema of the bank format that agrees with `qlint check` on what is a bank."""
from __future__ import annotations

from helpers import ROOT

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from qlint.registry import load_registry



class _EditorLoader(yaml.SafeLoader):
    """Types scalars as an editor's YAML reader does (booleans, numbers), but leaves dates as text."""


_EditorLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


@pytest.fixture(scope="module")
def validator(tmp_path_factory):
    from qlint.cli.main import main

    out = tmp_path_factory.mktemp("schema") / "bank.schema.json"
    assert main(["schema", "-o", str(out)]) == 0
    schema = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.Draft7Validator.check_schema(schema)
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    return jsonschema.Draft7Validator(schema)


def _errors(validator, text: str) -> list[str]:
    try:
        data = yaml.load(text, Loader=_EditorLoader)
    except yaml.YAMLError as exc:
        return [f"not YAML: {exc}"]
    return [e.message for e in validator.iter_errors(data)]


def test_the_sample_bank_is_valid(validator):
    files = sorted((ROOT / "bank").rglob("*.yaml"))
    assert files
    for path in files:
        assert _errors(validator, path.read_text(encoding="utf-8")) == [], path


def test_every_rule_example_is_valid(validator):
    # the examples of the rules about other bank formats are GIFT files, not YAML banks
    other_formats = {"unsupported-question", "rationales-not-held", "import-hazard"}
    examples = [text for rule in load_registry() if rule.name not in other_formats
                for text in (e.text for e in (*rule.valid, *rule.invalid))]
    bad = [text for text in examples if _errors(validator, text)]
    # examples of the structural rules are meant to break the bank format; every other example is a valid bank
    structural = {"schema", "parse-error"}
    allowed = {text for rule in load_registry() if rule.name in structural for text in (e.text for e in rule.invalid)}
    assert [text for text in bad if text not in allowed] == []


def test_yaml_scalars_read_as_text_are_accepted(validator):
    text = "id: 007\nstem: Is 1 < 2?\noptions:\n  - {text: yes, correct: true, rationale: 2020-01-01}\n  - {text: 3, rationale: no}\n"
    assert _errors(validator, text) == []


BROKEN = {
    "misspelt key": "id: a\nstem: S?\noptions:\n  - {text: x, correct: true, rationnale: r}\n  - {text: y, rationale: r}\n",
    "one option": "id: a\nstem: S?\noptions:\n  - {text: x, correct: true, rationale: r}\n",
    "quoted boolean": "id: a\nstem: S?\noptions:\n  - {text: x, correct: 'true', rationale: r}\n  - {text: y, rationale: r}\n",
    "no stem": "id: a\noptions:\n  - {text: x, correct: true, rationale: r}\n  - {text: y, rationale: r}\n",
    "select zero": "id: a\nstem: S?\nselect: 0\noptions:\n  - {text: x, correct: true, rationale: r}\n  - {text: y, rationale: r}\n",
    "unknown file key": "questions:\n  - id: a\n    stem: S?\n    options:\n      - {text: x, correct: true, rationale: r}\n      - {text: y, rationale: r}\nextra: 1\n",
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_bank_is_rejected_by_both_the_schema_and_check(validator, case, tmp_path, run_cli):
    text = BROKEN[case]
    assert _errors(validator, text), case
    path = tmp_path / "q.yaml"
    path.write_text(text, encoding="utf-8")
    code, out, _ = run_cli("check", path, "--format", "json", "--select", "schema", "--no-cache")
    assert code == 1 and any(f["rule"] == "schema" for f in json.loads(out)["findings"]), case
