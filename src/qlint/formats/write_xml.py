"""Writers for the XML formats: Moodle XML, QTI 1.2 (as Canvas imports it) and QTI 2.1 (one item a file, with
a content package manifest). Texts are written as escaped HTML, line breaks as ``<br/>`` and the spaces HTML would
fold (indentation, runs) as no-break spaces; the readers make them plain again. What XML cannot hold (most control
characters) is replaced, with a warning; suppressions are ``<!-- qlint: ... -->`` comments before the question."""
from __future__ import annotations

import html
import re

from lxml import etree

from qlint.formats.write import Output, Part, comment_text, common_losses, weight, weights, xml_comment, xml_texts
from qlint.model import Question

QTI12_NS = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
QTI21_NS = "http://www.imsglobal.org/xsd/imsqti_v2p1"
CP_NS = "http://www.imsglobal.org/xsd/imscp_v1p1"


_NBSP = "\xa0"


def keep_spaces(line: str) -> str:
    """A line whose spaces survive HTML's folding of white space: every space followed by another, and one at the
    start or end of the line, as a no-break space (the last of a run stays a space, so that lines still wrap)."""
    line = re.sub(" (?= )", _NBSP, line)
    if line.startswith(" "):
        line = _NBSP + line[1:]
    return line[:-1] + _NBSP if line.endswith(" ") else line


def as_html(text: str) -> str:
    """Plain text as escaped HTML: ``&<>`` escaped, line breaks as ``<br/>``, spaces kept (``&nbsp;``)."""
    lines = [html.escape(keep_spaces(line), quote=False).replace(_NBSP, "&nbsp;") for line in text.split("\n")]
    return "<br/>".join(lines)


def _sub(parent, tag: str, text: str | None = None, **attrs):
    """A child element, in its parent's namespace unless the tag names one."""
    if not tag.startswith("{") and parent.tag.startswith("{"):
        tag = parent.tag.split("}")[0] + "}" + tag
    element = etree.SubElement(parent, tag, {k.rstrip("_"): v for k, v in attrs.items()})
    if text is not None:
        element.text = text
    return element


def _serialise(root) -> str:
    return etree.tostring(root, pretty_print=True, xml_declaration=True, encoding="UTF-8").decode("utf-8")


def _text(parent, tag: str, value: str, fmt: str = "html"):
    holder = _sub(parent, tag, format=fmt) if fmt else _sub(parent, tag)
    _sub(holder, "text", as_html(value))
    return holder


def _suppressions(parent, q: Question, file_ignores=()) -> None:
    """``<!-- qlint: ... -->`` comments into ``parent``: the file's, then the question's (before its element)."""
    for rules, reason in file_ignores:
        parent.append(etree.Comment(f" qlint: ignore-file[{xml_comment(', '.join(rules))}] {xml_comment(reason)} "))
    for rule, reason in (q.qlint.ignore.items() if q is not None and q.qlint is not None else ()):
        parent.append(etree.Comment(f" qlint: ignore-question[{xml_comment(rule)}] {xml_comment(reason)} "))


def _moodle_question(quiz, q: Question, out: Output) -> None:
    common_losses(q, out, frozenset(("tags", "qlint", "credit")))
    q = xml_texts(q, out)
    _suppressions(quiz, q)
    question = _sub(quiz, "question", type="multichoice")
    name = _sub(question, "name")
    _sub(name, "text", q.id)
    _text(question, "questiontext", q.stem)
    if q.explanation is not None:
        _text(question, "generalfeedback", q.explanation)
    multiple = q.select > 1
    _sub(question, "single", "false" if multiple else "true")
    keys = len(q.keys)
    for option, share in zip(q.options, weights(q, out)):
        answer = _sub(question, "answer", fraction=weight(share), format="html")
        _sub(answer, "text", as_html(option.text))
        if option.rationale is not None:
            _text(answer, "feedback", option.rationale)
    if multiple and keys != q.select:
        out.cannot_hold("a 'select' that differs from the number of keys")
    if q.tags:
        tags = _sub(question, "tags")
        for tag in q.tags:
            _sub(_sub(tags, "tag"), "text", tag)


def write_moodle(parts: list[Part], out: Output) -> None:
    """One Moodle XML ``<quiz>`` per source; ids are the questions' names."""
    for part in parts:
        quiz = etree.Element("quiz")
        quiz.append(etree.Comment(f" converted by qlint from {xml_comment(part.source)} "))
        _suppressions(quiz, None, part.file_ignores)
        for q in part.questions:
            _moodle_question(quiz, q, out)
        out.add(f"{part.place}.xml", _serialise(quiz), len(part.questions))


