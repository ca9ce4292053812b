"""Content-hash cache of per-file outcomes, in ``.qlint_cache/`` beside the config (as ruff keeps ``.ruff_cache``).

Keyed by file content and displayed path (CI checkouts reset mtimes, so mtimes are never
trusted) under a key of the qlint version and source, the Python version, the settings and
the active rules with their options and severity. Entries are JSON, never pickle: a cache
folder that arrives with a checkout must not be able to run code. Writes go to a temporary
file and are renamed into place, so two concurrent runs never see half an entry.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import sys
import tempfile
from dataclasses import asdict
from functools import lru_cache
from pathlib import Path
from typing import Any

from qlint import __version__
from qlint.finding import Finding, Severity
from qlint.items import BankItem, FileOutcome
from qlint.loader import Suppression
from qlint.neardup import StemKey

FOLDER = ".qlint_cache"
FORMAT = 2


@lru_cache(maxsize=1)
def _source_digest() -> str:
    """A hash of qlint's own code and data: an edited rule invalidates the cache even without a version bump."""
    root = Path(__file__).parent
    digest = hashlib.blake2b(digest_size=16)
    for path in sorted(root.rglob("*")):
        if path.suffix in (".py", ".yaml") and "__pycache__" not in path.parts:
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def config_key(config, registry, active) -> str:
    """Everything besides a file's bytes that can change its per-file outcome."""
    from importlib.metadata import entry_points

    plugins = sorted(f"{ep.name}={ep.value}@{getattr(ep.dist, 'version', '')}"
                     for ep in entry_points(group="qlint.rules"))
    packs = []
    for path in config.pack_paths:
        files = sorted(path.glob("*.y*ml")) if path.is_dir() else [path]
        packs += [hashlib.blake2b(f.read_bytes(), digest_size=16).hexdigest() for f in files if f.is_file()]
    payload = {
        "format": FORMAT, "byteorder": sys.byteorder, "qlint": __version__, "source": _source_digest(),
        "python": sys.version_info[:2],
        "settings": config.settings.model_dump(mode="json"), "plugins": plugins, "packs": packs,
        "rules": [(a.rule.name, a.rule.code, str(a.severity), a.options.model_dump(mode="json")) for a in active],
        "registry": sorted(r.name for r in registry),
    }
    return hashlib.blake2b(json.dumps(payload, sort_keys=True, default=str).encode(), digest_size=16).hexdigest()


def _encode_feature(value: Any) -> Any:
    if isinstance(value, StemKey):
        return {"__stemkey__": [value.text, list(value.numbers), list(value.code), value.bag,
                                base64.b64encode(value.tokens).decode("ascii")]}
    json.dumps(value)  # raises for anything JSON cannot carry: that outcome is simply not cached
    return value


def _decode_feature(value: Any) -> Any:
    if isinstance(value, dict) and "__stemkey__" in value:
        text, numbers, code, bag, tokens = value["__stemkey__"]
        return StemKey(text, tuple(numbers), tuple(code), bag, base64.b64decode(tokens))
    return value


def encode(outcome: FileOutcome) -> str:
    findings = [[f.path, f.line, f.column, f.code, f.rule, int(f.severity), f.message, f.question, f.field]
                for f in outcome.findings]
    items = []
    for item in outcome.items:
        row = {k: getattr(item, k) for k in BankItem.__slots__ if k != "features"}
        row["positions"] = {k: list(v) for k, v in item.positions.items()}
        row["features"] = {k: _encode_feature(v) for k, v in item.features.items()}
        items.append(row)
    return json.dumps({"path": outcome.path, "findings": findings, "items": items,
                       "suppressions": [asdict(s) for s in outcome.suppressions]}, separators=(",", ":"))


def decode(text: str) -> FileOutcome:
    doc = json.loads(text)
    findings = [Finding(p, line, col, code, rule, Severity(sev), msg, q, fld)
                for p, line, col, code, rule, sev, msg, q, fld in doc["findings"]]
    items = []
    for row in doc["items"]:
        row["positions"] = {k: tuple(v) for k, v in row["positions"].items()}
        row["keys"] = tuple(row["keys"])
        row["tags"] = tuple(row["tags"])
        row["features"] = {k: _decode_feature(v) for k, v in row["features"].items()}
        items.append(BankItem(**row))
    suppressions = [Suppression(**{**s, "rules": tuple(s["rules"])}) for s in doc["suppressions"]]
    return FileOutcome(doc["path"], findings, items, suppressions)


class Cache:
    """One folder of entries for one configuration key."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @staticmethod
    def location(config) -> Path:
        """Where entries live: QLINT_CACHE_DIR, else the config's ``cache-dir``, else ``.qlint_cache`` in the
        folder of the config file (the project root), or in the working folder when there is no config. The
        folder carries its own ``.gitignore`` (``*``) and a CACHEDIR.TAG, so git and backups leave it alone."""
        if os.environ.get("QLINT_CACHE_DIR"):
            return Path(os.environ["QLINT_CACHE_DIR"])
        base = config.root if config.source is not None else Path.cwd()
        return base / (config.settings.cache_dir or FOLDER)

    @classmethod
    def open(cls, config, key: str) -> Cache | None:
        base = cls.location(config)
        try:
            base.mkdir(parents=True, exist_ok=True)
            ignore = base / ".gitignore"
            if not ignore.exists():
                ignore.write_text("# Created by qlint: never commit this folder.\n*\n")
                (base / "CACHEDIR.TAG").write_text("Signature: 8a477f597d28d172789f06886806bc55\n")
            folder = base / f"v{FORMAT}-{key}"
            folder.mkdir(exist_ok=True)
        except OSError:
            return None  # a read-only checkout simply runs without a cache
        return cls(folder)

    @staticmethod
    def digest(display: str, data: bytes) -> str:
        h = hashlib.blake2b(data, digest_size=20)
        h.update(b"\0" + display.encode("utf-8", "surrogateescape"))
        return h.hexdigest()

    def _path(self, digest: str) -> Path:
        return self.folder / digest[:2] / f"{digest}.json"

    def get(self, digest: str) -> FileOutcome | None:
        try:
            return decode(self._path(digest).read_text(encoding="utf-8"))
        except (OSError, ValueError, KeyError, TypeError):
            return None  # missing, or damaged by a crash or a hand: recompute

    def put(self, digest: str, outcome: FileOutcome) -> None:
        try:
            text = encode(outcome)
        except (TypeError, ValueError):
            return
        target = self._path(digest)
        try:
            target.parent.mkdir(exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.replace(tmp, target)
        except OSError:
            try:
                os.unlink(tmp)
            except (OSError, UnboundLocalError):
                pass
