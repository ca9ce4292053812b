"""``qlint report`` and ``qlint stats``: the commands, which ``qlint.cli.main`` imports only to run one of them (their
parsers are built beside the command line, in ``qlint.cli.parsers``).

The page and table renderers, and with them matplotlib and rich, load only when ``report`` draws or ``stats``
prints tables.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import warnings
from pathlib import Path

from qlint import install_hint
from qlint.cli.analyze import add_responses
from qlint.cli.common import EXIT_OK, UsageError, read_by, refuse_sources
from qlint.output.base import JsonSafeStream, escape_undecodable
from qlint.report.summary import summarize
from qlint.run.pipeline import SetupError, run_check
from qlint.wording import plural


def _summary(args: argparse.Namespace):
    """The run, its summary, and with ``--responses`` the item analysis, whose findings the summary counts as
    ``check --responses`` with the same arguments does."""
    if args.paths == ["-"]:
        raise UsageError("report and stats read a bank from files and folders, not from stdin")
    try:
        run = run_check(args.paths, config_path=args.config, select=args.select,
                        extend_select=args.extend_select, ignore=args.ignore, keep_questions=True,
                        source_format=args.source_format, publish=True)
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
    require_extra("report", ("matplotlib", "jinja2"))
    from qlint.report import consistency  # the page and its sections: loaded only when a report is drawn
    from qlint.report.html import pyplot, render

    run, summary, analysis = _summary(args)
    target = Path(args.output)
    refuse_sources([args.output], read_by([r.path for r in run.results], run.config.chain,
                                          responses=args.responses or ()))
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
