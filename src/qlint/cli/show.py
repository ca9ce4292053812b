"""``check --show-settings`` and ``--show-files``: what a check would use and read, without checking anything.

As ruff's flags of the same names: the resolved settings, each with where its value came from (a config file and
line, ``--config``, a flag, or the default), the bank a named file is compared with, and the rules that would run;
or the files the check would report on, one a line (yamllint's ``--list-files``).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO

from qlint.config import Config, ConfigError, resolve_rules
from qlint.files import relative
from qlint.finding import Severity
from qlint.output.base import json_safe
from qlint.registry import Registry
from qlint.run.cache import Cache
from qlint.run.pipeline import bank_roots


def settings_view(config: Config, registry: Registry, named: str, *, select: list[str] | None,
                  extend_select: list[str], ignore: list[str]) -> dict[str, Any]:
    """The settings a check of ``named`` resolves, as data: every setting with its value and origin, the rule
    tables the config sets, the bank, and the rules that run."""
    try:
        active = resolve_rules(config, registry, select=select, extend_select=extend_select, ignore=ignore)
    except ConfigError as exc:
        raise ValueError(str(exc)) from None
    dumped = config.settings.model_dump(by_alias=True, exclude={"rules", "extend"})
    settings = {key: {"value": _plain(value), "from": _origin(config, key)} for key, value in dumped.items()}
    rules = {name: {"options": _plain(table), "from": _relative_origin(config.origins.get(f"rules.{name}", "config"))}
             for name, table in config.settings.rules.items()}
    paths = config.settings.paths
    bank = {"paths": [relative(p) for p in bank_roots(config)], "from": _origin(config, "paths")} if paths else None
    return {"file": named, "config_files": [relative(p) for p in config.chain], "root": str(config.root),
            "bank": bank, "cache": str(Cache.location(config)), "settings": settings, "rules": rules,
            "active": [{"code": a.rule.code, "name": a.rule.name, "severity": str(a.severity)} for a in active]}


def _origin(config: Config, key: str) -> str:
    origin = config.origins.get(key)
    if origin is None:
        return "default"
    return origin if origin.startswith("--") else _relative_origin(origin)


def _relative_origin(origin: str) -> str:
    """``/abs/qlint.toml:3`` as the user's paths are shown: relative to the working folder when below it."""
    path, sep, line = origin.rpartition(":")
    if not sep or not line.isdigit():
        return relative(Path(origin))
    return f"{relative(Path(path))}:{line}"


def _plain(value: Any) -> Any:
    """A setting's value as JSON and TOML hold it (a severity as its name, tuples as lists)."""
    if isinstance(value, Severity):
        return str(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def render_settings(view: dict[str, Any], out: TextIO, fmt: str) -> None:
    if fmt == "json":
        out.write(json_safe(json.dumps(view, indent=2, ensure_ascii=False)) + "\n")
        return
    files = ", ".join(view["config_files"]) or "none (defaults)"
    out.write(f"Settings for {view['file']}\n")
    out.write(f"  config files: {files}\n  root:         {view['root']}\n")
    if view["bank"] is not None:
        out.write(f"  bank:         {', '.join(view['bank']['paths'])} (paths, {view['bank']['from']}): named files are "
                  "compared with it\n")
    else:
        out.write("  bank:         none configured (no paths): named files are compared only with each other, and a "
                  "folder named is its own bank\n")
    out.write(f"  cache:        {view['cache']}\n\n")
    lines = [(f"{key} = {_toml(item['value'])}" if item["value"] is not None else f"# {key} is not set", item["from"])
             for key, item in view["settings"].items()]
    width = max(len(text) for text, _ in lines)
    for text, origin in lines:
        out.write(f"{text:<{width}}  # {origin}\n")
    for name, table in view["rules"].items():
        out.write(f"\n[rules.{name}]  # {table['from']}\n")
        for key, value in table["options"].items():
            out.write(f"{key} = {_toml(value)}\n")
    out.write(f"\n# {len(view['active'])} rules run:\n")
    width = max((len(a["name"]) for a in view["active"]), default=0)
    out.writelines(f"#   {a['code']}  {a['name']:<{width}}  {a['severity']}\n" for a in view["active"])


def _toml(value: Any) -> str:
    """A value written as TOML: strings quoted, lists in brackets, tables inline."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{json.dumps(str(k), ensure_ascii=False)} = {_toml(v)}" for k, v in value.items()) + " }" \
            if value else "{}"
    return "[" + ", ".join(_toml(v) for v in value) + "]"
