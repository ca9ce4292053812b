"""Command line: thin argument parsing around a run (config -> registry -> readers -> engine), a reporter and an exit code."""
from __future__ import annotations

import argparse
import gc
import os
import re
import sys
from collections.abc import Sequence
from contextlib import contextmanager
from pathlib import Path

from qlint import __version__
from qlint.cli.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_USAGE,
    UsageError,
    add_config_option,
    add_from_option,
    comma_list,
    config_arguments,
    read_by,
    refuse_sources,
)
from qlint.cli.completion import SHELLS
from qlint.cli.options import CheckOptions
from qlint.cli.parsers import add_analyze_parser, add_report_parsers

# Everything else is imported by the command that needs it: `qlint --version`, a usage error and the parsing of
# every command load nothing but argparse, and a check loads neither the analysis, the report, the server, the
# writers nor the rules its cached outcomes need not run.


class ArgumentsError(Exception):
    """What argparse found wrong with the command line, and the (sub)command it was parsing."""

    def __init__(self, prog: str, message: str) -> None:
        super().__init__(message)
        self.prog = prog


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors raised to ``main`` (which adds a did-you-mean and returns 2) instead of printing
    the top-level usage and exiting from inside the parse."""

    def error(self, message: str):  # type: ignore[override]
        raise ArgumentsError(self.prog, _with_suggestion(message))


_INVALID_CHOICE = re.compile(r"invalid choice: '(.*)' \(choose from (.*)\)$")


def _with_suggestion(message: str) -> str:
    """argparse's message with the closest valid choice named, when the error is a misspelt choice."""
    found = _INVALID_CHOICE.search(message)
    if found is None:
        return message
    from qlint.wording import closest  # for a misspelt command line only

    close = closest(found[1], re.findall(r"'([^']*)'", found[2]))
    return f"{message}; did you mean {close!r}?" if close else message


