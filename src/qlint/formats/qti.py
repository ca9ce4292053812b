"""QTI: 1.2 (``<questestinterop>``, as Canvas and text2qti write it), 2.1 and 3.0 (``assessmentItem``,
``qti-assessment-item``), one XML file or a zipped content package with ``imsmanifest.xml``.

Inside a package, positions name the entry: ``quiz.zip!items/q1.xml`` with the line in that entry. A package
is bounded before anything is inflated: entries, each entry's and the total size, and the compression ratio.
"""
from __future__ import annotations

import io
import posixpath
import zipfile
import zlib

from qlint.formats import xmlsafe
from qlint.formats.base import Draft, ReadLimits, build, finding, unsupported
from qlint.limits import Limits
from qlint.problems import PARSE_ERROR, SCHEMA
from qlint.sourcemap import ParsedFile

_QTI1_TYPES = {"multiple_choice_question", "true_false_question", "multiple_answers_question"}
_QTI1_NAMES = {"essay_question": "essay", "numerical_question": "numeric", "short_answer_question": "short answer",
               "matching_question": "matching", "fill_in_multiple_blanks_question": "cloze",
               "multiple_dropdowns_question": "cloze", "file_upload_question": "file upload",
               "text_only_question": "description", "calculated_question": "calculated"}
_BROKEN = (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, OSError, EOFError, ValueError, NotImplementedError)
_SKIP_BODY = frozenset(("choiceinteraction", "feedbackblock", "feedbackinline", "rubricblock", "modalfeedback"))


def _count(skipped: dict[str, tuple[int, int, int]], kind: str, where: tuple[int, int]) -> None:
    count, line, column = skipped.get(kind, (0, *where))
    skipped[kind] = (count + 1, line, column)


def _metadata(item) -> dict[str, str]:
    fields = {}
    for field in xmlsafe.descendants(item, "qtimetadatafield"):
        label, entry = xmlsafe.child(field, "fieldlabel"), xmlsafe.child(field, "fieldentry")
        if label is not None and entry is not None:
            fields[(label.text or "").strip()] = (entry.text or "").strip()
    return fields


def _mattext(element) -> tuple[str, object]:
    texts = xmlsafe.descendants(element, "mattext") if element is not None else []
    return (" ".join(xmlsafe.plain(t, literal=t.get("texttype", "text/plain") == "text/plain") for t in texts).strip(),
            texts[0] if texts else element)


def _qti1_keys(item) -> tuple[set[str], dict[str, str], str | None]:
    """Correct choice idents (conditions that set a positive score), choice -> feedback ident, general feedback."""
    keys: set[str] = set()
    feedback: dict[str, str] = {}
    general = None
    for condition in xmlsafe.descendants(item, "respcondition"):
        variables = xmlsafe.child(condition, "conditionvar")
        if variables is None:
            continue
        wanted = [v for v in xmlsafe.descendants(variables, "varequal")
                  if not any(xmlsafe.local(a) == "not" for a in v.iterancestors())]
        links = [d.get("linkrefid") for d in xmlsafe.children(condition, "displayfeedback") if d.get("linkrefid")]
        for setvar in xmlsafe.children(condition, "setvar"):
            try:
                positive = float((setvar.text or "0").strip()) > 0 and setvar.get("action", "Set") in ("Set", "Add")
            except ValueError:
                positive = False
            if positive:
                keys |= {(v.text or "").strip() for v in wanted}
        if xmlsafe.child(variables, "other") is not None and links:
            general = links[0]
        elif len(wanted) == 1 and links:
            feedback[(wanted[0].text or "").strip()] = links[0]
    return keys, feedback, general


