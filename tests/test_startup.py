"""Start-up: a command loads only what it needs.

An editor and a pre-commit hook start qlint on every save and commit: ``qlint --version`` and parsing must load
nothing of the run. The times themselves are measured by ``benchmarks/startup.py``, never here.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from qlint.cli_common import FROM_ALIASES, FROM_FORMATS

# Runs ``qlint.cli.main`` with the arguments given and writes the names of every module then loaded to the file
# named first (``main`` itself, not the console script's ``run``, which leaves without tearing down).
PROBE = """
import sys
from qlint.cli import main
target, argv = sys.argv[1], sys.argv[2:]
try:
    main(argv)
except SystemExit:
    pass
loaded = sorted(sys.modules)
with open(target, "w") as handle:
    handle.write("\\n".join(loaded))
"""

BANK = """\
questions:
  - id: capital-fr
    stem: What is the capital of France?
    options:
      - {text: Paris, correct: true, rationale: It has been the capital since the tenth century.}
      - {text: Lyon, rationale: Lyon is the third city by population.}
      - {text: Marseille, rationale: Marseille is the main port on the Mediterranean.}
"""

# never needed to check a YAML bank
NOT_FOR_A_YAML_CHECK = ("qlint.analysis", "qlint.report", "qlint.server", "qlint.server_runs", "qlint.forms",
                        "qlint.formats.convert", "qlint.formats.write", "qlint.formats.write_text",
                        "qlint.formats.write_xml", "qlint.formats.gift", "qlint.formats.aiken", "qlint.formats.moodle",
                        "qlint.formats.qti", "qlint.formats.qti1", "qlint.formats.qti2", "qlint.docs",
                        "qlint.bank_schema", "qlint.fix_run", "qlint.cli_show", "duckdb", "lark", "lxml", "matplotlib",
                        "rich", "pygls", "lsprotocol", "mirt", "ruamel.yaml")
# besides those, never needed to print the version
NOT_FOR_THE_VERSION = ("pydantic", "yaml", "re2", "pathspec", "numpy", "rapidfuzz", "importlib.metadata", "json",
                       "qlint.config", "qlint.registry", "qlint.rule", "qlint.pipeline", "qlint.batch", "qlint.cache",
                       "qlint.formats", "qlint.reporters", "qlint.model", "qlint.rules", "qlint.engine")


def _loaded(cwd: Path, *argv: str) -> set[str]:
    target = cwd / "modules.json"
    subprocess.run([sys.executable, "-c", PROBE, str(target), *argv], cwd=cwd, check=True, capture_output=True,
                   timeout=120)
    return set(target.read_text().splitlines())


def _below(modules: set[str], names: tuple[str, ...]) -> list[str]:
    """The modules that are one of ``names`` or inside one of them."""
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


def test_the_version_loads_nothing_of_the_run(tmp_path):
    loaded = _loaded(tmp_path, "--version")
    assert _below(loaded, NOT_FOR_A_YAML_CHECK + NOT_FOR_THE_VERSION) == []


@pytest.mark.parametrize("argv", [["check", "--help"], ["report", "--help"], ["analyze", "--help"], ["nosuch"]])
def test_parsing_any_command_loads_nothing_of_the_run(tmp_path, argv):
    """Help and usage errors are parsing too: report's and analyze's parsers are built without their parts."""
    loaded = _loaded(tmp_path, *argv)
    assert _below(loaded, NOT_FOR_A_YAML_CHECK + NOT_FOR_THE_VERSION) == []


def test_the_from_choices_are_the_readers_formats():
    from qlint.formats.base import ALIASES, FORMATS

    assert (FROM_FORMATS, FROM_ALIASES) == (tuple(FORMATS), tuple(ALIASES))
