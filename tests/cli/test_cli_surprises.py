"""What a ruff or yamllint user takes for granted at qlint's command line: exit codes that survive a pipe, flags
that merge, options that say when they cannot apply, output that names each finding's severity."""
from __future__ import annotations

from helpers import ROOT

import io
import json
import os
import shutil
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from helpers import CLEAN, TWO_KEYS

from qlint.cli.main import main


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
    write("qlint.toml", 'extend-select = ["negative-stem"]\nignore = ["near-duplicate-stem"]\n'
                        '[rules.correct-count]\nseverity = "warning"\n')
    code, out, _ = run_cli("rules", cwd=tmp_path)
    lines = {line.split()[1]: line for line in out.splitlines()}
    assert code == 0
    assert " on " in lines["negative-stem"] and "(off by default)" in lines["negative-stem"]
    assert " off " in lines["near-duplicate-stem"] and "(on by default)" in lines["near-duplicate-stem"]
    assert "warning  on" in lines["correct-count"] and "default error" in lines["correct-count"]
    listed = {r["name"]: r for r in json.loads(run_cli("rules", "--format", "json")[1])}
    assert listed["negative-stem"]["enabled"] and not listed["negative-stem"]["enabled_by_default"]
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


# --- what the bank is, and where discovery may go ----------------------------------------------------------------


def _walks(monkeypatch) -> list[str]:
    walked: list[str] = []
    real = os.walk

    def recording(top, *args, **kwargs):
        walked.append(os.path.abspath(top))
        return real(top, *args, **kwargs)

    monkeypatch.setattr(os, "walk", recording)
    return walked


def test_stdin_named_at_the_root_of_the_file_system_walks_nothing(run_cli, monkeypatch, tmp_path):
    walked = _walks(monkeypatch)
    code, out, err = run_cli("check", "-", "--stdin-filename", "/zz.yaml", "--format", "json", cwd=tmp_path,
                             stdin=TWO_KEYS)
    assert code == 1 and walked == [], walked
    doc = json.loads(out)
    assert doc["summary"]["files"] == 1 and {f["path"] for f in doc["findings"]} == {"/zz.yaml"}


def test_stdin_is_compared_with_the_bank_the_config_names_and_nothing_above(run_cli, write, monkeypatch, tmp_path):
    write("project/qlint.toml", 'paths = ["bank"]\n')
    write("project/bank/a.yaml", CLEAN)
    write("project/notes/other.yaml", CLEAN.replace("clean-1", "other-1"))
    walked = _walks(monkeypatch)
    code, out, _ = run_cli("check", "-", "--stdin-filename", "project/bank/new.yaml", "--format", "json",
                           "--no-cache", cwd=tmp_path, stdin=CLEAN)
    assert walked == [str(tmp_path / "project" / "bank")]
    assert [f["message"] for f in json.loads(out)["findings"] if f["rule"] == "duplicate-id"] == \
        ["id 'clean-1' is also used at project/bank/a.yaml:1"]


@pytest.mark.parametrize("paths", ['["../elsewhere"]', '["/"]', '["bank", "../../"]'])
def test_a_config_cannot_name_a_bank_above_its_own_folder(run_cli, write, tmp_path, paths):
    write("project/qlint.toml", f"paths = {paths}\n")
    write("project/bank/a.yaml", CLEAN)
    (tmp_path / "elsewhere").mkdir()
    code, _, err = run_cli("check", "project/bank/a.yaml", cwd=tmp_path)
    assert code == 2 and "lies outside" in err and "qlint.toml:1" in err, err


OTHER = """\
id: other-1
stem: Which schedule raises the learning rate linearly over the first steps of training?
options:
  - {text: Linear warm-up, correct: true, rationale: Correct. It ramps the rate up from zero.}
  - {text: Cosine decay, rationale: Incorrect. It lowers the rate.}
"""


def _ignored_bank(write, tmp_path):
    (tmp_path / ".git").mkdir()
    write(".gitignore", "generated/\n*.tmp.yaml\n")
    write("qlint.toml", 'paths = ["bank"]\n')
    write("bank/a.yaml", CLEAN)
    write("bank/generated/copy.yaml", CLEAN)            # a generated copy: the same id
    write("bank/b.tmp.yaml", CLEAN.replace("clean-1", "clean-1").replace("Which call", "Scratch: which call"))
    write("bank/keep/.gitignore", "!*.tmp.yaml\n")      # re-included below, as git reads it
    write("bank/keep/kept.tmp.yaml", OTHER)


