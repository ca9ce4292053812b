"""``qlint server`` against a hostile client and hostile documents, spoken to byte by byte: malformed headers and
bodies, requests after shutdown, exit while checks run, buffers that take long, documents outside the workspace.
What it reads is watched with an audit hook installed in every process of the server (its workers too)."""
from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from helpers import SERVER_A as A, SERVER_B as B  # noqa: E402

from qlint.server.runs import MAX_CHECKS  # noqa: E402

HOOK = r'''
import os, sys
_log = os.environ.get("QLINT_AUDIT_LOG")
if _log:
    _fd = os.open(_log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    def _hook(event, args):
        if event in ("open", "os.scandir", "os.listdir") and args and isinstance(args[0], (str, bytes, os.PathLike)):
            path = os.fsdecode(args[0])
            os.write(_fd, f"{event}\t{os.path.abspath(path)}\n".encode("utf-8", "surrogateescape"))
    sys.addaudithook(_hook)
'''


def frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def request(msg_id, method: str, params=None) -> bytes:
    return frame({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})


def notify(method: str, params=None) -> bytes:
    return frame({"jsonrpc": "2.0", "method": method, "params": params})


class Server:
    """``qlint server`` in a subprocess, spoken to in raw bytes."""

    def __init__(self, cwd: Path, env: dict[str, str] | None = None) -> None:
        self.token = uuid.uuid4().hex
        environment = {**os.environ, "QLINT_SERVER_TEST": self.token, **(env or {})}
        self.process = subprocess.Popen([sys.executable, "-m", "qlint", "server"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=cwd, env=environment)
        self.buffer = b""

    def send(self, data: bytes) -> None:
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def read(self, timeout: float = 30) -> dict:
        end = time.monotonic() + timeout
        while True:
            head, sep, rest = self.buffer.partition(b"\r\n\r\n")
            if sep:
                length = int(next(line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length"))
                             .split(b":")[1])
                if len(rest) >= length:
                    self.buffer = rest[length:]
                    return json.loads(rest[:length])
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(self.buffer[-300:])
            ready, _, _ = select.select([self.process.stdout], [], [], left)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 65536)
                if not chunk:
                    raise EOFError(self.buffer[-300:])
                self.buffer += chunk

    def until(self, wanted, timeout: float = 60) -> dict:
        end = time.monotonic() + timeout
        while True:
            message = self.read(max(0.05, end - time.monotonic()))
            if wanted(message):
                return message

    def start(self, root: Path, options: dict | None = None, folders: list[Path] | None = None) -> None:
        self.send(request(1, "initialize", {"capabilities": {}, "rootUri": root.as_uri(),
                                            "initializationOptions": options,
                                            "workspaceFolders": [{"uri": f.as_uri(), "name": f.name}
                                                                 for f in folders or [root]]}))
        self.until(lambda m: m.get("id") == 1)
        self.send(notify("initialized", {}))

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.send(notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml",
                                                                   "version": version, "text": text}}))

    def diagnostics(self, uri: str, timeout: float = 60) -> dict:
        return self.until(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                          and m["params"]["uri"] == uri, timeout)["params"]

    def diagnostics_any(self, timeout: float = 60) -> str:
        """The document the next diagnostics are for."""
        return self.until(lambda m: m.get("method") == "textDocument/publishDiagnostics", timeout)["params"]["uri"]

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)
        self.process.stdin.close()
        self.process.stdout.close()


@pytest.fixture
def server(tmp_path: Path):
    started: list[Server] = []

    def make(cwd: Path | None = None, env: dict[str, str] | None = None) -> Server:
        started.append(Server(cwd or tmp_path, env))
        return started[-1]

    yield make
    for one in started:
        one.close()


def _hover(msg_id: int) -> bytes:
    return request(msg_id, "textDocument/hover", {"textDocument": {"uri": "file:///nowhere.yaml"},
                                                 "position": {"line": 0, "character": 0}})


# -- the base protocol ---------------------------------------------------------------------------------------

