"""--fix and --diff: comments, order and quoting kept; idempotent; clean files byte-identical; atomic writes."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest
from helpers import with_rules

from qlint.edits import Fix, SetText
from qlint.formats.yaml_edit import FixError, apply_to_text, replace_fixed


@pytest.fixture
def run_cli(run_cli):
    """The CLI with option-order and negative-stem on: their safe fixes are what these tests exercise, and both
    rules are off by default (reviewers of real banks disagreed with too many of their findings)."""
    return with_rules(run_cli, "option-order", "negative-stem")


COMMENTED = """\
# Header comment: must survive
questions:
  # first question
  - id: fx-1   # trailing id comment
    stem: "Which tensor method returns a Python number?  "   # stem comment
    options:
      - text: ' item()'
        correct: true
        rationale: Correct. It copies the scalar out.
      - text: detach()   # keep me
        rationale: >-
          Incorrect. It returns
          a tensor.
"""


def _comments(text: str) -> list[str]:
    return [line[line.index("#"):].strip() for line in text.splitlines() if "#" in line]


def test_fix_keeps_comments_and_is_idempotent(run_cli, write):
    path = write("bank/a.yaml", COMMENTED)
    code, out, err = run_cli("check", path, "--fix")
    fixed = path.read_text()
    assert '"Which tensor method returns a Python number?"' in fixed and "'item()'" in fixed
    assert _comments(fixed) == _comments(COMMENTED)
    assert "stray-whitespace" not in out
    before = path.read_bytes()
    run_cli("check", path, "--fix")
    assert path.read_bytes() == before


def test_diff_writes_nothing(run_cli, write):
    path = write("bank/a.yaml", COMMENTED)
    code, out, _ = run_cli("check", path, "--diff")
    assert code == 1 and out.startswith("--- a/") and '+    stem: "Which tensor' in out
    assert path.read_text() == COMMENTED


def test_fix_with_diff_writes_nothing_either(run_cli, write):
    path = write("bank/a.yaml", COMMENTED)
    mtime = path.stat().st_mtime_ns
    code, out, err = run_cli("check", path, "--fix", "--diff")
    assert code == 1 and out.startswith("--- a/") and '+    stem: "Which tensor' in out
    assert path.read_text() == COMMENTED and path.stat().st_mtime_ns == mtime
    assert "fixed" not in err


def test_clean_file_is_left_byte_identical(run_cli, write):
    text = COMMENTED.replace('number?  "', 'number?"').replace("' item()'", "'item()'")
    path = write("bank/a.yaml", text)
    mtime = path.stat().st_mtime_ns
    code, out, _ = run_cli("check", path, "--fix")
    assert path.read_text() == text and path.stat().st_mtime_ns == mtime
    assert run_cli("check", path, "--diff")[0] == 0


def test_file_that_does_not_round_trip_is_left_alone(run_cli, write):
    odd = COMMENTED.replace("  - id: fx-1", "  - id:     fx-1")
    with pytest.raises(FixError):
        apply_to_text(odd, [("fx-1", Fix("x", (SetText("stem", "x"),)))])
    path = write("bank/a.yaml", odd)
    code, out, err = run_cli("check", path, "--fix")
    assert "not fixed" in err and path.read_text() == odd


def test_atomic_write_keeps_mode(tmp_path):
    path = tmp_path / "a.yaml"
    path.write_text("old\n")
    os.chmod(path, 0o640)
    replace_fixed(path, "new\n")
    assert path.read_text() == "new\n" and (path.stat().st_mode & 0o777) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["a.yaml"]


KILLER = textwrap.dedent("""
    import os, sys, pathlib
    import qlint.formats.yaml_edit as fix
    real = os.replace
    def slow_replace(src, dst):
        print("ready", flush=True)
        sys.stdin.readline()  # the parent kills us here, after the temp file is written
        real(src, dst)
    fix.os.replace = slow_replace
    fix.replace_fixed(pathlib.Path(sys.argv[1]), "new text " * 10000)
""")


def test_sigkill_mid_write_leaves_the_old_file(tmp_path):
    path = tmp_path / "bank.yaml"
    path.write_text("old text\n")
    proc = subprocess.Popen([sys.executable, "-c", KILLER, str(path)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert path.read_text() == "old text\n"


REORDER = """\
# numeric options out of order, and a lower-case negative
questions:
  - id: n-1   # keep this comment
    stem: How many bytes does one fp32 value take?
    options:
      - text: '8'     # eight
        rationale: Incorrect. That is fp64.
      - text: '2'
        rationale: Incorrect. That is fp16.
      - text: '4'
        correct: true
        rationale: Correct. 32 bits.
      - text: '1'
        rationale: Incorrect. That is int8.
  - id: n-2
    stem: >-
      Which of these settings does not reduce activation memory?
    options:
      - text: Gradient checkpointing
        rationale: Incorrect. It reduces activation memory.
      - text: A larger learning rate
        correct: true
        rationale: Correct. It has no effect on memory.
"""


def test_sorts_numeric_options_and_capitalises_negatives(run_cli, write):
    path = write("bank/q.yaml", REORDER)
    run_cli("check", path, "--fix")
    fixed = path.read_text()
    texts = [line.split("'")[1] for line in fixed.splitlines() if "- text: '" in line]
    assert texts == ["1", "2", "4", "8"]
    assert "- text: '8'     # eight" in fixed  # the comment travels with its option
    assert "does NOT reduce" in fixed
    # the key moved with its option
    lines = fixed.splitlines()
    assert lines[lines.index("      - text: '4'") + 1].strip() == "correct: true"
    assert _comments(fixed) == _comments(REORDER)
    again = path.read_bytes()
    run_cli("check", path, "--fix")
    assert path.read_bytes() == again


def test_fixes_survive_worker_processes(tmp_path, monkeypatch):
    """Workers send outcomes back as their cache encoding, which has no room for proposed fixes: outcomes with
    fixes must travel whole, or --fix on a big bank (checked in parallel) would find nothing to fix."""
    from qlint.run import batch, pipeline
    from qlint.run import fix as fix_run

    monkeypatch.setattr(batch, "PARALLEL_MIN_BYTES", 0)   # parallel even for a small bank
    monkeypatch.chdir(tmp_path)
    bank = tmp_path / "bank"
    bank.mkdir()
    for i in range(4):
        (bank / f"f{i}.yaml").write_text(COMMENTED.replace("fx-1", f"fx-{i}").replace("Python number", f"number {i}"))
    run = pipeline.run_check([str(bank)], jobs=2, use_cache=False)
    fixable = [f for f in run.findings if f.fix is not None]
    assert {f.path for f in fixable} == {f"bank/f{i}.yaml" for i in range(4)}
    assert fix_run.fix_run(run, write=False).changed.keys() == {f"bank/f{i}.yaml" for i in range(4)}
