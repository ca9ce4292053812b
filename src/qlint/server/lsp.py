"""``qlint server``: a Language Server over stdio, so an editor shows qlint's findings as the author types.

Diagnostics come from the same run as ``qlint check`` (``qlint.server.runs``: a buffer under a config in its
workspace folder is checked with the rest of its bank and the cache; any other buffer alone), each check in a
worker process of its own, bounded in time, stopped when a newer version of the buffer arrives. A change is checked
once the author pauses (``DEBOUNCE`` seconds). Code actions offer each safe fix, "fix all" for the file, a
suppression comment whose reason the author writes, and the field name a schema finding suggests; hovering a
finding shows its rule's card; completion offers the keys valid where the cursor is, and rule names inside a
suppression.

The protocol is kept to the letter where pygls is lenient: a header block without a valid ``Content-Length`` is
answered with an error and reading resumes at the next message (it never swallows it), a request after
``shutdown`` is answered with InvalidRequest, and ``exit`` ends the process and its workers at once.

pygls and lsprotocol are the ``qlint[server]`` extra: ``qlint server`` says so when they are missing.
"""
from __future__ import annotations

import ast
import asyncio
import json
import logging
import os
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import RPCRequest
from pygls.protocol.language_server import lsp_method
from pygls.uris import to_fs_path

from qlint import __version__
from qlint.docs import card
from qlint.finding import Finding, Severity
from qlint.formats.table import BY_NAME
from qlint.model import OPTION_FIELDS, QUESTION_FIELDS, QuestionSettings
from qlint.registry import Registry, load_registry
from qlint.run.fix import fix_text
from qlint.run.pipeline import SetupError
from qlint.server.runs import DEFAULT_BUDGET, Outcome, Workers, plan_for, registry_for

DEBOUNCE = 0.3   # seconds of quiet after a keystroke before the buffer is checked
SOURCE = "qlint"
MAX_HEADER = 8192                 # bytes of headers before a message's body
MAX_BODY = 512 * 1024 * 1024      # bytes of one message's body
_SEVERITY = {Severity.ERROR: types.DiagnosticSeverity.Error, Severity.WARNING: types.DiagnosticSeverity.Warning,
             Severity.INFO: types.DiagnosticSeverity.Information}
_SUPPRESSION_OPEN = re.compile(r"#\s*qlint:\s*ignore(?:-question|-file)?\[([^\]]*)$")
_KEY_POSITION = re.compile(r"^(\s*)(-\s+)?([A-Za-z_]*)$")
_CONTENT_LENGTH = re.compile(rb"content-length[ \t]*:[ \t]*(.*?)[ \t]*", re.I | re.S)
_HEADER_START = re.compile(rb"content-length[ \t]*:", re.I)
_MISSPELT = re.compile(r"unknown key ('[^']+'|\"[^\"]+\") in [^;]*; did you mean ('[^']+'|\"[^\"]+\")\?$")
_DOC_FILES = (Path(__file__).parents[1] / "data" / "rules.md",              # shipped with the package
              Path(__file__).resolve().parents[3] / "docs" / "rules.md")    # a source checkout


@dataclass
class Diagnosed:
    """A buffer's latest findings, by the version of the text they were computed from."""

    version: int | None
    findings: list[Finding] = field(default_factory=list)
    registry: Registry | None = None   # the rules of the run that found them (its config's packs included)


@dataclass(frozen=True)
class Malformed:
    """A message whose header block gave no usable Content-Length: why, and the first bytes after it."""

    reason: str
    start: bytes


