"""Hostile text for the XML readers and the HTML they carry: every reading step is linear (or bounded) in the
input's size, so no file stalls a run, and what cannot be read is a finding."""
from __future__ import annotations

import time

import pytest

from qlint.formats import read
from qlint.formats.base import ReadLimits
from qlint.formats.html import to_plain


def _quick(func, *args, seconds: float = 5.0):
    started = time.monotonic()
    value = func(*args)
    assert time.monotonic() - started < seconds
    return value


@pytest.mark.parametrize("text", ["<a" * 100_000, "&" * 500_000, "<!--" * 100_000, "<![CDATA[" * 100_000,
                                  "<!x" * 100_000, '<a href="' * 100_000, "<a b='c' " * 100_000, "<div>" * 100_000])
def test_html_to_text_is_linear(text):
    _quick(to_plain, text)   # the standard library's HTMLParser took tens of seconds on each of these


def test_gift_and_moodle_stems_full_of_markup_starts_read_quickly():
    stem = "<a" * 100_000
    gift = f"::q:: Which {stem}? {{=yes ~no}}\n".encode()
    assert len(_quick(read, gift, "q.gift", ReadLimits()).questions) == 1
    moodle = (f'<quiz><question type="multichoice"><questiontext format="html"><text>Which {stem.replace("<", "&lt;")}'
              '</text></questiontext><answer fraction="100"><text>yes</text></answer>'
              '<answer fraction="0"><text>no</text></answer></question></quiz>').encode()
    assert len(_quick(read, moodle, "q.xml", ReadLimits()).questions) == 1
