"""Content-hash cache of per-file outcomes, in ``.qlint_cache/`` beside the config (as ruff keeps ``.ruff_cache``).

Keyed by file content and displayed path (CI checkouts reset mtimes, so mtimes are never
trusted) under a key of the qlint version and source, the Python version, the settings and
the active rules with their options and severity. Entries are JSON, never pickle: a cache
folder that arrives with a checkout must not be able to run code. Writes go to a temporary
file and are renamed into place, so two concurrent runs never see half an entry. An entry is checked against
the shape qlint writes as it is decoded (types, table indices, lengths): anything else is a miss, never a finding
at a wrong place. A cache folder that is a symbolic link is never followed.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import shutil
import stat
import sys
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict
from functools import lru_cache
from importlib.metadata import entry_points
from itertools import chain
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from qlint import __version__
from qlint.edits import Fix
from qlint.files import write_atomic
from qlint.finding import Finding, Severity
from qlint.items import NO_IGNORE, BankItem, CheckedFile, Features, Places, rejected_item, shared, one_copy
from qlint.shapes import only
from qlint.sourcemap import RejectedQuestion, Suppression

FOLDER = ".qlint_cache"
FORMAT = 16
USED = ".last-used"   # touched by every run that opens an entry folder
# the only names qlint ever removes, whatever folder cache-dir points at: "v8-" and 32 hex digits
_ENTRY_FOLDER = re.compile(r"v\d+-[0-9a-f]{32}")


@lru_cache(maxsize=1)
def _source_digest() -> str:
    """A hash of qlint's own code and data: an edited rule invalidates the cache even without a version bump."""
    root = Path(__file__).parents[1]   # the qlint package, every part of it
    digest = hashlib.blake2b(digest_size=16)
    for path in sorted(root.rglob("*")):
        if path.suffix in (".py", ".yaml") and "__pycache__" not in path.parts:
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def config_key(settings, registry, active) -> str:
    """Everything besides a file's bytes that can change its per-file outcome (``settings``: the run's
    ``CacheSettings``)."""
    plugins = getattr(registry, "plugins", None)   # as the registry found them, else looked up again
    if plugins is None:
        plugins = sorted(f"{ep.name}={ep.value}@{getattr(ep.dist, 'version', '')}"
                         for ep in entry_points(group="qlint.rules"))
    packs = []
    for path in settings.pack_paths:
        files = sorted(path.glob("*.y*ml")) if path.is_dir() else [path]
        packs += [hashlib.blake2b(f.read_bytes(), digest_size=16).hexdigest() for f in files if f.is_file()]
    payload = {
        "format": FORMAT, "byteorder": sys.byteorder, "qlint": __version__, "source": _source_digest(),
        "python": sys.version_info[:2],
        "settings": settings.settings, "plugins": plugins, "packs": packs,
        "rules": [(a.rule.name, a.rule.code, str(a.severity), a.options.model_dump(mode="json")) for a in active],
        "registry": sorted(r.name for r in registry),
    }
    return hashlib.blake2b(json.dumps(payload, sort_keys=True, default=str).encode(), digest_size=16).hexdigest()


_FIELDS = tuple(k for k in BankItem.__slots__ if k != "features")   # BankItem's arguments, in order
_COLUMNS = tuple(k for k in _FIELDS if k != "path")   # the path is stored only where it is not the file's
_SEVERITY = {int(s): s for s in Severity}
# what a cached finding that had a safe fix carries: fixable, though its edits are not kept (a fix run never uses the
# cache, and checks the file again before it writes)
CACHED_FIX = Fix("a safe fix (run `qlint check --fix`)", ())


class Damaged(ValueError):
    """An entry not in the shape qlint writes (cut short by a crash, edited by hand, or planted): a miss."""


def _require(ok: bool) -> None:
    if not ok:
        raise Damaged("damaged cache entry")


def _strings(value: Any) -> list[str]:
    _require(type(value) is list and only(value, str))
    return value


class Codec(NamedTuple):
    """How one bank rule's per-question features travel through the cache (the rule's ``encode``/``decode``)."""

    encode: Callable[[list[Any]], Any]
    decode: Callable[[Any, int], list[Any]]


