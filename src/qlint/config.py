"""``[tool.qlint]`` in pyproject.toml, or qlint.toml / .qlint.toml, found by walking up.

Validated once into frozen objects; every problem is a ConfigError with a
did-you-mean, which the CLI turns into exit code 2.
"""
from __future__ import annotations

import difflib
import os
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import lru_cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from qlint.files import read_regular
from qlint.finding import Severity
from qlint.formats.base import ReadLimits, format_name
from qlint.limits import Limits
from qlint.problems import ALWAYS_REPORTED
from qlint.registry import Registry
from qlint.rule import ActiveRule, Rule
from qlint.wording import did_you_mean, kebab, validation_message

if TYPE_CHECKING:
    from qlint.blueprint import Blueprint

CONFIG_FILES = ("qlint.toml", ".qlint.toml", "pyproject.toml")
MAX_CONFIG_BYTES = 4 * 1024 * 1024   # a config file, pyproject.toml included, is a few kB


class ConfigError(Exception):
    """A configuration the user must fix; the message says where and how."""


_DEFAULTS = Limits()


@dataclass(frozen=True, slots=True)
class Settings:
    """The top-level ``[tool.qlint]`` table, validated: a plain frozen object (``from_table`` makes one)."""

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    paths: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True   # leave out what git ignores, as ruff does
    fail_on: Severity = Severity.ERROR
    rule_packs: tuple[str, ...] = ()
    cache_dir: str | None = None
    max_file_size: int = _DEFAULTS.max_file_size
    max_depth: int = _DEFAULTS.max_depth
    max_alias_expansion: int = _DEFAULTS.max_alias_expansion
    rule_time_budget: float = _DEFAULTS.rule_time_budget
    rules: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    # glob -> bank format (gift, aiken, moodle-xml, qti, yaml) for files whose suffix does not say (Aiken's .txt)
    formats: Mapping[str, str] = field(default_factory=dict)
    extend: str | None = None   # a config file in this folder or above whose settings these add to
    # the exam blueprint: a YAML file (relative to the config's folder) or the blueprint itself as a table
    blueprint: str | Mapping[str, Any] | None = None

    @classmethod
    def from_table(cls, table: Mapping[str, Any], where: str = "config") -> Settings:
        """A table of settings (keys as a config file spells them) validated; ConfigError saying what is wrong."""
        return _validated(dict(table), where)[0]

    @property
    def limits(self) -> Limits:
        return ReadLimits(max_file_size=self.max_file_size, max_depth=self.max_depth,
                          max_alias_expansion=self.max_alias_expansion, rule_time_budget=self.rule_time_budget,
                          formats=tuple(self.formats.items()))

    def model_dump(self, *, by_alias: bool = False, mode: str = "python", include: Iterable[str] | None = None,
                   exclude: Iterable[str] = ()) -> dict[str, Any]:
        """The settings as a table (by the config's spelling with ``by_alias``; JSON values with ``mode="json"``),
        as ``qlint show-settings`` prints them and the cache's key hashes them."""
        kept = set(include) if include is not None else None
        dumped = {}
        for name in SETTING_NAMES:
            if name in exclude or (kept is not None and name not in kept):
                continue
            value = getattr(self, name)
            if mode == "json":
                value = _plain(value)
            dumped[SETTING_KEYS[name] if by_alias else name] = value
        return dumped


SETTING_NAMES = tuple(f.name for f in fields(Settings))
SETTING_KEYS = {name: kebab(name) for name in SETTING_NAMES}   # a setting's name -> its key in a config file
_NAMES = {key: name for name, key in SETTING_KEYS.items()}


def _plain(value: Any) -> Any:
    """A setting's value as JSON holds it."""
    if isinstance(value, Severity):
        return value.name.lower()
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


