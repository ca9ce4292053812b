"""``[tool.qlint]`` in pyproject.toml, or qlint.toml / .qlint.toml, found by walking up.

Validated once into frozen objects; every problem is a ConfigError with a
did-you-mean, which the CLI turns into exit code 2.
"""
from __future__ import annotations

import difflib
import os
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from qlint.blueprint import Blueprint, BlueprintError, load_blueprint, validate
from qlint.files import matches_glob
from qlint.finding import Severity
from qlint.formats.base import ReadLimits, format_name
from qlint.limits import Limits
from qlint.registry import Registry
from qlint.rule import ActiveRule, Rule
from qlint.wording import validation_message

CONFIG_FILES = ("qlint.toml", ".qlint.toml", "pyproject.toml")
MAX_CONFIG_BYTES = 4 * 1024 * 1024   # a config file, pyproject.toml included, is a few kB


class ConfigError(Exception):
    """A configuration the user must fix; the message says where and how."""


def _kebab(name: str) -> str:
    return name.replace("_", "-")


class Settings(BaseModel):
    """The top-level ``[tool.qlint]`` table."""

    model_config = ConfigDict(frozen=True, extra="forbid", alias_generator=_kebab, populate_by_name=True)

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    paths: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    fail_on: Severity = Severity.ERROR
    rule_packs: tuple[str, ...] = ()
    cache_dir: str | None = None
    max_file_size: int = Field(default=Limits.max_file_size, gt=0, le=1024 ** 3, strict=True)
    max_depth: int = Field(default=Limits.max_depth, gt=0, le=500, strict=True)
    max_alias_expansion: int = Field(default=Limits.max_alias_expansion, ge=0, le=10_000_000, strict=True)
    rule_time_budget: float = Field(default=Limits.rule_time_budget, gt=0, le=3600)
    rules: dict[str, dict[str, Any]] = Field(default_factory=dict)
    # glob -> bank format (gift, aiken, moodle-xml, qti, yaml) for files whose suffix does not say (Aiken's .txt)
    formats: dict[str, str] = Field(default_factory=dict)
    # the exam blueprint: a YAML file (relative to the config's folder) or the blueprint itself as a table
    blueprint: str | dict[str, Any] | None = None

    @field_validator("fail_on", mode="before")
    @classmethod
    def _severity(cls, value: Any) -> Severity:
        return Severity.parse(value)

    @field_validator("formats")
    @classmethod
    def _formats(cls, value: dict[str, str]) -> dict[str, str]:
        return {glob: format_name(name) for glob, name in value.items()}

    @property
    def limits(self) -> Limits:
        return ReadLimits(max_file_size=self.max_file_size, max_depth=self.max_depth,
                          max_alias_expansion=self.max_alias_expansion, rule_time_budget=self.rule_time_budget,
                          formats=tuple(self.formats.items()))


@dataclass(frozen=True)
class Config:
    """Settings plus where they came from (paths in them are relative to ``root``)."""

    settings: Settings
    root: Path
    source: Path | None
    blueprint: Blueprint | None = None   # the exam blueprint ``settings.blueprint`` names, read and validated

    @property
    def pack_paths(self) -> list[Path]:
        return [self.root / p for p in self.settings.rule_packs]


def find_config(start: Path) -> Path | None:
    """The closest config file at or above ``start``; a pyproject.toml counts only with [tool.qlint]. One that
    cannot be read as TOML is a ConfigError: it may hold [tool.qlint], and its settings must not silently lapse."""
    here = Path(os.path.realpath(start))  # realpath: a symlink loop is a path, not an exception
    if here.is_file() or not here.exists():
        here = here.parent
    for folder in (here, *here.parents):
        for name in CONFIG_FILES:
            candidate = folder / name
            if not candidate.is_file():
                continue
            if name != "pyproject.toml":
                return candidate
            tool = read_toml(candidate)[1].get("tool")
            if isinstance(tool, dict) and "qlint" in tool:
                return candidate
    return None


