"""Hostile inputs: every kind of broken bank file an author or a merge can produce gets a clear answer.

Each case puts one hostile file (or config, rule pack, plugin) into a fresh bank beside a valid
file and a flawed file, runs the CLI's entry function in a forked child (a process of its own: a memory limit, a
timeout, no start-up cost), and checks: the right exit code, no traceback, the hostile file named with a line, the
flawed neighbour still reported, the valid neighbour clean, nothing constructed, nothing written.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import stat
import sys
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from helpers import FLAWED, TIMEOUT, VALID, run_qlint

COST = 30  # seconds a single hostile file may cost at most (generous for a loaded 2-core runner)
MARKER_NAME = "PWNED"

# A flawed question to embed in otherwise-legal hostile encodings: a flaw the linter must still see.
TWO_KEYS = """\
id: host-1
stem: Which optimizer keeps a running average of squared gradients for each parameter?
options:
  - text: Adam
    correct: true
    rationale: Correct. It tracks the second moment of each gradient.
  - text: Plain SGD
    correct: true
    rationale: Incorrect. It keeps no per-parameter statistics.
"""


def snapshot(root: Path) -> dict[str, str]:
    """Every entry under root with a fingerprint; regular files by content hash, nothing ever opened that could block."""
    state: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        for name in sorted(dirnames + filenames):
            path = Path(dirpath) / name
            info = os.lstat(path)
            key = path.relative_to(root).as_posix()
            if stat.S_ISREG(info.st_mode) and info.st_mode & 0o444:
                try:
                    state[key] = hashlib.sha256(path.read_bytes()).hexdigest()
                except OSError:
                    state[key] = f"unreadable:{info.st_size}:{info.st_mtime_ns}"
            elif stat.S_ISLNK(info.st_mode):
                state[key] = "link:" + os.readlink(path)
            else:
                state[key] = f"mode:{stat.S_IFMT(info.st_mode)}:{info.st_size}:{info.st_mtime_ns}"
    return state


# --------------------------------------------------------------------------------------------
# The cases. A builder gets (bank, tmp) and writes its hostile input; the Case says what to expect.
# --------------------------------------------------------------------------------------------

@dataclass
class Case:
    name: str
    build: Callable[[Path, Path], None]
    path: str | None = "bank/hostile.yaml"  # the path a finding (exit 1) or stderr (exit 2) must name
    line: int | None = None  # the exact line expected, when there is one to expect
    needle: str | None = None  # a word the finding's (or error's) message must contain
    exit: int = 1
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    other_findings_ok: bool = False  # a plugin whose check raises reports on every question
    marks: tuple = ()
    timeout: float = TIMEOUT


def text_case(name: str, data: str | bytes, *, line: int | None = None, needle: str | None = None,
              filename: str = "hostile.yaml", marks: tuple = ()) -> Case:
    def build(bank: Path, tmp: Path) -> None:
        raw = data.encode("utf-8") if isinstance(data, str) else data
        (bank / filename).write_bytes(raw.replace(b"@MARKER@", str(tmp / MARKER_NAME).encode()))
    return Case(name, build, f"bank/{filename}", line, needle, marks=marks)


def _billion_laughs() -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\nid: bomb\nstem: How many laughs?\noptions: *i\n"


def _scalar_bomb() -> str:
    # one big scalar referenced by tens of thousands of aliases: a 300 kB file, gigabytes of text for the rules
    return ("id: sbomb\nstem: &s " + "lol " * 25_000 + "\noptions:\n  - {text: a, correct: true}\n"
            + "".join("  - {text: *s, rationale: *s}\n" for _ in range(20_000)))


def _three_mb_stem() -> str:
    words = ("the model gradient tensor memory loss batch optimizer layer device step kernel cache graph "
             "scheduler weight decay clipping norm").split()
    body = " ".join(words[(i * 7) % len(words)] + ("." if i % 17 == 16 else "") for i in range(420_000))
    return ("id: big-stem\nstem: >-\n" + "".join(f"  {body[i:i + 100].strip()}\n" for i in range(0, len(body), 100))
            + "options:\n  - {text: alpha, correct: true, rationale: Correct. r}\n"
            "  - {text: beta, correct: true, rationale: Incorrect. r}\n")


def _fifty_mb(bank: Path, tmp: Path) -> None:
    with open(bank / "hostile.yaml", "wb") as handle:
        handle.write(TWO_KEYS.encode())
        chunk = b"# padding padding padding padding padding padding padding padding padding\n" * 10_000
        for _ in range(50 * 1024 * 1024 // len(chunk) + 1):
            handle.write(chunk)


TAGS = """\
id: tags-1
stem: !!python/object/apply:os.system ["touch @MARKER@"]
objective: !!python/object/apply:builtins.open ["@MARKER@", "w"]
explanation: !!python/object/new:subprocess.Popen [["touch", "@MARKER@"]]
difficulty: !!python/name:os.system
tags: !!python/module:os
meta: {a: !!binary aGVsbG8=, b: !!set {x, y}, c: !!omap [{k: v}], d: !custom thing, e: !<tag:evil.example,2024:x> y,
       f: !!python/tuple [1, 2], g: !!float 1.5, h: !!timestamp 2024-01-01}
