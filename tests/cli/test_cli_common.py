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


def test_check_options_hold_every_option_of_check_with_its_default():
    """The check path reads a typed CheckOptions, never the parsed Namespace: every option of ``qlint check`` is one
    of its fields, and check with no options is CheckOptions' defaults."""
    from dataclasses import fields

    from qlint.cli.main import _parser
    from qlint.cli.options import CheckOptions

    args = _parser().parse_args(["check"])
    assert set(vars(args)) - {"command"} == {f.name for f in fields(CheckOptions)}
    assert CheckOptions.from_args(args) == CheckOptions()


def test_analyze_options_are_a_check_of_the_bank_with_the_responses():
    from qlint.cli.analyze import analyze_options
    from qlint.cli.main import _parser
    from qlint.registry import load_registry

    args = _parser().parse_args(["analyze", "responses.csv", "bank.gift", "--no-show-source", "--config", "q.toml"])
    options = analyze_options(args)
    assert (options.paths, options.responses, options.config) == (["bank.gift"], ["responses.csv"], ["q.toml"])
    assert options.select == [r.name for r in load_registry() if r.kind == "response"]
    assert options.show_source is False and not options.fix
