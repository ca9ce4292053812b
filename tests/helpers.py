"""Helpers shared by the suite's folders: where things are, and the CLI run in a forked copy of the test process.

``run_forked`` gives what a subprocess gives (its own memory limit, a timeout, its own working directory,
environment, standard streams and exit code, nothing leaking back into the tests) without paying a new
interpreter's start-up and imports on every run: the child is a fork of the test process that calls the
CLI's entry function, ``qlint.cli.main.run``. Tests of the process itself (exit codes from the installed
command, pipes, signals, ``--version``) still start ``sys.executable -m qlint``.
"""
from __future__ import annotations

import csv
import gzip
import importlib.util
import json
import random
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

try:
    import resource
except ImportError:  # pragma: no cover - not POSIX
    resource = None

from qlint.config import Config, Settings, resolve_rules
from qlint.model import Option, Question
from qlint.neardup.search import find_pairs
from qlint.neardup.stemkey import StemKey
from qlint.run.pipeline import check_sources
from qlint.testing import stated_options as example_options  # noqa: F401  (the tests' name for it)

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
DATA = TESTS / "data"
ORACLES = TESTS / "oracles"
SHARED = ROOT.parent / "shared"


# a small bank of two near-duplicate questions (one with two keys), for the cache tests
CACHE_BANK = {
    "a.yaml": "id: a-1\nstem: Which call returns a Python float from a one-element loss tensor?\noptions:\n"
              "  - {text: loss.item(), correct: true, rationale: Correct. It copies the value out.}\n"
              "  - {text: loss.detach(), rationale: Incorrect. It returns a tensor.}\n",
    "b.yaml": "id: b-1\nstem: Which call returns a Python float from a one element loss tensor?\noptions:\n"
              "  - {text: loss.item(), correct: true, rationale: Correct. It copies the value out.}\n"
              "  - {text: loss.detach(), correct: true, rationale: Correct. Also a tensor.}\n",
}


# a valid question and a flawed one (two keys), the neighbours of a hostile file in a bank
VALID = """\
id: valid-1
stem: Which call returns a Python float from a one-element tensor?
options:
  - text: "`loss.item()`"
    correct: true
    rationale: Correct. It copies the single value out of the tensor into a Python number.
  - text: "`loss.detach()`"
    rationale: Incorrect. It returns a new tensor that shares storage, not a Python number.
"""

FLAWED = """\
id: flawed-1
stem: Where does a DataLoader worker process decode the images of its batches?
options:
  - text: In its own process
    correct: true
    rationale: Correct. Each worker is a separate process that prepares whole batches.
  - text: In the main training process
    correct: true
    rationale: Correct as well, which is the flaw this neighbour exists to show.
"""

# a clean question and one with two keys, for the command-line tests
CLEAN = """\
id: clean-1
stem: Which call returns a Python float from a one-element loss tensor?
options:
  - text: loss.item()
    correct: true
    rationale: Correct. It copies the value out and keeps no graph.
  - text: loss.detach()
    rationale: Incorrect. It still returns a tensor.
  - text: loss.clone()
    rationale: Incorrect. A clone keeps the graph alive.
"""
TWO_KEYS = CLEAN.replace("id: clean-1", "id: flawed-1").replace(
    "Which call returns a Python float from a one-element loss tensor?",
    "A training loop logs its loss every step. Which call gives a plain number without keeping the graph?").replace(
    "  - text: loss.detach()\n    rationale: Incorrect. It still returns a tensor.\n",
    "  - text: loss.detach().item()\n    correct: true\n    rationale: Correct. The same number, detached first.\n")

# two questions of the bank the language-server tests open
SERVER_A = """\
id: ck-1
stem: Which technique reduces activation memory by recomputing activations during the backward pass?
options:
  - {text: Gradient checkpointing, correct: true, rationale: Correct. Activations are recomputed.}
  - {text: Larger batches, rationale: Incorrect. They increase memory.}
"""
SERVER_B = """\
id: bs-1
stem: How many GPUs does a data-parallel job with a global batch of 256 and 32 samples per GPU use?
options:
  - {text: '16', rationale: Incorrect. That is 512 samples.}
  - {text: '8', correct: true, rationale: Correct. 256 / 32 = 8.}
  - {text: '4', rationale: Incorrect. That is 128 samples.}
"""

