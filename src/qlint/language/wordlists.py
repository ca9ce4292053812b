"""The word lists of the language rules (``rules/data/<name>.yaml``), loaded and validated once.

Each file is a mapping of names to a list of words or patterns, one pattern, or a table of words to numbers.
A file that is not of that shape is a fault of qlint itself, reported with the file and entry when the rule
that needs it is imported, never half-way through a run.
"""
from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType

import yaml

WORD_LISTS = Path(__file__).parent.parent / "rules" / "data"
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

Entry = str | tuple[str, ...] | Mapping[str, float]


def _entry(name: str, key: str, value: object) -> Entry:
    """One entry, frozen: a string, a tuple of strings, or a read-only table of strings to numbers."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return tuple(value)
    if isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, (int, float)) and not isinstance(v, bool)
                                       for k, v in value.items()):
        return MappingProxyType(dict(value))
    raise ValueError(f"word list {name}.yaml: {key!r} must be a string, a list of strings or a table of numbers")


@cache
def word_lists(name: str) -> Mapping[str, Entry]:
    """The entries of ``rules/data/<name>.yaml``, validated and read-only."""
    # libyaml's loader when PyYAML has it: the same data as safe_load, read ten times faster at start-up
    data = yaml.load((WORD_LISTS / f"{name}.yaml").read_text(encoding="utf-8"), Loader=_LOADER)
    if not isinstance(data, dict) or not all(isinstance(key, str) for key in data):
        raise ValueError(f"word list {name}.yaml must be a mapping of names to entries")
    return MappingProxyType({key: _entry(name, key, value) for key, value in data.items()})