@lru_cache(maxsize=1)
def settings_model() -> Any:
    """The pydantic model of ``[tool.qlint]``: built only to word what is wrong with a table that the plain
    checks below do not accept as it stands (its messages, with their did-you-mean, are the ones users know)."""
    from pydantic import BaseModel, ConfigDict, Field, field_validator  # only for tables the checks below refuse

    class SettingsModel(BaseModel):
        model_config = ConfigDict(frozen=True, extra="forbid", alias_generator=kebab, populate_by_name=True)

        select: tuple[str, ...] | None = None
        extend_select: tuple[str, ...] = ()
        ignore: tuple[str, ...] = ()
        per_file_ignores: dict[str, tuple[str, ...]] = Field(default_factory=dict)
        paths: tuple[str, ...] = ()
        exclude: tuple[str, ...] = ()
        respect_gitignore: bool = Field(default=True, strict=True)
        fail_on: Severity = Severity.ERROR
        rule_packs: tuple[str, ...] = ()
        cache_dir: str | None = None
        max_file_size: int = Field(default=Limits.max_file_size, gt=0, le=MAX_FILE_SIZE, strict=True)
        max_depth: int = Field(default=Limits.max_depth, gt=0, le=MAX_DEPTH, strict=True)
        max_alias_expansion: int = Field(default=Limits.max_alias_expansion, ge=0, le=MAX_ALIAS_EXPANSION,
                                         strict=True)
        rule_time_budget: float = Field(default=Limits.rule_time_budget, gt=0, le=MAX_RULE_TIME_BUDGET)
        rules: dict[str, dict[str, Any]] = Field(default_factory=dict)
        formats: dict[str, str] = Field(default_factory=dict)
        extend: str | None = None
        blueprint: str | dict[str, Any] | None = None

        @field_validator("fail_on", mode="before")
        @classmethod
        def _severity(cls, value: Any) -> Severity:
            return Severity.parse(value)

        @field_validator("formats")
        @classmethod
        def _formats(cls, value: dict[str, str]) -> dict[str, str]:
            return {glob: format_name(name) for glob, name in value.items()}

    return SettingsModel


MAX_FILE_SIZE, MAX_DEPTH, MAX_ALIAS_EXPANSION, MAX_RULE_TIME_BUDGET = 1024 ** 3, 500, 10_000_000, 3600


class _Unsure(Exception):
    """A value the plain checks do not take as it stands: the pydantic model judges it (and words the error)."""


def _strings(value: Any) -> tuple[str, ...]:
    if type(value) in (list, tuple) and all(type(v) is str for v in value):
        return tuple(value)
    raise _Unsure


def _string(value: Any) -> str:
    if type(value) is str:
        return value
    raise _Unsure


