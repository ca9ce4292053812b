"""What a new user with ruff, yamllint and pre-commit habits meets first: messages that point at the right fix,
exit codes that hold in pipes, completion that works in every shell it is offered for."""
from __future__ import annotations

from helpers import CLEAN, ROOT

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


# --- an optional extra is installed by its libraries' names, never as qlint[...] from PyPI -------------------------


@pytest.mark.parametrize(("command", "module", "wanted"), [
    (("server",), "pygls", "pip install 'pygls<3,>=2.0' 'lsprotocol>=2025.0.0'"),
    (("stats", "bank/"), "rich", "pip install 'matplotlib>=3.7' 'rich>=13'"),
])
def test_a_missing_extra_names_its_libraries_not_the_other_qlint_on_pypi(run_cli, monkeypatch, command, module,
                                                                          wanted):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == module else real(name, *a))
    code, _, err = run_cli(*command)
    assert code == 2 and "qlint[" not in err, err
    names = wanted.split("'")[1::2]
    assert all(name.split(">")[0].split("<")[0] in err for name in names), err


def test_the_install_hint_reads_the_extra_from_the_metadata_and_falls_back_when_there_is_none(monkeypatch):
    import importlib.metadata

    from qlint import install_hint

    assert install_hint("irt").startswith("pip install 'duckdb>=1.1' 'mirt>=1.2'")

    def missing(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "requires", missing)
    assert install_hint("report").startswith("pip install 'matplotlib>=3.7' 'rich>=13'")


# --- shell completion in each shell it is offered for, lists after a comma included -------------------------------


def _script(run_cli, tmp_path, shell: str):
    code, script, _ = run_cli("completion", shell)
    assert code == 0
    path = tmp_path / f"qlint.{shell}"
    path.write_text(script, encoding="utf-8")
    return path


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completes_a_rule_after_a_comma(run_cli, tmp_path):
    script = _script(run_cli, tmp_path, "bash")
    probe = f"""source {script}
t() {{ COMP_WORDS=("$@"); COMP_CWORD=$((${{#COMP_WORDS[@]}}-1)); COMPREPLY=(); _qlint; echo "${{COMPREPLY[*]}}"; }}
t qlint check --ignore option-length,neg; t qlint check --select Q10,Q90; t qlint check --select near-d
"""
    result = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, timeout=60)
    assert not result.stderr, result.stderr
    assert result.stdout.splitlines() == ["option-length,negative-stem", "Q10,Q901 Q10,Q902 Q10,Q903 Q10,Q904 Q10,Q905",
                                          "near-duplicate-stem"]


@pytest.mark.skipif(shutil.which("zsh") is None, reason="needs zsh")
def test_zsh_completes_through_bashcompinit_with_its_arrays_counted_from_one(run_cli, tmp_path):
    """zsh calls the function as bashcompinit does: COMP_WORDS a zsh array (from 1), COMP_CWORD counted from 0;
    zsh's compgen offers every word and zsh keeps those that start as typed."""
    script = _script(run_cli, tmp_path, "zsh")
    probe = f"""source {script}
t() {{ COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=(); _qlint; local w="${{@[-1]}}"
      print -r -- "${{(j: :)${{(M)COMPREPLY[@]:#${{w}}*}}}}"; }}   # zsh itself keeps the words that start as typed
t qlint ch; t qlint check --wat; t qlint check --format js; t qlint check --ignore option-length,neg
t qlint rule option-le
"""
    result = subprocess.run(["zsh", "-f", "-c", probe], capture_output=True, text=True, timeout=60, cwd=tmp_path,
                            env={**os.environ, "HOME": str(tmp_path)})
    assert not result.stderr, result.stderr
    assert result.stdout.splitlines() == ["check", "--watch", "json json-lines", "option-length,negative-stem",
                                          "option-length"]


@pytest.mark.skipif(shutil.which("fish") is None, reason="needs fish")
def test_fish_completes_rules_after_a_comma(run_cli, tmp_path):
    script = _script(run_cli, tmp_path, "fish")
    probe = f"source {script}; complete -C 'qlint check --ignore option-length,neg'; complete -C 'qlint check --sel'"
    result = subprocess.run(["fish", "--no-config", "-c", probe], capture_output=True, text=True, timeout=60,
                            env={**os.environ, "HOME": str(tmp_path)})
    assert not result.stderr, result.stderr
    words = [line.split("\t")[0] for line in result.stdout.splitlines()]
    assert words[0] == "option-length,negative-stem" and "--select" in words, words