def _material(parent, text: str):
    material = _sub(parent, "material")
    _sub(material, "mattext", as_html(text), texttype="text/html")


def _qti12_feedback(item, ident: str, text: str) -> None:
    feedback = _sub(item, "itemfeedback", ident=ident)
    _material(_sub(feedback, "flow_mat"), text)


def _condition(processing, respident: str, choices: list[str], keys: list[str] | None, link: str | None,
               other: bool = False) -> None:
    condition = _sub(processing, "respcondition", **{"continue": "Yes" if link else "No"})
    variables = _sub(condition, "conditionvar")
    if other:
        _sub(variables, "other")
    elif keys is None:
        _sub(variables, "varequal", choices[0], respident=respident)
    else:
        every = _sub(variables, "and")
        for choice in choices:
            target = every if choice in keys else _sub(every, "not")
            _sub(target, "varequal", choice, respident=respident)
    if link:
        _sub(condition, "displayfeedback", feedbacktype="Response", linkrefid=link)
    else:
        _sub(condition, "setvar", "100", action="Set", varname="SCORE")


def _qti12_item(section, q: Question, index: int, out: Output) -> None:
    common_losses(q, out, frozenset(("qlint",)))   # Canvas gives marks to keys alone: no partial credit
    q = xml_texts(q, out)
    _suppressions(section, q)
    multiple = q.select > 1
    kind = "multiple_answers_question" if multiple else "multiple_choice_question"
    item = _sub(section, "item", ident=f"item-{index}", title=q.id)
    field = _sub(_sub(_sub(item, "itemmetadata"), "qtimetadata"), "qtimetadatafield")
    _sub(field, "fieldlabel", "question_type")
    _sub(field, "fieldentry", kind)
    presentation = _sub(item, "presentation")
    _material(presentation, q.stem)
    lid = _sub(presentation, "response_lid", ident="response1", rcardinality="Multiple" if multiple else "Single")
    render = _sub(lid, "render_choice")
    idents = [f"choice{i + 1}" for i in range(len(q.options))]
    for ident, option in zip(idents, q.options):
        _material(_sub(render, "response_label", ident=ident), option.text)
    processing = _sub(item, "resprocessing")
    outcomes = _sub(processing, "outcomes")
    _sub(outcomes, "decvar", maxvalue="100", minvalue="0", varname="SCORE", vartype="Decimal")
    if q.explanation is not None:
        _condition(processing, "response1", [], None, "general_fb", other=True)
    for ident, option in zip(idents, q.options):
        if option.rationale is not None:
            _condition(processing, "response1", [ident], None, f"{ident}_fb")
    keys = [idents[i] for i in q.keys]
    if multiple:
        _condition(processing, "response1", idents, keys, None)
    else:
        for key in keys:
            _condition(processing, "response1", [key], None, None)
    if q.explanation is not None:
        _qti12_feedback(item, "general_fb", q.explanation)
    for ident, option in zip(idents, q.options):
        if option.rationale is not None:
            _qti12_feedback(item, f"{ident}_fb", option.rationale)


def _manifest(resources: list[tuple[str, str, str]]) -> str:
    manifest = etree.Element(f"{{{CP_NS}}}manifest", nsmap={None: CP_NS}, identifier="qlint-manifest")
    _sub(manifest, f"{{{CP_NS}}}organizations")
    holder = _sub(manifest, f"{{{CP_NS}}}resources")
    for identifier, kind, href in resources:
        resource = _sub(holder, f"{{{CP_NS}}}resource", identifier=identifier, type=kind, href=href)
        _sub(resource, f"{{{CP_NS}}}file", href=href)
    return _serialise(manifest)


def write_qti12(parts: list[Part], out: Output) -> None:
    """One ``<questestinterop>`` assessment per source, as Canvas imports it, and a manifest for them all."""
    resources = []
    for part in parts:
        root = etree.Element(f"{{{QTI12_NS}}}questestinterop", nsmap={None: QTI12_NS})
        root.append(etree.Comment(f" converted by qlint from {xml_comment(part.source)} "))
        _suppressions(root, None, part.file_ignores)
        assessment = _sub(root, "assessment", ident=part.stem, title=part.stem)
        section = _sub(assessment, "section", ident="root_section")
        for index, q in enumerate(part.questions, start=1):
            _qti12_item(section, q, index, out)
        name = out.add(f"{part.place}/{part.stem}.xml", _serialise(root), len(part.questions))
        resources.append((f"res-{len(resources) + 1}", "imsqti_xmlv1p2", name))
    out.files["imsmanifest.xml"] = _manifest(resources)


