"""Rule cards (ruff's layout): what it does, why it is bad, example, use instead, options, measured accuracy.

Rendered from the rule itself, so the documentation cannot drift from the code.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from qlint.rule import Invalid, Rule, Valid

_SCOPE = {"question": "each question", "bank": "the whole bank",
          "response": "how people answered each question (qlint analyze, check --responses)",
          "form": "one drawn exam form (qlint check --form)"}
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
        "failing": [e.text for e in rule.invalid], "passing": [e.text for e in rule.valid], "options": _options(rule),
        "notes": rule.notes, "accuracy": accuracy(rule), "fixable": rule.fixable, "fix_safety": fix_safety(rule),
        "examples": {"failing": [_example_dict(e) for e in rule.invalid], "passing": [_example_dict(e) for e in rule.valid]},
    }


def _example_dict(example: Valid) -> dict:
    """What an example states, for ``qlint rule --format json``: its text and whatever else it says."""
    out: dict = {"text": example.text, "path": example.path}
    if example.options:
        out["options"] = dict(example.options)
    if example.settings:
        out["settings"] = dict(example.settings)
    if isinstance(example, Invalid):
        for key in ("field", "message"):
            value = getattr(example, key)
            if value is not None:
                out[key] = list(value) if isinstance(value, tuple) else value
        if example.fixed is not None:
            out["fixed"] = example.fixed
    return out


def _fenced(example: Valid, text: str | None = None) -> list[str]:
    """An example as a fenced block: YAML for a YAML bank file, plain text for another format's."""
    language = "yaml" if example.path.endswith((".yaml", ".yml")) else "text"
    return [f"```{language}", (example.text if text is None else text).rstrip(), "```"]


def _stated_config(example: Valid) -> list[str]:
    """The config an example runs under, when it states one in code rather than in its own comments."""
    pairs = [*example.settings.items(), *example.options.items()]
    if not pairs:
        return []
    return ["Checked with " + ", ".join(f"`{key} = {json.dumps(value)}`" for key, value in pairs) + ".", ""]


def _fix(rule: Rule) -> list[str]:
    """The card's Fix: the first example that states its fixed text, before and after ``--fix``."""
    shown = next((e for e in rule.invalid if e.fixed is not None), None)
    if shown is None:
        return []
    if shown.text == rule.invalid[0].text:
        return ["## Fix", "`qlint check --fix` rewrites the example above as:", *_fenced(shown, shown.fixed), ""]
    return ["## Fix", "Before:", *_fenced(shown), "", "After `qlint check --fix`:", *_fenced(shown, shown.fixed), ""]


def _num(row: dict, key: str) -> str:
    value = row.get(key)
    return "n/a" if value is None else f"{value:.2f}"


def per_bank_cell(name: str, cell: dict) -> str:
    """One bank's judged precision, as the card and the README give it."""
    if not cell.get("judged"):
        return f"{name} - (0 of {cell.get('findings', 0)})"
    return (f"{name} {cell['precision']:.2f} ({cell['low']:.2f}-{cell['high']:.2f}, {cell['judged']} of "
            f"{cell.get('findings', cell['judged'])})")


def _labels_line(row: dict, where: str) -> str:
    return (f"{where}: precision {_num(row, 'precision')}, recall {_num(row, 'recall')}, "
            f"Cohen's kappa {_num(row, 'kappa')} (n={row.get('n', '?')})")


def _accuracy_lines(measured: dict | None) -> list[str]:
    """The card's "Measured accuracy": judged precision on real banks first, then the human-label numbers."""
    if not measured:
        return []
    lines = ["## Measured accuracy"]
    judged = measured.get("judged")
    if judged and judged.get("judged"):
        lines.append(f"On real banks (six public banks, a random sample of its default findings judged by two "
                     f"reviewers; `scripts/judged.py score`): precision {_num(judged, 'precision')} "
                     f"(95% interval {judged['low']:.2f}-{judged['high']:.2f}, {judged['judged']} judged findings).")
        per_bank = [per_bank_cell(name, cell) for name, cell in (measured.get("judged_by_corpus") or {}).items()]
        if per_bank:
            lines.append("Per bank (precision, 95% interval, judged of its findings there): " + "; ".join(per_bank)
                         + ".")
    if measured.get("measure") or measured.get("study"):
        lines.append(f"Against human flaw labels ({measured.get('dataset', 'BenchMarker dev labels')}; "
                     "`scripts/measure_accuracy.py`):")
        if measured.get("measure"):
            lines.append("- " + _labels_line(measured["measure"], "on the held-out part (never studied: what to "
                                                                 "expect on new items)"))
        if measured.get("study"):
            lines.append("- " + _labels_line(measured["study"], "on the part the rule was developed with "
                                                               "(optimistic)"))
    elif measured.get("precision") is not None or measured.get("kappa") is not None:   # a plugin's own numbers
        lines.append(_labels_line(measured, f"Against human flaw labels ({measured.get('dataset', 'as stated')})"))
    return lines + [""] if len(lines) > 1 else []


FIX_GUARANTEES = ("Whatever the rule, `--fix` applies only safe fixes, edits only the field a finding names (keeping "
                  "comments, key order and quoting), reads the rewritten file again and writes it only if every "
                  "question changed in exactly those fields, atomically; a file it cannot fix so is left alone with a "
                  "`fix-skipped` warning. `--diff` shows the change without writing it.")


def fix_safety(rule: Rule) -> str | None:
    """What the card says under Fix safety: the rule's own account, then what every fix is held to; None for a rule
    with no fix."""
    if not rule.fixable:
        return None
    own = rule.fix_safety or "This rule offers a fix."
    return f"{own} {FIX_GUARANTEES}"


def _fix_safety(rule: Rule) -> list[str]:
    text = fix_safety(rule)
    return ["## Fix safety", text, ""] if text else []


def card(rule: Rule) -> str:
    """The rule card as Markdown-flavoured text."""
    state = "on by default" if rule.enabled else "off by default (enable with --extend-select)"
    parts = [f"# {rule.name} ({rule.code})", "",
             f"Severity: {rule.severity}; {state}; checks {_SCOPE.get(rule.kind, 'files as they load')}.",
             "", "## What it does", rule.summary, "", "## Why is this bad?", rule.why, ""]
    first = rule.invalid[0]
    parts += ["## Example", *_fenced(first), "", *_stated_config(first)]
    if rule.passing:
        parts += ["## Use instead", rule.use_instead, "", *_fenced(rule.valid[0]), ""]
    else:
        parts += ["## Use instead", rule.use_instead, ""]
    opts = _options(rule)
    if opts:
        parts.append("## Options")
        for o in opts:
            parts.append(f"- `{o['name']}` (default `{o['default']}`): {o['description']}")
        parts.append("")
    parts += _fix(rule)
    parts += _fix_safety(rule)
    parts += _accuracy_lines(accuracy(rule))
    if rule.notes:
        parts += ["## Notes", rule.notes, ""]
    return "\n".join(parts) + "\n"
