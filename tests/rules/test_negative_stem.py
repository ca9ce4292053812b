"""negative-stem: a negative ask is caught, and its prefilter skips no clause one of its patterns would match."""
from __future__ import annotations

from helpers import lint_text
from helpers import question as q


def test_a_least_suitable_ask_is_negative(registry):
    rule = "negative-stem"
    text = q("Which data structure is the least suitable for constant-time lookup by key?",
             [("Hash table", False), ("Linked list", True), ("Direct-address table", False)])
    assert rule in {f.rule for f in lint_text(text, registry, extend=[rule])}


def test_negative_stem_prefilter_covers_every_listed_pattern():
    """negative-stem skips clauses holding none of its trigger words: each listed pattern must need one."""
    import re

    from qlint.rules import negative_stem

    for pattern in (*negative_stem._DATA["negations"], *negative_stem._DATA["false_words"], r"\bleast\b"):
        literal = re.sub(r"\\[a-zA-Z]|\(\?[=!<][^)]*\)|[+*?]", " ", pattern).lower()
        assert any(t in literal for t in negative_stem._TRIGGERS), pattern
