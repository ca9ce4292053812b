"""Findings point at the offending words: line, column and end of the word itself, whether the field is written
plain, quoted (with escapes) or as a literal block; and every output format carries the range."""
from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
import pytest_lsp
from helpers import lint_text, open_workspace
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from qlint.engine import check_file
from qlint.finding import Finding, Severity
from qlint.formats.yaml_reader import load_text
from qlint.output import Report, github, gitlab, json_format, sarif, text
from qlint.packs import read_pack
from qlint.rule import ActiveRule

KEYS = """\
options:
  - {text: nitrogen, correct: true, rationale: Correct. It does not absorb infrared.}
  - {text: methane, rationale: Incorrect. It is a strong greenhouse gas.}
  - {text: argon, rationale: Incorrect. It is a noble gas that absorbs no infrared.}
"""


def _stem(stem_yaml: str) -> str:
    return f"id: r1\n{stem_yaml}{KEYS}"


def _options(stem: str, *options: str) -> str:
    return f"id: r1\nstem: {stem}\noptions:\n" + "".join(options)


def _sliced(source: str, f: Finding) -> str:
    """The file's text between a finding's start and end."""
    lines = source.split("\n")
    start = sum(len(line) + 1 for line in lines[:f.line - 1]) + f.column - 1
    end = sum(len(line) + 1 for line in lines[:f.end_line - 1]) + f.end_column - 1
    return source[start:end]


CASES = [
    # (rule, file text, the words the finding must cover)
    ("negative-stem", _stem("stem: In this list, which gas is NOT a greenhouse gas?\n"), "NOT"),
    ("negative-stem", _stem("stem: 'Of Earth''s gases, which one is NOT a greenhouse gas?'\n"), "NOT"),
    ("negative-stem", _stem('stem: "Of \\"Earth\'s\\" gases\\u0021 Which one is NOT a greenhouse gas?"\n'), "NOT"),
    ("negative-stem", _stem("stem: |\n  Greenhouse gases absorb infrared light.\n  In this list, which gas is NOT one?\n"),
     "NOT"),
    ("negative-stem", _stem("stem: |-\n    Greenhouse gases absorb infrared.\n      Which of these is NOT one?\n"), "NOT"),
    ("blank-in-stem", _stem("stem: In air, the ________ gas makes up most of the volume.\n"), "________"),
    ("blank-in-stem", _stem("stem: 'In Earth''s air, the ____ gas makes up most of it.'\n"), "____"),
    ("blank-in-stem", _stem("stem: |\n  Air is a mixture.\n  Its ____ gas makes up most of the volume.\n"), "____"),
    ("absolute-terms", _options("What does gradient checkpointing do to training?",
                                "  - {text: It recomputes activations, correct: true, rationale: Correct. The trade.}\n",
                                "  - {text: It always makes training faster, rationale: Incorrect. It adds compute.}\n"),
     "always"),
    ("absolute-terms", _options("What does gradient checkpointing do to training?",
                                "  - {text: It recomputes activations, correct: true, rationale: Correct. The trade.}\n",
                                '  - {text: "It \\"really\\" always\\tmakes training faster", rationale: No.}\n'),
     "always"),
    ("absolute-terms", _options("What does gradient checkpointing do to training?",
                                "  - {text: It recomputes activations, correct: true, rationale: Correct. The trade.}\n",
                                "  - text: |\n      It trades memory for time\n      and never changes peak memory\n"
                                "    rationale: Incorrect. Lowering peak memory is its purpose.\n"),
     "never"),
    ("vague-terms", _options("What happens to step time when gradient checkpointing is turned on?",
                             "  - {text: It usually gets longer, correct: true, rationale: Correct. Recomputation.}\n",
                             "  - {text: It halves, rationale: Incorrect. No compute is saved.}\n"),
     "usually"),
    ("vague-terms", _options("What happens to step time when gradient checkpointing is turned on?",
                             "  - {text: 'It''s usually longer', correct: true, rationale: Correct. Recomputation.}\n",
                             "  - {text: It halves, rationale: Incorrect. No compute is saved.}\n"),
     "usually"),
    ("all-of-the-above", _options("Which of these can carry an electric current?",
                                  "  - {text: copper wire, rationale: Incorrect on its own.}\n",
                                  "  - {text: salt water, rationale: Incorrect on its own.}\n",
                                  "  - {text: (c) all of the above, correct: true, rationale: Correct. All conduct.}\n"),
     "all of the above"),
    ("all-of-the-above", _options("Which of these can carry an electric current?",
                                  "  - {text: copper wire, rationale: Incorrect on its own.}\n",
                                  "  - {text: salt water, rationale: Incorrect on its own.}\n",
                                  '  - {text: "c.\\tall of the above", correct: true, rationale: Correct.}\n'),
     "all of the above"),
    ("all-of-the-above", _options("Which of these can carry an electric current?",
                                  "  - {text: copper wire, rationale: Incorrect on its own.}\n",
                                  "  - {text: salt water, rationale: Incorrect on its own.}\n",
                                  "  - text: |\n      (c) all of the above\n    correct: true\n"),
     "all of the above"),
    ("none-of-the-above", _options("Which of these is a noble gas?",
                                   "  - {text: neon, correct: true, rationale: Correct. Group 18.}\n",
                                   "  - {text: oxygen, rationale: Incorrect. Group 16.}\n",
                                   "  - {text: None of the above, rationale: Incorrect. Neon is one.}\n"),
     "None of the above"),
    ("rationale-in-option", _options("What is the SI unit of force?",
                                     "  - {text: newton (correct), correct: true, rationale: Correct. 1 N = 1 kg m/s^2.}\n",
                                     "  - {text: joule, rationale: Incorrect. It is the unit of energy.}\n"),
     "(correct)"),
    ("rationale-in-option", _options("Which organ produces insulin?",
                                     "  - {text: the pancreas, correct: true, rationale: Correct. Beta cells.}\n",
                                     "  - {text: '  the liver. This is a common misconception.', rationale: No.}\n"),
     "This is a common misconception"),
    ("stem-option-overlap", _options(
        "Which setting makes a DataLoader reuse its worker processes between epochs?",
        "  - {text: 'Keep the worker processes alive', correct: true, rationale: Correct.}\n",
        "  - {text: pin_memory=True, rationale: Incorrect. Pinning changes host memory only.}\n",
        "  - {text: drop_last=True, rationale: Incorrect. It drops the last partial batch.}\n"),
     "worker"),
]


