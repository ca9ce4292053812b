"""XML read as hostile input: no DTD loaded, no entity expanded, nothing fetched, no huge trees.

What a document declares is decided on the parsed prolog, in whatever encoding the document is written: the
DOCTYPE's internal subset as libxml2 read it (a ``]>`` inside a DTD comment, or a UTF-16 document, hides nothing).
A document that declares entities is refused before its body is parsed (a finding, not a parse): qlint never
expands them, so an entity bomb or an external entity pointing at a local file costs nothing and reveals nothing.
An external DTD is never loaded; an entity it would have defined is a finding, never silently dropped text.
"""
from __future__ import annotations

import codecs
import copy
import html
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from lxml import etree

from qlint.finding import Finding
from qlint.formats.base import finding, on_time
from qlint.formats.html_text import to_plain
from qlint.limits import Limits
from qlint.problems import PARSE_ERROR
from qlint.sourcemap import CommentLine, collect_suppressions

_CHUNK = 65536
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"), (codecs.BOM_UTF8, "utf-8"),
         (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))


def _parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
                           huge_tree=False, remove_blank_text=False, strip_cdata=True)


def _pull(encoding: str | None = None) -> etree.XMLPullParser:
    return etree.XMLPullParser(events=("start",), resolve_entities=False, no_network=True, load_dtd=False,
                               dtd_validation=False, huge_tree=False, encoding=encoding)


# libxml2's push parser does not tell UTF-32 by its byte-order mark (the whole-document parser does): named here
_UTF32 = ((codecs.BOM_UTF32_LE, "UTF-32LE"), (codecs.BOM_UTF32_BE, "UTF-32BE"))


@dataclass(frozen=True)
class Prolog:
    """What comes before a document's root element, as parsed: the root's namespace and local name, the declared
    encoding, and what the DOCTYPE holds."""

    namespace: str
    name: str
    encoding: str | None
    entities: tuple[str, ...]
    external: bool


def prolog(chunks: Iterable[bytes]) -> Prolog | None:
    """The prolog of the document ``chunks`` make up, read only as far as the root element's start tag (a long
    licence comment before the root is read through, whatever its length); None when it is not XML."""
    return read_prolog(chunks)[0]


def read_prolog(chunks: Iterable[bytes]) -> tuple[Prolog | None, bool]:
    """``prolog(chunks)``, and whether the document broke off in an error before its root element (a malformed
    comment or declaration, an encoding the parser lacks): the walk cannot tell such a file's format, and takes it
    so that reading it reports the error rather than leaving the file out unsaid."""
    parser = None
    for chunk in chunks:
        try:
            if parser is None:
                encoding = next((codec for bom, codec in _UTF32 if chunk.startswith(bom)), None)
                parser = _pull(encoding)
                chunk = chunk[4:] if encoding else chunk
            parser.feed(chunk)
        except (etree.LxmlError, ValueError, LookupError):
            # the events before the error still tell what the prolog declared
            head = next((_head(element) for _, element in parser.read_events()), None) if parser is not None else None
            return head, head is None
        for _, element in parser.read_events():
            return _head(element), False
    return None, False


def _head(element) -> Prolog:
    info = element.getroottree().docinfo
    dtd = info.internalDTD
    tag = element.tag if isinstance(element.tag, str) else ""
    namespace, _, name = tag[1:].partition("}") if tag.startswith("{") else ("", "", tag)
    return Prolog(namespace, name.rsplit(":", 1)[-1], info.encoding,
                  tuple(e.name or "" for e in dtd.iterentities()) if dtd is not None else (),
                  bool(info.system_url or info.public_id))


_CANVAS = "canvas.instructure.com"
QTI_ROOTS = frozenset(("questestinterop", "assessmentitem", "assessmenttest"))


def bank_format(head: Prolog | None) -> str | None:
    """The bank format a document's root element names: ``moodle-xml`` for ``<quiz>`` in any namespace or prefix
    (except a Canvas export's quiz settings, assessment_meta.xml), ``qti`` for QTI's roots, else None."""
    if head is None:
        return None
    if head.name.lower() == "quiz" and _CANVAS not in head.namespace:
        return "moodle-xml"
    return "qti" if local_name(head.name) in QTI_ROOTS else None


def chunked(data: bytes) -> Iterable[bytes]:
    return (data[i:i + _CHUNK] for i in range(0, len(data), _CHUNK))


def file_chunks(handle, limit: int) -> Iterable[bytes]:
    """A file's bytes in chunks, no further than ``limit``."""
    read = 0
    while read < limit:
        chunk = handle.read(min(_CHUNK, limit - read))
        if not chunk:
            return
        read += len(chunk)
        yield chunk


