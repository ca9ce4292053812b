"""Output formats. Each reporter renders a finished Report to a text stream; none decides exit codes."""
from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from qlint.reporters import github, gitlab, json_format, junit, sarif, text
from qlint.reporters.base import (
    FORMATS,
    JsonSafeStream,
    Report,
    escape_text,
    escape_undecodable,
    fingerprint,
    fingerprints,
    json_safe,
    relative_path,
)

__all__ = [
    "FORMATS", "JsonSafeStream", "Report", "escape_text", "escape_undecodable", "fingerprint",
    "fingerprints", "json_safe", "relative_path", "Renderer", "renderers"
]

Renderer = Callable[[Report, TextIO, dict], None]


def renderers() -> dict[str, Renderer]:
    return {"text": text.render, "json": json_format.render, "json-lines": json_format.render_lines,
            "sarif": sarif.render, "github": github.render, "gitlab": gitlab.render, "junit": junit.render}
