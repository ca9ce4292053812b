"""Real GIFT and Aiken files (tests/data/real-text, origins in its README) read by qlint and by independent parsers:
gift-pegjs (npm) and pygiftparser (PyI). Same multiple-choice and true/false questions, options, keys and feedback.

The oracles are optional: install them with ``npm install --prefix tests/oracles`` and
``pip install --no-deps pygiftparser MarkdownSuperscript yattag`` (its pins clash with text2qti's, so it stays out of
the test extra); a test whose oracle is missing skips. Where an oracle departs from Moodle's importer (the reference
for GIFT, question/format/gift/format.php), Moodle wins and the comparison says how.
"""
from __future__ import annotations

from helpers import DATA, ORACLES

import html
import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from qlint.formats import read
from qlint.formats.base import ReadLimits

REAL = DATA / "real-text"
GIFT_FILES = sorted([*REAL.rglob("*.gift"), *REAL.rglob("*.gift.txt")])
GIFT = ReadLimits(formats=(("**", "gift"),))


def _squeeze(text: str | None) -> str | None:
    """A text compared without markup, escapes or white space: the parsers differ there by design."""
    if not text:
        return None
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]*>", "", text))
    text = re.sub(r"\\([:#={}~n\\])", r"\1", text)
    return "".join(text.split()) or None


def _qlint(path: Path) -> list[tuple]:
    result = read(path.read_bytes(), path.name, GIFT)
    return [(_squeeze(q.question.stem), tuple((_squeeze(o.text), o.correct, _squeeze(o.rationale)) for o in q.question.options),
             _squeeze(q.question.explanation)) for q in result.questions]


def _pegjs_question(q: dict) -> tuple:
    def feedback(part):
        return _squeeze(part["text"]) if part else None

    if q["type"] == "TF":
        # gift-pegjs names the first feedback "true" and the second "false"; Moodle shows the first to a wrong
        # answer and the second to the right one, whatever the key
        wrong, right = feedback(q["trueFeedback"]), feedback(q["falseFeedback"])
        options = (("True", q["isTrue"], right if q["isTrue"] else wrong),
                   ("False", not q["isTrue"], wrong if q["isTrue"] else right))
        return _squeeze(q["stem"]["text"]), options, feedback(q["globalFeedback"])
    single = any(c["isCorrect"] for c in q["choices"])   # Moodle: a question with an "=" answer is single-answer
    options = tuple((_squeeze(c["text"]["text"]),
                     c["isCorrect"] or (c["weight"] or 0) >= 100 or (not single and (c["weight"] or 0) > 0),
                     feedback(c["feedback"])) for c in q["choices"] if _squeeze(c["text"]["text"]))
    return _squeeze(q["stem"]["text"]), options, feedback(q["globalFeedback"])


@pytest.fixture(scope="module")
def pegjs() -> dict:
    if shutil.which("node") is None or not (ORACLES / "node_modules" / "gift-pegjs").is_dir():
        pytest.skip("gift-pegjs not installed (npm install --prefix tests/oracles)")
    out = subprocess.run(["node", str(ORACLES / "gift_pegjs.js"), *map(str, GIFT_FILES)], capture_output=True,
                         text=True, timeout=120, check=True)
    return json.loads(out.stdout)


@pytest.mark.parametrize("path", GIFT_FILES, ids=[p.relative_to(REAL).as_posix() for p in GIFT_FILES])
def test_gift_reads_as_gift_pegjs_does(path, pegjs):
    theirs = pegjs[str(path)]
    if isinstance(theirs, dict):   # gift-pegjs refuses the file; Moodle's own fixture checks it below
        pytest.skip(f"gift-pegjs cannot parse it: {theirs['error'][:80]}")
    expected = [_pegjs_question(q) for q in theirs if q["type"] in ("MC", "TF")]
    assert _qlint(path) == expected


def test_the_real_gift_files_hold_the_questions_moodle_imports():
    # Moodle's own fixture, which gift-pegjs cannot parse ({#3:2~#Completely wrong} and a stray '";' after a brace)
    result = read((REAL / "moodle" / "questions.gift.txt").read_bytes(), "questions.gift.txt", GIFT)
    # the two true/false questions share a title, so their ids come from their stems
    assert [(q.question.id, q.question.keys, q.question.select) for q in result.questions] == [
        ("Q2", (0,), 1), ("colours", (0, 2), 2), ("Q1", (1,), 1), ("2-08-tsl-89ced20f", (0,), 1),
        ("2-08-tsl-89ced20f-6f1213bd", (0,), 1)]
    q2 = result.questions[0].question
    assert [(o.text, o.rationale) for o in q2.options] == [("yellow", "right; good!"), ("red", "wrong, it's yellow"),
                                                            ("blue", "wrong, it's yellow")]   # markers off everything
    assert [f.code for f in result.findings if f.code in ("Q101", "Q102")] == []
    assert "1 numeric" in next(f.message for f in result.findings if f.code == "Q109")


