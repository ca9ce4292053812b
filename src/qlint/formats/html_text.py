"""HTML question text -> the plain text the rules read: tags dropped, entities decoded, ``<br>`` and
paragraphs as line breaks, list items on lines of their own, ``<pre>`` kept as written. Nothing is fetched or run
(images, scripts); an image-only text can be named by its ``alt`` text.

Reading is linear in the text's length whatever it holds: a pre-pass (one scan, each construct's end looked for
at most once) keeps only markup that is complete -- tags, comments, CDATA, declarations -- and escapes every other
``<`` as text, so ``'<a' * 100000`` or an unclosed ``<!--`` costs one pass; lxml's HTML parser (libxml2, no
network, no DTD) then builds the tree.
"""
from __future__ import annotations

import html as _html
import re

from lxml import etree

_BREAKS = frozenset(("br",))
_BLOCKS = frozenset(("p", "div", "ul", "ol", "table", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote",
                     "section", "article", "figure", "figcaption", "dl", "dt", "dd", "hr"))
_SKIP = frozenset(("script", "style", "head", "title", "rt", "rp", "annotation", "annotation-xml", "template",
                   "object", "audio", "video", "iframe"))
_CELLS = frozenset(("td", "th"))
_TEX = ("application/x-tex", "tex", "latex", "text/x-tex")

# a complete start or end tag: a name, then attributes whose quoted values hold no "<"; possessive, so a
# failing candidate costs at most the span to the next "<"
_TAG = re.compile(r"</?[A-Za-z][\w:.-]*+(?:\s++[^\s<>\"'=/]++(?:\s*+=\s*+(?:\"[^\"<]*+\"|'[^'<]*+'|[^\s<>\"'=`]++))?+)*+"
                  r"\s*+/?>")
_OPEN = re.compile(r"<")
_ASCII_SPACE = re.compile(r"[ \t\r\n\f]+")


def _closing(text: str, start: int, marker: str, found: dict[str, int]) -> int:
    """Where ``marker`` next occurs from ``start``, or -1. Each marker's last place is kept: a search from before it
    gives it again, and one once missing is never made again (it cannot occur later either), so the pre-pass looks
    at each character once per marker, however many openings share one end."""
    at = found.get(marker)
    if at is not None and (at < 0 or at >= start):
        return at
    at = text.find(marker, start)
    found[marker] = at
    return at


def _markup(text: str) -> str:
    """``text`` with only complete markup left as markup: comments and declarations dropped, CDATA as escaped text,
    every ``<`` that opens nothing complete escaped."""
    out: list[str] = []
    missing: dict[str, int] = {}
    pos = 0
    for found in iter(lambda: _OPEN.search(text, pos), None):
        at = found.start()
        out.append(text[pos:at])
        pos = at + 1
        if text.startswith("<!--", at):
            end = _closing(text, at + 4, "-->", missing)
            if end >= 0:
                pos = end + 3
                continue
        elif text.startswith("<![CDATA[", at):
            end = _closing(text, at + 9, "]]>", missing)
            if end >= 0:
                out.append(_html.escape(text[at + 9:end], quote=False))
                pos = end + 3
                continue
        elif text.startswith(("<!", "<?"), at):
            end = _closing(text, at + 2, ">", missing)
            # a "<" before the ">" ends the search there: the text up to it is looked at once
            if end >= 0 and text.find("<", at + 1, end) < 0:
                pos = end + 1
                continue
        else:
            tag = _TAG.match(text, at)
            if tag is not None:
                out.append(tag.group())
                pos = tag.end()
                continue
        out.append("&lt;")
    out.append(text[pos:])
    return "".join(out)


def _parser() -> etree.HTMLParser:
    return etree.HTMLParser(no_network=True, remove_comments=True, remove_pis=True, recover=True,
                            default_doctype=False, compact=True)


def _name(element) -> str:
    tag = element.tag if isinstance(element.tag, str) else ""
    return tag.rsplit("}", 1)[-1].rsplit(":", 1)[-1].lower()


def _tex(element) -> str | None:
    """A MathML ``<semantics>``'s TeX annotation, which says the formula better than its flattened layout."""
    for sub in element:
        if _name(sub) == "annotation" and (sub.get("encoding") or "").lower() in _TEX and (sub.text or "").strip():
            return sub.text.strip()
    return None


