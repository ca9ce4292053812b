"""Shared fixtures: the registry, a way to run the CLI in-process, a way to write files (plain helpers: helpers.py)."""
from __future__ import annotations

import io
import os
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from qlint.cli.main import main
from qlint.registry import load_registry
from helpers import SHARED, example_options, fired, lint_text, question, with_rules  # noqa: F401  (older tests import them from here)


@pytest.fixture(scope="session")
def registry():
    return load_registry()


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


@pytest.fixture(scope="session")
def pre_commit_home(tmp_path_factory, worker_id):
    """One pre-commit store for the whole run, shared by the parallel workers (pre-commit locks it while it builds),
    so qlint's hook environment, installed from this checkout, is built once and not once per test."""
    base = tmp_path_factory.getbasetemp()
    home = (base if worker_id == "master" else base.parent) / "pre-commit-home"
    home.mkdir(exist_ok=True)
    return home


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
