"""What a ruff or yamllint user takes for granted at qlint's command line: exit codes that survive a pipe, flags
that merge, options that say when they cannot apply, output that names each finding's severity."""
from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout

import pytest
from test_cli import CLEAN, TWO_KEYS

from qlint.cli import main


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


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _check_on_a_terminal(args, env: dict[str, str], monkeypatch) -> str:
    for name in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    screen = _Terminal()
    with redirect_stdout(screen), redirect_stderr(io.StringIO()):
        main(["check", *map(str, args), "--no-cache"])
    return screen.getvalue()


def test_text_output_names_each_findings_severity(run_cli, write):
    bad = write("bank/b.yaml", TWO_KEYS.replace("text: loss.clone()", "text: 'loss.clone() '"))
    code, out, _ = run_cli("check", bad, "--no-cache", "--extend-select", "stray-whitespace")
    lines = out.splitlines()
    assert any(line.startswith(f"{bad}:3:1: error: Q104 correct-count: ") for line in lines), out
    assert any(": info: Q108 [*] stray-whitespace: " in line for line in lines), out


def test_no_color_removes_colour_but_keeps_the_snippets(write, monkeypatch):
    bad = write("bank/b.yaml", TWO_KEYS)
    coloured = _check_on_a_terminal([bad], {}, monkeypatch)
    assert "\033[" in coloured and "3 | options:" in coloured
    plain = _check_on_a_terminal([bad], {"NO_COLOR": "1"}, monkeypatch)
    assert "\033[" not in plain and "3 | options:" in plain
    assert plain == _check_on_a_terminal([bad, "--color", "never"], {}, monkeypatch)
    assert "3 | options:" not in _check_on_a_terminal([bad, "--no-show-source"], {}, monkeypatch)


def test_color_option_comes_before_the_environment(run_cli, write):
    bad = write("bank/b.yaml", TWO_KEYS)
    _, out, _ = run_cli("check", bad, "--no-cache", "--color", "always")   # NO_COLOR is set by run_cli
    assert "\033[31merror:" in out and "3 | options:" in out
    _, out, _ = run_cli("check", bad, "--no-cache", "--show-source")
    assert "\033[" not in out and "3 | options:" in out
    code, _, err = run_cli("check", bad, "--color", "sometimes")
    assert code == 2 and "auto" in err


def test_repeated_select_and_ignore_flags_add_up(run_cli, write):
    bad = write("b.yaml", TWO_KEYS.replace("    rationale: Incorrect. A clone keeps the graph alive.\n", ""))
    rules = lambda out: {line.split()[2] for line in out.splitlines() if ": Q" in line}  # noqa: E731
    _, out, _ = run_cli("check", bad, "--no-cache", "--select", "correct-count", "--select", "missing-rationale")
    assert rules(out) == {"Q104", "Q106"}, out
    _, out, _ = run_cli("check", bad, "--no-cache", "--ignore", "correct-count", "--ignore", "missing-rationale")
    assert not rules(out) & {"Q104", "Q106"}, out


def test_an_ignore_that_cannot_apply_says_so(run_cli, write):
    misspelt = write("b.yaml", CLEAN.replace("    rationale: Incorrect. It still", "    rationnale: Incorrect. It still"))
    code, out, err = run_cli("check", misspelt, "--no-cache", "--ignore", "schema")
    assert code == 1 and "Q102 schema" in out
    assert "--ignore schema: schema findings are always reported" in err
    write("qlint.toml", 'ignore = ["Q101"]\n')
    _, _, err = run_cli("check", misspelt, "--no-cache")
    assert "ignore Q101: parse-error findings are always reported" in err
    _, _, err = run_cli("check", misspelt, "--no-cache", "--ignore", "Q1")   # a prefix ignores the others it names
    assert "always reported" in err and "Q1:" not in err


