"""One check run, end to end: config -> registry -> discover -> read -> per-file rules (in workers, cached) ->
bank rules -> suppressions -> findings. ``check``, ``--fix``, ``report``, ``stats``, the editor server and the
tests all go through here.

Per-file work (``qlint.run.perfile``) runs over many files in ``qlint.run.batch``: in worker processes when there is enough
of it, its outcome cached by content hash in ``.qlint_cache/``. Whole-bank rules run over every file's BankItems
whenever any file changed (their findings for an unchanged set of files are reused); a rule with ``memo`` may keep
its work in the cache between runs.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from qlint.config import Config, ConfigError, Override, load_config, resolve_rules
from qlint.engine import check_bank
from qlint.files import SKIP_DIRS, GitIgnored, matches_glob, relative
from qlint.finding import Finding, finding
from qlint.formats import discover_banks
from qlint.items import CheckedFile, with_rejected
from qlint.limits import Limits
from qlint.problems import INTERNAL_ERROR
from qlint.registry import Registry, RegistryError, load_registry
from qlint.rule import ActiveRule, BankRule
from qlint.run.batch import Batch, default_jobs, process_all
from qlint.run.perfile import FileSetup, check_source
from qlint.run.settings import Ignores, Stages, Walk, resolve, walk_of
from qlint.run.suppress import finish


class SetupError(Exception):
    """Bad arguments, configuration, rule packs or plugins: the CLI exits 2."""


@dataclass
class Run:
    """What a check produced, and everything needed to explain it."""

    config: Config
    registry: Registry
    active: list[ActiveRule]
    results: list[CheckedFile]   # named files first; the rest of their bank only when its entries were read
    findings: list[Finding]
    report_only: set[str] | None = None
    shown: list[CheckedFile] = field(default_factory=list)
    stdin: tuple[str, bytes | OSError] | None = None   # the name and the bytes read from standard input
    excluded: list[str] = field(default_factory=list)   # paths named but left out by --force-exclude
    # named files (or a buffer) that bank rules compared only with each other, since no config names the bank
    alone: bool = False
    stages: Stages | None = None   # what each stage was handed of the config (``--from`` resolved)
    # what each bank rule published, by name: filled by the bank stage of a run asked to publish, else on first ask
    tables: dict[str, tuple[Any, Any, bool]] = field(default_factory=dict)
    # what each bank rule's ``survey`` found when the bank stage ran it (not when the cache held its findings)
    surveys: dict[str, Any] = field(default_factory=dict)
    # the run index (``batch.run_index``) of a run of files and folders whose outcomes are all those of their files'
    # digests and whose findings are all reported: the name of everything the findings were made from
    index: str | None = None

    @property
    def limits(self) -> Limits:
        """The limits the run read its files under."""
        return self.stages.limits if self.stages is not None else self.config.settings.limits

    def published(self, name: str) -> tuple[Any, Any, bool]:
        """What bank rule ``name`` publishes about every question this run read (its ``publish``; None when it has
        none, or when it needs per-question features and did not run), the options it used (the rule's defaults when
        it did not run), and whether it ran. Computed once a run, with the bank rules when the run was asked to
        publish (``run_check(publish=True)``): the bank report reads a rule's results here, never recomputing them."""
        if name not in self.tables:
            self.tables[name] = self._publish(name)
        return self.tables[name]

    def _publish(self, name: str) -> tuple[Any, Any, bool]:
        chosen = next((a for a in self.active if a.rule.name == name), None)
        rule = chosen.rule if chosen is not None else self.registry.get(name)
        if rule is None:
            return None, None, False
        options = chosen.options if chosen is not None else rule.options()
        publish = getattr(rule, "publish", None)
        if publish is None or (chosen is None and getattr(rule, "extract", None) is not None):
            return None, options, chosen is not None
        items = [i for o in self.results for i in o.items]
        survey = getattr(rule, "survey", None)
        if survey is None:
            return publish(items, options), options, chosen is not None
        found = self.surveys[name] if name in self.surveys else survey(items, options)
        return publish(items, options, found), options, chosen is not None


