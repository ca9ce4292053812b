"""``qlint report`` and ``qlint stats``: parsers and commands, wired into ``qlint.cli``.

Kept light on import (``qlint.cli`` imports it on every run): the page and table renderers, and with them
matplotlib and rich, load only when ``report`` draws or ``stats`` prints tables.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import warnings
from pathlib import Path

from qlint import install_hint
from qlint.analysis.cli import add_responses
from qlint.cli_common import EXIT_OK, UsageError, add_from_option, comma_list
from qlint.output.base import JsonSafeStream, escape_undecodable
from qlint.report.summary import summarize
from qlint.run.pipeline import SetupError, run_check
from qlint.wording import plural


def _common(parser: argparse.ArgumentParser) -> None:
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


def add_parsers(subparsers) -> None:
    """Add ``report`` and ``stats`` to qlint's subcommands."""
    report = subparsers.add_parser("report", help="write a self-contained HTML health report of the bank")
    _common(report)
    report.add_argument("--output", "-o", default="report.html", help="HTML file to write (default: report.html)")

    stats = subparsers.add_parser("stats", help="print the bank health summary as tables")
    _common(stats)
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


def _summary(args: argparse.Namespace):
    """The run, its summary, and with ``--responses`` the item analysis, whose findings the summary counts as
    ``check --responses`` with the same arguments does."""
    if args.paths == ["-"]:
        raise UsageError("report and stats read a bank from files and folders, not from stdin")
    try:
        run = run_check(args.paths, config_path=args.config, select=args.select,
                        extend_select=args.extend_select, ignore=args.ignore, keep_questions=True,
                        source_format=args.source_format)
    except SetupError as exc:
        raise UsageError(str(exc)) from None
    analysis = None
    if args.responses:
        analysis = add_responses(run, args.responses, select=args.select, extend_select=args.extend_select,
                                 ignore=args.ignore, irt=args.irt)
    return run, summarize(run, args.paths, name=args.title), analysis


def require_extra(command: str, modules: tuple[str, ...]) -> None:
    """Stop with a usage error naming the install command when an optional dependency is missing."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise UsageError(f"qlint {command} needs {' and '.join(missing)}, which the checking install leaves out: "
                         f"{install_hint('report')}")


def cmd_report(args: argparse.Namespace, out) -> int:
    require_extra("report", ("matplotlib",))
    from qlint.report import consistency  # the page and its sections: loaded only when a report is drawn
    from qlint.report.html import pyplot, render

    run, summary, analysis = _summary(args)
    target = Path(args.output)
    with warnings.catch_warnings():
        # a character the chart font lacks is drawn as a box; that is no news for the person running the report
        warnings.filterwarnings("ignore", message="Glyph .* missing from", category=UserWarning)
        extra = consistency.html_sections(pyplot(), consistency.published(run))
        if analysis is not None:
            from qlint.report.items import html_section  # item analysis: loaded only with --responses

            extra += (("items", "Item analysis", html_section(pyplot(), analysis)),)
        page = render(summary, base=target.resolve().parent, findings=[f.to_dict() for f in run.findings],
                      sections=extra)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        # a file name's bytes that are not UTF-8 are shown escaped (\xff), as every other output shows them
        target.write_text(escape_undecodable(page), encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {args.output}: {exc.strerror}") from None
    t = summary.totals
    clusters = plural(len(summary.near_duplicates.clusters), "near-duplicate cluster")
    out.write(f"Wrote {target}: {plural(t['questions'], 'question')} in {plural(t['files'], 'file')}, "
              f"{plural(t['findings'], 'finding')}, {clusters}.\n")
    return EXIT_OK


def cmd_stats(args: argparse.Namespace, out) -> int:
    if args.format == "text":
        require_extra("stats", ("rich",))
    from qlint.report import consistency  # the bank-consistency sections: loaded only by stats and report

    run, summary, analysis = _summary(args)
    sections = consistency.published(run)
    if args.format == "json":
        data = summary.to_dict() | sections
        if analysis is not None:
            from qlint.report.items import item_rows  # item analysis: loaded only with --responses

            data["item_analysis"] = item_rows(analysis)
        # a file name's bytes that are not UTF-8 become JSON escapes (\udcff), as in check's JSON
        json.dump(data, JsonSafeStream(out), indent=2, ensure_ascii=False)
        out.write("\n")
        return EXIT_OK
    from qlint.report.terminal import render  # rich (the report extra), checked for above

    colour = None if out is sys.stdout else False
    render(summary, out, colour=colour, width=args.width)
    consistency.render_text(sections, out, colour=colour, width=args.width)
    if analysis is not None:
        from qlint.report.items import render_text  # item analysis: loaded only with --responses

        render_text(analysis, out, colour=colour, width=args.width)
    return EXIT_OK
