"""Whether a regular expression is safe to run on any text: no nested unbounded repeats, no backreferences.

Used on the exception idioms of the term lists and on the patterns of the rule packs qlint ships (which keep
Python's ``re``).
"""
from __future__ import annotations

import re

try:
    import re._constants as _sre_constants
    import re._parser as _sre_parse  # Python 3.11+
except ImportError:  # pragma: no cover
    import sre_constants as _sre_constants  # type: ignore[no-redef]
    import sre_parse as _sre_parse  # type: ignore[no-redef]


class UnsafePattern(ValueError):
    """A regular expression that is invalid or could backtrack catastrophically."""


def check_pattern_safety(pattern: str) -> None:
    """Reject patterns that could backtrack catastrophically: nested unbounded repeats, backreferences."""
    try:
        parsed = _sre_parse.parse(pattern)
    except re.error as exc:
        raise UnsafePattern(f"invalid regular expression {pattern!r}: {exc}") from None
    repeats = (_sre_constants.MAX_REPEAT, _sre_constants.MIN_REPEAT)
    poss = getattr(_sre_constants, "POSSESSIVE_REPEAT", None)

    def walk(items, inside_repeat: bool) -> None:
        for op, arg in items:
            if op in (_sre_constants.GROUPREF, getattr(_sre_constants, "GROUPREF_EXISTS", None)):
                raise UnsafePattern(f"pattern {pattern!r} uses a backreference, which can run in exponential time")
            if op in repeats or op == poss:
                low, high, sub = arg
                unbounded = high == _sre_constants.MAXREPEAT or high > 100
                if inside_repeat and unbounded:
                    raise UnsafePattern(f"pattern {pattern!r} nests unbounded repeats, which can backtrack "
                                        "catastrophically")
                walk(sub, inside_repeat or unbounded)
            elif op == _sre_constants.SUBPATTERN:
                walk(arg[-1], inside_repeat)
            elif op == _sre_constants.BRANCH:
                for branch in arg[1]:
                    walk(branch, inside_repeat)
            elif op in (_sre_constants.ASSERT, _sre_constants.ASSERT_NOT):
                walk(arg[1], inside_repeat)
            elif op == getattr(_sre_constants, "ATOMIC_GROUP", None):
                walk(arg, inside_repeat)

    walk(parsed, False)