Codecs = Mapping[str, Codec]   # bank rule name -> the codec of its features
NO_CODECS: Codecs = MappingProxyType({})


def _encode_features(values: list[Any], codec: Codec | None) -> Any:
    """One bank rule's feature for every question of a file: its own encoding, or the JSON values themselves."""
    if codec is not None:
        return {"encoded": codec.encode(values)}
    json.dumps(values)  # raises for anything JSON cannot carry: that outcome is simply not cached
    return {"values": values}


def _decode_features(column: Any, count: int, codec: Codec | None) -> list[Any]:
    """One bank rule's feature column, checked against the shape ``_encode_features`` writes; a rule's own decoder
    may raise anything for data it did not write, and the entry is then a miss."""
    _require(type(column) is dict and len(column) == 1)
    if codec is not None:
        _require("encoded" in column)
        try:
            values = codec.decode(column["encoded"], count)
        except Exception as exc:
            raise Damaged(f"damaged feature: {type(exc).__name__}") from None
        _require(type(values) is list and len(values) == count)
        return values
    values = column["values"]
    _require(type(values) is list and len(values) == count)
    return values


def _rows(findings: list[Finding], path: str | None) -> dict[str, list]:
    """Findings as rows of small numbers and a message: paths, rule kinds, question ids and fields are numbers
    into tables of their own, so a warm run parses one string per finding, not six, and interns each name once."""
    paths: dict[Any, int] = {path: 0} if path is not None else {}
    kinds: dict[Any, int] = {}
    ids: dict[Any, int] = {}
    fields: dict[Any, int] = {}

    def number(table: dict[Any, int], value: Any) -> int:
        if value is None:
            return -1
        found = table.get(value)
        if found is None:
            found = table[value] = len(table)
        return found

    # the end of a finding's range, 0 and 0 when it has none
    rows = [[number(paths, f.path), f.line, f.column, number(kinds, (f.code, f.rule)), int(f.severity), f.message,
             number(ids, f.question), number(fields, f.field), f.end_line or 0, f.end_column or 0] for f in findings]
    return {"paths": list(paths), "kinds": [list(k) for k in kinds], "ids": list(ids), "fields": list(fields),
            "rows": rows, "fixable": [i for i, f in enumerate(findings) if f.fix is not None]}


def _findings(doc: Any) -> list[Finding]:
    """Rows back to findings; Damaged unless every row has the shape ``_rows`` writes (a type or an index out of
    its table is a damaged entry, never a finding at a wrong place)."""
    _require(type(doc) is dict)
    kinds = doc["kinds"]
    _require(type(kinds) is list and all(type(k) is list and len(k) == 2 and only(k, str) for k in kinds))
    # every name interned once per entry: a million findings share them (as unpickled objects did), which is
    # hundreds of MB on a million-question bank
    shared = sys.intern
    paths = [shared(p) for p in _strings(doc["paths"])]
    codes = [shared(code) for code, _ in kinds]
    rules = [shared(rule) for _, rule in kinds]
    ids = [shared(q) for q in _strings(doc["ids"])] + [None]        # index -1: no question
    fields = [shared(f) for f in _strings(doc["fields"])] + [None]  # index -1: no field
    rows = doc["rows"]
    _require(type(rows) is list and all(type(r) is list and len(r) == 10 for r in rows))
    if rows:
        p, line, col, k, sev, msg, q, f, end_line, end_col = zip(*rows)
        _require(only(p, int) and only(line, int) and only(col, int) and only(k, int) and only(sev, int)
                 and only(msg, str) and only(q, int) and only(f, int) and only(end_line, int)
                 and only(end_col, int)
                 and 0 <= min(p) and max(p) < len(paths) and min(line) >= 1 and min(col) >= 1
                 and 0 <= min(k) and max(k) < len(kinds) and set(sev) <= _SEVERITY.keys()
                 and -1 <= min(q) and max(q) < len(ids) - 1 and -1 <= min(f) and max(f) < len(fields) - 1
                 and min(end_line) >= 0 and min(end_col) >= 0 and list(map(bool, end_line)) == list(map(bool, end_col)))
    fixable = doc.get("fixable", [])   # absent: none (an entry with no finding a fix can repair)
    _require(type(fixable) is list and only(fixable, int) and all(0 <= i < len(rows) for i in fixable))
    severity = _SEVERITY
    found = [Finding(paths[p], line, col, codes[k], rules[k], severity[sev], msg, ids[q], fields[f], None,
                     end_line or None, end_col or None)
             for p, line, col, k, sev, msg, q, f, end_line, end_col in rows]
    for i in fixable:   # the fix itself is not stored: a --fix run checks afresh; the text format marks these
        found[i].fix = CACHED_FIX
    return found