def setup(config_path: str | None, start: Path, overrides: Sequence[Override] = ()) -> tuple[Config, Registry]:
    try:
        config = load_config(Path(config_path) if config_path else None, start, overrides)
        registry = load_registry(config.pack_paths)
    except (ConfigError, RegistryError) as exc:
        raise SetupError(str(exc)) from None
    except Exception as exc:
        packs = sys.modules.get("qlint.packs")   # read only when a config names packs: a PackError comes from there
        if packs is None or not isinstance(exc, packs.PackError):
            raise
        raise SetupError(str(exc)) from None
    return config, registry


def bank_roots(config: Config) -> list[Path]:
    """The whole bank that named files (or an editor's buffer) are compared with: the config's ``paths``, which
    lie inside its folder. Without them there is none: the named files are compared only with each other, and
    nothing else is read (not the git work tree, not the files' folder, never a walk up to ``/``)."""
    return list(walk_of(config).banks)


def bank_files(config: Config, roots: Sequence[Path]) -> Iterator[Path]:
    """The bank files under ``roots``, as a run under ``config`` walks them (``walk_files``)."""
    return walk_files(walk_of(config), roots)


def walk_files(walk: Walk, roots: Sequence[Path]) -> Iterator[Path]:
    """The bank files under ``roots`` (files named among them are always taken): the walk leaves out what the
    config's ``exclude`` globs name (as walked, or relative to the config's folder) and, unless
    ``respect-gitignore`` is off, what git ignores."""
    exclude = walk.exclude
    ignored = GitIgnored() if walk.respect_gitignore else None
    folders: dict[str, str | None] = {}   # a walked folder -> where it is relative to the config's, once each

    def skip(path: Path, is_folder: bool) -> bool:
        if ignored is not None and ignored(path, is_folder):
            return True
        if is_folder or not exclude:
            return False
        parent = str(path.parent)
        if parent not in folders:
            folders[parent] = _below(Path(parent), walk.root)
        rel = folders[parent]
        return rel is not None and matches_glob(Path(rel, path.name), exclude)

    return discover_banks(list(roots), exclude, walk.limits, skip)


def _below(path: Path, root: Path) -> str | None:
    """``path`` relative to ``root`` when it lies inside it (symbolic links resolved), else None."""
    real = Path(os.path.realpath(path))
    return real.relative_to(root).as_posix() if real.is_relative_to(root) else None


def force_excluded(walk: Walk, path: Path) -> bool:
    """True when a path named on the command line is no bank file under ``--force-exclude``: it matches an
    ``exclude`` glob (as named, or relative to the config's folder), lies in a hidden or tool folder that a walk
    would skip, or lies outside every configured bank ``paths``. pre-commit names every changed YAML file, and a
    repository's .pre-commit-config.yaml or CI YAML must never be read as questions."""
    real = Path(os.path.realpath(path))
    try:   # without a config file, the root is only the first named file's folder: hidden folders count from here
        rel = real.relative_to(walk.base)
    except ValueError:
        rel = None
    exclude = walk.exclude
    if matches_glob(path, exclude) or (rel is not None and matches_glob(rel, exclude)):
        return True
    if walk.respect_gitignore and GitIgnored()(path, parents=True):
        return True
    if rel is not None and any(part.startswith(".") or part in SKIP_DIRS for part in rel.parts):
        return True
    banks = [Path(os.path.realpath(p)) for p in walk.banks]
    return bool(banks) and not any(real == bank or bank in real.parents for bank in banks)


