"""The command line as a user meets it: output shape, exit codes, config, rule listing."""
from __future__ import annotations

import json

from helpers import CLEAN, TWO_KEYS


def test_clean_file_exits_zero(run_cli, write):
    path = write("bank/a.yaml", CLEAN)
    code, out, err = run_cli("check", path)
    assert code == 0, out + err
    assert "All clear: 1 question in 1 file." in out


def test_findings_text_format_and_exit_one(run_cli, write):
    write("bank/a.yaml", CLEAN)
    bad = write("bank/b.yaml", TWO_KEYS)
    code, out, err = run_cli("check", bad.parent)
    assert code == 1
    first = out.splitlines()[0]
    # a folder named by its absolute path: the finding names the file by its absolute path too
    assert first == (f"{bad}:3:1: error: Q104 correct-count: 2 options are marked correct; a single-answer question "
                     "needs exactly one (add `select: 2` if 2 answers are intended)")


def test_json_contract(run_cli, write):
    bad = write("bank/b.yaml", TWO_KEYS)
    code, out, _ = run_cli("check", bad, "--format", "json")
    doc = json.loads(out)
    assert doc["version"] == 1
    assert doc["summary"]["files"] == 1 and doc["summary"]["questions"] == 1
    finding = doc["findings"][0]
    assert set(finding) == {"rule", "code", "severity", "path", "line", "column", "end_line", "end_column", "question",
                           "message"}
    assert finding["rule"] == "correct-count" and finding["question"] == "flawed-1"
    assert finding["severity"] == "error" and code == 1


def test_broken_file_does_not_stop_the_others(run_cli, write):
    write("bank/a.yaml", "id: x\nstem: \"oops\n")
    write("bank/b.yaml", TWO_KEYS)
    write("bank/c.yaml", b"\xff\xfe\x00garbage\x00")
    code, out, err = run_cli("check", write("bank/d.yaml", CLEAN).parent, "--format", "json")
    rules = {(f["path"].rsplit("/", 1)[-1], f["rule"]) for f in json.loads(out)["findings"]}
    assert ("a.yaml", "parse-error") in rules and ("b.yaml", "correct-count") in rules
    assert ("c.yaml", "parse-error") in rules
    assert code == 1 and "Traceback" not in err


def test_select_ignore_and_fail_on(run_cli, write):
    bad = write("b.yaml", TWO_KEYS)
    assert run_cli("check", bad, "--ignore", "correct-count")[0] == 0
    assert run_cli("check", bad, "--ignore", "Q104")[0] == 0
    assert run_cli("check", bad, "--select", "missing-rationale")[0] == 0
    assert run_cli("check", bad, "--exit-zero")[0] == 0
    code, _, err = run_cli("check", bad, "--select", "corect-count")
    assert code == 2 and "did you mean 'correct-count'" in err


def test_config_in_pyproject_is_found_by_walking_up(run_cli, write, tmp_path):
    write("pyproject.toml", '[tool.qlint]\nignore = ["correct-count"]\n')
    bad = write("bank/deep/b.yaml", TWO_KEYS)
    assert run_cli("check", bad)[0] == 0
    write("bank/qlint.toml", '[rules.correct-count]\nseverity = "warning"\n')
    code, out, _ = run_cli("check", bad)
    assert code == 0 and "Q104" in out
    assert run_cli("check", bad, "--fail-on", "warning")[0] == 1


def test_bad_config_exits_two_with_a_hint(run_cli, write):
    bad = write("b.yaml", CLEAN)
    write("qlint.toml", 'selct = ["x"]\n')
    code, _, err = run_cli("check", bad)
    assert code == 2 and "did you mean 'select'" in err and "Traceback" not in err
    write("qlint.toml", '[rules.option-length]\nkey-ration = 2\n')
    code, _, err = run_cli("check", bad)
    assert code == 2 and "key-ratio" in err
    write("qlint.toml", 'select = [\n')
    assert run_cli("check", bad)[0] == 2