class QlintProtocol(LanguageServerProtocol):
    """pygls's protocol, answering a request that arrives after ``shutdown`` as LSP says: with InvalidRequest
    (pygls drops it, and the client waits for an answer that never comes), and ignoring a change to a document
    or notebook the client never opened (pygls raised KeyError and showed the user an error in the server)."""

    def handle_message(self, message) -> None:
        if self._shutdown and isinstance(message, RPCRequest) and message.method != types.EXIT:
            self.send_error(message.id, types.ErrorCodes.InvalidRequest,
                            f"{message.method}: the server has been shut down")
            return
        super().handle_message(message)

    def send_error(self, msg_id, code: int, message: str) -> None:
        """An error response; ``msg_id`` None is written as ``"id": null``, as JSON-RPC asks when no id is known."""
        self._send_data({"jsonrpc": "2.0", "id": msg_id, "error": {"code": int(code), "message": message}})

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        """pygls's update of an open document's text; a change to a document never opened is dropped: there is no
        text to apply it to (a client that means to open one sends didOpen)."""
        if unquote(params.text_document.uri) in self.workspace.text_documents:
            yield from super().lsp_text_document__did_change(params)

    @lsp_method(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def lsp_notebook_document__did_change(self, params: types.DidChangeNotebookDocumentParams):
        """pygls's update of an open notebook; a change to a notebook never opened is dropped, as for a document."""
        if unquote(params.notebook_document.uri) in self.workspace.notebook_documents:
            yield from super().lsp_notebook_document__did_change(params)


class QlintServer(LanguageServer):
    """The server's state: each open buffer's pending check and latest findings, and the workers checking them."""

    def __init__(self) -> None:
        super().__init__("qlint", __version__, protocol_cls=QlintProtocol)
        self.pending: dict[str, asyncio.Task] = {}
        self.checked: dict[str, Diagnosed] = {}
        self.workers = Workers(DEFAULT_BUDGET)
        self.told: set[str] = set()          # notes already shown once
        self.anchors: set[str] | None = None  # the rules reference's headings, read once
        # where buffers are planned (config files read): a thread of its own, so the message reader's never waits
        self.planner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="qlint-plan")

    def folders(self) -> list[str]:
        """The workspace folders (and root) as paths."""
        found = [to_fs_path(f.uri) for f in self.workspace.folders.values() if f.uri.startswith("file:")]
        root = self.workspace.root_path
        return [f for f in (*found, root) if f]

    def start_io(self, stdin=None, stdout=None) -> None:
        """Serve over the file descriptor ``stdin`` and the binary stream ``stdout`` until the input ends."""
        self.protocol.set_writer(StdoutWriter(stdout))
        try:
            asyncio.run(self._serve(stdin))
        except (BrokenPipeError, KeyboardInterrupt, SystemExit):
            pass

    async def _serve(self, fd: int) -> None:
        loop = asyncio.get_running_loop()
        framer = Framer(lambda n: loop.run_in_executor(self.thread_pool, os.read, fd, n))
        while True:
            message = await framer.next()
            if message is None:
                break
            if isinstance(message, Malformed):
                answer_malformed(self.protocol, message)
            else:
                handle_body(self.protocol, message)


class Framer:
    """LSP messages from a byte stream (the base protocol: header lines, a blank line, then Content-Length bytes of
    body). A header block with no usable Content-Length cannot say where its body ends: it comes back as
    ``Malformed``, and reading resumes at the next Content-Length header, so the message after it is kept."""

    def __init__(self, read) -> None:
        self.read = read   # n -> awaitable bytes, b"" at the end of input
        self.buffer = bytearray()

    async def _more(self) -> bool:
        chunk = await self.read(65536)
        self.buffer += chunk
        return bool(chunk)

    async def next(self) -> bytes | Malformed | None:
        """The next message's body, a Malformed one, or None at the end of input."""
        while (end := self.buffer.find(b"\r\n\r\n")) < 0:
            if len(self.buffer) > MAX_HEADER:
                return await self._resume(f"no end of headers in {MAX_HEADER:,} bytes", skip=1)
            if not await self._more():
                return None
        length = content_length(bytes(self.buffer[:end]))
        del self.buffer[: end + 4]
        if isinstance(length, str):
            return await self._resume(length)
        while len(self.buffer) < length:
            if not await self._more():
                return None
        body = bytes(self.buffer[:length])
        del self.buffer[:length]
        return body

    async def _resume(self, reason: str, skip: int = 0) -> Malformed:
        """Drop everything up to the next Content-Length header (the bad message's body), keeping its first bytes
        to tell which request it was."""
        start, kept = skip, bytearray()
        while (found := _HEADER_START.search(self.buffer, start)) is None:
            cut = max(skip, len(self.buffer) - 32)   # a header split between two reads is still found
            kept += self.buffer[:cut][: max(0, 65536 - len(kept))]
            del self.buffer[:cut]
            start = skip = 0
            if not await self._more():
                return Malformed(reason, bytes(kept + self.buffer[:65536]))
        kept += self.buffer[: found.start()][: max(0, 65536 - len(kept))]
        del self.buffer[: found.start()]
        return Malformed(reason, bytes(kept))