options:
  - text: !!str plain
    correct: !!bool true
  - !local {text: b, rationale: r}
"""

TAG_DIRECTIVE = """\
%TAG !e! tag:evil.example,2024:
---
id: tags-2
stem: !e!thing Which tag prefix is this?
options:
  - {text: a, correct: true, rationale: r}
  - {text: b, rationale: r}
"""

WRONG_TYPES = """\
id: [not, a, string]
stem: {a: mapping}
select: two
difficulty: [1]
tags: 3
meta: [not, a, mapping]
qlint: 5
explanation: {x: y}
options:
  - 1
  - [a, list]
  - {text: {a: b}, correct: maybe, rationale: [x]}
  - {text: "", correct: null}
"""

UNKNOWN_KEYS = """\
questions:
  - id: unk-1
    stme: Misspelt stem?
    stem: A real stem is here as well?
    options:
      - {text: a, corect: true, rationale: r}
      - {text: b, rationnale: r}
    rationale: belongs to an option
extra: top-level key
"""

DUPLICATE_KEYS = """\
id: dup-1
stem: Which value wins?
stem: The second one?
options:
  - {text: a, text: b, correct: true, rationale: r}
  - {text: c, rationale: r}
"""

TEXT_CASES = [
    text_case("bad-indentation", "id: a\n  stem: bad indent\noptions: []\n", line=2, needle="YAML"),
    text_case("bad-indentation-list", "id: a\nstem: s\noptions:\n  - text: a\n   correct: true\n", needle="YAML"),
    text_case("tab-indentation", "id: a\nstem: s\noptions:\n\t- text: a\n", line=4, needle="YAML"),
    text_case("tab-leading", "\tid: x\n", line=1, needle="YAML"),
    text_case("unclosed-double-quote", 'id: a\nstem: "unclosed\noptions: []\n', needle="YAML"),
    text_case("unclosed-single-quote", "id: a\nstem: 'unclosed\noptions: []\n", needle="YAML"),
    text_case("unclosed-bracket", "id: a\nstem: s\noptions: [a, b\n", needle="YAML"),
    text_case("unclosed-brace", "id: a\nstem: s\noptions:\n  - {text: a, correct: true\n", needle="YAML"),
    text_case("stray-closing-bracket", "id: a\nstem: s]\noptions: ]\n", needle="YAML"),
    text_case("bad-escape", 'id: a\nstem: "bad \\q escape"\n', line=2, needle="YAML"),
    text_case("control-character", "id: a\nstem: bell \x07 here\n", line=2),
    text_case("lone-surrogate-escape", 'id: a\nstem: "\\ud800 surrogate"\noptions:\n'
              '  - {text: a, correct: true, rationale: r}\n  - {text: b, correct: true, rationale: r}\n'),
    text_case("nul-escape", 'id: a\nstem: "nul \\0 here"\noptions:\n'
              '  - {text: a, correct: true, rationale: r}\n  - {text: b, correct: true, rationale: r}\n'),
    text_case("undefined-alias", "id: a\nstem: *nowhere\n", needle="YAML"),
    text_case("yaml-version-2", "%YAML 2.0\n---\nid: a\n", needle="YAML"),
    text_case("wrong-types", WRONG_TYPES, needle="must"),
    text_case("unknown-keys", UNKNOWN_KEYS, needle="unknown"),
    text_case("duplicate-keys", DUPLICATE_KEYS, line=3, needle="duplicate key"),
    text_case("complex-key", "? [a, b]\n: c\nid: a\nstem: s\n", line=1),
    text_case("null-and-int-keys", "~: a\n1: b\nid: a\nstem: s\n"),
    text_case("merge-key", "base: &b {text: a}\nid: a\nstem: s\noptions:\n  - {<<: *b, correct: true}\n  - {<<: *b}\n"),
    text_case("empty-file", b"", line=1, needle="no questions"),
    text_case("whitespace-only", b"  \n\n   \n", line=1, needle="no questions"),
    text_case("comment-only", "# nothing but a comment\n# and another\n", line=1, needle="no questions"),
    text_case("document-markers-only", "---\n...\n", line=1),
    text_case("bare-scalar", "just some words\n", line=1, needle="single value"),
    text_case("bare-number", "42\n", line=1, needle="single value"),
    text_case("bare-list", "- a\n- b\n", line=1, needle="list"),
    text_case("questions-null", "questions:\n", line=1),
    text_case("questions-scalars", "questions: [1, two, [3]]\n", line=1),
    text_case("multi-document", VALID.replace("valid-1", "md-1") + "---\n" + VALID.replace("valid-1", "md-2"),
              line=9, needle="document"),
    text_case("multi-document-empty-tail", "id: a\n---\n", needle="document"),
    text_case("invalid-utf8", b"id: x\nstem: caf\xe9\n", line=2, needle="UTF-8"),
    text_case("latin1-file", "id: x\nstem: Où est la clé?\n".encode("latin-1"), line=2, needle="UTF-8"),
    text_case("utf16-bom", ("\ufeff" + TWO_KEYS).encode("utf-16-le"), line=1, needle="UTF-16"),
    text_case("utf16-be-bom", ("\ufeff" + TWO_KEYS).encode("utf-16-be"), line=1, needle="UTF-16"),
    text_case("utf16-no-bom", TWO_KEYS.encode("utf-16-le"), line=1, needle="binary"),
    text_case("utf32-bom", ("\ufeff" + TWO_KEYS).encode("utf-32"), line=1, needle="UTF-32"),
    text_case("utf16-bom-broken", b"\xff\xfeid\x00:\x00 \x00\x00\xd8", line=1),
    text_case("utf8-bom", b"\xef\xbb\xbf" + TWO_KEYS.encode(), line=3, needle="marked correct"),
    text_case("double-bom", b"\xef\xbb\xbf\xef\xbb\xbf" + TWO_KEYS.encode(), line=3, needle="marked correct"),
    text_case("crlf", TWO_KEYS.replace("\n", "\r\n"), line=3, needle="marked correct"),
    text_case("cr-only", TWO_KEYS.replace("\n", "\r"), line=3, needle="marked correct"),
    text_case("mixed-line-ends", TWO_KEYS.replace("\n", "\r\n", 3)),
    text_case("binary-nul", bytes(range(256)) * 64, line=1, needle="binary"),
    text_case("binary-png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + os.urandom(4096), line=1),
    text_case("binary-no-nul", bytes(b for b in range(1, 256)) * 40, needle="UTF-8"),
    text_case("alias-bomb", _billion_laughs(), needle="alias"),
    text_case("scalar-alias-bomb", _scalar_bomb(), needle="alias"),
    text_case("deep-flow-sequence", "id: a\nstem: s\nmeta: " + "[" * 20_000 + "]" * 20_000 + "\n", line=3),
    text_case("deep-flow-mapping", "id: a\nstem: s\nmeta: " + "{a: " * 20_000 + "b" + "}" * 20_000 + "\n", line=3),
    text_case("deep-block-sequence", "id: a\nstem: s\nmeta:\n  " + "- " * 20_000 + "x\n"),
    text_case("deep-unclosed", "meta: " + "[" * 20_000 + "\n"),
    text_case("deep-anchored-alias", "a: &a " + "[" * 5_000 + "]" * 5_000 + "\nb: [" + ", ".join(["*a"] * 200) + "]\n"),
    text_case("python-tags", TAGS, line=2, needle="tag"),
    text_case("tag-directive", TAG_DIRECTIVE, needle="tag"),
    text_case("tagged-root", "!!python/object:builtins.dict\nid: a\nstem: s\n", line=1, needle="tag"),
    text_case("tagged-key", "!!python/name:os.system : x\nid: a\nstem: s\n", line=1),
    text_case("long-line", "id: a\nstem: " + "x" * 2_000_000 + "\noptions: []\n", line=3),
    text_case("many-questions", "questions:\n" + "".join(
        f"  - {{id: m-{i}, stem: 'Question number {i} about topic {i * 7919 % 10007}?', options: "
        f"[{{text: a{i}, correct: true, rationale: r}}, {{text: b{i}, correct: true, rationale: r}}]}}\n"
        for i in range(2_000)), needle="marked correct", marks=(pytest.mark.slow,)),
    text_case("three-mb-stem", _three_mb_stem(), needle="marked correct", marks=(pytest.mark.slow,)),
    text_case("yml-suffix", TWO_KEYS, filename="hostile.yml", needle="marked correct"),
]


def _symlink_loop(bank: Path, tmp: Path) -> None:
    os.symlink("hostile.yaml", bank / "hostile.yaml")


def _symlink_pair(bank: Path, tmp: Path) -> None:
    os.symlink("loop-b.yaml", bank / "hostile.yaml")
    os.symlink("hostile.yaml", bank / "loop-b.yaml")


def _dangling(bank: Path, tmp: Path) -> None:
    os.symlink(str(tmp / "nowhere" / "gone.yaml"), bank / "hostile.yaml")


def _dir_loop(bank: Path, tmp: Path) -> None:
    (bank / "sub").mkdir()
    os.symlink("..", bank / "sub" / "up")
    os.symlink(".", bank / "self.yaml")  # a link to a folder, named like a bank file
    (bank / "hostile.yaml").write_text(TWO_KEYS)


def _fifo(bank: Path, tmp: Path) -> None:
    os.mkfifo(bank / "hostile.yaml")


def _device(bank: Path, tmp: Path) -> None:
    os.symlink("/dev/zero", bank / "hostile.yaml")


def _dev_null(bank: Path, tmp: Path) -> None:
    os.symlink("/dev/null", bank / "hostile.yaml")


def _socket(bank: Path, tmp: Path) -> None:
    import socket

    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(bank / "hostile.yaml"))
    sock.close()


def _unreadable(bank: Path, tmp: Path) -> None:
    path = bank / "hostile.yaml"
    path.write_text(TWO_KEYS)
    path.chmod(0)


def _eio(bank: Path, tmp: Path) -> None:
    # a regular file that fails to read (EIO): what an unreadable file looks like when running as root
    os.symlink("/proc/self/mem", bank / "hostile.yaml")


def _dir_named_yaml(bank: Path, tmp: Path) -> None:
    (bank / "hostile.yaml").mkdir()
    (bank / "hostile.yaml" / "inner.yaml").write_text(TWO_KEYS)


def _not_root():
    return pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root reads a chmod 000 file")


FILE_CASES = [
    Case("fifty-mb-file", _fifty_mb, line=1, needle="max-file-size"),
    Case("symlink-self-loop", _symlink_loop, line=1, needle="cannot read"),
    Case("symlink-pair-loop", _symlink_pair, line=1, needle="cannot read"),
    Case("dangling-symlink", _dangling, line=1, needle="cannot read"),
    Case("folder-symlink-loop", _dir_loop, needle="marked correct"),
    Case("fifo", _fifo, line=1, needle="not a regular file"),
    Case("device-file", _device, line=1, needle="not a regular file"),
    Case("dev-null", _dev_null, line=1, needle="not a regular file"),
    Case("unix-socket", _socket, line=1, needle="not a regular file"),
    Case("unreadable-chmod", _unreadable, line=1, needle="cannot read", marks=(_not_root(),)),
    Case("unreadable-eio", _eio, line=1, needle="cannot read",
         marks=(pytest.mark.skipif(not Path("/proc/self/mem").exists(), reason="no /proc"),)),
    Case("folder-named-like-a-file", _dir_named_yaml, path="bank/hostile.yaml/inner.yaml", needle="marked correct"),
]


def config_case(name: str, text: str | bytes, needle: str | None = None, filename: str = "qlint.toml",
                marks: tuple = ()) -> Case:
    def build(bank: Path, tmp: Path) -> None:
        (tmp / "qlint.toml").unlink()
        raw = text.encode() if isinstance(text, str) else text
        (tmp / filename).write_bytes(raw)
    return Case(name, build, filename, None, needle, exit=2, marks=marks)


CONFIG_CASES = [
    config_case("config-invalid-toml", "select = [\n", needle="TOML"),
    config_case("config-binary", b"\xff\xfe\x00garbage", needle="TOML"),
    config_case("config-unknown-key", "selcet = ['ALL']\n", needle="did you mean"),
    config_case("config-wrong-type", "max-depth = 'deep'\n", needle="max-depth"),
    config_case("config-zero-limit", "max-file-size = 0\n", needle="max-file-size"),
    config_case("config-huge-depth", "max-depth = 100000\n", needle="max-depth"),
    config_case("config-negative-alias", "max-alias-expansion = -1\n", needle="max-alias-expansion"),
    config_case("config-unknown-rule", "select = ['corect-count']\n", needle="did you mean"),
    config_case("config-rule-not-table", "[rules]\ncorrect-count = 3\n", needle="rules.correct-count"),
    config_case("config-bad-severity", "[rules.correct-count]\nseverity = 'fatal'\n", needle="severity"),
    config_case("config-unknown-option", "[rules.option-length]\nthreshhold = 3\n", needle="unknown key"),
    config_case("config-bad-fail-on", "fail-on = 'sometimes'\n", needle="fail"),
    config_case("config-per-file-ignores", "[per-file-ignores]\n'bank/**' = ['no-such-rule']\n", needle="no-such-rule"),
    config_case("pyproject-not-table", "[tool]\nqlint = 3\n", filename="pyproject.toml", needle="table"),
]


def pack_case(name: str, text: str | bytes | None, needle: str | None = None, marks: tuple = (),
              fifo: bool = False) -> Case:
    def build(bank: Path, tmp: Path) -> None:
        (tmp / "qlint.toml").write_text("rule-packs = ['packs/house.yaml']\n")
        (tmp / "packs").mkdir()
        if fifo:
            os.mkfifo(tmp / "packs" / "house.yaml")
        elif text is not None:
            raw = text.encode() if isinstance(text, str) else text
            (tmp / "packs" / "house.yaml").write_bytes(raw.replace(b"@MARKER@", str(tmp / MARKER_NAME).encode()))
    return Case(name, build, "house.yaml", None, needle, exit=2, marks=marks, timeout=10 if fifo else TIMEOUT)


PACK = """\
name: house-style
code: H{code}
extends: {extends}
summary: s
why: w
use-instead: u
message: "found {{match}}"
failing: ["x"]
{body}
"""

PACK_CASES = [
    pack_case("pack-yaml-error", "name: [unclosed\n", needle="YAML"),
    pack_case("pack-unknown-key", PACK.format(code=101, extends="existence", body="tokens: [x]\ntokns: [y]"),
              needle="did you mean"),
    pack_case("pack-missing-field", "name: house-style\ncode: H101\n", needle="house.yaml"),
    pack_case("pack-wrong-kind", PACK.format(code=101, extends="magic", body="tokens: [x]"), needle="extends"),
    pack_case("pack-catastrophic-regex", PACK.format(code=101, extends="pattern", body="patterns: ['(?=(a+)+$)']"),
              needle="backtrack"),
    pack_case("pack-backreference", PACK.format(code=101, extends="pattern", body="patterns: ['(a)\\1']"),
              needle="backreference"),
    pack_case("pack-invalid-regex", PACK.format(code=101, extends="pattern", body="patterns: ['(unclosed']"),
              needle="regular expression"),
    pack_case("pack-python-tag", "!!python/object/apply:os.system ['touch @MARKER@']\n", needle="YAML"),
    pack_case("pack-empty", "", needle="rule"),
    pack_case("pack-scalar", "just words\n", needle="rule"),
    pack_case("pack-binary", b"\x00\xff\xfe\x01binary", needle="house.yaml"),
    pack_case("pack-not-found", None, needle="not found"),
    pack_case("pack-code-taken", PACK.format(code=101, extends="existence", body="tokens: [x]").replace("H101", "Q104"),
              needle="Q104"),
    pack_case("pack-alias-bomb", _billion_laughs(), needle="house.yaml"),
    pack_case("pack-deep-nesting", "tokens: " + "[" * 20_000 + "]" * 20_000 + "\n", needle="house.yaml"),
    pack_case("pack-fifo", None, fifo=True, needle="house.yaml"),
]


def _plugin(tmp: Path, name: str, module: str, value: str) -> dict[str, str]:
    site = tmp / "site"
    site.mkdir(exist_ok=True)
    (site / f"{name}.py").write_text(module)
    info = site / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[qlint.rules]\n{name} = {name}:{value}\n")
    return {"PYTHONPATH": str(site)}


RULE_HEAD = """\
from qlint.finding import Severity
from qlint.rule import BankRule, QuestionRule

