"""``qlint analyze`` and ``qlint check --responses``: item analysis findings through the usual reporters.

``analyze`` is ``check`` restricted to the response rules: same formats, baseline, suppressions and exit codes.
``qlint.cli.main`` imports this module only to run one of them (the parser of ``analyze`` is built beside the command
line, in ``qlint.cli.parsers``).
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from qlint.analysis import AnalysisError
from qlint.cli.common import UsageError
from qlint.cli.options import CheckOptions
from qlint.config import ConfigError, resolve_rules
from qlint.finding import Finding
from qlint.formats.table import is_bank_name
from qlint.registry import load_registry
from qlint.responserule import ResponseRule
from qlint.run.suppress import finish


def analyze_options(args: argparse.Namespace) -> CheckOptions:
    """The check that ``analyze`` stands for: the bank paths, the responses, the response rules only. Which
    argument is the bank is the format table's say: a folder, or a file whose name settles a bank format (YAML,
    GIFT, Aiken, Moodle XML, QTI); every other file holds responses, whatever order they come in."""
    responses = [p for p in args.paths if not (is_bank_name(p) or os.path.isdir(p))]
    if not responses:   # nothing to analyse is not "All clear"
        raise UsageError(f"analyze needs response files (CSV, TSV or Parquet) beside the bank; "
                         f"{_listed(args.paths)} {'is a bank' if len(args.paths) == 1 else 'are all banks'}")
    bank = [p for p in args.paths if p not in responses]
    names = [r.name for r in load_registry() if r.kind == "response"]
    return CheckOptions(
        paths=bank, responses=responses, select=args.select or names, ignore=args.ignore, format=args.format,
        output_file=args.output_file, config=[args.config] if args.config else [], fail_on=args.fail_on,
        exit_zero=args.exit_zero, statistics=args.statistics, quiet=args.quiet,
        show_source=False if args.no_show_source else None, baseline=args.baseline,
        write_baseline=args.write_baseline)


def _listed(paths: list[str]) -> str:
    """Paths as a short list in a message."""
    return ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")


def run_analysis(run, responses: list[str], *, select=None, extend_select=(), ignore=(), irt: bool = False):
    """The item analysis of a check run's bank: (Analysis, the response rules that ran). Bad data: UsageError."""
    # the response readers and statistics (numpy, DuckDB): loaded only when responses are analysed, so that
    # check starts without them
    from qlint.analysis.run import DATA_RULE, analyze, kept_questions

    registry = run.registry
    names = [r.name for r in registry if isinstance(r, ResponseRule)]
    try:
        wanted = [a for a in resolve_rules(run.config, registry, select=select, extend_select=extend_select,
                                           ignore=ignore) if isinstance(a.rule, ResponseRule)]
        if not wanted:   # check --responses without naming any: all of them, less those ignored
            wanted = [a for a in resolve_rules(run.config, registry, select=select,
                                               extend_select=[*extend_select, *names], ignore=ignore)
                      if isinstance(a.rule, ResponseRule)]
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    data = next((a.severity for a in wanted if a.rule.name == DATA_RULE[1]), None)
    try:
        analysis = analyze(kept_questions(run.results), [Path(p) for p in responses],
                           wanted, data, irt=irt)
    except AnalysisError as exc:
        raise UsageError(str(exc)) from None
    return analysis, wanted


def reported_analysis(run, responses: list[str], *, select=None, extend_select=(), ignore=(), irt: bool = False):
    """The item analysis of a check run's bank, its findings as check reports them (suppressions applied; only on
    the files the run reports on), and the response rules that ran. Bad data: UsageError."""
    analysis, wanted = run_analysis(run, responses, select=select, extend_select=extend_select, ignore=ignore, irt=irt)
    found = finish(run.results, analysis.findings, wanted, all_rules=[r.name for r in run.registry])
    if run.report_only is not None:
        banks = {o.path for o in run.results}
        found = [f for f in found if f.path in run.report_only or f.path not in banks]
    analysis.findings = found
    return analysis, wanted


def add_responses(run, responses: list[str], *, select=None, extend_select=(), ignore=(), irt: bool = False):
    """Add what the responses show to the run, as ``check --responses`` reports it: their findings join the run's
    and the response rules join the rules that ran, so the report and ``stats`` count what check counts. Returns
    the Analysis."""
    analysis, wanted = reported_analysis(run, responses, select=select, extend_select=extend_select, ignore=ignore,
                                         irt=irt)
    run.findings = sorted([*run.findings, *analysis.findings], key=Finding.sort_key)
    run.active = [*run.active, *(a for a in wanted if a not in run.active)]
    return analysis


def response_findings(options: CheckOptions, run, findings: list) -> list:
    """``findings`` plus what the response data shows, suppressions applied; the summary goes to stderr."""
    if options.paths == ["-"]:
        raise UsageError("--responses needs the bank as files or folders, not stdin")
    analysis, _ = reported_analysis(run, options.responses, select=options.select,
                                    extend_select=options.extend_select, ignore=options.ignore)
    if not options.quiet:
        for line in analysis.summary():
            print(f"qlint: {line}", file=sys.stderr)
    return sorted([*findings, *analysis.findings], key=Finding.sort_key)
