"""Hostile text for the XML readers and the HTML they carry: every reading step is linear (or bounded) in the
input's size, so no file stalls a run, and what cannot be read is a finding."""
from __future__ import annotations

import io
import json
import struct
import time
import zipfile
from pathlib import Path

import pytest

from qlint.formats import read
from qlint.formats.base import ReadLimits
from qlint.formats.html_text import to_plain


def _quick(func, *args, seconds: float = 5.0):
    """``func(*args)``, held to ``seconds`` of this process's CPU time: a guard against a reader that runs away on
    hostile input (a quadratic scan takes minutes), which other work on a busy machine cannot trip."""
    started = time.process_time()
    value = func(*args)
    assert time.process_time() - started < seconds
    return value


@pytest.mark.parametrize("text", ["<a" * 100_000, "&" * 500_000, "<!--" * 100_000, "<![CDATA[" * 100_000,
                                  "<!x" * 100_000, '<a href="' * 100_000, "<a b='c' " * 100_000, "<div>" * 100_000,
                                  # declarations that share one ">" at the very end: each looked for it anew
                                  "<!" * 400_000 + ">", "<?" * 400_000 + ">", "<!x<" * 200_000 + ">"])
def test_html_to_text_is_linear(text):
    _quick(to_plain, text)   # the standard library's HTMLParser took tens of seconds on each of these


def test_gift_and_moodle_stems_full_of_markup_starts_read_quickly():
    stem = "<a" * 100_000
    gift = f"::q:: Which {stem}? {{=yes ~no}}\n".encode()
    assert len(_quick(read, gift, "q.gift", ReadLimits()).questions) == 1
    moodle = (f'<quiz><question type="multichoice"><questiontext format="html"><text>Which {stem.replace("<", "&lt;")}'
              '</text></questiontext><answer fraction="100"><text>yes</text></answer>'
              '<answer fraction="0"><text>no</text></answer></question></quiz>').encode()
    assert len(_quick(read, moodle, "q.xml", ReadLimits()).questions) == 1


