"""Every rule qlint knows: built-ins and plugins through one entry-point group, plus rule packs.

Built-in rules are not special: they register under the entry-point group
``qlint.rules`` exactly as a third-party plugin does. An entry point may name a
Rule, an iterable of Rules, or a callable returning either.

The built-ins, and the rules of the packs qlint ships, are also listed in a manifest shipped with qlint
(``data/manifest.json``, written by ``scripts/gen_manifest.py`` from the rules themselves; a test fails when the two
disagree): each rule's name, code, class, default severity and state, summary, and a reference to its options model
with their defaults. A run reads the manifest and imports a rule's module (its patterns, its word lists), or reads
its pack, only when the rule is first used: a warm check, whose outcomes all come from the cache, loads none. The
stand-in (``LazyRule``) answers what the manifest holds, is an instance of the rule's class to ``isinstance``, and
loads the rule for anything else.
"""
from __future__ import annotations

import importlib
import json
import pkgutil
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from qlint.files import shipped_dir
from qlint.finding import Severity
from qlint.rule import Rule

GROUP = "qlint.rules"
BUILTIN = "qlint.registry:builtin_rules"   # the entry point qlint registers its own rules under
MANIFEST = Path(__file__).parent / "data" / "manifest.json"
MANIFEST_FORMAT = 1
# what a rule's stand-in knows without its module: the manifest's fields kept as they are on the Rule
_PLAIN = ("name", "code", "summary", "enabled", "fixable", "memo", "counts_rejected")
_HOOKS = ("extract", "encode", "decode", "publish", "survey")   # a bank rule's optional functions: the manifest says which it has


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
    # the qlint.rules entry points found when the registry was loaded ("name=value@version"); None: not looked up
    plugins: list[str] | None = None

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


def _builtin_modules() -> list[str]:
    """The modules of ``qlint.rules``, one rule each, by name."""
    import qlint.rules  # the package's folder is walked only when every built-in is imported

    package = qlint.rules
    return [f"{package.__name__}.{info.name}" for info in sorted(pkgutil.iter_modules(package.__path__),
                                                                 key=lambda m: m.name)]


def builtin_rules() -> list[Rule]:
    """The rules shipped in ``qlint.rules``: one module each, exposing ``RULE``."""
    return [rule for _, rule in _builtin_pairs()]


def _builtin_pairs() -> list[tuple[str, Rule]]:
    found: list[tuple[str, Rule]] = []
    for name in _builtin_modules():
        rule = getattr(importlib.import_module(name), "RULE", None)
        if isinstance(rule, Rule):
            found.append((name, rule))
    return found


def _reference(obj: type) -> str:
    return f"{obj.__module__}:{obj.__qualname__}"


def load_class(reference: str) -> Any:
    """The object a ``module:qualname`` reference names."""
    module, _, qualname = reference.partition(":")
    obj: Any = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def manifest_entry(module: str, rule: Rule) -> dict[str, Any]:
    """What the manifest records of one built-in rule (its module's ``RULE``)."""
    entry: dict[str, Any] = {"module": module, "class": _reference(type(rule)), "kind": rule.kind}
    entry |= {name: getattr(rule, name, False) for name in _PLAIN}
    entry["severity"] = str(rule.severity)
    entry["options"] = _reference(rule.options)
    entry["defaults"] = rule.options().model_dump(mode="json")
    entry["hooks"] = [name for name in _HOOKS if getattr(rule, name, None) is not None]
    return entry


def _shipped_packs() -> list[Path]:
    """qlint's own rule packs, by file name."""
    folder = shipped_dir()
    return sorted(folder.glob("*.yaml")) if folder is not None else []


def build_manifest() -> dict[str, Any]:
    """The manifest of every built-in rule and every rule of the packs qlint ships, as ``scripts/gen_manifest.py``
    writes it."""
    from qlint.packs import read_pack  # the shipped packs, read as a run that uses them reads them

    rules = [manifest_entry(module, rule) for module, rule in _builtin_pairs()]
    rules += [manifest_entry("", rule) | {"pack": path.name} for path in _shipped_packs() for rule in read_pack(path)]
    return {"format": MANIFEST_FORMAT, "rules": rules}


