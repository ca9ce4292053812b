"""The name of the run a check would make, found without checking anything: its config and rules, its files as the
walk finds them and the run index their digests name (``batch.run_index``). A report kept under that name is the
report the run would make, so a warm check with nothing changed can give it again without reading a finding."""
from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from qlint.config import Config, ConfigError, Override, resolve_rules
from qlint.registry import Registry
from qlint.rule import BankRule
from qlint.run.batch import known_index, warm_cache
from qlint.run.cache import Cache
from qlint.run.pipeline import SetupError, checked_paths, config_start, setup, walk_files
from qlint.run.settings import resolve


@dataclass(frozen=True)
class Peek:
    """A run named before it is made: its config and registry, the cache it would use and its run index."""

    config: Config
    registry: Registry
    cache: Cache
    index: str
    files: tuple[Path, ...] = ()   # the bank files the run reads


def peek(paths: list[str], *, config_path: str | None = None, select: list[str] | None = None,
         extend_select: Sequence[str] = (), ignore: Sequence[str] = (), source_format: str | None = None,
         force_exclude: bool = False, overrides: Sequence[Override] = (), jobs: int = 1) -> Peek | None:
    """The run ``run_check`` would make of ``paths`` with these arguments, named; None when it is not a run of
    files and folders whose findings are all reported (standard input, named files compared with the rest of their
    bank, files left out by ``--force-exclude``, no bank file), when there is no cache or it is empty, or when the
    setup fails (the run itself then says why)."""
    if paths == ["-"]:
        return None
    try:
        config, registry = setup(config_path, config_start(paths), overrides)
        active = resolve_rules(config, registry, select=select, extend_select=extend_select, ignore=ignore)
        stages = resolve(config, registry, source_format)
        targets, excluded = checked_paths(paths, config, force_exclude=force_exclude, walk=stages.walk)
    except (SetupError, ConfigError):
        return None
    if excluded or (all(os.path.isfile(p) for p in targets) and any(isinstance(a.rule, BankRule) for a in active)):
        return None
    cache = warm_cache(stages.cache, registry, active)
    if cache is None:   # a first run: nothing to give again, and no second walk of the files
        return None
    files = list(walk_files(stages.walk, targets))
    index = known_index(cache, files, stages.limits, jobs) if files else None
    return Peek(config, registry, cache, index, tuple(files)) if index is not None else None