def content_length(header: bytes) -> int | str:
    """A header block's Content-Length, or why there is none to use."""
    values = [m.group(1) for line in header.split(b"\r\n") if (m := _CONTENT_LENGTH.fullmatch(line.strip()))]
    if not values:
        return "no Content-Length header"
    value = values[-1]
    if not value.isdigit():
        return f"Content-Length {value[:40].decode('latin-1')!r} is not a number"
    if int(value) > MAX_BODY:
        return f"Content-Length {int(value):,} is over the {MAX_BODY:,}-byte limit"
    return int(value)


def answer_malformed(protocol: QlintProtocol, message: Malformed) -> None:
    """A request behind a bad header still gets an answer (InvalidRequest, with its id when the bytes after the
    header hold one); anything else a parse error, as JSON-RPC asks."""
    try:
        data, _ = json.JSONDecoder().raw_decode(message.start.decode("utf-8", "replace").lstrip())
    except ValueError:
        data = None
    if isinstance(data, dict) and "id" in data and "method" in data:
        protocol.send_error(data["id"], types.ErrorCodes.InvalidRequest, f"malformed message: {message.reason}")
    else:
        protocol.send_error(None, types.ErrorCodes.ParseError, f"malformed message: {message.reason}")


def handle_body(protocol: QlintProtocol, body: bytes) -> None:
    """One message's body to pygls; a body that is not a JSON-RPC message is answered with the error it is."""
    try:
        message = json.loads(body, object_hook=protocol.structure_message)
    except JsonRpcException as exc:   # a known method with parameters of the wrong shape
        try:
            raw = json.loads(body)
        except ValueError:
            raw = {}
        if isinstance(raw, dict) and "id" in raw and "method" in raw:
            protocol.send_error(raw["id"], exc.code, exc.message)
        return
    except (ValueError, UnicodeDecodeError, RecursionError):
        protocol.send_error(None, types.ErrorCodes.ParseError, "the message body is not JSON")
        return
    if not hasattr(message, "jsonrpc"):
        protocol.send_error(None, types.ErrorCodes.InvalidRequest, "not a JSON-RPC message")
        return
    try:
        protocol.handle_message(message)
    except SystemExit:
        raise
    except Exception:  # pygls answers a failed request itself; this is a failure outside any handler
        logging.getLogger(__name__).exception("message not handled")


def _path(uri: str) -> str | None:
    return to_fs_path(uri) if uri.startswith("file:") else None


def opened(server: QlintServer, uri: str):
    """The buffer the client opened at ``uri``, or None: for any other URI pygls would read the file from disk, so a
    request about a document never opened (``file:///etc/shadow``) would make the server read it."""
    return server.workspace.text_documents.get(unquote(uri))


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


def rules_reference(server: QlintServer) -> tuple[Path | None, set[str]]:
    """The rules reference on this machine (shipped with qlint, or in a source checkout) and its headings' anchors."""
    reference = next((p for p in _DOC_FILES if p.is_file()), None)
    if server.anchors is None:
        text = reference.read_text(encoding="utf-8") if reference is not None else ""
        server.anchors = {f"{m[1]}-{m[2].lower()}" for m in re.finditer(r"^## (\S+) \((\w+)\)$", text, re.M)}
    return reference, server.anchors


def docs_link(server: QlintServer, finding: Finding) -> types.CodeDescription | None:
    """A link the user can open offline: the rule's section of the rules reference on this machine; none for a rule
    the reference does not hold (a plugin's) or when there is no reference (``qlint rule NAME`` prints the card)."""
    reference, anchors = rules_reference(server)
    anchor = f"{finding.rule}-{finding.code.lower()}"
    if reference is None or anchor not in anchors:
        return None
    return types.CodeDescription(href=f"{reference.resolve().as_uri()}#{anchor}")


def diagnostic(finding: Finding, lines: list[str], link: types.CodeDescription | None = None) -> types.Diagnostic:
    return types.Diagnostic(
        range=_range(finding, lines), message=finding.message, severity=_SEVERITY[finding.severity],
        code=f"{finding.code} {finding.rule}", source=SOURCE, code_description=link,
        data={"rule": finding.rule, "fixable": finding.fix is not None},
    )


def _note(server: QlintServer, text: str, kind: types.MessageType = types.MessageType.Warning) -> None:
    """Tell the user once (a window message), then only in the log (and only in the log after a thousand)."""
    if text in server.told or len(server.told) >= 1000:
        server.window_log_message(types.LogMessageParams(kind, text))
        return
    server.told.add(text)
    server.window_show_message(types.ShowMessageParams(kind, text))