def _unknown_arguments(parser: argparse.ArgumentParser, command: str | None, extras: list[str]) -> ArgumentsError:
    """The error for arguments no option of the command takes, naming the closest option (ruff's tip)."""
    sub = _subparsers(parser).get(command) if command else None
    owner = sub or parser
    first = extras[0]
    if not first.startswith("-") or first == "-":
        return ArgumentsError(owner.prog, f"unexpected argument {first!r}")
    from qlint.wording import closest  # for a misspelt command line only

    options = [o for action in owner._actions for o in action.option_strings]
    if sub is not None and first.split("=", 1)[0] in options:   # `qlint --no-cache check`: known, but too early
        return ArgumentsError(parser.prog, f"{first.split('=', 1)[0]!r} is an option of `{owner.prog}`: write it "
                                           f"after the command ({owner.prog} {first} ...)")
    close = closest(first.split("=", 1)[0], options)
    hint = f"; did you mean {close!r}?" if close else ""
    return ArgumentsError(owner.prog, f"unknown option {first!r}{hint}")


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Each subcommand's parser, by name."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _jobs(value: str) -> int:
    """``-j``: a number of worker processes, at least one."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"{number} workers: give at least 1 (leave -j out for one per core)")
    return number


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="qlint", description="Lint banks of multiple-choice exam questions.")
    parser.add_argument("--version", action="version", version=f"qlint {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_check_parser(sub)
    _add_other_parsers(sub)
    add_report_parsers(sub)  # report, stats
    add_analyze_parser(sub)  # analyze
    return parser


def _add_check_parser(sub) -> None:
    check = sub.add_parser("check", help="check bank files and folders")
    check.add_argument("paths", nargs="*", help="files or folders (default: the config's paths, else .); - reads stdin")
    check.add_argument("--format", "--output-format", dest="format", choices=None, default=None,
                       help="text (default; snippets on a terminal), concise, full, grouped, json, json-lines, sarif, "
                            "github, gitlab, junit, pylint, azure, rdjson (ruff's names), parsable, standard, colored, "
                            "auto (yamllint's)")
    check.add_argument("--output-file", "-o", help="write the report here instead of stdout")
    add_config_option(check)
    check.add_argument("--no-respect-gitignore", dest="respect_gitignore", action="store_false", default=None,
                       help="check files that .gitignore leaves out too (the respect-gitignore setting)")
    check.add_argument("--respect-gitignore", dest="respect_gitignore", action="store_true",
                       help="leave out what .gitignore leaves out (the default)")
    # repeated, they add up (as ruff's do): --select a --select b runs both
    check.add_argument("--select", type=comma_list, action="extend",
                       help="rules to run (names, codes, prefixes), replacing the config's")
    check.add_argument("--extend-select", type=comma_list, action="extend", default=[], help="rules to run in addition")
    check.add_argument("--ignore", type=comma_list, action="extend", default=[], help="rules not to run")
    check.add_argument("--fail-on", choices=("error", "warning", "info"), help="lowest severity that fails the run")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    check.add_argument("--statistics", action="store_true", help="count findings per rule")
    check.add_argument("-q", "--quiet", action="store_true", help="print findings only, no summary")
    check.add_argument("--stdin-filename", help="the path to report for text read from stdin")
    check.add_argument("--show-source", action="store_true", default=None,
                       help="print a source snippet under each finding, also when the output is no terminal")
    check.add_argument("--no-show-source", dest="show_source", action="store_false",
                       help="never print source snippets")
    check.add_argument("--color", "--colour", dest="color", choices=("auto", "always", "never"), default="auto",
                       help="colour the text output: auto (on a terminal, unless NO_COLOR is set), always, never")
    check.add_argument("--baseline", help="report only findings that this baseline file does not record")
    check.add_argument("--write-baseline", metavar="FILE", help="record today's findings in FILE and exit 0")
    check.add_argument("-j", "--jobs", type=_jobs, default=None, help="worker processes (default: one per core)")
    check.add_argument("--no-cache", action="store_true", help="neither read nor write .qlint_cache/")
    check.add_argument("--fix", action="store_true", help="apply safe fixes in place, then report what is left")
    check.add_argument("--show-fixes", action="store_true",
                       help="in the text output, list the fixes --fix made (or, without --fix, would make) per file")
    check.add_argument("--diff", action="store_true", help="show the safe fixes as a diff; write nothing (with --fix too)")
    check.add_argument("--force-exclude", action="store_true",
                       help="apply exclude and the configured paths to files named too (for pre-commit)")
    check.add_argument("--allow-empty", action="store_true",
                       help="exit 0 when the paths hold no bank files (default: a usage error, exit 2)")
    check.add_argument("--watch", "-w", action="store_true",
                       help="check again each time a bank or config file changes, until Ctrl-C")
    check.add_argument("--show-settings", action="store_true",
                       help="print the settings a check of the (first) path would use, each with where it was set, "
                            "the bank it is compared with and the rules that run; check nothing")
    check.add_argument("--show-files", "--list-files", action="store_true",
                       help="print the files the check would report on, one a line; check nothing")
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
    add_config_option(rules)

    rule = sub.add_parser("rule", help="print a rule's card")
    rule.add_argument("name", nargs="?", help="rule name or code")
    rule.add_argument("--all", action="store_true", help="print every rule's card (as ruff's rule --all)")
    rule.add_argument("--format", choices=("text", "json"), default="text")
    add_config_option(rule)

    sub.add_parser("server", help="run the language server (LSP) over stdio, for editors")

    completion = sub.add_parser("completion", aliases=["generate-shell-completion"],
                                help="print a shell completion script: bash, zsh or fish")
    completion.add_argument("shell", choices=SHELLS, help="the shell to complete qlint in")
    add_config_option(completion)

    schema = sub.add_parser("schema", help="print a JSON Schema (draft-07) of the bank format, for YAML editors")
    schema.add_argument("--output", "-o", help="write it here instead of stdout")

    clean = sub.add_parser("clean", help="delete the cache folder (.qlint_cache/)")
    add_config_option(clean)

    convert = sub.add_parser("convert", help="write a bank in another format (yaml, gift, aiken, moodle-xml, qti12, qti21)")
    convert.add_argument("paths", nargs="+", help="bank files and folders to read, in any format qlint reads")
    convert.add_argument("--to", required=True, choices=("yaml", "gift", "aiken", "moodle-xml", "qti12", "qti21"),
                         help="the format to write")
    convert.add_argument("--output", "-o", required=True, help="folder to write into (a path ending in .zip: one package)")
    convert.add_argument("--force", action="store_true", help="replace files that already exist in the output")
    add_config_option(convert)
    add_from_option(convert)


def _setup(given: Sequence[str] | None, start: Path, options: CheckOptions | None = None):
    """The config and registry in force at ``start``: ``given`` is what ``--config`` named; a check's ``options``
    add the flags that stand for a setting."""
    from qlint.run.pipeline import SetupError, setup  # the config and the rules: loaded by the commands that need them

    try:
        config_path, overrides = _config_given(given, options)
        return setup(config_path, start, overrides)
    except SetupError as exc:
        raise UsageError(str(exc)) from None


def _config_given(given: Sequence[str] | None, options: CheckOptions | None = None):
    """The config file ``--config`` named and the settings given over it (a check's ``--fail-on`` and
    ``--[no-]respect-gitignore`` among them)."""
    if options is None:
        return config_arguments(given)
    return config_arguments(given, fail_on=options.fail_on, respect_gitignore=options.respect_gitignore)


_FOR_PEOPLE = ("text", "concise", "full", "grouped", "standard", "colored")   # a progress bar goes with these


def _stdin_by_name(options: CheckOptions) -> CheckOptions:
    """``--stdin-filename`` reads standard input, as ruff's does, with or without ``-``; a path named beside it is
    left out with a warning (it used to be the other way round: the flag was dropped without a word)."""
    if options.stdin_filename is None or options.paths == ["-"]:
        return options
    from qlint.output import escape_text  # only to name the path left out
    others = [p for p in options.paths if p != "-"]
    if others:
        print(f"qlint: warning: ignoring {escape_text(others[0])} in favour of standard input (--stdin-filename)",
              file=sys.stderr)
    return options.replace(paths=["-"])


def cmd_check(args: argparse.Namespace, out) -> int:
    """``qlint check``."""
    return check(CheckOptions.from_args(args), out)


def check(options: CheckOptions, out, said: set[str] | None = None) -> int:
    """A check run as ``options`` ask, reported, and its exit code; ``said`` holds the notes already said (a watch's
    earlier runs), which are not said again."""
    from qlint.engine import exit_code  # the run's machinery: loaded by check, never by --version or parsing
    from qlint.finding import Severity

    options = _stdin_by_name(options)
    if options.show_settings or options.show_files:
        return _show(options, out)
    if options.watch:
        return _watch(options, out)
    fmt = _format(options)
    replay = _replay(options, fmt, out) if said is None else None   # a watch's runs are checked afresh
    if replay is not None:
        config_path, overrides = _config_given(options.config, options)
        replayed = replay.play(config_path, overrides, lambda config, registry: _warnings(options, config, registry))
        if replayed is not None:
            return replayed
    run = _check_run(options, progress=fmt in _FOR_PEOPLE)
    _notes(options, run, set() if said is None else said)
    if run.excluded and not run.results:
        return EXIT_OK   # --force-exclude left nothing named (pre-commit passed no bank file): nothing to say
    if not run.results and options.paths != ["-"] and not options.allow_empty:
        where = ", ".join(options.paths) or "the configured paths"
        raise UsageError(f"no bank files found in {where} (YAML, GIFT, Aiken, Moodle XML or QTI files); "
                         "pass --allow-empty to accept that")
    fixed = None
    if options.fix or options.diff:
        changed, run, fixed = _fix_and_recheck(options, run, out)
        if options.diff:
            return EXIT_FINDINGS if changed else EXIT_OK
    if options.responses:
        from qlint.cli.analyze import response_findings  # response data (DuckDB): loaded only with --responses

        run.findings = response_findings(options, run, run.findings)
    if options.form:
        run.findings = _with_forms(options, run)
    refuse_sources([options.output_file], _read_by(options, run))
    if options.write_baseline:
        refuse_sources([options.write_baseline], [s for s in _read_by(options, run) if s[0] != "the baseline"])
        return _write_baseline(options, run.findings)
    findings = _new_findings(options, run.findings)
    fail_on = Severity.parse(options.fail_on) if options.fail_on else run.config.settings.fail_on
    code = EXIT_OK if options.exit_zero else exit_code(findings, fail_on)
    with _reader_may_leave():   # `qlint check bank | head -1` still fails the pipeline on errors
        summary = _render(options, fmt, run, findings, fail_on, out, _fixes_shown(options, fixed, findings),
                          replay.recorder if replay is not None else None)
        if replay is not None:   # only after a whole report: a reader that left keeps none
            replay.keep(run, code, summary)
    if _LAST.kept is not None:
        _LAST.kept = (run, findings)
    return code


def _replay(options: CheckOptions, fmt: str, out):
    """The answer this check may give from an earlier run, or keep for a later one; None when it may do neither."""
    from qlint.cli.replay import Replay, replayable  # with the run
    from qlint.output.text import use_colour

    if not replayable(options, _show_source(options, fmt, out)):
        return None
    colour = False if options.output_file and options.output_file != "-" else use_colour(out, options.color)
    return Replay(options, fmt, out, colour)


def _format(options: CheckOptions) -> str:
    """The output format asked for (yamllint's ``auto``, or none: github on GitHub Actions, else text)."""
    chosen = None if options.format == "auto" else options.format
    fmt = chosen or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    from qlint.output import renderers  # the output formats: loaded by the commands that report

    available = renderers()
    if fmt not in available:
        from qlint.wording import closest  # for a misspelt format only

        names = [*available, "auto"]
        close = closest(fmt, names)
        hint = f"; did you mean {close!r}?" if close else ""
        raise UsageError(f"unknown format {fmt!r}{hint} (choose from {', '.join(names)})")
    return fmt


def _notes(options: CheckOptions, run, said: set[str]) -> None:
    """On stderr: each ignore that cannot apply, and, once, that named files were compared only with each other."""
    _warnings(options, run.config, run.registry)
    if run.alone and run.results and not options.quiet and "alone" not in said:
        said.add("alone")   # once: a watch's later runs do not say it again
        print("qlint: note: no config names the bank (paths), so duplicate ids and near-duplicate stems were looked "
              f"for among the named files only; to compare them with the whole bank, set paths = [\"{_bank_guess(options)}\"]"
              " in qlint.toml (or [tool.qlint] of pyproject.toml)", file=sys.stderr)


def _warnings(options: CheckOptions, config, registry) -> None:
    """On stderr: each ignore that cannot apply."""
    from qlint.config import unapplied_ignores  # loaded by check, never by --version or parsing

    for warning in unapplied_ignores(config, registry, options.ignore):
        print(f"qlint: warning: {warning}", file=sys.stderr)


_SAFE_NAME = re.compile(r"[\w.-]{1,100}")   # a folder name shown in the note as it is: no quotes, no controls


def _bank_guess(options: CheckOptions) -> str:
    """The folder the note suggests as the bank: the top folder of the first file named, as the user wrote it
    (``questions`` for ``questions/a.yaml``), else the README's ``bank``."""
    named = Path(options.stdin_filename if options.paths == ["-"] and options.stdin_filename else (options.paths or ["."])[0])
    parts = named.parts
    if named.is_absolute() or len(parts) < 2 or parts[0] == ".." or not _SAFE_NAME.fullmatch(parts[0]):
        return "bank"
    return parts[0]


def _fixes_shown(options: CheckOptions, fixed: dict | None, findings) -> dict | None:
    """--show-fixes: the fixes --fix made, per file and rule; without --fix, those it would make."""
    if not options.show_fixes:
        return None
    from collections import Counter  # only with --show-fixes
    if fixed is not None:
        return {"done": True, "files": fixed}
    would: dict[str, Counter] = {}
    for finding in findings:
        if finding.fix is not None:
            would.setdefault(finding.path, Counter())[finding.code, finding.rule] += 1
    return {"done": False, "files": would}


@contextmanager
def _reader_may_leave():
    """Output to a reader that may stop reading (``| head``): a closed pipe ends the output, not the run, whose exit
    code stands. What is still buffered for the closed pipe goes nowhere, so the exit flushes without an error."""
    try:
        yield
    except BrokenPipeError:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):   # a stream with no file behind it (tests)
            pass