def _optional(check: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: None if value is None else check(value)


def _table(check: Callable[[Any], Any]) -> Callable[[Any], dict[str, Any]]:
    def checked(value: Any) -> dict[str, Any]:
        if type(value) is not dict or not all(type(k) is str for k in value):
            raise _Unsure
        return {k: check(v) for k, v in value.items()}
    return checked


def _count(low: int, high: int) -> Callable[[Any], int]:
    def checked(value: Any) -> int:
        if type(value) is int and low <= value <= high:
            return value
        raise _Unsure
    return checked


def _seconds(value: Any) -> float:
    if type(value) in (int, float) and 0 < value <= MAX_RULE_TIME_BUDGET:
        return float(value)
    raise _Unsure


def _flag(value: Any) -> bool:
    if type(value) is bool:
        return value
    raise _Unsure


def _severity(value: Any) -> Severity:
    try:
        return Severity.parse(value) if isinstance(value, (str, Severity)) else _no(value)
    except ValueError:
        raise _Unsure from None


def _no(value: Any) -> Any:
    raise _Unsure


def _format(value: Any) -> str:
    try:
        return format_name(_string(value))
    except ValueError:
        raise _Unsure from None


def _options(value: Any) -> dict[str, Any]:
    if type(value) is not dict or not all(type(k) is str for k in value):
        raise _Unsure
    return dict(value)


def _blueprint_value(value: Any) -> Any:
    return value if type(value) is str else _options(value)


# each setting's plain check: what it takes is exactly what the pydantic model takes, converted the same way;
# anything else (a wrong type, a value out of range, a field named by its Python name) goes to the model
_CHECKS: dict[str, Callable[[Any], Any]] = {
    "select": _optional(_strings), "extend_select": _strings, "ignore": _strings,
    "per_file_ignores": _table(_strings), "paths": _strings, "exclude": _strings, "respect_gitignore": _flag,
    "fail_on": _severity, "rule_packs": _strings, "cache_dir": _optional(_string),
    "max_file_size": _count(1, MAX_FILE_SIZE), "max_depth": _count(1, MAX_DEPTH),
    "max_alias_expansion": _count(0, MAX_ALIAS_EXPANSION), "rule_time_budget": _seconds,
    "rules": _table(_options), "formats": _table(_format), "extend": _optional(_string),
    "blueprint": _optional(_blueprint_value),
}


@dataclass(frozen=True)
class Layer:
    """The rule selection of one config file, or of one --config override, applied in turn as ruff applies its
    layers: a ``select`` starts afresh, then ``extend-select`` adds and ``ignore`` takes away."""

    where: str
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()


@dataclass(frozen=True)
class Config:
    """Settings plus where they came from (paths in them are relative to ``root``): ``chain`` holds the config files
    read (those extended first, ``source`` last), ``origins`` where each setting (and ``rules.NAME`` table) was set,
    ``layers`` the rule selection of each file and override in order."""

    settings: Settings
    root: Path
    source: Path | None
    chain: tuple[Path, ...] = ()
    origins: Mapping[str, str] = field(default_factory=dict)
    layers: tuple[Layer, ...] = ()
    blueprint: Blueprint | None = None   # the exam blueprint ``settings.blueprint`` names, read and validated

    @property
    def pack_paths(self) -> list[Path]:
        return [self.root / p for p in self.settings.rule_packs]

    @property
    def selection(self) -> tuple[Layer, ...]:
        """The layers to apply; a Config made in code (no file read) has its settings' selection as its one layer."""
        if self.layers:
            return self.layers
        s = self.settings
        return (Layer(str(self.source or "config"), s.select, s.extend_select, s.ignore),)


def find_config(start: Path) -> Path | None:
    """The closest config file at or above ``start``; a pyproject.toml counts only with [tool.qlint]. One that
    cannot be read as TOML, or whose ``tool`` is not a table, is a ConfigError: it may hold qlint's settings, and
    they must not silently lapse."""
    # a file named is looked for from the folder it is named in: a link to a file elsewhere belongs to the project
    # it is linked into, not to the target's (whose config could send the cache out of the project); realpath of
    # that folder, so that a symlink loop is a path, not an exception
    if os.path.isfile(start) or not os.path.exists(start):
        here = Path(os.path.realpath(os.path.dirname(os.path.abspath(start))))
    else:
        here = Path(os.path.realpath(start))
    for folder in (here, *here.parents):
        for name in CONFIG_FILES:
            candidate = folder / name
            if not os.path.isfile(candidate):
                continue
            if name != "pyproject.toml":
                return candidate
            text, data = read_toml(candidate)
            tool = data.get("tool")
            if tool is not None and not isinstance(tool, dict):   # not a pyproject.toml any tool can read
                raise ConfigError(f"{candidate}:{key_line(text, '', 'tool') or 1}: [tool] must be a table")
            if isinstance(tool, dict) and "qlint" in tool:
                return candidate
            near = [k for k in tool or () if _near_qlint(k)]
            if near:   # [tool.qlnt], [tool.Qlint]: settings meant for qlint that would lapse without a word
                line = key_line(text, "tool", near[0]) or 1
                raise ConfigError(f"{candidate}:{line}: [tool.{near[0]}]: did you mean [tool.qlint]? qlint reads its "
                                  "settings from [tool.qlint] only")
    return None


def _near_qlint(name: str) -> bool:
    """A ``[tool.NAME]`` that is a slip for ``qlint``: another case or spelling, one letter off."""
    folded = name.lower()
    return name != "qlint" and folded[:1] == "q" and difflib.SequenceMatcher(None, folded, "qlint").ratio() >= 0.8


def read_toml(source: Path) -> tuple[str, dict[str, Any]]:
    """A config file's text and table; ConfigError naming the file (and the line where there is one) when it
    cannot be read, is not UTF-8, is not TOML or nests too deeply for the parser."""
    try:
        raw = read_regular(source, MAX_CONFIG_BYTES)
    except OSError as exc:
        raise ConfigError(f"{source}: cannot read config: {exc.strerror}") from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{source}: config file larger than {MAX_CONFIG_BYTES // 1024 ** 2} MiB")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise ConfigError(f"{source}:{line}: invalid TOML: not UTF-8 text (byte {raw[exc.start]:#04x})") from None
    _no_long_keys(text, str(source))
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        at = re.search(r"at line (\d+)", str(exc))   # Python 3.11's only note of where
        line = at[1] if at else text.count("\n") + 1    # else "at end of document"
        raise ConfigError(f"{source}:{line}: invalid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{source}: invalid TOML: nested too deeply") from None
    return text, _shallow(data, str(source))


MAX_CONFIG_DEPTH = 16   # tables and lists in tables: a config nests four deep (rules.NAME.option = [...])
MAX_KEY_PARTS = 100     # parts of one dotted key (rules.reading-level.max-grade has three)
# MAX_KEY_PARTS key parts in a row, each followed by a dot: bare, "quoted" or 'literal'; a chain is tried only
# where a part begins (the look-behind), and every quantifier is possessive, so the search is linear in the text
_LONG_KEY = re.compile(r"(?<![\w.\"'-])(?:(?:[A-Za-z0-9_-]++|\"(?:[^\"\\\n]|\\.)*+\"|'[^'\n]*+')[ \t]*+\.[ \t]*+)"
                       rf"{{{MAX_KEY_PARTS}}}")


def _no_long_keys(text: str, where: str) -> None:
    """A ConfigError for a dotted key of more than MAX_KEY_PARTS parts, before the TOML parser sees it: the
    parser's cost grows with the square of a key's parts (50,000 of them took 4 GB and 20 s, then failed)."""
    if text.count(".") >= MAX_KEY_PARTS and _LONG_KEY.search(text):
        raise ConfigError(f"{where}: invalid config: a dotted key of more than {MAX_KEY_PARTS} parts")


def _shallow(data: dict[str, Any], where: str) -> dict[str, Any]:
    """``data`` when it nests no deeper than MAX_CONFIG_DEPTH, else a ConfigError. Dotted keys (``a.a.a... = 1``)
    nest a table as deep as the line is long without recursing in the parser: validating such a table would."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_CONFIG_DEPTH:
            raise ConfigError(f"{where}: invalid config: tables or lists nested more than {MAX_CONFIG_DEPTH} deep")
        children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return data


def key_line(text: str, table: str, key: str) -> int | None:
    """The line of ``text`` that sets ``key`` in ``[table]`` ("" for the top level), or opens ``[table.key]``;
    None when it is not written plainly (for error messages only)."""
    current, header = "", f"{table}.{key}" if table else key
    assignment = re.compile(rf"""["']?{re.escape(key)}["']?\s*=""")
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("["):
            current = stripped.split("]")[0].lstrip("[").strip()   # "[tool.qlint]  # a comment" too
            if current == header:
                return number
        elif current == table and assignment.match(stripped):
            return number
    return None


Override = tuple[str, dict[str, Any]]   # a --config KEY=VALUE (or a flag that stands for one): where, its table
MAX_EXTEND = 8   # config files in one chain of ``extend``


@dataclass(frozen=True)
class _File:
    """One config file as read: its text (for error lines), its qlint table and where that table sits."""

    path: Path
    text: str
    table: dict[str, Any]
    table_name: str   # "tool.qlint" in pyproject.toml, "" in qlint.toml and .qlint.toml
    folder: Path      # its folder, symbolic links resolved

    def where(self, key: str) -> str:
        line = key_line(self.text, self.table_name, key)
        return f"{self.path}:{line}" if line is not None else str(self.path)


def load_config(path: Path | None, start: Path, overrides: Sequence[Override] = ()) -> Config:
    """Read and validate the config at ``path`` (or the one found from ``start``; none -> defaults), with the files
    it extends beneath it and ``overrides`` (--config KEY=VALUE) over it. Paths and globs are relative to ``root``:
    the folder of the outermost config file that the chain of ``extend`` reaches (else of the one found)."""
    source = path or find_config(start)
    files = _extended(source) if source is not None else []
    if files:
        root = files[0].folder
    else:
        here = Path(os.path.realpath(start))
        root = here if os.path.isdir(here) else here.parent
    merged: dict[str, Any] = {}
    origins: dict[str, str] = {}
    layers = []
    for f in files:
        settings, set_keys = _validated(f.table, str(f.path), partial(key_line, f.text, f.table_name))
        _check_paths(settings, f.folder, f.where)
        _merge(merged, origins, settings, set_keys, f.folder.relative_to(root).as_posix(),
               lambda key, f=f: f.where(key))
        layers.append(_layer(str(f.path), settings, set_keys))
    for where, table in overrides:
        if "extend" in table:
            raise ConfigError(f"{where}: extend names a config file and goes in one, not on the command line")
        settings, set_keys = _validated(table, where)
        _check_paths(settings, root, lambda key, where=where: where)
        _merge(merged, origins, settings, set_keys, ".", lambda key, where=where: where)
        layers.append(_layer(where, settings, set_keys))
    merged.pop("extend", None)
    settings = _validated(merged, str(source or "config"))[0]
    blueprint = _blueprint(settings.blueprint, root, origins.get("blueprint", str(source or "config")))
    return Config(settings, root, source, tuple(f.path for f in files), origins, tuple(layers), blueprint)


def parse_override(text: str) -> Override:
    """``--config KEY=VALUE``: one TOML assignment (``fail-on = "warning"``, ``rules.reading-grade.max-grade = 14``),
    checked as a line of a config file is when the run loads the config."""
    where = f"--config {text[:60]!r}" + ("..." if len(text) > 60 else "")
    _no_long_keys(text, where)
    try:
        table = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        raise ConfigError(f"{where}: not a config file, nor a TOML setting such as 'fail-on = \"warning\"' or "
                          "'rules.reading-grade.max-grade = 14' (strings in quotes)") from None
    return where, _shallow(table, where)


def _read_config_file(source: Path) -> _File:
    """One config file's qlint table; ConfigError when it is no regular file, is no TOML, or is not shaped so."""
    if not os.path.lexists(source):  # (a name too long for the system is none)
        raise ConfigError(f"{source}: no such config file")
    if not os.path.isfile(source):  # a FIFO or a device would block the read
        raise ConfigError(f"{source}: a config file must be a regular file")
    text, data = read_toml(source)
    table_name = "tool.qlint" if source.name == "pyproject.toml" else ""
    table = data
    if table_name:
        tool = data.get("tool", {})
        if not isinstance(tool, dict):
            raise ConfigError(f"{source}:{key_line(text, '', 'tool') or 1}: [tool] must be a table")
        table = tool.get("qlint", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{source}: [tool.qlint] must be a table")
    tool = table.get("tool") if not table_name else None
    if isinstance(tool, dict) and "qlint" in tool:   # a pyproject.toml table copied into qlint.toml as it was
        line = key_line(text, "", "tool.qlint") or key_line(text, "", "tool") or 1
        raise ConfigError(f"{source}:{line}: [tool.qlint]: in {source.name} the settings go at the top level, "
                          "without a table header (remove the [tool.qlint] line)")
    return _File(source, text, table, table_name, Path(os.path.realpath(source.parent)))


class OutsideFolder(ConfigError):
    """A chain of ``extend`` that leads out of the folder it must stay in (an editor's workspace folder)."""


def extends_outside(source: Path, folder: Path) -> str | None:
    """Why the config ``source`` cannot be used within ``folder`` (an ``extend`` that leads above it), reading no
    config file outside it; None when its whole chain lies inside."""
    try:
        _extended(source, Path(os.path.realpath(folder)))
    except OutsideFolder as exc:
        return str(exc)
    except ConfigError:
        return None   # a broken config: loading it says what is wrong
    return None


def _extended(source: Path, within: Path | None = None) -> list[_File]:
    """The config file and those it extends, outermost first. ``extend`` names a config file (qlint.toml,
    .qlint.toml or a pyproject.toml with [tool.qlint]) in the same folder or one above: a sub-bank's config adds to
    its parent's, and a repository's config can never make qlint read a file elsewhere on the machine. With
    ``within``, a config outside that folder is never read: OutsideFolder says which."""
    chain = [_read_config_file(source)]
    while (named := chain[-1].table.get("extend")) is not None:
        current = chain[-1]
        where = current.where("extend")
        if not isinstance(named, str) or not named.strip():
            raise ConfigError(f"{where}: extend must name a config file, as a string")
        target = Path(os.path.realpath(current.folder / named))
        if target.name not in CONFIG_FILES or not (target.parent == current.folder
                                                   or target.parent in current.folder.parents):
            raise ConfigError(f"{where}: extend {named!r} must name a qlint.toml, .qlint.toml or pyproject.toml in "
                              "this folder or a folder above it")
        if within is not None and target.parent != within and within not in target.parent.parents:
            raise OutsideFolder(f"{where}: extend {named!r} leads to a config outside {within}")
        if any(os.path.realpath(f.path) == str(target) for f in chain):
            raise ConfigError(f"{where}: extend {named!r} leads back to a config file already in the chain")
        if len(chain) >= MAX_EXTEND:
            raise ConfigError(f"{where}: more than {MAX_EXTEND} config files extend one another")
        if not os.path.exists(target):
            raise ConfigError(f"{where}: extend {named!r}: no such file")
        parent = _read_config_file(target)
        if parent.table_name and not parent.table:
            raise ConfigError(f"{where}: extend {named!r}: that pyproject.toml has no [tool.qlint] table")
        chain.append(parent)
    return chain[::-1]


def _validated(table: dict[str, Any], where: str, lines=None) -> tuple[Settings, list[str]]:
    """A table's settings and the keys it sets (in the settings' order). A table the plain checks take as it
    stands (every config written as the README shows) never builds the pydantic model; any other goes through
    it, which says what is wrong as it always has, or takes what its conversions accept."""
    try:
        values = {_NAMES[key]: _CHECKS[_NAMES[key]](value) for key, value in table.items()}
    except (KeyError, _Unsure):
        return _modelled(table, where, lines)
    return Settings(**values), [SETTING_KEYS[n] for n in SETTING_NAMES if n in values]


def _modelled(table: dict[str, Any], where: str, lines=None) -> tuple[Settings, list[str]]:
    from pydantic import ValidationError  # loaded by settings_model already

    model = settings_model()
    try:
        validated = model.model_validate(table)
    except ValidationError as exc:
        allowed = [f.alias or name for name, f in model.model_fields.items()]
        raise ConfigError(validation_message(exc, allowed, where, lines)) from None
    except ValueError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    given = validated.model_fields_set
    return (Settings(**{n: getattr(validated, n) for n in SETTING_NAMES}),
            [SETTING_KEYS[n] for n in SETTING_NAMES if n in given])


def _layer(where: str, settings: Settings, set_keys: list[str]) -> Layer:
    return Layer(where, settings.select if "select" in set_keys else None, settings.extend_select, settings.ignore)


def _check_paths(settings: Settings, folder: Path, where: Callable[[str], str]) -> None:
    """A config's bank ``paths`` and ``rule-packs`` lie inside its own folder (discovery never climbs above the
    config, and a repository cannot make qlint read, and quote in an error, a file elsewhere), and its
    ``cache-dir`` stays there too, clear of them."""
    for key, names, what in (("paths", settings.paths, "a bank is read from the config's folder down"),
                             ("rule-packs", settings.rule_packs, "rule packs are read from the config's folder down")):
        for name in names:
            real = Path(os.path.realpath(folder / name))
            if real != folder and folder not in real.parents:
                raise ConfigError(f"{where(key)}: {key}: {name!r} lies outside {folder}, the folder of the config "
                                  f"that names it; {what}")
    _check_cache_dir(settings, folder, where("cache-dir"))


_ADDED = ("exclude", "per-file-ignores", "formats", "rules")   # an extending config adds to these


def _merge(merged: dict[str, Any], origins: dict[str, str], settings: Settings, set_keys: list[str], prefix: str,
           where: Callable[[str], str]) -> None:
    """One config's settings over those merged so far: relative paths and globs rebased from its folder
    (``prefix``, relative to the root) to the root; lists and tables of ``_ADDED`` added to, the rest replaced."""
    for key in set_keys:
        value = getattr(settings, _NAMES[key])
        if key in ("paths", "rule-packs"):
            value = [_rebased_path(p, prefix) for p in value]
        elif key in ("cache-dir", "blueprint") and isinstance(value, str):
            value = _rebased_path(value, prefix)
        elif key == "exclude":
            value = [*merged.get(key, ()), *(_rebased_glob(g, prefix) for g in value)]
        elif key in ("per-file-ignores", "formats"):
            value = {**merged.get(key, {}), **{_rebased_glob(g, prefix): v for g, v in value.items()}}
        elif key == "rules":
            for name in value:
                origins[f"rules.{name}"] = where(f"rules.{name}")
            value = {**merged.get(key, {}),
                     **{n: {**merged.get(key, {}).get(n, {}), **t} if isinstance(t, dict) else t for n, t in value.items()}}
        elif key in ("extend-select", "ignore") and "select" not in set_keys:
            value = [*merged.get(key, ()), *value]   # a select starts the selection afresh; else they add up
        merged[key] = value
        origins[key] = where(key)


def _rebased_path(name: str, prefix: str) -> str:
    return name if prefix == "." or os.path.isabs(name) else os.path.normpath(os.path.join(prefix, name))


def _rebased_glob(pattern: str, prefix: str) -> str:
    """A glob relative to a config's folder (``prefix`` below the root) as a glob relative to the root, with the
    gitignore syntax's meaning kept: a pattern with no slash matches a name at any depth below that folder."""
    if prefix == ".":
        return pattern
    negated, body = (True, pattern[1:]) if pattern.startswith("!") else (False, pattern)
    rebased = f"{prefix}/{body.lstrip('/')}" if "/" in body.rstrip("/") or body.startswith("/") else f"{prefix}/**/{body}"
    return ("!" if negated else "") + rebased


def _blueprint(named: str | dict[str, Any] | None, root: Path, where: str) -> Blueprint | None:
    """The blueprint a config names: a YAML file inside the config's folder tree (a repository's config must not
    make qlint read elsewhere), or a table; ConfigError with file and line for a bad one."""
    if named is None:
        return None
    from qlint.blueprint import BlueprintError, load_blueprint, validate  # only for a config that names a blueprint

    try:
        if isinstance(named, dict):
            return validate(named, where)
        path = Path(os.path.realpath(root / named))
        if root not in path.parents:
            raise ConfigError(f"{where}: blueprint {named!r} must be a file below {root}")
        return load_blueprint(path, os.path.relpath(path))
    except BlueprintError as exc:
        raise ConfigError(str(exc)) from None
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{where}: blueprint: {exc}") from None


def _check_cache_dir(settings: Settings, root: Path, where: str) -> None:
    """A config file's ``cache-dir`` stays inside the config's folder tree and clear of the bank paths: a
    repository must not steer qlint's writes elsewhere (through ``..`` or a committed symlink), nor put the cache's
    ``.gitignore`` over bank files. QLINT_CACHE_DIR, set by the user, may point anywhere."""
    if settings.cache_dir is None:
        return
    try:
        folder = Path(os.path.realpath(root / settings.cache_dir))
        banks = [(p, Path(os.path.realpath(root / p))) for p in settings.paths]
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{where}: cache-dir: {exc}") from None
    if root not in folder.parents:
        raise ConfigError(f"{where}: cache-dir {settings.cache_dir!r} must be a folder below {root} "
                          "(set QLINT_CACHE_DIR to keep the cache elsewhere)")
    for name, bank in banks:
        if bank == folder or bank in folder.parents or folder in bank.parents:
            raise ConfigError(f"{where}: cache-dir {settings.cache_dir!r} overlaps the bank path {name!r} "
                              "(its .gitignore would hide bank files from git)")


def _rules_where(config: Config, key: str) -> str:
    """``file:line`` of the ``[rules.<key>]`` table, for an error about it (the file is read again: errors only)."""
    if f"rules.{key}" in config.origins:
        return config.origins[f"rules.{key}"]
    where = str(config.source or "config")
    if config.source is None:
        return where
    try:
        text = read_toml(config.source)[0]
    except ConfigError:
        return where
    line = key_line(text, "tool.qlint.rules" if config.source.name == "pyproject.toml" else "rules", key)
    return f"{where}:{line}" if line is not None else where


def _match(registry: Registry, selector: str, where: str) -> list[Rule]:
    """Rules named by a selector: a name, a code, a code prefix (``Q3``) or ``ALL``."""
    key = selector.strip()
    if key.upper() == "ALL":
        return list(registry)
    rule = registry.get(key)
    if rule is not None:
        return [rule]
    prefixed = [r for r in registry if r.code.startswith(key.upper())] if key[:1].isalpha() and key[:1].isupper() else []
    if prefixed:
        return prefixed
    names = [r.name for r in registry] + [r.code for r in registry]
    hint = did_you_mean(key, names, "; `qlint rules` lists them")
    raise ConfigError(f"{where}: unknown rule {key!r}{hint}")


def resolve_rules(config: Config, registry: Registry, *, select: Iterable[str] | None = None,
                  extend_select: Iterable[str] = (), ignore: Iterable[str] = ()) -> list[ActiveRule]:
    """Which rules run, with which options and severity. CLI selectors override the config's."""
    settings = config.settings
    where = str(config.source or "config")
    names = {r.name for r in registry if r.enabled}
    cli = Layer("", tuple(select) if select is not None else None, tuple(extend_select), tuple(ignore))
    for layer in (*config.selection, cli):   # each config file, each --config, then the flags: ruff's order
        label = (lambda key: f"--{key}") if layer is cli else (lambda key, w=layer.where: f"{w}: {key}")
        if layer.select is not None:
            names = {r.name for sel in layer.select for r in _match(registry, sel, label("select"))}
        for sel in layer.extend_select:
            names |= {r.name for r in _match(registry, sel, label("extend-select"))}
        for sel in layer.ignore:
            names -= {r.name for r in _match(registry, sel, label("ignore"))}
    for pattern, selectors in settings.per_file_ignores.items():
        for sel in selectors:
            _match(registry, sel, f"{where}: per-file-ignores[{pattern!r}]")

    per_rule: dict[str, tuple[str, dict[str, Any]]] = {}   # rule name -> (the key it was set under, its table)
    for key, table in settings.rules.items():
        matched = _match(registry, key, f"{_rules_where(config, key)}: [rules.{key}]")
        if not isinstance(table, dict):
            raise ConfigError(f"{_rules_where(config, key)}: [rules.{key}] must be a table")
        for rule in matched:
            per_rule[rule.name] = (key, table)

    active = []
    for rule in registry:
        key, table = per_rule.get(rule.name, (rule.name, {}))
        table = dict(table)
        severity = rule.severity
        if "severity" in table:
            try:
                severity = Severity.parse(table.pop("severity"))
            except ValueError as exc:
                raise ConfigError(f"{_rules_where(config, key)}: [rules.{rule.name}]: {exc}") from None
        if config.blueprint is not None and "blueprint" in rule.options.model_fields:
            table.setdefault("blueprint", config.blueprint)   # the rules that check coverage take the blueprint
        try:
            options = rule.options.model_validate(table)
        except Exception as exc:
            from pydantic import ValidationError  # a rule's options model said no: pydantic is loaded already

            if not isinstance(exc, ValidationError):
                raise
            allowed = ["severity"] + [f.alias or n for n, f in rule.options.model_fields.items()]
            raise ConfigError(validation_message(exc, allowed, f"{_rules_where(config, key)}: [rules.{rule.name}]")) from None
        if rule.name in names:
            active.append(ActiveRule(rule, options, severity))
    return active


def unapplied_ignores(config: Config, registry: Registry, ignore: Iterable[str] = ()) -> list[str]:
    """A warning for each ``ignore`` (the CLI's, the config's, per-file-ignores) that names a rule whose findings
    are always reported, so that the user learns the ignore did nothing instead of trusting it."""
    where = str(config.source or "config")
    named = [("--ignore", sel) for sel in ignore] + [(f"{where}: ignore", sel) for sel in config.settings.ignore]
    named += [(f"{where}: per-file-ignores[{pattern!r}]", sel)
              for pattern, selectors in config.settings.per_file_ignores.items() for sel in selectors]
    warnings = []
    for origin, sel in named:
        try:
            matched = _match(registry, sel, origin)
        except ConfigError:
            continue
        # a prefix or ALL that also names other rules ignores those; only a selector aimed at these says so
        if len(matched) == 1 and matched[0].name in ALWAYS_REPORTED:
            name = matched[0].name
            warnings.append(f"{origin} {sel}: {name} findings are always reported (the other rules did not check "
                            f"what they hide); to accept one, suppress it where it is with a reason, or set its "
                            f"severity in [rules.{name}]")
    return warnings


def per_file_ignores(config: Config, registry: Registry) -> tuple[tuple[str, frozenset[str]], ...]:
    """``per-file-ignores`` resolved: each glob (relative to the config root) with the rule names it switches off."""
    return tuple((pattern, frozenset(r.name for sel in selectors for r in _match(registry, sel, "per-file-ignores")))
                 for pattern, selectors in config.settings.per_file_ignores.items())
