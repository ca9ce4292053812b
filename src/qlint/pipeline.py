"""One check run, end to end: config -> registry -> loader -> engine. Shared by check, report and stats."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from qlint.config import ActiveRule, Config, ConfigError, ignored_for, load_config, resolve_rules
from qlint.engine import lint
from qlint.finding import Finding, Severity
from qlint.loader import FileResult, decode, discover, load_file, load_text
from qlint.packs import PackError
from qlint.registry import Registry, RegistryError, load_registry
from qlint.rule import BankRule


class SetupError(Exception):
    """Bad arguments, configuration, rule packs or plugins: the CLI exits 2."""


@dataclass
class Run:
    """What a check produced, and everything needed to explain it."""

    config: Config
    registry: Registry
    active: list[ActiveRule]
    results: list[FileResult]
    findings: list[Finding]
    report_only: set[str] | None = None
    shown: list[FileResult] = field(default_factory=list)


def relative(path: Path) -> str:
    """A path as users expect to see it: relative to the working folder when below it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path.as_posix()
    return Path(rel).as_posix() if not rel.startswith("..") else path.as_posix()


def setup(config_path: str | None, start: Path) -> tuple[Config, Registry]:
    try:
        config = load_config(Path(config_path) if config_path else None, start)
        registry = load_registry(config.pack_paths)
    except (ConfigError, PackError, RegistryError) as exc:
        raise SetupError(str(exc)) from None
    return config, registry


def run_check(paths: list[str], *, config_path: str | None = None, select: list[str] | None = None,
              extend_select: list[str] = (), ignore: list[str] = (), stdin: bytes | None = None,
              stdin_filename: str | None = None) -> Run:
    """Check the given paths (``["-"]`` with ``stdin`` reads one file from standard input)."""
    use_stdin = paths == ["-"]
    targets = [Path(p) for p in paths]
    start = Path(stdin_filename) if use_stdin and stdin_filename else (targets[0] if targets else Path.cwd())
    config, registry = setup(config_path, start)
    try:
        active = resolve_rules(config, registry, select=select, extend_select=extend_select, ignore=ignore)
    except ConfigError as exc:
        raise SetupError(str(exc)) from None
    settings = config.settings
    limits = settings.limits
    if not targets:
        targets = [config.root / p for p in settings.paths] or [Path.cwd()]
    missing = [p for p in targets if not use_stdin and not p.exists() and not p.is_symlink()]
    if missing:
        raise SetupError(f"no such file or folder: {missing[0]}")

    exclude = tuple(settings.exclude)
    report_only: set[str] | None = None
    if use_stdin:
        name = stdin_filename or "<stdin>"
        text, problems = decode(stdin or b"", name)
        result = load_text(text, name, limits) if text is not None else FileResult(name)
        result.findings[:0] = problems
        results = [result]
    else:
        files = list(discover(targets, exclude))
        if all(p.is_file() for p in targets) and any(isinstance(a.rule, BankRule) for a in active):
            # pre-commit passes only changed files: cross-file rules still compare against the whole
            # bank, loaded from the config root, and only the files named are reported on.
            report_only = {relative(f) for f in files}
            universe = [config.root / p for p in settings.paths] or [config.root if config.source else Path.cwd()]
            named = {f.resolve() for f in files}
            files += [f for f in discover([u for u in universe if u.exists()], exclude) if f.resolve() not in named]
        results = [load_file(f, relative(f), limits) for f in files]

    cache: dict[str, frozenset[str]] = {}

    def ignored(path: str) -> frozenset[str]:
        if path not in cache:
            try:
                rel = Path(os.path.relpath(Path(path).resolve(), config.root)).as_posix()
            except ValueError:
                rel = path
            cache[path] = ignored_for(config, registry, rel)
        return cache[path]

    findings = lint(results, active, ignored=ignored if settings.per_file_ignores else None,
                    report_only=report_only, all_rules=[r.name for r in registry] + [r.code for r in registry])
    for problem in registry.problems:
        findings.insert(0, Finding(problem.plugin, 1, 1, "Q901", "internal-error", Severity.ERROR,
                                   f"plugin failed to load: {problem.message}"))
    shown = [r for r in results if report_only is None or r.path in report_only]
    return Run(config, registry, active, results, findings, report_only, shown)


@dataclass
class FixOutcome:
    """What a fix pass changed (or would change): new texts by path, and files left alone with why."""

    changed: dict[str, tuple[str, str]] = field(default_factory=dict)  # path -> (old text, new text)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    applied: int = 0


def fix_run(run: Run, *, write: bool, rounds: int = 5) -> FixOutcome:
    """Apply the safe fixes that ``run`` found, file by file, until nothing more is fixable."""
    from qlint.engine import check_files
    from qlint.fix import FixError, apply_to_text, fixable, write_atomic
    from qlint.suppress import apply_suppressions

    outcome = FixOutcome()
    limits = run.config.settings.limits
    names = [r.name for r in run.registry] + [r.code for r in run.registry]
    paths = sorted({f.path for f in run.findings if f.fix is not None})
    for path in paths:
        try:
            original = Path(path).read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            outcome.skipped.append((path, f"cannot read it: {exc}"))
            continue
        if original.startswith("\ufeff"):
            outcome.skipped.append((path, "it starts with a byte-order mark"))
            continue
        text = original
        try:
            for _ in range(rounds):
                result = load_text(text, path, limits)
                found = apply_suppressions(check_files([result], run.active), [result], run.active, names)
                fixes = fixable(found)
                if not fixes:
                    break
                new = apply_to_text(text, fixes)
                if new == text:
                    break
                outcome.applied += len(fixes)
                text = new
        except FixError as exc:
            outcome.skipped.append((path, str(exc)))
            continue
        except Exception as exc:  # a fix that cannot be applied leaves the file untouched
            outcome.skipped.append((path, f"{type(exc).__name__}: {exc}"))
            continue
        if text != original:
            outcome.changed[path] = (original, text)
            if write:
                write_atomic(Path(path), text)
    return outcome