def _qti21_scoring(item, declaration, q: Question, idents: list[str], out: Output) -> None:
    """Partial credit as QTI 2.1 holds it: a mapping from each choice to its share of the marks, scored by the
    ``map_response`` template; without credit the item keeps ``correctResponse`` alone."""
    if not any(o.credit for o in q.options):
        return
    n = f"{{{QTI21_NS}}}"
    mapping = _sub(declaration, f"{n}mapping", defaultValue="0", lowerBound="0", upperBound="1")
    for ident, share in zip(idents, weights(q, out)):
        _sub(mapping, f"{n}mapEntry", mapKey=ident, mappedValue=weight(share / 100))
    _sub(item, f"{n}outcomeDeclaration", identifier="SCORE", cardinality="single", baseType="float")


def _qti21_item(q: Question, out: Output, part: Part) -> str:
    common_losses(q, out, frozenset(("qlint", "credit")))
    q = xml_texts(q, out)
    n = f"{{{QTI21_NS}}}"
    item = etree.Element(f"{n}assessmentItem", nsmap={None: QTI21_NS}, identifier=q.id, title=q.id,
                         adaptive="false", timeDependent="false")
    multiple = q.select > 1
    declaration = _sub(item, f"{n}responseDeclaration", identifier="RESPONSE",
                       cardinality="multiple" if multiple else "single", baseType="identifier")
    correct = _sub(declaration, f"{n}correctResponse")
    idents = [f"choice{i + 1}" for i in range(len(q.options))]
    for i in q.keys:
        _sub(correct, f"{n}value", idents[i])
    _qti21_scoring(item, declaration, q, idents, out)
    _sub(item, f"{n}outcomeDeclaration", identifier="FEEDBACK", cardinality="single", baseType="identifier")
    body = _sub(item, f"{n}itemBody")
    interaction = _sub(body, f"{n}choiceInteraction", responseIdentifier="RESPONSE", shuffle="false",
                       maxChoices=str(q.select if multiple else 1))
    _html_into(_sub(interaction, f"{n}prompt"), q.stem)
    for ident, option in zip(idents, q.options):
        choice = _sub(interaction, f"{n}simpleChoice", identifier=ident)
        _html_into(choice, option.text)
        if option.rationale is not None:
            feedback = _sub(choice, f"{n}feedbackInline", outcomeIdentifier="FEEDBACK", identifier=ident, showHide="show")
            _html_into(feedback, option.rationale)
    if any(o.credit for o in q.options):
        _sub(item, f"{n}responseProcessing", template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/map_response")
    if q.explanation is not None:
        general = _sub(item, f"{n}modalFeedback", outcomeIdentifier="FEEDBACK", identifier="GENERAL", showHide="show")
        _html_into(general, q.explanation)
    # the source and the suppressions go before the item: one question a file, so ignore-question covers the file
    holder = etree.Element("holder")
    holder.append(etree.Comment(f" converted by qlint from {xml_comment(part.source)} "))
    _suppressions(holder, q, part.file_ignores)
    for comment in holder:
        item.addprevious(comment)
    return etree.tostring(item.getroottree(), pretty_print=True, xml_declaration=True, encoding="UTF-8").decode("utf-8")


def _html_into(element, text: str) -> None:
    """Text with its line breaks as ``<br/>`` elements in the element's own namespace, and its spaces kept."""
    lines = [keep_spaces(line) for line in text.split("\n")]
    element.text = lines[0]
    namespace = element.tag.split("}")[0] + "}" if element.tag.startswith("{") else ""
    for line in lines[1:]:
        br = etree.SubElement(element, f"{namespace}br")
        br.tail = line


def write_qti21(parts: list[Part], out: Output) -> None:
    """One QTI 2.1 ``assessmentItem`` file per question under a folder per source, and the package manifest."""
    resources = []
    for part in parts:
        for q in part.questions:
            safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in q.id).strip("-") or "item"
            name = out.add(f"{part.place}/{safe}.xml", _qti21_item(q, out, part), 1)
            resources.append((f"res-{len(resources) + 1}", "imsqti_item_xmlv2p1", name))
    out.files["imsmanifest.xml"] = _manifest(resources)
