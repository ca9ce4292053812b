"""``qlint server``: a Language Server over stdio, so an editor shows qlint's findings as the author types.

Diagnostics come from the same run as ``qlint check`` (``run_check`` on the buffer's text, as stdin with the
buffer's path), so the cross-file rules compare the buffer with the rest of the bank found from the workspace's
config, and the cache serves the files that did not change. A change is checked once the author pauses
(``DEBOUNCE`` seconds). Code actions offer each safe fix, "fix all" for the file, and a suppression comment;
hovering a finding shows its rule's card; completion offers field names, and rule names inside a suppression.

pygls and lsprotocol are the ``qlint[server]`` extra: ``qlint server`` says so when they are missing.
"""
from __future__ import annotations

import asyncio
import os
import re
from dataclasses import dataclass, field

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from qlint import __version__
from qlint.docs import card
from qlint.finding import Finding, Severity
from qlint.fix_run import fix_text
from qlint.model import OPTION_FIELDS, QUESTION_FIELDS
from qlint.pipeline import SetupError, run_check
from qlint.registry import load_registry

DEBOUNCE = 0.3   # seconds of quiet after a keystroke before the buffer is checked
SOURCE = "qlint"
DOCS = "https://github.com/OWNER/qlint/blob/main/docs/rules.md#{anchor}"
_SEVERITY = {Severity.ERROR: types.DiagnosticSeverity.Error, Severity.WARNING: types.DiagnosticSeverity.Warning,
             Severity.INFO: types.DiagnosticSeverity.Information}
_SUPPRESSION_OPEN = re.compile(r"#\s*qlint:\s*ignore(?:-question|-file)?\[([^\]]*)$")
_KEY_POSITION = re.compile(r"^\s*(?:-\s+)?[A-Za-z_]*$")


@dataclass
class Diagnosed:
    """A buffer's latest findings, by the version of the text they were computed from."""

    version: int | None
    findings: list[Finding] = field(default_factory=list)


class QlintServer(LanguageServer):
    """The server's state: each open buffer's pending check and latest findings."""

    def __init__(self) -> None:
        super().__init__("qlint", __version__)
        self.pending: dict[str, asyncio.Task] = {}
        self.checked: dict[str, Diagnosed] = {}


def _path(uri: str) -> str | None:
    return to_fs_path(uri) if uri.startswith("file:") else None


def findings_for(path: str, text: str) -> list[Finding]:
    """What ``qlint check`` reports for ``text`` as the file ``path``, against the bank around it."""
    run = run_check(["-"], stdin=text.encode("utf-8"), stdin_filename=path, jobs=1)
    return run.findings


def _utf16(text: str, column: int) -> int:
    """A character offset in a line as LSP counts it by default: UTF-16 code units (an emoji is two)."""
    head = text[:column]
    return column if head.isascii() else len(head.encode("utf-16-le", "surrogatepass")) // 2


def _range(finding: Finding, lines: list[str]) -> types.Range:
    """The words the finding points at when its end is known; else from its column to the end of the line's value
    (at least one character)."""
    line = max(finding.line - 1, 0)
    text = lines[line] if line < len(lines) else ""
    start = min(max(finding.column - 1, 0), len(text))
    if finding.end_line is not None and finding.end_column is not None and finding.end_line >= finding.line:
        end_line = finding.end_line - 1
        end_text = lines[end_line] if end_line < len(lines) else ""
        end = min(max(finding.end_column - 1, 0), len(end_text))
        if end_line > line or end > start:
            return types.Range(types.Position(line, _utf16(text, start)),
                               types.Position(end_line, _utf16(end_text, end)))
    end = max(len(text.rstrip()), start + 1)
    return types.Range(types.Position(line, _utf16(text, start)), types.Position(line, _utf16(text, end)))


def diagnostic(finding: Finding, lines: list[str]) -> types.Diagnostic:
    return types.Diagnostic(
        range=_range(finding, lines), message=finding.message, severity=_SEVERITY[finding.severity],
        code=f"{finding.code} {finding.rule}", source=SOURCE,
        code_description=types.CodeDescription(href=DOCS.format(anchor=f"{finding.rule}-{finding.code.lower()}")),
        data={"rule": finding.rule, "fixable": finding.fix is not None},
    )


def _check_now(server: QlintServer, uri: str) -> None:
    document = server.workspace.get_text_document(uri)
    path = _path(uri)
    if path is None:
        return
    try:
        found = findings_for(path, document.source)
    except SetupError as exc:
        server.window_show_message(types.ShowMessageParams(types.MessageType.Error, f"qlint: {exc}"))
        return
    server.checked[uri] = Diagnosed(document.version, found)
    lines = document.source.splitlines()
    server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
        uri=uri, version=document.version, diagnostics=[diagnostic(f, lines) for f in found]))


async def _later(server: QlintServer, uri: str, delay: float) -> None:
    await asyncio.sleep(delay)
    # the check itself runs in a thread: a big bank's first run must not stop the server answering
    await asyncio.get_running_loop().run_in_executor(None, _check_now, server, uri)