def test_gitignored_files_are_left_out_unless_asked(run_cli, write, tmp_path):
    _ignored_bank(write, tmp_path)
    files = lambda out: sorted({f["path"] for f in json.loads(out)["findings"]} | set())  # noqa: E731
    code, out, _ = run_cli("check", "bank", "--format", "json", "--no-cache", cwd=tmp_path)
    doc = json.loads(out)
    assert code == 0 and doc["summary"]["files"] == 2, doc   # a.yaml and keep/kept.tmp.yaml
    for args in (["--no-respect-gitignore"], ["--config", "respect-gitignore = false"]):
        code, out, _ = run_cli("check", "bank", "--format", "json", "--no-cache", *args, cwd=tmp_path)
        doc = json.loads(out)
        assert code == 1 and doc["summary"]["files"] == 4, (args, doc)
        assert files(out) == ["bank/a.yaml", "bank/b.tmp.yaml", "bank/generated/copy.yaml"]
    write("qlint.toml", 'paths = ["bank"]\nrespect-gitignore = false\n')
    assert json.loads(run_cli("check", "bank", "--format", "json", "--no-cache", cwd=tmp_path)[1])["summary"]["files"] == 4


def test_a_named_file_is_compared_with_the_bank_git_keeps(run_cli, write, tmp_path):
    _ignored_bank(write, tmp_path)
    code, out, _ = run_cli("check", "bank/a.yaml", "--format", "json", "--no-cache", cwd=tmp_path)
    assert code == 0 and json.loads(out)["findings"] == []
    # named, an ignored file is checked (as ruff does), unless --force-exclude applies the exclusions to it
    code, out, _ = run_cli("check", "bank/generated/copy.yaml", "--format", "json", "--no-cache", cwd=tmp_path)
    assert json.loads(out)["summary"]["files"] == 1
    code, out, err = run_cli("check", "--force-exclude", "bank/generated/copy.yaml", "bank/b.tmp.yaml", cwd=tmp_path)
    assert code == 0 and out == "" and err == ""


def test_exclude_globs_are_relative_to_the_config_wherever_the_check_starts(run_cli, write, tmp_path):
    write("qlint.toml", 'paths = ["bank"]\nexclude = ["bank/drafts/**", "*.wip.yaml"]\n')
    write("bank/a.yaml", CLEAN)
    write("bank/drafts/d.yaml", TWO_KEYS)
    write("bank/sub/w.wip.yaml", TWO_KEYS)
    assert run_cli("check", ".", "--no-cache", cwd=tmp_path)[0] == 0
    assert run_cli("check", ".", "--no-cache", cwd=tmp_path / "bank")[0] == 0
    assert run_cli("check", str(tmp_path / "bank"), "--no-cache", cwd=tmp_path / "bank" / "sub")[0] == 0


# --- --config KEY=VALUE and extend -------------------------------------------------------------------------------


def test_config_settings_on_the_command_line_go_over_the_files(run_cli, write, tmp_path):
    write("qlint.toml", 'fail-on = "error"\n[rules.correct-count]\nseverity = "warning"\n')
    bad = write("b.yaml", TWO_KEYS)
    assert run_cli("check", bad, "--no-cache", cwd=tmp_path)[0] == 0
    assert run_cli("check", bad, "--no-cache", "--config", 'fail-on = "warning"', cwd=tmp_path)[0] == 1
    assert run_cli("check", bad, "--no-cache", "--config", 'rules.correct-count.severity = "error"', cwd=tmp_path)[0] == 1
    code, _, err = run_cli("check", bad, "--config", "fail-on = 'warnin'", cwd=tmp_path)
    assert code == 2 and "--config \"fail-on = 'warnin'\"" in err
    code, _, err = run_cli("check", bad, "--config", "fail-on=warning", cwd=tmp_path)   # TOML strings are quoted
    assert code == 2 and "strings in quotes" in err
    code, _, err = run_cli("check", bad, "--config", "fial-on = 'warning'", cwd=tmp_path)
    assert code == 2 and "did you mean 'fail-on'" in err
    other = write("other.toml", 'ignore = ["correct-count"]\n')
    assert run_cli("check", bad, "--no-cache", "--config", other, "--config", 'fail-on = "warning"', cwd=tmp_path)[0] == 0
    code, _, err = run_cli("check", bad, "--config", other, "--config", tmp_path / "qlint.toml", cwd=tmp_path)
    assert code == 2 and "two config files" in err


