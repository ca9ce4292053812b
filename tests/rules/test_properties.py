"""Property-based tests: the loader never raises, findings are deterministic and sorted, fixes touch only what they fix."""
from __future__ import annotations

import yaml
from helpers import lint_text
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from qlint.finding import Finding
from qlint.formats.base import decode
from qlint.formats.yaml_edit import FixError, apply_to_text, fixable
from qlint.formats.yaml_reader import load_text

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Text as authors write it: any printable character, including non-ASCII, quotes and YAML syntax.
_chars = st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufeff")
words = st.text(_chars, min_size=1, max_size=40).filter(lambda s: s.strip())
plain = st.text(st.characters(whitelist_categories=("Lu", "Ll", "Nd"), max_codepoint=0x24F), min_size=1, max_size=12)


@st.composite
def questions(draw, qid: str | None = None) -> dict:
    count = draw(st.integers(2, 5))
    keys = draw(st.sets(st.integers(0, count - 1), min_size=1, max_size=count - 1))
    options = []
    for i in range(count):
        option = {"text": draw(words)}
        if i in keys:
            option["correct"] = True
        elif draw(st.booleans()):
            option["correct"] = False
        if draw(st.booleans()):
            option["rationale"] = draw(words)
        options.append(option)
    question = {"id": qid or draw(plain), "stem": draw(words), "options": options}
    if len(keys) > 1 or draw(st.booleans()):
        question["select"] = len(keys)
    for name in ("explanation", "objective"):
        if draw(st.booleans()):
            question[name] = draw(words)
    if draw(st.booleans()):
        question["tags"] = draw(st.lists(words, max_size=3))
    if draw(st.booleans()):
        question["difficulty"] = draw(st.integers(1, 5))
    return question


@st.composite
def bank_texts(draw) -> tuple[str, list[dict]]:
    n = draw(st.integers(1, 3))
    items = [draw(questions(qid=f"q-{i}")) for i in range(n)]
    flow = draw(st.sampled_from([False, None]))
    if n == 1 and draw(st.booleans()):
        return yaml.safe_dump(items[0], allow_unicode=True, sort_keys=False, default_flow_style=flow), items
    return yaml.safe_dump({"questions": items}, allow_unicode=True, sort_keys=False, default_flow_style=flow), items


def _check_findings(findings: list[Finding], path: str) -> None:
    for f in findings:
        assert f.path == path and f.line >= 1 and f.column >= 1 and f.message


@SETTINGS
@given(bank_texts())
def test_valid_questions_load_clean_and_round_trip(case):
    text, items = case
    result = load_text(text, "gen.yaml")
    assert not [f for f in result.findings if f.rule in ("parse-error", "schema")], result.findings
    assert len(result.questions) == len(items)
    for loaded, item in zip(result.questions, items):
        q = loaded.question
        assert q.id == item["id"] and q.stem == item["stem"]
        assert q.select == item.get("select", 1)
        assert [o.text for o in q.options] == [o["text"] for o in item["options"]]
        assert [o.correct for o in q.options] == [o.get("correct", False) for o in item["options"]]
        assert [o.rationale for o in q.options] == [o.get("rationale") for o in item["options"]]
        assert q.explanation == item.get("explanation") and q.objective == item.get("objective")
        assert list(q.tags) == item.get("tags", [])
        assert q.difficulty == item.get("difficulty")
        assert loaded.locate("stem")[0] >= 1


# Mutations: the edits a bad merge, a stray keystroke or a wrong editor setting makes.
TOKENS = ["\t", ":", ": ", "- ", "[", "]", "{", "}", ",", "'", '"', "&a ", "*a", "*b", "!!python/object/apply:os.system ",
          "!x ", "? ", "|", ">-", "#", "---\n", "...\n", "%YAML 1.1\n", "\r", "\r\n", "\n", "  ", "\x00", "\ufeff",
          "\x07", "\\", "<<: ", "~", "null", "<<<<<<< HEAD\n", "=======\n", ">>>>>>> branch\n", "\u2028", "é"]


@st.composite
def mutated(draw) -> str:
    text, _ = draw(bank_texts())
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["insert", "delete", "replace", "dup-line", "drop-line", "swap-lines", "indent"]))
        pos = draw(st.integers(0, len(text)))
        lines = text.split("\n")
        li = draw(st.integers(0, max(0, len(lines) - 1)))
        if kind == "insert":
            piece = draw(st.one_of(st.sampled_from(TOKENS), st.text(max_size=4)))
            text = text[:pos] + piece + text[pos:]
        elif kind == "delete":
            text = text[:pos] + text[pos + draw(st.integers(1, 10)):]
        elif kind == "replace":
            text = text[:pos] + draw(st.sampled_from(TOKENS)) + text[pos + 1:]
        elif kind == "dup-line":
            text = "\n".join(lines[:li + 1] + lines[li:])
        elif kind == "drop-line":
            text = "\n".join(lines[:li] + lines[li + 1:])
        elif kind == "swap-lines" and li + 1 < len(lines):
            lines[li], lines[li + 1] = lines[li + 1], lines[li]
            text = "\n".join(lines)
        else:
            lines[li] = draw(st.sampled_from([" ", "  ", "\t", "   "])) + lines[li]
            text = "\n".join(lines)
    return text


@SETTINGS
@given(mutated())
def test_text_mutations_never_raise(text):
    result = load_text(text, "m.yaml")
    _check_findings(result.findings, "m.yaml")
    assert all(q.path == "m.yaml" for q in result.questions)


