"""Hostile XML and zip packages: each is a finding with a line (or a clear error), quickly, and nothing is read
or written outside the bank."""
from __future__ import annotations

import io
import json
import time
import zipfile
from pathlib import Path

from qlint.formats import read
from qlint.formats.base import ReadLimits

GOOD_ITEM = (b'<?xml version="1.0"?>\n<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="ok">'
             b'<responseDeclaration identifier="RESPONSE" cardinality="single"><correctResponse><value>A</value>'
             b'</correctResponse></responseDeclaration><itemBody><choiceInteraction responseIdentifier="RESPONSE" '
             b'maxChoices="1"><prompt>Which?</prompt><simpleChoice identifier="A">One</simpleChoice>'
             b'<simpleChoice identifier="B">Two</simpleChoice></choiceInteraction></itemBody></assessmentItem>\n')
MANIFEST = b'<?xml version="1.0"?><manifest><resources><resource type="imsqti_item_xmlv2p1" href="item.xml"/></resources></manifest>'

BOMB = b"""<?xml version="1.0"?>
<!DOCTYPE quiz [
  <!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">
  <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
  <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
  <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
  <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">
]>
<quiz><question type="multichoice"><questiontext><text>&e;</text></questiontext></question></quiz>
"""


def _zip(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, body in entries.items():
            archive.writestr(name, body)
    return buffer.getvalue()


def _only_error(data: bytes, path: str, limits: ReadLimits | None = None):
    result = read(data, path, limits or ReadLimits())
    assert not result.questions
    errors = [f for f in result.findings if f.code in ("Q101", "Q102")]
    assert errors and all(f.line >= 1 and f.column >= 1 for f in errors)
    return errors


def test_entity_bomb_is_refused_before_parsing():
    started = time.process_time()   # this process's CPU time: a busy machine cannot trip it
    (error,) = _only_error(BOMB, "bomb.xml")
    assert time.process_time() - started < 2
    assert (error.line, error.column) == (3, 3) and "entities" in error.message   # the first declaration


def test_external_entity_to_a_local_file_is_never_read(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT", encoding="utf-8")
    xxe = (f'<?xml version="1.0"?>\n<!DOCTYPE quiz [<!ENTITY x SYSTEM "file://{secret}">]>\n'
           '<quiz><question type="multichoice"><name><text>&x;</text></name></question></quiz>\n').encode()
    (error,) = _only_error(xxe, "xxe.xml")
    assert "TOP-SECRET" not in error.message and error.line == 2


def test_undeclared_entity_and_external_dtd_are_findings():
    _only_error(b'<?xml version="1.0"?>\n<!DOCTYPE quiz SYSTEM "http://example.invalid/quiz.dtd">\n<quiz/>\n', "dtd.xml")
    (error,) = _only_error(b"<quiz>\n<question type='multichoice'>&nope;</question></quiz>\n", "undeclared.xml")
    assert error.line == 2


def test_broken_xml_is_a_finding_with_a_line():
    (error,) = _only_error(b"<quiz>\n  <question type='multichoice'>\n    <name>\n</quiz>\n", "broken.xml")
    assert error.code == "Q101" and error.line >= 3


def test_deep_nesting_is_a_finding():
    _only_error(b"<quiz>" + b"<a>" * 100_000 + b"</a>" * 100_000 + b"</quiz>", "deep.xml")


def test_zip_package_is_read_with_entry_positions():
    result = read(_zip({"imsmanifest.xml": MANIFEST, "items/item.xml": GOOD_ITEM}), "pkg.zip", ReadLimits())
    (question,) = result.questions
    assert question.path == "pkg.zip!items/item.xml"
    assert question.question.keys == (0,) and question.line == 2


def test_zip_slip_entry_is_a_finding_and_never_written(tmp_path):
    data = _zip({"imsmanifest.xml": MANIFEST, "../../evil.xml": GOOD_ITEM, "item.xml": GOOD_ITEM})
    result = read(data, "slip.zip", ReadLimits())
    assert any("outside the package" in f.message for f in result.findings)
    assert len(result.questions) == 1   # the safe entry is still read
    assert not (tmp_path.parent / "evil.xml").exists()


def test_zip_bomb_is_refused_by_its_ratio():
    data = _zip({"imsmanifest.xml": MANIFEST, "item.xml": GOOD_ITEM + b" " * 30_000_000})
    assert len(data) < 1_000_000
    started = time.process_time()   # this process's CPU time: a busy machine cannot trip it
    (error,) = _only_error(data, "bomb.zip")
    assert "compressed" in error.message and time.process_time() - started < 5


def test_zip_with_too_many_entries_or_no_manifest():
    many = _zip({"imsmanifest.xml": MANIFEST, **{f"f{i}.xml": b"<x/>" for i in range(30)}})
    (error,) = _only_error(many, "many.zip", ReadLimits(max_zip_entries=10))
    assert "entries" in error.message
    (error,) = _only_error(_zip({"item.xml": GOOD_ITEM}), "bare.zip")
    assert "imsmanifest.xml" in error.message
    (error,) = _only_error(b"PK\x03\x04 not really a zip", "fake.zip")
    assert "zip" in error.message


def test_fifty_megabyte_file_is_a_finding_and_the_rest_is_checked(tmp_path, run_cli):
    big = tmp_path / "big.xml"
    with open(big, "wb") as handle:
        handle.write(b"<quiz>")
        handle.truncate(50 * 1024 * 1024)
    (tmp_path / "bomb.xml").write_bytes(BOMB)
    (tmp_path / "ok.xml").write_bytes(GOOD_ITEM)
    started = time.monotonic()   # wall time: the check may hand files to workers, whose time is not this process's
    code, out, err = run_cli("check", "--no-cache", "--format", "json", str(tmp_path))
    assert time.monotonic() - started < 30 and "Traceback" not in err
    found = json.loads(out)["findings"]
    by_file = {Path(f["path"]).name: f for f in found if f["rule"] == "parse-error"}
    assert "MB" in by_file["big.xml"]["message"] and "entities" in by_file["bomb.xml"]["message"]
    assert any(Path(f["path"]).name == "ok.xml" and f["rule"] == "missing-rationale" for f in found)


def test_damaged_zip_entry_is_a_finding_and_the_others_are_read():
    data = bytearray(_zip({"imsmanifest.xml": MANIFEST, "a.xml": GOOD_ITEM, "b.xml": GOOD_ITEM * 3}))
    start = data.find(b"b.xml") + len(b"b.xml")   # the local header's name, then the deflated body
    data[start + 5: start + 25] = b"\xff" * 20
    result = read(bytes(data), "damaged.zip", ReadLimits())
    assert any(f.path == "damaged.zip!b.xml" and f.code == "Q101" for f in result.findings)
    assert [q.path for q in result.questions] == ["damaged.zip!a.xml"]


def test_malformed_markup_declaration_in_html_text_is_read_as_text():
    (question,) = read(b"::q:: Which <![CDAT2 x is it? {=a ~b}\n", "q.gift", ReadLimits()).questions
    assert "Which" in question.question.stem and "is it?" in question.question.stem
