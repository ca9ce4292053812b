"""Per-file work over many files: each file's outcome from the cache where its content is unchanged, else checked
(``qlint.run.perfile``) in this process or in worker processes, and stored.

Files are hashed first (a file whose stat signature is unchanged since an earlier run is not read again); the
bank findings of exactly these files are looked up under the hash of all their digests.
"""
from __future__ import annotations

import dataclasses
import gc
import io
import os
import pickle
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from qlint.engine import timed_out
from qlint.files import Signature, read_file, relative
from qlint.finding import Finding, Severity
from qlint.items import CheckedFile, shared, one_copy
from qlint.limits import Limits
from qlint.registry import Registry
from qlint.rule import ActiveRule, Store
from qlint.run.cache import Cache, config_key, outcome_head
from qlint.run.perfile import FileSetup, check_path, reread

if TYPE_CHECKING:
    from qlint.run.settings import CacheSettings

PARALLEL_MIN_BYTES = 2 * 1024 * 1024  # below this, starting workers costs more than it saves
WorkerReply = tuple   # outcome (or its wire form), digest, stat; and the run index's part of its cache entry


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


@dataclass
class Batch:
    """Every file's outcome, in file order, and the whole-bank findings when the cache already holds them."""

    files: list[CheckedFile]
    bank: list[Finding] | None = None
    store_bank: Callable[[list[Finding]], None] | None = None   # keeps freshly computed bank findings
    stores: Callable[[str], Store] | None = None   # where bank rules keep their work between runs (the cache)
    digests: list[str | None] = field(default_factory=list)   # each file's content digest, when there is a cache
    from_cache: int = 0   # how many of the outcomes were read from the cache
    # the run index the outcomes are under (``run_index``), when every one is that of its file's digest
    index: str | None = None


def process_all(files: Sequence[Path], limits: Limits, stored: CacheSettings, registry: Registry,
                active: list[ActiveRule], *,
                jobs: int, use_cache: bool, keep: bool, progress: bool,
                bank_before: Sequence[str] | None = (), signatures: bool = True, for_bank: bool = False,
                features: bool = True, complete: bool = False) -> Batch:
    """Per-file outcomes for every file, from the cache where the content is unchanged.

    The bank findings cached (and to be cached) are those of the files whose digests are ``bank_before`` followed
    by these files: a run that checks a bank in parts names the digests of the parts checked before. With
    ``bank_before`` None no bank findings are looked up or stored (these files are not the whole bank). With
    ``signatures`` False the stat signatures the cache keeps are left as they are: a few files named out of a
    bank would otherwise replace those of the whole bank that a full run with the same rules relies on. With
    ``for_bank`` the files matter only for the bank findings (their own findings are not reported): when the cache
    holds those, the files' entries are not read and ``files`` is empty. With ``features`` False the bank rules'
    features are not decoded from the cache (nor the modules of those rules imported): the caller knows the bank
    findings will come from the cache, or reads the entries again when they do not. With ``complete`` every
    outcome comes whole, its questions' features decoded, even when the bank findings are cached: the run
    publishes what the bank rules find (the report, a form). With ``keep`` the outcomes carry their loaded
    questions too: the cache holds none, so the files it answers for are read again by their reader alone."""
    gc_was_enabled = gc.isenabled()
    gc.disable()  # the outcomes stay alive to the end: collecting them over and over only costs time
    try:
        return _process_all(files, limits, stored, registry, active, jobs=jobs, use_cache=use_cache, keep=keep,
                            progress=progress, bank_before=bank_before, signatures=signatures, for_bank=for_bank,
                            features=features or complete or keep, complete=complete or keep)
    finally:
        if gc_was_enabled:
            gc.enable()


