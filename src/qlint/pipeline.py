"""One check run, end to end: config -> registry -> loader -> engine. Shared by check, report and stats.

Per-file work (read, parse, validate, question rules, bank features) runs in worker
processes when there is enough of it, and its outcome is cached by content hash in
``.qlint_cache/``. Whole-bank rules run over every file's BankItems whenever any file changed (their findings
for an unchanged set of files are reused); a rule with ``memo`` may keep its work in the cache between runs.
"""
from __future__ import annotations

import gc
import os
import stat
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from qlint.cache import Cache, config_key, encoded
from qlint.cache import decode as decode_outcome
from qlint.config import ActiveRule, Config, ConfigError, ignored_for, load_config, resolve_rules
from qlint.engine import check_bank, check_file, finish, timed_out
from qlint.finding import Finding, Severity
from qlint.formats import discover_banks, with_source_format
from qlint.formats import read as read_bank
from qlint.items import FileOutcome
from qlint.loader import PARSE_ERROR, SKIP_DIRS, FileResult, Limits, discover, load_file, load_text, matches_glob, read_limited
from qlint.packs import PackError
from qlint.registry import Registry, RegistryError, load_registry
from qlint.rule import BankRule

PARALLEL_MIN_BYTES = 2 * 1024 * 1024  # below this, starting workers costs more than it saves


class SetupError(Exception):
    """Bad arguments, configuration, rule packs or plugins: the CLI exits 2."""


@dataclass
class Run:
    """What a check produced, and everything needed to explain it."""

    config: Config
    registry: Registry
    active: list[ActiveRule]
    results: list[FileOutcome]   # named files first; the rest of their bank only when its entries were read
    findings: list[Finding]
    report_only: set[str] | None = None
    shown: list[FileOutcome] = field(default_factory=list)
    stdin: tuple[str, bytes | OSError] | None = None   # the name and the bytes read from standard input
    excluded: list[str] = field(default_factory=list)   # paths named but left out by --force-exclude

    def published(self, name: str) -> tuple[Any, Any, bool]:
        """What bank rule ``name`` publishes about every question this run read (its ``publish``; None when it has
        none, or when it needs per-question features and did not run), the options it used (the rule's defaults when
        it did not run), and whether it ran. The bank report reads a rule's results here, never recomputing them."""
        chosen = next((a for a in self.active if a.rule.name == name), None)
        rule = chosen.rule if chosen is not None else self.registry.get(name)
        if rule is None:
            return None, None, False
        options = chosen.options if chosen is not None else rule.options()
        publish = getattr(rule, "publish", None)
        if publish is None or (chosen is None and getattr(rule, "extract", None) is not None):
            return None, options, chosen is not None
        return publish([i for o in self.results for i in o.items], options), options, chosen is not None


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


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


# --- per-file work, in this process or in workers ---------------------------------------------
_WORKER: tuple[list[ActiveRule], Limits, bool, Path | None] | None = None


def _init_worker(active: list[ActiveRule], limits: Limits, keep: bool, cache_folder: Path | None) -> None:
    global _WORKER  # one per worker process, set once by the pool initializer
    _WORKER = (active, limits, keep, cache_folder)
    gc.disable()  # workers hold no cycles worth collecting; the collector's passes cost more than parsing


def process(path: Path, display: str, active: Sequence[ActiveRule], limits: Limits, keep: bool,
            data: bytes | None = None) -> FileOutcome:
    """Load one file and run everything that depends on it alone."""
    if data is None:
        result = load_file(path, display, limits)
    else:   # the reader the file's format takes: YAML, GIFT, Aiken, Moodle XML, QTI
        result = read_bank(data, display, limits, path)
    return check_file(result, active, keep, limits.rule_time_budget)


Checked = tuple["FileOutcome | str", "str | None", "Signature | None"]   # outcome (or its encoding), digest, stat


