"""HTML question text -> the plain text the rules read: tags dropped, entities decoded, ``<br>`` and
paragraphs as line breaks, list items on lines of their own. Nothing is fetched or run (images, scripts)."""
from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser

_BREAKS = frozenset(("br",))
_BLOCKS = frozenset(("p", "div", "ul", "ol", "table", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote"))
_TAG = re.compile(r"<[^>]*>")
_SKIP = frozenset(("script", "style", "head", "title"))


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in _SKIP:
            self.skipping += 1
        elif tag in _BREAKS:
            self.parts.append("\n")
        elif tag in _BLOCKS:
            self.parts.append("\n\n")
        elif tag == "li":
            self.parts.append("\n- ")
        elif tag in ("td", "th"):
            self.parts.append(" ")

    def handle_startendtag(self, tag: str, attrs) -> None:
        if tag in _BREAKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self.skipping = max(0, self.skipping - 1)
        elif tag in _BLOCKS:
            self.parts.append("\n\n")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(re.sub(r"[ \t\r\n]+", " ", data))


def to_plain(html: str) -> str:
    """The text of an HTML fragment, one space between words, blank lines only between blocks."""
    if "<" not in html and "&" not in html:
        return html.strip()
    parser = _Text()
    try:
        parser.feed(html)
        parser.close()
        text = "".join(parser.parts)
    except AssertionError:   # html.parser asserts on some malformed declarations ("<![CDAT2"): keep the text
        text = unescape(_TAG.sub(" ", html))
    text = text.replace("\xa0", " ")
    lines = [line.strip() for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
