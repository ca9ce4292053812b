"""Declarative rule packs: a bank's own rules as data, validated on load, safe against hostile patterns."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from qlint.packs import PackError, check_pattern_safety, read_pack

ROOT = Path(__file__).resolve().parents[1]


def readme_pack() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.search(r"```yaml\n# house-style/banned-terms.yaml\n(.*?)```", text, re.S).group(1)


def test_readme_pack_example_works(run_cli, write, tmp_path):
    write("house-style/banned-terms.yaml", readme_pack())
    write("pyproject.toml", '[tool.qlint]\nrule-packs = ["house-style/"]\n')
    bank = write("bank/q.yaml", "id: q\nstem: Which pytorch call frees cached memory?\noptions:\n"
                 "  - {text: torch.cuda.empty_cache(), correct: true, rationale: Correct. It releases the cache.}\n"
                 "  - {text: gc.collect(), rationale: Incorrect. It collects Python objects.}\n")
    code, out, err = run_cli("check", bank)
    assert 'H001 house-banned-terms: use "PyTorch" instead of "pytorch"' in out, out + err
    code, out, _ = run_cli("rule", "house-banned-terms", "--config", tmp_path / "pyproject.toml")
    assert code == 0 and "## What it does" in out


def test_unknown_pack_key_is_a_config_error_with_hint(run_cli, write):
    write("packs/bad.yaml", readme_pack().replace("use-instead:", "use-insted:"))
    write("qlint.toml", 'rule-packs = ["packs"]\n')
    code, _, err = run_cli("check", write("bank/q.yaml", "id: q\nstem: s?\noptions: [{text: a}, {text: b}]\n"))
    assert code == 2 and "use-insted" in err and "did you mean 'use-instead'" in err


@pytest.mark.parametrize("pattern", [r"(a+)+$", r"(\w*)*x", r"(a|aa)*(b+)+", r"(x)\1"])
def test_dangerous_patterns_are_refused(pattern):
    with pytest.raises(PackError):
        check_pattern_safety(pattern)


@pytest.mark.parametrize("pattern", [r"\ball of the above\b", r"\d+\s*(?:km|m)", r"[A-Z]{2,}s?"])
def test_ordinary_patterns_pass(pattern):
    check_pattern_safety(pattern)


def test_shipped_packs_load_and_run_fast_on_hostile_text(tmp_path):
    from qlint.model import Question
    from qlint.packs import load_packs

    rules = load_packs()
    assert rules, "qlint ships at least one pack"
    evil = Question(id="x", stem="a" * 200_000 + "!", options=({"text": "none " * 20_000}, {"text": "b"}))
    for rule in rules:  # linear-time patterns: this returns at once (a backtracking pattern would hang here)
        list(rule.check(evil, rule.options()))
    assert read_pack(next((ROOT / "rules").glob("*.yaml")))
