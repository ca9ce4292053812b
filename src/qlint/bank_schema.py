"""The bank format as a JSON Schema (draft-07), generated from the pydantic model, for YAML editors.

The YAML language server (VS Code's YAML extension, Neovim's yamlls, Helix) completes and validates fields with
it while no qlint runs. Draft-07 is the newest draft that server supports. Two things differ from pydantic's own
schema: references live under ``definitions`` (draft-07's place for them), and every text field also accepts a
number or a boolean, because qlint reads a plain YAML scalar as text (``text: no`` is the word "no",
``id: 007`` keeps its zeros) while an editor's YAML reader types it. It carries no ``$id``: the schema lives in
the file ``qlint schema -o`` writes, not at an address on the web, and editors name it by that file.
"""
from __future__ import annotations

from typing import Any

from qlint.model import Question

_TEXT_TYPES = ["string", "number", "boolean"]


def _widen(node: Any) -> Any:
    """A copy of a schema node in which each string type also admits the scalars YAML may type differently."""
    if isinstance(node, list):
        return [_widen(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _widen(value) for key, value in node.items()}
    if out.get("type") == "string":
        out["type"] = list(_TEXT_TYPES)   # minLength and pattern apply to the string branch only
    return out


def bank_schema() -> dict[str, Any]:
    """A schema for one bank file: a question, or a mapping whose ``questions`` is a list of them."""
    question = Question.model_json_schema(ref_template="#/definitions/{model}")
    definitions = question.pop("$defs", {})
    definitions["Question"] = question
    definitions["BankFile"] = {
        "title": "BankFile",
        "description": "A file of several questions.",
        "type": "object",
        "properties": {"questions": {"type": "array", "minItems": 1, "items": {"$ref": "#/definitions/Question"},
                                     "description": "The questions of this file."}},
        "required": ["questions"],
        "additionalProperties": False,
    }
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "qlint question bank file",
        "description": "One multiple-choice question, or a mapping with a `questions:` list of them.",
        "definitions": _widen(definitions),
        "if": {"type": "object", "required": ["questions"]},
        "then": {"$ref": "#/definitions/BankFile"},
        "else": {"$ref": "#/definitions/Question"},
    }
