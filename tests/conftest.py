"""Shared fixtures: the registry, a way to lint text, and a way to run the CLI in-process."""
from __future__ import annotations

import io
import os
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from qlint.cli import main
from qlint.config import Config, Settings, resolve_rules
from qlint.registry import load_registry
from qlint.run.pipeline import check_sources
from qlint.testing import stated_options as example_options  # noqa: F401  (the tests' name for it)

SHARED = Path(__file__).resolve().parents[2] / "shared"


@pytest.fixture(scope="session")
def registry():
    return load_registry()


def lint_text(text: str, registry, select=None, extend=(), path="example.yaml", options=None):
    """Every finding on one file's text; ``options``: {rule name: its options table}, as a config sets them."""
    config = Config(Settings(rules=options or {}), Path.cwd(), None)
    active = resolve_rules(config, registry, select=select, extend_select=extend)
    return check_sources([(path, text.encode("utf-8"))], active, all_rules=[r.name for r in registry])


def question(stem: str, options: list[tuple[str, bool]], select: int = 1) -> str:
    """One question as YAML: a stem and (text, is-key) options, each with a rationale, for rule cases."""
    lines = ["id: x", f"stem: {stem!r}", f"select: {select}", "options:"]
    for text, key in options:
        lines += [f"  - text: {text!r}", f"    correct: {'true' if key else 'false'}",
                  f"    rationale: {'Correct' if key else 'Incorrect'}. Because of the definition."]
    return "\n".join(lines) + "\n"


def fired(text: str, rule: str, registry) -> list[str]:
    """The messages of one rule (turned on even when off by default) on a question's text."""
    return [f.message for f in lint_text(text, registry, extend=[rule]) if f.rule == rule]


@pytest.fixture
def run_cli(monkeypatch):
    def run(*args, cwd: Path | None = None, stdin: str | None = None):
        if cwd is not None:
            monkeypatch.chdir(cwd)
        out, err = io.StringIO(), io.StringIO()
        if stdin is not None:
            import sys
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
        with redirect_stdout(out), redirect_stderr(err):
            code = main([str(a) for a in args])
        return code, out.getvalue(), err.getvalue()
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    return run


@pytest.fixture
def write(tmp_path):
    def make(name: str, text: str | bytes) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return path
    return make


os.environ.setdefault("NO_COLOR", "1")


def with_rules(run_cli, *rules: str):
    """``run_cli`` with these rules turned on for every ``check``: for tests of rules that are off by default."""
    def run(*args, **kwargs):
        if args and args[0] == "check":
            args = (*args, "--extend-select", ",".join(rules))
        return run_cli(*args, **kwargs)
    return run