BAD_HEADERS = {
    "not a number": b"Content-Length: abc\r\n\r\n",
    "negative": b"Content-Length: -5\r\n\r\n",
    "huge": b"Content-Length: 99999999999999999999\r\n\r\n",
    "missing": b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n",
    "no colon": b"Content-Length 12\r\n\r\n",
}


def test_a_bad_content_length_is_answered_and_swallows_no_request(server, tmp_path):
    one = server()
    one.start(tmp_path)
    for number, header in enumerate(sorted(BAD_HEADERS)):
        bad, good = 10 + 2 * number, 11 + 2 * number
        request_text = json.dumps({"jsonrpc": "2.0", "id": bad, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": "file:///x.yaml"}, "position": {"line": 0, "character": 0}}})
        one.send(BAD_HEADERS[header] + request_text.encode() + _hover(good))
        answers = {}
        while good not in answers:
            message = one.read()
            answers[message.get("id")] = message
        error = answers[bad]["error"]
        assert error["code"] == -32600 and "malformed message" in error["message"], (header, answers)
        assert "result" in answers[good], header
    one.send(request(4, "shutdown"))
    assert one.until(lambda m: m.get("id") == 4)["result"] is None


def test_headers_that_never_end_are_bounded_and_the_next_message_is_read(server, tmp_path):
    one = server()
    one.start(tmp_path)
    one.send(b"X-Junk: " + b"x" * 100_000 + b"\r\n" + _hover(5))
    message = one.read()
    assert message["id"] is None and message["error"]["code"] == -32700
    assert one.until(lambda m: m.get("id") == 5).get("result", "missing") is None
    for number, (body, code) in enumerate(((b"hello", -32700), (b"[1, 2]", -32600), (b'{"jsonrpc": "2.0"', -32700),
                                           (b"[" * 100_000, -32700))):
        one.send(b"Content-Length: %d\r\n\r\n" % len(body) + body + _hover(20 + number))
        message = one.read()
        assert message["id"] is None and message["error"]["code"] == code, (body[:20], message)
        assert "result" in one.until(lambda m, wanted=20 + number: m.get("id") == wanted)


def test_a_request_after_shutdown_is_an_invalid_request_and_exit_still_works(server, tmp_path):
    one = server()
    one.start(tmp_path)
    one.send(request(2, "shutdown"))
    assert one.until(lambda m: m.get("id") == 2)["result"] is None
    one.send(_hover(3))
    answer = one.until(lambda m: m.get("id") == 3)
    assert answer["error"]["code"] == -32600, answer
    one.send(notify("exit"))
    assert one.process.wait(10) == 0


# -- busy checks: starvation, superseded work, the budget, exit ------------------------------------------------


def slow_bank(questions: int = 3000) -> str:
    """A bank buffer whose check takes seconds (thousands of similar stems for the near-duplicate search)."""
    return "questions:\n" + "".join(
        f"  - id: q{i}\n    stem: Question number {i} asks about the topic {i * 7} and what it means for the system"
        f" {i % 13}?\n    options:\n      - {{text: First answer {i}, correct: true, rationale: Correct. Because {i}.}}\n"
        f"      - {{text: Second answer {i}, rationale: Incorrect. Because not {i}.}}\n" for i in range(questions))


HOSTILE_GIFT = "::q1:: What is " + "<a" * 60_000 + " {=yes ~no}\n"   # 120 KB; minutes of HTML parsing before


def _workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "bank").mkdir(parents=True)
    (root / "qlint.toml").write_text('paths = ["bank"]\n', encoding="utf-8")
    (root / "bank" / "a.yaml").write_text(A, encoding="utf-8")
    return root


def test_slow_buffers_do_not_starve_a_normal_one(server, tmp_path):
    root = _workspace(tmp_path)
    one = server(root)
    one.start(root)
    for i in range(7):
        one.send(notify("textDocument/didOpen", {"textDocument": {
            "uri": (root / "bank" / f"h{i}.gift").as_uri(), "languageId": "gift", "version": 1, "text": HOSTILE_GIFT}}))
    started = time.monotonic()
    uri = (root / "bank" / "b.yaml").as_uri()
    one.open(uri, B)
    published = one.diagnostics(uri, timeout=60)
    waited = time.monotonic() - started
    assert published["version"] == 1
    assert waited < 30, waited   # 79 s behind seven such buffers when they were checked in the server's threads


def test_a_newer_version_stops_the_check_of_the_old_one(server, tmp_path):
    """The first diagnostics after the change are the new text's, not those of the slow check still running on the
    old one (which used to finish first, and was even published under the new version number)."""
    root = _workspace(tmp_path)
    one = server(root)
    one.start(root)
    uri = (root / "bank" / "b.yaml").as_uri()
    one.open(uri, slow_bank(15000))   # seconds of checking: still running when the change arrives, however busy
    time.sleep(1)                      # the machine (the debounce has passed and the worker has the old text)
    newer = B.replace(", rationale: Incorrect. That is 128 samples.", "")
    one.send(notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                               "contentChanges": [{"text": newer}]}))
    published = one.diagnostics(uri, timeout=120)
    assert published["version"] == 2, published
    assert [d for d in published["diagnostics"] if "missing-rationale" in str(d["code"])], published