_MARKER = re.compile(r"^\[(?:html|moodle|plain|markdown)\]")
# where pygiftparser departs from Moodle's importer on a file, and how
_PYGIFT_DEPARTS = {"escapeAll.gift": "it loses the answers after an escaped '}' (Moodle keeps all seven)"}


def _unmarked(text: str | None) -> str | None:
    """pygiftparser keeps an answer's or feedback's format marker; Moodle takes it off."""
    return _squeeze(_MARKER.sub("", text.strip())) if text else None


def _pygift(path: Path) -> list[tuple]:
    parser = pytest.importorskip("pygiftparser.parser", reason="pygiftparser not installed")
    if path.name in _PYGIFT_DEPARTS:
        pytest.skip(f"pygiftparser departs from Moodle here: {_PYGIFT_DEPARTS[path.name]}")
    found = []
    for q in parser.parseFile(io.StringIO(path.read_text(encoding="utf-8"))):
        kind = type(getattr(q, "answers", None)).__name__
        if kind == "TrueFalseSet":
            right, wrong = _unmarked(q.answers.feedbackCorrect), _unmarked(q.answers.feedbackWrong)
            key = q.answers.answer
            found.append((("True", key, right if key else wrong), ("False", not key, wrong if key else right)))
        elif kind in ("SelectSet", "MultipleChoicesSet"):
            single = kind == "SelectSet"
            found.append(tuple((_unmarked(a.answer), a.fraction >= 100 if single else a.fraction > 0, _unmarked(a.feedback))
                               for a in q.answers.answers if _unmarked(a.answer)))
    return found


@pytest.mark.parametrize("path", GIFT_FILES, ids=[p.relative_to(REAL).as_posix() for p in GIFT_FILES])
def test_gift_options_keys_and_feedback_are_pygiftparsers(path):
    theirs = _pygift(path)
    mine = [options for _, options, _ in _qlint(path)]
    if len(theirs) != len(mine):
        pytest.skip(f"pygiftparser splits this file into other questions ({len(theirs)} against {len(mine)})")
    assert mine == theirs


@pytest.mark.parametrize("name,expected", [
    ("questions.aiken.txt", [(1,), (0,)]),
    ("aiken_errors.txt", [(0,), (1,)]),   # Moodle's test expects two good questions, one with "A)Correct" options
])
def test_moodles_aiken_fixtures_read_as_moodles_tests_expect(name, expected):
    result = read((REAL / "moodle" / name).read_bytes(), name, ReadLimits(formats=(("**", "aiken"),)))
    assert [q.question.keys for q in result.questions] == expected


@pytest.mark.parametrize("target", ["yaml", "gift", "moodle-xml", "qti12", "qti21", "aiken"])
def test_the_real_files_convert_to_every_format_and_back(tmp_path, run_cli, target):
    source = tmp_path / "real"
    shutil.copytree(REAL, source, ignore=shutil.ignore_patterns("README.md", "*aiken*"))
    before = [q for path in sorted(source.rglob("*.gift*")) for q in _qlint(path)]
    code, out, err = run_cli("convert", source, "--to", target, "-o", tmp_path / "out")
    # Moodle's and Instructure's fixtures hold files their own importers refuse: errors, and so exit 1
    assert code == 1 and "Traceback" not in err, err
    written = sorted(p for p in (tmp_path / "out").rglob("*") if p.is_file() and p.name != "imsmanifest.xml")
    assert written, out
    # the tree is kept: every source file's questions are under its own folder and name
    assert {p.relative_to(tmp_path / "out").parts[0] for p in written} == {"gift-pegjs", "moodle"}
    limits = ReadLimits(formats=(("**", "aiken"),) if target == "aiken" else ())
    back = [q.question for p in written for q in read(p.read_bytes(), p.name, limits).questions]
    assert f"Wrote {len(back)} question" in out
    if target == "aiken":   # the multiple-answer questions cannot be written
        assert len(back) < len(before) and "could not be written as aiken" in out
        return
    # every question, option, key, rationale and explanation is back (markup and white space aside)
    view = sorted(repr((_squeeze(q.stem), tuple((_squeeze(o.text), o.correct, _squeeze(o.rationale)) for o in q.options),
                        _squeeze(q.explanation))) for q in back)
    assert view == sorted(map(repr, before))