def test_rule_options_from_config(run_cli, write):
    text = CLEAN.replace("loss.item()", "It copies the one value to the host as a Python float").replace(
        "loss.detach()", "A detached tensor").replace("loss.clone()", "A cloned tensor")
    path = write("b.yaml", text)
    write("qlint.toml", 'extend-select = ["option-length"]\n')
    assert "option-length" in run_cli("check", path)[1]
    write("qlint.toml", 'extend-select = ["option-length"]\n[rules.option-length]\nkey-ratio = 9.0\n')
    assert "option-length" not in run_cli("check", path)[1]


def test_missing_path_is_a_usage_error(run_cli, tmp_path):
    code, _, err = run_cli("check", tmp_path / "nope")
    assert code == 2 and "no such file" in err


def test_rules_and_rule_card(run_cli):
    code, out, _ = run_cli("rules")
    assert code == 0 and "Q104  correct-count" in out
    listed = json.loads(run_cli("rules", "--format", "json")[1])
    assert {"code", "name", "severity", "enabled"} <= set(listed[0])
    code, out, _ = run_cli("rule", "option-length")
    assert code == 0
    for heading in ("## What it does", "## Why is this bad?", "## Example", "## Use instead", "## Options"):
        assert heading in out
    assert run_cli("rule", "Q201")[1] == out
    code, _, err = run_cli("rule", "option-lenght")
    assert code == 2 and "did you mean 'option-length'" in err


def test_stdin(run_cli):
    code, out, _ = run_cli("check", "-", "--stdin-filename", "bank/x.yaml", stdin=TWO_KEYS)
    assert code == 1 and out.startswith("bank/x.yaml:3:1: error: Q104")


def test_named_file_without_config_is_compared_only_with_the_other_named_files(run_cli, write, tmp_path):
    # no config names the bank: nothing but the named files is read, not their folder, not the git work tree
    (tmp_path / ".git").mkdir()
    write("elsewhere/copy.yaml", CLEAN.replace("clean-1", "copy-1"))
    target = write("bank/a.yaml", CLEAN)
    twin = write("bank/b.yaml", CLEAN.replace("clean-1", "twin-1"))
    code, out, err = run_cli("check", target, "--fail-on", "warning", cwd=tmp_path)
    assert code == 0 and "near-duplicate" not in out
    assert err.count("no config names the bank") == 1 and 'paths = ["bank"]' in err
    code, out, err = run_cli("check", target, twin, "--fail-on", "warning", cwd=tmp_path)
    assert code == 1 and "near-duplicate-stem" in out and "twin-1" in out and "copy-1" not in out
    write("qlint.toml", 'paths = ["bank"]\n')   # the config names the bank: the named file is compared with it
    code, out, err = run_cli("check", target, "--fail-on", "warning", cwd=tmp_path)
    assert code == 1 and "twin-1" in out and "copy-1" not in out and "no config names the bank" not in err


def test_symlink_loop_named_directly_is_a_finding(run_cli, tmp_path):
    (tmp_path / "loop.yaml").symlink_to(tmp_path / "loop.yaml")
    code, out, err = run_cli("check", tmp_path / "loop.yaml")
    assert code == 1 and "Q101" in out and "Traceback" not in err and "internal error" not in err


def test_the_command_keeps_only_the_last_run_to_its_exit(run_cli, write, monkeypatch):
    # `qlint` (the console script) leaves by os._exit: the last check's run is kept to then rather than freed object
    # by object, and a later check (a watch's next run) lets the one before go; `main` called as a library keeps none
    from qlint.cli import main as cli

    bad = write("bank/b.yaml", TWO_KEYS)
    assert cli._LAST.kept is None
    assert run_cli("check", bad, "--no-cache")[0] == 1
    assert cli._LAST.kept is None
    monkeypatch.setattr(cli._LAST, "kept", ())
    run_cli("check", bad, "--no-cache")
    first, findings = cli._LAST.kept
    assert [f.rule for f in findings] == ["correct-count"] and first.results
    run_cli("check", bad.parent, "--no-cache")
    assert len(cli._LAST.kept) == 2 and cli._LAST.kept[0] is not first
