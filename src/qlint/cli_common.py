"""What qlint's subcommands share: exit codes, the usage error, comma-separated lists and ``--from``.

``qlint.cli`` builds the parser from its own commands and those of ``qlint.report.cli`` and ``qlint.analysis.cli``;
all three import what they share from here, so none of them imports another's caller.
"""
from __future__ import annotations

import argparse

from qlint.formats import ALIASES, FORMATS

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """Bad arguments or configuration: exit code 2."""


def comma_list(value: str) -> list[str]:
    """An option's comma-separated value as a list, blanks left out."""
    return [v.strip() for v in value.split(",") if v.strip()]


def add_from_option(parser: argparse.ArgumentParser) -> None:
    """``--from FORMAT``: read files whose suffix does not settle their format (Aiken's ``.txt``) as FORMAT."""
    parser.add_argument("--from", dest="source_format", choices=[*FORMATS, *ALIASES], default=None,
                        help="read files whose suffix leaves their format open (.txt, .xml, none) as this bank "
                             "format: " + ", ".join(FORMATS))