def _watch(options: CheckOptions, out, wait=None) -> int:
    """--watch: the check, again at each change of what it reads; an error in one run (a config being edited) is
    said, and the watch goes on."""
    if options.paths == ["-"] or options.diff or options.write_baseline:
        raise UsageError("--watch checks files again as they change: not with stdin, --diff or --write-baseline")
    from qlint.cli.watch import signature, watch  # --watch only: the loop and the files' signatures
    from qlint.config import ConfigError, find_config
    from qlint.run.pipeline import SetupError, bank_files, bank_roots, checked_paths, config_start

    once = options.replace(watch=False)
    said: set[str] = set()

    def check_once() -> None:
        try:
            check(once, out, said)
        except UsageError as exc:
            print(f"qlint: error: {exc}", file=sys.stderr)

    def snapshot():
        start = config_start(options.paths)
        try:
            config, _ = _setup(options.config, start, options)
            targets, _ = checked_paths(options.paths, config, force_exclude=options.force_exclude)
            roots = [*targets, *(r for r in bank_roots(config) if os.path.exists(r))]
            return signature([*config.chain, *bank_files(config, roots)])
        except (UsageError, SetupError, ConfigError):   # a broken config: its fix is the change to wait for
            found = find_config(start) if os.path.exists(start) else None
            return signature([*options.paths, *([found] if found else [])])

    return watch(check_once, snapshot, out, wait=wait)


