"""Writers and ``qlint convert``: a bank written in any format and read back (then through YAML) keeps every
stem, option, key, rationale and explanation the format can hold; what it cannot hold is a warning."""
from __future__ import annotations

from helpers import DATA

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qlint.formats import read
from qlint.formats.base import ReadLimits
from qlint.formats.convert import WRITERS
from qlint.formats.write import Output, Part, UnsafePath, save
from qlint.model import Option, Question

DATA = DATA / "formats"
HOLDS = {  # what each target keeps besides stems, option texts and keys
    "yaml": {"id", "rationale", "explanation", "select"},
    "gift": {"id", "rationale", "explanation", "select"},
    "moodle-xml": {"id", "rationale", "explanation", "select"},
    "qti12": {"id", "rationale", "explanation", "select"},
    "qti21": {"id", "rationale", "explanation", "select"},
    "aiken": set(),
}

# words that mean something to one of the formats: GIFT's specials and markers, Aiken's lines, HTML and XML
_WORD = st.one_of(st.text(alphabet="abAZ09{}=~#:<>&;\"'\\/%-.,?()é[]*_!|$@`^+", min_size=1, max_size=8),
                  st.sampled_from(["ANSWER:", "A.", "B)", "TRUE", "T", "F", "//", "::", "####", "->", "&amp;", "<br>",
                                   "<![CDATA[", "]]>", "$CATEGORY:", "[html]", "%50%", "\\n", "<!--", "-->"]))
_TEXT = st.builds(lambda words, breaks: "".join(w + ("\n" if i in breaks else " ") for i, w in enumerate(words)).strip(),
                  st.lists(_WORD, min_size=1, max_size=6), st.sets(st.integers(0, 5), max_size=2))


@st.composite
def questions(draw, index: int) -> Question:
    count = draw(st.integers(2, 5))
    keys = draw(st.sets(st.integers(0, count - 1), max_size=count))
    options = [Option(text=draw(_TEXT), correct=i in keys, rationale=draw(st.none() | _TEXT)) for i in range(count)]
    select = len(keys) if len(keys) > 1 and draw(st.booleans()) else 1
    return Question(id=f"q-{index}", stem=draw(_TEXT), options=tuple(options), select=select,
                    explanation=draw(st.none() | _TEXT))


@st.composite
def banks(draw) -> list[Question]:
    return [draw(questions(i)) for i in range(draw(st.integers(1, 4)))]


def _view(q: Question, holds: set[str]) -> tuple:
    flat = (lambda t: " ".join(t.split())) if not holds else (lambda t: t)
    return (q.id if "id" in holds else None, flat(q.stem), q.select if "select" in holds else None,
            tuple((flat(o.text), o.correct, o.rationale if "rationale" in holds else None) for o in q.options),
            q.explanation if "explanation" in holds else None)


def _aiken_holds(q: Question) -> bool:
    """Aiken writes a question with exactly one key whose stem does not read as an ANSWER line."""
    return len(q.keys) == 1 and q.select == 1 and not re.match(r"\s*ANSWER\s*:", " ".join(q.stem.split()), re.I)


def _read_back(files: dict[str, str], target: str) -> list[Question]:
    limits = ReadLimits(formats=(("**", "aiken"),) if target == "aiken" else ())
    found = []
    for name, text in sorted(files.items()):
        if name == "imsmanifest.xml":
            continue
        result = read(text.encode("utf-8"), name, limits)
        assert not [f for f in result.findings if f.code not in ("Q109", "Q110")], (name, result.findings, text)
        found += [loaded.question for loaded in result.questions]
    return found


