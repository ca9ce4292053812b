"""The command line is the top floor: nothing below it imports it, and its subcommand modules share what they need
through ``qlint.cli.common``, never through the module that calls them (``qlint.cli.main``)."""
from __future__ import annotations

from helpers import ROOT

import ast
from pathlib import Path

import pytest

from qlint.cli.common import comma_list

SRC = ROOT / "src" / "qlint"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    return names | {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}


CLI = SRC / "cli"


@pytest.mark.parametrize("path", sorted(p for p in SRC.rglob("*.py") if CLI not in p.parents and p != SRC / "__main__.py"),
                         ids=lambda p: str(p.relative_to(SRC)))
def test_nothing_below_the_command_line_imports_it(path):
    assert not [name for name in _imports(path) if name == "qlint.cli" or name.startswith("qlint.cli.")]


@pytest.mark.parametrize("path", sorted(p for p in CLI.glob("*.py") if p.name != "main.py"), ids=lambda p: p.name)
def test_subcommand_modules_never_import_their_caller(path):
    assert "qlint.cli.main" not in _imports(path)


def test_comma_lists_drop_blanks():
    assert comma_list(" a, b,,c ,") == ["a", "b", "c"]
    assert comma_list("") == []
