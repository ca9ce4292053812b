"""The bounds of one run: what keeps a hostile file cheap to read and check."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """Bounds that keep a hostile file cheap."""

    max_file_size: int = 20 * 1024 * 1024
    max_depth: int = 64
    max_alias_expansion: int = 10_000
    rule_time_budget: float = 60.0  # seconds reading one file and its question rules may take before the rest is skipped