def _publish(server: QlintServer, uri: str, version: int | None, text: str, outcome: Outcome,
             registry: Registry | None = None) -> None:
    lines = text.splitlines()
    if outcome.problem is not None:
        _note(server, f"qlint: {outcome.problem}", types.MessageType.Error)
        return
    if outcome.failed is not None:
        _note(server, f"qlint could not check {uri}: {outcome.failed}", types.MessageType.Error)
        return
    if outcome.timed_out:
        found: list[Finding] = []
        shown = [types.Diagnostic(
            range=types.Range(types.Position(0, 0), types.Position(0, max(1, len(lines[0]) if lines else 1))),
            severity=types.DiagnosticSeverity.Warning, source=SOURCE,
            message=(f"qlint stopped checking this buffer after {server.workers.budget:g} s (the time budget of a "
                     "check as you type); run qlint check on the file to see its findings"))]
    else:
        found = outcome.findings or []
        shown = [diagnostic(f, lines, docs_link(server, f)) for f in found]
    server.checked[uri] = Diagnosed(version, found, registry)
    server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, version=version,
                                                                            diagnostics=shown))


async def _later(server: QlintServer, uri: str, delay: float) -> None:
    await asyncio.sleep(delay)
    path = _path(uri)
    document = opened(server, uri)
    if path is None or document is None:
        return
    version, text = document.version, document.source
    try:
        # in a thread: it reads config files, and hundreds of buffers opened at once must not hold up the messages
        plan = await asyncio.get_running_loop().run_in_executor(server.planner, plan_for, path, server.folders())
        registry = await asyncio.get_running_loop().run_in_executor(server.planner, registry_for, plan)
    except SetupError as exc:
        _note(server, f"qlint: {exc}", types.MessageType.Error)
        return
    except Exception as exc:  # whatever a path or a folder does, the server goes on and says what happened
        _note(server, f"qlint could not check {uri}: {type(exc).__name__}: {exc}", types.MessageType.Error)
        return
    if plan.note:
        _note(server, f"qlint: {plan.note}")
    outcome = await server.workers.check(plan, text)
    now = opened(server, uri)
    if now is None or now.version != version:
        return   # a newer text arrived while this one was checked (its own check publishes), or it was closed
    _publish(server, uri, version, text, outcome, registry)


def schedule(server: QlintServer, uri: str, delay: float = DEBOUNCE) -> None:
    """Check the buffer once the author has paused: a newer change cancels the check of the older text, waiting or
    running (its worker is stopped)."""
    cancel(server, uri)
    server.pending[uri] = asyncio.ensure_future(_later(server, uri, delay))


def cancel(server: QlintServer, uri: str) -> None:
    waiting = server.pending.pop(uri, None)
    if waiting is not None and not waiting.done():
        waiting.cancel()


def _whole(text: str) -> types.Range:
    lines = text.split("\n")
    return types.Range(types.Position(0, 0), types.Position(len(lines), 0))


def _edit(uri: str, old: str, new: str) -> types.WorkspaceEdit:
    return types.WorkspaceEdit(changes={uri: [types.TextEdit(range=_whole(old), new_text=new)]})


def _snippets(server: QlintServer) -> bool:
    """Whether the client takes snippet edits in a workspace edit (LSP 3.18): a placeholder it selects for typing."""
    edits = getattr(getattr(server.client_capabilities, "workspace", None), "workspace_edit", None)
    return bool(getattr(edits, "snippet_edit_support", False))


def _suppression(server: QlintServer, uri: str, version: int | None, lines: list[str],
                 finding: Finding) -> types.CodeAction:
    """A comment alone on the line above the finding's line: it covers that line once its reason is written. The
    reason is left for the author: a client that takes snippets gets it as a placeholder selected for typing; any
    other gets no reason at all, so the comment is an invalid-suppression (and silences nothing) until one is
    written. A made-up reason would already count as one."""
    line = max(finding.line - 1, 0)
    target = lines[line] if line < len(lines) else ""
    indent = target[: len(target) - len(target.lstrip())].replace("- ", "  ")
    head = f"{indent}# qlint: ignore[{finding.rule}] "
    at = types.Range(types.Position(line, 0), types.Position(line, 0))
    if _snippets(server):
        escaped = head.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}")
        edit = types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(
            text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
            edits=[types.SnippetTextEdit(range=at, snippet=types.StringValue(f"{escaped}${{1:why this is fine}}\n"))])])
    else:
        edit = types.WorkspaceEdit(changes={uri: [types.TextEdit(range=at, new_text=head + "\n")]})
    return types.CodeAction(title=f"Suppress {finding.rule} on this line (then write the reason)",
                            kind=types.CodeActionKind.QuickFix, edit=edit)