def _process_all(files: Sequence[Path], limits: Limits, stored: CacheSettings, registry: Registry,
                 active: list[ActiveRule], *,
                 jobs: int, use_cache: bool, keep: bool, progress: bool,
                 bank_before: Sequence[str] | None, signatures: bool, for_bank: bool, features: bool,
                 complete: bool) -> Batch:
    setup = FileSetup(tuple(active), limits, keep)
    cache = Cache.open(stored.location, config_key(stored, registry, active), setup.codecs) if use_cache else None
    displays = [relative(f) for f in files]
    started = time.time_ns()
    # an empty cache (the first run of a key) can hit nothing: files are hashed as they are checked, not before
    fresh = cache is not None and cache.empty()
    digests = _digests(files, displays, limits, jobs, cache, signatures) if cache is not None and not fresh else None
    result = Batch([], stores=cache.store if cache is not None else None,
                      digests=[d for d, _ in digests] if digests is not None else [None] * len(files))
    if cache is not None and digests is not None:
        _keep_bank(result, cache, bank_before)
        if for_bank and result.bank is not None and not complete:
            return result   # a warm pre-commit run: nothing in these files is needed
    features = complete or (features and result.bank is None)
    run_name = (Cache.bank_name(result.digests) if cache is not None and None not in result.digests  # type: ignore[arg-type]
                else None)
    if run_name is not None and not features:   # nothing needs the features: every outcome in one read
        indexed = cache.get_run(run_name, displays)  # type: ignore[union-attr]
        if indexed is not None:
            result.files, result.from_cache, result.index = indexed, len(files), run_index(cache, run_name)  # type: ignore
            return result
    heads: list[str | None] = [None] * len(files)
    outcomes, todo, total_bytes = _cache_hits(files, displays, digests, cache, features, heads)
    bar = _Progress(len(files), progress)
    bar.done = result.from_cache = len(files) - len(todo)
    jobs = min(jobs, len(todo))
    if jobs > 1 and total_bytes >= PARALLEL_MIN_BYTES:
        worker = dataclasses.replace(setup, cache_folder=cache.folder if cache is not None else None)
        results: Iterator[WorkerReply] = _parallel([(p, d) for _, p, d in todo], worker, jobs)
    else:
        results = _serial(todo, setup, cache)
    seen: dict[str, tuple[Signature, str]] = {}
    for (index, _, display), (outcome, digest, signature, head) in zip(todo, results):
        checked = unpack(outcome) if isinstance(outcome, bytes) else outcome
        outcomes[index] = checked
        # as the cache stored it, and of the bytes the hashing pass saw (not of an edit made since)
        if cache is not None and head is not None and not timed_out(checked) and (fresh or digest == result.digests[index]):
            heads[index] = head
        if fresh and digest is not None and signature is not None:
            seen[display] = (signature, digest)
        bar.step()
    bar.close()
    if fresh:   # what the hashing pass would have found and recorded
        if signatures:
            cache.put_signatures(seen, started)  # type: ignore[union-attr]
        result.digests = [seen[d][1] if d in seen else None for d in displays]
        _keep_bank(result, cache, bank_before)  # type: ignore[arg-type]
    if cache is not None and None not in result.digests and None not in heads:
        name = Cache.bank_name(result.digests)  # type: ignore[arg-type]
        cache.put_run(name, heads)  # type: ignore[arg-type]
        result.index = run_index(cache, name)
    if keep:
        _with_questions(outcomes, files, displays, result.digests, setup)  # type: ignore[arg-type]
    result.files = outcomes  # type: ignore[assignment]
    return result


def run_index(cache: Cache, name: str) -> str:
    """What names a run's outcomes: its cache key's folder (the settings, rules, packs and qlint itself) and the hash
    of its files' digests in order (their names and contents)."""
    return f"{cache.folder.name}/{name}"


def warm_cache(stored: CacheSettings, registry: Registry, active: list[ActiveRule]) -> Cache | None:
    """The cache a run with these rules would use, when there is one and an earlier run stored anything in it."""
    cache = Cache.open(stored.location, config_key(stored, registry, active), warn=False)
    return None if cache is None or cache.empty() else cache


def known_index(cache: Cache, files: Sequence[Path], limits: Limits, jobs: int) -> str | None:
    """The ``run_index`` a run of ``files`` would find its outcomes under, found as the run finds it (files hashed
    unless their stat signatures are known), checking nothing; None when a file cannot be read."""
    digests = [digest for digest, _ in _digests(files, [relative(f) for f in files], limits, jobs, cache)]
    return None if None in digests else run_index(cache, Cache.bank_name(digests))  # type: ignore[arg-type]