def _show(options: CheckOptions, out) -> int:
    """--show-settings (text, or JSON with --format json) or --show-files: what the check would use and read."""
    from qlint.cli.show import render_settings, settings_view  # --show-settings and --show-files only
    from qlint.formats import with_source_format
    from qlint.run.pipeline import SetupError, config_start, files_to_check
    from qlint.output import escape_text

    config, registry = _setup(options.config, config_start(options.paths, options.stdin_filename), options)
    if options.source_format:
        config = with_source_format(config, options.source_format)
    if options.show_files:
        try:
            files = files_to_check(options.paths, config, stdin_filename=options.stdin_filename,
                                   force_exclude=options.force_exclude)
        except SetupError as exc:
            raise UsageError(str(exc)) from None
        out.writelines(f"{escape_text(name)}\n" for name in files)
        return EXIT_OK
    named = options.stdin_filename if options.paths == ["-"] and options.stdin_filename else (options.paths or ["."])[0]
    try:
        view = settings_view(config, registry, named, select=options.select, extend_select=options.extend_select,
                             ignore=options.ignore)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    render_settings(view, out, "json" if options.format == "json" else "text")
    return EXIT_OK


def _check_run(options: CheckOptions, *, progress: bool = False, after_fix: bool = False):
    """The check run the arguments ask for; ``after_fix``: the run again over the fixed files, with the cache
    (a fix run skips it: its findings must carry their fixes) and without stdin (--fix refuses it)."""
    from qlint.run.pipeline import SetupError, run_check  # the run: loaded by the commands that check

    # read by the run, never past max-file-size (no stdin at all, when it was closed, reads as empty)
    stdin = getattr(sys.stdin, "buffer", None) if options.paths == ["-"] and not after_fix else None
    fixing = (options.fix or options.diff) and not after_fix
    # a form is checked against every question of the bank, with the pairs the bank rules publish, and for the
    # enemy items on it
    forms = bool(options.form)
    extend = [*options.extend_select, "enemy-items"] if forms else options.extend_select
    try:
        config_path, overrides = _config_given(options.config, options)
        return run_check(options.paths, config_path=config_path, overrides=overrides, select=options.select,
                         extend_select=extend, ignore=options.ignore, stdin=stdin,
                         stdin_filename=options.stdin_filename, jobs=options.jobs,
                         use_cache=not (options.no_cache or fixing), progress=progress,
                         keep_questions=bool(options.responses),   # the bank the responses are matched with
                         publish=forms,
                         source_format=options.source_format,
                         force_exclude=options.force_exclude)
    except SetupError as exc:
        raise UsageError(str(exc)) from None