def run_check(paths: list[str], *, config_path: str | None = None, select: list[str] | None = None,
              extend_select: Sequence[str] = (), ignore: Sequence[str] = (), stdin: bytes | BinaryIO | None = None,
              stdin_filename: str | None = None, jobs: int | None = None, use_cache: bool = True,
              keep_questions: bool = False, progress: bool = False, source_format: str | None = None,
              force_exclude: bool = False, overrides: Sequence[Override] = (), publish: bool = False) -> Run:
    """Check the given paths (``["-"]`` with ``stdin``, bytes or a binary stream, checks standard input). With
    ``force_exclude``, named paths that ``force_excluded`` rejects are left out (and listed in ``Run.excluded``).
    With ``publish``, what every bank rule publishes is computed with the bank rules, once (``Run.published``);
    with ``keep_questions`` every outcome carries its loaded questions (the report, the item analysis). Either way
    the cache is used as by any check: what it cannot hold is read again, never the whole run checked again."""
    use_stdin = paths == ["-"]
    config, registry = setup(config_path, config_start(paths, stdin_filename), overrides)
    try:
        active = resolve_rules(config, registry, select=select, extend_select=extend_select, ignore=ignore)
        # --from: files whose suffix does not settle their format are read as this one
        stages = resolve(config, registry, source_format)
    except ConfigError as exc:
        raise SetupError(str(exc)) from None
    limits = stages.limits
    targets, excluded = checked_paths(paths, config, stdin_filename=stdin_filename, force_exclude=force_exclude,
                                      walk=stages.walk)
    if excluded and not targets:   # nothing named is a bank file: nothing to check, not even the rest of the bank
        return Run(config, registry, active, [], [], set(), excluded=excluded, stages=stages)

    jobs = jobs or default_jobs()
    # the bank stage's tables are published over every question's features, also when the cache holds its findings
    complete = keep_questions or publish
    if use_stdin:
        read = (relative(Path(stdin_filename)) if stdin_filename else "<stdin>", _read_stdin(stdin, limits))
        outcomes, processed, report_only = _stdin_outcomes(read, stdin_filename, stages, registry, active, jobs=jobs,
                                                           use_cache=use_cache, keep=keep_questions,
                                                           complete=complete)
    else:
        read = None
        outcomes, processed, report_only = _file_outcomes(targets, stages, registry, active, jobs=jobs,
                                                          use_cache=use_cache, keep=keep_questions,
                                                          complete=complete, progress=progress)
    surveys: dict[str, Any] = {}
    findings = _findings(outcomes, processed, report_only, stages.ignores, registry, active, surveys)
    shown = [o for o in outcomes if report_only is None or o.path in report_only]
    named_only = stdin_filename is not None if use_stdin else all(os.path.isfile(p) for p in targets)
    alone = named_only and not stages.walk.banks and any(isinstance(a.rule, BankRule) for a in active)
    run = Run(config, registry, active, outcomes, findings, report_only, shown, read, excluded, alone, stages,
              surveys=surveys, index=processed.index if processed and not use_stdin and report_only is None else None)
    if publish:   # the bank stage's tables, beside its findings: the report shows them, never computing them again
        for rule in registry:
            if isinstance(rule, BankRule) and rule.publish is not None:
                run.published(rule.name)
    return run


def config_start(paths: Sequence[str], stdin_filename: str | None = None) -> Path:
    """Where the search for a config starts: the first path named (standard input's by its --stdin-filename),
    else the working folder."""
    if list(paths) == ["-"]:
        return Path(stdin_filename) if stdin_filename else Path.cwd()
    return Path(paths[0]) if paths else Path.cwd()


def checked_paths(paths: list[str], config: Config, *, stdin_filename: str | None = None,
                  force_exclude: bool = False, walk: Walk | None = None) -> tuple[list[Path], list[str]]:
    """What a run checks: the paths given (the config's ``paths``, else the working folder, when none are), less
    those ``--force-exclude`` leaves out, and those it left out. Standard input (``["-"]``) is judged by the name
    ``--stdin-filename`` gives it, as an editor passes it."""
    use_stdin = paths == ["-"]
    absent = [p for p in config.settings.paths if not (config.root / p).exists()]
    if absent:   # a misspelt bank folder would leave named files uncompared, and --force-exclude would skip them all
        where = config.origins.get("paths") or str(config.source or "config")
        raise SetupError(f"{where}: paths: {absent[0]!r} does not exist in {config.root}; name the bank's folders "
                         "as they are (a missing one would leave files uncompared, or skipped by --force-exclude)")
    targets = [Path(p) for p in paths] or [config.root / p for p in config.settings.paths] or [Path.cwd()]
    missing = [p for p in targets if not use_stdin and not os.path.lexists(p)]
    if missing:
        raise SetupError(f"no such file or folder: {missing[0]}")
    named = ([Path(stdin_filename)] if stdin_filename else []) if use_stdin else targets
    walk = walk or walk_of(config)
    excluded = [relative(p) for p in named if force_exclude and force_excluded(walk, p)]
    if excluded:
        targets = [] if use_stdin else [p for p in targets if relative(p) not in excluded]
    return targets, excluded