def check_one(path: Path, display: str, active: Sequence[ActiveRule], limits: Limits, keep: bool,
              cache: Cache | None, want_text: bool = False) -> tuple[FileOutcome, str | None, str | None,
                                                                     Signature | None]:
    """Read, check and (when there is a cache) store one file's outcome under the hash of what was read. Returns
    the outcome; its cache encoding when there is a cache or ``want_text`` (None when it has none: kept
    questions, or a feature JSON cannot carry); and, with a cache, the file's digest and stat signature."""
    data, signature = _read(path, limits)  # data None: too big or unreadable, and load_file says so
    outcome = process(path, display, active, limits, keep, data)
    text = encoded(outcome) if (cache is not None or want_text) and not keep else None
    digest = Cache.digest(display, data) if cache is not None and data is not None else None
    if digest is not None and text is not None and not timed_out(outcome):  # a timeout depends on the clock
        cache.put(digest, text)  # type: ignore[union-attr]
    return outcome, text, digest, signature


def _work(job: tuple[Path, str]) -> Checked:
    """One file's outcome in a worker, sent back as its cache encoding when it has one: the worker encodes it
    for the cache anyway, and the main process decodes that JSON in less than half the time unpickling the
    objects takes (and the worker skips pickling them), which counts on a cold run of a big bank."""
    active, limits, keep, folder = _WORKER  # type: ignore[misc]
    outcome, text, digest, signature = check_one(job[0], job[1], active, limits, keep,
                                                 Cache(folder) if folder else None, True)
    # a finding's proposed fix is no part of the encoding: outcomes with fixes (a --fix run) travel whole
    whole = text is None or any(f.fix is not None for f in outcome.findings)
    return (outcome if whole else text), digest, signature   # type: ignore[return-value]


class _Progress:
    """A one-line progress bar on a terminal, only for runs long enough to need one; never under CI or pre-commit."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.done, self.start = total, 0, time.monotonic()
        self.enabled = enabled and total > 1 and sys.stderr.isatty() and not (
            os.environ.get("CI") or os.environ.get("PRE_COMMIT") or os.environ.get("QLINT_NO_PROGRESS"))
        self.last = 0.0

    def step(self) -> None:
        self.done += 1
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < 2.0 or now - self.last < 0.1:
            return
        self.last = now
        width = 30
        filled = int(width * self.done / self.total)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} files")
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled and self.last:
            sys.stderr.write("\r" + " " * 60 + "\r")
            sys.stderr.flush()


Signature = tuple[int, int, int, int, int]   # size, mtime and ctime (ns), inode, device


def _read(path: Path, limits: Limits, unchanged: Signature | None = None
          ) -> tuple[bytes | None, Signature | None]:
    """A file's bytes for hashing (None when it must go through load_file's own checks: too big, unreadable) and
    its stat signature, taken before reading. A file whose signature is ``unchanged`` (one trusted from an
    earlier run) is not read: its bytes come back as None."""
    try:
        # O_NONBLOCK: a FIFO must not hang the run (load_file then reports it as not a regular file)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
        with open(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_size > limits.max_file_size:
                return None, None
            signature = (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev)
            if signature == unchanged:
                return None, signature
            data = read_limited(handle, info.st_size, limits.max_file_size)
    except OSError:
        return None, None
    return (data, signature) if len(data) <= limits.max_file_size else (None, None)


@dataclass
class Outcomes:
    """Every file's outcome, in file order, and the whole-bank findings when the cache already holds them."""

    files: list[FileOutcome]
    bank: list[Finding] | None = None
    store_bank: Callable[[list[Finding]], None] | None = None   # keeps freshly computed bank findings
    memo: Path | None = None   # where bank rules keep their work between runs
    digests: list[str | None] = field(default_factory=list)   # each file's content digest, when there is a cache