@pytest.mark.parametrize(("args", "said"), [
    (["check", "--selct", "correct-count"], "qlint check: error: unknown option '--selct'; did you mean '--select'?"),
    (["check", "--colr=never"], "did you mean '--color'?"),
    (["chek"], "did you mean 'check'?"),
    (["check", "--format", "jsn"], "did you mean 'json'?"),
    (["check", "-j", "-3"], "-3 workers: give at least 1"),
    (["check", "-j", "0"], "0 workers"),
    (["rules", "extra"], "qlint rules: error: unexpected argument 'extra'"),
])
def test_bad_arguments_are_usage_errors_with_a_hint(run_cli, write, args, said):
    write("b.yaml", CLEAN)
    code, out, err = run_cli(*args)
    assert code == 2 and said in err, err
    assert "usage: qlint [-h]" not in err and "Traceback" not in err


def test_fix_on_a_named_gift_file_names_only_that_file(run_cli, write, tmp_path):
    write("qlint.toml", 'paths = ["bank"]\n')
    for name in "abc":
        write(f"bank/{name}.gift", f"::{name}-1:: Which call returns a plain number from a loss tensor {name}? {{\n"
                                   "=loss.item() #Correct.\n~loss.detach() #Incorrect.\n}\n")
    code, out, err = run_cli("check", "bank/a.gift", "--fix", "--no-cache", cwd=tmp_path)
    assert "rewrite YAML banks only; bank/a.gift is in another format" in err, err
    assert "b.gift" not in err and "c.gift" not in err


def test_rules_listing_follows_the_config(run_cli, write, tmp_path):
    write("qlint.toml", 'extend-select = ["option-length"]\nignore = ["near-duplicate-stem"]\n'
                        '[rules.correct-count]\nseverity = "warning"\n')
    code, out, _ = run_cli("rules", cwd=tmp_path)
    lines = {line.split()[1]: line for line in out.splitlines()}
    assert code == 0
    assert " on " in lines["option-length"] and "(off by default)" in lines["option-length"]
    assert " off " in lines["near-duplicate-stem"] and "(on by default)" in lines["near-duplicate-stem"]
    assert "warning  on" in lines["correct-count"] and "default error" in lines["correct-count"]
    listed = {r["name"]: r for r in json.loads(run_cli("rules", "--format", "json")[1])}
    assert listed["option-length"]["enabled"] and not listed["option-length"]["enabled_by_default"]
    assert listed["correct-count"]["severity"] == "warning" and listed["correct-count"]["default_severity"] == "error"


REJECTED = """\
id: {id}
stem: Which optimizer keeps two moments per weight?
options:
  - {{text: Adam, correct: true, rationale: Correct. It keeps both moments.}}
"""


def test_duplicate_id_counts_a_question_the_schema_rejected(run_cli, write, tmp_path):
    write("qlint.toml", 'paths = ["bank"]\n')
    write("bank/a.yaml", CLEAN)
    write("bank/b.yaml", REJECTED.format(id="clean-1"))   # one option: rejected, but its id is taken
    for _ in range(2):   # cold, then from the cache
        code, out, _ = run_cli("check", "bank", "--format", "json", cwd=tmp_path)
        found = {(f["path"], f["rule"]) for f in json.loads(out)["findings"]}
        assert ("bank/a.yaml", "duplicate-id") in found and ("bank/b.yaml", "duplicate-id") in found, found
        assert ("bank/b.yaml", "schema") in found
    code, out, _ = run_cli("check", "bank/a.yaml", "--format", "json", cwd=tmp_path)   # one file, the rest as bank
    messages = [f["message"] for f in json.loads(out)["findings"] if f["rule"] == "duplicate-id"]
    assert messages == ["id 'clean-1' is also used at bank/b.yaml:1"]


def test_fix_refuses_exactly_the_duplicate_the_check_reports(run_cli, write, tmp_path):
    indent = lambda text: "".join(("  - " if i == 0 else "    ") + line + "\n"  # noqa: E731
                                  for i, line in enumerate(text.splitlines()))
    path = write("a.yaml", "questions:\n" + indent(CLEAN.replace("loss.item()", "'loss.item() '"))
                 + indent(REJECTED.format(id="clean-1")))
    code, out, err = run_cli("check", path, "--fix", "--extend-select", "stray-whitespace", "--no-cache")
    assert "Q103 duplicate-id" in out and "Q905 fix-skipped" in out, out