def test_a_sub_bank_config_extends_its_parents(run_cli, write, tmp_path):
    write("qlint.toml", 'paths = ["bank"]\nexclude = ["bank/drafts/**"]\nfail-on = "warning"\n'
                        'extend-select = ["option-length"]\n[rules.option-length]\nkey-ratio = 9.0\n')
    write("bank/a.yaml", CLEAN)
    write("bank/drafts/d.yaml", TWO_KEYS)
    write("bank/medical/qlint.toml", 'extend = "../../qlint.toml"\nexclude = ["scratch/**"]\n'
                                     '[rules.correct-count]\nseverity = "warning"\n')
    write("bank/medical/m.yaml", TWO_KEYS.replace("flawed-1", "med-1"))
    write("bank/medical/scratch/s.yaml", "not: [a, bank")
    code, out, err = run_cli("check", "bank/medical/m.yaml", "--format", "json", "--no-cache", cwd=tmp_path)
    found = json.loads(out)["findings"]
    # the child's severity, the parent's fail-on: a warning fails the run
    assert [(f["rule"], f["severity"]) for f in found] == [("correct-count", "warning")] and code == 1, (out, err)
    # run from the sub-bank: the bank is still the parent's paths, the drafts and the scratch folder left out
    code, out, err = run_cli("check", "--format", "json", "--no-cache", cwd=tmp_path / "bank" / "medical")
    doc = json.loads(out)
    assert doc["summary"]["files"] == 2 and code == 1, (doc, err)
    write("bank/medical/qlint.toml", 'extend = "/etc/passwd"\n')
    code, _, err = run_cli("check", "bank/medical/m.yaml", cwd=tmp_path)
    assert code == 2 and "must name a qlint.toml, .qlint.toml or pyproject.toml in this folder or a folder above" in err
    write("bank/medical/qlint.toml", 'extend = "qlint.toml"\n')
    code, _, err = run_cli("check", "bank/medical/m.yaml", cwd=tmp_path)
    assert code == 2 and "leads back" in err


# --- --show-settings, --show-files ----------------------------------------------------------------------------------


def test_show_settings_says_where_each_value_came_from_and_what_the_bank_is(run_cli, write, tmp_path):
    write("qlint.toml", 'paths = ["bank"]\nfail-on = "warning"\n\n[rules.near-duplicate-stem]\nthreshold = 92\n')
    write("bank/a.yaml", CLEAN)
    code, out, _ = run_cli("check", "bank/a.yaml", "--show-settings", "--config", "max-depth = 10",
                           "--no-respect-gitignore", "--ignore", "near-duplicate-stem", cwd=tmp_path)
    assert code == 0
    lines = {line.split("#")[0].strip(): line.rsplit("#", 1)[1].strip() for line in out.splitlines() if " = " in line
             and "#" in line}
    assert lines['paths = ["bank"]'] == "qlint.toml:1" and lines['fail-on = "warning"'] == "qlint.toml:2"
    assert lines["max-depth = 10"] == "--config 'max-depth = 10'"
    assert lines["respect-gitignore = false"] == "--no-respect-gitignore"
    assert lines["max-file-size = 20971520"] == "default"
    assert "bank:         bank (paths, qlint.toml:1)" in out and "[rules.near-duplicate-stem]  # qlint.toml:4" in out
    view = json.loads(run_cli("check", "bank/a.yaml", "--show-settings", "--format", "json", "--fail-on", "info",
                              "--ignore", "near-duplicate-stem", cwd=tmp_path)[1])
    assert view["settings"]["fail-on"] == {"value": "info", "from": "--fail-on"}
    assert view["bank"] == {"paths": ["bank"], "from": "qlint.toml:1"} and view["config_files"] == ["qlint.toml"]
    assert "near-duplicate-stem" not in {a["name"] for a in view["active"]}
    write("qlint.toml", 'fail-on = "warning"\n')
    code, out, _ = run_cli("check", "bank/a.yaml", "--show-settings", cwd=tmp_path)
    assert "bank:         none configured (no paths): named files are compared only with each other" in out


