"""Command line: thin argument parsing around a run (config -> registry -> readers -> engine), a reporter and an exit code."""
from __future__ import annotations

import argparse
import dataclasses
import difflib
import gc
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from qlint import __version__, baseline, problems
from qlint.analysis.cli import add_parser as add_analyze_parser
from qlint.analysis.cli import as_check, response_findings
from qlint.bank_schema import bank_schema
from qlint.cache import Cache
from qlint.cli_common import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, UsageError, add_from_option, comma_list
from qlint.docs import card, card_dict
from qlint.engine import exit_code
from qlint.finding import Finding, Severity
from qlint.fix_run import fix_run
from qlint.formats import is_yaml, with_source_format
from qlint.pipeline import SetupError, run_check, setup
from qlint.report import cli as report_cli
from qlint.reporters import Report, renderers
from qlint.reporters.text import use_colour
from qlint.sources import source_lines
from qlint.wording import plural


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="qlint", description="Lint banks of multiple-choice exam questions.")
    parser.add_argument("--version", action="version", version=f"qlint {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_check_parser(sub)
    _add_other_parsers(sub)
    report_cli.add_parsers(sub)  # report, stats
    add_analyze_parser(sub)  # analyze
    return parser


def _add_check_parser(sub) -> None:
    check = sub.add_parser("check", help="check bank files and folders")
    check.add_argument("paths", nargs="*", help="files or folders (default: the config's paths, else .); - reads stdin")
    check.add_argument("--format", "--output-format", dest="format", choices=None, default=None,
                       help="text (default), json, json-lines, sarif, github, gitlab, junit")
    check.add_argument("--output-file", "-o", help="write the report here instead of stdout")
    check.add_argument("--config", help="use this config file instead of searching for one")
    check.add_argument("--select", type=comma_list, help="rules to run (names, codes, prefixes), replacing the config's")
    check.add_argument("--extend-select", type=comma_list, default=[], help="rules to run in addition")
    check.add_argument("--ignore", type=comma_list, default=[], help="rules not to run")
    check.add_argument("--fail-on", choices=("error", "warning", "info"), help="lowest severity that fails the run")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    check.add_argument("--statistics", action="store_true", help="count findings per rule")
    check.add_argument("-q", "--quiet", action="store_true", help="print findings only, no summary")
    check.add_argument("--stdin-filename", help="the path to report for text read from stdin")
    check.add_argument("--no-show-source", action="store_true", help="never print source snippets")
    check.add_argument("--baseline", help="report only findings that this baseline file does not record")
    check.add_argument("--write-baseline", metavar="FILE", help="record today's findings in FILE and exit 0")
    check.add_argument("-j", "--jobs", type=int, default=None, help="worker processes (default: one per core)")
    check.add_argument("--no-cache", action="store_true", help="neither read nor write .qlint_cache/")
    check.add_argument("--fix", action="store_true", help="apply safe fixes in place, then report what is left")
    check.add_argument("--diff", action="store_true", help="show the safe fixes as a diff; write nothing")
    check.add_argument("--force-exclude", action="store_true",
                       help="apply exclude and the configured paths to files named too (for pre-commit)")
    check.add_argument("--allow-empty", action="store_true",
                       help="exit 0 when the paths hold no bank files (default: a usage error, exit 2)")
    check.add_argument("--responses", action="append", metavar="FILE",
                       help="response data to analyse against the bank (repeatable); turns on the response rules")
    check.add_argument("--form", action="append", metavar="FORM",
                       help="an exam form drawn from the bank (a YAML list of question ids, or a folder) to check "
                            "against the blueprint and for pairs on it (repeatable); turns on the form rules")
    add_from_option(check)


def _add_other_parsers(sub) -> None:
    """rules, rule, server, schema, clean, convert."""
    rules = sub.add_parser("rules", help="list every rule")
    rules.add_argument("--format", choices=("text", "json"), default="text")
    rules.add_argument("--config", help="config file (for its rule packs)")

    rule = sub.add_parser("rule", help="print a rule's card")
    rule.add_argument("name", help="rule name or code")
    rule.add_argument("--format", choices=("text", "json"), default="text")
    rule.add_argument("--config", help="config file (for its rule packs)")

    sub.add_parser("server", help="run the language server (LSP) over stdio, for editors")

    schema = sub.add_parser("schema", help="print a JSON Schema (draft-07) of the bank format, for YAML editors")
    schema.add_argument("--output", "-o", help="write it here instead of stdout")

    clean = sub.add_parser("clean", help="delete the cache folder (.qlint_cache/)")
    clean.add_argument("--config", help="config file (the cache lives beside it)")

    convert = sub.add_parser("convert", help="write a bank in another format (yaml, gift, aiken, moodle-xml, qti12, qti21)")
    convert.add_argument("paths", nargs="+", help="bank files and folders to read, in any format qlint reads")
    convert.add_argument("--to", required=True, choices=("yaml", "gift", "aiken", "moodle-xml", "qti12", "qti21"),
                         help="the format to write")
    convert.add_argument("--output", "-o", required=True, help="folder to write into (a path ending in .zip: one package)")
    convert.add_argument("--config", help="use this config file instead of searching for one")
    add_from_option(convert)


def _setup(args: argparse.Namespace, start: Path):
    try:
        return setup(getattr(args, "config", None), start)
    except SetupError as exc:
        raise UsageError(str(exc)) from None


def cmd_check(args: argparse.Namespace, out) -> int:
    fmt = args.format or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    available = renderers()
    if fmt not in available:
        raise UsageError(f"unknown format {fmt!r}; choose from {', '.join(available)}")
    run = _check_run(args, progress=fmt == "text")
    if run.excluded and not run.results:
        return EXIT_OK   # --force-exclude left nothing named (pre-commit passed no bank file): nothing to say
    if not run.results and args.paths != ["-"] and not getattr(args, "allow_empty", False):
        where = ", ".join(args.paths) or "the configured paths"
        raise UsageError(f"no bank files found in {where} (YAML, GIFT, Aiken, Moodle XML or QTI files); "
                         "pass --allow-empty to accept that")
    if args.fix or args.diff:
        changed, run = _fix_and_recheck(args, run, out)
        if args.diff:
            return EXIT_FINDINGS if changed else EXIT_OK
    if getattr(args, "responses", None):
        run.findings = response_findings(args, run, run.findings)
    if getattr(args, "form", None):
        run.findings = _with_forms(args, run)
    if args.write_baseline:
        return _write_baseline(args, run.findings)
    findings = _new_findings(args, run.findings)
    fail_on = Severity.parse(args.fail_on) if args.fail_on else run.config.settings.fail_on
    _render(args, fmt, run, findings, fail_on, out)
    return EXIT_OK if args.exit_zero else exit_code(findings, fail_on)


def _check_run(args: argparse.Namespace, *, progress: bool = False, after_fix: bool = False):
    """The check run the arguments ask for; ``after_fix``: the run again over the fixed files, with the cache
    (a fix run skips it: its findings must carry their fixes) and without stdin (--fix refuses it)."""
    # read by the run, never past max-file-size (no stdin at all, when it was closed, reads as empty)
    stdin = getattr(sys.stdin, "buffer", None) if args.paths == ["-"] and not after_fix else None
    fixing = (args.fix or args.diff) and not after_fix
    # a form is checked against every question of the bank: a warm run from the cache would not read them
    forms = bool(getattr(args, "form", None))
    try:
        return run_check(args.paths, config_path=args.config, select=args.select,
                         extend_select=args.extend_select, ignore=args.ignore, stdin=stdin,
                         stdin_filename=args.stdin_filename, jobs=args.jobs,
                         use_cache=not (args.no_cache or fixing or forms), progress=progress,
                         source_format=getattr(args, "source_format", None),
                         force_exclude=getattr(args, "force_exclude", False))
    except SetupError as exc:
        raise UsageError(str(exc)) from None


def _fix_and_recheck(args: argparse.Namespace, run, out):
    """Apply or show the fixes; after --fix, the run again over the changed files, with the skips reported."""
    changed, skips = _fix(args, run, out)
    if args.fix and changed:
        run = _check_run(args, after_fix=True)
    if skips:
        run.findings = sorted(run.findings + skips, key=Finding.sort_key)
    return changed, run


def _with_forms(args: argparse.Namespace, run) -> list:
    """The run's findings and the form rules' on every ``--form``."""
    from qlint.forms import FormError, form_findings  # the form's reader and rules' runner: loaded only with --form

    if args.paths == ["-"]:
        raise UsageError("--form needs the bank as files or folders, not stdin")
    try:
        found, warnings = form_findings(run, args.form, select=args.select, extend_select=args.extend_select,
                                        ignore=args.ignore)
    except FormError as exc:
        raise UsageError(str(exc)) from None
    for warning in warnings:
        print(f"qlint: warning: {warning}", file=sys.stderr)
    return sorted(run.findings + found, key=Finding.sort_key)


def _write_baseline(args: argparse.Namespace, findings) -> int:
    try:
        count = baseline.write(Path(args.write_baseline), findings)
    except OSError as exc:
        raise UsageError(f"cannot write {args.write_baseline}: {exc.strerror}") from None
    print(f"qlint: wrote {plural(count, 'finding')} to {args.write_baseline}", file=sys.stderr)
    return EXIT_OK


def _new_findings(args: argparse.Namespace, findings):
    """The findings to report: with --baseline, those it does not record."""
    if not args.baseline:
        return findings
    try:
        return baseline.new_findings(findings, baseline.read(Path(args.baseline)))
    except baseline.BaselineError as exc:
        raise UsageError(str(exc)) from None


def _render(args: argparse.Namespace, fmt: str, run, findings, fail_on, out) -> None:
    render = renderers()[fmt]
    # fix_hint: after --fix, what is still fixable was refused, and the summary must not offer --fix again
    options = {"quiet": args.quiet, "statistics": args.statistics, "fix_hint": not args.fix,
               "fail_on": None if args.exit_zero else fail_on}   # what fails the run: nothing with --exit-zero
    if args.no_show_source:
        options["show_source"] = False
    report = Report(findings, files=len(run.shown), questions=sum(r.question_count for r in run.shown),
                    rules=[a.rule for a in run.active], sources=_sources(args, fmt, run, findings, out))
    if not args.output_file:
        render(report, out, options)
        return
    try:  # streamed: a million findings need not sit in memory twice
        with open(args.output_file, "w", encoding="utf-8") as handle:
            render(report, handle, {**options, "colour": False, "show_source": False})
    except OSError as exc:
        raise UsageError(f"cannot write {args.output_file}: {exc.strerror}") from None


def _sources(args: argparse.Namespace, fmt: str, run, findings, out) -> dict:
    """The source lines for snippets, read only when the text format will show them (on a terminal)."""
    if fmt != "text" or args.output_file or args.no_show_source or not use_colour(out):
        return {}
    return source_lines(findings, run.config.settings.limits, run.stdin)


FIX_SKIPPED = problems.FIX_SKIPPED


def _fix(args: argparse.Namespace, run, out) -> tuple[bool, list]:
    """Apply (--fix) or show (--diff) the safe fixes. Returns whether any file changed, and a warning finding for
    every file or fix left alone, so that the report (and with it the exit code) says so, not only stderr."""
    if args.paths == ["-"]:
        raise UsageError("--fix and --diff need files, not stdin")
    run = _yaml_only(run)
    outcome = fix_run(run, write=args.fix)
    for path, reason in outcome.skipped:
        print(f"qlint: warning: {path}: not fixed: {reason}", file=sys.stderr)
    if args.diff:
        for path, (old, new) in sorted(outcome.changed.items()):
            out.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                                f"a/{path}", f"b/{path}"))
    elif outcome.changed and not args.quiet:
        print(f"qlint: fixed {plural(len(outcome.changed), 'file')}", file=sys.stderr)
    skips = [Finding(path, 1, 1, FIX_SKIPPED[0], FIX_SKIPPED[1], Severity.WARNING, f"not fixed: {reason}")
             for path, reason in outcome.skipped]
    return bool(outcome.changed), skips