def decoded(data: bytes, encoding: str | None = None) -> str:
    """A document's text for positions and comments: by its byte-order mark, else its declared encoding, else
    UTF-8; undecodable bytes replaced (the parser has already said whether the document is well formed)."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return data[len(bom):].decode(codec, "replace")
    try:
        return data.decode(encoding or "utf-8", "replace")
    except LookupError:
        return data.decode("utf-8", "replace")


def _line_of(text: str, needle: str) -> tuple[int, int]:
    at = text.find(needle)
    if at < 0:
        return 1, 1
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


@dataclass
class Document:
    """A parsed XML document: its root, its text (decoded as the parser read it) and where its elements start."""

    root: etree._Element
    text: str
    positions: Positions


def parse(data: bytes, path: str, limits: Limits | None = None) -> tuple[Document | None, list[Finding]]:
    """The parsed document, or None and the finding that says why not."""
    data = _lone_returns_as_newlines(data)
    head = prolog(chunked(data))
    if head is not None and head.entities:
        text = decoded(data, head.encoding)
        line, column = _line_of(text, "<!ENTITY")
        return None, [finding(path, line, column, PARSE_ERROR,
                              "XML DOCTYPE declares entities; qlint never loads DTDs or expands entities: remove the DOCTYPE")]
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
    dtd = root.getroottree().docinfo.internalDTD
    if dtd is not None and next(dtd.iterentities(), None) is not None:
        # the prolog missed them (an encoding its reader does not tell): the parsed document says, and is refused
        return None, [finding(path, 1, 1, PARSE_ERROR,
                              "XML DOCTYPE declares entities; qlint never loads DTDs or expands entities: remove the DOCTYPE")]
    reference = next(root.iter(etree.Entity), None)
    if reference is not None:   # an entity an external DTD would define: its text would silently go missing
        return None, [finding(path, reference.sourceline or 1, 1, PARSE_ERROR,
                              f"XML uses the entity {reference.text} from an external DTD, which qlint never loads: "
                              "write the character itself or a character reference")]
    text = decoded(data, root.getroottree().docinfo.encoding)
    return Document(root, text, Positions(root, text.split("\n"), limits)), []


_WIDE = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")   # UTF-16 and UTF-32 byte order marks
_LONE_RETURN = re.compile(rb"\r(?!\n)")


def _lone_returns_as_newlines(data: bytes) -> bytes:
    """A document whose lines end in a lone carriage return (an old Mac export) with line feeds instead, byte for
    byte, when its encoding is one of ASCII's supersets: XML reads both as a line feed, so the text is the same,
    but the parser counts lines by line feeds only, and every finding fell on line 1 (and a suppression there
    covered the whole file)."""
    if b"\r" not in data or data.startswith(_WIDE) or b"\x00" in data[:4]:
        return data
    return _LONE_RETURN.sub(b"\n", data)


def local(element) -> str:
    """An element's name without namespace, lower case, QTI 3's ``qti-`` prefix and dashes dropped: QTI 2.1's
    ``choiceInteraction`` and QTI 3's ``qti-choice-interaction`` are both ``choiceinteraction``."""
    return local_name(element.tag if isinstance(element.tag, str) else "")


def local_name(tag: str) -> str:
    """``local`` for a tag's name as text."""
    return tag.rsplit("}", 1)[-1].lower().removeprefix("qti-").replace("-", "")


def attribute(element, name: str, default: str | None = None) -> str | None:
    """An attribute by its QTI 2 name (``responseIdentifier``) or its QTI 3 one (``response-identifier``)."""
    value = element.get(name)
    if value is None:
        value = element.get(re.sub(r"(?<=[a-z])([A-Z])", lambda m: "-" + m.group(1).lower(), name))
    return default if value is None else value


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
        elif not isinstance(sub.tag, str) and literal and sub.tag is etree.Entity:
            parts.append(sub.text or "")
        parts.append(quote(sub.tail or ""))
    return "".join(parts)


def _strip(element, skip: frozenset[str]):
    if not skip or not any(local(e) in skip for e in element.iter() if isinstance(e.tag, str)):
        return element
    clone = copy.deepcopy(element)
    for e in [e for e in clone.iter() if isinstance(e.tag, str) and local(e) in skip and e is not clone]:
        parent = e.getparent()
        if parent is None:
            continue
        tail = e.tail or ""
        previous = e.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
        parent.remove(e)
    return clone


def plain(element, skip: frozenset[str] = frozenset(), literal: bool = False, keep_spacing: bool = False,
          images: bool = False) -> str:
    """An element's text for the rules: its markup (or escaped HTML, or CDATA) made plain. ``literal``: its text
    is text, not HTML source (QTI 2 XHTML, QTI 1.2 ``text/plain``, Moodle ``plain_text``); ``keep_spacing``: its
    spaces and line breaks are the author's (plain text, Moodle's auto-format); ``images``: an image-only text is
    its alt text."""
    if element is None:
        return ""
    if len(element) == 0:
        return to_plain(html.escape(element.text or "", quote=False) if literal else element.text or "",
                        keep_spacing, images)
    # XHTML in the tree: drop namespaces so the markup reads as HTML
    markup = re.sub(r"\sxmlns(:[\w.-]+)?=\"[^\"]*\"", "", inner_html(element, skip, literal))
    markup = re.sub(r"<(/?)[\w.-]+:", r"<\1", markup)
    return to_plain(markup, keep_spacing, images)


