"""Concepts with one home in the code: a source scan fails when a second copy appears."""
from __future__ import annotations

from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "qlint"


def _sources():
    for path in sorted(SRC.rglob("*.py")):
        yield path.relative_to(SRC).as_posix(), path.read_text(encoding="utf-8")


def test_one_did_you_mean():
    """Every misspelt command, option, format or rule is matched by qlint.wording.closest."""
    assert [name for name, text in _sources() if "get_close_matches" in text] == ["wording.py"]