def _read_manifest() -> list[dict[str, Any]] | None:
    """The shipped manifest's entries; None when it is missing or not in the shape this qlint writes (the rules
    are then imported, as before there was one)."""
    try:
        doc = json.loads(MANIFEST.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(doc, dict) or doc.get("format") != MANIFEST_FORMAT or not isinstance(doc.get("rules"), list):
        return None
    return doc["rules"]


_PACKS: dict[str, dict[str, Rule]] = {}   # the shipped packs read in this process: each once, whichever rule is used


def _load_rule(module: str, pack: str | None = None, name: str | None = None) -> Rule:
    """A built-in rule by its module, or a shipped pack's rule by its file and name (what a stand-in unpickles to
    in a worker process)."""
    if pack is not None:
        from qlint.packs import read_pack  # a shipped pack's rule: read when the rule is first used

        if pack not in _PACKS:
            _PACKS[pack] = {r.name: r for r in read_pack(shipped_dir() / pack)}  # type: ignore[operator]
        return _PACKS[pack][name]  # type: ignore[index]
    rule = importlib.import_module(module).RULE
    if not isinstance(rule, Rule):
        raise TypeError(f"{module}.RULE is not a Rule")
    return rule


def _default_options(module: str, pack: str | None = None, name: str | None = None) -> Any:
    return _load_rule(module, pack, name).options()


def _where(entry: dict[str, Any]) -> tuple[str, str | None, str]:
    """What ``_load_rule`` takes to load a manifest entry's rule."""
    return entry["module"], entry.get("pack"), entry["name"]


def _call_hook(stand_in: LazyRule, hook: str, *args: Any, **kwargs: Any) -> Any:
    return getattr(stand_in.loaded(), hook)(*args, **kwargs)


class LazyRule:
    """A built-in rule before its module is imported: the manifest's fields, and the rule itself on first use.

    ``isinstance(stand_in, BankRule)`` holds as it does for the rule (``__class__`` is the rule's class, imported
    from a light module). On loading, the rule's own fields replace the stand-in's, so that a rule that runs costs
    no more per question than the rule would; a stand-in pickles as the rule (a worker imports the module itself)."""

    def __init__(self, entry: dict[str, Any]) -> None:
        self._entry = entry
        self._rule: Rule | None = None
        for name in _PLAIN:
            self.__dict__[name] = entry[name]
        self.severity = Severity.parse(entry["severity"])
        self.options = LazyOptionsModel(self)
        for hook in _HOOKS:   # called per file (codecs) or only after loading: a partial that loads on the call
            self.__dict__[hook] = partial(_call_hook, self, hook) if hook in entry["hooks"] else None

    @property  # type: ignore[misc]
    def __class__(self) -> type:   # isinstance answers for the rule's class; type() still says LazyRule
        return load_class(self._entry["class"])

    @property
    def kind(self) -> str:
        return self._entry["kind"]

    @property
    def __dataclass_fields__(self) -> dict[str, Any]:   # dataclasses.replace, fields and asdict see the rule's
        return self.loaded().__dataclass_fields__  # type: ignore[attr-defined]

    def loaded(self) -> Rule:
        """The rule itself, its module imported on the first call; its fields then stand in the stand-in's place."""
        if self._rule is None:
            rule = _load_rule(*_where(self._entry))
            self._rule = rule
            self.__dict__.update(vars(rule))
        return self._rule

    def __getattr__(self, name: str) -> Any:   # only for what the stand-in does not hold
        if name in ("_entry", "_rule"):   # not set yet (an unpickled or half-made object): no rule to ask
            raise AttributeError(name)
        return getattr(self.loaded(), name)

    def __reduce__(self):
        return _load_rule, _where(self._entry)

    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        return self.loaded() == (other.loaded() if isinstance(other, LazyRule) else other)

    def __hash__(self) -> int:
        return hash(self.loaded())

    def __repr__(self) -> str:
        return repr(self._rule) if self._rule is not None else f"<rule {self.code} {self.name}, not loaded>"


class LazyOptionsModel:
    """A stand-in's ``options`` before its module is imported: validating no settings gives the defaults without
    the model (``LazyDefaults``); settings, or anything else asked of the model, load it."""

    def __init__(self, rule: LazyRule) -> None:
        self._rule = rule

    def _model(self) -> Any:
        return self._rule.loaded().options

    def model_validate(self, table: Any, *args: Any, **kwargs: Any) -> Any:
        if table == {} and not args and not kwargs and self._rule._rule is None:
            return LazyDefaults(self._rule)
        return self._model().model_validate(table, *args, **kwargs)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._model()(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name == "_rule":
            raise AttributeError(name)
        return getattr(self._model(), name)


class LazyDefaults:
    """A rule's default options before its module is imported: ``model_dump(mode="json")`` (the cache's key) from
    the manifest; anything else makes the options themselves, whose fields then stand in the stand-in's place."""

    def __init__(self, rule: LazyRule) -> None:
        self._rule = rule
        self._real: Any = None

    def real(self) -> Any:
        if self._real is None:
            self._real = self._rule.loaded().options()
            self.__dict__.update(vars(self._real))
        return self._real

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return type(self.real())

    def model_dump(self, *args: Any, **kwargs: Any) -> Any:
        if not args and kwargs == {"mode": "json"} and self._real is None:
            return json.loads(json.dumps(self._rule._entry["defaults"]))   # a copy: the caller may change it
        return self.real().model_dump(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name in ("_rule", "_real"):
            raise AttributeError(name)
        return getattr(self.real(), name)

    def __reduce__(self):
        return _default_options, _where(self._rule._entry)

    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        return self.real() == (other.real() if isinstance(other, LazyDefaults) else other)

    def __hash__(self) -> int:
        return hash(self.real())

    def __repr__(self) -> str:
        return repr(self.real())


def loaded(rule: Rule) -> Rule:
    """The rule itself, whether ``rule`` is a stand-in or the rule."""
    return rule.loaded() if type(rule) is LazyRule else rule


def _builtins(registry: Registry, entries: list[dict[str, Any]] | None) -> None:
    """The built-in rules, from the manifest (stand-ins), else imported."""
    rules: list[Rule] = ([LazyRule(e) for e in entries if "pack" not in e] if entries is not None  # type: ignore[misc]
                         else builtin_rules())
    for rule in rules:
        registry.add(rule, "qlint")


def _packs(registry: Registry, entries: list[dict[str, Any]] | None, pack_paths: Iterable[Path]) -> None:
    """The rules of the packs qlint ships (stand-ins from the manifest, when it lists exactly the packs there are),
    then those of the packs the config names."""
    pack_paths = list(pack_paths)
    listed = sorted({e["pack"] for e in entries or () if "pack" in e})
    shipped = [path.name for path in _shipped_packs()]
    if entries is None or listed != shipped:
        from qlint.packs import load_pack_files  # YAML, RE2 and the packs' patterns: only when they are read

        for rule, path in load_pack_files(pack_paths):
            registry.add(rule, f"rule pack {path}")
        return
    for entry in entries:
        if "pack" in entry:
            registry.add(LazyRule(entry), f"rule pack {entry['pack']}")  # type: ignore[arg-type]
    if not pack_paths:
        return
    from qlint.packs import load_pack_files  # the packs a config names, read as above

    for rule, path in load_pack_files(pack_paths, shipped=False):
        registry.add(rule, f"rule pack {path}")


def _version(dist: Any) -> str:
    """A distribution's version, from the first lines of its metadata: the whole of it (a long description, the
    README, after the headers) is parsed as e-mail by ``dist.version``, on every run."""
    try:
        text = dist.read_text("METADATA") or dist.read_text("PKG-INFO") or ""
    except (AttributeError, OSError, ValueError):
        text = ""
    for line in text.splitlines():
        if not line:   # the end of the headers: Version is one of them
            break
        if line.startswith("Version:"):
            return line.partition(":")[2].strip()
    return getattr(dist, "version", "") or ""


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


def _load_plugin(ep) -> list[Rule]:
    """A plugin's rules, its modules imported without writing their bytecode beside them: a check writes nothing
    into the folders it was given, a plugin's among them."""
    previous, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    try:
        return list(_expand(ep.load()))
    finally:
        sys.dont_write_bytecode = previous


def load_registry(pack_paths: Iterable[Path] = ()) -> Registry:
    """Collect rules from every ``qlint.rules`` entry point, then from rule packs. qlint's own entry point and packs
    are read from the manifest (their rules load on first use); every other one is loaded as it stands."""
    registry = Registry()
    entries = _read_manifest()
    found = list(entry_points(group=GROUP))
    registry.plugins = sorted(f"{ep.name}={ep.value}@{_version(ep.dist)}" for ep in found)
    eps = sorted(found, key=lambda ep: (ep.name != "builtin", ep.name))
    if not any(ep.name == "builtin" for ep in eps):
        # Running from a source tree that was never installed: the built-ins still load.
        _builtins(registry, entries)
    for ep in eps:
        if ep.name == "builtin" and ep.value == BUILTIN:
            _builtins(registry, entries)
            continue
        try:
            rules = _load_plugin(ep)
        except (Exception, SystemExit) as exc:  # a broken plugin is reported, never fatal
            registry.problems.append(PluginProblem(f"{ep.name} ({ep.value})", f"{type(exc).__name__}: {exc}"))
            continue
        for rule in rules:
            registry.add(rule, f"plugin {ep.name}")
    _packs(registry, entries, pack_paths)
    return registry