@pytest.mark.parametrize("rule,source,word", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_finding_covers_the_offending_words(rule, source, word, registry):
    found = [f for f in lint_text(source, registry, extend=[rule]) if f.rule == rule]
    assert found, f"{rule} did not fire:\n{source}"
    f = found[0]
    assert f.end_line is not None, f"{rule} gave no range"
    assert _sliced(source, f) == word


def test_folded_and_multi_line_values_fall_back_to_the_value_start(registry):
    source = _stem("stem: >\n  Greenhouse gases absorb infrared.\n  Which of these is NOT one?\n")
    f = next(f for f in lint_text(source, registry, extend=["negative-stem"]) if f.rule == "negative-stem")
    assert (f.line, f.column, f.end_line, f.end_column) == (2, 7, None, None)   # the ">" of the value
    wrapped = _stem("stem: Greenhouse gases absorb infrared.\n  Which of these is NOT one?\n")
    f = next(f for f in lint_text(wrapped, registry, extend=["negative-stem"]) if f.rule == "negative-stem")
    assert (f.line, f.column, f.end_line) == (2, 7, None)


def test_escapes_not_mapped_fall_back_to_the_value_start(registry):
    # an escaped line break joins two source lines: offsets past it are not column offsets
    source = _stem('stem: "Of the gases in air, \\\n  which one is NOT a greenhouse gas?"\n')
    f = next(f for f in lint_text(source, registry, extend=["negative-stem"]) if f.rule == "negative-stem")
    assert (f.line, f.column, f.end_line) == (2, 7, None)


def test_a_wrong_span_falls_back_and_never_breaks_the_run():
    loaded = load_text(_stem("stem: Which gas is NOT a greenhouse gas?\n"), "x.yaml").questions[0]
    assert loaded.locate_span("stem", (5, 500)) == (2, 7, None, None)
    assert loaded.locate_span("stem", (-1, 2)) == (2, 7, None, None)
    assert loaded.locate_span("options[9].text", (0, 1)) == (*loaded.locate("options[9].text"), None, None)


def _pack(tmp_path: Path, kind: str, body: list[str]) -> ActiveRule:
    path = tmp_path / f"{kind}.yaml"
    lines = [f"name: house-{kind}", "code: H901", f"extends: {kind}", "summary: s", "why: w", "use-instead: u",
             "message: 'found {match}'", "scope: [stem, options]", "failing: ['x']", *body]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    rule = read_pack(path)[0]
    return ActiveRule(rule, rule.options(), Severity.WARNING)


@pytest.mark.parametrize("kind,body,word", [
    ("existence", ["tokens: [greenhouse gas]"], "greenhouse gas"),
    ("substitution", ["swap: {gas: vapour}"], "gas"),
    ("pattern", [r"patterns: ['\bgreen\w+\s+gas\b']"], "greenhouse gas"),   # runs on RE2
])
def test_pack_kinds_cover_the_match(kind, body, word, tmp_path):
    source = _stem("stem: 'Of Earth''s air — é, 😀 — which one is a greenhouse gas?'\n")
    outcome = check_file(load_text(source, "x.yaml"), [_pack(tmp_path, kind, body)])
    f = outcome.findings[0]
    assert _sliced(source, f) == word


def _report(source: str, registry) -> tuple[Report, Finding]:
    findings = [f for f in lint_text(source, registry, extend=["negative-stem"]) if f.rule == "negative-stem"]
    lines = source.split("\n")
    sources = {(f.path, f.line): lines[f.line - 1] for f in findings}
    return Report(findings, 1, 1, sources=sources), findings[0]


NOT_MID_LINE = _stem("stem: In this list, which gas is NOT a greenhouse gas?\n")


def test_outputs_carry_the_range(registry):
    report, f = _report(NOT_MID_LINE, registry)
    assert (f.line, f.column, f.end_line, f.end_column) == (2, 34, 2, 37)
    region = sarif.build(report)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 2, "startColumn": 34, "endLine": 2, "endColumn": 37}
    location = gitlab.build(report)[0]["location"]
    assert location["lines"] == {"begin": 2}
    assert location["positions"] == {"begin": {"line": 2, "column": 34}, "end": {"line": 2, "column": 37}}
    assert ",line=2,col=34,title=Q401 negative-stem,endLine=2,endColumn=37::" in github.command(f)
    out = io.StringIO()
    json_format.render(report, out, {})
    doc = json.loads(out.getvalue())["findings"][0]
    assert (doc["line"], doc["column"], doc["end_line"], doc["end_column"]) == (2, 34, 2, 37)
    assert json.loads(f.to_json()) == f.to_dict()
    out = io.StringIO()
    text.render(report, out, {"colour": False, "show_source": True, "quiet": True})
    caret = out.getvalue().splitlines()[-1]
    assert caret == "  | " + " " * 33 + "^^^"


