"""Output formats. Each reporter renders a finished Report to a text stream; none decides exit codes."""
from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import partial
from typing import TextIO

from qlint.output.base import (
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


# each format's renderer (module, function) and the options it fixes; a module is imported only when its format is
# rendered (the JUnit writer's XML library, the SARIF writer's metadata lookups are not loaded for the text output)
_RENDERERS: dict[str, tuple[str, str, dict]] = {
    "text": ("text", "render", {}), "concise": ("text", "render", {"show_source": False}),
    "full": ("text", "render", {}),   # the run reads the snippets for it wherever the output goes
    "grouped": ("grouped", "render", {}), "json": ("json_format", "render", {}),
    "json-lines": ("json_format", "render_lines", {}), "sarif": ("sarif", "render", {}),
    "github": ("github", "render", {}), "gitlab": ("gitlab", "render", {}), "junit": ("junit", "render", {}),
    "pylint": ("pylint", "render", {}), "azure": ("azure", "render", {}), "rdjson": ("rdjson", "render", {}),
    "parsable": ("pylint", "render_parsable", {}), "standard": ("grouped", "render", {}),
    "colored": ("grouped", "render", {"colour": True}),
}


def _render(module: str, name: str, fixed: dict, report: Report, stream: TextIO, options: dict) -> None:
    render = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    render(report, stream, {**options, **fixed} if fixed else options)


def renderers() -> dict[str, Renderer]:
    return {fmt: partial(_render, module, name, fixed) for fmt, (module, name, fixed) in _RENDERERS.items()}
