"""Checks that data read back (a cache entry, a rule's encoded features) has the shape its writer gave it."""
from __future__ import annotations

from itertools import chain
from typing import Any


def only(values: Any, kind: type) -> bool:
    """Every value is exactly ``kind`` (``bool`` is not an ``int`` here); ``map(type, ...)`` runs in C."""
    return set(map(type, values)) <= {kind}


def lists_of(values: Any, kind: type) -> bool:
    """Every value is a list whose items are all exactly ``kind``."""
    return only(values, list) and only(chain.from_iterable(values), kind)