def _fix_and_recheck(options: CheckOptions, run, out):
    """Apply or show the fixes; after --fix, the run again over the changed files, with the skips reported. Also
    returns the fixes made, per file and rule."""
    from qlint.finding import Finding  # --fix and --diff only

    changed, skips, fixed = _fix(options, run, out)
    if options.fix and not options.diff and changed:
        run = _check_run(options, after_fix=True)
    if skips:
        run.findings = sorted(run.findings + skips, key=Finding.sort_key)
    return changed, run, fixed


def _with_forms(options: CheckOptions, run) -> list:
    """The run's findings and the form rules' on every ``--form``."""
    from qlint.finding import Finding  # with the form's reader and rules' runner: loaded only with --form
    from qlint.run.forms import FormError, form_findings

    if options.paths == ["-"]:
        raise UsageError("--form needs the bank as files or folders, not stdin")
    try:
        found, warnings = form_findings(run, options.form, select=options.select, extend_select=options.extend_select,
                                        ignore=options.ignore)
    except FormError as exc:
        raise UsageError(str(exc)) from None
    for warning in warnings:
        print(f"qlint: warning: {warning}", file=sys.stderr)
    return sorted(run.findings + found, key=Finding.sort_key)


def _read_by(options: CheckOptions, run) -> list[tuple[str, object]]:
    """What the run read, as ``refuse_sources`` takes it."""
    return read_by([r.path for r in run.results], run.config.chain, options.baseline, options.responses or ())


def _write_baseline(options: CheckOptions, findings) -> int:
    from qlint.run import baseline  # --write-baseline only
    from qlint.wording import plural

    try:
        count = baseline.write(Path(options.write_baseline), findings)
    except OSError as exc:
        raise UsageError(f"cannot write {options.write_baseline}: {exc.strerror}") from None
    print(f"qlint: wrote {plural(count, 'finding')} to {options.write_baseline}", file=sys.stderr)
    return EXIT_OK


def _new_findings(options: CheckOptions, findings):
    """The findings to report: with --baseline, those it does not record."""
    if not options.baseline:
        return findings
    from qlint.run import baseline  # --baseline only

    try:
        return baseline.new_findings(findings, baseline.read(Path(options.baseline)))
    except baseline.BaselineError as exc:
        raise UsageError(str(exc)) from None


