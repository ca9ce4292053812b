"""The one way into per-file checking: one file's bytes -> its reader -> the engine's per-file rules -> an outcome.

``check`` runs it in this process or in workers, standard input goes through it, ``--fix`` re-checks each text it
rewrites through it, and the tests check their examples through it. A worker gets its ``FileSetup`` as an
argument with each batch of files, never from a module global.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from time import monotonic

from qlint.engine import check_file, timed_out
from qlint.files import Signature, read_file
from qlint.formats import parse
from qlint.items import CheckedFile
from qlint.limits import Limits
from qlint.rule import ActiveRule, BankRule
from qlint.run.cache import Cache, Codec, Codecs, encoded


@dataclass(frozen=True)
class FileSetup:
    """Everything checking one file needs besides its bytes: the same in this process and in a worker."""

    active: tuple[ActiveRule, ...]
    limits: Limits
    keep: bool = False                 # keep the loaded questions in the outcome (report, stats)
    cache_folder: Path | None = None   # where outcomes are stored, when there is a cache

    @cached_property   # read for every file a run checks or decodes
    def codecs(self) -> Codecs:
        """How the active bank rules' features are encoded for the cache (their own ``encode``/``decode``)."""
        return {a.rule.name: Codec(a.rule.encode, a.rule.decode) for a in self.active
                if isinstance(a.rule, BankRule) and a.rule.encode is not None and a.rule.decode is not None}

    def cache(self) -> Cache | None:
        return Cache(self.cache_folder, self.codecs) if self.cache_folder is not None else None


def check_source(data: bytes | None, display: str, setup: FileSetup, real_path: Path | None = None,
                 problem: str | None = None) -> CheckedFile:
    """One file's outcome from its bytes, read by the reader its format takes (YAML, GIFT, Aiken, Moodle XML,
    QTI); ``data`` None when the file could not be read, and ``problem`` says why (a parse-error finding)."""
    started = monotonic()
    result = parse(data, display, setup.limits, real_path, problem)
    # reading and the rules share one budget per file: what reading took, the rules no longer have
    return check_file(result, setup.active, setup.keep, setup.limits.rule_time_budget, monotonic() - started)


def check_path(path: Path, display: str, setup: FileSetup, cache: Cache | None, want_text: bool = False
               ) -> tuple[CheckedFile, str | None, str | None, Signature | None]:
    """Read, check and (when there is a cache) store one file's outcome under the hash of what was read. Returns
    the outcome; its cache encoding when there is a cache or ``want_text`` (None when it has none: a feature JSON
    cannot carry; kept questions are never encoded); and, with a cache, the file's digest and stat signature."""
    data, signature, problem = read_file(path, setup.limits)
    outcome = check_source(data, display, setup, path, problem)
    text = encoded(outcome, setup.codecs) if cache is not None or want_text else None
    digest = Cache.digest(display, data) if cache is not None and data is not None else None
    if digest is not None and text is not None and not timed_out(outcome):  # a timeout depends on the clock
        cache.put(digest, text)  # type: ignore[union-attr]
    return outcome, text, digest, signature


def reread(outcome: CheckedFile, path: Path, display: str, digest: str | None, setup: FileSetup) -> CheckedFile:
    """A cached ``outcome`` with its loaded questions, which the cache does not hold: the file read again and
    parsed, its rules not run again. A file whose bytes no longer have ``digest`` (changed since the run hashed
    it) is checked again whole, so that its questions and findings agree."""
    data, _, problem = read_file(path, setup.limits)
    if data is None or digest is None or Cache.digest(display, data) != digest:
        return check_source(data, display, setup, path, problem)
    outcome.questions = list(parse(data, display, setup.limits, path).questions)
    return outcome