def test_the_time_budget_stops_a_check_and_says_so(server, tmp_path):
    root = _workspace(tmp_path)
    one = server(root)
    one.start(root, {"timeBudget": 0.5})
    uri = (root / "bank" / "big.yaml").as_uri()
    one.open(uri, slow_bank())
    (shown,) = one.diagnostics(uri, timeout=30)["diagnostics"]
    assert "stopped checking this buffer after 0.5 s" in shown["message"]


def _alive(token: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and token.encode() in (entry / "environ").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc to see the workers")
def test_exit_ends_the_server_and_every_worker_at_once(server, tmp_path):
    root = _workspace(tmp_path)
    one = server(root)
    one.start(root)
    for i in range(3):
        one.open((root / "bank" / f"big{i}.yaml").as_uri(), slow_bank())
    deadline = time.monotonic() + 60
    # the server, its fork server and resource tracker, and the three workers, busy
    while len(_alive(one.token)) < 6 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert len(_alive(one.token)) >= 6
    started = time.monotonic()
    one.send(notify("exit"))
    assert one.process.wait(10) == 1   # exit without shutdown
    assert time.monotonic() - started < 3
    while _alive(one.token) and time.monotonic() - started < 5:
        time.sleep(0.1)
    assert not _alive(one.token)


# -- where a document is checked: never outside the workspace --------------------------------------------------


@pytest.fixture
def audited(tmp_path: Path) -> tuple[dict[str, str], Path]:
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(HOOK, encoding="utf-8")
    log = tmp_path / "audit.log"
    path = os.pathsep.join(p for p in (str(hook), os.environ.get("PYTHONPATH")) if p)
    return {"PYTHONPATH": path, "QLINT_AUDIT_LOG": str(log)}, log


def _touched(log: Path, under: Path | str) -> list[str]:
    under = str(under).rstrip("/")
    lines = log.read_text(encoding="utf-8", errors="replace").splitlines() if log.exists() else []
    return [line for line in lines if (line.split("\t", 1)[1] + "/").startswith(under + "/")]


# a near-duplicate of A's question, and an option without a rationale: a finding whether checked alone or not
COPY = B.replace(B.splitlines()[1], A.splitlines()[1]).replace(", rationale: Incorrect. That is 128 samples.", "")


def _other_project(tmp_path: Path) -> Path:
    other = tmp_path / "other"
    (other / "bank").mkdir(parents=True)
    (other / "qlint.toml").write_text('paths = ["bank"]\n', encoding="utf-8")
    (other / "bank" / "a.yaml").write_text(A, encoding="utf-8")   # a near-duplicate for the document below
    return other


def test_a_document_of_another_project_is_checked_alone(server, tmp_path, audited):
    env, log = audited
    root = _workspace(tmp_path)
    other = _other_project(tmp_path)
    one = server(root, env)
    one.start(root)
    uri = (other / "bank" / "c.yaml").as_uri()
    one.open(uri, COPY)
    found = one.diagnostics(uri)["diagnostics"]
    assert found and not [d for d in found if "near-duplicate-stem" in str(d["code"])], found
    assert not (other / ".qlint_cache").exists() and not (other / "bank" / ".qlint_cache").exists()
    assert _touched(log, other) == []   # not its config, not its bank, not a folder listing


def test_a_system_file_or_the_root_is_checked_alone_without_a_walk(server, tmp_path, audited):
    env, log = audited
    root = _workspace(tmp_path)
    one = server(root, env)
    one.start(root)
    for uri in ("file:///etc/passwd", "file:///", "file:///etc/", "file:///proc/self/environ"):
        one.open(uri, "root:x:0:0:root:/root:/bin/bash\n")
        one.diagnostics(uri, timeout=60)
    walked = [line for line in log.read_text(encoding="utf-8").splitlines()
              if line.startswith(("os.scandir", "os.listdir")) and (line.endswith("\t/") or "\t/etc" in line
                                                                    or "\t/proc" in line)]
    assert walked == []
    assert not _touched(log, "/etc/passwd") and not Path("/.qlint_cache").exists()
    one.send(request(9, "shutdown"))
    one.until(lambda m: m.get("id") == 9)
    one.send(notify("exit"))
    assert one.process.wait(10) == 0


def test_discovery_never_climbs_above_the_workspace_folder(server, tmp_path, audited):
    """The editor opened ws/sub; a config and a bank above it are not the workspace's to read."""
    env, log = audited
    root = _workspace(tmp_path)
    sub = root / "sub"
    sub.mkdir()
    one = server(sub, env)
    one.start(sub)
    uri = (sub / "c.yaml").as_uri()
    one.open(uri, COPY)
    found = one.diagnostics(uri)["diagnostics"]
    assert found and not [d for d in found if "near-duplicate-stem" in str(d["code"])], found
    assert _touched(log, root / "bank") == [] and _touched(log, root / "qlint.toml") == []
    assert not (root / ".qlint_cache").exists()


def test_inside_the_workspace_the_buffer_is_still_compared_with_its_bank(server, tmp_path, audited):
    env, log = audited
    root = _workspace(tmp_path)
    one = server(root, env)
    one.start(root)
    uri = (root / "bank" / "c.yaml").as_uri()
    one.open(uri, COPY)
    found = one.diagnostics(uri)["diagnostics"]
    assert [d for d in found if "near-duplicate-stem" in str(d["code"])], found
    assert _touched(log, root / "bank" / "a.yaml")


def test_a_config_whose_bank_lies_outside_the_workspace_is_refused_and_never_read(server, tmp_path, audited):
    """A bank is read from its config's folder down: a config naming another project's bank is a configuration
    error the server shows, and the other project is never opened or listed."""
    env, log = audited
    root = _workspace(tmp_path)
    other = _other_project(tmp_path)
    (root / "qlint.toml").write_text(f'paths = ["bank", {json.dumps(str(other / "bank"))}]\n', encoding="utf-8")
    one = server(root, env)
    one.start(root)
    uri = (root / "bank" / "c.yaml").as_uri()
    one.open(uri, COPY)
    note = one.until(lambda m: m.get("method") == "window/showMessage")
    assert "qlint.toml:1: paths:" in note["params"]["message"]
    assert "a bank is read from the config's folder down" in note["params"]["message"]
    one.send(request(9, "shutdown", None))
    one.until(lambda m: m.get("id") == 9)
    assert _touched(log, other) == []


def test_a_config_that_extends_one_above_the_workspace_is_checked_alone(server, tmp_path, audited):
    """``extend`` may name a config in a folder above: one above the workspace folder made the outer config's
    folder the root, so the server read that config and wrote its .qlint_cache there, outside the workspace. Such a
    buffer is checked alone, with a note, and nothing above the workspace is opened or written."""
    env, log = audited
    root = _workspace(tmp_path)
    (tmp_path / "qlint.toml").write_text('paths = ["ws/bank"]\n', encoding="utf-8")   # another project's config
    (root / "qlint.toml").write_text('extend = "../qlint.toml"\npaths = ["bank"]\n', encoding="utf-8")
    one = server(root, env)
    one.start(root)
    uri = (root / "bank" / "c.yaml").as_uri()
    one.open(uri, COPY)
    found = one.diagnostics(uri)["diagnostics"]
    assert [d for d in found if "missing-rationale" in str(d["code"])], found
    assert not [d for d in found if "near-duplicate-stem" in str(d["code"])], found   # alone: no bank
    one.send(request(9, "shutdown", None))
    one.until(lambda m: m.get("id") == 9)
    assert not (tmp_path / ".qlint_cache").exists() and not (root / ".qlint_cache").exists()
    assert not [line for line in _touched(log, tmp_path / "qlint.toml")], _touched(log, tmp_path / "qlint.toml")


def test_a_link_in_the_bank_to_a_file_outside_the_workspace_is_never_read(server, tmp_path, audited):
    """The bank's walk follows no link out of the folder it walks: a planted ``bank/x.yaml -> ../../secret.yaml``
    would have put the secret file's keys into the diagnostics of every buffer."""
    env, log = audited
    root = _workspace(tmp_path)
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "creds.yaml").write_text("aws_secret_access_key: not-for-your-eyes\n", encoding="utf-8")
    os.symlink(secret / "creds.yaml", root / "bank" / "link.yaml")
    one = server(root, env)
    one.start(root)
    uri = (root / "bank" / "c.yaml").as_uri()
    one.open(uri, COPY)
    found = one.diagnostics(uri)["diagnostics"]
    assert [d for d in found if "near-duplicate-stem" in str(d["code"])], found   # the bank is read
    one.send(request(9, "shutdown", None))
    one.until(lambda m: m.get("id") == 9)
    assert _touched(log, secret) == [] and not [line for line in _touched(log, root) if "link.yaml" in line]


