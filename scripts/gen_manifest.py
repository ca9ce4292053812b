#!/usr/bin/env python3
"""Write src/qlint/data/manifest.json: what a run knows of every built-in rule before importing its module (name,
code, class, default severity and state, summary, options model and their defaults), read from the rules themselves.

usage: python scripts/gen_manifest.py [--check]   (--check: exit 1 if the manifest is out of date)

Run it after adding a rule or changing a rule's name, code, severity, default, summary or options; the test suite
fails while the shipped manifest and the rules disagree.
"""
from __future__ import annotations

import json
import sys

from qlint.registry import MANIFEST, build_manifest


def render() -> str:
    return json.dumps(build_manifest(), indent=1, ensure_ascii=False) + "\n"


def main() -> int:
    text = render()
    if "--check" in sys.argv[1:]:
        current = MANIFEST.read_text(encoding="utf-8") if MANIFEST.exists() else ""
        if current != text:
            print(f"{MANIFEST.name} is out of date: run python scripts/gen_manifest.py", file=sys.stderr)
            return 1
        return 0
    MANIFEST.write_text(text, encoding="utf-8")
    print(f"wrote {MANIFEST} ({len(json.loads(text)['rules'])} rules)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
