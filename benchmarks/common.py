"""What the benchmark scripts share: the targets, the parse floor, timing qlint in a fresh process, the banks.

Not a script: ``run.py``, ``one_file.py``, ``startup.py`` and ``all.py`` import it (the benchmarks folder is put on
``sys.path`` by whichever of them runs; it is not a package).
"""
from __future__ import annotations

import gc
import json
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared"
CORPORA = SHARED / "corpora"

# The targets, as issue 27 states them (measured side by side in one sitting on the 2-core machine).
COLD_OF_FLOOR = 1.5          # cold check: at most 1.5x the GC-free libyaml parse
WARM_OF_COLD = 0.02          # nothing changed: at most 2% of cold
CHANGED_OF_COLD = 0.05       # one file changed: at most 5% of cold
NAMED_COLD_OF_FLOOR = 1.3    # one named file, cold cache: at most 1.3x the GC-free parse of the whole bank
NAMED_WARM_SECONDS = 0.5     # one named file in a big bank, warm
JOBS_SPEEDUP = 1.7           # two workers at least 1.7x faster than one
VERSION_SECONDS = 0.12       # qlint --version
TINY_WARM_SECONDS = 0.2      # a warm check of one small file
TINY_OF_YAMLLINT = 1.7       # ... at most 1.7x yamllint on the same file
RSS_1M_BYTES = 4e9           # a million questions under 4 GB

# A qlint run that did not end by itself in this long is stopped (its whole process group) and counts as failed.
RUN_TIMEOUT = 3600.0


class QlintFailed(SystemExit):
    """A timed qlint run that exited with an error or was stopped after ``RUN_TIMEOUT``."""


def bank_files(bank: Path) -> list[Path]:
    """The bank's YAML files, sorted, without anything of qlint's cache."""
    return sorted(p for p in bank.rglob("*.y*ml") if ".qlint_cache" not in p.parts)


def parse_floor(files: list[Path], gc_off: bool = True, clock: Callable[[], float] = time.perf_counter) -> float:
    """Single-process PyYAML CSafeLoader load of every file, all kept alive: the practical floor.

    With ``gc_off`` (the floor the targets are stated against) the garbage collector is off while it runs. ``clock``
    is what it is timed by: wall seconds, or this process's CPU seconds (``time.process_time``) to set beside stages
    timed by those on a machine shared with other work."""
    import yaml

    gc.collect()
    if gc_off:
        gc.disable()
    try:
        start = clock()
        kept = [yaml.load(f.read_bytes(), Loader=yaml.CSafeLoader) for f in files]
        elapsed = clock() - start
    finally:
        gc.enable()
    del kept
    return elapsed


def qlint_env(source: str | None = None) -> dict[str, str]:
    """The environment qlint runs in: bytecode read and written as in an installed qlint (pip compiles it at
    install; a shell that sets PYTHONDONTWRITEBYTECODE would otherwise time compiling qlint's source on every run),
    and, for an older source tree, that tree first on the path."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
    if source:
        env["PYTHONPATH"] = str(source)
    return env


def _stop_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:   # it ended as the time ran out
        pass


def _timed(cmd: list[str], cwd: str, env: dict[str, str] | None = None,
           timeout: float = RUN_TIMEOUT) -> tuple[float, int, int, str]:
    """Run one command; its wall time, peak RSS (bytes, the largest of it and its workers), exit code, stderr.

    A command still running after ``timeout`` seconds is stopped with its process group (exit code -9)."""
    env = qlint_env() if env is None else env
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    timer = threading.Timer(timeout, _stop_group, (proc.pid,))
    timer.start()
    try:
        stderr = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
        _, status, usage = os.wait4(proc.pid, 0)
    finally:
        timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)   # reaped here: Popen must not wait for it again
    return time.perf_counter() - start, usage.ru_maxrss * 1024, proc.returncode, stderr


# Linux carries a parent's peak RSS into its children (through fork and exec), so a qlint started from this
# process, which holds parsed files and reports, would report this process's peak as its own. qlint is started
# from a small process made before any of that: the peak RSS printed is qlint's.
_LAUNCHER: ProcessPoolExecutor | None = None


def launcher() -> ProcessPoolExecutor:
    global _LAUNCHER
    if _LAUNCHER is None:
        _LAUNCHER = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("forkserver"))
        _LAUNCHER.submit(time.perf_counter).result()   # started now, while this process is small
    return _LAUNCHER


def timed(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, int, int, str]:
    """``_timed`` in the small launcher process: wall time, qlint's own peak RSS, exit code, stderr."""
    return launcher().submit(_timed, cmd, str(cwd), env).result()