def _yaml_only(run):
    """The run with only YAML files' findings: fixes rewrite qlint's own format, never GIFT, Aiken, XML or QTI."""
    limits = run.config.settings.limits
    others = sorted({o.path for o in run.results if not is_yaml(o.path, limits)})
    if not others:
        return run
    shown = ", ".join(others[:3]) + (f" and {len(others) - 3} more" if len(others) > 3 else "")
    print(f"qlint: warning: --fix and --diff rewrite YAML banks only; {shown} "
          f"{'is' if len(others) == 1 else 'are'} in another format and left unchanged", file=sys.stderr)
    skipped = set(others)
    return dataclasses.replace(run, findings=[f for f in run.findings if f.path.split("!")[0] not in skipped])


def cmd_convert(args: argparse.Namespace, out) -> int:
    # the writers of every format: loaded by convert alone, so that check starts without them
    from qlint.formats.convert import convert
    from qlint.formats.write import UnsafePath

    config, _ = _setup(args, Path(args.paths[0]))
    if args.source_format:
        config = with_source_format(config, args.source_format)
    missing = [p for p in args.paths if not Path(p).exists()]
    if missing:
        raise UsageError(f"no such file or folder: {missing[0]}")
    try:
        done = convert([Path(p) for p in args.paths], args.to, Path(args.output), config.settings.limits,
                       tuple(config.settings.exclude))
    except UnsafePath as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    for problem in done.problems:
        print(f"qlint: {problem.path}:{problem.line}:{problem.column}: {problem.code} {problem.rule}: "
              f"{problem.message}", file=sys.stderr)
    for warning in done.warnings:
        print(f"qlint: warning: {warning}", file=sys.stderr)
    out.write(f"Wrote {done.questions} question{'s' if done.questions != 1 else ''} as {args.to} "
              f"to {len(done.written)} file{'s' if len(done.written) != 1 else ''} in {args.output}\n")
    return EXIT_FINDINGS if any(p.severity >= 3 for p in done.problems) else EXIT_OK


