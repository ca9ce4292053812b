"""What qlint's subcommands share: exit codes, the usage error, comma-separated lists, ``--config`` and ``--from``.

``qlint.cli.main`` builds the parser (with ``qlint.cli.parsers``) and runs the commands, some of which live in
``qlint.cli.report`` and ``qlint.cli.analyze``; all of them import what they share from here, so none of them
imports another's caller. Light on import: parsing a command line loads nothing of the run.
"""
from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from qlint.config import Override

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
# The bank formats ``--from`` takes, and their other names: those of the format table (``qlint.formats.table``),
# written out so that parsing imports nothing of the formats package; a test holds the two lists together.
FROM_FORMATS = ("yaml", "gift", "aiken", "moodle-xml", "qti")
FROM_ALIASES = ("moodle", "xml", "qti12", "qti21", "qti30")


class UsageError(Exception):
    """Bad arguments or configuration: exit code 2."""


def comma_list(value: str) -> list[str]:
    """An option's comma-separated value as a list, blanks left out."""
    return [v.strip() for v in value.split(",") if v.strip()]


def add_from_option(parser: argparse.ArgumentParser) -> None:
    """``--from FORMAT``: read files whose suffix does not settle their format (Aiken's ``.txt``) as FORMAT."""
    parser.add_argument("--from", dest="source_format", choices=[*FROM_FORMATS, *FROM_ALIASES], default=None,
                        help="read files whose suffix leaves their format open (.txt, .xml, none) as this bank "
                             "format: " + ", ".join(FROM_FORMATS))


def add_config_option(parser: argparse.ArgumentParser) -> None:
    """``--config``, as ruff has it: a config file to use instead of searching for one, or (repeatable) one setting
    over the config's, written as in a config file: ``--config 'fail-on = "warning"'``."""
    parser.add_argument("--config", action="append", metavar="FILE | KEY=VALUE",
                        help="a config file to use instead of searching for one, or a setting over the config's "
                             "(TOML, as in qlint.toml: 'fail-on = \"warning\"'; repeatable)")


def config_arguments(config: Sequence[str] | None, *, fail_on: str | None = None,
                     respect_gitignore: bool | None = None) -> tuple[str | None, list[Override]]:
    """The config file named by ``--config`` (at most one), and the settings given over it, in order: each
    ``--config KEY=VALUE``, then the flags that stand for a setting (``--fail-on``, ``--no-respect-gitignore``)."""
    from qlint.config import ConfigError, parse_override  # the settings' reader: by the commands that read a config

    given = list(config or ())
    files = [v for v in given if os.path.exists(v) or "=" not in v]
    if len(files) > 1:
        raise UsageError(f"--config names two config files ({files[0]}, {files[1]}); use one, and KEY=VALUE settings")
    try:
        overrides = [parse_override(v) for v in given if v not in files]
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    if fail_on:
        overrides.append(("--fail-on", {"fail-on": fail_on}))
    if respect_gitignore is not None:
        flag = "--respect-gitignore" if respect_gitignore else "--no-respect-gitignore"
        overrides.append((flag, {"respect-gitignore": respect_gitignore}))
    return (files[0] if files else None), overrides


def refuse_sources(targets: Sequence[str | None], sources: Sequence[tuple[str, object]]) -> None:
    """Refuse to write a report or a baseline over a file the run read: ``sources`` are (what it is, its path), a
    bank file, a config, a baseline or a response file; paths are compared after resolving symlinks. A report
    named like a question file (``-o bank/q.yaml``) would otherwise replace the questions it reports on."""
    targets = [t for t in targets if t and t != "-"]
    if not targets:
        return
    read = {}
    for what, path in sources:
        read.setdefault(os.path.realpath(os.fspath(path)), what)  # type: ignore[call-overload]
    for target in targets:
        what = read.get(os.path.realpath(target))
        if what is not None:
            raise UsageError(f"refusing to write to {target}: it is {what} this run reads; name another output file")


def read_by(files: Sequence[object], config_files: Sequence[object], baseline: str | None = None,
            responses: Sequence[str] = ()) -> list[tuple[str, object]]:
    """What a run read, as ``refuse_sources`` takes it: its bank files (standard input, "-", left out), its config
    files, its baseline and its response files."""
    return [*(("a bank file", f) for f in files if f != "-"), *(("a config file", c) for c in config_files),
            *((("the baseline", baseline),) if baseline else ()), *(("a response file", r) for r in responses)]