def test_requests_about_a_document_never_opened_read_nothing_from_disk(server, tmp_path, audited):
    """pygls hands a handler a document it was never sent by reading the file from disk: a didSave, a completion
    or a code action naming ``file:///.../secret.yaml`` made the server open (and check) that file, and a completion
    for a missing one answered with an error carrying a traceback. Only buffers the client opened are looked at."""
    env, log = audited
    root = _workspace(tmp_path)
    secret = tmp_path / "secret.yaml"
    secret.write_text("password: hunter2\n", encoding="utf-8")
    one = server(root, env)
    one.start(root)
    uri = secret.as_uri()
    one.send(notify("textDocument/didSave", {"textDocument": {"uri": uri}}))
    one.send(request(5, "textDocument/completion", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 3}}))
    one.send(request(6, "textDocument/completion", {"textDocument": {"uri": (tmp_path / "gone.yaml").as_uri()},
                                                    "position": {"line": 0, "character": 0}}))
    one.send(request(7, "textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}},
        "context": {"diagnostics": []}}))
    answers = {m["id"]: m for m in (one.until(lambda m: m.get("id") == i) for i in (5, 6, 7))}
    assert all("error" not in answer for answer in answers.values()), answers
    assert answers[5]["result"]["items"] == [] and answers[6]["result"]["items"] == []
    one.send(request(9, "shutdown", None))
    one.until(lambda m: m.get("id") == 9)
    assert _touched(log, secret) == []