def cmd_rules(args: argparse.Namespace, out) -> int:
    config, registry = _setup(args, Path.cwd())
    rules = list(registry)
    if args.format == "json":
        json.dump([{"code": r.code, "name": r.name, "severity": str(r.severity), "enabled": r.enabled,
                    "kind": r.kind, "summary": r.summary} for r in rules], out, indent=2)
        out.write("\n")
        return EXIT_OK
    width = max(len(r.name) for r in rules)
    for r in rules:
        state = "on " if r.enabled else "off"
        out.write(f"{r.code}  {r.name:<{width}}  {str(r.severity):<7}  {state}  {r.summary}\n")
    return EXIT_OK


def cmd_clean(args: argparse.Namespace, out) -> int:
    config, _ = _setup(args, Path.cwd())
    base = Cache.location(config)
    removed = Cache.clean(base)
    out.write(f"removed {plural(removed, 'cache folder')} from {base}\n")
    return EXIT_OK


def cmd_server(args: argparse.Namespace, out) -> int:
    if importlib.util.find_spec("pygls") is None or importlib.util.find_spec("lsprotocol") is None:
        raise UsageError("qlint server needs pygls and lsprotocol: pip install 'qlint[server]'")
    from qlint.server import serve  # pygls is an optional dependency: imported only when the server runs

    serve()
    return EXIT_OK