def files_to_check(paths: list[str], config: Config, *, stdin_filename: str | None = None,
                   force_exclude: bool = False) -> list[str]:
    """The files a run with these paths reports on, as it names them (``--show-files``)."""
    targets, _ = checked_paths(paths, config, stdin_filename=stdin_filename, force_exclude=force_exclude)
    if paths == ["-"]:
        return [relative(Path(stdin_filename)) if stdin_filename else "<stdin>"] if targets else []
    return [relative(f) for f in bank_files(config, targets)]


Gathered = tuple[list[CheckedFile], "Batch | None", "set[str] | None"]   # outcomes, bank cache, report only


def _stdin_outcomes(read: tuple[str, bytes | OSError], stdin_filename: str | None, stages: Stages,
                    registry: Registry, active: list[ActiveRule], *, jobs: int, use_cache: bool, keep: bool,
                    complete: bool) -> Gathered:
    """Standard input's outcome and, for an editor's buffer (``--stdin-filename``) when bank rules are on, those of
    the rest of the bank on disk (its own file on disk left out); only the buffer is then reported on."""
    name, data = read
    outcomes = [_stdin_outcome(name, data, active, stages.limits, keep)]
    if not stdin_filename or not any(isinstance(a.rule, BankRule) for a in active):
        return outcomes, None, None
    here = os.path.realpath(stdin_filename)
    roots = [u for u in stages.walk.banks if os.path.exists(u)]
    if not roots:   # no config names a bank: the buffer is checked alone
        return outcomes, None, None
    others = [f for f in walk_files(stages.walk, roots) if os.path.realpath(f) != here]
    # the buffer is not on disk: its bank findings are not for the cache (bank_before None)
    processed = process_all(others, stages.limits, stages.cache, registry, _bank_only(active), jobs=jobs, use_cache=use_cache,
                            keep=keep, progress=False, bank_before=None, complete=complete)
    return outcomes + processed.files, processed, {name}


def _file_outcomes(targets: list[Path], stages: Stages, registry: Registry, active: list[ActiveRule], *, jobs: int,
                   use_cache: bool, keep: bool, complete: bool, progress: bool) -> Gathered:
    """The outcomes of the files under ``targets``. When only files are named (pre-commit passes the changed
    ones) and bank rules are on, the rest of the bank is checked with them, and only the named files (and a named
    package's entries) are reported on."""
    files = list(walk_files(stages.walk, targets))
    if not (all(os.path.isfile(p) for p in targets) and any(isinstance(a.rule, BankRule) for a in active)):
        processed = process_all(files, stages.limits, stages.cache, registry, active, jobs=jobs,
                                use_cache=use_cache, keep=keep, progress=progress, complete=complete)
        return processed.files, processed, None
    report_only = {relative(f) for f in files}
    processed = _named_in_bank(files, stages, registry, active, jobs=jobs, use_cache=use_cache, keep=keep,
                               complete=complete, progress=progress)
    report_only |= {p for o in processed.files if o.path in report_only
                    for p in [*(f.path for f in o.findings), *(i.path for i in o.items)]}
    return processed.files, processed, report_only


def _findings(outcomes: list[CheckedFile], processed: Batch | None, report_only: set[str] | None,
              ignores: Ignores, registry: Registry, active: list[ActiveRule], surveys: dict[str, Any]) -> list[Finding]:
    """Every finding to report: the files' own, the bank rules' (from the cache when it holds them for exactly
    these files), with suppressions, per-file ignores and the report filter applied; what the bank rules'
    surveys found, when they ran, goes into ``surveys``."""
    memo: dict[str, frozenset[str]] = {}

    def ignored(path: str) -> frozenset[str]:
        if path not in memo:
            memo[path] = ignores.of(path)
        return memo[path]

    findings = [f for o in outcomes for f in o.findings]
    bank = processed.bank if processed is not None else None
    if bank is None:
        bank = check_bank([i for o in outcomes for i in o.items], active, processed.stores if processed else None,
                          with_rejected(outcomes), surveys)
        if processed is not None and processed.store_bank is not None:
            processed.store_bank(bank)
    if report_only is not None:
        # a verdict about the whole bank (key balance) belongs to no changed file: only per-question ones are shown
        bank = [f for f in bank if f.question is not None]
    findings += bank
    findings = finish(outcomes, findings, active, ignored=ignored if ignores else None,
                      report_only=report_only, all_rules=[r.name for r in registry] + [r.code for r in registry])
    if registry.problems:
        findings += [finding(problem.plugin, 1, 1, INTERNAL_ERROR,
                             f"plugin failed to load: {problem.message}") for problem in registry.problems]
        findings.sort(key=Finding.sort_key)
    return findings