def _with_questions(outcomes: list[CheckedFile], files: Sequence[Path], displays: Sequence[str],
                    digests: Sequence[str | None], setup: FileSetup) -> None:
    """The loaded questions of the outcomes the cache gave (it stores none): each such file read again by its
    reader, its rules not run again; a file changed since it was hashed is checked again whole."""
    for index, outcome in enumerate(outcomes):
        if outcome.questions is None:
            outcomes[index] = reread(outcome, files[index], displays[index], digests[index], setup)


def _cache_hits(files: Sequence[Path], displays: list[str], digests: list[tuple[str | None, int]] | None,
                cache: Cache | None, features: bool, heads: list[str | None]
                ) -> tuple[list[CheckedFile | None], list[tuple[int, Path, str]], int]:
    """The outcomes the cache holds (None where it holds none), the files left to check, and their bytes; what
    the run index keeps of each outcome read goes into ``heads``."""
    outcomes: list[CheckedFile | None] = [None] * len(files)
    todo: list[tuple[int, Path, str]] = []
    total_bytes = 0
    for index, (path, display) in enumerate(zip(files, displays)):
        if digests is not None:
            digest, size = digests[index]
            hit = cache.get_with_text(digest, features) if digest is not None else None  # type: ignore[union-attr]
            # an entry is of the file it is read for: its digest covers the file's name, and so does the entry (a
            # signatures file edited to hand one file another's digest gets a miss, never that file's findings)
            if hit is not None and hit[0].path == display:
                outcomes[index] = hit[0]
                heads[index] = outcome_head(hit[1], hit[0])
                continue
            total_bytes += size
        else:
            total_bytes += _size(path)
        todo.append((index, path, display))  # workers read the file again (from the page cache) themselves
    return outcomes, todo, total_bytes