def _boom(*args):
    raise RuntimeError("boom inside the check")
    yield
"""


# A plugin raising SystemExit(0) passes the gate silently: registry.load_registry and the engine's check loops
# catch Exception only. Strict, so the fix (catch SystemExit as well) is noticed.


def plugin_case(name: str, module: str, value: str, needle: str, path: str, other_ok: bool = False,
                marks: tuple = ()) -> Case:
    case = Case(name, lambda bank, tmp: None, path, 1, needle, other_findings_ok=other_ok, marks=marks)

    def build(bank: Path, tmp: Path) -> None:
        case.env.update(_plugin(tmp, name.replace("-", "_"), module, value))
        (bank / "hostile.yaml").write_text(TWO_KEYS)
    case.build = build
    return case


PLUGIN_CASES = [
    plugin_case("plugin-raises-on-import", "raise RuntimeError('boom on import')\n", "RULES",
                "boom on import", "plugin_raises_on_import (plugin_raises_on_import:RULES)"),
    plugin_case("plugin-missing-dependency", "import qlint_no_such_dependency\n", "RULES",
                "qlint_no_such_dependency", "plugin_missing_dependency (plugin_missing_dependency:RULES)"),
    plugin_case("plugin-syntax-error", "def broken(:\n", "RULES",
                "SyntaxError", "plugin_syntax_error (plugin_syntax_error:RULES)"),
    plugin_case("plugin-wrong-object", "RULES = 42\n", "RULES",
                "entry point", "plugin_wrong_object (plugin_wrong_object:RULES)"),
    plugin_case("plugin-check-raises", RULE_HEAD + """