def schedule(server: QlintServer, uri: str, delay: float = DEBOUNCE) -> None:
    """Check the buffer once the author has paused: a newer change cancels the check still waiting."""
    waiting = server.pending.pop(uri, None)
    if waiting is not None and not waiting.done():
        waiting.cancel()
    server.pending[uri] = asyncio.ensure_future(_later(server, uri, delay))


def _whole(text: str) -> types.Range:
    lines = text.split("\n")
    return types.Range(types.Position(0, 0), types.Position(len(lines), 0))


def _edit(uri: str, old: str, new: str) -> types.WorkspaceEdit:
    return types.WorkspaceEdit(changes={uri: [types.TextEdit(range=_whole(old), new_text=new)]})


def _suppression(uri: str, lines: list[str], finding: Finding) -> types.CodeAction:
    """A comment alone on the line above the finding's line: it covers that line (a reason must be filled in)."""
    line = max(finding.line - 1, 0)
    target = lines[line] if line < len(lines) else ""
    indent = target[: len(target) - len(target.lstrip())].replace("- ", "  ")
    comment = f"{indent}# qlint: ignore[{finding.rule}] explain why this is fine\n"
    return types.CodeAction(
        title=f"Suppress {finding.rule} on this line (with a reason)", kind=types.CodeActionKind.QuickFix,
        edit=types.WorkspaceEdit(changes={uri: [types.TextEdit(
            range=types.Range(types.Position(line, 0), types.Position(line, 0)), new_text=comment)]}))


def code_actions(server: QlintServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    uri = params.text_document.uri
    document = server.workspace.get_text_document(uri)
    path = _path(uri)
    checked = server.checked.get(uri)
    if path is None or checked is None:
        return []
    text, lines = document.source, document.source.splitlines()
    wanted = {(d.range.start.line, str(d.code)) for d in params.context.diagnostics}
    here = [f for f in checked.findings if (f.line - 1, f"{f.code} {f.rule}") in wanted]
    actions = []
    for finding in here:
        if finding.fix is not None:
            fixed = fix_text(text, path, [finding])
            if fixed is not None and fixed != text:
                actions.append(types.CodeAction(title=f"Fix: {finding.fix.description}",
                                                kind=types.CodeActionKind.QuickFix, edit=_edit(uri, text, fixed),
                                                is_preferred=True))
        actions.append(_suppression(uri, lines, finding))
    fixable = [f for f in checked.findings if f.fix is not None]
    if fixable:
        fixed = fix_text(text, path, fixable)
        if fixed is not None and fixed != text:
            actions.append(types.CodeAction(title="Fix all safe fixes in this file",
                                            kind=types.CodeActionKind.SourceFixAll, edit=_edit(uri, text, fixed)))
    return actions


def hover(server: QlintServer, params: types.HoverParams) -> types.Hover | None:
    checked = server.checked.get(params.text_document.uri)
    if checked is None:
        return None
    line = params.position.line + 1
    rules = {f.rule for f in checked.findings if f.line == line}
    if not rules:
        return None
    registry = load_registry()
    cards = [card(registry.get(name)) for name in sorted(rules) if registry.get(name) is not None]
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n---\n".join(cards)))


def completion(server: QlintServer, params: types.CompletionParams) -> types.CompletionList:
    document = server.workspace.get_text_document(params.text_document.uri)
    lines = document.source.splitlines()
    line = lines[params.position.line] if params.position.line < len(lines) else ""
    before = line[: params.position.character]
    if _SUPPRESSION_OPEN.search(before):
        items = [types.CompletionItem(label=r.name, kind=types.CompletionItemKind.Value, detail=r.code,
                                      documentation=r.summary) for r in load_registry()]
        return types.CompletionList(is_incomplete=False, items=items)
    if _KEY_POSITION.match(before):
        names = dict.fromkeys((*QUESTION_FIELDS, *OPTION_FIELDS, "questions"))
        items = [types.CompletionItem(label=name, kind=types.CompletionItemKind.Field, insert_text=f"{name}: ")
                 for name in names]
        return types.CompletionList(is_incomplete=False, items=items)
    return types.CompletionList(is_incomplete=False, items=[])


def build() -> QlintServer:
    """The server with every feature registered."""
    server = QlintServer()

    @server.feature(types.INITIALIZED)
    def initialized(ls: QlintServer, params: types.InitializedParams) -> None:
        # paths in messages ("similar to question 'x' at bank/a.yaml:3") read from the workspace, as in a terminal
        # opened there, whatever folder the editor started the server in; set once, before any check runs
        root = ls.workspace.root_path
        if root and os.path.isdir(root):
            os.chdir(root)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: QlintServer, params: types.DidOpenTextDocumentParams) -> None:
        schedule(ls, params.text_document.uri, 0.0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: QlintServer, params: types.DidChangeTextDocumentParams) -> None:
        schedule(ls, params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: QlintServer, params: types.DidSaveTextDocumentParams) -> None:
        schedule(ls, params.text_document.uri, 0.0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: QlintServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.checked.pop(params.text_document.uri, None)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri,
                                                                            diagnostics=[]))

    server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, types.CodeActionKind.SourceFixAll]))(code_actions)
    server.feature(types.TEXT_DOCUMENT_HOVER)(hover)
    server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=["[", ","]))(completion)
    return server


def serve() -> None:
    build().start_io()