def encode(outcome: CheckedFile, codecs: Codecs = NO_CODECS) -> str:
    """An outcome as compact JSON: findings as rows, questions as columns (a warm run decodes every entry).

    Three lines: the findings and suppressions; the questions; the bank rules' per-question features. A run
    whose bank findings are already known (nothing changed) parses only the first line, and the second only
    for a file whose suppressions or ``qlint: ignore`` fields need its questions.
    """
    path = outcome.path
    items = outcome.items
    columns: dict[str, Any] = {k: [getattr(item, k) for item in items] for k in _COLUMNS}
    columns["positions"] = [dict(p) for p in columns["positions"]]
    columns["path"] = [item.path if item.path != path else None for item in items]
    names = sorted({name for item in items for name in item.features})
    missing = object()
    features = {}
    for name in names:
        values = [item.features.get(name, missing) for item in items]
        if any(v is missing for v in values):
            raise ValueError("a feature is missing for some question")   # then the outcome is not cached
        features[name] = _encode_features(values, codecs.get(name))
    rejected = [[r.id, r.line, r.column, *r.locate("id")] for r in outcome.rejected]
    head = json.dumps({"path": path, "findings": _rows(outcome.findings, path), "questions": len(items),
                       "ignores": any(item.ignore for item in items),
                       "suppressions": [asdict(s) for s in outcome.suppressions], "rejected": rejected},
                      separators=(",", ":"))
    # JSON text never holds a raw newline
    return "\n".join((head, json.dumps(columns, separators=(",", ":")), json.dumps(features, separators=(",", ":"))))


def encoded(outcome: CheckedFile, codecs: Codecs = NO_CODECS) -> str | None:
    """``encode(outcome)``, or None for an outcome JSON cannot carry (a plugin's feature): it is not cached."""
    try:
        return encode(outcome, codecs)
    except (TypeError, ValueError):
        return None


# what each column of an entry's questions may hold (BankItem's fields, ``path`` None where it is the file's)
_COLUMN_TYPES = {"id": {str}, "path": {str, type(None)}, "line": {int}, "column": {int}, "end_line": {int},
                 "select": {int}, "keys": {list}, "option_count": {int}, "objective": {str, type(None)},
                 "tags": {list}, "difficulty": {int, str, type(None)}, "ignore": {dict, type(None)},
                 "positions": {dict}}
_POSITIVE = ("line", "column", "end_line")
_SUPPRESSION = {"line": int, "column": int, "target_line": int, "scope": str, "rules": list, "reason": str,
                "path": (str, type(None))}


def _suppression(entry: Any) -> Suppression:
    _require(type(entry) is dict and entry.keys() == _SUPPRESSION.keys()
             and all(type(entry[k]) in (kind if isinstance(kind, tuple) else (kind,)) for k, kind in _SUPPRESSION.items())
             and only(entry["rules"], str) and min(entry["line"], entry["column"], entry["target_line"]) >= 1)
    return Suppression(**{**entry, "rules": tuple(entry["rules"])})


def _columns(columns: Any, count: int) -> dict[str, list]:
    """The questions' columns, Damaged unless each has one value of the right type per question."""
    _require(type(columns) is dict and columns.keys() == _COLUMN_TYPES.keys())
    for name, kinds in _COLUMN_TYPES.items():
        column = columns[name]
        _require(type(column) is list and len(column) == count and set(map(type, column)) <= kinds)
    _require(all(min(columns[k], default=1) >= 1 for k in _POSITIVE) and min(columns["select"], default=0) >= 0
             and min(columns["option_count"], default=0) >= 0
             and only(chain.from_iterable(columns["keys"]), int) and only(chain.from_iterable(columns["tags"]), str))
    for mapping, kind in ((columns["positions"], int), (columns["ignore"], str)):
        present = [m for m in mapping if m]
        _require(only(chain.from_iterable(present), str) and only(chain.from_iterable(m.values() for m in present), kind))
    return columns


