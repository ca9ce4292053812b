"""Writers for the XML formats: Moodle XML, QTI 1.2 (as Canvas imports it) and QTI 2.1 (one item a file, with
a content package manifest). Texts are written as escaped HTML, line breaks as ``<br/>``; the readers make
them plain again."""
from __future__ import annotations

import html

from lxml import etree

from qlint.formats.write import Output, Part, common_losses
from qlint.model import Question

QTI12_NS = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
QTI21_NS = "http://www.imsglobal.org/xsd/imsqti_v2p1"
CP_NS = "http://www.imsglobal.org/xsd/imscp_v1p1"


def as_html(text: str) -> str:
    return html.escape(text, quote=False).replace("\r", "").replace("\n", "<br/>")


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


def _moodle_question(quiz, q: Question, out: Output) -> None:
    common_losses(q, out, frozenset(("tags",)))
    question = _sub(quiz, "question", type="multichoice")
    name = _sub(question, "name")
    _sub(name, "text", q.id)
    _text(question, "questiontext", q.stem)
    if q.explanation is not None:
        _text(question, "generalfeedback", q.explanation)
    multiple = q.select > 1
    _sub(question, "single", "false" if multiple else "true")
    keys = len(q.keys)
    for option in q.options:
        fraction = (f"{100 / keys:.5f}".rstrip("0").rstrip(".") if multiple else "100") if option.correct else (
            "-100" if multiple else "0")
        answer = _sub(question, "answer", fraction=fraction, format="html")
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
        quiz.append(etree.Comment(f" converted by qlint from {part.source.replace('--', '- -')} "))
        for q in part.questions:
            _moodle_question(quiz, q, out)
        out.add(f"{part.stem}.xml", _serialise(quiz))


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
    common_losses(q, out, frozenset())
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
        assessment = _sub(root, "assessment", ident=part.stem, title=part.stem)
        section = _sub(assessment, "section", ident="root_section")
        for index, q in enumerate(part.questions, start=1):
            _qti12_item(section, q, index, out)
        name = out.add(f"{part.stem}/{part.stem}.xml", _serialise(root))
        resources.append((part.stem, "imsqti_xmlv1p2", name))
    out.files["imsmanifest.xml"] = _manifest(resources)


def _qti21_item(q: Question, out: Output) -> str:
    common_losses(q, out, frozenset())
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
    if q.explanation is not None:
        general = _sub(item, f"{n}modalFeedback", outcomeIdentifier="FEEDBACK", identifier="GENERAL", showHide="show")
        _html_into(general, q.explanation)
    return _serialise(item)


def _html_into(element, text: str) -> None:
    """Text with its line breaks as ``<br/>`` elements in the element's own namespace."""
    lines = text.replace("\r", "").split("\n")
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
            name = out.add(f"{part.stem}/{safe}.xml", _qti21_item(q, out))
            resources.append((f"res-{len(resources) + 1}", "imsqti_item_xmlv2p1", name))
    out.files["imsmanifest.xml"] = _manifest(resources)