class _Walk:
    """The text of a parsed fragment, gathered in one walk over its tree."""

    def __init__(self, keep_spacing: bool) -> None:
        self.parts: list[str] = []
        self.keep = keep_spacing
        self.pre = 0
        self.images: list[str] = []

    def text(self, data: str | None) -> None:
        if not data:
            return
        if self.pre:   # as written; its spaces as no-break spaces, which tidying keeps
            self.parts.append(data.replace("\r\n", "\n").replace(" ", "\xa0"))
        elif self.keep:
            self.parts.append(data.replace("\r\n", "\n"))
        else:
            self.parts.append(_ASCII_SPACE.sub(" ", data))

    def start(self, element) -> bool:
        """Open an element; False when its content is left out."""
        name = _name(element)
        if name in _SKIP:
            return False
        if name == "semantics" and (tex := _tex(element)) is not None:
            self.parts.append(tex)
            return False
        if name == "img":
            label = (element.get("alt") or "").strip() or (element.get("title") or "").strip()
            source = (element.get("src") or "").rsplit("/", 1)[-1]
            self.images.append(label or (f"[image: {source}]" if source else "[image]"))
        if name in _BREAKS:
            self.parts.append("\n")
        elif name in _BLOCKS:
            self.parts.append("\n\n")
        elif name == "pre":
            self.parts.append("\n\n")
            self.pre += 1
        elif name == "li":
            self.parts.append("\n- ")
        elif name in _CELLS:
            self.parts.append(" ")
        return True

    def end(self, element) -> None:
        name = _name(element)
        if name in _BLOCKS:
            self.parts.append("\n\n")
        elif name == "pre":
            self.pre -= 1
            self.parts.append("\n\n")


def _walk(root, keep_spacing: bool) -> _Walk:
    walk = _Walk(keep_spacing)
    skipped = None
    for event, element in etree.iterwalk(root, events=("start", "end")):
        if skipped is not None:
            if event == "end" and element is skipped:
                skipped = None
                walk.text(element.tail)
            continue
        if event == "start":
            if element is not root and not walk.start(element):
                skipped = element
                continue
            walk.text(element.text)
        else:
            if element is not root:
                walk.end(element)
                walk.text(element.tail)
    return walk


def _tidy(text: str, keep_spacing: bool) -> str:
    """Lines made tidy: in HTML, the spaces that layout put at a line's ends go (a no-break space is kept: an
    author indents with it), and runs of blank lines become one; with ``keep_spacing`` every space stays."""
    if keep_spacing:
        return re.sub(r"\n{3,}", "\n\n", text.replace("\xa0", " ")).strip("\n")
    lines = [re.sub(" {2,}", " ", line).lstrip(" ").rstrip(" \t\xa0").replace("\xa0", " ") for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n")


def to_plain(markup: str, keep_spacing: bool = False, images: bool = False) -> str:
    """The text of an HTML fragment. As a browser shows HTML, runs of spaces and line breaks are one space and
    blank lines come only between blocks, except inside ``<pre>``; with ``keep_spacing`` (Moodle's auto-format
    and plain text, where the author's line breaks and spaces are kept) every space and line break stays.
    ``images``: a text with nothing but images is their ``alt`` text (or ``[image: file]``)."""
    if "<" not in markup and "&" not in markup:
        return _tidy(markup if keep_spacing else _ASCII_SPACE.sub(" ", markup), keep_spacing)
    try:
        root = etree.fromstring(f"<body>{_markup(markup)}</body>", _parser())
    except (etree.LxmlError, ValueError):
        root = None
    if root is None:   # nothing the parser could hold: the text without its tags
        return _tidy(_ASCII_SPACE.sub(" ", _html.unescape(re.sub(r"<[^<>]*>", " ", markup))), keep_spacing)
    body = root.find("body") if root.tag == "html" else root
    walk = _walk(body if body is not None else root, keep_spacing)
    text = _tidy("".join(walk.parts), keep_spacing)
    if images and not text.strip() and walk.images:
        return " ".join(walk.images)
    return text