def decode(text: str, features: bool = True, codecs: Codecs = NO_CODECS) -> CheckedFile:
    """An entry as an outcome; with ``features=False`` the questions come without bank features, and are left
    out altogether (only counted) when the file has no suppression or ignore field that needs them. Damaged (or
    any error of ``json``) when the entry is not in the shape ``encode`` writes."""
    head, _, rest = text.partition("\n")
    doc = json.loads(head)
    _require(type(doc) is dict and type(doc["path"]) is str and type(doc["questions"]) is int
             and doc["questions"] >= 0 and type(doc["ignores"]) is bool and type(doc["suppressions"]) is list)
    path, count = doc["path"], doc["questions"]
    findings = _findings(doc["findings"])
    suppressions = [_suppression(s) for s in doc["suppressions"]]
    rejected = _rejected(doc["rejected"], path)
    if not (features or suppressions or doc["ignores"]):
        return CheckedFile(path, findings, [], suppressions, count=count, rejected=rejected)
    middle, _, tail = rest.partition("\n")
    columns = _columns(json.loads(middle), count)
    kept = json.loads(tail) if features else {}
    _require(type(kept) is dict)
    feats = {name: _decode_features(column, count, codecs.get(name)) for name, column in kept.items()}
    features_of = Features.maker(feats)
    items = []
    rows = zip(*(columns[k] for k in _FIELDS), *feats.values())
    for qid, p, line, col, end, select, keys, n, objective, tags, difficulty, ignore, positions, *values in rows:
        items.append(BankItem(sys.intern(qid), p or path, line, col, end, select, one_copy(tuple(keys)), n,
                              shared(objective), one_copy(tuple(map(shared, tags))) if tags else (), difficulty,
                              ignore or NO_IGNORE, Places(positions), features_of(values)))
    return CheckedFile(path, findings, items, suppressions, rejected=rejected)


def _rejected(rows: Any, path: str) -> list[BankItem]:
    """The rejected questions' ids and places back as items; Damaged unless in the shape ``encode`` writes."""
    _require(type(rows) is list and all(type(r) is list and len(r) == 5 and type(r[0]) is str
                                        and only(r[1:], int) and min(r[1:]) >= 1 for r in rows))
    return [rejected_item(RejectedQuestion(*row), path) for row in rows]


def _entry_folders(base: Path) -> list[Path]:
    """The entry folders under a cache base: only names qlint made, whatever folder ``cache-dir`` points at."""
    try:
        return [p for p in base.iterdir() if _ENTRY_FOLDER.fullmatch(p.name) and p.is_dir() and not p.is_symlink()]
    except OSError:
        return []


def _secret() -> bytes | None:
    """This user's cache key: QLINT_CACHE_SECRET (e.g. a CI secret, to reuse a restored cache), else 32 random
    bytes kept in the user's cache folder (created once, atomically); None when there is nowhere to keep it."""
    if os.environ.get("QLINT_CACHE_SECRET"):
        # the variable's bytes as they are: os.environ holds undecodable bytes as lone surrogates
        return os.environ["QLINT_CACHE_SECRET"].encode("utf-8", "surrogateescape")
    home = Path(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")) / "qlint"
    path = home / "secret"
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        data = b""
    except OSError:
        return None
    if len(data) == 32:
        return data
    try:
        home.mkdir(parents=True, exist_ok=True)
        try:   # a damaged secret is replaced; a new one never overwrites a concurrent run's
            write_atomic(path, [os.urandom(32)], overwrite=bool(data), prefix=".secret-", suffix="")
        except FileExistsError:
            pass
        data = path.read_bytes()
    except OSError:
        return None
    return data if len(data) == 32 else None


class SymlinkedFolder(OSError):
    """A cache folder that is a symbolic link: a checkout could point it anywhere, so it is never followed."""


def _own_folder(path: Path) -> bool:
    """Make ``path`` a folder (its parents too); True when this call made it. SymlinkedFolder when it is a
    symbolic link, checked with lstat after the fact, so a link that was already there is never written through."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        path.mkdir()
        made = True
    except FileExistsError:
        made = False
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        raise SymlinkedFolder(f"{path} is a symbolic link")
    if not stat.S_ISDIR(info.st_mode):
        raise NotADirectoryError(path)
    return made


def _create(path: Path, text: str) -> None:
    """Write a new file; never through a symbolic link, never over a file already there."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except FileExistsError:
        return
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)


