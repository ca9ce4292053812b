"""``[tool.qlint]`` in pyproject.toml, or qlint.toml / .qlint.toml, found by walking up.

Validated once into frozen objects; every problem is a ConfigError with a
did-you-mean, which the CLI turns into exit code 2.
"""
from __future__ import annotations

import difflib
import os
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from qlint.finding import Severity
from qlint.formats.base import ReadLimits, format_name
from qlint.loader import Limits, matches_glob
from qlint.registry import Registry
from qlint.rule import Rule, RuleOptions

CONFIG_FILES = ("qlint.toml", ".qlint.toml", "pyproject.toml")


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
    max_file_size: int = Field(default=Limits.max_file_size, gt=0)
    max_depth: int = Field(default=Limits.max_depth, gt=0, le=500)
    max_alias_expansion: int = Field(default=Limits.max_alias_expansion, ge=0)
    rules: dict[str, dict[str, Any]] = Field(default_factory=dict)
    # glob -> bank format (gift, aiken, moodle-xml, qti, yaml) for files whose suffix does not say (Aiken's .txt)
    formats: dict[str, str] = Field(default_factory=dict)

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
        return ReadLimits(self.max_file_size, self.max_depth, self.max_alias_expansion, tuple(self.formats.items()))


@dataclass(frozen=True)
class Config:
    """Settings plus where they came from (paths in them are relative to ``root``)."""

    settings: Settings
    root: Path
    source: Path | None

    @property
    def pack_paths(self) -> list[Path]:
        return [self.root / p for p in self.settings.rule_packs]


@dataclass(frozen=True)
class ActiveRule:
    """A rule as this run uses it: its validated options and effective severity."""

    rule: Rule
    options: RuleOptions
    severity: Severity


def find_config(start: Path) -> Path | None:
    """The closest config file at or above ``start``; a pyproject.toml counts only with [tool.qlint]."""
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
            try:
                if "qlint" in tomllib.loads(candidate.read_text(encoding="utf-8")).get("tool", {}):
                    return candidate
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                continue
    return None


def validation_message(exc: ValidationError, allowed: Iterable[str], where: str) -> str:
    """pydantic's errors as one line each, ``where: ...``; an unknown key gets a did-you-mean."""
    lines = []
    allowed = list(allowed)
    for err in exc.errors():
        key = ".".join(str(p) for p in err["loc"])
        if err["type"] == "extra_forbidden":
            close = difflib.get_close_matches(str(err["loc"][-1]), allowed, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; known keys: {', '.join(allowed)}"
            lines.append(f"{where}: unknown key {key!r}{hint}")
        else:
            lines.append(f"{where}: {key}: {err['msg']}")
    return "\n".join(lines)


def load_config(path: Path | None, start: Path) -> Config:
    """Read and validate the config at ``path`` (or the one found from ``start``; none -> defaults)."""
    source = path or find_config(start)
    if source is None:
        root = Path(os.path.realpath(start))
        return Config(Settings(), root if root.is_dir() else root.parent, None)
    if not source.is_file():  # a FIFO or a device would block the read
        raise ConfigError(f"{source}: a config file must be a regular file")
    try:
        data = tomllib.loads(source.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"{source}: cannot read config: {exc.strerror}") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{source}: invalid TOML: {exc}") from None
    table = data.get("tool", {}).get("qlint", {}) if source.name == "pyproject.toml" else data
    if not isinstance(table, dict):
        raise ConfigError(f"{source}: [tool.qlint] must be a table")
    try:
        settings = Settings.model_validate(table)
    except ValidationError as exc:
        allowed = [f.alias or name for name, f in Settings.model_fields.items()]
        raise ConfigError(validation_message(exc, allowed, str(source))) from None
    except ValueError as exc:
        raise ConfigError(f"{source}: {exc}") from None
    return Config(settings, Path(os.path.realpath(source.parent)), source)


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

    per_rule: dict[str, dict[str, Any]] = {}
    for key, table in settings.rules.items():
        matched = _match(registry, key, f"{where}: [rules.{key}]")
        if not isinstance(table, dict):
            raise ConfigError(f"{where}: [rules.{key}] must be a table")
        for rule in matched:
            per_rule[rule.name] = table

    active = []
    for rule in registry:
        table = dict(per_rule.get(rule.name, {}))
        severity = rule.severity
        if "severity" in table:
            try:
                severity = Severity.parse(table.pop("severity"))
            except ValueError as exc:
                raise ConfigError(f"{where}: [rules.{rule.name}]: {exc}") from None
        try:
            options = rule.options.model_validate(table)
        except ValidationError as exc:
            allowed = ["severity"] + [f.alias or n for n, f in rule.options.model_fields.items()]
            raise ConfigError(validation_message(exc, allowed, f"{where}: [rules.{rule.name}]")) from None
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