_START = re.compile(r"<(?:[\w.-]+:)?([\w.-]+)")


class Positions:
    """Where each element's start tag opens, line and column, worked out once for the whole document.

    lxml knows an element's line (the line its start tag ends on); the column is found by one scan of the text
    for start tags, each element taking, in document order, the next unclaimed start tag of its name on its line
    or the few lines above. A file of one 20 MB line costs one scan, not one per element."""

    def __init__(self, root, lines: list[str], limits: Limits | None = None) -> None:
        self.lines = lines
        self.found: dict[object, tuple[int, int]] = {}
        self._tags: dict[int, dict[str, list[int]]] = {}
        self._next: dict[tuple[int, str], int] = {}
        for count, element in enumerate(root.iter()):
            if count % 4096 == 0 and limits is not None:
                on_time(limits)
            if isinstance(element.tag, str):
                self.found[element] = self._claim(element)

    def _starts(self, number: int) -> dict[str, list[int]]:
        if number not in self._tags:
            table: dict[str, list[int]] = {}
            if 1 <= number <= len(self.lines):
                for match in _START.finditer(self.lines[number - 1]):
                    table.setdefault(match.group(1), []).append(match.start() + 1)
            self._tags[number] = table
        return self._tags[number]

    def _claim(self, element) -> tuple[int, int]:
        line = element.sourceline or 1
        name = element.tag.rsplit("}", 1)[-1]
        for back in range(line, max(0, line - 8), -1):
            starts = self._starts(back).get(name, ())
            taken = self._next.get((back, name), 0)
            if taken < len(starts):
                self._next[(back, name)] = taken + 1
                return back, starts[taken]
        return line, 1

    def __call__(self, element) -> tuple[int, int]:
        if element is None:
            return 1, 1
        return self.found.get(element) or (element.sourceline or 1, 1)


def suppressions(document: Document) -> list:
    """``<!-- qlint: ignore[...] reason -->`` comments, read as the YAML loader reads ``# qlint:`` comments (a
    comment alone on its line covers the next element's line; ``ignore-question`` the question it opens). Only a
    comment the parser read as one counts: ``<!--`` inside CDATA or an attribute, or ``# qlint:`` in a text, is bank
    text. Each line is cut with ``str.find``: no pattern runs over a comment's body."""
    text = document.text
    if "qlint:" not in text:
        return []
    opened: dict[int, list[str]] = {}   # line a real comment opens on -> the first line of each such body
    for comment in _comments(document.root):
        body = comment.text or ""
        if "qlint:" in body:
            start = (comment.sourceline or 1) - body.count("\n")
            opened.setdefault(start, []).append(body.split("\n", 1)[0].strip())
    return collect_suppressions(_comment_lines(text, opened))


def _comment_lines(text: str, opened: dict[int, list[str]]) -> Iterator[CommentLine]:
    """A document's lines as suppressions see them: a line a real ``qlint:`` comment opens on holds that comment
    (its text up to ``-->``; alone when nothing comes before it, and then the line is no content line); every
    other line is question text, markup or a comment of no concern: a content line, whatever it says."""
    for number, line in enumerate(text.split("\n"), start=1):
        found = _opening(line, opened[number]) if number in opened else None
        if found is not None:
            at, comment, _ = found
            before = bool(line[:at].strip())
            yield CommentLine(number, before, at + 1, " " + comment, not before)
        elif line.strip():
            yield CommentLine(number, True)


def _comments(root) -> Iterable:
    """Every comment of a document: before its root, inside it and after it."""
    yield from root.itersiblings(etree.Comment, preceding=True)
    yield from root.iter(etree.Comment)
    yield from root.itersiblings(etree.Comment)


_QLINT_COMMENT = re.compile(r"<!--\s*+qlint:")


def _opening(line: str, bodies: list[str]) -> tuple[int, str, str] | None:
    """Where on ``line`` a real ``qlint:`` comment opens (one whose body's first line the parser read is among
    ``bodies``), its text up to ``-->`` on this line, and what follows it. One pass: each ``-->`` is looked for
    once, however many ``<!--`` a text on the line holds; an opening whose text holds "--" before its end is none
    (XML allows no "--" in a comment: it is question text), and is passed over without reading its text."""
    wanted = set(bodies)
    closing = dashes = -1
    for match in _QLINT_COMMENT.finditer(line):
        if closing < match.end():
            closing = line.find("-->", match.end())
            if closing < 0:
                closing = len(line)
        if dashes < match.end():
            dashes = line.find("--", match.end())
            if dashes < 0:
                dashes = len(line)
        if dashes < closing:
            continue
        comment = line[match.start() + 4:closing].strip()
        if comment in wanted:
            return match.start(), comment, line[closing + 3:]
    return None