def _bank_only(active: Sequence[ActiveRule]) -> list[ActiveRule]:
    """The rules a file that is not reported on must still go through: the bank rules, whose features
    (``extract``) of its questions the whole-bank check compares with the named files' questions."""
    return [a for a in active if isinstance(a.rule, BankRule)]


def _named_in_bank(files: list[Path], stages: Stages, registry: Registry, active: list[ActiveRule], *,
                   jobs: int, use_cache: bool, keep: bool, complete: bool, progress: bool) -> Batch:
    """The outcomes of the named ``files`` and of the rest of the bank they belong to, in that order. Only the
    named files go through every rule; the rest, whose own findings are not reported, go through the bank rules
    alone (under their own cache key), which costs little more than loading them. The bank findings are cached
    under the digests of all of them, in the same order, so a run naming other files never reuses them; when they
    are, the rest's outcomes are not read at all (nothing of them would be reported), unless the run wants every
    outcome ``complete`` (it publishes the bank rules' tables, or keeps the questions)."""
    named = {os.path.realpath(f) for f in files}
    rest = [f for f in walk_files(stages.walk, [u for u in stages.walk.banks if os.path.exists(u)])
            if os.path.realpath(f) not in named]

    def named_files(features: bool) -> Batch:
        return process_all(files, stages.limits, stages.cache, registry, active, jobs=jobs, use_cache=use_cache, keep=keep,
                           progress=False, bank_before=None, signatures=False, features=features, complete=complete)

    # the named files' features are read from the cache only if the bank findings must be computed again
    first = named_files(features=False)
    before = None if any(d is None for d in first.digests) else first.digests
    processed = process_all(rest, stages.limits, stages.cache, registry, _bank_only(active), jobs=jobs,
                            use_cache=use_cache, keep=keep, progress=progress, bank_before=before,
                            for_bank=True, complete=complete)  # type: ignore[arg-type]
    if processed.bank is None and first.from_cache and not complete:
        first = named_files(features=True)   # the entries read again, with the features this time
    processed.files = first.files + processed.files
    return processed


def _read_stdin(stdin: bytes | BinaryIO | None, limits: Limits) -> bytes | OSError:
    """Standard input's bytes, never more than the limit and one byte: an endless or huge stdin costs no more
    than a file may. An error reading it comes back to be reported."""
    if not hasattr(stdin, "read"):
        return stdin or b""  # type: ignore[return-value]
    try:
        return stdin.read(limits.max_file_size + 1)  # type: ignore[union-attr]
    except OSError as exc:
        return exc


def _stdin_outcome(name: str, data: bytes | OSError, active: Sequence[ActiveRule], limits: Limits,
                   keep: bool) -> CheckedFile:
    """Standard input checked as one file; over max-file-size, or unreadable, it is a parse-error finding, as a
    file is."""
    setup = FileSetup(tuple(active), limits, keep)
    if isinstance(data, bytes) and len(data) <= limits.max_file_size:
        return check_source(data, name, setup, Path(name))
    limit = limits.max_file_size
    shown = f"{limit / 1048576:.0f} MB" if limit >= 1048576 else f"{limit:,} bytes"
    message = (f"cannot read standard input: {data.strerror or type(data).__name__}" if isinstance(data, OSError)
               else f"standard input is over the {shown} limit (max-file-size); it was not read further")
    return check_source(None, name, setup, problem=message)


def check_sources(sources: Sequence[tuple[str, bytes]], active: Sequence[ActiveRule], *,
                  limits: Limits | None = None, all_rules: Sequence[str] = (),
                  report_only: set[str] | None = None) -> list[Finding]:
    """Everything qlint reports for these in-memory files (name, bytes), with no discovery and no cache: the same
    per-file path, bank rules and suppressions as ``run_check``, for examples and tests."""
    setup = FileSetup(tuple(active), limits or Limits())
    outcomes = [check_source(data, name, setup, Path(name)) for name, data in sources]
    findings = [f for o in outcomes for f in o.findings]
    findings += check_bank([i for o in outcomes for i in o.items], active, with_rejected=with_rejected(outcomes))
    return finish(outcomes, findings, active, all_rules=all_rules, report_only=report_only)
