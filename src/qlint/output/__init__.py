"""Output formats. Each reporter renders a finished Report to a text stream; none decides exit codes."""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TextIO

from qlint.output import azure, github, gitlab, grouped, json_format, junit, pylint, rdjson, sarif, text
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


def _with(render: Renderer, fixed: dict, report: Report, stream: TextIO, options: dict) -> None:
    render(report, stream, {**options, **fixed})


def renderers() -> dict[str, Renderer]:
    return {"text": text.render, "concise": partial(_with, text.render, {"show_source": False}),
            "full": text.render,   # the run reads the snippets for it wherever the output goes
            "grouped": grouped.render, "json": json_format.render, "json-lines": json_format.render_lines,
            "sarif": sarif.render, "github": github.render, "gitlab": gitlab.render, "junit": junit.render,
            "pylint": pylint.render, "azure": azure.render, "rdjson": rdjson.render, "parsable": pylint.render_parsable,
            "standard": grouped.render, "colored": partial(_with, grouped.render, {"colour": True})}
