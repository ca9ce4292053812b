"""Counts in messages, with the noun in the right number: "1 file", "2 files"."""
from __future__ import annotations


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun``, made plural (``many``, else ``noun`` + "s") unless the count is exactly one."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"