def _qti1_item(item, lines: list[str], skipped: dict, ids: dict[str, int]) -> Draft | None:
    where = xmlsafe.column(lines, item)
    kind = _metadata(item).get("question_type")
    choices = xmlsafe.descendants(item, "response_label")
    if (kind and kind not in _QTI1_TYPES) or not choices or xmlsafe.descendants(item, "response_str"):
        _count(skipped, _QTI1_NAMES.get(kind or "", kind or "not multiple choice"), where)
        return None
    presentation = xmlsafe.child(item, "presentation")
    stem_material = [m for m in presentation if xmlsafe.local(m) == "material"] if presentation is not None else []
    stem, stem_at = _mattext(stem_material[0] if stem_material else None)
    title = item.get("title")
    name = title if title and ids.get(title) == 1 else item.get("ident")
    draft = Draft({"stem": stem}, *where, name=name)
    draft.positions["stem"] = xmlsafe.column(lines, stem_at if stem_at is not None else item)
    keys, links, general = _qti1_keys(item)
    texts = {f.get("ident"): f for f in xmlsafe.descendants(item, "itemfeedback")}
    options = []
    for index, choice in enumerate(choices):
        text, at = _mattext(choice)
        ident = choice.get("ident", "")
        option: dict = {"text": text, "correct": ident in keys}
        draft.positions[f"options[{index}]"] = xmlsafe.column(lines, choice)
        draft.positions[f"options[{index}].text"] = xmlsafe.column(lines, at)
        feedback = texts.get(links.get(ident, f"{ident}_fb"))
        if feedback is not None:
            body, fb_at = _mattext(feedback)
            if body:
                option["rationale"] = body
                draft.positions[f"options[{index}].rationale"] = xmlsafe.column(lines, fb_at)
        options.append(option)
    draft.fields["options"] = options
    lid = xmlsafe.descendants(item, "response_lid")
    if kind == "multiple_answers_question" or (lid and lid[0].get("rcardinality") == "Multiple"):
        draft.fields["select"] = max(1, len(keys & {c.get("ident") for c in choices}))
    explanation = texts.get(general or "general_fb")
    if explanation is not None and _mattext(explanation)[0]:
        body, at = _mattext(explanation)
        draft.fields["explanation"] = body
        draft.positions["explanation"] = xmlsafe.column(lines, at)
    return draft


def _qti2_item(item, lines: list[str], skipped: dict) -> Draft | None:
    where = xmlsafe.column(lines, item)
    interactions = xmlsafe.descendants(item, "choiceinteraction")
    if not interactions:
        other = next((xmlsafe.local(e) for e in item.iter() if isinstance(e.tag, str)
                      and xmlsafe.local(e).endswith("interaction")), "no interaction")
        _count(skipped, other.removesuffix("interaction") or other, where)
        return None
    interaction = interactions[0]
    body = xmlsafe.child(item, "itembody")
    prompt = xmlsafe.child(interaction, "prompt")
    lead = xmlsafe.plain(body, _SKIP_BODY, True) if body is not None else ""
    stem = " ".join(t for t in (lead, xmlsafe.plain(prompt, literal=True) if prompt is not None else "") if t).strip()
    draft = Draft({"id": item.get("identifier") or None, "stem": stem}, *where, name=item.get("title"))
    if not draft.fields["id"]:
        del draft.fields["id"]
    draft.positions["stem"] = xmlsafe.column(lines, prompt if prompt is not None and not lead else
                                             (body if body is not None else item))
    response = interaction.get("responseIdentifier", "RESPONSE")
    declared = [d for d in xmlsafe.descendants(item, "responsedeclaration") if d.get("identifier") == response]
    keys = {(v.text or "").strip() for d in declared for c in xmlsafe.children(d, "correctresponse")
            for v in xmlsafe.children(c, "value")}
    modal = {m.get("identifier"): m for m in xmlsafe.descendants(item, "modalfeedback")}
    choices = xmlsafe.descendants(interaction, "simplechoice")
    options = []
    for index, choice in enumerate(choices):
        ident = choice.get("identifier", "")
        option: dict = {"text": xmlsafe.plain(choice, frozenset(("feedbackinline",)), True), "correct": ident in keys}
        draft.positions[f"options[{index}]"] = draft.positions[f"options[{index}].text"] = xmlsafe.column(lines, choice)
        inline = xmlsafe.descendants(choice, "feedbackinline")
        feedback = inline[0] if inline else modal.get(ident)
        if feedback is not None and xmlsafe.plain(feedback, literal=True):
            option["rationale"] = xmlsafe.plain(feedback, literal=True)
            draft.positions[f"options[{index}].rationale"] = xmlsafe.column(lines, feedback)
        options.append(option)
    draft.fields["options"] = options
    cardinality = declared[0].get("cardinality", "single") if declared else "single"
    if cardinality != "single" or interaction.get("maxChoices", interaction.get("max-choices", "1")) != "1":
        draft.fields["select"] = max(1, len(keys & {c.get("identifier") for c in choices}))
    general = [m for ident, m in modal.items() if ident not in {c.get("identifier") for c in choices}]
    texts = [t for t in (xmlsafe.plain(m, literal=True) for m in general) if t]
    if texts:
        draft.fields["explanation"] = "\n\n".join(texts)
        draft.positions["explanation"] = xmlsafe.column(lines, general[0])
    return draft