@pytest.mark.parametrize("target", sorted(WRITERS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bank=banks())
def test_round_trip_through_target_and_yaml_keeps_what_the_target_holds(target, bank):
    out = Output()
    WRITERS[target]([Part("gen.yaml", bank)], out)
    back = _read_back(out.files, target)
    expected = [q for q in bank if target != "aiken" or _aiken_holds(q)]
    holds = HOLDS[target]
    assert [_view(q, holds) for q in back] == [_view(q, holds) for q in expected]
    again = Output()
    WRITERS["yaml"]([Part("back.gift", back)] if back else [], again)
    assert [_view(q, holds) for q in _read_back(again.files, "yaml")] == [_view(q, holds) for q in expected]


def test_writers_say_what_they_cannot_hold():
    bank = [Question(id="a", stem="Which?", tags=("t1", "t2"), explanation="Because.", options=(
        Option(text="x", correct=True, rationale="Yes."), Option(text="y"))),
        Question(id="b", stem="Two keys?", select=2, options=(Option(text="x", correct=True), Option(text="y", correct=True)))]
    warnings = {}
    for target, write in WRITERS.items():
        out = Output()
        write([Part("bank.yaml", bank)], out)
        warnings[target] = " ".join(out.warnings(target))
    assert "rationales" in warnings["aiken"] and "explanations" in warnings["aiken"]
    assert "exactly one key" in warnings["aiken"]
    assert "tags" in warnings["qti12"] and "tags" in warnings["qti21"]
    assert "more than one tag" in warnings["gift"]
    assert warnings["yaml"] == "" and warnings["moodle-xml"] == ""


def test_convert_cli_moodle_to_yaml_keeps_ids_and_names_the_source(tmp_path, run_cli):
    code, out, err = run_cli("convert", DATA / "quiz.moodle.xml", "--to", "yaml", "-o", tmp_path / "out")
    assert code == 0, err
    text = (tmp_path / "out" / "quiz-moodle.yaml").read_text(encoding="utf-8")
    assert text.startswith("# converted by qlint from ") and "quiz.moodle.xml" in text.splitlines()[0]
    assert "id: water-formula" in text and "Wrote 6 questions" in out
    code, out, err = run_cli("check", "--no-cache", "--select", "parse-error,schema", tmp_path / "out")
    assert code == 0, out


def test_convert_to_aiken_warns_and_to_zip_writes_one_package(tmp_path, run_cli):
    code, _, err = run_cli("convert", DATA / "basic.gift", "--to", "aiken", "-o", tmp_path / "aiken")
    assert code == 0 and "aiken cannot hold rationales" in err
    code, _, err = run_cli("convert", DATA / "basic.gift", "--to", "qti21", "-o", tmp_path / "pkg.zip")
    assert code == 0, err
    result = read((tmp_path / "pkg.zip").read_bytes(), "pkg.zip", ReadLimits())
    assert len(result.questions) == 8 and all(q.path.startswith("pkg.zip!basic/") for q in result.questions)


def test_output_paths_never_leave_the_output_folder(tmp_path):
    for bad in ("../evil.yaml", "/abs.yaml", "a/../../evil.yaml", "c:evil.yaml"):
        with pytest.raises(UnsafePath):
            save({bad: "x"}, tmp_path / "out")
    assert not (tmp_path / "out").exists()   # refused before anything was written
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "link").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(UnsafePath):
        save({"link/evil.yaml": "x"}, tmp_path / "out")
    assert not list((tmp_path / "elsewhere").iterdir())
    assert not (tmp_path / "evil.yaml").exists()


def test_source_names_cannot_steer_output_paths():
    part = Part("../../etc/passwd.gift", [])
    assert part.stem == "passwd" and "/" not in Part("pkg.zip!../../x.xml", []).stem


def test_convert_reports_what_it_could_not_read_and_converts_the_rest(tmp_path, run_cli):
    code, out, err = run_cli("convert", DATA / "broken.gift", "--to", "moodle-xml", "-o", tmp_path / "out")
    assert code == 1 and "broken.gift:3:" in err and "Q101" in err
    result = read((tmp_path / "out" / "broken.xml").read_bytes(), "broken.xml", ReadLimits())
    assert [q.question.id for q in result.questions] == ["ok-1", "ok-2"]


def test_convert_refuses_a_missing_source(tmp_path, run_cli):
    code, _, err = run_cli("convert", tmp_path / "nope.gift", "--to", "yaml", "-o", tmp_path / "out")
    assert code == 2 and "no such file" in err and not (tmp_path / "out").exists()


def test_texts_that_look_like_format_syntax_survive_or_are_named():
    tricky = Question(id="t", stem="[html] <b>Which</b> line?", options=(
        Option(text="%50% off", correct=True), Option(text="[plain] text"), Option(text="ANSWER: B")))
    out = Output()
    WRITERS["gift"]([Part("t.yaml", [tricky])], out)
    (back,) = _read_back(out.files, "gift")
    assert _view(back, HOLDS["gift"]) == _view(tricky, HOLDS["gift"])
    stem_like_answer = Question(id="a", stem="ANSWER: what is it?", options=(Option(text="x", correct=True), Option(text="y")))
    out = Output()
    WRITERS["aiken"]([Part("a.yaml", [stem_like_answer])], out)
    assert not out.files and "starts like an ANSWER line" in " ".join(out.warnings("aiken"))