# --- a reader that leaves early (`| head -1`) never changes the exit code ----------------------------------------

TWO_KEYS = """id: two-keys
stem: Which collective averages gradients across data-parallel ranks?
options:
  - {text: all-reduce, correct: true, rationale: Correct. It sums and averages.}
  - {text: reduce-scatter, correct: true, rationale: Correct. It also shards the result.}
  - {text: broadcast, rationale: Incorrect. It copies one rank's tensor.}
"""


def _exit_code_when_the_reader_has_left(*args: str, cwd: Path) -> tuple[int, str]:
    """Run qlint with its output to a pipe whose reader is gone before it writes a byte: every write fails."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([sys.executable, "-m", "qlint", *args], stdout=write, stderr=subprocess.PIPE,
                              cwd=cwd, text=True, timeout=300, env={**os.environ, "QLINT_CACHE_DIR": str(cwd / "c")})
    finally:
        os.close(write)
    return done.returncode, done.stderr


@pytest.mark.parametrize(("args", "expected"), [
    (("stats", "bank/"), 0),                       # stats exits 0 whatever the findings: rich's own handler exited 1
    (("stats", "bank/", "--format", "json"), 0),
    (("check", "bank/"), 1),                       # the bank has an error: the pipeline must fail
    (("rules",), 0),
])
def test_a_reader_that_left_leaves_the_exit_code_as_it_was(tmp_path, args, expected):
    pytest.importorskip("rich")
    (tmp_path / "bank").mkdir()
    (tmp_path / "bank" / "a.yaml").write_text(TWO_KEYS, encoding="utf-8")
    code, err = _exit_code_when_the_reader_has_left(*args, cwd=tmp_path)
    assert code == expected and "Traceback" not in err and "internal error" not in err, err


# --- a config's mistakes in the config's words ----------------------------------------------------------------------


@pytest.mark.parametrize(("setting", "said"), [
    ('fail-on = "warnin"', "fail-on: unknown severity 'warnin'; did you mean 'warning'?"),
    ('paths = "bank"', 'paths: must be a list in brackets, such as ["bank"]'),
    ('exclude = "drafts/**"', 'exclude: must be a list in brackets, such as ["drafts/**"]'),
    ('[rules.option-length]\nseverity = "eror"', "unknown severity 'eror'; did you mean 'error'?"),
])
def test_a_config_mistake_is_said_in_the_config_s_words_with_a_did_you_mean(run_cli, write, tmp_path, setting, said):
    write("bank/a.yaml", TWO_KEYS)
    write("qlint.toml", setting + "\n")
    code, _, err = run_cli("check", "bank", "--no-cache", cwd=tmp_path)
    assert code == 2 and said in err and "Value error" not in err and "tuple" not in err, err
    if not setting.startswith("["):
        (tmp_path / "qlint.toml").unlink()
        code, _, err = run_cli("check", "bank", "--no-cache", "--config", setting)
        assert code == 2 and said in err, err


def test_a_config_file_that_does_not_exist_is_said_to_be_missing(run_cli, write, tmp_path):
    write("bank/a.yaml", TWO_KEYS)
    code, _, err = run_cli("check", "bank", "--config", "nosuch.toml", cwd=tmp_path)
    assert code == 2 and "nosuch.toml: no such config file" in err, err


def test_an_option_written_before_its_command_is_said_to_belong_after_it(run_cli, write, tmp_path):
    write("bank/a.yaml", TWO_KEYS)
    code, _, err = run_cli("--no-cache", "check", "bank", cwd=tmp_path)
    assert code == 2 and "did you mean '--no-cache'" not in err, err
    assert "'--no-cache' is an option of `qlint check`: write it after the command" in err
    code, _, err = run_cli("check", "bank", "--no-cahce")
    assert code == 2 and "did you mean '--no-cache'?" in err


def test_a_bank_folder_the_config_names_that_does_not_exist_stops_the_run(run_cli, write, tmp_path):
    """A misspelt `paths` would compare named files with nothing and let --force-exclude skip every one of them:
    a pre-commit hook that passes everything without a word."""
    write("bank/a.yaml", TWO_KEYS)
    write("qlint.toml", 'paths = ["bnak"]\n')
    for args in (("check", "--force-exclude", "bank/a.yaml"), ("check", "bank/a.yaml"), ("check",)):
        code, out, err = run_cli(*args, "--no-cache", cwd=tmp_path)
        assert code == 2 and "qlint.toml:1: paths: 'bnak' does not exist" in err, (args, out, err)
    write("qlint.toml", 'paths = ["bank"]\n')
    assert run_cli("check", "--force-exclude", "bank/a.yaml", "--no-cache")[0] == 1


def test_a_misspelt_rule_in_a_suppression_gets_a_did_you_mean(run_cli, write, tmp_path):
    write("a.yaml", TWO_KEYS.replace("options:\n", "options:  # qlint: ignore[corect-count] two keys are meant\n")
          + "qlint:\n  ignore: {none-of-the-abov: we like it}\n")
    code, out, _ = run_cli("check", "a.yaml", "--no-cache", cwd=tmp_path)
    assert "suppression names 'corect-count', which is not a qlint rule; did you mean 'correct-count'?" in out, out
    assert "'none-of-the-abov', which is not a qlint rule; did you mean 'none-of-the-above'?" in out


def test_a_report_written_to_a_file_leaves_its_counts_in_the_log(run_cli, write, tmp_path):
    """GitLab's snippet writes both reports to files: the job log still says what failed the job."""
    write("bank/a.yaml", TWO_KEYS)
    code, out, err = run_cli("check", "bank", "--format", "junit", "-o", "qlint-junit.xml", "--no-cache", cwd=tmp_path)
    assert code == 1 and not out
    assert "qlint: 1 problem (1 error, 0 warnings, 0 info) in 1 question, 1 file; written to qlint-junit.xml" in err
    assert "<testsuites" in (tmp_path / "qlint-junit.xml").read_text(encoding="utf-8")
    assert run_cli("check", "bank", "-q", "-o", "x.txt", "--no-cache")[2] == ""


