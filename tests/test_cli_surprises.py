"""What a ruff or yamllint user takes for granted at qlint's command line: exit codes that survive a pipe, flags
that merge, options that say when they cannot apply, output that names each finding's severity."""
from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout

import pytest

from qlint.cli import main
from test_cli import CLEAN, TWO_KEYS


class _LeavingReader(io.StringIO):
    """Standard output whose reader goes away after the first line, as `| head -1` does."""

    def write(self, text: str) -> int:
        if "\n" in self.getvalue():
            raise BrokenPipeError(32, "Broken pipe")
        return super().write(text)


def _bank_with_errors(write, count: int = 30):
    for n in range(count):
        write(f"bank/b{n}.yaml", TWO_KEYS.replace("flawed-1", f"flawed-{n}"))


@pytest.mark.parametrize("extra", [[], ["--format", "json"], ["--diff"]])
def test_a_reader_that_leaves_does_not_turn_a_failing_run_into_a_pass(write, tmp_path, monkeypatch, extra):
    _bank_with_errors(write)
    if extra == ["--diff"]:
        write("bank/ws.yaml", CLEAN.replace("clean-1", "ws-1").replace("loss.item()", "'loss.item() '"))
    monkeypatch.chdir(tmp_path)
    with redirect_stdout(_LeavingReader()), redirect_stderr(io.StringIO()):
        code = main(["check", "bank", "--no-cache", *extra])
    assert code == 1


@pytest.mark.skipif(shutil.which("bash") is None or shutil.which("head") is None, reason="needs bash and head")
def test_pipefail_sees_the_run_fail(write, tmp_path):
    _bank_with_errors(write, 300)   # more output than a pipe holds, so the writes meet the closed pipe
    env = {**os.environ, "QLINT_NO_PROGRESS": "1"}
    result = subprocess.run(["bash", "-c", f"set -o pipefail; {sys.executable} -m qlint check bank --no-cache | head -1"],
                            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 1, result.stderr
    assert result.stdout.count("\n") == 1 and "Traceback" not in result.stderr and not result.stderr.strip()