def test_the_buffer_opened_last_is_not_checked_last(server, tmp_path):
    """An editor restoring a session opens hundreds of buffers at once: checks waited in the order they came, so the
    buffer the author opened last, the one they look at, waited for every other (97 s behind 300), and planning
    each buffer on the message loop held up every request (a hover took 7 s). The newest check waiting goes first,
    and requests are answered while the rest wait."""
    root = _workspace(tmp_path)
    one = server(root)
    one.start(root)
    many = 48
    for i in range(many):   # the first to come take every worker, for seconds: all the others wait behind them
        text = slow_bank() if i < MAX_CHECKS else COPY.replace("id: c", f"id: m{i}")
        one.open((root / "bank" / f"m{i}.yaml").as_uri(), text)
    last = (root / "bank" / "last.yaml").as_uri()
    one.open(last, COPY.replace("id: c", "id: last"))
    one.send(_hover(70))
    one.until(lambda m: m.get("id") == 70)   # answered while the checks wait
    order = []
    while last not in order:
        order.append(one.diagnostics_any(120))
    # first in, first out made it the last of all (49th); newest first, it takes one of the first workers freed once
    # it is planned (a loaded machine may free a few before that)
    assert len(order) <= many // 2, f"the buffer opened last was checked {len(order)}th of {many + 1}"


