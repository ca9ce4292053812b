"""Hostile text round-tripped through every format qlint writes: generated stems, options, rationales, ids and
explanations full of line separators, control characters and each format's own syntax. Written and read back,
no question is gained or lost, nothing reads as broken, and every text survives as far as the format holds it."""
from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qlint.formats import read
from qlint.formats.base import ReadLimits
from qlint.formats.convert import WRITERS
from qlint.formats.write import Output, Part
from qlint.model import Option, Question

_SYNTAX = ["::", "{", "}", "=", "~", "#", "####", "%50%", "%-100%", "\\", "\\n", "//", "$CATEGORY:", "[html]",
           "[plain]", "->", "ANSWER: A", "A.", "B)", "TRUE", "<b>", "&amp;", "&nbsp;", "<![CDATA[", "]]>", "<!--", "-->",
           "--", "---", "qlint: ignore[x] y", "'", '"', ": ", "- ", "? ", "|", ">", "!!python/object", "&a", "*a",
           "\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\r", "\r\n", "\n", "\t", "\x00",
           "\x01", "\x1b[31m", "\x7f", "\x9f", "\ufeff", "\ufffe", "\uffff", "\u202e", "\u200b", "\xa0", "  ", "    "]
_CHUNK = st.one_of(st.sampled_from(_SYNTAX), st.text(st.characters(blacklist_categories=("Cs",)), max_size=4),
                   st.text(alphabet="abcxyz019 ", min_size=1, max_size=6))
_TEXT = st.lists(_CHUNK, min_size=1, max_size=8).map("".join).filter(lambda t: re.search(r"\S", t) is not None)
_MAYBE = st.none() | st.just("") | _TEXT


@st.composite
def _question(draw, index: int) -> Question:
    count = draw(st.integers(2, 5))
    keys = draw(st.sets(st.integers(0, count - 1), min_size=1, max_size=count))
    select = len(keys) if len(keys) > 1 and draw(st.booleans()) else 1
    options = []
    for i in range(count):
        credit = draw(st.none() | st.sampled_from([50.0, 25.0, -50.0, 33.33333])) if select == 1 and i not in keys else None
        options.append(Option(text=draw(_TEXT), correct=i in keys, rationale=draw(_MAYBE), credit=credit))
    return Question(id=f"{draw(_TEXT)}-{index}", stem=draw(_TEXT), options=tuple(options), select=select,
                    explanation=draw(_MAYBE))


_BANK = st.integers(1, 3).flatmap(lambda n: st.tuples(*(_question(i) for i in range(n))).map(list))
_TRIM = " \t\n\r\0\x0b"
_BREAKS = re.compile("\r\n|[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _as_held(text: str | None, target: str) -> str | None:
    """A text as the target holds it: what its writer says it changes, and what its reader folds."""
    if text is None or target == "yaml":
        return text
    text = text.replace("\x00", "\ufffd")
    if target == "gift":
        text = _BREAKS.sub("\n", text).strip(_TRIM)
    elif target == "aiken":
        text = " ".join(text.split())
    else:   # the XML formats' text is HTML: compare the words, whatever the reader does with white space
        text = " ".join(_NOT_XML.sub("\ufffd", _BREAKS.sub("\n", text)).replace("\xa0", " ").split())
    return text


def _view(q: Question, target: str, written: bool) -> tuple:
    """What is compared: the question as written through the target's eyes (``written``), or as read back (in the
    XML formats only its words, as the HTML readers fold white space their own way)."""
    xml = target in ("moodle-xml", "qti12", "qti21")

    def text(t: str | None) -> str | None:
        return _as_held(t, target) if written else (" ".join(t.split()) if xml and t is not None else t)

    def optional(t: str | None) -> str | None:   # a blank explanation (and an XML rationale) is none
        held = text(t)
        return held if held or target == "yaml" else None

    credit = target in ("yaml", "gift") and q.select == 1
    ident = text(q.id).strip() if written and target == "gift" else text(q.id)   # a GIFT title is trimmed as an id
    # Moodle stores a question's <name> as plain text; reading it as HTML is the Moodle XML reader's business
    return (None if target in ("aiken", "moodle-xml") else ident, text(q.stem), q.select,
            tuple((text(o.text), o.correct, None if target == "aiken" else optional(o.rationale) if xml else text(o.rationale),
                   o.credit if credit else None) for o in q.options),
            None if target == "aiken" else optional(q.explanation))


def _kept(q: Question, target: str) -> bool:
    return target != "aiken" or (len(q.keys) == 1 and q.select == 1
                                 and not re.match(r"\s*ANSWER\s*:", " ".join(q.stem.split()), re.I))


def _round_trip(target: str, bank: list[Question]) -> None:
    if target == "moodle-xml":   # the writer gives credit as a fraction; reading it as a distractor's is the reader's
        bank = [q.model_copy(update={"options": tuple(o.model_copy(update={"credit": None}) for o in q.options)})
                for q in bank]
    out = Output()
    WRITERS[target]([Part("gen\n::x:: {=a ~b}.yaml", bank)], out)
    limits = ReadLimits(formats=(("**", "aiken"),) if target == "aiken" else ())
    back = []
    for name, text in sorted(out.files.items()):
        if name == "imsmanifest.xml":
            continue
        result = read(text.encode("utf-8"), name, limits)
        broken = [f for f in result.findings if f.code in ("Q101", "Q102")]
        assert not broken, (name, broken, text)
        back += [loaded.question for loaded in result.questions]
    expected = [q for q in bank if _kept(q, target)]
    assert len(back) == len(expected), (target, [q.id for q in back], out.files)
    assert out.written == len(expected)
    # in the order read (QTI 2.1 writes a file per question, read here by name)
    assert sorted(map(repr, (_view(q, target, written=False) for q in back))) == \
        sorted(map(repr, (_view(q, target, written=True) for q in expected)))


@pytest.mark.parametrize("target", sorted(WRITERS))
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(bank=_BANK)
def test_hostile_text_round_trips_through_every_format(target, bank):
    _round_trip(target, bank)