def test_show_files_lists_what_the_check_reads(run_cli, write, tmp_path):
    _ignored_bank(write, tmp_path)
    write("bank/notes.txt", "not a bank file")
    code, out, _ = run_cli("check", "--show-files", cwd=tmp_path)
    assert code == 0 and out.splitlines() == ["bank/a.yaml", "bank/keep/kept.tmp.yaml"]
    code, out, _ = run_cli("check", "bank", "--list-files", "--no-respect-gitignore", cwd=tmp_path)
    assert out.splitlines() == ["bank/a.yaml", "bank/b.tmp.yaml", "bank/generated/copy.yaml", "bank/keep/kept.tmp.yaml"]
    code, out, _ = run_cli("check", "--show-files", "--force-exclude", "bank/generated/copy.yaml", "bank/a.yaml",
                           cwd=tmp_path)
    assert out.splitlines() == ["bank/a.yaml"]


WHITESPACE = """\
questions:
  - id: ws-{n}
    stem: "Which call copies the value of a one-element tensor out to Python {n}? "
    options:
      - {{text: "loss.item() ", correct: true, rationale: Correct. It copies the value.}}
      - {{text: loss.detach(), rationale: "Incorrect. It is still a tensor. "}}
"""


def test_show_fixes_lists_what_fix_changed_per_file(run_cli, write, tmp_path):
    write("a.yaml", WHITESPACE.format(n=1))
    write("b.yaml", WHITESPACE.format(n=2).replace('"loss.item() "', "loss.item()"))
    args = ("check", ".", "--no-cache", "--extend-select", "stray-whitespace", "--show-fixes")
    _, out, _ = run_cli(*args, cwd=tmp_path)
    assert "5 problems fixable with `--fix`:\n- a.yaml:\n    3 × Q108 (stray-whitespace)\n- b.yaml:\n    2 × Q108" in out
    code, out, _ = run_cli(*args, "--fix", cwd=tmp_path)
    assert code == 0 and "Fixed 5 problems:\n- a.yaml:\n    3 × Q108 (stray-whitespace)\n- b.yaml:\n    2 × Q108" in out
    _, out, _ = run_cli(*args, "--fix", cwd=tmp_path)
    assert "No problems fixed." in out
    _, out, _ = run_cli("check", ".", "--no-cache", "--extend-select", "stray-whitespace", cwd=tmp_path)
    assert "Fixed" not in out and "fixable" not in out


def test_clean_removes_the_caches_of_sub_configs_too(run_cli, write, tmp_path):
    write("qlint.toml", 'paths = ["bank"]\n')
    write("bank/a.yaml", CLEAN)
    write("bank/medical/qlint.toml", 'cache-dir = "build/cache"\n')
    write("bank/medical/m.yaml", OTHER)
    write("bank/legal/qlint.toml", "")
    write("bank/legal/l.yaml", OTHER.replace("other-1", "legal-1"))
    run_cli("check", "bank/a.yaml", cwd=tmp_path)
    run_cli("check", "bank/medical/m.yaml", cwd=tmp_path)
    run_cli("check", "bank/legal/l.yaml", cwd=tmp_path)
    caches = [tmp_path / ".qlint_cache", tmp_path / "bank/medical/build/cache", tmp_path / "bank/legal/.qlint_cache"]
    assert all(c.is_dir() for c in caches)
    code, out, _ = run_cli("clean", cwd=tmp_path)
    assert code == 0 and not any(c.exists() for c in caches), out
    assert out.endswith(" cache folders from .qlint_cache, bank/legal/.qlint_cache, bank/medical/build/cache\n"), out
    assert run_cli("clean", cwd=tmp_path)[1].startswith("removed 0 cache folders")


# --- output formats under the names ruff and yamllint users type -------------------------------------------------