def _zip(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, body in entries.items():
            archive.writestr(name, body)
    return buffer.getvalue()


ITEM = ('<?xml version="1.0" encoding="{encoding}"?>\n'
        '<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="{ident}">'
        '<responseDeclaration identifier="RESPONSE" cardinality="single"><correctResponse><value>A</value>'
        '</correctResponse></responseDeclaration><itemBody><choiceInteraction responseIdentifier="RESPONSE" '
        'maxChoices="1"><prompt>Which?</prompt><simpleChoice identifier="A">One</simpleChoice>'
        '<simpleChoice identifier="B">Two</simpleChoice></choiceInteraction></itemBody></assessmentItem>\n')
MANIFEST = b'<?xml version="1.0"?><manifest><resources/></manifest>'
QUIZ = ('<?xml version="1.0" encoding="{encoding}"?>\n<quiz>\n<question type="multichoice"><name><text>q</text></name>'
        '<questiontext format="html"><text>Which one?</text></questiontext>'
        '<answer fraction="100"><text>{key}</text></answer><answer fraction="0"><text>no</text></answer></question>\n</quiz>\n')


def _errors(result):
    return [f for f in result.findings if f.code in ("Q101", "Q102")]


@pytest.mark.parametrize("document", [
    # an ENTITY behind a "]>" in a DTD comment, where the old byte scan stopped looking
    b'<?xml version="1.0"?>\n<!DOCTYPE quiz [<!-- ]> --><!ENTITY e "100">]>\n' + QUIZ.split("\n", 1)[1].format(key="&e;").encode(),
    # the same declaration in a UTF-16 document, which the old byte scan could not see at all
    ('<?xml version="1.0" encoding="UTF-16"?>\n<!DOCTYPE quiz [<!ENTITY e "yes">]>\n'
     + QUIZ.split("\n", 1)[1].format(key="&e;")).encode("utf-16"),
])
def test_entity_declarations_are_found_on_the_parsed_doctype(document):
    result = read(document, "quiz.xml", ReadLimits())
    assert not result.questions
    assert any("declares entities" in f.message for f in _errors(result))


_ENTITY_QUIZ = '<?xml version="1.0" encoding="UTF-32"?>\n<!DOCTYPE quiz [<!ENTITY e "100">]>\n' + QUIZ.split("\n", 1)[1]


@pytest.mark.parametrize("bom, codec", [(b"\xff\xfe\x00\x00", "utf-32-le"), (b"\x00\x00\xfe\xff", "utf-32-be")])
@pytest.mark.parametrize("forced", [(), (("**", "moodle-xml"),)])
def test_entities_of_a_utf32_document_are_found_and_never_expanded(bom, codec, forced):
    """UTF-32 with its byte-order mark: libxml2's push parser reads no prolog from it (the whole-document parser
    reads it all), so the entity pre-check saw nothing, ``&e;`` was expanded into a fraction by --from moodle-xml and
    a plain check said 0 questions, All clear."""
    document = bom + _ENTITY_QUIZ.replace('fraction="100"', 'fraction="&e;"').format(key="yes").encode(codec)
    result = read(document, "quiz.xml", ReadLimits(formats=forced))
    assert not result.questions
    assert any("declares entities" in f.message for f in _errors(result)), result.findings


@pytest.mark.parametrize("bom, codec", [(b"\xff\xfe\x00\x00", "utf-32-le"), (b"\x00\x00\xfe\xff", "utf-32-be")])
def test_a_utf32_quiz_is_read_and_found_in_a_folder(bom, codec, tmp_path, run_cli):
    (tmp_path / "bank").mkdir()
    (tmp_path / "bank" / "quiz.xml").write_bytes(bom + QUIZ.format(encoding="UTF-32", key="yes").encode(codec))
    code, out, err = run_cli("check", tmp_path / "bank", "--format", "json")
    assert json.loads(out)["summary"]["questions"] == 1, (out, err)


def test_entities_the_prolog_missed_are_refused_on_the_parsed_document(monkeypatch):
    """The pre-check reads the prolog with another parser than the document's: should it ever miss a DOCTYPE (as it
    did UTF-32's), the parsed document's own DOCTYPE still refuses the file."""
    from qlint.formats import xmlsafe

    monkeypatch.setattr(xmlsafe, "prolog", lambda chunks: None)
    document = ('<?xml version="1.0"?>\n<!DOCTYPE quiz [<!ENTITY e "100">]>\n'
                + QUIZ.split("\n", 1)[1].replace('fraction="100"', 'fraction="&e;"').format(key="yes")).encode()
    result = read(document, "quiz.xml", ReadLimits(formats=(("**", "moodle-xml"),)))
    assert not result.questions and any("declares entities" in f.message for f in _errors(result))


def test_an_entity_an_external_dtd_would_define_is_a_finding_not_missing_text():
    document = (b'<?xml version="1.0"?>\n<!DOCTYPE quiz SYSTEM "quiz.dtd">\n'
                + QUIZ.split("\n", 1)[1].format(key="yes &nbsp; no").encode())
    result = read(document, "quiz.xml", ReadLimits())
    assert not result.questions and any("&nbsp;" in f.message for f in _errors(result))


def test_cdata_stem_that_mentions_a_doctype_and_system_is_text():
    quiz = QUIZ.format(encoding="UTF-8", key="yes").replace(
        "Which one?", "<![CDATA[<p>Which declaration starts &lt;!DOCTYPE html&gt; pages, and what is SYSTEM?</p>]]>")
    (question,) = read(quiz.encode(), "quiz.xml", ReadLimits()).questions
    assert question.question.stem == "Which declaration starts <!DOCTYPE html> pages, and what is SYSTEM?"
    raw = quiz.replace("&lt;!DOCTYPE html&gt;", '<!DOCTYPE html SYSTEM "about:legacy-compat">')
    assert len(read(raw.encode(), "quiz.xml", ReadLimits()).questions) == 1   # HTML markup inside the stem


@pytest.mark.parametrize("encoding", ["UTF-16", "UTF-16LE"])
def test_utf16_moodle_file_is_read_as_moodle(encoding, tmp_path, run_cli):
    quiz = QUIZ.format(encoding="UTF-16", key="yes")
    data = quiz.encode("utf-16") if encoding == "UTF-16" else b"\xff\xfe" + quiz.encode("utf-16-le")
    result = read(data, "quiz.xml", ReadLimits())
    (question,) = result.questions
    assert question.question.keys == (0,) and not _errors(result) and question.line == 3
    (tmp_path / "quiz.xml").write_bytes(data)
    code, out, _ = run_cli("check", "--no-cache", "--format", "json", tmp_path)
    assert {f["rule"] for f in json.loads(out)["findings"]} >= {"missing-rationale"}


def test_prefixed_moodle_quiz_is_read_as_moodle():
    quiz = QUIZ.format(encoding="UTF-8", key="yes").replace("<quiz>", '<m:quiz xmlns:m="http://moodle.org/quiz">') \
        .replace("</quiz>", "</m:quiz>")
    result = read(quiz.encode(), "quiz.xml", ReadLimits())
    assert len(result.questions) == 1 and not _errors(result)


def test_root_after_a_long_licence_comment_is_found_in_a_folder(tmp_path, run_cli):
    item = ITEM.format(encoding="UTF-8", ident="late").replace("?>\n", "?>\n<!--" + " licence text " * 600 + "-->\n", 1)
    (tmp_path / "item.xml").write_text(item, encoding="utf-8")
    code, out, _ = run_cli("check", "--no-cache", "--format", "json", tmp_path)
    assert any(f["rule"] == "missing-rationale" for f in json.loads(out)["findings"])


def test_xml_suppression_comment_scan_is_linear():
    quiz = QUIZ.format(encoding="UTF-8", key="yes").replace("<quiz>\n", "<quiz>\n<!-- qlint:" + " " * 100_000 + "x -->\n", 1)
    _quick(read, quiz.encode(), "quiz.xml", ReadLimits())


def test_qti21_modal_feedback_mapping_is_linear():
    choices = "".join(f'<simpleChoice identifier="C{i}">Choice {i}</simpleChoice>' for i in range(20_000))
    modal = "".join(f'<modalFeedback outcomeIdentifier="FEEDBACK" identifier="F{i}" showHide="show">f</modalFeedback>'
                    for i in range(20_000))
    item = ITEM.format(encoding="UTF-8", ident="big").replace('<simpleChoice identifier="A">One</simpleChoice>',
                                                              '<simpleChoice identifier="A">One</simpleChoice>' + choices)
    item = item.replace("</itemBody>", "</itemBody>" + modal)
    (question,) = _quick(read, item.encode(), "big.xml", ReadLimits(), seconds=20).questions
    assert len(question.question.options) == 20_002


def test_qti12_response_conditions_are_linear_in_varequal_and_setvar():
    labels = "".join(f'<response_label ident="L{i}"><material><mattext>o{i}</mattext></material></response_label>'
                     for i in range(3))
    varequal = '<varequal respident="r">L0</varequal>' * 20_000
    setvar = '<setvar action="Set" varname="SCORE">100</setvar>' * 20_000
    item = (f'<questestinterop><item ident="x" title="x"><presentation><material><mattext>Which?</mattext></material>'
            f'<response_lid ident="r" rcardinality="Single"><render_choice>{labels}</render_choice></response_lid>'
            f'</presentation><resprocessing><respcondition><conditionvar>{varequal}</conditionvar>{setvar}'
            f'</respcondition></resprocessing></item></questestinterop>')
    (question,) = _quick(read, item.encode(), "big.xml", ReadLimits()).questions
    assert question.question.keys == (0,)


def _fake_directory(entries: int, size: int) -> bytes:
    """A zip whose end record claims ``entries`` entries in a central directory of ``size`` bytes."""
    real = _zip({"imsmanifest.xml": MANIFEST})
    at = real.rfind(b"PK\x05\x06")
    return real[:at] + b"PK\x05\x06" + struct.pack("<4H2LH", 0, 0, 0xFFFF - 1, 0xFFFF - 1, size, at, 0)


def test_zip_central_directory_is_sized_before_it_is_read(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("zipfile opened")
    huge = _fake_directory(60_000, 90_000_000)
    real = _zip({"imsmanifest.xml": MANIFEST})
    at = real.rfind(b"PK\x05\x06")
    lying = real[:at] + real[at:at + 12] + struct.pack("<L", 900_000_000) + real[at + 16:]   # 1 entry, 900 MB
    monkeypatch.setattr(zipfile, "ZipFile", refuse)
    (error,) = _errors(read(huge, "huge.zip", ReadLimits()))
    assert "65534 entries" in error.message
    (error,) = _errors(read(lying, "lying.zip", ReadLimits()))
    assert "central directory is 858 MB" in error.message


def test_zip_discovery_sizes_the_central_directory_first(tmp_path, monkeypatch, run_cli):
    (tmp_path / "huge.zip").write_bytes(_fake_directory(60_000, 90_000_000))
    opened = []
    real = zipfile.ZipFile
    monkeypatch.setattr(zipfile, "ZipFile", lambda *a, **k: opened.append(a) or real(*a, **k))
    code, out, err = run_cli("check", "--no-cache", "--format", "json", tmp_path)
    assert not opened and "Traceback" not in err
    assert any(f["rule"] == "parse-error" for f in json.loads(out)["findings"])


def test_utf16_entries_and_nested_packages_are_read_or_named():
    inner = _zip({"imsmanifest.xml": MANIFEST, "item.xml": ITEM.format(encoding="UTF-8", ident="inner").encode()})
    package = _zip({"imsmanifest.xml": MANIFEST, "a.xml": ITEM.format(encoding="UTF-16", ident="wide").encode("utf-16"),
                    "more.zip": inner})
    result = read(package, "pkg.zip", ReadLimits())
    assert [q.question.id for q in result.questions] == ["wide"]
    (nested,) = [f for f in result.findings if f.path == "pkg.zip!more.zip"]
    assert nested.code == "Q101" and "package inside the package" in nested.message


def test_an_encrypted_entry_is_a_finding_and_the_others_are_read():
    data = bytearray(_zip({"imsmanifest.xml": MANIFEST, "a.xml": ITEM.format(encoding="UTF-8", ident="a").encode(),
                           "b.xml": ITEM.format(encoding="UTF-8", ident="b").encode()}))
    for signature, flags in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):   # mark b.xml encrypted in both headers
        at = data.find(b"b.xml") if signature == b"PK\x03\x04" else data.rfind(b"b.xml")
        start = data.rfind(signature, 0, at)
        data[start + flags] |= 0x1
    result = read(bytes(data), "locked.zip", ReadLimits())
    assert [q.question.id for q in result.questions] == ["a"]
    assert any(f.path == "locked.zip!b.xml" and "encrypted" in f.message for f in result.findings)


def test_a_slow_reading_ends_as_a_rule_timeout_finding():
    quiz = QUIZ.format(encoding="UTF-8", key="yes").encode()
    result = read(quiz, "quiz.xml", ReadLimits(rule_time_budget=1e-9))
    (timeout,) = result.findings
    assert timeout.rule == "rule-timeout" and "reading" in timeout.message and not result.questions


def test_reading_counts_against_the_rules_budget(registry, monkeypatch):
    from qlint.config import Config, Settings, resolve_rules
    from qlint.run import perfile
    config = Config(Settings(), Path.cwd(), None)
    setup = perfile.FileSetup(tuple(resolve_rules(config, registry)), ReadLimits(rule_time_budget=5.0))
    clock = [1000.0]
    parse = perfile.parse

    def slow_parse(*args, **kwargs):   # reading takes 5.1 s on the run's clock (no real wait): more than the budget
        clock[0] += 5.1
        return parse(*args, **kwargs)

    monkeypatch.setattr(perfile, "monotonic", lambda: clock[0])
    monkeypatch.setattr(perfile, "parse", slow_parse)
    outcome = perfile.check_source(QUIZ.format(encoding="UTF-8", key="yes").encode(), "quiz.xml", setup)
    assert any(f.rule == "rule-timeout" for f in outcome.findings)


@pytest.mark.parametrize("text", ["# qlint: ignore-file[option-length] reason\n", "# a comment\n# qlint: disable\n"])
def test_a_yaml_file_of_only_comments_with_a_suppression_says_it_holds_no_questions(text, tmp_path, run_cli):
    path = tmp_path / "notes.yaml"
    path.write_text(text, encoding="utf-8")
    code, out, err = run_cli("check", path, "--no-cache")
    assert "file holds no questions (it is empty or only comments)" in out, out + err
    assert "parse-error" not in out and "AttributeError" not in out + err
