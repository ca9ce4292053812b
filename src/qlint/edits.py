"""The edits a rule proposes as a safe fix: data only (``qlint.formats.yaml_edit`` applies them to a file)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SetText:
    """Replace the text at a field (``stem``, ``options[1].text``) with ``value``."""

    field: str
    value: str


@dataclass(frozen=True)
class Reorder:
    """Put the items of a list field (``options``) in ``order`` (old indices, new order)."""

    field: str
    order: tuple[int, ...]


Edit = SetText | Reorder


@dataclass(frozen=True)
class Fix:
    """What a finding's rule proposes: edits to its question and a one-line description."""

    description: str
    edits: tuple[Edit, ...]
