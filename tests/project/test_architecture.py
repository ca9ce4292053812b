"""The house rules of docs/architecture.md hold: every import between parts drawn on the whiteboard and every arrow
drawn still imported, no import that must never exist, no cycle between modules or packages, no module loose at the
root that belongs in a folder, no function over 60 lines, no global statement, no unexplained import inside a
function, and every module placed in a part."""
from __future__ import annotations

import json

from helpers import ROOT, load_script

check_architecture = load_script(ROOT / "scripts" / "check_architecture.py")


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


def _house(tmp_path, board):
    """A small tree: the run's two modules and the rules' two import each other's package (rules -> run is a never,
    run -> rules is not drawn), a module of the run loose at the root, and a drawn arrow no import makes."""
    src = tmp_path / "src" / "qlint"
    for folder in ("rules", "run"):
        (src / folder).mkdir(parents=True)
        (src / folder / "__init__.py").write_text("")
    (src / "__init__.py").write_text("")
    (src / "finding.py").write_text("")
    (src / "cache.py").write_text("from qlint import finding\n")
    (src / "run" / "pipeline.py").write_text("from qlint.rules import naming\nfrom qlint import finding\n")
    (src / "run" / "batch.py").write_text("")
    (src / "rules" / "naming.py").write_text("")
    (src / "rules" / "bad.py").write_text("from qlint.run import batch\n")
    (tmp_path / "docs").mkdir(exist_ok=True)
    (tmp_path / "docs" / "architecture.json").write_text(json.dumps({
        "parts": {"Rules": {"is": ["src/qlint/rules/"]}, "Run": {"is": ["src/qlint/run/", "src/qlint/cache.py"]},
                  "Vocabulary": {"is": ["src/qlint/__init__.py", "src/qlint/finding.py"]}},
        "root": {"Vocabulary": "what every part imports"},
        "arrows": [["Run", "Vocabulary"], ["Rules", "Vocabulary"]],
        "never": [["Rules", "Run", "rules do no I/O"]], **board}))
    return check_architecture.problems(tmp_path)


def test_the_checker_holds_every_arrow_to_the_whiteboard(tmp_path):
    """An import between parts that the whiteboard does not draw fails, and so does a drawn arrow no import makes
    any more, a loop between packages (though no two modules import each other) and a module of a part with a
    folder left at the root."""
    found = _house(tmp_path, {})
    assert any(p.startswith("arrow not on the whiteboard: Run -> Rules (") and
               "qlint.run.pipeline -> qlint.rules.naming" in p for p in found), found
    assert "arrow on the whiteboard that no import draws: Rules -> Vocabulary" in found, found
    assert any(p.startswith("never: qlint.rules.bad -> qlint.run.batch") for p in found), found
    assert "package cycle: qlint.rules <-> qlint.run" in found, found
    assert not any(p.startswith("cycle:") for p in found), found
    assert ("loose at the package root: src/qlint/cache.py belongs to Run, not a part kept at the root"
            in found), found
    assert not any("finding.py" in p for p in found), found


def test_a_loop_named_on_the_whiteboard_is_held_until_it_is_gone(tmp_path):
    """A package loop the whiteboard names, with why, is not reported while it exists; once gone, the name is."""
    found = _house(tmp_path, {"loops": [["qlint.rules", "qlint.run", "being broken"]]})
    assert not any(p.startswith("package cycle") for p in found), found
    (tmp_path / "src" / "qlint" / "rules" / "bad.py").write_text("")
    found = check_architecture.problems(tmp_path)
    assert "loop named on the whiteboard that is gone: qlint.rules <-> qlint.run" in found, found


def test_an_import_of_a_module_that_moved_fails(tmp_path):
    """Code written against the old tree (a branch begun before a module moved into its part's folder) names modules
    that no longer exist; the checker says where, even inside a function."""
    src = tmp_path / "src" / "qlint"
    (src / "run").mkdir(parents=True)
    (src / "__init__.py").write_text("__version__ = '1'\n")
    (src / "run" / "__init__.py").write_text("")
    (src / "run" / "cache.py").write_text("")
    (src / "cli.py").write_text("from qlint import __version__, baseline\nfrom qlint.run import cache\n\n\n"
                                "def run():\n    from qlint.pipeline import run_check  # heavy\n    import qlint.cache  # heavy\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "architecture.json").write_text(json.dumps({
        "parts": {"Run": {"is": ["src/qlint/run/"]}, "Face": {"is": ["src/qlint/cli.py"]},
                  "Vocabulary": {"is": ["src/qlint/__init__.py"]}},
        "root": {"Vocabulary": "", "Face": ""}, "arrows": [["Face", "Run"], ["Face", "Vocabulary"]], "never": []}))
    found = check_architecture.problems(tmp_path)
    assert sorted(p for p in found if "does not exist" in p) == [
        "import of a qlint module that does not exist: src/qlint/cli.py:1 qlint.baseline",
        "import of a qlint module that does not exist: src/qlint/cli.py:6 qlint.pipeline",
        "import of a qlint module that does not exist: src/qlint/cli.py:7 qlint.cache"], found
