"""Every rule qlint knows: built-ins and plugins through one entry-point group, plus rule packs.

Built-in rules are not special: they register under the entry-point group
``qlint.rules`` exactly as a third-party plugin does. An entry point may name a
Rule, an iterable of Rules, or a callable returning either.
"""
from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path

import qlint.rules
from qlint.packs import load_pack_files
from qlint.rule import Rule

GROUP = "qlint.rules"


class RegistryError(Exception):
    """Two rules claim the same name or code: a configuration error."""


@dataclass(frozen=True)
class PluginProblem:
    """A plugin that could not be loaded: reported, not fatal."""

    plugin: str
    message: str


@dataclass
class Registry:
    """Rules by name and by code."""

    rules: dict[str, Rule] = field(default_factory=dict)
    by_code: dict[str, Rule] = field(default_factory=dict)
    problems: list[PluginProblem] = field(default_factory=list)

    def add(self, rule: Rule, origin: str) -> None:
        if rule.name in self.rules and self.rules[rule.name] is not rule:
            raise RegistryError(f"{origin}: rule name {rule.name!r} is already taken")
        if rule.code in self.by_code and self.by_code[rule.code] is not rule:
            raise RegistryError(f"{origin}: rule code {rule.code} is already taken by {self.by_code[rule.code].name}")
        self.rules[rule.name] = rule
        self.by_code[rule.code] = rule

    def get(self, key: str) -> Rule | None:
        return self.rules.get(key) or self.by_code.get(key.upper())

    def __iter__(self) -> Iterator[Rule]:
        return iter(sorted(self.rules.values(), key=lambda r: r.code))


def builtin_rules() -> list[Rule]:
    """The rules shipped in ``qlint.rules``: one module each, exposing ``RULE``."""
    package = qlint.rules
    found: list[Rule] = []
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        rule = getattr(module, "RULE", None)
        if isinstance(rule, Rule):
            found.append(rule)
    return found


def _expand(obj: object) -> Iterable[Rule]:
    if isinstance(obj, Rule):
        return [obj]
    if callable(obj) and not isinstance(obj, type):
        obj = obj()
        if isinstance(obj, Rule):
            return [obj]
    if isinstance(obj, Iterable):
        items = list(obj)
        if all(isinstance(item, Rule) for item in items):
            return items
    raise TypeError("entry point must name a Rule, an iterable of Rules, or a callable returning them")


def load_registry(pack_paths: Iterable[Path] = ()) -> Registry:
    """Collect rules from every ``qlint.rules`` entry point, then from rule packs."""
    registry = Registry()
    eps = sorted(entry_points(group=GROUP), key=lambda ep: (ep.name != "builtin", ep.name))
    if not any(ep.name == "builtin" for ep in eps):
        # Running from a source tree that was never installed: the built-ins still load.
        for rule in builtin_rules():
            registry.add(rule, "qlint")
    for ep in eps:
        try:
            rules = list(_expand(ep.load()))
        except (Exception, SystemExit) as exc:  # a broken plugin is reported, never fatal
            registry.problems.append(PluginProblem(f"{ep.name} ({ep.value})", f"{type(exc).__name__}: {exc}"))
            continue
        for rule in rules:
            registry.add(rule, f"plugin {ep.name}")
    for rule, path in load_pack_files(pack_paths):
        registry.add(rule, f"rule pack {path}")
    return registry