def process_all(files: Sequence[Path], config: Config, registry: Registry, active: list[ActiveRule], *,
                jobs: int, use_cache: bool, keep: bool, progress: bool,
                bank_before: Sequence[str] | None = (), signatures: bool = True, for_bank: bool = False) -> Outcomes:
    """Per-file outcomes for every file, from the cache where the content is unchanged.

    The bank findings cached (and to be cached) are those of the files whose digests are ``bank_before`` followed
    by these files: a run that checks a bank in parts names the digests of the parts checked before. With
    ``bank_before`` None no bank findings are looked up or stored (these files are not the whole bank). With
    ``signatures`` False the stat signatures the cache keeps are left as they are: a few files named out of a
    bank would otherwise replace those of the whole bank that a full run with the same rules relies on. With
    ``for_bank`` the files matter only for the bank findings (their own findings are not reported): when the cache
    holds those, the files' entries are not read and ``files`` is empty."""
    gc_was_enabled = gc.isenabled()
    gc.disable()  # the outcomes stay alive to the end: collecting them over and over only costs time
    try:
        return _process_all(files, config, registry, active, jobs=jobs, use_cache=use_cache, keep=keep,
                            progress=progress, bank_before=bank_before, signatures=signatures, for_bank=for_bank)
    finally:
        if gc_was_enabled:
            gc.enable()


def _process_all(files: Sequence[Path], config: Config, registry: Registry, active: list[ActiveRule], *,
                 jobs: int, use_cache: bool, keep: bool, progress: bool,
                 bank_before: Sequence[str] | None, signatures: bool, for_bank: bool) -> Outcomes:
    limits = config.settings.limits
    cache = Cache.open(config, config_key(config, registry, active)) if use_cache and not keep else None
    displays = [relative(f) for f in files]
    started = time.time_ns()
    # an empty cache (the first run of a key) can hit nothing: files are hashed as they are checked, not before
    fresh = cache is not None and cache.empty()
    digests = _digests(files, displays, limits, jobs, cache, signatures) if cache is not None and not fresh else None
    result = Outcomes([], memo=cache.folder / "memo" if cache is not None else None,
                      digests=[d for d, _ in digests] if digests is not None else [None] * len(files))
    if cache is not None and digests is not None:
        _keep_bank(result, cache, bank_before)
        if for_bank and result.bank is not None:
            return result   # a warm pre-commit run: nothing in these files is needed
    outcomes, todo, total_bytes = _cache_hits(files, displays, digests, cache, features=result.bank is None)
    bar = _Progress(len(files), progress)
    bar.done = len(files) - len(todo)
    jobs = min(jobs, len(todo))
    if jobs > 1 and total_bytes >= PARALLEL_MIN_BYTES:
        results: Iterator[Checked] = _parallel([(p, d) for _, p, d in todo], active, limits, keep, cache, jobs)
    else:
        results = _serial(todo, active, limits, keep, cache)
    seen: dict[str, tuple[Signature, str]] = {}
    for (index, _, display), (outcome, digest, signature) in zip(todo, results):
        outcomes[index] = decode_outcome(outcome) if isinstance(outcome, str) else outcome
        if fresh and digest is not None and signature is not None:
            seen[display] = (signature, digest)
        bar.step()
    bar.close()
    if fresh:   # what the hashing pass would have found and recorded
        if signatures:
            cache.put_signatures(seen, started)  # type: ignore[union-attr]
        result.digests = [seen[d][1] if d in seen else None for d in displays]
        _keep_bank(result, cache, bank_before)  # type: ignore[arg-type]
    result.files = outcomes  # type: ignore[assignment]
    return result


def _cache_hits(files: Sequence[Path], displays: list[str], digests: list[tuple[str | None, int]] | None,
                cache: Cache | None, features: bool
                ) -> tuple[list[FileOutcome | None], list[tuple[int, Path, str]], int]:
    """The outcomes the cache holds (None where it holds none), the files left to check, and their bytes."""
    outcomes: list[FileOutcome | None] = [None] * len(files)
    todo: list[tuple[int, Path, str]] = []
    total_bytes = 0
    for index, (path, display) in enumerate(zip(files, displays)):
        if digests is not None:
            digest, size = digests[index]
            hit = cache.get(digest, features=features) if digest is not None else None  # type: ignore[union-attr]
            if hit is not None:
                outcomes[index] = hit
                continue
            total_bytes += size
        else:
            total_bytes += _size(path)
        todo.append((index, path, display))  # workers read the file again (from the page cache) themselves
    return outcomes, todo, total_bytes


def _serial(todo: list[tuple[int, Path, str]], active: list[ActiveRule], limits: Limits, keep: bool,
            cache: Cache | None) -> Iterator[Checked]:
    for _, path, display in todo:
        outcome, _, digest, signature = check_one(path, display, active, limits, keep, cache)
        yield outcome, digest, signature