def _render(options: CheckOptions, fmt: str, run, findings, fail_on, out, fixes: dict | None = None,
            record=None) -> str | None:
    """The report, to stdout or the output file (through ``record(stream)`` when it is kept), and the summary line
    said on stderr after an output file."""
    from qlint.output import Report, renderers  # the output formats: loaded by the commands that report
    from qlint.output.text import use_colour

    render = renderers()[fmt]
    # fix_hint: after --fix, what is still fixable was refused, and the summary must not offer --fix again
    shown = {"quiet": options.quiet, "statistics": options.statistics, "fix_hint": not options.fix,
             "fail_on": None if options.exit_zero else fail_on,   # what fails the run: nothing with --exit-zero
             "fixes": fixes}
    shown["colour"], shown["show_source"] = use_colour(out, options.color), _show_source(options, fmt, out)
    report = Report(findings, files=len(run.shown), questions=sum(r.question_count for r in run.shown),
                    rules=[a.rule for a in run.active], sources=_sources(options, fmt, run, findings, out))
    if not options.output_file or options.output_file == "-":   # `-o -`: standard output, as a file name means elsewhere
        render(report, record(out) if record else out, shown)
        return None
    try:  # streamed: a million findings need not sit in memory twice
        with open(options.output_file, "w", encoding="utf-8") as handle:
            render(report, record(handle) if record else handle, {**shown, "colour": False})
    except OSError as exc:
        raise UsageError(f"cannot write {options.output_file}: {exc.strerror}") from None
    if options.quiet:
        return None
    # a CI log (GitLab's junit and code-quality steps) still says what the report holds
    summary = f"qlint: {_counts(report.summary())}; written to {options.output_file}"
    print(summary, file=sys.stderr)
    return summary


def _counts(s: dict) -> str:
    from qlint.wording import plural  # with the output, after a run

    questions, files = plural(s['questions'], 'question'), plural(s['files'], 'file')
    if not s["findings"]:
        return f"all clear: {questions} in {files}"
    return (f"{plural(s['findings'], 'problem')} ({plural(s['error'], 'error')}, {plural(s['warning'], 'warning')}, "
            f"{s['info']} info) in {questions}, {files}")


def _show_source(options: CheckOptions, fmt: str, out) -> bool:
    """Whether the text output shows snippets: as asked (--show-source, --no-show-source, the full and concise
    formats), else on a terminal."""
    if fmt == "full" or fmt == "concise":
        return fmt == "full"
    if fmt != "text" or options.output_file:
        return False
    from qlint.output.text import use_snippets  # with the output, after a run

    return options.show_source if options.show_source is not None else use_snippets(out, options.color)


def _sources(options: CheckOptions, fmt: str, run, findings, out) -> dict:
    """The source lines for snippets, read only when the text format will show them."""
    if not _show_source(options, fmt, out):
        return {}
    from qlint.run.sources import source_lines  # snippets only

    return source_lines(findings, run.config.settings.limits, run.stdin)


def _fix(options: CheckOptions, run, out) -> tuple[bool, list, dict]:
    """Apply (--fix) or show (--diff) the safe fixes. Returns whether any file changed, a warning finding for every
    file or fix left alone, so that the report (and with it the exit code) says so, not only stderr, and the fixes
    made in each file, by rule."""
    import difflib  # --fix and --diff only: the rewrites and their diff

    # likewise
    from qlint.run.fix import fix_run, skipped_findings
    from qlint.wording import plural

    if options.paths == ["-"]:
        raise UsageError("--fix and --diff need files, not stdin")
    run = _yaml_only(run)
    outcome = fix_run(run, write=options.fix and not options.diff)   # --diff writes nothing, with --fix or without
    for path, reason in outcome.skipped:
        print(f"qlint: warning: {path}: not fixed: {reason}", file=sys.stderr)
    if options.diff:
        with _reader_may_leave():
            for path, (old, new) in sorted(outcome.changed.items()):
                out.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                                    f"a/{path}", f"b/{path}"))
        if outcome.changed and not options.quiet:   # as ruff's "Would fix 3 errors.", on stderr beside the diff
            count = sum(sum(c.values()) for p, c in outcome.by_rule.items() if p in outcome.changed)
            print(f"qlint: would fix {plural(count, 'problem')} in {plural(len(outcome.changed), 'file')}; "
                  "nothing was written", file=sys.stderr)
    elif outcome.changed and not options.quiet:
        print(f"qlint: fixed {plural(len(outcome.changed), 'file')}", file=sys.stderr)
    return bool(outcome.changed), skipped_findings(outcome, run.active), outcome.by_rule


def _yaml_only(run):
    """The run with only YAML files' findings: fixes rewrite qlint's own format, never GIFT, Aiken, XML or QTI."""
    import dataclasses  # --fix and --diff only

    from qlint.formats import is_yaml  # likewise
    limits = run.config.settings.limits
    # the files the run reports on: the rest of a named file's bank was read for the bank rules, and not given
    others = sorted({o.path for o in run.shown if not is_yaml(o.path, limits)})
    if not others:
        return run
    shown = ", ".join(others[:3]) + (f" and {len(others) - 3} more" if len(others) > 3 else "")
    print(f"qlint: warning: --fix and --diff rewrite YAML banks only; {shown} "
          f"{'is' if len(others) == 1 else 'are'} in another format and left unchanged", file=sys.stderr)
    skipped = set(others)
    return dataclasses.replace(run, findings=[f for f in run.findings if f.path.split("!")[0] not in skipped])


