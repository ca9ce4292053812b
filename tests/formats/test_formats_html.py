"""HTML question text made plain: what a browser shows, with code blocks, indentation, formulas and images kept
readable for the rules."""
from __future__ import annotations

import pytest

from qlint.formats.html_text import to_plain


@pytest.mark.parametrize(("markup", "plain"), [
    ("Which\n      planet   is it?", "Which planet is it?"),          # XML line wrapping is layout, not text
    ("<p>one</p><p>two</p><ul><li>a</li><li>b</li></ul>", "one\n\ntwo\n\n- a\n- b"),
    ("caf&eacute; &#233; &bogus; &amp; <b>bold</b>", "café é &bogus; & bold"),
    ("a <script>alert(1)</script> b", "a b"),
    ("Which <![CDAT2 x is it?", "Which <![CDAT2 x is it?"),
    ("if a<b then c", "if a<b then c"),
    ('<a title="x>y">link</a> text <!-- note --> more', "link text more"),
    ("<!DOCTYPE html><html><body>hi</body></html>", "hi"),
])
def test_html_reads_as_a_browser_shows_it(markup, plain):
    assert to_plain(markup) == plain


def test_pre_keeps_indentation_and_double_spaces():
    assert to_plain("<p>Output?</p><pre>def f(x):\n    return  x * 2</pre>") == "Output?\n\ndef f(x):\n    return  x * 2"


def test_no_break_spaces_indent_a_line():
    assert to_plain("<p>&nbsp;&nbsp;x = 1<br>&nbsp;&nbsp;&nbsp;&nbsp;y = 2</p>") == "  x = 1\n    y = 2"


def test_keep_spacing_keeps_every_space_and_line_break():
    assert to_plain("for i in range(3):\n    print(i  * 2) <b>&amp;</b>", keep_spacing=True) == \
        "for i in range(3):\n    print(i  * 2) &"


def test_mathml_reads_once_as_its_tex_and_ruby_as_its_base_text():
    formula = ('<math><semantics><msup><mi>x</mi><mn>2</mn></msup>'
               '<annotation encoding="application/x-tex">x^2</annotation></semantics></math> is even')
    assert to_plain(formula) == "x^2 is even"
    assert to_plain("<math><msup><mi>x</mi><mn>2</mn></msup></math>") == "x2"
    assert to_plain("<ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp></ruby>字") == "漢字"


def test_an_image_only_text_is_its_alt_text_or_file_name():
    assert to_plain('<img src="a.png" alt="A red square"/>', images=True) == "A red square"
    assert to_plain('<p><img src="media/cat.png"></p>', images=True) == "[image: cat.png]"
    assert to_plain('Look: <img src="a.png" alt="x"/>', images=True) == "Look:"
    assert to_plain('<img src="a.png" alt="x"/>') == ""