def _rename_key(uri: str, lines: list[str], finding: Finding) -> types.CodeAction | None:
    """For "unknown key 'rationnale' ...; did you mean 'rationale'?": the key renamed, where the finding points."""
    match = _MISSPELT.search(finding.message) if finding.rule == "schema" else None
    if match is None:
        return None
    old, new = ast.literal_eval(match[1]), ast.literal_eval(match[2])
    line, column = finding.line - 1, finding.column - 1
    text = lines[line] if 0 <= line < len(lines) else ""
    written = next((w for w in (old, f"'{old}'", f'"{old}"') if text.startswith(w, column)), None)
    if written is None or not re.fullmatch(r"[\w-]+", new):
        return None
    replacement = new if written == old else written[0] + new + written[0]
    start = _utf16(text, column)
    return types.CodeAction(
        title=f"Rename {old!r} to {new!r}", kind=types.CodeActionKind.QuickFix, is_preferred=True,
        edit=types.WorkspaceEdit(changes={uri: [types.TextEdit(range=types.Range(
            types.Position(line, start), types.Position(line, _utf16(text, column + len(written)))),
            new_text=replacement)]}))


def code_actions(server: QlintServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    uri = params.text_document.uri
    document = opened(server, uri)
    path = _path(uri)
    checked = server.checked.get(uri)
    if path is None or checked is None or document is None:
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
        rename = _rename_key(uri, lines, finding)
        if rename is not None:
            actions.append(rename)
        actions.append(_suppression(server, uri, document.version, lines, finding))
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
    registry = _registry(server, params.text_document.uri)
    cards = [card(registry.get(name)) for name in sorted(rules) if registry.get(name) is not None]
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n---\n".join(cards)))


def _registry(server: QlintServer, uri: str) -> Registry:
    """The rules of the buffer's last check (its config's rule packs included); the installed ones before any."""
    checked = server.checked.get(uri)
    return checked.registry if checked is not None and checked.registry is not None else load_registry()


def _content(line: str) -> tuple[int, int, bool, str] | None:
    """A YAML line's first column, its key's column, whether it opens a list item, and its key (None for a blank
    or comment line)."""
    stripped = line.lstrip()
    if not stripped or stripped.startswith("#"):
        return None
    start = len(line) - len(stripped)
    dash = re.match(r"-(\s+|$)", stripped)
    rest = stripped[dash.end():] if dash else stripped
    key = re.match(r"([^\s:#{\[][^:#]*?)\s*:(\s|$)", rest)
    return start, start + (dash.end() if dash else 0), bool(dash), key[1] if key else ""


def key_context(lines: list[str], number: int, column: int, dash: int | None) -> tuple[str | None, set[str]]:
    """For a key typed at ``column`` of line ``number`` (whose list-item dash is at ``dash``, if it opens one): the
    key holding its mapping (None at the top of the file) and the keys that mapping already has."""
    siblings: set[str] = set()
    item = dash   # the dash column of the list item this mapping is, once known
    for i in range(min(number, len(lines)) - 1, -1, -1):   # a line past the end has every line above it
        found = _content(lines[i])
        if found is None:
            continue
        start, at, opens, key = found
        if item is None:
            if at == column:
                siblings.add(key)
                item = start if opens else None
            elif start < column:
                return key or None, siblings
        elif start < item or (start == item and not opens):
            return key or None, siblings
    for found in filter(None, map(_content, lines[number + 1:])):
        start, at, opens, key = found
        if start < column:   # the mapping ended, or the next list item began
            break
        if at == column and not opens:
            siblings.add(key)
    return None, siblings


def _keys_at(lines: list[str], number: int, before: str, registry: Registry) -> list[str]:
    """The keys that may be typed where ``before`` ends line ``number``: an option's inside ``options``, a
    question's inside ``questions`` or at the top of a one-question file, the settings inside ``qlint``, rule
    names inside its ``ignore``; none already in that mapping."""
    match = _KEY_POSITION.match(before)
    if match is None:
        return []
    dash = len(match[1]) if match[2] else None
    column = len(match[1]) + len(match[2] or "")
    owner, present = key_context(lines, number, column, dash)
    present.discard("")
    if owner == "options":
        names: tuple[str, ...] = OPTION_FIELDS
    elif owner == "questions":
        names = QUESTION_FIELDS
    elif owner == "qlint":
        names = tuple(QuestionSettings.model_fields)
    elif owner == "ignore":
        names = tuple(r.name for r in registry)
    elif owner is None and column == 0:
        names = ("questions",) if "questions" in present else QUESTION_FIELDS if present else (*QUESTION_FIELDS,
                                                                                                 "questions")
    else:
        return []
    return [n for n in names if n not in present]


def completion(server: QlintServer, params: types.CompletionParams) -> types.CompletionList:
    document = opened(server, params.text_document.uri)
    if document is None:
        return types.CompletionList(is_incomplete=False, items=[])
    lines = document.source.splitlines()
    number = params.position.line
    # the lines a position may name: the buffer's, and the empty one after a final line break (the "." stands for
    # it); past them there is nothing to complete
    if number >= len((document.source + ".").splitlines()):
        return types.CompletionList(is_incomplete=False, items=[])
    line = lines[number] if number < len(lines) else ""
    before = line[: params.position.character]   # a character past the line's end is its end, as LSP says
    if _SUPPRESSION_OPEN.search(before):
        items = [types.CompletionItem(label=r.name, kind=types.CompletionItemKind.Value, detail=r.code,
                                      documentation=r.summary) for r in _registry(server, params.text_document.uri)]
        return types.CompletionList(is_incomplete=False, items=items)
    path = _path(params.text_document.uri) or ""
    if not path.lower().endswith(BY_NAME["yaml"].suffixes):   # keys are completed in YAML banks only
        return types.CompletionList(is_incomplete=False, items=[])
    items = [types.CompletionItem(label=name, kind=types.CompletionItemKind.Field, insert_text=f"{name}: ")
             for name in _keys_at(lines, number, before, _registry(server, params.text_document.uri))]
    return types.CompletionList(is_incomplete=False, items=items)


def _lifecycle(server: QlintServer) -> None:
    @server.feature(types.INITIALIZE)
    def initialize(ls: QlintServer, params: types.InitializeParams) -> None:
        # a client may give checks a longer (or shorter) time budget: {"timeBudget": seconds}
        options = params.initialization_options
        budget = options.get("timeBudget") if isinstance(options, dict) else None
        if isinstance(budget, (int, float)) and not isinstance(budget, bool) and 0 < budget <= 3600:
            ls.workers.budget = float(budget)

    @server.feature(types.INITIALIZED)
    def initialized(ls: QlintServer, params: types.InitializedParams) -> None:
        # paths in messages ("similar to question 'x' at bank/a.yaml:3") read from the workspace, as in a terminal
        # opened there, whatever folder the editor started the server in; set once, before any check runs
        root = ls.workspace.root_path
        if root and os.path.isdir(root):
            os.chdir(root)

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: QlintServer, params: None) -> None:
        for uri in list(ls.pending):   # no check is wanted any more
            cancel(ls, uri)
        ls.workers.stop_all()

    @server.feature(types.EXIT)
    def exit_now(ls: QlintServer, params: None) -> None:
        finish(ls)


def finish(server: QlintServer) -> None:
    """End the process now, its workers with it: 0 after ``shutdown``, else 1 (as LSP asks)."""
    server.workers.stop_all(server_too=True)
    os._exit(0 if server.protocol._shutdown else 1)


def build() -> QlintServer:
    """The server with every feature registered."""
    server = QlintServer()
    _lifecycle(server)

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
        cancel(ls, params.text_document.uri)
        ls.checked.pop(params.text_document.uri, None)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri,
                                                                            diagnostics=[]))

    server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, types.CodeActionKind.SourceFixAll]))(code_actions)
    server.feature(types.TEXT_DOCUMENT_HOVER)(hover)
    server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=["[", ","]))(completion)
    return server


def _own_stdio() -> tuple[int, object]:
    """The protocol's own copies of standard input and output; descriptors 0 and 1 then point at the null device,
    so nothing else in the process or its workers (a print, a warning) can read from or write into the protocol."""
    stdin, stdout = os.dup(0), os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    return stdin, stdout


def serve() -> None:
    """Serve until ``exit`` or the end of input; either way the process and its workers end at once."""
    stdin, stdout = _own_stdio()
    server = build()
    try:
        server.start_io(stdin, stdout)
    finally:
        finish(server)