def test_stdin_filename_reads_standard_input_as_ruff_s_does(run_cli, write, tmp_path):
    write("bank/a.yaml", TWO_KEYS.replace("two-keys", "other"))
    code, out, err = run_cli("check", "--stdin-filename", "bank/b.yaml", "--no-cache", cwd=tmp_path, stdin=TWO_KEYS)
    assert code == 1 and "bank/b.yaml:3:1: error: Q104 correct-count" in out and "bank/a.yaml" not in out, out
    code, out, err = run_cli("check", "bank/a.yaml", "--stdin-filename", "bank/b.yaml", "--no-cache", stdin=TWO_KEYS)
    assert code == 1 and "bank/b.yaml:3:1" in out and "bank/a.yaml:" not in out
    assert "ignoring bank/a.yaml in favour of standard input" in err


def test_an_output_named_dash_is_standard_output_or_refused_never_a_file_called_dash(run_cli, write, tmp_path):
    write("bank/a.yaml", TWO_KEYS)
    code, out, _ = run_cli("check", "bank", "-o", "-", "--format", "json", "--no-cache", cwd=tmp_path)
    assert code == 1 and '"Q104"' in out
    code, _, err = run_cli("convert", "bank", "--to", "gift", "-o", "-")
    assert code == 2 and "not - (standard output)" in err
    assert not (tmp_path / "-").exists()


def test_the_note_on_a_bank_not_configured_suggests_the_folder_the_file_is_in(run_cli, write, tmp_path):
    write("questions/a.yaml", TWO_KEYS)
    _, _, err = run_cli("check", "questions/a.yaml", "--no-cache", cwd=tmp_path)
    assert 'set paths = ["questions"] in qlint.toml' in err, err


def test_rule_all_prints_every_card_as_ruff_s_does(run_cli, registry):
    code, out, _ = run_cli("rule", "--all")
    assert code == 0 and all(f"# {r.name} ({r.code})\n" in out for r in registry)
    code, out, _ = run_cli("rule", "--all", "--format", "json")
    assert code == 0 and [c["name"] for c in json.loads(out)] == [r.name for r in registry]
    assert run_cli("rule")[0] == 2 and run_cli("rule", "schema", "--all")[0] == 2


def test_a_misspelt_format_lists_every_name_the_option_takes(run_cli):
    code, _, err = run_cli("check", "bank/", "--output-format", "atuo")
    assert code == 2 and "did you mean 'auto'?" in err and ", colored, auto)" in err, err