def test_a_freed_place_goes_to_the_newest_waiter():
    """The order the server's checks take their places in, without a server or a clock: three waiters behind two
    holders; each place freed goes to the waiter that came last, and a cancelled waiter passes its place on."""
    import asyncio

    from qlint.server.runs import Newest

    async def scenario() -> list[str]:
        places, got = Newest(2), []
        release = {name: asyncio.Event() for name in ("a", "b", "c", "d", "e")}

        async def hold(name: str) -> None:
            async with places:
                got.append(name)
                await release[name].wait()

        tasks = {}
        for name in ("a", "b", "c", "d", "e"):
            tasks[name] = asyncio.create_task(hold(name))
            await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert got == ["a", "b"]
        tasks["d"].cancel()           # waiting: it leaves the queue
        release["a"].set()
        for _ in range(5):
            await asyncio.sleep(0)
        release["b"].set()
        for _ in range(5):
            await asyncio.sleep(0)
        release["e"].set()
        release["c"].set()
        await asyncio.gather(*(t for n, t in tasks.items() if n != "d"))
        return got

    assert asyncio.run(scenario()) == ["a", "b", "e", "c"]


def test_a_rule_the_reference_does_not_hold_gets_no_link(monkeypatch, tmp_path):
    from qlint.finding import Finding, Severity
    from qlint.server import lsp as module

    made = module.QlintServer()
    finding = Finding("b.yaml", 1, 1, "Q304", "option-order", Severity.WARNING, "m")
    assert module.docs_link(made, finding).href.endswith("rules.md#option-order-q304")
    assert module.docs_link(made, Finding("b.yaml", 1, 1, "X900", "my-plugin-rule", Severity.WARNING, "m")) is None
    monkeypatch.setattr(module, "_DOC_FILES", (tmp_path / "missing.md",))
    made = module.QlintServer()
    assert module.docs_link(made, finding) is None


def test_odd_document_uris_are_each_checked_alone(server, tmp_path):
    root = _workspace(tmp_path)
    one = server(root)
    one.start(root)
    uris = [f"{root.as_uri()}/%00x.yaml", "file://server/share/x.yaml", f"{root.as_uri()}/{'a' * 5000}.yaml",
            f"{root.as_uri()}/x%2Fy.yaml", "file:///dev/zero", f"{root.as_uri()}/..%2F..%2Fetc%2Fpasswd",
            "file:///C:/x.yaml"]
    for uri in uris:
        one.open(uri, "id: x\nstem: s\n")
    published = set()
    while published != set(uris):
        published.add(one.diagnostics_any(timeout=60))
    one.send(notify("exit"))
    assert one.process.wait(10) == 1


def test_the_config_search_stops_at_the_workspace_folder(tmp_path):
    from qlint.server.runs import config_within, plan_for

    (tmp_path / "qlint.toml").write_text('paths = ["bank"]\n', encoding="utf-8")
    workspace = tmp_path / "ws"
    (workspace / "deep").mkdir(parents=True)
    for opened in (workspace, workspace / "x.yaml", workspace / "deep" / "x.yaml"):
        assert config_within(str(opened), str(workspace)) is None, opened
        assert not plan_for(str(opened), [str(workspace)]).with_bank
    (workspace / "pyproject.toml").write_text("[project]\nname = 'x'\n", encoding="utf-8")   # no [tool.qlint]
    assert config_within(str(workspace / "deep" / "x.yaml"), str(workspace)) is None
    (workspace / "deep" / ".qlint.toml").write_text("", encoding="utf-8")
    assert config_within(str(workspace / "deep" / "x.yaml"), str(workspace)) == workspace / "deep" / ".qlint.toml"


# -- positions and documents the client made up ----------------------------------------------------------------

