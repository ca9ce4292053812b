"""Concepts with one home in the code: a source scan fails when a second copy appears."""
from __future__ import annotations

from helpers import ROOT  # noqa: E402

SRC = ROOT / "src" / "qlint"


def _sources():
    for path in sorted(SRC.rglob("*.py")):
        yield path.relative_to(SRC).as_posix(), path.read_text(encoding="utf-8")


def test_one_did_you_mean():
    """Every misspelt command, option, format or rule is matched by qlint.wording.closest."""
    assert [name for name, text in _sources() if "get_close_matches" in text] == ["wording.py"]


def test_one_way_to_make_a_finding():
    """Findings are made by qlint.finding.finding; only the cache and the workers' wire (``run/batch.py``), which
    rebuild stored or sent ones by the thousand, call the class itself."""
    import re

    made = re.compile(r"(?<![\w.])Finding\(")
    assert [name for name, text in _sources() if made.search(text)] == ["finding.py", "run/batch.py", "run/cache.py"]


def test_a_finding_is_placed_on_line_and_column_one_at_least():
    from qlint.finding import Severity, finding
    from qlint.problems import PARSE_ERROR

    made = finding("bank.gift", 0, 0, PARSE_ERROR, "empty", severity=Severity.WARNING)
    assert (made.line, made.column, made.code, made.rule, made.severity) == (1, 1, *PARSE_ERROR, Severity.WARNING)
