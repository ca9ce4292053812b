"""What a new user with ruff, yamllint and pre-commit habits meets first: messages that point at the right fix,
exit codes that hold in pipes, completion that works in every shell it is offered for."""
from __future__ import annotations

import importlib.util

import pytest


# --- an optional extra is installed by its libraries' names, never as qlint[...] from PyPI -------------------------


@pytest.mark.parametrize(("command", "module", "wanted"), [
    (("server",), "pygls", "pip install 'pygls<3,>=2.0' 'lsprotocol>=2025.0.0'"),
    (("stats", "bank/"), "rich", "pip install 'matplotlib>=3.7' 'rich>=13'"),
])
def test_a_missing_extra_names_its_libraries_not_the_other_qlint_on_pypi(run_cli, monkeypatch, command, module,
                                                                          wanted):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == module else real(name, *a))
    code, _, err = run_cli(*command)
    assert code == 2 and "qlint[" not in err, err
    names = wanted.split("'")[1::2]
    assert all(name.split(">")[0].split("<")[0] in err for name in names), err


def test_the_install_hint_reads_the_extra_from_the_metadata_and_falls_back_when_there_is_none(monkeypatch):
    import importlib.metadata

    from qlint import install_hint

    assert install_hint("irt").startswith("pip install 'duckdb>=1.1' 'mirt>=1.2'")

    def missing(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "requires", missing)
    assert install_hint("report").startswith("pip install 'matplotlib>=3.7' 'rich>=13'")