def _touch(path: Path) -> None:
    """Mark a file used now, making it if it is missing; never through a symbolic link (one planted in its place is
    removed, as a marker of qlint's own is never a link)."""
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    if os.path.islink(path):
        os.unlink(path)
    fd = os.open(path, flags, 0o644)
    try:
        os.utime(fd) if os.utime in os.supports_fd else os.utime(path)
    finally:
        os.close(fd)


def _read(path: Path) -> str:
    """A regular file's text, read without following a symbolic link in its last component (and without
    blocking on a FIFO: the open does not wait for a writer, and the fstat refuses it)."""
    return _read_bytes(path).decode("utf-8")


def _read_bytes(path: Path) -> bytes:
    """``_read``'s bytes."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise OSError(f"{path} is not a regular file")
        return handle.read()


IGNORE_ALL = "# Created by qlint: never commit this folder.\n*\n"
# What can go wrong decoding a damaged entry: not JSON, the wrong shape (Damaged), an absurd nesting (RecursionError
# is a RuntimeError), a value too big, a bad base64 blob; every one means "recompute".
DECODE_ERRORS = (ValueError, KeyError, TypeError, IndexError, AttributeError, RuntimeError, OverflowError,
                 MemoryError, UnicodeError)


class FileStore:
    """A bank rule's ``Store``: one file of the cache, replaced whole through a temporary file (a concurrent run
    reads the old bytes or the new, never half of them). Every error reads as nothing kept, or a write lost."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def read(self) -> bytes | None:
        try:
            return _read_bytes(self.path)   # a FIFO or a link put in its place is nothing kept, not a hang
        except OSError:
            return None

    def write(self, chunks: Iterable[bytes]) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, chunks, prefix=".tmp-", suffix="")
        except OSError:
            pass

    def beside(self, part: str) -> FileStore:
        if not re.fullmatch(r"[a-z][a-z0-9-]*", part):
            raise ValueError(f"a store's part is a short lowercase name, not {part!r}")
        return FileStore(self.path.with_name(f"{self.path.stem}.{part}{self.path.suffix}"))


def outcome_head(text: str, outcome: CheckedFile) -> str:
    """What a run index keeps of ``outcome``'s entry ``text``: its first line, and a second line of the questions'
    columns only when the file's suppressions or ignore fields need them (an empty one otherwise)."""
    head, _, rest = text.partition("\n")
    needs = bool(outcome.suppressions) or any(item.ignore for item in outcome.items)
    return f"{head}\n{rest.partition(chr(10))[0] if needs else ''}"


def _keep_newest(folder: Path, suffix: str, kept: int) -> None:
    """Remove all but the ``kept`` newest files ending in ``suffix`` from ``folder`` (not a writer's temporary)."""
    try:
        entries = [p for p in folder.glob(f"*{suffix}") if not p.name.startswith(".")]
        entries.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        for old in entries[kept:]:
            old.unlink()
    except OSError:
        pass   # a concurrent run pruned first


class Answer:
    """A report on its way into the cache (``Cache.put_answer``): its bytes compressed as they are added, then a
    header of what the run said besides, all in one zlib stream whose checksum covers every byte."""

    MAX_REPORT_BYTES = 1024 * 1024 * 1024   # no answer is made of a report bigger than this

    def __init__(self) -> None:
        self.packer = zlib.compressobj(1)   # the fastest level: a JSON report still shrinks some thirty times
        self.chunks: list[bytes] | None = []
        self.size = 0

    def add(self, data: bytes) -> None:
        """More of the report; past the bound, the answer is given up."""
        self.size += len(data)
        if self.chunks is not None and self.size > self.MAX_REPORT_BYTES:
            self.chunks = None
        if self.chunks is not None:
            self.chunks.append(self.packer.compress(data))

    def close(self, header: dict[str, Any]) -> list[bytes] | None:
        """The compressed answer, the header (with the report's size) last; None when it was given up."""
        if self.chunks is None:
            return None
        head = json.dumps({**header, "size": self.size}, separators=(",", ":")).encode()
        return [*self.chunks, self.packer.compress(b"\n" + head), self.packer.flush()]