RULES = [QuestionRule(code="X901", name="boom-check", summary="s", why="w", use_instead="u",
                      passing=(), failing=("x",), severity=Severity.ERROR, check=_boom)]
""", "RULES", "boom inside the check", "bank/hostile.yaml", other_ok=True),
    plugin_case("plugin-bank-check-raises", RULE_HEAD + """
RULES = [BankRule(code="X902", name="boom-bank", summary="s", why="w", use_instead="u",
                  passing=(), failing=("x",), severity=Severity.ERROR, check=_boom)]
""", "RULES", "boom inside the check", "<bank>"),
    plugin_case("plugin-exits-on-import", "raise SystemExit(0)\n", "RULES", "SystemExit",
                "plugin_exits_on_import (plugin_exits_on_import:RULES)"),
    plugin_case("plugin-check-exits", RULE_HEAD + """
def _exit(question, options):
    raise SystemExit(0)
    yield
RULES = [QuestionRule(code="X904", name="exit-check", summary="s", why="w", use_instead="u",
                      passing=(), failing=("x",), severity=Severity.ERROR, check=_exit)]
""", "RULES", "SystemExit", "bank/hostile.yaml", other_ok=True),
    plugin_case("plugin-bad-violation", RULE_HEAD + """
def _bad(question, options):
    yield "not a violation"
