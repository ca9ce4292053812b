"""Command line: thin argument parsing around config -> registry -> loader -> engine -> reporter -> exit code."""
from __future__ import annotations

import argparse
import io
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from qlint import __version__

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """Bad arguments or configuration: exit code 2."""


def _csv(value: str) -> list[str]:
    return [v.strip() for v in value.split(",") if v.strip()]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="qlint", description="Lint banks of multiple-choice exam questions.")
    parser.add_argument("--version", action="version", version=f"qlint {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = sub.add_parser("check", help="check bank files and folders")
    check.add_argument("paths", nargs="*", help="files or folders (default: the config's paths, else .); - reads stdin")
    check.add_argument("--format", choices=None, default=None,
                       help="text (default), json, json-lines, sarif, github, gitlab, junit")
    check.add_argument("--output-file", "-o", help="write the report here instead of stdout")
    check.add_argument("--config", help="use this config file instead of searching for one")
    check.add_argument("--select", type=_csv, help="rules to run (names, codes, prefixes), replacing the config's")
    check.add_argument("--extend-select", type=_csv, default=[], help="rules to run in addition")
    check.add_argument("--ignore", type=_csv, default=[], help="rules not to run")
    check.add_argument("--fail-on", choices=("error", "warning", "info"), help="lowest severity that fails the run")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    check.add_argument("--statistics", action="store_true", help="count findings per rule")
    check.add_argument("-q", "--quiet", action="store_true", help="print findings only, no summary")
    check.add_argument("--stdin-filename", help="the path to report for text read from stdin")
    check.add_argument("--no-show-source", action="store_true", help="never print source snippets")

    rules = sub.add_parser("rules", help="list every rule")
    rules.add_argument("--format", choices=("text", "json"), default="text")
    rules.add_argument("--config", help="config file (for its rule packs)")

    rule = sub.add_parser("rule", help="print a rule's card")
    rule.add_argument("name", help="rule name or code")
    rule.add_argument("--format", choices=("text", "json"), default="text")
    rule.add_argument("--config", help="config file (for its rule packs)")
    return parser


def _setup(args: argparse.Namespace, start: Path):
    from qlint.config import ConfigError, load_config
    from qlint.packs import PackError
    from qlint.registry import RegistryError, load_registry

    try:
        config = load_config(Path(args.config) if getattr(args, "config", None) else None, start)
        registry = load_registry(config.pack_paths)
    except (ConfigError, PackError, RegistryError) as exc:
        raise UsageError(str(exc)) from None
    return config, registry


def _relative(path: Path) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return path.as_posix()
    return Path(rel).as_posix() if not rel.startswith("..") else path.as_posix()


def cmd_check(args: argparse.Namespace, out) -> int:
    from qlint.config import ConfigError, ignored_for, resolve_rules
    from qlint.engine import exit_code, lint
    from qlint.finding import Finding, Severity
    from qlint.loader import FileResult, decode, discover, load_file, load_text
    from qlint.reporters import Report, renderers

    fmt = args.format or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    available = renderers()
    if fmt not in available:
        raise UsageError(f"unknown format {fmt!r}; choose from {', '.join(available)}")

    paths = [Path(p) for p in args.paths]
    use_stdin = args.paths == ["-"]
    start = Path(args.stdin_filename) if use_stdin and args.stdin_filename else (paths[0] if paths else Path.cwd())
    config, registry = _setup(args, start)
    try:
        active = resolve_rules(config, registry, select=args.select, extend_select=args.extend_select,
                               ignore=args.ignore)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    settings = config.settings
    limits = settings.limits

    if not paths:
        paths = [config.root / p for p in settings.paths] or [Path.cwd()]
    missing = [p for p in paths if not use_stdin and not p.exists() and not p.is_symlink()]
    if missing:
        raise UsageError(f"no such file or folder: {missing[0]}")

    exclude = tuple(settings.exclude)
    if use_stdin:
        name = args.stdin_filename or "<stdin>"
        data = sys.stdin.buffer.read()

        text, problems = decode(data, name)
        result = load_text(text, name, limits) if text is not None else FileResult(name)
        result.findings[:0] = problems
        results = [result]
    else:
        files = list(discover(paths, exclude))
        results = [load_file(f, _relative(f), limits) for f in files]

    roots: dict[str, frozenset[str]] = {}

    def ignored(path: str) -> frozenset[str]:
        if path not in roots:
            try:
                rel = Path(os.path.relpath(Path(path).resolve(), config.root)).as_posix()
            except ValueError:
                rel = path
            roots[path] = ignored_for(config, registry, rel)
        return roots[path]

    findings = lint(results, active, ignored=ignored if settings.per_file_ignores else None,
                    all_rules=[r.name for r in registry] + [r.code for r in registry])
    for problem in registry.problems:
        findings.insert(0, Finding(problem.plugin, 1, 1, "Q901", "internal-error", Severity.ERROR,
                                   f"plugin failed to load: {problem.message}"))

    report = Report(findings, files=len(results), questions=sum(len(r.questions) for r in results),
                    rules=[a.rule for a in active])
    options = {"quiet": args.quiet, "statistics": args.statistics}
    if args.no_show_source:
        options["show_source"] = False
    if args.output_file:
        buffer = io.StringIO()
        available[fmt](report, buffer, {**options, "colour": False, "show_source": False})
        try:
            Path(args.output_file).write_text(buffer.getvalue(), encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write {args.output_file}: {exc.strerror}") from None
    else:
        available[fmt](report, out, options)
    if args.exit_zero:
        return EXIT_OK
    fail_on = Severity.parse(args.fail_on) if args.fail_on else settings.fail_on
    return exit_code(findings, fail_on)


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


def cmd_rule(args: argparse.Namespace, out) -> int:
    from qlint.docs import card, card_dict

    config, registry = _setup(args, Path.cwd())
    rule = registry.get(args.name)
    if rule is None:
        import difflib

        close = difflib.get_close_matches(args.name, [r.name for r in registry], n=1)
        hint = f"; did you mean {close[0]!r}?" if close else "; `qlint rules` lists them"
        raise UsageError(f"unknown rule {args.name!r}{hint}")
    if args.format == "json":
        json.dump(card_dict(rule), out, indent=2)
        out.write("\n")
    else:
        out.write(card(rule))
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
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