def _keep_bank(result: Outcomes, cache: Cache, before: Sequence[str] | None) -> None:
    """The bank findings of exactly the files ``before`` and these, if a run before this one stored them, and where
    to store them; nothing when ``before`` is None or a file has no digest (its content is unknown)."""
    if before is None or any(d is None for d in result.digests):
        return
    name = Cache.bank_name([*before, *result.digests])  # type: ignore[list-item]
    result.bank = cache.get_bank(name)
    result.store_bank = lambda found: cache.put_bank(name, found)


def _digest_one(job: tuple[Path, str, Limits, tuple[Signature, str] | None]
                ) -> tuple[str | None, int, Signature | None]:
    path, display, limits, known = job   # known: the (signature, digest) an earlier run recorded
    data, signature = _read(path, limits, known[0] if known else None)
    if data is not None:
        return Cache.digest(display, data), len(data), signature
    if signature is not None and known is not None:
        return known[1], signature[0], signature
    return None, 0, None


def _digests(files: Sequence[Path], displays: Sequence[str], limits: Limits, jobs: int,
             cache: Cache, record: bool = True) -> list[tuple[str | None, int]]:
    """Content digest and size of every file. Threads suffice: reading and hashing release the GIL.

    Like git's index, a file whose stat signature (size, mtime, ctime, inode, device) is unchanged since an
    earlier run hashed it is not read again; only signatures older than that run by two seconds are trusted, so
    an edit within the same clock tick is still seen. A fresh checkout (CI) changes every signature and hashes
    every file.
    """
    started = time.time_ns()   # a signature is trusted next time only if it predates this by two seconds
    # on Windows st_ctime is the creation time, which an edit does not change: every file is hashed there
    known = cache.signatures() if os.name != "nt" else {}
    jobs_list = [(path, display, limits, known.get(display)) for path, display in zip(files, displays)]
    if jobs <= 1 or len(jobs_list) < 64:
        results = [_digest_one(job) for job in jobs_list]
    else:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(jobs) as pool:
            results = list(pool.map(_digest_one, jobs_list, chunksize=16))
    seen = {display: (signature, digest) for display, (digest, _, signature) in zip(displays, results)
            if signature is not None and digest is not None}
    if record and seen != known:
        cache.put_signatures(seen, started)
    return [(digest, size) for digest, size, _ in results]


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _parallel(jobs_list: list[tuple[Path, str]], active, limits, keep, cache: Cache | None,
              jobs: int) -> Iterator[Checked]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    chunk = max(1, min(4, len(jobs_list) // (jobs * 8) or 1))   # small: the last chunks leave no worker idle for long
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_init_worker,
                             initargs=(active, limits, keep, cache.folder if cache else None)) as pool:
        yield from pool.map(_work, jobs_list, chunksize=chunk)


def bank_roots(config: Config, files: Sequence[Path]) -> list[Path]:
    """The whole bank that named files belong to: the config's ``paths`` (relative to its folder), else the
    config's folder, else the git work tree holding the files, else the folder the files share."""
    if config.settings.paths:
        return [config.root / p for p in config.settings.paths]
    if config.source is not None:
        return [config.root]
    folders = [Path(os.path.realpath(f)).parent for f in files]
    common = Path(os.path.commonpath(folders)) if folders else Path.cwd()
    for folder in (common, *common.parents):
        if (folder / ".git").exists():
            return [folder]
    return [common]


def force_excluded(config: Config, path: Path) -> bool:
    """True when a path named on the command line is no bank file under ``--force-exclude``: it matches an
    ``exclude`` glob (as named, or relative to the config's folder), lies in a hidden or tool folder that a walk
    would skip, or lies outside every configured bank ``paths``. pre-commit names every changed YAML file, and a
    repository's .pre-commit-config.yaml or CI YAML must never be read as questions."""
    real = Path(os.path.realpath(path))
    # without a config file, the root is only the first named file's folder: hidden folders count from here
    base = config.root if config.source is not None else Path(os.path.realpath(Path.cwd()))
    try:
        rel = real.relative_to(base)
    except ValueError:
        rel = None
    exclude = tuple(config.settings.exclude)
    if matches_glob(path, exclude) or (rel is not None and matches_glob(rel, exclude)):
        return True
    if rel is not None and any(part.startswith(".") or part in SKIP_DIRS for part in rel.parts):
        return True
    banks = [Path(os.path.realpath(config.root / p)) for p in config.settings.paths]
    return bool(banks) and not any(real == bank or bank in real.parents for bank in banks)


def run_check(paths: list[str], *, config_path: str | None = None, select: list[str] | None = None,
              extend_select: Sequence[str] = (), ignore: Sequence[str] = (), stdin: bytes | BinaryIO | None = None,
              stdin_filename: str | None = None, jobs: int | None = None, use_cache: bool = True,
              keep_questions: bool = False, progress: bool = False, source_format: str | None = None,
              force_exclude: bool = False) -> Run:
    """Check the given paths (``["-"]`` with ``stdin``, bytes or a binary stream, checks standard input). With
    ``force_exclude``, named paths that ``force_excluded`` rejects are left out (and listed in ``Run.excluded``)."""
    use_stdin = paths == ["-"]
    targets = [Path(p) for p in paths]
    start = Path(stdin_filename) if use_stdin and stdin_filename else (targets[0] if targets else Path.cwd())
    config, registry = setup(config_path, start)
    if source_format:   # --from: files whose suffix does not settle their format are read as this one
        config = with_source_format(config, source_format)
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
    # standard input is judged by the name it stands for, as an editor passes it
    named = ([Path(stdin_filename)] if stdin_filename else []) if use_stdin else targets
    excluded = [relative(p) for p in named if force_exclude and force_excluded(config, p)]
    if excluded:
        targets = [] if use_stdin else [p for p in targets if relative(p) not in excluded]
        if not targets:   # nothing named is a bank file: nothing to check, not even the rest of the bank
            return Run(config, registry, active, [], [], set(), excluded=excluded)

    jobs = jobs or default_jobs()
    if use_stdin:
        read = (relative(Path(stdin_filename)) if stdin_filename else "<stdin>", _read_stdin(stdin, limits))
        outcomes, processed, report_only = _stdin_outcomes(read, stdin_filename, config, registry, active, jobs=jobs,
                                                           use_cache=use_cache, keep=keep_questions)
    else:
        read = None
        outcomes, processed, report_only = _file_outcomes(targets, config, registry, active, jobs=jobs,
                                                          use_cache=use_cache, keep=keep_questions,
                                                          progress=progress)
    findings = _findings(outcomes, processed, report_only, config, registry, active)
    shown = [o for o in outcomes if report_only is None or o.path in report_only]
    return Run(config, registry, active, outcomes, findings, report_only, shown, read, excluded)


Gathered = tuple[list[FileOutcome], "Outcomes | None", "set[str] | None"]   # outcomes, bank cache, report only


def _stdin_outcomes(read: tuple[str, bytes | OSError], stdin_filename: str | None, config: Config,
                    registry: Registry, active: list[ActiveRule], *, jobs: int, use_cache: bool, keep: bool
                    ) -> Gathered:
    """Standard input's outcome and, for an editor's buffer (``--stdin-filename``) when bank rules are on, those of
    the rest of the bank on disk (its own file on disk left out); only the buffer is then reported on."""
    name, data = read
    outcomes = [_stdin_outcome(name, data, active, config.settings.limits, keep)]
    if not stdin_filename or not any(isinstance(a.rule, BankRule) for a in active):
        return outcomes, None, None
    here = os.path.realpath(stdin_filename)
    others = [f for f in discover([u for u in bank_roots(config, [Path(stdin_filename)]) if u.is_dir()],
                                  tuple(config.settings.exclude)) if os.path.realpath(f) != here]
    # the buffer is not on disk: its bank findings are not for the cache (bank_before None)
    processed = process_all(others, config, registry, _bank_only(active), jobs=jobs, use_cache=use_cache,
                            keep=keep, progress=False, bank_before=None)
    return outcomes + processed.files, processed, {name}


def _file_outcomes(targets: list[Path], config: Config, registry: Registry, active: list[ActiveRule], *, jobs: int,
                   use_cache: bool, keep: bool, progress: bool) -> Gathered:
    """The outcomes of the files under ``targets``. When only files are named (pre-commit passes the changed
    ones) and bank rules are on, the rest of the bank is checked with them, and only the named files (and a named
    package's entries) are reported on."""
    limits = config.settings.limits
    files = list(discover_banks(targets, tuple(config.settings.exclude), limits, discover))
    if not (all(p.is_file() for p in targets) and any(isinstance(a.rule, BankRule) for a in active)):
        processed = process_all(files, config, registry, active, jobs=jobs, use_cache=use_cache, keep=keep,
                                progress=progress)
        return processed.files, processed, None
    report_only = {relative(f) for f in files}
    processed = _named_in_bank(files, config, registry, active, jobs=jobs, use_cache=use_cache, keep=keep,
                               progress=progress)
    report_only |= {p for o in processed.files if o.path in report_only
                    for p in [*(f.path for f in o.findings), *(i.path for i in o.items)]}
    return processed.files, processed, report_only


def _findings(outcomes: list[FileOutcome], processed: Outcomes | None, report_only: set[str] | None,
              config: Config, registry: Registry, active: list[ActiveRule]) -> list[Finding]:
    """Every finding to report: the files' own, the bank rules' (from the cache when it holds them for exactly
    these files), with suppressions, per-file ignores and the report filter applied."""
    memo: dict[str, frozenset[str]] = {}

    def ignored(path: str) -> frozenset[str]:
        if path not in memo:
            try:
                rel = Path(os.path.relpath(os.path.realpath(path), config.root)).as_posix()
            except ValueError:
                rel = path
            memo[path] = ignored_for(config, registry, rel)
        return memo[path]

    findings = [f for o in outcomes for f in o.findings]
    bank = processed.bank if processed is not None else None
    if bank is None:
        bank = check_bank([i for o in outcomes for i in o.items], active, processed.memo if processed else None)
        if processed is not None and processed.store_bank is not None:
            processed.store_bank(bank)
    if report_only is not None:
        # a verdict about the whole bank (key balance) belongs to no changed file: only per-question ones are shown
        bank = [f for f in bank if f.question is not None]
    findings += bank
    findings = finish(outcomes, findings, active, ignored=ignored if config.settings.per_file_ignores else None,
                      report_only=report_only, all_rules=[r.name for r in registry] + [r.code for r in registry])
    if registry.problems:
        findings += [Finding(problem.plugin, 1, 1, "Q901", "internal-error", Severity.ERROR,
                             f"plugin failed to load: {problem.message}") for problem in registry.problems]
        findings.sort(key=Finding.sort_key)
    return findings


def _bank_only(active: Sequence[ActiveRule]) -> list[ActiveRule]:
    """The rules a file that is not reported on must still go through: the bank rules, whose features
    (``extract``) of its questions the whole-bank check compares with the named files' questions."""
    return [a for a in active if isinstance(a.rule, BankRule)]


def _named_in_bank(files: list[Path], config: Config, registry: Registry, active: list[ActiveRule], *,
                   jobs: int, use_cache: bool, keep: bool, progress: bool) -> Outcomes:
    """The outcomes of the named ``files`` and of the rest of the bank they belong to, in that order. Only the
    named files go through every rule; the rest, whose own findings are not reported, go through the bank rules
    alone (under their own cache key), which costs little more than loading them. The bank findings are cached
    under the digests of all of them, in the same order, so a run naming other files never reuses them; when they
    are, the rest's outcomes are not read at all (nothing of them would be reported)."""
    named = {os.path.realpath(f) for f in files}
    rest = [f for f in discover_banks([u for u in bank_roots(config, files) if u.is_dir()],
                                      tuple(config.settings.exclude), config.settings.limits, discover)
            if os.path.realpath(f) not in named]
    first = process_all(files, config, registry, active, jobs=jobs, use_cache=use_cache, keep=keep,
                        progress=False, bank_before=None, signatures=False)
    before = None if any(d is None for d in first.digests) else first.digests
    processed = process_all(rest, config, registry, _bank_only(active), jobs=jobs, use_cache=use_cache, keep=keep,
                            progress=progress, bank_before=before, for_bank=True)  # type: ignore[arg-type]
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
                   keep: bool) -> FileOutcome:
    """Standard input checked as one file; over max-file-size, or unreadable, it is a parse-error finding, as a
    file is."""
    if isinstance(data, bytes) and len(data) <= limits.max_file_size:
        return process(Path(name), name, active, limits, keep, data)
    limit = limits.max_file_size
    shown = f"{limit / 1048576:.0f} MB" if limit >= 1048576 else f"{limit:,} bytes"
    message = (f"cannot read standard input: {data.strerror or type(data).__name__}" if isinstance(data, OSError)
               else f"standard input is over the {shown} limit (max-file-size); it was not read further")
    code, rule = PARSE_ERROR
    return check_file(FileResult(name, findings=[Finding(name, 1, 1, code, rule, Severity.ERROR, message)]),
                      active, keep)


