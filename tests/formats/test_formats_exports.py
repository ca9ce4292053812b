"""What LMS and authoring-tool exports do that hand-written files do not: partial credit, feedback by outcome,
Blackboard's nested text, several response blocks, QTI 3 identifiers, keys only in response processing, image-only
options, package parts, long prologs, Canvas's .xml.qti files and the author's own spacing. Each case is the
smallest file that shows what real exports do (tests/data/real holds the exports themselves)."""
from __future__ import annotations

import io
import json
import zipfile

from qlint.formats import read
from qlint.formats.base import ReadLimits


def _one(text: str, path: str = "x.xml"):
    result = read(text.encode(), path, ReadLimits())
    assert not [f for f in result.findings if f.code in ("Q101", "Q102")], result.findings
    (question,) = result.questions
    return question.question


def _moodle(answers: str, single: str = "true", fmt: str = "html", stem: str = "Which one?") -> str:
    return (f'<quiz><question type="multichoice"><name><text>q</text></name><questiontext format="{fmt}">'
            f'<text>{stem}</text></questiontext><single>{single}</single>{answers}</question></quiz>')


def _answer(fraction: str, text: str) -> str:
    return f'<answer fraction="{fraction}" format="html"><text>{text}</text></answer>'


def test_moodle_partial_credit_in_a_single_answer_question_is_credit_not_a_key():
    q = _one(_moodle(_answer("100", "full") + _answer("50", "half") + _answer("-25", "wrong")))
    assert [(o.text, o.correct, o.credit) for o in q.options] == [("full", True, None), ("half", False, 50.0),
                                                                   ("wrong", False, -25.0)]
    assert q.select == 1


def test_moodle_multiple_answer_fractions_are_keys_with_their_weights():
    q = _one(_moodle(_answer("50", "a") + _answer("50", "b") + _answer("-100", "c"), single="false"))
    assert [(o.correct, o.credit) for o in q.options] == [(True, 50.0), (True, 50.0), (False, -100.0)]
    assert q.select == 2


def _canvas(conditions: str, feedback: str = "", labels=("A", "B", "C"), kind="multiple_choice_question") -> str:
    choices = "".join(f'<response_label ident="{i}"><material><mattext texttype="text/plain">{i} text</mattext>'
                      f'</material></response_label>' for i in labels)
    return (f'<questestinterop><item ident="i1" title="Q"><itemmetadata><qtimetadata><qtimetadatafield>'
            f'<fieldlabel>question_type</fieldlabel><fieldentry>{kind}</fieldentry></qtimetadatafield></qtimetadata>'
            f'</itemmetadata><presentation><material><mattext texttype="text/html">&lt;p&gt;Which?&lt;/p&gt;</mattext>'
            f'</material><response_lid ident="response1" rcardinality="Single"><render_choice>{choices}</render_choice>'
            f'</response_lid></presentation><resprocessing><outcomes><decvar maxvalue="100" varname="SCORE"/></outcomes>'
            f'{conditions}</resprocessing>{feedback}</item></questestinterop>')


def _condition(ident: str | None, score: str | None = None, link: str | None = None) -> str:
    test = f'<varequal respident="response1">{ident}</varequal>' if ident else "<other/>"
    return (f'<respcondition continue="Yes"><conditionvar>{test}</conditionvar>'
            + (f'<setvar action="Set" varname="SCORE">{score}</setvar>' if score else "")
            + (f'<displayfeedback feedbacktype="Response" linkrefid="{link}"/>' if link else "") + "</respcondition>")


def _feedback(ident: str, text: str) -> str:
    return f'<itemfeedback ident="{ident}"><flow_mat><material><mattext>{text}</mattext></material></flow_mat></itemfeedback>'


def test_canvas_vary_points_by_answer_gives_the_top_answer_the_key_and_the_others_credit():
    q = _one(_canvas(_condition("A", "10.0") + _condition("B", "5.0")))
    assert [(o.correct, o.credit) for o in q.options] == [(True, None), (False, 50.0), (False, None)]


def test_canvas_feedback_keeps_each_answer_its_own_and_the_general_feedback_as_explanation():
    conditions = (_condition(None, link="general_fb") + _condition("A", link="A_fb") + _condition("B", link="B_fb")
                  + _condition("A", "100", "correct_fb") + _condition(None, link="general_incorrect_fb"))
    feedback = (_feedback("general_fb", "Shown to everyone.") + _feedback("A_fb", "A is right because.")
                + _feedback("B_fb", "B is wrong because.") + _feedback("correct_fb", "Well done.")
                + _feedback("general_incorrect_fb", "Try again."))
    q = _one(_canvas(conditions, feedback))
    assert [(o.correct, o.rationale) for o in q.options] == [
        (True, "A is right because."), (False, "B is wrong because."), (False, "Try again.")]
    assert q.explanation == "Shown to everyone."