def read_xml(data: bytes, path: str, result: ParsedFile) -> list[Draft]:
    """The drafts of one QTI XML document; problems go to ``result``."""
    root, problems = xmlsafe.parse(data, path)
    result.findings += problems
    if root is None:
        return []
    lines = xmlsafe.source_lines(data)
    skipped: dict[str, tuple[int, int, int]] = {}
    kind = xmlsafe.local(root)
    drafts: list[Draft | None] = []
    if kind == "questestinterop":
        items = xmlsafe.descendants(root, "item")
        ids: dict[str, int] = {}
        for item in items:
            ids[item.get("title", "")] = ids.get(item.get("title", ""), 0) + 1
        drafts = [_qti1_item(item, lines, skipped, ids) for item in items]
    elif kind == "assessmentitem":
        drafts = [_qti2_item(root, lines, skipped)]
    else:
        result.findings.append(finding(path, root.sourceline or 1, 1, SCHEMA,
                                       f"not a QTI document: root element <{xmlsafe.local(root)}>"))
    found = [d for d in drafts if d is not None]
    result.findings += unsupported(path, skipped)
    return found


def _entries(archive: zipfile.ZipFile, path: str, limits: Limits, result: ParsedFile) -> list[zipfile.ZipInfo]:
    """The package's XML entries, once its size, entry count and ratio are known to be sane."""
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
    unsafe = [n for n in names if n.startswith(("/", "\\")) or ".." in n.replace("\\", "/").split("/") or ":" in n]
    if unsafe:
        result.findings.append(finding(path, 1, 1, PARSE_ERROR, f"package entry {unsafe[0]!r} points outside the package"))
    return [i for i in infos if i.filename.lower().endswith(".xml") and i.filename not in unsafe
            and posixpath.basename(i.filename) not in ("imsmanifest.xml", "assessment_meta.xml")]


def _bounded(archive: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int) -> bytes | None:
    """An entry's bytes, read no further than ``limit`` whatever its header claims."""
    with archive.open(info) as handle:
        data = handle.read(limit + 1)
    return data if len(data) <= limit else None


def read_package(data: bytes, path: str, limits: Limits) -> ParsedFile:
    result = ParsedFile(path)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            drafts = []
            for info in _entries(archive, path, limits, result):
                inner = f"{path}!{info.filename}"
                try:
                    body = _bounded(archive, info, limits.max_file_size)
                except _BROKEN as exc:   # one damaged entry: the others are still read
                    result.findings.append(finding(inner, 1, 1, PARSE_ERROR, f"entry cannot be inflated: {exc}"))
                    continue
                if body is None:
                    result.findings.append(finding(inner, 1, 1, PARSE_ERROR, "entry is over the max-file-size limit"))
                    continue
                if not any(m in body[:4096] for m in (b"questestinterop", b"assessmentItem", b"qti-assessment-item")):
                    continue
                part = ParsedFile(inner)
                drafts = read_xml(body, inner, part)
                build(drafts, part)
                result.questions += part.questions
                result.findings += part.findings
    except _BROKEN as exc:
        result.findings.append(finding(path, 1, 1, PARSE_ERROR, f"not a readable zip package: {exc}"))
    return result


class QtiReader:
    name = "qti"
    suffixes = (".xml", ".zip")

    def sniff(self, data: bytes, path: str) -> bool:
        head = data[:4096]
        return data.startswith(b"PK") or any(m in head for m in (b"questestinterop", b"assessmentItem", b"qti-assessment-item"))

    def read(self, data: bytes, path: str, limits: Limits) -> ParsedFile:
        if data.startswith(b"PK\x03\x04") or path.lower().endswith(".zip"):
            return read_package(data, path, limits)
        result = ParsedFile(path, suppressions=xmlsafe.suppressions(data))
        return build(read_xml(data, path, result), result)


READER = QtiReader()