class Cache:
    """One folder of entries for one configuration key."""

    def __init__(self, folder: Path, codecs: Codecs = NO_CODECS) -> None:
        self.folder = folder
        self.codecs = codecs   # how the bank rules' features are encoded: the cache never knows their types

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
    def open(cls, base: Path, key: str, codecs: Codecs = NO_CODECS, warn: bool = True) -> Cache | None:
        """The entry folder for ``key`` in ``base`` (``location``); None (run without a cache) when there is nowhere
        safe to keep it (said on stderr when the reason is worth a word, unless not to ``warn``)."""
        secret = _secret()
        if secret is None:
            return None
        # The folder's name is keyed with a secret kept outside the repository: entries committed to a bank repo
        # (say, a planted "no findings" for a flawed file) are never found, so the cache cannot open the gate.
        name = hmac.new(secret, f"v{FORMAT}-{key}".encode(), hashlib.sha256).hexdigest()[:32]
        folder = base / f"v{FORMAT}-{name}"
        try:
            # the markers go only into a folder qlint made (or an empty one): a .gitignore of "*" in a folder
            # that holds anything else would hide its files from git
            if _own_folder(base) or not any(os.scandir(base)):
                _create(base / ".gitignore", IGNORE_ALL)
                _create(base / "CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n")
            if _own_folder(folder):
                _create(folder / ".gitignore", IGNORE_ALL)   # its entries stay out of git wherever the base is
            _touch(folder / USED)
        except SymlinkedFolder as exc:
            # a checkout can carry a symlink where the cache goes; the run is still right without a cache
            if warn:
                print(f"qlint: warning: not using the cache: {exc}", file=sys.stderr)
            return None
        except OSError:
            return None  # a read-only checkout simply runs without a cache
        cls.prune(base, keep=folder)
        return cls(folder, codecs)

    FOLDERS_KEPT = 4   # keys in use at once: a pre-commit run, a CI-like run, a run with other rules selected, ...

    @classmethod
    def prune(cls, base: Path, keep: Path) -> None:
        """Remove the entry folders of all but the most recently used few keys: each qlint upgrade, edited rule
        or changed setting starts a new key, and an old key's entries (as big as the bank's files) are never
        read again."""
        folders = [p for p in _entry_folders(base) if p != keep]

        def used(folder: Path) -> float:
            try:
                return os.stat(folder / USED, follow_symlinks=False).st_mtime
            except OSError:
                return 0.0

        folders.sort(key=used, reverse=True)
        for old in folders[cls.FOLDERS_KEPT - 1:]:
            shutil.rmtree(old, ignore_errors=True)   # a concurrent run still using it only loses its speed-up

    @staticmethod
    def clean(base: Path) -> int:
        """Delete every entry folder under ``base`` (and ``base`` itself when nothing else is left in it); the number
        of folders deleted. Only names qlint made are touched, so a cache-dir set to a shared folder is safe, and a
        base that is a symbolic link is not followed."""
        if base.is_symlink():
            return 0
        folders = _entry_folders(base)
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)
        try:   # the two marker files, when qlint wrote them
            if _read(base / ".gitignore").startswith("# Created by qlint"):
                (base / ".gitignore").unlink()
                (base / "CACHEDIR.TAG").unlink(missing_ok=True)
        except (OSError, UnicodeDecodeError):
            pass
        try:
            base.rmdir()   # only when empty
        except OSError:
            pass
        return len(folders)

    @staticmethod
    def digest(display: str, data: bytes) -> str:
        # SHA-256: with the CPU's SHA instructions about twice blake2b's speed, and a warm run hashes every byte
        h = hashlib.sha256(data)
        h.update(b"\0" + display.encode("utf-8", "surrogateescape"))
        return h.hexdigest()[:40]

    def empty(self) -> bool:
        """No entry was ever stored here (a key's first run), so no file can be a hit."""
        try:
            return not any(len(p.name) == 2 for p in self.folder.iterdir())
        except OSError:
            return False

    def store(self, name: str) -> FileStore:
        """Where bank rule ``name`` keeps its work between runs."""
        return FileStore(self.folder / "memo" / f"{name}.memo")

    def _path(self, digest: str) -> Path:
        return self.folder / digest[:2] / f"{digest}.json"

    def get(self, digest: str, features: bool = True) -> CheckedFile | None:
        """A file's outcome; with ``features=False`` its questions come without bank features (when the bank
        findings come from ``get_bank``, nothing needs them, and they are most of an entry)."""
        found = self.get_with_text(digest, features)
        return found[0] if found is not None else None

    def get_with_text(self, digest: str, features: bool = True) -> tuple[CheckedFile, str] | None:
        """``get``, and the entry's text (from which ``outcome_head`` takes what a run index keeps)."""
        try:
            text = _read(self._path(digest))
            return decode(text, features, self.codecs), text
        except (OSError, *DECODE_ERRORS):
            return None  # missing, or damaged by a crash or a hand: recompute

    def put(self, digest: str, outcome: CheckedFile | str) -> None:
        """Store an outcome (or its ``encode``-d text) under a file's digest."""
        text = outcome if isinstance(outcome, str) else encoded(outcome, self.codecs)
        if text is not None:
            self._write(self._path(digest), text)

    # --- stat signatures of files already hashed ---------------------------------------------------------------
    SETTLED_NS = 2_000_000_000   # a file changed this shortly before a run started may change again unseen

    def signatures(self) -> dict[str, tuple[tuple, str]]:
        """display path -> (stat signature, digest) for files hashed by an earlier run and unchanged for two
        seconds before it started (a write in the same clock tick as the last one leaves mtime and ctime as
        they were; git's index guards against the same race)."""
        try:
            doc = json.loads(_read(self.folder / "signatures.json"))
            _require(type(doc) is dict and type(doc["started"]) is int and type(doc["files"]) is dict)
            entries = doc["files"].values()
            _require(all(type(e) is list and len(e) == 6 and only(e[:5], int) and type(e[5]) is str for e in entries))
            settled = doc["started"] - self.SETTLED_NS
            return {display: (tuple(entry[:5]), entry[5]) for display, entry in doc["files"].items()
                    if entry[2] < settled}
        except (OSError, *DECODE_ERRORS):
            return {}

    def put_signatures(self, seen: dict[str, tuple[tuple, str]], started: int) -> None:
        files = {display: [*signature, digest] for display, (signature, digest) in seen.items()}
        self._write(self.folder / "signatures.json",
                    json.dumps({"started": started, "files": files}, separators=(",", ":")))

    # --- the run index: every file's outcome without its features, in one read ------------------------------
    # A warm run with nothing changed needs each file's findings, suppressions and rejected questions, never its
    # features: the first line (and, for a file whose suppressions or ignore fields need them, the second) of
    # every entry, kept together under the hash of the files' digests in order, so such a run opens one file,
    # not one per bank file. Any change to the set of files or their content names another index.
    RUNS_KEPT = 8

    def get_run(self, name: str, displays: list[str]) -> list[CheckedFile] | None:
        """The outcomes (without features) of the files named ``displays``, whose digests in order hash to
        ``name``; None when no run stored them, or the index is not in the shape ``put_run`` writes."""
        try:
            lines = _read(self.folder / "runs" / f"{name}.txt").split("\n")
            _require(len(lines) == 2 * len(displays))
            outcomes = []
            for display, head, middle in zip(displays, lines[::2], lines[1::2]):
                outcome = decode(f"{head}\n{middle}", False, self.codecs)
                _require(outcome.path == display)
                outcomes.append(outcome)
            return outcomes
        except (OSError, *DECODE_ERRORS):
            return None

    def put_run(self, name: str, heads: list[str]) -> None:
        """Keep the run index ``name``: each file's ``outcome_head``, in file order."""
        folder = self.folder / "runs"
        self._write(folder / f"{name}.txt", "\n".join(heads))
        _keep_newest(folder, ".txt", self.RUNS_KEPT)

    # --- whole-bank findings ------------------------------------------------------------------------
    # Bank rules see every question of every file, so their findings are a function of every file's content (and
    # of the key): stored under a hash of all the files' digests in order, they are reused only when no file
    # changed, was added, removed or renamed. Any change recomputes them from the per-question features.
    BANK_KEPT = 8   # results of the last few file sets (a pre-commit run and a full run, a few branches)

    @staticmethod
    def bank_name(digests: list[str]) -> str:
        return hashlib.sha256("\n".join(digests).encode()).hexdigest()[:40]

    def get_bank(self, name: str) -> list[Finding] | None:
        try:
            return _findings(json.loads(_read(self.folder / "bank" / f"{name}.json")))
        except (OSError, *DECODE_ERRORS):
            return None

    def put_bank(self, name: str, findings: list[Finding]) -> None:
        folder = self.folder / "bank"
        self._write(folder / f"{name}.json", json.dumps(_rows(findings, None), separators=(",", ":")))
        _keep_newest(folder, ".json", self.BANK_KEPT)   # each distinct set of files leaves one

    # --- answers: a whole run's report -------------------------------------------------------------------------
    # A run whose files, settings and report options are all those of an earlier run gives that run's report again,
    # byte for byte, without reading a finding. Each answer is kept compressed under the name of everything it
    # depends on (the caller's), and carries that name inside it: an answer copied under another's name is a miss.
    ANSWERS_KEPT = 4   # a few report forms of the same files: the terminal's, CI's JSON, a SARIF upload ...
    MAX_ANSWER_BYTES = 32 * 1024 * 1024   # compressed; a bigger report is written afresh each time

    def get_answer(self, name: str) -> tuple[dict[str, Any], memoryview] | None:
        """The answer kept under ``name``: its header (as ``Answer.header`` was given) and the report's bytes; None
        when there is none, or it is not whole and in the shape ``put_answer`` writes (zlib's checksum covers both)."""
        try:
            path = self.folder / "answers" / f"{name}.z"
            if os.lstat(path).st_size > self.MAX_ANSWER_BYTES:
                return None
            unpacker = zlib.decompressobj()
            data = unpacker.decompress(_read_bytes(path), Answer.MAX_REPORT_BYTES + 65536)
            _require(unpacker.eof and not unpacker.unconsumed_tail and not unpacker.unused_data)
            end = data.rfind(b"\n")   # the header is the last line: JSON text holds no newline
            doc = json.loads(data[end + 1:])
            _require(end >= 0 and type(doc) is dict and doc.get("name") == name and doc.get("size") == end)
            report = memoryview(data)[:end]   # a report of a million findings is not copied
            # in use: the newest are kept (the file was read without following a link: nor is one touched)
            os.utime(path, follow_symlinks=os.utime not in os.supports_follow_symlinks)
            return doc, report
        except (OSError, zlib.error, *DECODE_ERRORS):
            return None

    def put_answer(self, name: str, answer: Answer, header: dict[str, Any]) -> None:
        """Keep ``answer`` with ``header`` (JSON values) under ``name``, unless it is over the size limits; only the
        newest few answers are kept."""
        chunks = answer.close({**header, "name": name})
        if chunks is None or sum(map(len, chunks)) > self.MAX_ANSWER_BYTES:
            return
        folder = self.folder / "answers"
        self._write(folder / f"{name}.z", b"".join(chunks), suffix=".z")
        _keep_newest(folder, ".z", self.ANSWERS_KEPT)

    @staticmethod
    def _write(target: Path, text: str | bytes, suffix: str = ".json") -> None:
        """Write through a temporary file renamed into place: a concurrent reader sees all of it or nothing."""
        try:
            _own_folder(target.parent)
            write_atomic(target, [text if isinstance(text, bytes) else text.encode("utf-8")], prefix=".tmp-",
                         suffix=suffix)
        except OSError:
            pass