def read_toml(source: Path) -> tuple[str, dict[str, Any]]:
    """A config file's text and table; ConfigError naming the file (and the line where there is one) when it
    cannot be read, is not UTF-8, is not TOML or nests too deeply for the parser."""
    try:
        with open(source, "rb") as handle:
            raw = handle.read(MAX_CONFIG_BYTES + 1)
    except OSError as exc:
        raise ConfigError(f"{source}: cannot read config: {exc.strerror}") from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{source}: config file larger than {MAX_CONFIG_BYTES // 1024 ** 2} MiB")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise ConfigError(f"{source}:{line}: invalid TOML: not UTF-8 text (byte {raw[exc.start]:#04x})") from None
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        at = re.search(r"at line (\d+)", str(exc))   # Python 3.11's only note of where
        line = at[1] if at else text.count("\n") + 1    # else "at end of document"
        raise ConfigError(f"{source}:{line}: invalid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{source}: invalid TOML: nested too deeply") from None


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


def load_config(path: Path | None, start: Path) -> Config:
    """Read and validate the config at ``path`` (or the one found from ``start``; none -> defaults)."""
    source = path or find_config(start)
    if source is None:
        root = Path(os.path.realpath(start))
        return Config(Settings(), root if root.is_dir() else root.parent, None)
    if not source.is_file():  # a FIFO or a device would block the read
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
    try:
        settings = Settings.model_validate(table)
    except ValidationError as exc:
        allowed = [f.alias or name for name, f in Settings.model_fields.items()]
        lines = partial(key_line, text, table_name)
        raise ConfigError(validation_message(exc, allowed, str(source), lines)) from None
    except ValueError as exc:
        raise ConfigError(f"{source}: {exc}") from None
    root = Path(os.path.realpath(source.parent))
    _check_cache_dir(settings, root, f"{source}:{key_line(text, table_name, 'cache-dir') or 1}")
    where = f"{source}:{key_line(text, table_name, 'blueprint') or 1}"
    return Config(settings, root, source, _blueprint(settings.blueprint, root, where))


def _blueprint(named: str | dict[str, Any] | None, root: Path, where: str) -> Blueprint | None:
    """The blueprint a config names: a YAML file inside the config's folder tree (a repository's config must not
    make qlint read elsewhere), or a table; ConfigError with file and line for a bad one."""
    if named is None:
        return None
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
    close = difflib.get_close_matches(key, names, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else "; `qlint rules` lists them"
    raise ConfigError(f"{where}: unknown rule {key!r}{hint}")


def resolve_rules(config: Config, registry: Registry, *, select: Iterable[str] | None = None,
                  extend_select: Iterable[str] = (), ignore: Iterable[str] = ()) -> list[ActiveRule]:
    """Which rules run, with which options and severity. CLI selectors override the config's."""
    settings = config.settings
    where = str(config.source or "config")
    if select is not None:
        names = {r.name for sel in select for r in _match(registry, sel, "--select")}
    elif settings.select is not None:
        names = {r.name for sel in settings.select for r in _match(registry, sel, f"{where}: select")}
    else:
        names = {r.name for r in registry if r.enabled}
    for sel in settings.extend_select:
        names |= {r.name for r in _match(registry, sel, f"{where}: extend-select")}
    for sel in extend_select:
        names |= {r.name for r in _match(registry, sel, "--extend-select")}
    for sel in settings.ignore:
        names -= {r.name for r in _match(registry, sel, f"{where}: ignore")}
    for sel in ignore:
        names -= {r.name for r in _match(registry, sel, "--ignore")}
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
        except ValidationError as exc:
            allowed = ["severity"] + [f.alias or n for n, f in rule.options.model_fields.items()]
            raise ConfigError(validation_message(exc, allowed, f"{_rules_where(config, key)}: [rules.{rule.name}]")) from None
        if rule.name in names:
            active.append(ActiveRule(rule, options, severity))
    return active


def ignored_for(config: Config, registry: Registry, relpath: str) -> frozenset[str]:
    """Rule names that per-file-ignores switch off for a file (path relative to the config root)."""
    names: set[str] = set()
    for pattern, selectors in config.settings.per_file_ignores.items():
        if matches_glob(Path(relpath), (pattern,)):
            for sel in selectors:
                names |= {r.name for r in _match(registry, sel, "per-file-ignores")}
    return frozenset(names)