RULES = [QuestionRule(code="X903", name="bad-violation", summary="s", why="w", use_instead="u",
                      passing=(), failing=("x",), severity=Severity.ERROR, check=_bad)]
""", "RULES", "bad-violation", "bank/hostile.yaml", other_ok=True),
]


USAGE_CASES = [
    Case("usage-missing-path", lambda bank, tmp: None, "bank/missing.yaml", None, "no such file", exit=2,
         args=("bank/missing.yaml", "--format", "json")),
    Case("usage-unknown-format", lambda bank, tmp: None, None, None, "format", exit=2, args=("bank", "--format", "yaml")),
    Case("usage-config-is-folder", lambda bank, tmp: (tmp / "cfgdir").mkdir(), "cfgdir", None, "config", exit=2,
         args=("--config", "cfgdir", "bank", "--format", "json")),
    Case("usage-config-missing", lambda bank, tmp: None, "nope.toml", None, "nope.toml", exit=2,
         args=("--config", "nope.toml", "bank", "--format", "json")),
    Case("usage-config-fifo", lambda bank, tmp: os.mkfifo(tmp / "cfg.toml"), "cfg.toml", None, None, exit=2,
         args=("--config", "cfg.toml", "bank", "--format", "json"), timeout=10),
    Case("usage-baseline-fifo", lambda bank, tmp: os.mkfifo(tmp / "base.json"), "base.json", None, "regular file",
         exit=2, args=("bank", "--baseline", "base.json", "--format", "json"), timeout=10),
    Case("usage-write-baseline-fifo", lambda bank, tmp: os.mkfifo(tmp / "base.json"), "base.json", None,
         "regular file", exit=2, args=("bank", "--write-baseline", "base.json"), timeout=10),
]

ALL_CASES = TEXT_CASES + FILE_CASES + CONFIG_CASES + PACK_CASES + PLUGIN_CASES + USAGE_CASES


@pytest.fixture
def bank(tmp_path):
    root = tmp_path / "bank"
    root.mkdir()
    (root / "valid.yaml").write_text(VALID)
    (root / "flawed.yaml").write_text(FLAWED)
    (tmp_path / "qlint.toml").write_text("")  # stop the config search here
    yield root
    for dirpath, _dirnames, filenames in os.walk(tmp_path):  # let pytest clean up chmod 000 files
        for name in filenames:
            path = Path(dirpath) / name
            if not path.is_symlink() and path.is_file():
                path.chmod(0o644)


def _check_neighbours(findings: list[dict], other_ok: bool) -> None:
    flawed = [f for f in findings if f["path"] == "bank/flawed.yaml"]
    assert any(f["rule"] == "correct-count" and f["line"] == 3 for f in flawed), flawed
    valid = [f for f in findings if f["path"] == "bank/valid.yaml"]
    if other_ok:
        valid = [f for f in valid if f["rule"] != "internal-error"]
    assert valid == [], valid


@pytest.mark.parametrize("case", [pytest.param(c, id=c.name, marks=c.marks) for c in ALL_CASES])
def test_hostile_input(case: Case, bank: Path, tmp_path: Path):
    case.build(bank, tmp_path)
    before = snapshot(tmp_path)
    args = list(case.args) if case.args else ["bank", "--format", "json"]
    # a cold, private cache (outside the snapshot): every run pays the full cost of its hostile file
    env = {"QLINT_CACHE_DIR": str(tmp_path.parent / f"{tmp_path.name}-cache"), **case.env}
    code, out, err, elapsed = run_qlint(["check", *args], tmp_path, env, timeout=case.timeout)
    after = snapshot(tmp_path)

    assert "Traceback" not in err and "Traceback" not in out, err
    assert "internal error" not in err, err
    assert not (tmp_path / MARKER_NAME).exists(), "a YAML tag constructed an object"
    assert after == before, "the check wrote to the bank"
    assert elapsed < COST, f"{case.name} took {elapsed:.1f}s"
    assert code == case.exit, (code, out[-2000:], err[-2000:])

    if case.exit == 2:
        assert out == "", out
        assert err.startswith("qlint: error:"), err
        if case.path:
            assert case.path in err, err
        if case.needle:
            assert case.needle.lower() in err.lower(), err
        return

    report = json.loads(out)
    findings = report["findings"]
    mine = [f for f in findings if f["path"] == case.path]
    assert mine, f"{case.path} not named in any finding: {findings}"
    assert all(isinstance(f["line"], int) and f["line"] >= 1 and f["column"] >= 1 for f in findings)
    if case.line is not None:
        assert any(f["line"] == case.line for f in mine), mine
    if case.needle:
        assert any(case.needle.lower() in f["message"].lower() for f in mine), mine
    _check_neighbours(findings, case.other_findings_ok)
    assert findings == sorted(findings, key=lambda f: (f["path"], f["line"], f["column"], f["code"], f["message"]))


def test_hostile_stdin(tmp_path):
    (tmp_path / "qlint.toml").write_text("")
    for data in (b"\x00\x01binary", b"\xff\xfe" + b"\x00\xd8", b"[" * 20_000, _billion_laughs().encode()):
        code, out, err, _ = run_qlint(["check", "-", "--stdin-filename", "in.yaml", "--format", "json"],
                                      tmp_path, {"QLINT_CACHE_DIR": str(tmp_path / "cache")}, stdin=data)
        assert "Traceback" not in err and code == 1, err
        assert all(f["path"] == "in.yaml" for f in json.loads(out)["findings"])


# --------------------------------------------------------------------------------------------
# Files that change between discovery and reading (in-process: the race is forced by a hook).
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("swap", ["deleted", "replaced-by-folder", "replaced-by-fifo", "truncated"])
def test_file_changes_during_run(swap, bank, tmp_path, monkeypatch):
    import qlint.run.pipeline
    from qlint.cli.main import main

    victim = bank / "hostile.yaml"
    victim.write_text(TWO_KEYS)
    real = qlint.run.pipeline.discover_banks

    def discover_then_swap(paths, *args, **kwargs):
        found = list(real(paths, *args, **kwargs))
        if victim.exists():
            victim.unlink()
            if swap == "replaced-by-folder":
                victim.mkdir()
            elif swap == "replaced-by-fifo":
                os.mkfifo(victim)
            elif swap == "truncated":
                victim.write_bytes(b"")
        yield from found

    monkeypatch.setattr(qlint.run.pipeline, "discover_banks", discover_then_swap)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["check", "bank", "--format", "json"])
    assert code == 1 and "Traceback" not in err.getvalue(), err.getvalue()
    findings = json.loads(out.getvalue())["findings"]
    if swap != "replaced-by-folder":  # a folder is walked by a later run, not by this one
        mine = [f for f in findings if f["path"] == "bank/hostile.yaml"]
        assert mine and all(f["line"] >= 1 for f in mine), findings
    _check_neighbours(findings, False)


def test_not_a_regular_file_in_process(tmp_path):
    from qlint.formats import read_path as load_file

    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "dir.yaml").mkdir()
    for name in ("pipe.yaml", "dir.yaml"):
        result = load_file(tmp_path / name, name)
        assert [f.message for f in result.findings if "not a regular file" in f.message], result.findings
        assert result.findings[0].line == 1 and not result.questions
