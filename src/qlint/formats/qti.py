"""QTI: 1.2 (``<questestinterop>``, as Canvas, Blackboard, Respondus and text2qti write it), 2.1, 2.2 and 3.0
(``assessmentItem``, ``qti-assessment-item``), one XML file (Canvas's ``*.xml.qti`` too) or a zipped content
package with ``imsmanifest.xml``.

Inside a package, positions name the entry: ``quiz.zip!items/q1.xml`` with the line in that entry. A package is
bounded before anything is inflated: its central directory's size, entries, each entry's and the total size,
and the compression ratio. Every entry is sniffed by parsing its prolog, in any encoding; an entry the manifest
lists as an item but that holds none, an encrypted entry and a nested package are findings, never skipped
silently. The package's test (``assessmentTest``) and manifest are package parts, not questions.
"""
from __future__ import annotations

import dataclasses
import io
import posixpath
import zipfile
import zlib

from qlint.formats import qti1, qti2, xmlsafe, zipsafe
from qlint.formats.base import Draft, ReadLimits, build, finding, on_time, unsupported
from qlint.limits import Limits
from qlint.problems import PARSE_ERROR, SCHEMA
from qlint.sourcemap import ParsedFile
from qlint.formats.table import BY_NAME

_BROKEN = (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, OSError, EOFError, ValueError, NotImplementedError,
           RuntimeError)
ITEM_ROOTS = frozenset(("questestinterop", "assessmentitem"))
# roots of a package's other parts: read as parts, never reported as "not a QTI document"
PART_ROOTS = frozenset(("assessmenttest", "assessmentsection", "assessmentstimulus", "manifest", "responseprocessing",
                        "outcomedeclaration", "quiz", "questestinterop_meta"))
_XML = (".xml", ".qti")
_PACKAGES = (".zip", ".imscc")


def read_xml(data: bytes, path: str, result: ParsedFile, limits: Limits, skipped: dict | None = None) -> list[Draft]:
    """The drafts of one QTI XML document; problems and suppressions go to ``result``. Question types it skips are
    counted in ``skipped`` when given (a package says once what all its entries skipped), else reported here."""
    document, problems = xmlsafe.parse(data, path, limits)
    result.findings += problems
    if document is None:
        return []
    result.suppressions = xmlsafe.suppressions(document)
    root = document.root
    counts: dict[str, tuple[int, int, int]] = {} if skipped is None else skipped
    kind = xmlsafe.local(root)
    drafts: list[Draft] = []
    if kind == "questestinterop":
        drafts = qti1.drafts(root, document.positions, counts, limits)
    elif kind == "assessmentitem":
        draft = qti2.item_draft(root, document.positions, counts, limits)
        drafts = [draft] if draft is not None else []
    elif kind not in PART_ROOTS:
        result.findings.append(finding(path, root.sourceline or 1, 1, SCHEMA,
                                       f"not a QTI document: root element <{kind}>"))
    if skipped is None:
        result.findings += unsupported(path, counts)
    return drafts


def _listed(archive: zipfile.ZipFile, limit: int) -> dict[str, str]:
    """Entry -> resource type, for every resource the manifest names (its ``href``, relative to the manifest)."""
    try:
        document, _ = xmlsafe.parse(_bounded(archive, archive.getinfo("imsmanifest.xml"), limit) or b"", "imsmanifest.xml")
    except (*_BROKEN, KeyError):
        return {}
    if document is None:
        return {}
    listed: dict[str, str] = {}
    for resource in xmlsafe.descendants(document.root, "resource"):
        kind = (resource.get("type") or "").lower()
        base = resource.get("{http://www.w3.org/XML/1998/namespace}base") or ""
        href = resource.get("href")   # the resource's own file; its <file> list names images and stylesheets too
        if href:
            listed.setdefault(posixpath.normpath(posixpath.join(base, href.split("#")[0])), kind)
    return listed


def _entries(archive: zipfile.ZipFile, path: str, limits: Limits, result: ParsedFile) -> list[zipfile.ZipInfo]:
    """The package's entries to look into, once its size, entry count and ratio are known to be sane."""
    infos = archive.infolist()
    most = getattr(limits, "max_zip_entries", ReadLimits.max_zip_entries)
    ratio = getattr(limits, "max_zip_ratio", ReadLimits.max_zip_ratio)
    if len(infos) > most:
        result.findings.append(finding(path, 1, 1, PARSE_ERROR, f"package holds {len(infos)} entries, over {most}"))
        return []
    total = sum(i.file_size for i in infos)
    if total > limits.max_file_size * 4:
        result.findings.append(finding(path, 1, 1, PARSE_ERROR,
                                       f"package inflates to {total / 1048576:.0f} MB, over the limit"))
        return []
    for info in infos:
        if info.file_size > 1_000_000 and info.file_size > ratio * max(1, info.compress_size):
            result.findings.append(finding(path, 1, 1, PARSE_ERROR,
                                           f"entry {info.filename!r} is compressed "
                                           f"{info.file_size // max(1, info.compress_size)}:1, over {ratio}:1 (a zip bomb?)"))
            return []
    names = {i.filename for i in infos}
    if "imsmanifest.xml" not in names:
        result.findings.append(finding(path, 1, 1, SCHEMA, "zip package has no imsmanifest.xml at its top"))
        return []
    unsafe = {n for n in names if n.startswith(("/", "\\")) or ".." in n.replace("\\", "/").split("/") or ":" in n}
    if unsafe:
        result.findings.append(finding(path, 1, 1, PARSE_ERROR,
                                       f"package entry {sorted(unsafe)[0]!r} points outside the package"))
    # a Canvas export holds each quiz twice: its full form (non_cc_assessments/X.xml.qti) and a Common Cartridge
    # copy (X/assessment_qti.xml) that drops what the cartridge cannot hold; the full form is read
    full = {posixpath.basename(n)[:-len(".xml.qti")] for n in names if n.startswith("non_cc_assessments/")
            and n.endswith(".xml.qti")}
    return [i for i in infos if not i.is_dir() and i.filename not in unsafe and i.filename != "imsmanifest.xml"
            and i.filename.split("/", 1)[0] not in full]


