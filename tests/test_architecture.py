"""The house rules of docs/architecture.md hold: no import that must never exist, no cycle, no function over 60
lines, no global statement, no unexplained import inside a function, and every module placed in a part."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("check_architecture", ROOT / "scripts" / "check_architecture.py")
check_architecture = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_architecture)


def test_the_code_keeps_the_house_rules():
    assert check_architecture.problems(ROOT) == []


def test_the_checker_sees_a_forbidden_import_a_cycle_and_a_hidden_import(tmp_path):
    """The checker itself can fail: a rule reaching the run, two modules importing each other, an import hidden in
    a function, a long function."""
    src = tmp_path / "src" / "qlint"
    (src / "rules").mkdir(parents=True)
    (src / "__init__.py").write_text("")
    (src / "rules" / "__init__.py").write_text("")
    (src / "rules" / "bad.py").write_text("from qlint import pipeline\n")
    (src / "pipeline.py").write_text("def run():\n    from qlint.rules import bad\n" + "    x = 1\n" * 70)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "architecture.json").write_text(json.dumps({
        "parts": {"Rules": {"is": ["src/qlint/rules/"]}, "Run": {"is": ["src/qlint/pipeline.py"]},
                  "Vocabulary": {"is": ["src/qlint/__init__.py"]}},
        "arrows": [], "never": [["Rules", "Run", "rules do no I/O"]]}))
    found = check_architecture.problems(tmp_path)
    assert any(p.startswith("never: qlint.rules.bad -> qlint.pipeline") for p in found), found
    assert any(p.startswith("cycle:") and "qlint.pipeline" in p for p in found), found
    assert any(p.startswith("import inside a function without a comment") for p in found), found
    assert any(p.startswith("long function: src/qlint/pipeline.py:1 run") for p in found), found