def cmd_schema(args: argparse.Namespace, out) -> int:
    text = json.dumps(bank_schema(), indent=2, ensure_ascii=False) + "\n"
    if not args.output:
        out.write(text)
        return EXIT_OK
    try:
        Path(args.output).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {args.output}: {exc.strerror}") from None
    return EXIT_OK


def cmd_rule(args: argparse.Namespace, out) -> int:
    config, registry = _setup(args, Path.cwd())
    rule = registry.get(args.name)
    if rule is None:
        close = difflib.get_close_matches(args.name, [r.name for r in registry], n=1)
        hint = f"; did you mean {close[0]!r}?" if close else "; `qlint rules` lists them"
        raise UsageError(f"unknown rule {args.name!r}{hint}")
    if args.format == "json":
        json.dump(card_dict(rule), out, indent=2)
        out.write("\n")
    else:
        out.write(card(rule))
    return EXIT_OK


def run() -> None:
    """The ``qlint`` command: ``main``, then exit without tearing down the interpreter. A big bank leaves hundreds
    of thousands of objects that the exit would free one by one (a tenth of a second) for nothing; everything
    the run writes is closed or flushed by then."""
    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):   # a closed pipe: the exit code still stands
        pass
    os._exit(code)


def main(argv: Sequence[str] | None = None) -> int:
    gc_was_enabled = gc.isenabled()
    # A run builds millions of small, acyclic objects that live to the end: the cycle collector's repeated passes
    # over them cost seconds on a large bank and would free nothing. Switched off for the run, back on after.
    gc.disable()
    try:
        return _main(argv)
    finally:
        if gc_was_enabled:
            gc.enable()


def _main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    out = sys.stdout
    try:
        if args.command == "check":
            return cmd_check(args, out)
        if args.command == "rules":
            return cmd_rules(args, out)
        if args.command == "rule":
            return cmd_rule(args, out)
        if args.command == "clean":
            return cmd_clean(args, out)
        if args.command == "schema":
            return cmd_schema(args, out)
        if args.command == "server":
            return cmd_server(args, out)
        if args.command == "analyze":
            return cmd_check(as_check(args), out)
        if args.command == "convert":
            return cmd_convert(args, out)
        if args.command in ("report", "stats"):
            return (report_cli.cmd_report if args.command == "report" else report_cli.cmd_stats)(args, out)
        parser.print_help()
        return EXIT_USAGE
    except UsageError as exc:
        print(f"qlint: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("qlint: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # the last line of defence: never a traceback
        print(f"qlint: internal error: {type(exc).__name__}: {exc}\n"
              "Please report this with the command you ran.", file=sys.stderr)
        if os.environ.get("QLINT_DEBUG"):
            raise
        return EXIT_USAGE
