"""pre-commit for real: a bank repository made from scratch, with qlint's hook installed from this checkout."""
from __future__ import annotations

from helpers import ROOT, git, head_commit, hook_repository, needs_pre_commit

import os
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, needs_pre_commit]


def question(qid: str, stem: str, keys=(0,)) -> str:
    options = ["Gradient checkpointing", "Larger batches", "More workers", "Pinned memory"]
    lines = [f"id: {qid}", f"stem: {stem}", "options:"]
    for i, text in enumerate(options):
        lines += [f"  - text: {text}", f"    correct: {'true' if i in keys else 'false'}",
                  f"    rationale: {'Correct' if i in keys else 'Incorrect'}. Reason {i}."]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def bank_repo(tmp_path_factory, pre_commit_home):
    repo = tmp_path_factory.mktemp("bank-repo")
    with pytest.MonkeyPatch.context() as patch:   # for the module's commits, not for the tests after it
        patch.setenv("PRE_COMMIT_HOME", str(pre_commit_home))
        yield _bank_repo(repo)


def _bank_repo(repo: Path) -> Path:
    first = hook_repository(repo, {
        ".pre-commit-config.yaml": f"repos:\n  - repo: {ROOT}\n    rev: {head_commit()}\n    hooks:\n      - id: qlint\n"
                                   "        files: ^bank/\n",
        "pyproject.toml": '[tool.qlint]\npaths = ["bank"]\nfail-on = "warning"\n',
        "bank/memory.yaml": question(
            "mem-1", "Which technique trades extra compute in the backward pass for lower activation memory?")})
    assert first.returncode == 0, first.stdout + first.stderr
    return repo


def test_flawed_commit_is_refused_with_the_finding_shown(bank_repo):
    (bank_repo / "bank" / "flawed.yaml").write_text(
        question("dp-1", "Which collective averages gradients across data-parallel ranks?", keys=(0, 1)))
    git(bank_repo, "add", "-A")
    result = git(bank_repo, "commit", "-qm", "flawed", check=False)
    assert result.returncode == 1
    assert "Q104 correct-count" in result.stdout + result.stderr
    git(bank_repo, "reset", "-q", "HEAD", "bank/flawed.yaml")
    (bank_repo / "bank" / "flawed.yaml").unlink()


def test_clean_commit_is_accepted(bank_repo):
    (bank_repo / "bank" / "clean.yaml").write_text(
        question("prec-1", "Which number format keeps the exponent range of fp32 while using sixteen bits?"))
    git(bank_repo, "add", "-A")
    result = git(bank_repo, "commit", "-qm", "clean", check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_near_duplicate_of_an_unchanged_file_is_refused(bank_repo):
    (bank_repo / "bank" / "copy.yaml").write_text(
        question("mem-2", "Which technique trades extra compute in the backward pass for lower memory of activations?"))
    git(bank_repo, "add", "bank/copy.yaml")
    result = git(bank_repo, "commit", "-qm", "near-duplicate", check=False)
    assert result.returncode == 1
    output = result.stdout + result.stderr
    assert "near-duplicate-stem" in output and "mem-1" in output and "bank/memory.yaml" in output


def _readme_block(after: str, language: str) -> str:
    """The first fenced block of ``language`` in the README after the line ``after``: a snippet, as pasted."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    rest = text[text.index(after):]
    start = rest.index(f"```{language}\n") + len(language) + 4
    return rest[start:rest.index("```", start)]


def test_the_readme_hook_runs_as_pasted_and_shows_warnings_at_commit_time(tmp_path, pre_commit_home):
    """The README's local hook, pasted into a bank repository whose .venv holds qlint: errors refuse the commit,
    warnings pass it and are shown."""
    repo = tmp_path / "bank-repo"
    env = {**os.environ, "PRE_COMMIT_HOME": str(pre_commit_home)}
    (repo / ".venv" / "bin").mkdir(parents=True)   # what the README's setup line installs there
    (repo / ".venv" / "bin" / "qlint").symlink_to(Path(sys.executable).with_name("qlint"))
    first = hook_repository(repo, {
        ".pre-commit-config.yaml": _readme_block("### pre-commit", "yaml"),
        "pyproject.toml": _readme_block("## In a bank repository", "toml"),
        ".gitignore": ".venv/\n",
        "bank/memory.yaml": question(
            "mem-1", "Which technique trades extra compute in the backward pass for lower activation memory?")}, env=env)
    assert first.returncode == 0, first.stdout + first.stderr
    (repo / "bank" / "copy.yaml").write_text(
        question("mem-2", "Which technique trades extra compute in the backward pass for lower memory of activations?"))
    git(repo, "add", "-A")
    warned = git(repo, "commit", "-qm", "a near-duplicate", check=False, env=env)
    assert warned.returncode == 0, warned.stdout + warned.stderr
    assert "warning: Q601 near-duplicate-stem" in warned.stdout + warned.stderr
    (repo / "bank" / "flawed.yaml").write_text(
        question("dp-1", "Which collective averages gradients across data-parallel ranks?", keys=(0, 1)))
    git(repo, "add", "-A")
    refused = git(repo, "commit", "-qm", "flawed", check=False, env=env)
    assert refused.returncode == 1 and "error: Q104 correct-count" in refused.stdout + refused.stderr


def test_the_hook_repository_hooks_are_verbose():
    import yaml

    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert {h["id"] for h in hooks} == {"qlint", "qlint-fix"} and all(h.get("verbose") is True for h in hooks)
