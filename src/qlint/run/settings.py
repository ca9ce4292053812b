"""What each stage of a run needs of the config, resolved once at the start of the run into small frozen objects.

The config (where each setting came from, the chain of files, the layers of rule selection) stays with the face,
which explains it; the walk, the cache and the suppression pass are handed only their part of it, so none of them
reads, or changes, the config itself. ``--from`` is resolved here too, into the formats of the read limits.
"""
from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from qlint.config import Config, per_file_ignores
from qlint.files import matches_glob
from qlint.formats.base import format_name
from qlint.limits import Limits
from qlint.registry import Registry
from qlint.run.cache import Cache


@dataclass(frozen=True, slots=True)
class Walk:
    """What a folder walk takes and leaves out: ``exclude`` globs relative to ``root`` (the config's folder),
    what git ignores unless ``respect_gitignore`` is off, and the formats of ``limits``. ``banks`` are the config's
    bank paths (the whole bank named files are compared with); ``base`` is where a named path's hidden folders
    count from under ``--force-exclude`` (the config's folder, else the working folder)."""

    root: Path
    exclude: tuple[str, ...]
    respect_gitignore: bool
    banks: tuple[Path, ...]
    base: Path
    limits: Limits


@dataclass(frozen=True, slots=True)
class CacheSettings:
    """Where the cache lives and what, of the settings, its key holds (the packs' files are hashed into it)."""

    location: Path
    settings: Mapping[str, Any]   # the settings as JSON values, ``--from`` included
    pack_paths: tuple[Path, ...]


@dataclass(frozen=True, slots=True)
class Ignores:
    """``per-file-ignores``, each glob (relative to ``root``) with the rule names it switches off."""

    root: Path
    globs: tuple[tuple[str, frozenset[str]], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.globs)

    def of(self, path: str) -> frozenset[str]:
        """The rule names switched off for a file, as the run names it."""
        try:
            rel = Path(os.path.relpath(os.path.realpath(path), self.root)).as_posix()
        except ValueError:
            rel = path
        names: frozenset[str] = frozenset()
        for glob, ignored in self.globs:
            if matches_glob(Path(rel), (glob,)):
                names |= ignored
        return names


@dataclass(frozen=True, slots=True)
class Stages:
    """Every stage's settings for one run."""

    limits: Limits
    walk: Walk
    cache: CacheSettings
    ignores: Ignores


def walk_of(config: Config, limits: Limits | None = None) -> Walk:
    settings = config.settings
    base = config.root if config.source is not None else Path(os.path.realpath(Path.cwd()))
    return Walk(config.root, tuple(settings.exclude), settings.respect_gitignore,
                tuple(config.root / p for p in settings.paths), base, limits or settings.limits)


def resolve(config: Config, registry: Registry, source_format: str | None = None) -> Stages:
    """The stages' settings: ``source_format`` (``--from``) comes before the config's own ``formats`` globs."""
    settings = config.settings
    if source_format:
        formats = {"**": format_name(source_format), **{g: f for g, f in settings.formats.items() if g != "**"}}
        settings = dataclasses.replace(settings, formats=formats)
    limits = settings.limits
    cache = CacheSettings(Cache.location(config), settings.model_dump(mode="json"), tuple(config.pack_paths))
    ignores = Ignores(config.root, per_file_ignores(config, registry))
    return Stages(limits, walk_of(config, limits), cache, ignores)
