"""Built-in rules, one module each; every module exposes ``RULE``.

They register through the ``qlint.rules`` entry point (``builtin``), the same path
a third-party plugin takes.
"""
from qlint.registry import builtin_rules

__all__ = ["builtin_rules"]