ENDS_WITH_BREAK = "questions:\n  - id: r1\n    stem: Which of these is right?\n    options:\n" \
                  "      - {text: a, correct: true, rationale: C.}\n      - {text: b, rationale: I.}\n"


def _at(uri: str, line: int, character: int = 0) -> dict:
    return {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}


def test_positions_past_the_end_of_a_buffer_answer_empty(server, tmp_path):
    """A completion one line past the last (line 7 of a buffer of six lines and a final break) answered with an
    internal error, IndexError, from the key search; hover and code actions there answered empty already. A line
    past the end has nothing to complete, hover or act on; a character past a line's end is its end, as LSP says."""
    root = _workspace(tmp_path)
    one = server(root)
    one.start(root)
    uri = (root / "bank" / "g.yaml").as_uri()
    unbroken = (root / "bank" / "h.yaml").as_uri()   # no final line break: its last line is line 5
    one.open(uri, ENDS_WITH_BREAK)
    one.open(unbroken, ENDS_WITH_BREAK.rstrip("\n"))
    one.diagnostics(uri)
    asked = {10: (uri, 6, 0), 11: (uri, 5, 400), 12: (uri, 7, 0), 13: (uri, 100, 0), 14: (uri, 10**9, 10**9),
             15: (unbroken, 6, 0), 16: (unbroken, 7, 0)}
    for msg_id, (target, line, character) in asked.items():
        one.send(request(msg_id, "textDocument/completion", _at(target, line, character)))
    for msg_id, line in ((20, 7), (21, 10**9)):
        one.send(request(msg_id, "textDocument/hover", _at(uri, line)))
        at = {"line": line, "character": 0}
        one.send(request(msg_id + 10, "textDocument/codeAction", {"textDocument": {"uri": uri}, "range": {
            "start": at, "end": at}, "context": {"diagnostics": []}}))
    answers: dict = {}
    while len(answers) < len(asked) + 4:
        message = one.read()
        if "id" in message:
            answers[message["id"]] = message
    assert all("error" not in answer for answer in answers.values()), answers
    assert isinstance(answers[10]["result"]["items"], list)   # the empty line after the final break is a line
    assert all(answers[i]["result"]["items"] == [] for i in (12, 13, 14, 15, 16)), answers
    assert answers[20]["result"] is None and answers[21]["result"] is None
    assert answers[30]["result"] == [] and answers[31]["result"] == []


def test_a_change_to_a_document_never_opened_is_ignored(server, tmp_path):
    """A didChange for a document the client never opened made pygls raise KeyError, which the user saw as "Error
    in server: KeyError: 'file:///…'". It is dropped without a word: nothing is opened, checked or shown."""
    root = _workspace(tmp_path)
    one = server(root)
    one.start(root)
    ghost = (root / "bank" / "never-opened.yaml").as_uri()
    one.send(notify("textDocument/didChange", {"textDocument": {"uri": ghost, "version": 2},
                                               "contentChanges": [{"text": "questions: []\n"}]}))
    one.send(notify("textDocument/didChange", {"textDocument": {"uri": ghost, "version": 3}, "contentChanges": [
        {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "x"}]}))
    one.send(notify("notebookDocument/didChange", {"notebookDocument": {"uri": "file:///nb.ipynb", "version": 2},
                                                   "change": {}}))
    one.send(request(40, "textDocument/completion", _at(ghost, 0, 1)))
    seen = []
    while not seen or seen[-1].get("id") != 40:
        seen.append(one.read())
    assert [m for m in seen if m.get("method") in ("window/showMessage", "textDocument/publishDiagnostics")] == []
    assert seen[-1]["result"]["items"] == []   # still not a document the server holds
    uri = (root / "bank" / "b.yaml").as_uri()   # and the server goes on
    one.open(uri, B)
    assert one.diagnostics(uri)["version"] == 1


def test_the_key_search_stops_at_the_last_line():
    from qlint.server.lsp import key_context

    lines = ENDS_WITH_BREAK.splitlines()
    assert key_context(lines, len(lines) + 5, 0, None) == key_context(lines, len(lines), 0, None)