def fix_text(text: str, path: str, findings: Sequence[Finding]) -> str | None:
    """``text`` with the safe fixes of these findings applied (an editor's buffer, not a file); None when the text
    cannot be rewritten safely."""
    from qlint.fix import FixError, apply_to_text, fixable

    try:
        return apply_to_text(text, fixable(findings))
    except FixError:
        return None


@dataclass
class FixOutcome:
    """What a fix pass changed (or would change): new texts by path, and files or fixes left alone with why."""

    changed: dict[str, tuple[str, str]] = field(default_factory=dict)  # path -> (old text, new text)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, reason): a file or one fix in it
    applied: int = 0


def fix_run(run: Run, *, write: bool, rounds: int = 5) -> FixOutcome:
    """Apply the safe fixes that ``run`` found, file by file, until nothing more is fixable. A file that cannot be
    read, fixed safely or written is skipped with its reason and the other files go on."""
    from qlint.fix import FixError, write_atomic

    outcome = FixOutcome()
    for path in sorted({f.path for f in run.findings if f.fix is not None}):
        data, _ = _read(Path(path), run.config.settings.limits)  # a regular file within the size limit, or None
        try:
            if data is None:
                raise FixError("cannot read it as a regular file within the size limit")
            original = data.decode("utf-8")
            if original.startswith("\ufeff"):
                raise FixError("it starts with a byte-order mark")
            text, applied, refused = _fix_text(run, path, original, rounds)
        except UnicodeDecodeError:
            outcome.skipped.append((path, "it is not valid UTF-8"))
            continue
        except FixError as exc:
            outcome.skipped.append((path, str(exc)))
            continue
        except Exception as exc:  # a fix that cannot be applied leaves the file untouched
            outcome.skipped.append((path, f"{type(exc).__name__}: {exc}"))
            continue
        outcome.skipped += [(path, reason) for reason in refused]
        if text == original:
            continue
        try:
            if write:
                write_atomic(Path(path), text, expected=data)
        except FixError as exc:
            outcome.skipped.append((path, str(exc)))
        except OSError as exc:  # a full disk, a folder we may not write to: this file only
            outcome.skipped.append((path, f"cannot write it: {exc.strerror or type(exc).__name__}"))
        else:
            outcome.changed[path] = (original, text)
            outcome.applied += applied
    return outcome


def _fix_text(run: Run, path: str, text: str, rounds: int) -> tuple[str, int, list[str]]:
    """A file's text with its fixes applied round after round (a fix can reveal another), how many went in, and
    the fixes refused in the last round, with why."""
    from qlint.fix import apply_fixes, fixable
    from qlint.suppress import apply_suppressions

    limits = run.config.settings.limits
    names = [r.name for r in run.registry] + [r.code for r in run.registry]
    applied, refused = 0, []
    for _ in range(rounds):
        checked = check_file(load_text(text, path, limits), run.active, budget=limits.rule_time_budget)
        fixes = fixable(apply_suppressions(checked.findings, [checked], run.active, names))
        if not fixes:
            break
        result = apply_fixes(text, fixes, limits)
        refused = result.refused
        if result.text == text:
            break
        applied += result.applied
        text = result.text
    return text, applied, refused
