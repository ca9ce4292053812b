"""How the editor server checks a buffer: where (with its bank, or alone) and in what (a worker process of its own).

Where: a buffer inside a workspace folder whose config lies at or above it, within that folder, is checked as
``qlint check`` checks it (``run_check`` on the text as stdin, under that config: the rest of the bank and its cache);
every other buffer is checked alone, with no bank and no cache, and nothing outside the workspace is read or
written. So a document of another project, ``file:///etc/passwd`` or ``file:///`` never makes the server walk a
folder tree or leave a ``.qlint_cache/`` behind, and discovery never climbs above the workspace folder.

In what: each check runs in a worker process started for it, so a buffer that takes long cannot hold up another
(the system shares the processors among them), a newer version of the buffer stops the check of the old one, a check
that runs past the time budget is stopped and says so, and ``exit`` ends every one of them at once.
"""
from __future__ import annotations

import asyncio
import multiprocessing
import multiprocessing.forkserver
import os
import pkgutil
import signal
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

import qlint.rules
from qlint.config import CONFIG_FILES, Config, ConfigError, Settings, extends_outside, read_toml, resolve_rules
from qlint.files import relative
from qlint.finding import Finding, finding
from qlint.problems import PARSE_ERROR
from qlint.registry import Registry, load_registry
from qlint.run.pipeline import SetupError, check_sources, run_check, setup

MAX_CHECKS = 8          # worker processes at once; more buffers wait for one to finish
DEFAULT_BUDGET = 30.0   # seconds of wall time one buffer's check may take


@dataclass(frozen=True)
class Plan:
    """How to check one buffer: under ``config`` (None: the defaults), with its bank or alone."""

    path: str
    config: str | None
    with_bank: bool
    note: str | None = None   # why a buffer with a config is checked alone, said once to the user


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def workspace_of(path: str, folders: Sequence[str]) -> str | None:
    """The deepest workspace folder holding ``path`` (both as real paths), or None (also for a path no file can
    have, such as one holding a NUL)."""
    real = _real(path)
    holding = [f for f in map(_real, folders) if real is not None and f is not None and _inside(real, f)]
    return max(holding, key=len) if holding else None


def _real(path: str) -> str | None:
    try:
        return os.path.realpath(path)
    except (ValueError, OSError):
        return None


def config_within(path: str, folder: str) -> Path | None:
    """The closest config file at or above ``path``'s folder, looking no higher than ``folder``."""
    here = Path(os.path.realpath(path)).parent
    top = Path(folder)
    while _inside(str(here), str(top)):
        for name in CONFIG_FILES:
            candidate = here / name
            if not os.path.isfile(candidate):
                continue
            if name != "pyproject.toml":
                return candidate
            tool = read_toml(candidate)[1].get("tool")
            if not isinstance(tool, dict):
                if tool is not None:   # load_config says where and why
                    return candidate
                continue
            if "qlint" in tool:
                return candidate
        if here == top or here == here.parent:
            break
        here = here.parent
    return None


def plan_for(path: str, folders: Sequence[str]) -> Plan:
    """Where the buffer ``path`` is checked (see the module docstring). A config that cannot be read is a
    SetupError, as it is for ``qlint check``."""
    folder = workspace_of(path, folders)
    if folder is None:
        return Plan(path, None, False)
    try:
        found = config_within(path, folder)
    except ConfigError as exc:
        raise SetupError(str(exc)) from None
    if found is None:
        return Plan(path, None, False)
    outside = extends_outside(found, Path(folder))
    if outside is not None:   # its bank, cache and paths would be those of a config above the workspace folder
        return Plan(path, None, False, f"{outside}, the workspace folder; buffers are checked alone, without the "
                                       "bank or that config")
    config, _ = setup(str(found), Path(path))
    # the bank a config names (its ``paths``; without them the run reads at most the config's own folder, which
    # lies in the workspace folder already)
    roots = [os.path.realpath(config.root / p) for p in config.settings.paths]
    outside = [r for r in roots if not _inside(r, folder)]
    if outside:
        return Plan(path, str(found), False, f"{found}: the bank path {outside[0]} lies outside the workspace "
                                             f"folder {folder}; buffers are checked alone, without the bank")
    return Plan(path, str(found), True)


def registry_for(plan: Plan) -> Registry:
    """The rules a check of ``plan`` runs with: those of its config (rule packs included), else the installed ones;
    what hover and completion name for that buffer."""
    return setup(plan.config, Path(plan.path))[1] if plan.config is not None else load_registry()


def findings_for(plan: Plan, text: str) -> list[Finding]:
    """What ``qlint check`` reports for ``text`` as the file ``plan.path``: against its bank, or alone."""
    data = text.encode("utf-8", "surrogatepass")
    if plan.with_bank:
        return run_check(["-"], stdin=data, stdin_filename=plan.path, config_path=plan.config, jobs=1).findings
    if plan.config is not None:
        config, registry = setup(plan.config, Path(plan.path))
    else:   # no config file is read: the defaults, as for a file no config covers
        config, registry = Config(Settings(), Path(plan.path).parent, None), load_registry()
    try:
        active = resolve_rules(config, registry)
    except ConfigError as exc:
        raise SetupError(str(exc)) from None
    name = relative(Path(plan.path))
    limit = config.settings.limits.max_file_size
    if len(data) > limit:
        return [finding(name, 1, 1, PARSE_ERROR,
                        f"the buffer is over the {limit:,}-byte limit (max-file-size); it was not checked")]
    return check_sources([(name, data)], active, limits=config.settings.limits,
                         all_rules=[r.name for r in registry] + [r.code for r in registry])


