"""The suite's own shape: test modules share through helpers.py and fixtures only, and the README and docs name
test files that exist."""
from __future__ import annotations

import ast
import re

from helpers import ROOT, TESTS

_TESTS_PATH = re.compile(r"(?<![\w/.-])tests/[\w./-]*")


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


def _named_tests_paths(text: str) -> list[tuple[int, str]]:
    """(line, path) of every ``tests/...`` path the text names, but the file name opening a fenced block: that is
    the name of a file the block shows (a plugin's own test module), not one of this checkout."""
    found, fence, opening = [], False, False
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fence, opening = not fence, not fence
            continue
        if not (opening and line.startswith("# ")):
            found += [(number, path.rstrip(".,")) for path in _TESTS_PATH.findall(line)]
        opening = False
    return found


def test_every_tests_path_the_readme_and_docs_name_exists():
    """A test file that moved leaves no stale mention behind."""
    documents = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    missing = [f"{doc.relative_to(ROOT).as_posix()}:{number}: {path}"
               for doc in documents for number, path in _named_tests_paths(doc.read_text(encoding="utf-8"))
               if not (ROOT / path).exists()]
    assert missing == []


def test_the_path_scan_reads_prose_and_code_but_not_a_shown_file_s_name():
    text = ("Held by `tests/cli/test_startup.py`, and tests/data/.\n```python\n# tests/test_plugin.py\n"
            "import qlint  # see tests/helpers.py\n```\nNot src/tests/x.py.\n")
    assert _named_tests_paths(text) == [(1, "tests/cli/test_startup.py"), (1, "tests/data/"), (4, "tests/helpers.py")]