def cmd_convert(args: argparse.Namespace, out) -> int:
    # the writers of every format: loaded by convert alone, so that check starts without them
    from qlint.formats import with_source_format
    from qlint.formats.convert import convert, summary
    from qlint.formats.write import UnsafePath

    if args.output == "-":
        raise UsageError("convert writes files: -o names an output folder, or a .zip for one package, not - "
                         "(standard output)")
    config, _ = _setup(args.config, Path(args.paths[0]))
    if args.source_format:
        config = with_source_format(config, args.source_format)
    missing = [p for p in args.paths if not os.path.exists(p)]
    if missing:
        raise UsageError(f"no such file or folder: {missing[0]}")
    try:
        done = convert([Path(p) for p in args.paths], args.to, Path(args.output), config.settings.limits,
                       tuple(config.settings.exclude), force=args.force)
    except UnsafePath as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    for problem in done.problems:
        print(f"qlint: {problem.path}:{problem.line}:{problem.column}: {problem.code} {problem.rule}: "
              f"{problem.message}", file=sys.stderr)
    for warning in done.warnings:
        print(f"qlint: warning: {warning}", file=sys.stderr)
    out.write(summary(done, args.to, args.output))
    return EXIT_FINDINGS if any(p.severity >= 3 for p in done.problems) else EXIT_OK


def cmd_rules(args: argparse.Namespace, out) -> int:
    """Every rule, as the config in force sets it: on or off, and at which severity (the defaults beside them)."""
    import json  # the listing: loaded by this command only

    from qlint.config import ConfigError, resolve_rules  # likewise
    config, registry = _setup(args.config, Path.cwd())
    try:
        chosen = {a.rule.name: a for a in resolve_rules(config, registry)}
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    rules = list(registry)
    if args.format == "json":
        json.dump([{"code": r.code, "name": r.name,
                    "severity": str(chosen[r.name].severity if r.name in chosen else r.severity),
                    "enabled": r.name in chosen, "default_severity": str(r.severity), "enabled_by_default": r.enabled,
                    "kind": r.kind, "summary": r.summary} for r in rules], out, indent=2)
        out.write("\n")
        return EXIT_OK
    width = max(len(r.name) for r in rules)
    for r in rules:
        active = chosen.get(r.name)
        state = "on " if active else "off"
        severity = str(active.severity if active else r.severity)
        # what the config changed, so that "on" next to a rule off by default is not a surprise either
        changed = [] if (active is not None) == r.enabled else ["on by default" if r.enabled else "off by default"]
        changed += [f"default {r.severity}"] if active and active.severity != r.severity else []
        note = f" ({', '.join(changed)})" if changed else ""
        out.write(f"{r.code}  {r.name:<{width}}  {severity:<7}  {state}  {r.summary}{note}\n")
    return EXIT_OK


def cmd_clean(args: argparse.Namespace, out) -> int:
    """Delete the cache of the config in force and, as ruff's clean does, every cache below the working folder: those
    of sub-configs (their cache-dir) and every .qlint_cache folder. Only names qlint made are touched."""
    from qlint.run.cache import Cache  # clean only
    from qlint.files import relative
    from qlint.wording import plural

    config, _ = _setup(args.config, Path.cwd())
    bases = [Cache.location(config)]
    if not os.environ.get("QLINT_CACHE_DIR"):   # the user's own cache folder: that one alone
        bases += _caches_below(Path.cwd())
    removed: dict[Path, int] = {}
    for base in bases:
        key = Path(os.path.abspath(base))
        if key not in removed:
            removed[key] = Cache.clean(base)
    total = sum(removed.values())
    shown = [relative(p) for p, n in removed.items() if n] or [relative(Path(os.path.abspath(bases[0])))]
    out.write(f"removed {plural(total, 'cache folder')} from {', '.join(shown)}\n")
    return EXIT_OK


MAX_CLEAN_FOLDERS = 100_000   # folders looked at below the working folder: a bound, not a limit any bank meets


def _caches_below(top: Path) -> list[Path]:
    """The cache folders below ``top``: every ``.qlint_cache``, and the cache-dir of every config file met (one
    that cannot be read is passed over: its .qlint_cache is still found by name). Hidden and tool folders other
    than caches are not entered, nor are symbolic links followed."""
    from qlint.run.cache import FOLDER as CACHE_FOLDER  # clean only
    from qlint.run.cache import Cache
    from qlint.config import CONFIG_FILES, ConfigError, load_config
    from qlint.files import SKIP_DIRS

    found: list[Path] = []
    for count, (dirpath, dirnames, filenames) in enumerate(os.walk(top, followlinks=False)):
        if count >= MAX_CLEAN_FOLDERS:
            break
        found += [Path(dirpath, d) for d in dirnames if d == CACHE_FOLDER]
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and d not in SKIP_DIRS]
        for name in CONFIG_FILES:
            if name in filenames and Path(dirpath) != top:
                try:
                    sub = load_config(Path(dirpath, name), Path(dirpath))
                except ConfigError:
                    continue
                found.append(Cache.location(sub))
    return found