def test_diff_says_on_stderr_how_many_fixes_it_shows_and_that_it_wrote_nothing(run_cli, write, tmp_path):
    path = write("a.yaml", TWO_KEYS.replace("text: broadcast", "text: 'broadcast  '"))
    before = path.read_text(encoding="utf-8")
    code, out, err = run_cli("check", "a.yaml", "--diff", "--no-cache", cwd=tmp_path)
    assert code == 1 and "+++ b/a.yaml" in out
    assert "qlint: would fix 1 problem in 1 file; nothing was written" in err, err
    assert path.read_text(encoding="utf-8") == before


@pytest.mark.parametrize("table", ["qlnt", "Qlint", "q-lint"])
def test_a_pyproject_table_one_slip_from_tool_qlint_stops_the_run(run_cli, write, tmp_path, table):
    write("bank/a.yaml", TWO_KEYS)
    write("pyproject.toml", f'[project]\nname = "x"\n\n[tool.{table}]\npaths = ["bank"]\n')
    code, _, err = run_cli("check", "bank/a.yaml", "--no-cache", cwd=tmp_path)
    assert code == 2 and f"pyproject.toml:4: [tool.{table}]: did you mean [tool.qlint]?" in err, err
    write("pyproject.toml", '[tool.ruff]\nline-length = 100\n')
    assert run_cli("check", "bank/a.yaml", "--no-cache")[0] == 1


@pytest.mark.parametrize("key", ["question", "Questions", "qestions"])
def test_a_misspelt_questions_key_is_one_finding_that_names_it(run_cli, write, tmp_path, key, registry):
    write("a.yaml", f"{key}:\n  - id: a\n    stem: Which?\n    options: []\n")
    code, out, _ = run_cli("check", "a.yaml", "--no-cache", cwd=tmp_path)
    assert code == 1 and out.count("Q102 schema") == 1, out
    assert f"a.yaml:1:1: error: Q102 schema: unknown key '{key}' in the file's top level; did you mean 'questions'?" in out


def test_the_editor_renames_a_misspelt_questions_key():
    pytest.importorskip("pygls")
    from qlint.finding import Finding, Severity
    from qlint.server.lsp import _rename_key

    finding = Finding("a.yaml", 1, 1, "Q102", "schema", Severity.ERROR,
                      "unknown key 'question' in the file's top level; did you mean 'questions'?")
    action = _rename_key("file:///a.yaml", ["question:", "  - id: a"], finding)
    (edit,) = action.edit.changes["file:///a.yaml"]
    assert edit.new_text == "questions" and (edit.range.start.character, edit.range.end.character) == (0, 8)


@pytest.mark.parametrize("head", ["<!-- exported -- by hand -->\n", '<?xml version="1.0" encoding="EBCDIC-XX"?>\n'])
def test_an_xml_file_broken_before_its_root_is_reported_not_left_out(run_cli, write, head):
    # the walk takes an .xml file when its root names a bank; one whose XML breaks off before the root cannot say,
    # and leaving it out would pass a broken export without a word
    write("bank/good.yaml", CLEAN)
    write("bank/quiz.xml", head + '<quiz><question type="multichoice"><name><text>q</text></name></question></quiz>\n')
    write("bank/build.xml", '<?xml version="1.0"?><project name="x"/>\n')   # other XML is still left alone
    code, out, err = run_cli("check", write("bank/good.yaml", CLEAN).parent, "--no-cache")
    assert code == 1 and "quiz.xml" in out and "parse-error" in out, out + err
    assert "build.xml" not in out


def test_a_named_file_that_is_a_link_takes_the_config_of_the_project_it_is_named_in(run_cli, write, tmp_path):
    # the target's own project (its config, its cache-dir) has no say over a check run in this one
    target = write("other/q.yaml", "id: q\nstem: Which one?\noptions:\n  - {text: a, correct: true}\n  - {text: b}\n")
    write("other/qlint.toml", 'cache-dir = "written-here"\n')
    write("proj/qlint.toml", 'ignore = ["missing-rationale"]\n')
    (tmp_path / "proj" / "bank").mkdir()
    (tmp_path / "proj" / "bank" / "q.yaml").symlink_to(target)
    code, out, err = run_cli("check", "bank/q.yaml", cwd=tmp_path / "proj")
    assert code == 0 and "missing-rationale" not in out, out + err
    assert not (tmp_path / "other" / "written-here").exists()