def test_blackboard_text_in_flows_and_formatted_text_is_read():
    item = ('<questestinterop><item><presentation><flow class="Block"><flow class="QUESTION_BLOCK"><flow class="FORMATTED_TEXT_BLOCK">'
            '<material><mat_extension><mat_formattedtext type="HTML">&lt;p&gt;Which port?&lt;/p&gt;</mat_formattedtext>'
            '</mat_extension></material></flow></flow><flow class="RESPONSE_BLOCK"><response_lid ident="response" rcardinality="Single">'
            '<render_choice>' + "".join(
                f'<flow_label><response_label ident="answer_{i}"><flow_mat><material><mat_extension><mat_formattedtext type="HTML">'
                f'{text}</mat_formattedtext></mat_extension></material></flow_mat></response_label></flow_label>'
                for i, text in ((1, "80"), (2, "443"))) +
            '</render_choice></response_lid></flow></flow></presentation><resprocessing><respcondition title="correct">'
            '<conditionvar><varequal respident="response">answer_1</varequal></conditionvar>'
            '<setvar action="Set" variablename="SCORE">SCORE.max</setvar></respcondition></resprocessing></item></questestinterop>')
    q = _one(item)
    assert q.stem == "Which port?" and [(o.text, o.correct) for o in q.options] == [("80", True), ("443", False)]


def test_an_item_with_several_response_blocks_is_unsupported_not_merged():
    two = _canvas(_condition("A", "100")).replace("</response_lid>", "</response_lid>" + (
        '<response_lid ident="response2"><render_choice><response_label ident="Z"><material><mattext>z</mattext>'
        '</material></response_label></render_choice></response_lid>'), 1).replace("multiple_choice_question", "")
    result = read(two.encode(), "x.xml", ReadLimits())
    assert not result.questions
    (info,) = result.findings
    assert info.rule == "unsupported-question" and "several response blocks" in info.message


QTI3 = ('<qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0" identifier="i3" title="t">'
        '{declaration}<qti-item-body><qti-choice-interaction response-identifier="RESPONSE_31941445" max-choices="1">'
        '<qti-prompt>Which?</qti-prompt>{choices}</qti-choice-interaction></qti-item-body>{processing}{modal}'
        '</qti-assessment-item>')
CHOICES = ('<qti-simple-choice identifier="A">Alpha</qti-simple-choice>'
           '<qti-simple-choice identifier="B">Beta</qti-simple-choice>')


def test_qti3_key_is_read_from_the_response_the_interaction_names():
    declaration = ('<qti-response-declaration identifier="RESPONSE_31941445" cardinality="single" base-type="identifier">'
                   '<qti-correct-response><qti-value>B</qti-value></qti-correct-response></qti-response-declaration>')
    q = _one(QTI3.format(declaration=declaration, choices=CHOICES, processing="", modal=""))
    assert q.keys == (1,)


def test_keys_only_in_response_processing_are_read_from_its_common_patterns():
    declaration = '<qti-response-declaration identifier="RESPONSE_31941445" cardinality="single" base-type="identifier"/>'
    processing = ('<qti-response-processing><qti-response-condition><qti-response-if><qti-match>'
                  '<qti-variable identifier="RESPONSE_31941445"/><qti-base-value base-type="identifier">A</qti-base-value>'
                  '</qti-match><qti-set-outcome-value identifier="SCORE"><qti-base-value base-type="float">1</qti-base-value>'
                  '</qti-set-outcome-value></qti-response-if></qti-response-condition></qti-response-processing>')
    q = _one(QTI3.format(declaration=declaration, choices=CHOICES, processing=processing, modal=""))
    assert q.keys == (0,)
    odd = processing.replace("qti-match", "qti-string-match")
    result = read(QTI3.format(declaration=declaration, choices=CHOICES, processing=odd, modal="").encode(), "x.xml",
                  ReadLimits())
    assert not result.questions and "key cannot be determined" in result.findings[0].message


def test_correct_and_incorrect_modal_feedback_become_the_options_rationales():
    declaration = ('<qti-response-declaration identifier="RESPONSE_31941445" cardinality="single" base-type="identifier">'
                   '<qti-correct-response><qti-value>A</qti-value></qti-correct-response></qti-response-declaration>')
    modal = ('<qti-modal-feedback outcome-identifier="FEEDBACK" identifier="correct" show-hide="show">Yes: alpha.</qti-modal-feedback>'
             '<qti-modal-feedback outcome-identifier="FEEDBACK" identifier="incorrect" show-hide="show">No: alpha.</qti-modal-feedback>'
             '<qti-modal-feedback outcome-identifier="FEEDBACK" identifier="SOLUTION" show-hide="show">Alpha comes first.</qti-modal-feedback>')
    q = _one(QTI3.format(declaration=declaration, choices=CHOICES, processing="", modal=modal))
    assert [o.rationale for o in q.options] == ["Yes: alpha.", "No: alpha."]
    assert q.explanation == "Alpha comes first."


def test_image_only_options_keep_their_alt_text_or_name_the_image():
    declaration = ('<qti-response-declaration identifier="RESPONSE_31941445" cardinality="single" base-type="identifier">'
                   '<qti-correct-response><qti-value>A</qti-value></qti-correct-response></qti-response-declaration>')
    choices = ('<qti-simple-choice identifier="A"><img src="flags/saxony.png" alt="White over green"/></qti-simple-choice>'
               '<qti-simple-choice identifier="B"><img src="flags/bavaria.png"/></qti-simple-choice>')
    q = _one(QTI3.format(declaration=declaration, choices=choices, processing="", modal=""))
    assert [o.text for o in q.options] == ["White over green", "[image: bavaria.png]"]