def cmd_completion(parser: argparse.ArgumentParser, args: argparse.Namespace, out) -> int:
    """A completion script for the shell, with the rule names and codes of the registry in force (its packs)."""
    from qlint.cli.completion import script  # completion only
    from qlint.output import FORMATS

    _, registry = _setup(args.config, Path.cwd())
    rules = sorted({r.name for r in registry} | {r.code for r in registry})
    out.write(script(args.shell, parser, rules, [*FORMATS, "auto"]))
    return EXIT_OK


def cmd_server(args: argparse.Namespace, out) -> int:
    import importlib.util  # the server only: are its optional dependencies installed

    from qlint import install_hint  # likewise

    if importlib.util.find_spec("pygls") is None or importlib.util.find_spec("lsprotocol") is None:
        raise UsageError(f"qlint server needs pygls and lsprotocol: {install_hint('server')}")
    from qlint.server.lsp import serve  # pygls is an optional dependency: imported only when the server runs

    serve()
    return EXIT_OK


def cmd_schema(args: argparse.Namespace, out) -> int:
    import json  # schema only

    from qlint.bank_schema import bank_schema  # likewise

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
    if (args.name is None) == (not args.all):
        raise UsageError("qlint rule takes a rule's name or code, or --all for every rule")
    import json  # the cards and their lookup: loaded by this command only

    from qlint.docs import card, card_dict  # the cards: loaded by this command only
    from qlint.wording import closest

    config, registry = _setup(args.config, Path.cwd())
    if args.all:
        if args.format == "json":
            json.dump([card_dict(r) for r in registry], out, indent=2)
            out.write("\n")
        else:
            out.write("\n".join(card(r) for r in registry))
        return EXIT_OK
    rule = registry.get(args.name)
    if rule is None:
        close = closest(args.name, [r.name for r in registry])
        hint = f"; did you mean {close!r}?" if close else "; `qlint rules` lists them"
        raise UsageError(f"unknown rule {args.name!r}{hint}")
    if args.format == "json":
        json.dump(card_dict(rule), out, indent=2)
        out.write("\n")
    else:
        out.write(card(rule))
    return EXIT_OK


class _Last:
    """The last check's run and findings, kept alive to the exit when the ``qlint`` command runs (``kept`` is None
    otherwise): freeing a big bank's questions, features and findings one by one when ``check`` returns costs a few
    tenths of a second that ``os._exit`` makes needless; a watch's earlier runs are let go as the next one takes
    their place."""

    kept: tuple | None = None


_LAST = _Last()


def run() -> None:
    """The ``qlint`` command: ``main``, then exit without tearing down the interpreter. A big bank leaves hundreds
    of thousands of objects that the exit would free one by one (a tenth of a second) for nothing, and the last
    check's run is kept to the end for the same reason; everything the run writes is closed or flushed by then."""
    _LAST.kept = ()
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
    try:
        args, extras = parser.parse_known_args(argv)
        if extras:
            raise _unknown_arguments(parser, getattr(args, "command", None), extras)
    except ArgumentsError as exc:
        print(f"{exc.prog}: error: {exc}\nFor more information, try `{exc.prog} --help`.", file=sys.stderr)
        return EXIT_USAGE
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
        if args.command in ("completion", "generate-shell-completion"):
            return cmd_completion(parser, args, out)
        if args.command == "analyze":
            from qlint.cli.analyze import analyze_options  # analyze only

            return check(analyze_options(args), out)
        if args.command == "convert":
            return cmd_convert(args, out)
        if args.command in ("report", "stats"):
            from qlint.cli import report  # the bank report and its summary: these two commands only

            return (report.cmd_report if args.command == "report" else report.cmd_stats)(args, out)
        parser.print_help()
        return EXIT_USAGE
    except UsageError as exc:
        print(f"qlint: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("qlint: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:   # a listing (`qlint rules | head`) whose reader left: it said what it had to
        return EXIT_OK
    except Exception as exc:  # the last line of defence: never a traceback
        print(f"qlint: internal error: {type(exc).__name__}: {exc}\n"
              "Please report this with the command you ran.", file=sys.stderr)
        if os.environ.get("QLINT_DEBUG"):
            raise
        return EXIT_USAGE
