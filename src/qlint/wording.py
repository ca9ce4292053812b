"""How messages say things: counts with the noun in the right number ("1 file", "2 files"), a did-you-mean, an
option's letter, and a settings file's validation errors one line each."""
from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:   # a misspelt command line is told its did-you-mean without loading pydantic
    from pydantic import ValidationError


def kebab(name: str) -> str:
    """A setting's name as config files, rule packs, blueprints and rule options write it: ``max_depth`` is
    ``max-depth`` (every settings model's alias generator)."""
    return name.replace("_", "-")


def closest(key: str, allowed: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The one of ``allowed`` a misspelt ``key`` most likely meant, or None when none is close enough (qlint's one
    did-you-mean lookup: difflib's ratio, at least ``cutoff``)."""
    close = difflib.get_close_matches(key, list(allowed), n=1, cutoff=cutoff)
    return close[0] if close else None


def did_you_mean(key: str, allowed: tuple[str, ...] | list[str], otherwise: str | None = None) -> str:
    """"; did you mean 'x'?" for the closest of ``allowed``, else ``otherwise`` or "; allowed: a, b, ..." (a
    message's tail)."""
    close = closest(key, allowed)
    if close is not None:
        return f"; did you mean {close!r}?"
    return otherwise if otherwise is not None else f"; allowed: {', '.join(allowed)}"


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun``, made plural (``many``, else ``noun`` + "s") unless the count is exactly one."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"


def validation_message(exc: ValidationError, allowed: Iterable[str], where: str,
                       line_of: Callable[[str], int | None] | None = None) -> str:
    """pydantic's errors as one line each, ``where: ...`` (``where:line: ...`` when ``line_of`` finds the
    top-level key's line); an unknown key gets a did-you-mean."""
    lines = []
    allowed = list(allowed)
    for err in exc.errors():
        key = ".".join(str(p) for p in err["loc"])
        line = line_of(str(err["loc"][0])) if line_of is not None and err["loc"] else None
        where_key = f"{where}:{line}" if line is not None else where
        if err["type"] == "extra_forbidden":
            hint = did_you_mean(str(err["loc"][-1]), allowed, f"; known keys: {', '.join(allowed)}")
            lines.append(f"{where_key}: unknown key {key!r}{hint}")
        else:   # a validator's own sentence in the config's words; a check of the whole table has no key
            lines.append(f"{where_key}: {key}: {_said(err)}" if key else f"{where_key}: {_said(err)}")
    return "\n".join(lines)


def _said(err: dict) -> str:
    """One pydantic error in a config's words: a validator's own message without pydantic's "Value error, "
    prefix, and a list written as a single value shown in brackets (not "a valid tuple")."""
    if err["type"] == "value_error" and "error" in err.get("ctx", {}):
        return str(err["ctx"]["error"])
    if err["type"] in ("tuple_type", "list_type", "set_type", "frozen_set_type"):
        value = err.get("input")
        example = f'["{value}"]' if isinstance(value, str) and value.isprintable() else '["..."]'
        return f"must be a list in brackets, such as {example}"
    return err["msg"]


def letter(index: int) -> str:
    """A, B, ..., Z, then AA, AB: how option letters are written past 26."""
    out = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        out = chr(65 + rest) + out
    return out