def _package(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, body in entries.items():
            archive.writestr(name, body)
    return buffer.getvalue()


ITEM21 = ('<?xml version="1.0"?>\n{licence}<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="{ident}">'
          '<responseDeclaration identifier="RESPONSE" cardinality="single"><correctResponse><value>A</value></correctResponse>'
          '</responseDeclaration><itemBody><choiceInteraction responseIdentifier="RESPONSE" maxChoices="1"><prompt>Which?</prompt>'
          '<simpleChoice identifier="A">One</simpleChoice><simpleChoice identifier="B">Two</simpleChoice></choiceInteraction>'
          '</itemBody></assessmentItem>\n')
TEST21 = ('<assessmentTest xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="t"><testPart identifier="p">'
          '<assessmentSection identifier="s"><assessmentItemRef identifier="a" href="a.xml"/></assessmentSection></testPart></assessmentTest>')
MANIFEST = ('<manifest><resources><resource identifier="t" type="imsqti_test_xmlv2p1" href="test.xml"/>'
            '<resource identifier="a" type="imsqti_item_xmlv2p1" href="a.xml"/>'
            '<resource identifier="b" type="imsqti_item_xmlv2p1" href="b.xml"/>'
            '<resource identifier="c" type="imsqti_item_xmlv2p1" href="c.xml"/></resources></manifest>')


def test_a_package_of_its_manifest_alone_names_every_item_it_lacks():
    result = read(_package({"imsmanifest.xml": MANIFEST.encode()}), "pkg.zip", ReadLimits())
    lacks = sorted(f.message for f in result.findings if f.path == "pkg.zip!imsmanifest.xml")
    assert lacks == [f"the manifest lists the item '{n}.xml', which the package lacks" for n in "abc"], result.findings


def test_a_package_reads_its_items_names_what_it_cannot_and_takes_its_test_as_a_part():
    licence = "<!--" + " This example is licensed under terms set out at length. " * 120 + "-->\n"   # ~7 KB
    package = _package({"imsmanifest.xml": MANIFEST.encode(), "test.xml": TEST21.encode(),
                        "a.xml": ITEM21.format(licence=licence, ident="a").encode(),
                        "b.xml": b"<html><body>not an item</body></html>"})
    result = read(package, "pkg.zip", ReadLimits())
    assert [q.question.id for q in result.questions] == ["a"]
    problems = {(f.path, f.code) for f in result.findings}
    assert ("pkg.zip!b.xml", "Q102") in problems and ("pkg.zip!imsmanifest.xml", "Q102") in problems   # c.xml is missing
    assert not any(f.path == "pkg.zip!test.xml" for f in result.findings)
    alone = read(TEST21.encode(), "test.xml", ReadLimits())
    assert not alone.findings and not alone.questions


def test_canvas_xml_qti_files_are_found_and_read_as_qti(tmp_path, run_cli):
    canvas = _canvas(_condition("A", "100"))
    (tmp_path / "quiz.xml.qti").write_text(canvas, encoding="utf-8")
    code, out, _ = run_cli("check", "--no-cache", "--format", "json", tmp_path)
    found = json.loads(out)["findings"]
    assert found and all(f["path"].endswith("quiz.xml.qti") for f in found)
    assert {f["rule"] for f in found} >= {"missing-rationale"} and "parse-error" not in {f["rule"] for f in found}


def test_xml_line_wrapping_is_layout_but_code_and_plain_text_keep_their_spacing():
    wrapped = QTI3.format(declaration='<qti-response-declaration identifier="RESPONSE_31941445"><qti-correct-response>'
                          '<qti-value>A</qti-value></qti-correct-response></qti-response-declaration>',
                          choices=CHOICES.replace("Alpha", "Alpha\n          letter"), processing="", modal="")
    wrapped = wrapped.replace("<qti-prompt>Which?</qti-prompt>", "<qti-prompt>Which\n        letter?<pre>if x:\n    y  = 1</pre></qti-prompt>")
    q = _one(wrapped)
    assert q.options[0].text == "Alpha letter" and q.stem == "Which letter?\n\nif x:\n    y  = 1"
    code = _one(_moodle(_answer("100", "yes") + _answer("0", "no"), fmt="html",
                        stem="&lt;p&gt;Output?&lt;/p&gt;&lt;pre&gt;for i in x:\n    print(i)&lt;/pre&gt;"))
    assert code.stem == "Output?\n\nfor i in x:\n    print(i)"
    plain = _one(_moodle(_answer("100", "yes") + _answer("0", "no"), fmt="plain_text", stem="  a  &lt;b&gt;  c"))
    assert plain.stem == "  a  <b>  c"   # as written: stray-whitespace can say so
    markdown = _one(_moodle(_answer("100", "yes") + _answer("0", "no"), fmt="markdown", stem="Line one\n\n    code line"))
    assert markdown.stem == "Line one\n\n    code line"
