"""The suite's own shape: test modules share through helpers.py and fixtures only."""
from __future__ import annotations

import ast

from helpers import TESTS


def _suite_modules():
    for path in sorted(TESTS.rglob("*.py")):
        if TESTS / "data" not in path.parents:
            yield path


def _imported(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            yield "." * node.level + (node.module or "")


def _is_test_module(name: str) -> bool:
    """``test_cli``, ``tests.cli.test_cli``, ``.test_cli``, ``conftest``: a module the suite runs, not one it shares."""
    if name.startswith("tests.") or name == "tests":
        return True
    last = name.lstrip(".").rsplit(".", 1)[-1]
    return last.startswith("test_") or last.endswith("_test") or last == "conftest"


def test_no_test_module_imports_another():
    """Shared questions and helpers live in helpers.py (or a fixture): a test module imported by another runs twice
    under two names and ties the two files' edits together."""
    wrong = [f"{path.relative_to(TESTS).as_posix()}: {name}"
             for path in _suite_modules()
             for name in _imported(ast.parse(path.read_text(encoding="utf-8")))
             if _is_test_module(name)]
    assert wrong == []


def test_the_scan_sees_every_way_of_importing_a_test_module():
    tree = ast.parse("from test_cli import CLEAN\nimport tests.cli.test_cli\nfrom .test_server import A\n"
                     "from conftest import write\nimport helpers\nfrom qlint.testing import check\n")
    assert [name for name in _imported(tree) if _is_test_module(name)] == [
        "test_cli", "tests.cli.test_cli", ".test_server", "conftest"]
