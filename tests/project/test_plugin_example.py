"""The README's plugin example, installed as a plugin: a bank rule with a per-question feature and its own cache
encoding, written in one module, works cold and warm (from the cache), and the README's tests of it, written
with qlint.testing, pass."""
from __future__ import annotations

from helpers import ROOT

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = ROOT / "README.md"


def _block(name: str) -> str:
    """The one Python block of the README that starts with this file name."""
    blocks = re.findall(rf"```python\n(# {re.escape(name)}\n.*?)```", README.read_text(), re.S)
    assert len(blocks) == 1, f"the README's {name} is missing"
    return blocks[0]


def _example() -> str:
    return _block("my_rules/exact_duplicate_stem.py")


@pytest.fixture
def plugin(tmp_path) -> dict[str, str]:
    """The example installed as a distribution with a ``qlint.rules`` entry point, on PYTHONPATH."""
    site = tmp_path / "site"
    (site / "my_rules").mkdir(parents=True)
    (site / "my_rules" / "__init__.py").write_text("")
    (site / "my_rules" / "exact_duplicate_stem.py").write_text(_example())
    info = site / "my_rules-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: my-rules\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[qlint.rules]\nmy-rules = my_rules.exact_duplicate_stem:RULE\n")
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path]), "QLINT_NO_PROGRESS": "1"}


def _check(bank: Path, env: dict[str, str]) -> list[dict]:
    proc = subprocess.run([sys.executable, "-m", "qlint", "check", "bank", "--format", "json",
                           "--select", "exact-duplicate-stem"], cwd=bank.parent, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr   # the example's findings are warnings: the run passes
    return json.loads(proc.stdout)["findings"]


def test_the_example_runs_cold_and_from_the_cache(tmp_path, plugin):
    module = _example()
    failing = re.search(r'QUESTION = """\\\n(.*?)"""', module, re.S).group(1)
    bank = tmp_path / "bank"
    bank.mkdir()
    question = failing
    (bank / "a.yaml").write_text("questions:\n" + question.format(id="q1", stem="What saves memory?"))
    (bank / "b.yaml").write_text("questions:\n" + question.format(id="q2", stem="What  saves MEMORY?")
                                 + question.format(id="q3", stem="What costs memory?"))
    cold = _check(bank, plugin)
    assert [(f["path"], f["question"], f["rule"]) for f in cold] == [("bank/b.yaml", "q2", "exact-duplicate-stem")]
    assert "same stem as question 'q1' at bank/a.yaml:2" in cold[0]["message"]
    # the features are in the cache, in the rule's own encoding: one string of digests per file
    entries = [json.loads(p.read_text().split("\n")[2]) for p in (tmp_path / ".qlint_cache").rglob("*.json")
               if p.parent.name != "bank" and p.name != "signatures.json" and not p.name.startswith(".")]
    encoded = [e["exact-duplicate-stem"]["encoded"] for e in entries]
    assert sorted(len(e.split(",")) for e in encoded) == [1, 2]
    (bank / "c.yaml").write_text("questions:\n" + question.format(id="q4", stem="What costs memory?"))
    warm = _check(bank, plugin)   # a.yaml and b.yaml come from the cache, decoded by the rule's decode
    assert [(f["path"], f["question"]) for f in warm] == [("bank/b.yaml", "q2"), ("bank/c.yaml", "q4")]


def test_a_damaged_feature_is_recomputed_not_trusted(tmp_path, plugin):
    bank = tmp_path / "bank"
    bank.mkdir()
    question = "  - id: {id}\n    stem: Same stem?\n    options:\n      - {{text: A, correct: true, rationale: R.}}\n" \
               "      - {{text: B, rationale: R.}}\n"
    (bank / "a.yaml").write_text("questions:\n" + question.format(id="q1"))
    (bank / "b.yaml").write_text("questions:\n" + question.format(id="q2"))
    assert len(_check(bank, plugin)) == 1
    for entry in (tmp_path / ".qlint_cache").rglob("*.json"):
        lines = entry.read_text().split("\n")
        if len(lines) == 3 and "exact-duplicate-stem" in lines[2]:
            entry.write_text("\n".join([*lines[:2], json.dumps({"exact-duplicate-stem": {"encoded": "zz"}})]))
    assert len(_check(bank, plugin)) == 1


def test_the_examples_tests_pass_with_qlint_testing(plugin, monkeypatch):
    """The README's test module for the rule, as a plugin author writes it: every test in it passes."""
    site = plugin["PYTHONPATH"].split(os.pathsep)[0]
    monkeypatch.syspath_prepend(site)
    module: dict = {}
    exec(compile(_block("tests/test_exact_duplicate_stem.py"), "test_exact_duplicate_stem.py", "exec"), module)
    tests = [value for name, value in module.items() if name.startswith("test_")]
    assert len(tests) == 2
    for test in tests:
        test()


def test_qlint_testing_fails_the_example_on_what_it_does_not_show(plugin, monkeypatch):
    site = plugin["PYTHONPATH"].split(os.pathsep)[0]
    monkeypatch.syspath_prepend(site)
    from my_rules.exact_duplicate_stem import RULE

    from qlint.testing import Invalid, assert_rule

    (failing,) = RULE.invalid
    assert failing.field == "stem" and failing.message
    with pytest.raises(AssertionError, match="finding 1 names field 'stem', the example states 'options'"):
        assert_rule(RULE, valid=[], invalid=[Invalid(failing.text, field="options")])
    with pytest.raises(AssertionError, match="fired on a passing example"):
        assert_rule(RULE, valid=[failing.text], invalid=[])