def test_findings_without_a_range_keep_one_caret_and_null_ends(registry):
    f = Finding("x.yaml", 2, 1, "Q401", "negative-stem", Severity.WARNING, "m")
    report = Report([f], 1, 1, sources={("x.yaml", 2): "stem: Which is NOT?"})
    out = io.StringIO()
    text.render(report, out, {"colour": False, "show_source": True, "quiet": True})
    assert out.getvalue().splitlines()[-1] == "  | ^"
    assert json.loads(f.to_json())["end_line"] is None and f.to_dict()["end_column"] is None
    assert sarif.build(report)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 2, "startColumn": 1}
    assert "positions" not in gitlab.build(report)[0]["location"]
    assert "endLine" not in github.command(f)


def test_cache_keeps_the_range(registry):
    from qlint.items import CheckedFile
    from qlint.run.cache import decode, encode

    found = [f for f in lint_text(NOT_MID_LINE, registry, extend=["negative-stem"]) if f.rule == "negative-stem"]
    plain = Finding("x.yaml", 3, 1, "Q102", "schema", Severity.ERROR, "m")
    back = decode(encode(CheckedFile("example.yaml", found + [plain], [], [])))
    assert [(f.line, f.column, f.end_line, f.end_column) for f in back.findings] == \
        [(2, 34, 2, 37), (3, 1, None, None)]


# --- the language server: the diagnostic's range is the word's ---------------------------------------------------

@pytest.fixture
def bank(tmp_path: Path) -> Path:
    (tmp_path / "qlint.toml").write_text('paths = ["bank"]\nextend-select = ["negative-stem"]\n', encoding="utf-8")
    (tmp_path / "bank").mkdir()
    return tmp_path


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "qlint", "server"]))
async def client(lsp_client: LanguageClient, bank: Path):
    await open_workspace(lsp_client, bank)
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_server_diagnostic_range_is_the_word(client: LanguageClient, bank: Path):
    # an emoji before the word: LSP counts UTF-16 units, so the word starts one unit later than its code point
    source = _stem("stem: 'In 😀 air, which gas is NOT a greenhouse gas?'\n")
    uri = (bank / "bank" / "a.yaml").as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=source)))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    found = [d for d in client.diagnostics[uri] if str(d.code).endswith("negative-stem")]
    assert found
    start, end = found[0].range.start, found[0].range.end
    line = source.split("\n")[1]
    column = line.index("NOT")
    assert (start.line, start.character, end.line, end.character) == (1, column + 1, 1, column + 4)


def test_a_line_suppression_above_a_block_still_covers_its_words(registry):
    block = "stem: |\n  Greenhouse gases absorb infrared light.\n  In this list, which gas is NOT one?\n"
    suppressed = _stem("# qlint: ignore[negative-stem] the negative is the point of this item\n" + block)
    found = {f.rule for f in lint_text(suppressed, registry, extend=["negative-stem"])}
    assert "negative-stem" not in found and "unused-suppression" not in found
    # without the comment the finding is at the word, two lines into the block
    f = next(f for f in lint_text(_stem(block), registry, extend=["negative-stem"]) if f.rule == "negative-stem")
    assert (f.line, f.end_line) == (4, 4)
