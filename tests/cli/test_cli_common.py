"""The command line is the top floor: subcommand modules share what they need through ``qlint.cli_common``."""
from __future__ import annotations

from helpers import ROOT

import ast
from pathlib import Path

import pytest

from qlint.cli_common import comma_list

SRC = ROOT / "src" / "qlint"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    return names | {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}


@pytest.mark.parametrize("path", sorted(p for p in SRC.rglob("*.py") if p not in (SRC / "cli.py", SRC / "__main__.py")),
                         ids=lambda p: str(p.relative_to(SRC)))
def test_nothing_below_the_command_line_imports_it(path):
    assert "qlint.cli" not in _imports(path)


def test_comma_lists_drop_blanks():
    assert comma_list(" a, b,,c ,") == ["a", "b", "c"]
    assert comma_list("") == []