@pytest.mark.parametrize(("name", "expect"), [
    ("concise", "b.yaml:3:1: error: Q104 correct-count: "),
    ("full", "3 | options:"),
    ("grouped", "b.yaml:\n  3:1  error    Q104 correct-count: "),
    ("pylint", "b.yaml:3: [Q104] correct-count: "),
    ("azure", "##vso[task.logissue type=error;sourcepath=b.yaml;linenumber=3;columnnumber=1;code=Q104;]correct-count: "),
    ("rdjson", '"value": "Q104 correct-count"'),
    ("parsable", "b.yaml:3:1: [error] 2 options are marked correct"),
    ("standard", "b.yaml:\n  3:1  error    Q104"),
    ("colored", "\033[31merror"),
    ("auto", "b.yaml:3:1: error: Q104 correct-count: "),
    ("json-lines", '"rule": "correct-count"'),
])
def test_every_output_format_name_ruff_and_yamllint_users_type(run_cli, write, tmp_path, name, expect):
    write("b.yaml", TWO_KEYS)
    code, out, err = run_cli("check", "b.yaml", "--no-cache", "--output-format", name, cwd=tmp_path)
    assert code == 1 and expect in out, out + err
    if name == "concise":
        assert "3 | options:" not in run_cli("check", "b.yaml", "--no-cache", "--format", name, "--show-source",
                                             cwd=tmp_path)[1]
    if name == "rdjson":
        doc = json.loads(out)
        diagnostic = doc["diagnostics"][0]
        assert doc["source"]["name"] == "qlint" and diagnostic["severity"] == "ERROR"
        assert diagnostic["location"] == {"path": "b.yaml", "range": {"start": {"line": 3, "column": 1}}}


def test_azure_commands_cannot_be_broken_by_a_message(tmp_path):
    from qlint.finding import Finding, Severity
    from qlint.output import Report, renderers
    finding = Finding("a;b].yaml", 1, 1, "Q101", "parse-error", Severity.ERROR, "100% bad]; next\n##vso[task.complete]")
    out = io.StringIO()
    renderers()["azure"](Report([finding], 1, 1), out, {})
    line = out.getvalue()
    assert line.count("\n") == 1 and "sourcepath=a%3Bb%5D.yaml;" in line
    assert line.endswith("]parse-error: 100%AZP25 bad]; next%0A##vso[task.complete]\n")


@pytest.mark.parametrize("name", ["text", "concise", "full", "grouped", "pylint", "azure", "rdjson", "parsable",
                                  "standard", "json", "json-lines", "sarif", "github", "gitlab", "junit"])
def test_no_format_lets_a_name_or_message_forge_lines_or_drive_the_terminal(name):
    from qlint.finding import Finding, Severity
    from qlint.output import Report, renderers
    finding = Finding("bank/x\n::error::forged\udcff.yaml", 2, 1, "Q101", "parse-error", Severity.ERROR,
                      "bad \x1b]0;title\x07 value\nbank/y.yaml:1:1: error: forged")
    out = io.StringIO()
    renderers()[name](Report([finding], 1, 1), out, {"colour": False, "quiet": True})
    text = out.getvalue()
    text.encode("utf-8")   # no lone surrogate left
    assert "\x1b" not in text and "\x07" not in text
    if name != "junit":   # XML, which no log reads a line at a time
        assert not any(line.startswith(("::error::forged", "bank/y.yaml:1:1")) for line in text.splitlines()), text


# --- --watch -------------------------------------------------------------------------------------------------------


