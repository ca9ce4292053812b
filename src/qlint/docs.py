"""Rule cards (ruff's layout): what it does, why it is bad, example, use instead, options, measured accuracy.

Rendered from the rule itself, so the documentation cannot drift from the code.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from qlint.rule import Rule

_SCOPE = {"question": "each question", "bank": "the whole bank",
          "response": "how people answered each question (qlint analyze, check --responses)"}
MEASURED = Path(__file__).parent / "data" / "accuracy.json"


@lru_cache(maxsize=1)
def _measured() -> dict:
    """Accuracy written by scripts/measure_accuracy.py; a rule's own ``accuracy`` is the fallback (plugins)."""
    try:
        return json.loads(MEASURED.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def accuracy(rule: Rule) -> dict | None:
    return _measured().get(rule.name) or rule.accuracy


def _options(rule: Rule) -> list[dict]:
    out = []
    for name, info in rule.options.model_fields.items():
        out.append({"name": info.alias or name, "default": info.default,
                    "description": info.description or ""})
    return out


def card_dict(rule: Rule) -> dict:
    return {
        "code": rule.code, "name": rule.name, "severity": str(rule.severity), "enabled": rule.enabled,
        "kind": rule.kind, "summary": rule.summary, "why": rule.why, "use_instead": rule.use_instead,
        "failing": list(rule.failing), "passing": list(rule.passing), "options": _options(rule),
        "notes": rule.notes, "accuracy": accuracy(rule),
    }


def _indent(text: str) -> str:
    return "\n".join("    " + line if line else "" for line in text.rstrip().splitlines())


def card(rule: Rule) -> str:
    """The rule card as Markdown-flavoured text."""
    state = "on by default" if rule.enabled else "off by default (enable with --extend-select)"
    parts = [f"# {rule.name} ({rule.code})", "",
             f"Severity: {rule.severity}; {state}; checks {_SCOPE.get(rule.kind, 'files as they load')}.",
             "", "## What it does", rule.summary, "", "## Why is this bad?", rule.why, ""]
    parts += ["## Example", "```yaml", rule.failing[0].rstrip(), "```", ""]
    if rule.passing:
        parts += ["## Use instead", rule.use_instead, "", "```yaml", rule.passing[0].rstrip(), "```", ""]
    else:
        parts += ["## Use instead", rule.use_instead, ""]
    opts = _options(rule)
    if opts:
        parts.append("## Options")
        for o in opts:
            parts.append(f"- `{o['name']}` (default `{o['default']}`): {o['description']}")
        parts.append("")
    measured = accuracy(rule)
    if measured:
        def num(key: str) -> str:
            value = measured.get(key)
            return "n/a" if value is None else f"{value:.2f}"

        parts += ["## Measured accuracy",
                  f"Against human flaw labels ({measured.get('dataset', 'BenchMarker dev split')}): "
                  f"precision {num('precision')}, recall {num('recall')}, Cohen's kappa {num('kappa')} "
                  f"(n={measured.get('n', '?')}; `scripts/measure_accuracy.py` reproduces it).", ""]
    if rule.notes:
        parts += ["## Notes", rule.notes, ""]
    return "\n".join(parts) + "\n"