def _bounded(archive: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int) -> bytes | None:
    """An entry's bytes, read no further than ``limit`` whatever its header claims."""
    with archive.open(info) as handle:
        data = handle.read(limit + 1)
    return data if len(data) <= limit else None


def _entry(archive: zipfile.ZipFile, info: zipfile.ZipInfo, path: str, listed: dict[str, str], limits: Limits,
           result: ParsedFile, skipped: dict) -> None:
    """Read one entry into ``result``: its questions, or the finding that says why it holds none."""
    inner = f"{path}!{info.filename}"
    lower = info.filename.lower()
    if info.flag_bits & 0x1:
        result.findings.append(finding(inner, 1, 1, PARSE_ERROR, "entry is encrypted; qlint cannot read it"))
        return
    if lower.endswith(_PACKAGES):
        result.findings.append(finding(inner, 1, 1, PARSE_ERROR,
                                       "entry is a package inside the package, which qlint does not open: "
                                       "check it on its own"))
        return
    if not lower.endswith(_XML) and info.filename not in listed:
        return
    try:
        body = _bounded(archive, info, limits.max_file_size)
    except _BROKEN as exc:   # one damaged entry: the others are still read
        result.findings.append(finding(inner, 1, 1, PARSE_ERROR, f"entry cannot be inflated: {exc}"))
        return
    if body is None:
        result.findings.append(finding(inner, 1, 1, PARSE_ERROR, "entry is over the max-file-size limit"))
        return
    head = xmlsafe.prolog(xmlsafe.chunked(body))
    root = xmlsafe.local_name(head.name) if head is not None else None
    if root not in ITEM_ROOTS:
        kind = listed.get(info.filename, "")
        if "item" in kind and root not in PART_ROOTS:
            what = f"<{root}>" if root else "no XML"
            result.findings.append(finding(inner, 1, 1, SCHEMA, f"the manifest lists this entry as a QTI item "
                                                                f"({kind}), but it holds {what}"))
        return
    part = ParsedFile(inner)
    build(read_xml(body, inner, part, limits, skipped), part, limits)
    result.questions += part.questions
    result.findings += part.findings
    # an entry's suppression comments cover its own lines and questions, named by the entry's path
    result.suppressions += [dataclasses.replace(s, path=inner) for s in part.suppressions]


def read_package(data: bytes, path: str, limits: Limits) -> ParsedFile:
    result = ParsedFile(path)
    refused = zipsafe.too_big(zipsafe.of_bytes(data), getattr(limits, "max_zip_entries", ReadLimits.max_zip_entries))
    if refused:
        result.findings.append(finding(path, 1, 1, PARSE_ERROR, refused))
        return result
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            entries = _entries(archive, path, limits, result)
            names = {i.filename for i in archive.infolist()}
            listed = _listed(archive, limits.max_file_size)   # a package of its manifest alone lacks every item
            skipped: dict[str, tuple[int, int, int]] = {}
            first = path   # the first entry that skipped a question: where the package's one count points
            for info in entries:
                on_time(limits)
                had = bool(skipped)
                _entry(archive, info, path, listed, limits, result, skipped)
                first = f"{path}!{info.filename}" if skipped and not had else first
            result.findings += unsupported(first, skipped)
            for name, kind in sorted(listed.items()):
                if name not in names and "item" in kind:
                    result.findings.append(finding(f"{path}!imsmanifest.xml", 1, 1, SCHEMA,
                                                   f"the manifest lists the item {name!r}, which the package lacks"))
    except _BROKEN as exc:
        result.findings.append(finding(path, 1, 1, PARSE_ERROR, f"not a readable zip package: {exc}"))
    return result


class QtiReader:
    name = "qti"
    suffixes = BY_NAME["qti"].suffixes + BY_NAME["qti"].shared   # the format table's row

    def sniff(self, data: bytes, path: str) -> bool:
        return data.startswith(b"PK") or xmlsafe.bank_format(xmlsafe.prolog(xmlsafe.chunked(data))) == "qti"

    def read(self, data: bytes, path: str, limits: Limits) -> ParsedFile:
        if data.startswith(b"PK\x03\x04") or path.lower().endswith(_PACKAGES):
            return read_package(data, path, limits)
        result = ParsedFile(path)
        return build(read_xml(data, path, result, limits), result, limits)


READER = QtiReader()