@st.composite
def mutated_bytes(draw) -> bytes:
    data = bytearray(draw(mutated()).encode("utf-8", "surrogatepass"))
    for _ in range(draw(st.integers(0, 5))):
        pos = draw(st.integers(0, len(data)))
        data[pos:pos + draw(st.integers(0, 2))] = draw(st.binary(min_size=0, max_size=3))
    prefix = draw(st.sampled_from([b"", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\xff\xfe\x00\x00"]))
    return prefix + bytes(data)


@SETTINGS
@given(mutated_bytes())
def test_byte_mutations_never_raise(data):
    text, problems = decode(data, "b.yaml")
    _check_findings(problems, "b.yaml")
    if text is None:
        assert problems
        return
    _check_findings(load_text(text, "b.yaml").findings, "b.yaml")


@SETTINGS
@given(st.one_of(mutated(), bank_texts().map(lambda case: case[0])))
def test_findings_are_deterministic_and_sorted(registry, text):
    first = lint_text(text, registry, path="d.yaml")
    second = lint_text(text, registry, path="d.yaml")
    assert first == second
    assert [f.message for f in first] == [f.message for f in second]
    assert first == sorted(first, key=Finding.sort_key)
    _check_findings(first, "d.yaml")


def _span(text: str, field: str, qid: str) -> tuple[int, int]:
    """0-based first and last line of a field's value node (``stem``, ``options[1].text``) in the text."""
    root = yaml.compose(text)
    mapping = dict((k.value, v) for k, v in root.value)
    entries = mapping["questions"].value if "questions" in mapping else [root]
    node = next(e for e in entries if dict((k.value, v) for k, v in e.value)["id"].value == qid)
    for chunk in field.replace("]", "").split("."):
        name, *indices = chunk.split("[")
        node = dict((k.value, v) for k, v in node.value)[name]
        for index in indices:
            node = node.value[int(index)]
    end = node.end_mark.line - (1 if node.end_mark.column == 0 and node.end_mark.line > node.start_mark.line else 0)
    return node.start_mark.line, end


PADS = st.sampled_from([" ", "  ", "\t", " \t", "\u00a0"])


@SETTINGS
@given(st.data())
def test_fix_changes_only_the_fixed_scalar(registry, data):
    _, items = data.draw(bank_texts())
    index = data.draw(st.integers(0, len(items) - 1))
    question = items[index]
    fields = ["stem"] + [f"options[{i}].text" for i in range(len(question["options"]))]
    field = data.draw(st.sampled_from(fields))
    pad_left, pad_right = data.draw(PADS), data.draw(PADS)
    if field == "stem":
        question["stem"] = pad_left + question["stem"].strip(" \t\u00a0") + pad_right
    else:
        option = question["options"][int(field[8:field.index("]")])]
        option["text"] = pad_left + option["text"].strip(" \t\u00a0") + pad_right
    assume(question["stem"].strip() and all(o["text"].strip() for o in question["options"]))
    doc = question if len(items) == 1 and data.draw(st.booleans()) else {"questions": items}
    text = yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, default_flow_style=False)
    findings = [f for f in lint_text(text, registry, select=["stray-whitespace"], path="f.yaml")
                if f.question == question["id"] and f.field == field]
    assert findings, "the padded field is not reported"
    try:
        new = apply_to_text(text, fixable(findings))
    except FixError:
        return  # a file ruamel cannot round-trip byte for byte is left alone: nothing changed
    first, last = _span(text, field, question["id"])
    old_lines, new_lines = text.splitlines(keepends=True), new.splitlines(keepends=True)
    tail = len(old_lines) - last - 1
    assert new_lines[:first] == old_lines[:first]
    if tail:
        assert new_lines[len(new_lines) - tail:] == old_lines[last + 1:]
    assert len(new_lines) - tail >= first
    fixed = load_text(new, "f.yaml")
    assert not [f for f in fixed.findings if f.rule in ("parse-error", "schema")]
    loaded = next(q for q in fixed.questions if q.question.id == question["id"])
    value = loaded.question.stem if field == "stem" else loaded.question.options[int(field[8:field.index("]")])].text
    assert value == value.strip(" \t\u00a0")
    assert not [f for f in lint_text(new, registry, select=["stray-whitespace"], path="f.yaml")
                if f.question == question["id"] and f.field == field]


_option_chars = st.sampled_from(list("ab Zé1.9,;:!?\"“”‘’`*_'-()/ sThe"))


@SETTINGS
@given(st.text(_option_chars, max_size=30) | words)
@example("'s_")   # the quote is judged before "_" becomes a space
def test_duplicate_option_normal_form_equals_its_plain_definition(text):
    """The fast normalisation (translate and replace where a regex is not needed) equals the one-regex definition."""
    from qlint.rules.duplicate_option import _ARTICLES, _LABEL, _PUNCT, _normal_cased

    plain_form = _PUNCT.sub(" ", _LABEL.sub("", text).lower().replace("’", "'"))
    words = plain_form.split()
    # an article is dropped only before a word of two or more letters ("a" in "A, C" is a letter)
    assert _normal_cased.__wrapped__(text).lower() == " ".join(w for k, w in enumerate(words)
                                                 if w not in _ARTICLES or k + 1 == len(words) or len(words[k + 1]) < 2)
