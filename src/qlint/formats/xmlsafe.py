"""XML read as hostile input: no DTD loaded, no entity expanded, nothing fetched, no huge trees.

A document that declares entities is refused before parsing (a finding, not a parse): qlint never expands them,
so an entity bomb or an external entity pointing at a local file costs nothing and reveals nothing.
"""
from __future__ import annotations

import copy
import html
import re

from lxml import etree

from qlint.finding import Finding
from qlint.formats.base import finding
from qlint.formats.html import to_plain
from qlint.problems import PARSE_ERROR
from qlint.sourcemap import find_suppressions

_DOCTYPE = re.compile(rb"<!DOCTYPE", re.I)
_ENTITY = re.compile(rb"<!ENTITY", re.I)


def _parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
                           huge_tree=False, remove_blank_text=False, strip_cdata=True)


def _line_of(data: bytes, offset: int) -> tuple[int, int]:
    line = data.count(b"\n", 0, offset) + 1
    return line, offset - (data.rfind(b"\n", 0, offset) + 1) + 1


def parse(data: bytes, path: str) -> tuple[etree._Element | None, list[Finding]]:
    """The root element, or None and the finding that says why not."""
    doctype = _DOCTYPE.search(data)
    if doctype is not None:
        end = data.find(b"]>", doctype.start())
        subset = data[doctype.start(): end if end >= 0 else len(data)]
        entity = _ENTITY.search(subset)
        if entity is not None or re.search(rb"\b(SYSTEM|PUBLIC)\b", subset[:subset.find(b"[") if b"[" in subset else 400]):
            where = doctype.start() + (entity.start() if entity is not None else 0)
            line, column = _line_of(data, where)
            what = "declares entities" if entity is not None else "names an external DTD"
            return None, [finding(path, line, column, PARSE_ERROR,
                                  f"XML DOCTYPE {what}; qlint never loads DTDs or expands entities: remove the DOCTYPE")]
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as exc:
        line, column = (exc.position if exc.position else (1, 1))
        message = str(exc.msg or exc).split(", line ")[0]
        return None, [finding(path, line or 1, (column or 0) + 1, PARSE_ERROR, f"XML syntax error: {message}")]
    except (ValueError, etree.LxmlError) as exc:
        return None, [finding(path, 1, 1, PARSE_ERROR, f"XML cannot be read: {exc}")]
    if root is None:
        return None, [finding(path, 1, 1, PARSE_ERROR, "XML document has no root element")]
    return root, []


def local(element) -> str:
    """An element's name without namespace, lower case, QTI 3's ``qti-`` prefix and dashes dropped: QTI 2.1's
    ``choiceInteraction`` and QTI 3's ``qti-choice-interaction`` are both ``choiceinteraction``."""
    tag = element.tag if isinstance(element.tag, str) else ""
    name = tag.rsplit("}", 1)[-1].lower()
    return name.removeprefix("qti-").replace("-", "")


def children(element, name: str) -> list:
    return [c for c in element if local(c) == name]


def child(element, name: str):
    return next((c for c in element if local(c) == name), None)


def descendants(element, name: str) -> list:
    return [c for c in element.iter() if isinstance(c.tag, str) and local(c) == name]


def inner_html(element, skip: frozenset[str] = frozenset(), literal: bool = False) -> str:
    """An element's content as markup (its text, children and their tails), leaving out ``skip`` elements.
    ``literal``: the element's own text is text (QTI 2's XHTML), not HTML source (Moodle's escaped HTML)."""
    quote = html.escape if literal else str
    parts = [quote(element.text or "")]
    for sub in element:
        if isinstance(sub.tag, str) and local(sub) not in skip:
            parts.append(etree.tostring(_strip(sub, skip), encoding="unicode", with_tail=False))
        parts.append(quote(sub.tail or ""))
    return "".join(parts)


def _strip(element, skip: frozenset[str]):
    if not skip or not any(local(e) in skip for e in element.iter() if isinstance(e.tag, str)):
        return element
    clone = copy.deepcopy(element)
    for e in list(clone.iter()):
        if isinstance(e.tag, str) and local(e) in skip and e is not clone and e.getparent() is not None:
            parent = e.getparent()
            tail = e.tail or ""
            previous = e.getprevious()
            if previous is not None:
                previous.tail = (previous.tail or "") + tail
            else:
                parent.text = (parent.text or "") + tail
            parent.remove(e)
    return clone


def plain(element, skip: frozenset[str] = frozenset(), literal: bool = False) -> str:
    """An element's text for the rules: its markup (or escaped HTML, or CDATA) made plain. ``literal``: its text
    is text, not HTML source (QTI 2 XHTML, QTI 1.2 ``text/plain``, Moodle ``plain_text``)."""
    if element is None:
        return ""
    if len(element) == 0:
        return to_plain(html.escape(element.text or "") if literal else element.text or "")
    # XHTML in the tree: drop namespaces so the markup reads as HTML
    markup = re.sub(r"\sxmlns(:\w+)?=\"[^\"]*\"", "", inner_html(element, skip, literal))
    markup = re.sub(r"<(/?)\w+:", r"<\1", markup)
    return to_plain(markup)


def column(lines: list[str], element) -> tuple[int, int]:
    """Where an element starts: lxml knows its line; the column is where its tag opens on that line."""
    line = element.sourceline or 1
    name = element.tag.rsplit("}", 1)[-1] if isinstance(element.tag, str) else ""
    pattern = re.compile(r"<([\w.-]+:)?" + re.escape(name) + r"(?![\w.:-])")
    for back in range(line, max(0, line - 8), -1):   # lxml gives the line a multi-line start tag ends on
        at = pattern.search(lines[back - 1]) if back <= len(lines) else None
        if at:
            return back, at.start() + 1
    return line, 1


def source_lines(data: bytes) -> list[str]:
    return data.decode("utf-8", "replace").splitlines()


_COMMENT = re.compile(r"<!--\s*(qlint:[^\n]*?)\s*(?:-->|$)")


def suppressions(data: bytes) -> list:
    """``<!-- qlint: ignore[...] reason -->`` comments, read as the YAML loader reads ``# qlint:`` comments (a
    comment alone on its line covers the next element's line; ``ignore-question`` the question it opens)."""
    if b"qlint:" not in data:
        return []
    lines = data.decode("utf-8", "replace").splitlines()
    text = "\n".join(_COMMENT.sub(r"# \1", line) if "qlint:" in line else
                     ("" if line.lstrip().startswith("#") else line) for line in lines)
    return find_suppressions(text)
