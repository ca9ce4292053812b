"""`qlint server` driven over stdio by a real LSP client (pytest-lsp): diagnostics, cross-file findings as the
buffer changes, quick fixes, suppression, hover and completion."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
import pytest_lsp
from helpers import SERVER_A as A, SERVER_B as B, open_workspace
from lsprotocol import types
from pygls.uris import to_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient


@pytest.fixture
def bank(tmp_path: Path) -> Path:
    (tmp_path / "qlint.toml").write_text('paths = ["bank"]\nextend-select = ["option-order"]\n', encoding="utf-8")
    folder = tmp_path / "bank"
    folder.mkdir()
    (folder / "a.yaml").write_text(A, encoding="utf-8")
    (folder / "b.yaml").write_text(B, encoding="utf-8")
    return tmp_path


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "qlint", "server"]))
async def client(lsp_client: LanguageClient, bank: Path):
    await open_workspace(lsp_client, bank)
    yield
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, path: Path, text: str) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
    return uri


def _change(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


def _codes(client: LanguageClient, uri: str) -> set[str]:
    return {str(d.code).split()[1] for d in client.diagnostics.get(uri, [])}


def _apply(text: str, edit: types.WorkspaceEdit, uri: str) -> str:
    lines = text.splitlines(keepends=True)
    for change in sorted(edit.changes[uri], key=lambda e: (e.range.start.line, e.range.start.character),
                         reverse=True):
        start = sum(len(line) for line in lines[: change.range.start.line]) + change.range.start.character
        end = sum(len(line) for line in lines[: change.range.end.line]) + change.range.end.character
        joined = "".join(lines)
        lines = (joined[:start] + change.new_text + joined[end:]).splitlines(keepends=True)
    return "".join(lines)


@pytest.mark.asyncio
async def test_diagnostics_cross_file_findings_and_a_quick_fix(client: LanguageClient, bank: Path):
    uri = _open(client, bank / "bank" / "b.yaml", B)
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    diagnostics = client.diagnostics[uri]
    order = [d for d in diagnostics if "option-order" in str(d.code)]
    assert order, diagnostics
    assert order[0].range.start.line == 2   # the "options:" line (0-based)
    assert order[0].severity == types.DiagnosticSeverity.Warning
    assert order[0].code_description.href.endswith("#option-order-q304")

    # edit a near-duplicate of a.yaml's question into the buffer: the cross-file error appears
    copied = B.replace(B.splitlines()[1], A.splitlines()[1])
    _change(client, uri, 2, copied)
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert "near-duplicate-stem" in _codes(client, uri)
    near = next(d for d in client.diagnostics[uri] if "near-duplicate-stem" in str(d.code))
    assert near.severity == types.DiagnosticSeverity.Warning and "ck-1" in near.message
    assert "at bank/a.yaml:" in near.message, near.message   # read from the workspace, not the server's folder

    # back to the original text, then take the quick fix for option-order and apply it
    _change(client, uri, 3, B)
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    order = [d for d in client.diagnostics[uri] if "option-order" in str(d.code)]
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=order[0].range,
        context=types.CodeActionContext(diagnostics=order)))
    titles = [a.title for a in actions]
    assert any(t.startswith("Fix:") for t in titles) and any(t.startswith("Suppress option-order") for t in titles)
    fix = next(a for a in actions if a.title.startswith("Fix:"))
    fixed = _apply(B, fix.edit, uri)
    assert fixed.index("'4'") < fixed.index("'8'") < fixed.index("'16'")
    assert "# qlint" not in fixed and fixed.count("rationale:") == 3
    _change(client, uri, 4, fixed)
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert "option-order" not in _codes(client, uri)


@pytest.mark.asyncio
async def test_suppression_hover_and_completion(client: LanguageClient, bank: Path):
    uri = _open(client, bank / "bank" / "b.yaml", B)
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    order = [d for d in client.diagnostics[uri] if "option-order" in str(d.code)]
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=order[0].range.start))
    assert "# option-order (Q304)" in hover.contents.value and "Why is this bad?" in hover.contents.value

    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=order[0].range,
        context=types.CodeActionContext(diagnostics=order)))
    suppress = next(a for a in actions if a.title.startswith("Suppress option-order"))
    suppressed = _apply(B, suppress.edit, uri)
    assert "# qlint: ignore[option-order]" in suppressed
    _change(client, uri, 2, suppressed)
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    # no reason yet: the comment is an invalid suppression and silences nothing until the author writes one
    assert {"option-order", "invalid-suppression"} <= _codes(client, uri)
    reasoned = suppressed.replace("# qlint: ignore[option-order] ", "# qlint: ignore[option-order] sizes read best large first")
    _change(client, uri, 3, reasoned)
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert "option-order" not in _codes(client, uri)
    assert "unused-suppression" not in _codes(client, uri) and "invalid-suppression" not in _codes(client, uri)

    text = B + "# qlint: ignore[opt"
    _change(client, uri, 4, text)
    line = len(text.splitlines()) - 1
    items = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line, len("# qlint: ignore[opt"))))
    assert "option-order" in {i.label for i in items.items}


async def _labels(client: LanguageClient, uri: str, line: int, character: int) -> set[str]:
    items = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line, character)))
    return {i.label for i in items.items}


@pytest.mark.asyncio
async def test_completion_offers_the_keys_valid_where_the_cursor_is(client: LanguageClient, bank: Path):
    text = B + "  - text: '2'\n    \n"
    uri = _open(client, bank / "bank" / "b.yaml", text)
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    lines = text.splitlines()
    in_option = await _labels(client, uri, len(lines) - 1, 4)
    assert in_option == {"correct", "rationale", "credit"}   # an option's keys, less the one it has
    at_top = await _labels(client, uri, 2, 0)
    assert {"explanation", "objective", "tags"} <= at_top and not {"text", "correct", "rationale"} & at_top
    assert not {"id", "stem"} & at_top   # the question has them already
    many = "questions:\n  - id: a\n    \n"
    _change(client, uri, 2, many)
    assert await _labels(client, uri, 2, 4) >= {"stem", "options"} and "id" not in await _labels(client, uri, 2, 4)
    assert await _labels(client, uri, 3, 0) == set()   # next to questions: nothing else belongs at the top


@pytest.mark.asyncio
async def test_a_misspelt_field_gets_the_rename_its_message_suggests(client: LanguageClient, bank: Path):
    text = B.replace("- {text: '8', correct: true, rationale:", "- {text: '8', correct: true, rationnale:")
    text += "explaination: The batch is split evenly.\n"
    uri = _open(client, bank / "bank" / "b.yaml", text)
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    fixed = text
    for wrong, right in (("explaination", "explanation"), ("rationnale", "rationale")):
        schema = [d for d in client.diagnostics[uri] if "schema" in str(d.code) and wrong in d.message]
        assert schema and f"did you mean '{right}'" in schema[0].message, client.diagnostics[uri]
        actions = await client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), range=schema[0].range,
            context=types.CodeActionContext(diagnostics=schema)))
        rename = next(a for a in actions if a.title == f"Rename '{wrong}' to '{right}'")
        fixed = _apply(fixed, rename.edit, uri)
    assert fixed == B + "explanation: The batch is split evenly.\n"
    _change(client, uri, 2, fixed)
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert "schema" not in _codes(client, uri)


@pytest.mark.asyncio
async def test_rule_links_open_offline_or_are_left_out(client: LanguageClient, bank: Path):
    uri = _open(client, bank / "bank" / "b.yaml", B)
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert client.diagnostics[uri]
    for d in client.diagnostics[uri]:
        if d.code_description is None:
            continue
        href = d.code_description.href
        assert "OWNER" not in href and href.startswith("file:///"), href
        page, anchor = href.split("#")
        target = Path(to_fs_path(page))
        assert target.is_file() and f"## {anchor.rsplit('-', 1)[0]} ({anchor.rsplit('-', 1)[1].upper()})" in \
            target.read_text(encoding="utf-8")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "qlint", "server"]))
async def snippet_client(lsp_client: LanguageClient, bank: Path):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(workspace=types.WorkspaceClientCapabilities(
            workspace_edit=types.WorkspaceEditClientCapabilities(snippet_edit_support=True))),
        root_uri=bank.as_uri()))
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_a_client_with_snippets_gets_the_reason_selected_for_typing(snippet_client: LanguageClient, bank: Path):
    uri = _open(snippet_client, bank / "bank" / "b.yaml", B)
    await snippet_client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    order = [d for d in snippet_client.diagnostics[uri] if "option-order" in str(d.code)]
    actions = await snippet_client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=order[0].range,
        context=types.CodeActionContext(diagnostics=order)))
    suppress = next(a for a in actions if a.title.startswith("Suppress option-order"))
    (change,) = suppress.edit.document_changes
    (edit,) = change.edits
    assert isinstance(edit, types.SnippetTextEdit)
    assert edit.snippet.value == "# qlint: ignore[option-order] ${1:why this is fine}\n"


PACK = """\
name: says-obviously
code: X101
extends: pattern
severity: warning
scope: [stem]
summary: A stem says "obviously".
why: What is obvious to the writer is a cue to the reader.
use_instead: Leave the word out.
message: 'stem says "{match}"'
patterns:
  - '\\bobviously\\b'