# -- worker processes -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """How a buffer's check ended: its findings, or why it has none."""

    findings: list[Finding] | None = None
    problem: str | None = None      # a configuration the run refused (shown as a message)
    timed_out: bool = False
    failed: str | None = None       # the worker ended without an answer


def _orphaned(parent: int) -> None:
    """End this worker once the process that started it is gone (the server was killed, or exited while this
    worker was starting): nothing is left running for a server that no longer exists."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def _child(conn: Connection, plan: Plan, text: str) -> None:
    """A worker's whole life: check the buffer, send the outcome, end."""
    threading.Thread(target=_orphaned, args=(os.getppid(),), daemon=True).start()
    # the language server speaks on standard output: nothing a check prints may reach it
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    try:
        outcome = Outcome(findings=findings_for(plan, text))
    except SetupError as exc:
        outcome = Outcome(problem=str(exc))
    except Exception as exc:  # a plugin or a bug: the server goes on, the user reads what happened
        outcome = Outcome(failed=f"{type(exc).__name__}: {exc}")
    conn.send(outcome)
    conn.close()


def _context():
    """Workers forked from a clean server process that has qlint imported (cheap to start, no threads copied);
    started afresh where the system cannot fork."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if "forkserver" in methods:   # the built-in rules imported once, not in every worker (a third of a second)
        rules = [f"qlint.rules.{m.name}" for m in pkgutil.iter_modules(qlint.rules.__path__)]
        context.set_forkserver_preload(["qlint.server.runs", *rules])
    return context


class Newest:
    """At most ``size`` holders at once; a freed place goes to the newest waiter, not the oldest. An editor that
    opens hundreds of files at once (a restored session) queues hundreds of checks: the buffer the author opened
    or edited last is the one they look at, and it must not wait for all the others (FIFO made it wait 97 s)."""

    def __init__(self, size: int) -> None:
        self.free = size
        self.waiting: list[asyncio.Future] = []

    async def __aenter__(self) -> None:
        if self.free > 0 and not self.waiting:
            self.free -= 1
            return
        place = asyncio.get_running_loop().create_future()
        self.waiting.append(place)
        try:
            await place
        except asyncio.CancelledError:
            if place in self.waiting:
                self.waiting.remove(place)
            elif not place.cancelled():   # given a place just as it was cancelled: pass it on
                self._release()
            raise

    async def __aexit__(self, *exc) -> None:
        self._release()

    def _release(self) -> None:
        while self.waiting:
            place = self.waiting.pop()
            if not place.done():
                place.set_result(None)
                return
        self.free += 1


class Workers:
    """The worker processes of the open buffers: at most one per buffer and ``MAX_CHECKS`` at once, the newest
    waiting check first."""

    def __init__(self, budget: float = DEFAULT_BUDGET) -> None:
        self.budget = budget
        self.running: dict[int, multiprocessing.process.BaseProcess] = {}
        self._slots = Newest(MAX_CHECKS)
        self._context = _context()

    async def check(self, plan: Plan, text: str) -> Outcome:
        """The buffer's outcome from a worker of its own; cancelling the call stops the worker."""
        async with self._slots:
            receive, send = self._context.Pipe(duplex=False)
            process = self._context.Process(target=_child, args=(send, plan, text), daemon=True)
            # started in a thread: the first start launches the fork server, which takes a second or two
            started = asyncio.get_running_loop().run_in_executor(None, process.start)
            try:
                await asyncio.shield(started)
            except asyncio.CancelledError:   # superseded while starting: stopped as soon as it has started
                started.add_done_callback(lambda _: process.kill())
                receive.close()
                raise
            finally:
                send.close()
            self.running[process.pid] = process
            try:
                return await asyncio.wait_for(self._answer(receive), self.budget)
            except TimeoutError:
                return Outcome(timed_out=True)
            finally:
                self._end(process)
                receive.close()

    async def _answer(self, receive: Connection) -> Outcome:
        loop = asyncio.get_running_loop()
        ready = loop.create_future()
        try:
            loop.add_reader(receive.fileno(), lambda: ready.done() or ready.set_result(None))
        except (NotImplementedError, AttributeError):   # an event loop without readers: a thread waits instead
            await loop.run_in_executor(None, receive.poll, None)
        else:
            try:
                await ready
            finally:
                loop.remove_reader(receive.fileno())
        try:
            return receive.recv()
        except (EOFError, OSError):
            return Outcome(failed="the worker process ended without an answer")

    def _end(self, process) -> None:
        self.running.pop(process.pid, None)
        if process.is_alive():
            process.kill()
        process.join(5)

    def stop_all(self, server_too: bool = False) -> None:
        """End every worker now; with ``server_too`` (the server is exiting) the fork server as well, which would
        otherwise end only once it notices, after importing what it preloads."""
        for process in list(self.running.values()):
            if process.is_alive():
                process.kill()
        self.running.clear()
        pid = getattr(getattr(multiprocessing.forkserver, "_forkserver", None), "_forkserver_pid", None)
        if server_too and isinstance(pid, int):
            try:
                os.kill(pid, getattr(signal, "SIGKILL", signal.SIGTERM))
            except OSError:
                pass
