"""The parsers of the subcommands whose code lives in their own parts: ``report`` and ``stats`` (``qlint.cli.report``)
and ``analyze`` (``qlint.cli.analyze``).

They are built here, beside the command line, so that parsing any command loads nothing of those parts: the report
and its summary, the analysis and its response rules are imported only when their command runs.
"""
from __future__ import annotations

import argparse

from qlint.cli.common import add_from_option, comma_list


def _report_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", help="files or folders (default: the config's paths, else .)")
    parser.add_argument("--config", help="use this config file instead of searching for one")
    parser.add_argument("--select", type=comma_list, help="rules to run (names, codes, prefixes), replacing the config's")
    parser.add_argument("--extend-select", type=comma_list, default=[], help="rules to run in addition")
    parser.add_argument("--ignore", type=comma_list, default=[], help="rules not to run")
    parser.add_argument("--title", help="the bank's name in the header (default: the folder checked)")
    parser.add_argument("--responses", action="append", metavar="FILE",
                        help="response data: adds the item-analysis table (repeatable)")
    parser.add_argument("--irt", action="store_true", help="with --responses: add a 2PL fit (needs the irt extra)")
    add_from_option(parser)


def add_report_parsers(subparsers) -> None:
    """Add ``report`` and ``stats`` to qlint's subcommands."""
    report = subparsers.add_parser("report", help="write a self-contained HTML health report of the bank")
    _report_common(report)
    report.add_argument("--output", "-o", default="report.html", help="HTML file to write (default: report.html)")

    stats = subparsers.add_parser("stats", help="print the bank health summary as tables")
    _report_common(stats)
    stats.add_argument("--format", choices=("text", "json"), default="text",
                       help="text tables (default) or the summary as JSON")
    stats.add_argument("--width", type=_width, help="table width in columns, 20 to 1000 (default: the terminal's)")


def _width(text: str) -> int:
    """A table width that can hold a table: a narrower one prints a letter a line, a negative one nothing."""
    try:
        width = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 20 <= width <= 1000:
        raise argparse.ArgumentTypeError(f"{width} is not between 20 and 1000 columns")
    return width


def add_analyze_parser(subparsers) -> None:
    """Add ``analyze`` to qlint's subcommands."""
    analyze = subparsers.add_parser("analyze", help="find mis-keyed and broken questions from response data")
    analyze.add_argument("paths", nargs="+", metavar="PATH",
                         help="response files (CSV, TSV, Parquet; long, wide, Moodle or Canvas layout) and bank "
                              "files or folders, in any order (YAML, GIFT, Aiken, Moodle XML, QTI; default: the config's paths, else .)")
    analyze.add_argument("--format", default=None, help="text (default), json, json-lines, sarif, github, gitlab, junit")
    analyze.add_argument("--output-file", "-o", help="write the report here instead of stdout")
    analyze.add_argument("--config", help="use this config file instead of searching for one")
    analyze.add_argument("--select", type=comma_list, help="response rules to run (default: all of them)")
    analyze.add_argument("--ignore", type=comma_list, default=[], help="response rules not to run")
    analyze.add_argument("--fail-on", choices=("error", "warning", "info"), help="lowest severity that fails the run")
    analyze.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    analyze.add_argument("--statistics", action="store_true", help="count findings per rule")
    analyze.add_argument("-q", "--quiet", action="store_true", help="print findings only, no summary")
    analyze.add_argument("--no-show-source", action="store_true", help="never print source snippets")
    analyze.add_argument("--baseline", help="report only findings that this baseline file does not record")
    analyze.add_argument("--write-baseline", metavar="FILE", help="record today's findings in FILE and exit 0")