def _parallel(jobs_list: list[tuple[Path, str]], setup: FileSetup, jobs: int) -> Iterator[WorkerReply]:
    """Outcomes from worker processes, in order; each batch of files carries the setup with it."""
    import multiprocessing  # workers: only for a run with enough to check, never for a warm or a small one
    from concurrent.futures import ProcessPoolExecutor

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    chunk = max(1, min(4, len(jobs_list) // (jobs * 8) or 1))   # small: the last chunks leave no worker idle for long
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=gc.disable) as pool:
        # workers hold no cycles worth collecting: the collector's passes cost more than parsing
        yield from pool.map(partial(_work, setup), jobs_list, chunksize=chunk)


def _work(setup: FileSetup, job: tuple[Path, str]) -> WorkerReply:
    """One file's outcome in a worker, sent back in the wire form (``pack``) with what the run index keeps of its
    cache entry: the worker writes the entry itself, so the main process never parses the cache's JSON. Without a
    cache (``--no-cache``) there is no entry, and the outcome is not encoded for one."""
    cache = setup.cache()
    outcome, text, digest, signature = check_path(job[0], job[1], setup, cache, cache is not None)
    head = outcome_head(text, outcome) if text is not None else None
    return pack(outcome), digest, signature, head


# --- the wire between workers and the main process ----------------------------------------------------------
# An outcome crosses as one pickle of plain tuples, lists and the bank rules' own feature values, which the main
# process loads in C: findings as rows of small numbers and a message over tables of their paths, rules, question
# ids and fields (a bank with no rationales sends hundreds of thousands of findings that share a handful of
# names), and the questions as they are. Both ends are this qlint's own processes: pickle is for them alone,
# never for the cache, whose entries may come from anywhere.
_SEVERITIES = {int(s): s for s in Severity}


def pack(outcome: CheckedFile) -> bytes:
    """An outcome as the bytes a worker sends; ``unpack`` makes it again. A finding's fix travels whole."""
    tables: tuple[dict, dict, dict, dict] = ({outcome.path: 0}, {}, {None: -1}, {None: -1})
    paths, kinds, ids, fields = tables
    rows = []
    fixes = []
    for index, f in enumerate(outcome.findings):
        p = paths.get(f.path)
        if p is None:
            p = paths[f.path] = len(paths)
        k = kinds.get((f.code, f.rule))
        if k is None:
            k = kinds[(f.code, f.rule)] = len(kinds)
        q = ids.get(f.question)
        if q is None:
            q = ids[f.question] = len(ids) - 1
        n = fields.get(f.field)
        if n is None:
            n = fields[f.field] = len(fields) - 1
        rows.append((p, f.line, f.column, k, int(f.severity), f.message, q, n, f.end_line, f.end_column))
        if f.fix is not None:
            fixes.append((index, f.fix))
    # names as plain text: a question id read from YAML may be a str subclass (``model.Plain``), which the main
    # process could not intern
    body = (outcome.path, [str(p) for p in paths], [(str(c), str(r)) for c, r in kinds],
            [*(str(q) for q in list(ids)[1:]), None], [*(str(n) for n in list(fields)[1:]), None], rows, fixes,
            outcome.items, outcome.suppressions, outcome.questions, outcome.count, outcome.rejected)
    buffer = io.BytesIO()
    _Wire(buffer, pickle.HIGHEST_PROTOCOL).dump(body)
    return buffer.getvalue()


def _init_fields(cls: type) -> tuple[str, ...] | None:
    """A dataclass's fields when calling it with their values in order makes the object again (every field an
    argument, no ``__post_init__``); else None."""
    if not dataclasses.is_dataclass(cls) or hasattr(cls, "__post_init__"):
        return None
    fields = dataclasses.fields(cls)
    if not all(f.init and not f.kw_only for f in fields):
        return None
    return tuple(f.name for f in fields)


class _Wire(pickle.Pickler):
    """Dataclasses (the questions, the bank rules' features) as their class and field values: loading one is then a
    call of the class, not a pickle's generic state restored field by field in Python, which is most of the main
    process's share of a cold run of a big bank."""

    fields_of: dict[type, tuple[str, ...] | None] = {}

    def reducer_override(self, obj: object) -> object:
        cls = type(obj)
        names = self.fields_of.get(cls, ())
        if names == ():
            names = self.fields_of[cls] = _init_fields(cls)
        if names is None:
            return NotImplemented
        return cls, tuple([getattr(obj, n) for n in names])


def unpack(data: bytes) -> CheckedFile:
    """The outcome ``pack`` sent: names shared across its findings, as a cached entry's are."""
    path, paths, kinds, ids, fields, rows, fixes, items, suppressions, questions, count, rejected = pickle.loads(data)
    intern = sys.intern
    paths = [intern(p) for p in paths]
    codes = [intern(c) for c, _ in kinds]
    rules = [intern(r) for _, r in kinds]
    ids = [q if q is None else intern(q) for q in ids]
    severity = _SEVERITIES
    found = [Finding(paths[p], line, col, codes[k], rules[k], severity[sev], msg, ids[q], fields[n], None, end, end_col)
             for p, line, col, k, sev, msg, q, n, end, end_col in rows]
    for index, fix in fixes:
        found[index].fix = fix
    for item in items:   # one copy of each key set, objective and tag in this process, whichever worker sent it
        item.keys = one_copy(item.keys)
        if item.objective is not None:
            item.objective = shared(item.objective)
        if item.tags:
            item.tags = one_copy(tuple(map(shared, item.tags)))
    return CheckedFile(path, found, items, suppressions, questions, count, rejected)


def _serial(todo: list[tuple[int, Path, str]], setup: FileSetup, cache: Cache | None) -> Iterator[WorkerReply]:
    for _, path, display in todo:
        outcome, text, digest, signature = check_path(path, display, setup, cache)
        yield outcome, digest, signature, outcome_head(text, outcome) if text is not None else None


def _keep_bank(result: Batch, cache: Cache, before: Sequence[str] | None) -> None:
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
    data, signature, _ = read_file(path, limits, known[0] if known else None)
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
        from concurrent.futures import ThreadPoolExecutor  # threads: only for many files to hash

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