def run_qlint(cwd: Path, targets: list[str], *extra: str, source: str | None = None) -> tuple[float, int, dict]:
    """Wall time, peak RSS (bytes) and JSON output of one `qlint check TARGETS` in a fresh process run from
    ``cwd``; ``source`` is an older qlint's source folder to run instead of the installed one."""
    fd, name = tempfile.mkstemp(suffix=".json", prefix="qlint-bench-")
    os.close(fd)
    out = Path(name)
    try:
        cmd = [sys.executable, "-m", "qlint", "check", *targets, "--format", "json", "--exit-zero", "-o", str(out),
               *extra]
        elapsed, peak, code, stderr = timed(cmd, cwd, qlint_env(source))
        if code != 0:
            raise QlintFailed(f"qlint failed ({code}): {stderr.strip()[-2000:]}")
        doc = json.loads(out.read_text(encoding="utf-8"))
    finally:
        out.unlink(missing_ok=True)
    return elapsed, peak, doc


def touch_one_file(files: list[Path]) -> tuple[Path, str]:
    """Change one stem in one file, as an author's commit would; returns the file and its text before."""
    target = files[len(files) // 2]
    before = target.read_text(encoding="utf-8")
    target.write_text(re.sub(r'(stem: "?)', r"\1Edited. ", before, count=1), encoding="utf-8")
    return target, before


def cross_file_findings(doc: dict) -> list[dict]:
    """The findings made from the whole bank, which a run after one change must give as a --no-cache run does."""
    return [f for f in doc["findings"] if f["rule"] in ("near-duplicate-stem", "duplicate-id")]


def named_file(files: list[Path]) -> Path:
    """The file a named-file run checks: the one in the middle, as pre-commit would name any one."""
    return files[len(files) // 2]


def whole_folder_is_the_bank(bank: Path) -> None:
    """A qlint.toml with ``paths = ["."]``, so that a file named alone is compared with the whole bank."""
    config = bank / "qlint.toml"
    if not config.exists():
        config.write_text('paths = ["."]\n', encoding="utf-8")


def corpus_names() -> list[str]:
    """The corpora in ../shared/corpora (empty when that folder is absent)."""
    if not CORPORA.is_dir():
        return []
    return sorted(p.name.split(".")[0] for p in CORPORA.glob("*.jsonl*"))


def corpus_bank(bank: Path, names: list[str], repeat: int = 1) -> None:
    """Write the named corpora of ../shared/corpora into ``bank``, one folder each, with their own to_bank.py."""
    for name in names:
        source = next(CORPORA.glob(f"{name}.jsonl*"), None)
        if source is None:
            raise SystemExit(f"no corpus {name!r} in {CORPORA}")
        subprocess.run([sys.executable, str(CORPORA / "to_bank.py"), str(source), str(bank), "--repeat", str(repeat)],
                       check=True, stdout=subprocess.DEVNULL)


def synthetic_bank(bank: Path, questions: int) -> dict:
    """A gen_bank.py bank of ``questions`` questions (its planted pairs in the metadata returned)."""
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    from gen_bank import generate

    return generate(bank, questions)