passing:
  - |
    id: p-1
    stem: Which technique reduces activation memory?
    options:
      - {text: Checkpointing, correct: true, rationale: Correct. Activations are recomputed.}
      - {text: Larger batches, rationale: Incorrect. They increase memory.}
failing:
  - field: stem
    message: 'stem says "obviously"'
    text: |
      id: f-1
      stem: Which technique obviously reduces activation memory?
      options:
        - {text: Checkpointing, correct: true, rationale: Correct. Activations are recomputed.}
        - {text: Larger batches, rationale: Incorrect. They increase memory.}
"""


@pytest.fixture
def packed(tmp_path: Path) -> Path:
    """A workspace whose config adds a rule pack: its rule is one of the run's, and so of hover and completion."""
    (tmp_path / "qlint.toml").write_text('paths = ["bank"]\nrule-packs = ["packs"]\n', encoding="utf-8")
    (tmp_path / "packs").mkdir()
    (tmp_path / "packs" / "says-obviously.yaml").write_text(PACK, encoding="utf-8")
    (tmp_path / "bank").mkdir()
    (tmp_path / "bank" / "a.yaml").write_text(A.replace("Which technique", "Which technique obviously"),
                                              encoding="utf-8")
    return tmp_path


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "qlint", "server"]))
async def packed_client(lsp_client: LanguageClient, packed: Path):
    await open_workspace(lsp_client, packed)
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_hover_and_completion_know_the_configs_rule_packs(packed_client: LanguageClient, packed: Path):
    client = packed_client
    text = A.replace("Which technique", "Which technique obviously")
    uri = _open(client, packed / "bank" / "a.yaml", text)
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    found = [d for d in client.diagnostics[uri] if "says-obviously" in str(d.code)]
    assert found, client.diagnostics[uri]
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=found[0].range.start))
    assert hover is not None and "# says-obviously (X101)" in hover.contents.value

    typed = text + "# qlint: ignore[says"
    _change(client, uri, 2, typed)
    line = len(typed.splitlines()) - 1
    assert "says-obviously" in await _labels(client, uri, line, len("# qlint: ignore[says"))