# run before ``qlint.cli.main`` in ``python -c``: any connection, name look-up or NLTK download fails loudly
NETWORK_GUARD = r"""
import socket, sys
def refuse(*args, **kwargs):
    raise OSError("network access attempted: " + repr(args[:2]))
socket.socket.connect = refuse
socket.socket.connect_ex = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse
try:
    import nltk
except ImportError:
    pass
else:
    def no_download(*args, **kwargs):
        raise SystemExit("qlint tried to download NLTK data: " + repr(args))
    nltk.download = no_download
from qlint.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def load_script(path: Path):
    """A script of the project (``benchmarks/``, ``scripts/``) imported as a module under its file name."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


def bank_writer(seed: int):
    """The synthetic bank generator of ``benchmarks/gen_bank.py``, seeded: realistic stems and near-duplicates."""
    module = sys.modules.get("gen_bank") or load_script(ROOT / "benchmarks" / "gen_bank.py")
    return module.Writer(seed=seed)


def stem_bank(seed: int, size: int) -> tuple:
    """A synthetic bank's stems for the near-duplicate tests, with near-duplicates, twins and odd stems; and the
    writer and random source that made them (for ``stem_edit``)."""
    writer, rng = bank_writer(seed), random.Random(seed)
    stems = [writer.stem() for _ in range(size)]
    stems += [writer.near_duplicate(rng.choice(stems)) for _ in range(size // 10)]
    stems += [rng.choice(stems) for _ in range(size // 40)]                       # identical twins
    stems += ["What is a lean canvas?", "What is lean canvas?", "", "?", "Define entropy.", "Define entropy"]
    rng.shuffle(stems)
    return writer, rng, stems


def stem_edit(writer, rng: random.Random, stems: list[str]) -> list[str]:
    """What a commit does to a bank: a file's stems changed, a few added or removed, files renamed (moved)."""
    stems = list(stems)
    kind = rng.randrange(5)
    at = rng.randrange(len(stems))
    if kind == 0:     # one file edited: a run of stems reworded, one into a near-duplicate of another
        for i in range(at, min(at + 5, len(stems))):
            stems[i] = writer.stem()
        stems[at] = writer.near_duplicate(rng.choice(stems))
    elif kind == 1:   # a file added in the middle
        stems[at:at] = [writer.near_duplicate(rng.choice(stems)) if rng.random() < 0.5 else writer.stem()
                        for _ in range(rng.randrange(1, 8))]
    elif kind == 2:   # a file deleted
        del stems[at:at + rng.randrange(1, 8)]
    elif kind == 3:   # a file moved: the same stems elsewhere in the bank's order
        block = stems[at:at + 6]
        del stems[at:at + 6]
        where = rng.randrange(len(stems) + 1)
        stems[where:where] = block
    else:             # a twin made, and a stem emptied
        stems[at] = rng.choice(stems)
        stems[rng.randrange(len(stems))] = ""
    return stems


def exhaustive_pairs(keys: Sequence[StemKey], threshold: float, **kwargs) -> list[tuple[int, int, float]]:
    """Every pair compared: the quadratic reference the blocked near-duplicate search is measured against."""
    every = ((a, b) for a in range(len(keys)) for b in range(a + 1, len(keys)) if keys[a].text and keys[b].text)
    return find_pairs(keys, threshold, candidates=every, **kwargs)


def model_question(texts: list[str], stem: str = "Which one?") -> Question:
    """A question in the model (not as YAML) whose first option is the key, for calling one rule's check."""
    return Question(id="q", stem=stem, options=tuple(Option(text=t, correct=i == 0) for i, t in enumerate(texts)))


def cpu_seconds(work):
    """``work()``'s result and the CPU time this process spent on it (a busy machine cannot make it look slow)."""
    started = time.process_time()
    result = work()
    return time.process_time() - started, result



# ---- git repositories with pre-commit's hook installed: the hook as a bank repository meets it -----------------

GIT_IDENTITY = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
                "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
PRE_COMMIT = shutil.which("pre-commit") or str(Path(sys.executable).with_name("pre-commit"))
needs_pre_commit = pytest.mark.skipif(
    shutil.which("git") is None or not Path(PRE_COMMIT).exists() or not (ROOT / ".git").exists(),
    reason="needs git, pre-commit and a git checkout of qlint")


def git(repo: Path, *args: str, check: bool = True, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``git ARGS`` in ``repo`` as a fixed author, in ``env`` (the test process's environment unless given)."""
    return subprocess.run(["git", *args], cwd=repo, env={**(os.environ if env is None else env), **GIT_IDENTITY},
                          capture_output=True, text=True, check=check)


def head_commit() -> str:
    """The commit this checkout of qlint is at: the ``rev`` a hook repository installs qlint's hook from."""
    return git(ROOT, "rev-parse", "HEAD").stdout.strip()


def hook_repository(repo: Path, files: dict[str, str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``repo`` made a git repository holding ``files`` (relative path: text) with pre-commit's hook installed, and
    everything in it committed: the first commit's outcome."""
    repo.mkdir(parents=True, exist_ok=True)
    git(repo, "init", "-q")
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text, encoding="utf-8")
    install = subprocess.run([PRE_COMMIT, "install"], cwd=repo, capture_output=True, text=True, env=env)
    assert install.returncode == 0, install.stderr
    git(repo, "add", "-A")
    return git(repo, "commit", "-qm", "first", check=False, env=env)

# ---- the bank the report and stats tests read: key bias, near-duplicate clusters, hard stems, long keys -----------

REPORT_TOPICS = [
    "gradient accumulation", "activation checkpointing", "mixed precision training", "data loader workers",
    "pinned host memory", "tensor parallelism", "pipeline bubbles", "learning rate warmup", "optimizer state sharding",
    "LoRA adapter rank", "fused attention kernels", "CUDA stream synchronisation", "NCCL all-reduce buckets",
    "checkpoint resumption", "dataset shuffling seeds", "profiler trace warmup", "bf16 exponent range",
    "loss scaling factors", "frozen embedding layers", "weight tying", "sequence packing", "dynamic padding",
    "torch.compile graph breaks", "autograd hooks",
]
# a dense stem: reading-grade grades it (100+ words in 3+ sentences) above 16, and its second sentence runs past
# reading-level's 40 words
REPORT_HARD = ("Considering the aforementioned computational considerations regarding the instantiation of heterogeneous "
        "parallelisation configurations, administrators must evaluate alternatives methodically. Comprehensive "
        "documentation, institutional accountability and interoperability requirements substantially complicate "
        "implementation decisions, particularly regarding authentication, authorisation and cryptographic "
        "certification, notwithstanding the organisational particularities characterising contemporary "
        "institutional infrastructure and the many jurisdictional data-residency considerations that the multinational "
        "organisations operating heterogeneous environments simultaneously encounter. Organisational stakeholders "
        "additionally anticipate considerable operational variability, necessitating continuous monitoring and "
        "sophisticated capacity planning methodologies. Consequently, experienced practitioners systematically "
        "prioritise interoperability and maintainability. Institutional procurement regulations and contractual "
        "obligations introduce further complications for many international organisations. Which consideration "
        "predominantly determines "
        "appropriateness?")
REPORT_DUP = "A training job on eight GPUs slows down after enabling {x}; what is the most likely reason for the slowdown?"


def _report_question(qid: str, stem: str, key: int, *, objective: str | None, difficulty, tags, long_key: bool = False) -> str:
    texts = ["The first plausible explanation", "The second plausible explanation",
             "The third plausible explanation", "The fourth plausible explanation"]
    if long_key:
        texts[key] = ("The key explanation that goes on and on with many qualifying clauses so that it is "
                      "obviously the longest of all the options here")
    lines = [f"  - id: {qid}", f"    stem: {json.dumps(stem)}"]
    if objective:
        lines.append(f"    objective: {objective}")
    if difficulty is not None:
        lines.append(f"    difficulty: {difficulty}")
    if tags:
        lines.append(f"    tags: [{', '.join(tags)}]")
    lines.append("    options:")
    for i, text in enumerate(texts):
        lines.append(f"      - text: {text}")
        if i == key:
            lines.append("        correct: true")
        lines.append(f"        rationale: {'Correct' if i == key else 'Incorrect'}. Reason {i}.")
    return "\n".join(lines) + "\n"


def report_bank(root: Path) -> Path:
    """The report and stats tests' bank (``root/bank``), with findings of several kinds: key bias, near-duplicate clusters, hard stems, long keys."""
    bank = root / "bank"
    folders = {"alpha": [], "beta": [], "gamma/deep": []}
    names = list(folders)
    for i, topic in enumerate(REPORT_TOPICS):  # 24 four-option questions, keys piled on B
        key = 1 if i % 6 else (i // 6) % 4
        stem = f"Question {i}: what does {topic} change in a training run on one node?"
        if i == 3:
            stem = REPORT_HARD
        folders[names[i % 3]].append(_report_question(
            f"q-{i:02d}", stem, key, objective=f"Objective {i % 4}" if i % 5 else None,
            difficulty=(i % 3) + 1 if i % 7 else None, tags=[f"t{i % 3}", "core"] if i % 4 else [],
            long_key=i in (5, 10)))
    for n, x in enumerate(("fp16 autocast", "fp16 autocasting", "the fp16 autocast")):  # a cluster of three
        folders["alpha"].append(_report_question(f"dup-a{n}", REPORT_DUP.format(x=x), 1, objective="Objective 0", difficulty=2,
                                          tags=["dup"]))
    for n, x in enumerate(("Which setting pins host memory for faster copies to the device in the loader?",
                           "Which setting pins host memory for faster copies to the device in a loader?")):
        folders["beta"].append(_report_question(f"dup-b{n}", x, 2, objective="Objective 1", difficulty=1, tags=["dup"]))
    for folder, items in folders.items():
        path = bank / folder / "questions.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("questions:\n" + "".join(items), encoding="utf-8")
    return bank


def lint_text(text: str, registry, select=None, extend=(), path="example.yaml", options=None):
    """Every finding on one file's text; ``options``: {rule name: its options table}, as a config sets them."""
    config = Config(Settings(rules=options or {}), Path.cwd(), None)
    active = resolve_rules(config, registry, select=select, extend_select=extend)
    return check_sources([(path, text.encode("utf-8"))], active, all_rules=[r.name for r in registry])


def question(stem: str, options: list[tuple[str, bool]], select: int = 1) -> str:
    """One question as YAML: a stem and (text, is-key) options, each with a rationale, for rule cases."""
    lines = ["id: x", f"stem: {stem!r}", f"select: {select}", "options:"]
    for text, key in options:
        lines += [f"  - text: {text!r}", f"    correct: {'true' if key else 'false'}",
                  f"    rationale: {'Correct' if key else 'Incorrect'}. Because of the definition."]
    return "\n".join(lines) + "\n"


def fired(text: str, rule: str, registry) -> list[str]:
    """The messages of one rule (turned on even when off by default) on a question's text."""
    return [f.message for f in lint_text(text, registry, extend=[rule]) if f.rule == rule]


def with_rules(run_cli, *rules: str):
    """``run_cli`` with these rules turned on for every ``check``: for tests of rules that are off by default."""
    def run(*args, **kwargs):
        if args and args[0] == "check":
            args = (*args, "--extend-select", ",".join(rules))
        return run_cli(*args, **kwargs)
    return run


@contextmanager
def within(seconds: float) -> Iterator[None]:
    """Raise TimeoutError in the test if its body runs past ``seconds`` (pure-Python loops see the alarm)."""
    def expire(signum, frame):
        raise TimeoutError(f"still running after {seconds} s: not linear in the input")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _child(args: list[str], cwd: Path, env: dict[str, str], stdin_fd: int, out_fd: int, err_fd: int,
           memory: int | None) -> None:
    """In the forked child: become a fresh ``qlint`` process as far as the run can tell, then never return."""
    code = 70
    try:
        os.setpgid(0, 0)
        os.dup2(stdin_fd, 0)
        os.dup2(out_fd, 1)
        os.dup2(err_fd, 2)
        if memory is not None and resource is not None:
            # the limit counts what the test process had mapped already: the run gets ``memory`` on top of it
            with open("/proc/self/statm") as statm:
                mapped = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
            resource.setrlimit(resource.RLIMIT_AS, (mapped + memory, mapped + memory))
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(env)
        extra = [entry for entry in env.get("PYTHONPATH", "").split(os.pathsep) if entry]
        if extra:  # what a new interpreter would have put on its path (and so where plugins are found)
            import importlib

            sys.path[:0] = extra
            importlib.invalidate_caches()
        sys.stdin = open(0, encoding="utf-8", errors="strict", closefd=False)
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False)
        sys.argv = ["qlint", *args]
        signal.signal(signal.SIGINT, signal.default_int_handler)
        from qlint.cli.main import run

        run()  # exits through os._exit with the command's code
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # what an uncaught exception does to the real command: a traceback and 1
        import traceback

        traceback.print_exc()
        code = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)


def run_forked(args: list[str], cwd: Path, env: dict[str, str], stdin: bytes = b"", timeout: float = 60,
               memory: int | None = None) -> tuple[int, str, str]:
    """``qlint ARGS`` in a forked child: (exit code, stdout, stderr); raises ``subprocess.TimeoutExpired``."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(write_end)
            _child(args, cwd, env, read_end, out.fileno(), err.fileno(), memory)
        os.close(read_end)

        def feed() -> None:
            try:
                _write_all(write_end, stdin)
            except OSError:  # the run stopped reading: like a subprocess's closed pipe
                pass
            finally:
                os.close(write_end)

        feeder = threading.Thread(target=feed, daemon=True)
        feeder.start()
        deadline = time.monotonic() + timeout
        status = None
        while status is None:
            done, wait_status = os.waitpid(pid, os.WNOHANG)
            if done:
                status = wait_status
            elif time.monotonic() > deadline:
                _kill(pid)
                raise subprocess.TimeoutExpired(["qlint", *args], timeout)
            else:
                time.sleep(0.005)
        feeder.join(5)
        out.seek(0)
        err.seek(0)
        return (os.waitstatus_to_exitcode(status), out.read().decode("utf-8", "replace"),
                err.read().decode("utf-8", "replace"))


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _kill(pid: int) -> None:
    for target in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
        try:
            target()
        except OSError:
            pass
    os.waitpid(pid, 0)


MEMORY_LIMIT = 2 * 1024 ** 3  # RLIMIT_AS for the qlint process of a hostile case
TIMEOUT = 60  # seconds per run; a hang is a failure, not a stuck CI job


def run_qlint(args: list[str], cwd: Path, env: dict[str, str] | None = None,
              stdin: bytes | None = None, timeout: float = TIMEOUT) -> tuple[int, str, str, float]:
    """The CLI on a bank, in a forked child of the test process under the memory limit and the timeout."""
    full_env = {**os.environ, "NO_COLOR": "1", **(env or {})}
    full_env.pop("GITHUB_ACTIONS", None)
    full_env.pop("QLINT_DEBUG", None)
    start = time.monotonic()
    code, out, err = run_forked(args, cwd, full_env, stdin=stdin or b"", timeout=timeout, memory=MEMORY_LIMIT)
    return code, out, err, time.monotonic() - start


async def open_workspace(lsp_client, root: Path, name: str = "bank") -> None:
    """Start a language-server session whose root and one workspace folder (named ``name``) are ``root``: the server
    tests' and the range tests' fixtures both open one so."""
    from lsprotocol import types

    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(), root_uri=root.as_uri(), workspace_folders=[
            types.WorkspaceFolder(uri=root.as_uri(), name=name)]))


# ---- the judged findings on the real banks -------------------------------------------------------------------------

CORPORA = SHARED / "corpora"
VERDICTS = ROOT / "eval" / "judged" / "verdicts.csv"


def corpus_rows(name: str) -> list[dict]:
    """The questions of one of the shared corpora, in line order (a question's id is its corpus and line number)."""
    path = CORPORA / f"{name}.jsonl"
    if not path.exists():
        path = CORPORA / f"{name}.jsonl.gz"
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def judged_verdicts(rule: str) -> list[dict]:
    """Every judged verdict on ``rule``'s findings (corpus, id, rule, verdict, reason, agreement); the test skips
    when the shared corpora are not beside this checkout."""
    if not CORPORA.is_dir():
        pytest.skip("the shared corpora are not beside this checkout")
    with VERDICTS.open(encoding="utf-8") as handle:
        return [v for v in csv.DictReader(handle) if v["rule"] == rule]


_HOUSE_PACK = """\
name: house-style
code: H101
extends: existence
summary: s
why: w
use-instead: u
message: "MESSAGE"
tokens: [TOKEN]
failing: ["TOKEN"]
"""


def house_pack(message: str = "say it otherwise: {match}", token: str = "loss") -> str:
    """A bank's house-style pack of one banned word, its message as given (``{match}`` is the pack's own field)."""
    return _HOUSE_PACK.replace("TOKEN", token).replace("MESSAGE", message)