def test_watch_checks_again_when_a_bank_file_changes(run_cli, write, tmp_path, monkeypatch):
    import qlint.cli.watch
    write("qlint.toml", 'paths = ["bank"]\n')
    write("bank/a.yaml", CLEAN)
    edits = [lambda: write("bank/b.yaml", TWO_KEYS),                              # a new file
             lambda: None,                                                        # nothing changed: no run
             lambda: write("bank/b.yaml", TWO_KEYS.replace("correct: true\n    rationale: Correct. The same",
                                                           "rationale: Correct. The same")),   # fixed
             lambda: write("qlint.toml", 'paths = ["bank"]\nfial-on = "x"\n'),  # a broken config: said, not fatal
             ]
    pauses = []

    def sleep(seconds: float) -> bool:
        pauses.append(seconds)
        if not edits:
            return False
        edits.pop(0)()
        return True

    monkeypatch.setattr(qlint.cli.watch, "_sleep", sleep)
    code, out, err = run_cli("check", "--watch", cwd=tmp_path)
    assert code == 0
    runs = out.split("File change detected...")
    assert len(runs) == 4 and "All clear" in runs[0] and "Q104 correct-count" in runs[1], out
    assert "(0 errors" in runs[2] and "Q104" not in runs[2]
    assert "did you mean 'fail-on'" in err and min(pauses) >= qlint.cli.watch.INTERVAL
    assert run_cli("check", "-", "--watch", stdin="")[0] == 2


# --- shell completion ------------------------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completion_completes_commands_options_values_and_rules(run_cli, tmp_path):
    code, script, _ = run_cli("completion", "bash")
    assert code == 0
    (tmp_path / "qlint.bash").write_text(script, encoding="utf-8")
    probe = """source ./qlint.bash
t() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMPREPLY=(); _qlint; echo "${COMPREPLY[*]}"; }
t qlint ch; t qlint check --wat; t qlint check --format js; t qlint check --select near-d; t qlint rule option-le
t qlint check --fail-on w; t qlint check --output-format gro
"""
    result = subprocess.run(["bash", "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and not result.stderr, result.stderr
    assert result.stdout.splitlines() == ["check", "--watch", "json json-lines", "near-duplicate-stem",
                                          "option-length", "warning", "grouped"]


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_completion_scripts(run_cli, shell):
    code, script, _ = run_cli("completion", shell)
    assert code == 0 and "near-duplicate-stem" in script and "--show-settings" in script.replace("-l show-settings",
                                                                                                 "--show-settings")
    if shell == "zsh":
        assert script.startswith("#compdef qlint\n") and "bashcompinit" in script
    else:
        assert "complete -c qlint -n '__fish_seen_subcommand_from check' -l watch -s w" in script
    assert run_cli("generate-shell-completion", shell)[1] == script


# --- rule cards: fix safety ----------------------------------------------------------------------------------------


def test_every_fixable_rule_card_has_a_fix_safety_section(run_cli, registry):
    for rule in registry:
        _, out, _ = run_cli("rule", rule.name)
        card = json.loads(run_cli("rule", rule.name, "--format", "json")[1])
        if rule.fixable:
            assert "## Fix safety\n" in out and rule.fix_safety and rule.fix_safety in out, rule.name
            assert card["fix_safety"].startswith(rule.fix_safety)
        else:
            assert "## Fix safety" not in out and card["fix_safety"] is None, rule.name


UNSORTED = """\
id: n-1
stem: How many bytes does one bfloat16 value take?
options:
  - {text: "4", rationale: "Incorrect. That is fp32."}
  - {text: "2", correct: true, rationale: "Correct. Sixteen bits."}
  - {text: "8", rationale: "Incorrect. That is fp64."}
"""


def test_option_order_offers_no_fix_when_a_text_names_an_option_by_its_place(run_cli, write):
    plain = write("a.yaml", UNSORTED)
    lettered = write("b.yaml", UNSORTED.replace("That is fp64.", "Twice option A."))
    code, out, _ = run_cli("check", plain, lettered, "--select", "option-order", "--no-cache", "--diff")
    assert "+++ b/" + str(plain) in out and str(lettered) not in out
    _, out, _ = run_cli("check", lettered, "--select", "option-order", "--no-cache")
    assert "Q304 option-order:" in out and "[*]" not in out


# --- nothing points at an address the project does not own -------------------------------------------------------


def test_schema_and_sarif_name_no_web_address_and_say_where_the_card_is(run_cli, write):
    schema = json.loads(run_cli("schema")[1])
    assert "$id" not in schema
    bad = write("b.yaml", TWO_KEYS)
    sarif = json.loads(run_cli("check", bad, "--format", "sarif", "--no-cache")[1])
    rules = sarif["runs"][0]["tool"]["driver"]["rules"]
    assert rules and all("helpUri" not in r for r in rules)
    q104 = next(r for r in rules if r["id"] == "Q104")
    assert "`qlint rule Q104`" in q104["help"]["text"] and "docs/rules.md" in q104["help"]["markdown"]
    shipped = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert "## correct-count (Q104)" in shipped


def test_readme_and_hooks_have_no_placeholders():
    root = ROOT
    for name in ("README.md", ".pre-commit-hooks.yaml"):
        text = (root / name).read_text(encoding="utf-8")
        assert "OWNER" not in text and "rev: v0.1.0" not in text, name


def test_the_readme_commands_run_as_pasted(run_cli, monkeypatch, tmp_path):
    root = ROOT
    text = (root / "README.md").read_text(encoding="utf-8")
    block = text[text.index("## Running it"):]
    block = block[block.index("```sh\n") + 6:block.index("```", block.index("```sh\n") + 6)]
    commands = [line.split("  #")[0].split() for line in block.splitlines() if line.startswith("qlint ")]
    assert len(commands) >= 6
    monkeypatch.setenv("QLINT_CACHE_DIR", str(tmp_path / "cache"))
    for command in commands:
        if "--watch" in command:
            continue   # runs until Ctrl-C: test_watch_checks_again_when_a_bank_file_changes drives it
        code, out, err = run_cli(*command[1:], cwd=root)
        assert code == 0 and out and "error:" not in err, (command, err)   # the sample bank passes


def _project(write):
    write("qlint.toml", 'paths = ["bank"]\n')
    write("bank/a.yaml", CLEAN)
    return write("bank/b.yaml", TWO_KEYS)


@pytest.mark.parametrize("args, target, what", [
    (["check", "-o", "bank/b.yaml"], "bank/b.yaml", "a bank file"),
    (["check", "bank", "--format", "json", "--output-file", "bank/a.yaml"], "bank/a.yaml", "a bank file"),
    (["check", "--write-baseline", "bank/a.yaml"], "bank/a.yaml", "a bank file"),
    (["check", "-o", "qlint.toml"], "qlint.toml", "a config file"),
    (["check", "-o", "link.yaml"], "link.yaml", "a bank file"),   # a symlink to a bank file
    (["check", "--baseline", "base.json", "-o", "base.json"], "base.json", "the baseline"),
])
def test_a_report_is_never_written_over_a_file_the_run_reads(run_cli, write, tmp_path, args, target, what):
    _project(write)
    (tmp_path / "link.yaml").symlink_to(tmp_path / "bank" / "b.yaml")
    run_cli("check", "--write-baseline", "base.json", cwd=tmp_path)
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file() and ".qlint_cache" not in p.parts}
    for _ in range(2):   # the second run's report would come from the cache: it is refused all the same
        code, out, err = run_cli(*args, cwd=tmp_path)
        assert code == 2, out + err
        assert f"refusing to write to {target}: it is {what} this run reads" in err
        assert {p: p.read_bytes() for p in before} == before
        run_cli(*[a if a != target else "elsewhere.out" for a in args], cwd=tmp_path)   # keeps an answer


def test_a_new_output_file_and_a_baseline_written_over_itself_are_still_written(run_cli, write, tmp_path):
    _project(write)
    assert run_cli("check", "-o", "report.txt", cwd=tmp_path)[0] == 1
    assert "correct-count" in (tmp_path / "report.txt").read_text()
    assert run_cli("check", "--write-baseline", "base.json", cwd=tmp_path)[0] == 0
    assert run_cli("check", "--baseline", "base.json", "--write-baseline", "base.json", cwd=tmp_path)[0] == 0


def test_analyze_never_writes_over_its_response_file(run_cli, tmp_path):
    pytest.importorskip("duckdb")
    data = ROOT / "tests" / "data" / "responses"
    for name in ("bank.yaml", "long.csv"):
        shutil.copy(data / name, tmp_path / name)
    before = (tmp_path / "long.csv").read_bytes()
    code, out, err = run_cli("analyze", "long.csv", "bank.yaml", "-o", "long.csv", cwd=tmp_path)
    assert code == 2 and "refusing to write to long.csv: it is a response file this run reads" in err, out + err
    assert (tmp_path / "long.csv").read_bytes() == before
