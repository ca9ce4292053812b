"""The command line where a ruff user expects it to behave like ruff: --force-exclude for pre-commit, fixable
marks, --statistics alone, whole-file suppressions, JUnit that fails only what fails the run, a hint for a
[tool.qlint] header in qlint.toml, and counts in the right number."""
from __future__ import annotations

import shlex
import xml.etree.ElementTree as ET

import pytest
import yaml
from helpers import CLEAN, ROOT, TWO_KEYS, git, head_commit, hook_repository, needs_pre_commit, with_rules

from qlint.wording import plural


@pytest.fixture
def run_cli(run_cli):
    """The CLI with option-order and negative-stem on: their safe fixes are what these tests exercise, and both
    rules are off by default (reviewers of real banks disagreed with too many of their findings)."""
    return with_rules(run_cli, "option-order", "negative-stem")



TWO_KEYS = TWO_KEYS.replace("id: flawed-1", "id: keys-1")
# two safe fixes: a trailing space in the stem (info) and numeric options out of order (warning)
FIXABLE = """\
id: nums-1
stem: "How many bytes does one float32 value occupy in memory? "
options:
  - text: "8"
    rationale: Incorrect. That is float64.
  - text: "2"
    rationale: Incorrect. That is float16.
  - text: "4"
    correct: true
    rationale: Correct. Thirty-two bits are four bytes.
"""
PRE_COMMIT_CONFIG = "repos:\n  - repo: local\n    hooks:\n      - id: qlint\n"
CI_YAML = "stages: [test]\nlint:\n  script: qlint check\n"


@pytest.fixture
def repo(tmp_path, write):
    """A bank repository: the bank under bank/, pre-commit and CI YAML beside it."""
    write("pyproject.toml", '[tool.qlint]\npaths = ["bank"]\nexclude = ["bank/legacy/**"]\n')
    write(".pre-commit-config.yaml", PRE_COMMIT_CONFIG)
    write("ci/pipeline.yml", CI_YAML)
    write("bank/good.yaml", CLEAN)
    write("bank/legacy/old.yaml", TWO_KEYS)
    return tmp_path


# --- --force-exclude -----------------------------------------------------------------------------------------

def test_named_non_bank_yaml_is_linted_without_force_exclude(run_cli, repo):
    code, out, _ = run_cli("check", ".pre-commit-config.yaml", "--no-cache", cwd=repo)
    assert code == 1 and ".pre-commit-config.yaml" in out


@pytest.mark.parametrize("named", [[".pre-commit-config.yaml"], ["ci/pipeline.yml"], ["bank/legacy/old.yaml"],
                                   [".pre-commit-config.yaml", "ci/pipeline.yml", "bank/legacy/old.yaml"]])
def test_force_exclude_skips_named_files_outside_the_bank_quietly(run_cli, repo, named):
    """pre-commit with only non-bank files changed: nothing to check is a clean exit, not 'no bank files'."""
    code, out, err = run_cli("check", "--force-exclude", "--no-cache", *named, cwd=repo)
    assert (code, out, err) == (0, "", "")


def test_force_exclude_checks_the_bank_files_named_beside_skipped_ones(run_cli, repo, write):
    write("bank/flawed.yaml", TWO_KEYS.replace("keys-1", "keys-2"))
    code, out, _ = run_cli("check", "--force-exclude", "--no-cache", ".pre-commit-config.yaml", "ci/pipeline.yml",
                           "bank/legacy/old.yaml", "bank/flawed.yaml", cwd=repo)
    assert code == 1
    assert "bank/flawed.yaml:" in out and "Q104 correct-count" in out
    assert "pre-commit" not in out and "pipeline" not in out and "legacy" not in out
    assert "in 1 question, 1 file." in out


def test_force_exclude_without_paths_still_skips_hidden_folders_and_excluded_globs(run_cli, tmp_path, write):
    write("qlint.toml", 'exclude = ["drafts/*.yaml"]\n')
    write(".github/workflows/ci.yml", CI_YAML)
    write("drafts/wip.yaml", TWO_KEYS)
    write("questions.yaml", CLEAN)
    code, out, err = run_cli("check", "--force-exclude", "--no-cache", ".github/workflows/ci.yml", "drafts/wip.yaml",
                             "questions.yaml", cwd=tmp_path)
    assert code == 0, out + err
    assert out == "All clear: 1 question in 1 file.\n"


def test_force_exclude_without_a_config_skips_hidden_files(run_cli, tmp_path, write):
    write(".github/workflows/ci.yml", CI_YAML)
    write(".pre-commit-config.yaml", PRE_COMMIT_CONFIG)
    code, out, err = run_cli("check", "--force-exclude", "--no-cache", ".github/workflows/ci.yml",
                             ".pre-commit-config.yaml", cwd=tmp_path)
    assert (code, out, err) == (0, "", "")


def test_force_exclude_judges_stdin_by_its_filename(run_cli, repo):
    args = ("check", "-", "--force-exclude", "--no-cache", "--stdin-filename")
    assert run_cli(*args, "ci/pipeline.yml", cwd=repo, stdin=CI_YAML) == (0, "", "")
    code, out, _ = run_cli(*args, "bank/new.yaml", cwd=repo, stdin=TWO_KEYS.replace("keys-1", "keys-9"))
    assert code == 1 and "bank/new.yaml:3:1: error: Q104 correct-count" in out


def test_folders_named_with_force_exclude_are_walked_as_before(run_cli, repo):
    code, out, _ = run_cli("check", "--force-exclude", "--no-cache", "bank", cwd=repo)
    assert code == 0 and out == "All clear: 1 question in 1 file.\n"


def test_no_bank_files_is_still_a_usage_error_when_nothing_was_excluded(run_cli, repo, write):
    write("bank/empty/notes.txt", "not yaml")
    code, _, err = run_cli("check", "--force-exclude", "bank/empty", cwd=repo)
    assert code == 2 and "no bank files found" in err


def hooks() -> list[dict]:
    return yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))


def test_every_hook_passes_force_exclude():
    assert hooks() and all("--force-exclude" in shlex.split(h["entry"]) for h in hooks())


@pytest.mark.parametrize("hook", [h["id"] for h in hooks()])
def test_hooks_leave_a_repositorys_own_yaml_alone(hook, run_cli, repo):
    """What pre-commit runs for a commit touching only the hook and CI config: exit 0, files untouched."""
    entry = next(h["entry"] for h in hooks() if h["id"] == hook)
    argv = shlex.split(entry)[1:]   # "qlint" is the program
    code, out, err = run_cli(*argv, ".pre-commit-config.yaml", "ci/pipeline.yml", cwd=repo)
    assert (code, out, err) == (0, "", "")
    assert (repo / ".pre-commit-config.yaml").read_text() == PRE_COMMIT_CONFIG
    assert (repo / "ci/pipeline.yml").read_text() == CI_YAML


def test_hook_still_refuses_a_flawed_bank_file(run_cli, repo, write):
    write("bank/flawed.yaml", TWO_KEYS.replace("keys-1", "keys-2"))
    entry = next(h["entry"] for h in hooks() if h["id"] == "qlint")
    code, out, _ = run_cli(*shlex.split(entry)[1:], ".pre-commit-config.yaml", "bank/flawed.yaml", cwd=repo)
    assert code == 1 and "Q104 correct-count" in out


@pytest.mark.slow
@needs_pre_commit
def test_real_hook_without_a_files_filter_passes_a_commit_of_ci_yaml(tmp_path, monkeypatch, pre_commit_home):
    """The hook as a bank repository installs it, with no ``files:`` of its own: pre-commit hands it every changed
    YAML file, and a commit that changes only the hook and CI configuration must pass."""
    repo = tmp_path / "repo"
    monkeypatch.setenv("PRE_COMMIT_HOME", str(pre_commit_home))
    first = hook_repository(repo, {
        "pyproject.toml": '[tool.qlint]\npaths = ["bank"]\n',
        "bank/good.yaml": CLEAN,
        ".pre-commit-config.yaml": f"repos:\n  - repo: {ROOT}\n    rev: {head_commit()}\n    hooks:\n      - id: qlint\n"})
    assert first.returncode == 0, first.stdout + first.stderr
    (repo / "ci").mkdir()
    (repo / "ci" / "pipeline.yml").write_text(CI_YAML)
    (repo / ".pre-commit-config.yaml").write_text((repo / ".pre-commit-config.yaml").read_text() + "# lint\n")
    git(repo, "add", "-A")
    result = git(repo, "commit", "-qm", "ci", check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    (repo / "bank" / "flawed.yaml").write_text(TWO_KEYS)
    git(repo, "add", "-A")
    result = git(repo, "commit", "-qm", "flawed", check=False)
    assert result.returncode == 1 and "Q104 correct-count" in result.stdout + result.stderr


# --- fixable marks, --statistics ------------------------------------------------------------------------------

def test_fixable_findings_are_marked_and_counted_warm_and_cold(run_cli, tmp_path, write):
    write("qlint.toml", "")
    write("bank/nums.yaml", FIXABLE)
    write("bank/keys.yaml", TWO_KEYS)
    cold = run_cli("check", "bank", cwd=tmp_path)
    lines = cold[1].splitlines()
    assert any(" Q108 [*] stray-whitespace: " in line for line in lines)
    assert any(" Q304 [*] option-order: " in line for line in lines)
    assert any(" Q104 correct-count: " in line for line in lines)   # no fix: no mark
    assert lines[-1] == "[*] 2 fixable with the `--fix` option."
    assert run_cli("check", "bank", cwd=tmp_path) == cold   # from the cache: still marked


def test_no_fix_hint_without_fixable_findings_or_after_fix(run_cli, tmp_path, write):
    write("bank/keys.yaml", TWO_KEYS)
    code, out, _ = run_cli("check", "bank", "--no-cache", cwd=tmp_path)
    assert code == 1 and "fixable" not in out and "[*]" not in out
    write("bank/nums.yaml", FIXABLE)
    code, out, _ = run_cli("check", "bank", "--fix", "--no-cache", cwd=tmp_path)
    assert code == 1 and "fixable" not in out and "[*]" not in out


def test_statistics_prints_only_the_table(run_cli, tmp_path, write):
    write("bank/nums.yaml", FIXABLE)
    write("bank/keys.yaml", TWO_KEYS)
    code, out, _ = run_cli("check", "bank", "--statistics", "--no-cache", cwd=tmp_path)
    assert code == 1
    rows = [line.split() for line in out.splitlines()]
    assert sorted(rows) == sorted([["1", "Q104", "correct-count"], ["1", "Q108", "[*]", "stray-whitespace"],
                                   ["1", "Q304", "[*]", "option-order"]])


# --- ignore-file ---------------------------------------------------------------------------------------------

SECOND_STEM = "Which tensor method detaches a scalar metric before it is appended to a Python list of losses?"
TWO_FLAWED = ("questions:\n" + "".join(
    "  - " + text.replace("\n", "\n    ").rstrip() + "\n"
    for text in (TWO_KEYS, TWO_KEYS.replace("keys-1", "keys-2").replace(TWO_KEYS.splitlines()[1][6:], SECOND_STEM))))


def test_ignore_file_silences_a_rule_in_every_question(run_cli, tmp_path, write):
    write("bank/legacy.yaml", TWO_FLAWED)
    code, out, _ = run_cli("check", "bank", "--no-cache", cwd=tmp_path)
    assert code == 1 and out.count("Q104 correct-count") == 2
    write("bank/legacy.yaml", "# qlint: ignore-file[correct-count] imported exam; its two-key items are kept as set\n"
          + TWO_FLAWED)
    code, out, err = run_cli("check", "bank", "--no-cache", cwd=tmp_path)
    assert code == 0, out + err
    assert "Q104" not in out and "Q903" not in out and "Q902" not in out


def test_ignore_file_needs_a_reason(run_cli, tmp_path, write):
    write("bank/legacy.yaml", "# qlint: ignore-file[correct-count]\n" + TWO_FLAWED)
    code, out, _ = run_cli("check", "bank", "--no-cache", cwd=tmp_path)
    assert code == 1
    assert "bank/legacy.yaml:1:1: warning: Q903 invalid-suppression: suppression needs a reason: " \
           "# qlint: ignore-file[rule] reason" in out
    assert out.count("Q104 correct-count") == 2


def test_ignore_file_that_silences_nothing_is_reported(run_cli, tmp_path, write):
    write("bank/a.yaml", "# qlint: ignore-file[correct-count] kept from the old bank\n" + CLEAN)
    code, out, _ = run_cli("check", "bank", "--no-cache", "--fail-on", "warning", cwd=tmp_path)
    assert code == 1
    assert "bank/a.yaml:1:1: warning: Q902 unused-suppression: suppression of correct-count silences nothing" in out


def test_ignore_file_in_the_middle_of_a_file_still_covers_all_of_it(run_cli, tmp_path, write):
    text = TWO_FLAWED.replace("  - id: keys-2", "  # qlint: ignore-file[Q104] one exam's keys, kept as set\n"
                              "  - id: keys-2")
    write("bank/legacy.yaml", text)
    code, out, _ = run_cli("check", "bank", "--no-cache", cwd=tmp_path)
    assert code == 0 and "Q104" not in out


# --- JUnit ---------------------------------------------------------------------------------------------------

def junit(run_cli, cwd, *extra) -> tuple[int, ET.Element]:
    code, out, err = run_cli("check", "bank", "--format", "junit", "--no-cache", *extra, cwd=cwd)
    return code, ET.fromstring(out)


def test_junit_green_run_with_warnings_has_no_failures(run_cli, tmp_path, write):
    write("bank/nums.yaml", FIXABLE)   # a warning and an info finding: the run passes
    code, root = junit(run_cli, tmp_path)
    assert code == 0
    assert root.get("tests") == "2" and root.get("failures") == "0"
    cases = list(root.iter("testcase"))
    assert len(cases) == 2 and all(c.find("failure") is None for c in cases)
    props = [{p.get("name"): p.get("value") for p in c.iter("property")} for c in cases]
    assert {(p["severity"], p["rule"], p["code"], p["line"]) for p in props} == {
        ("info", "stray-whitespace", "Q108", "2"), ("warning", "option-order", "Q304", "3")}
    assert all(p["question"] == "nums-1" and p["message"] for p in props)


def test_junit_fails_what_fail_on_fails(run_cli, tmp_path, write):
    write("bank/nums.yaml", FIXABLE)
    write("bank/keys.yaml", TWO_KEYS)
    code, root = junit(run_cli, tmp_path)
    assert code == 1
    failed = {c.get("name").split(":")[0] for c in root.iter("testcase") if c.find("failure") is not None}
    assert failed == {"Q104 correct-count"} and root.get("failures") == "1" and root.get("tests") == "3"
    code, root = junit(run_cli, tmp_path, "--fail-on", "warning")
    failed = {c.get("name").split(":")[0] for c in root.iter("testcase") if c.find("failure") is not None}
    assert code == 1 and failed == {"Q104 correct-count", "Q304 option-order"}
    suites = {s.get("name"): (s.get("tests"), s.get("failures")) for s in root.iter("testsuite")}
    assert suites == {"bank/keys.yaml": ("1", "1"), "bank/nums.yaml": ("2", "1")}



def test_junit_with_exit_zero_fails_nothing_as_the_run_fails_nothing(run_cli, tmp_path, write):
    """--exit-zero: the job is green, so the CI's test view must be green too; the findings stay as passing cases
    with their severity."""
    write("bank/keys.yaml", TWO_KEYS)
    code, root = junit(run_cli, tmp_path, "--exit-zero")
    assert code == 0 and root.get("failures") == "0" and root.get("tests") == "1"
    (case,) = root.iter("testcase")
    assert case.find("failure") is None and case.get("name").startswith("Q104 correct-count")
    assert {p.get("name"): p.get("value") for p in case.iter("property")}["severity"] == "error"

# --- [tool.qlint] in qlint.toml ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["qlint.toml", ".qlint.toml"])
def test_tool_qlint_header_in_qlint_toml_gets_a_hint(run_cli, tmp_path, write, name):
    write(name, '# settings\n[tool.qlint]\npaths = ["bank"]\n')
    write("bank/a.yaml", CLEAN)
    code, _, err = run_cli("check", "bank", cwd=tmp_path)
    assert code == 2
    assert f"{name}:2: [tool.qlint]: in {name} the settings go at the top level" in err
    assert "unknown key" not in err


def test_tool_qlint_in_pyproject_is_still_read(run_cli, tmp_path, write):
    write("pyproject.toml", '[tool.qlint]\nignore = ["correct-count"]\n')
    write("bank/a.yaml", TWO_KEYS)
    assert run_cli("check", "bank", "--no-cache", cwd=tmp_path)[0] == 0


# --- counts in the right number ------------------------------------------------------------------------------

def test_plural():
    assert [plural(n, "file") for n in (0, 1, 2)] == ["0 files", "1 file", "2 files"]
    assert plural(1, "cache folder") == "1 cache folder" and plural(3, "cluster") == "3 clusters"


def test_summary_counts_in_the_right_number(run_cli, tmp_path, write):
    write("bank/a.yaml", CLEAN)
    assert run_cli("check", "bank", "--no-cache", cwd=tmp_path)[1] == "All clear: 1 question in 1 file.\n"
    write("bank/b.yaml", TWO_KEYS)
    out = run_cli("check", "bank", "--no-cache", cwd=tmp_path)[1]
    assert out.splitlines()[-1] == "Found 1 problem (1 error, 0 warnings, 0 info) in 2 questions, 2 files."


def test_github_summary_counts_in_the_right_number(run_cli, tmp_path, write):
    write("bank/b.yaml", TWO_KEYS)
    out = run_cli("check", "bank", "--no-cache", "--format", "github", cwd=tmp_path)[1]
    assert out.splitlines()[-1] == "qlint: found 1 problem (1 error, 0 warnings, 0 info) in 1 question, 1 file."


def test_baseline_fix_and_clean_messages_in_the_right_number(run_cli, tmp_path, write):
    write("bank/b.yaml", TWO_KEYS)
    _, _, err = run_cli("check", "bank", "--no-cache", "--write-baseline", tmp_path / "base.json", cwd=tmp_path)
    assert "wrote 1 finding to" in err
    write("bank/nums.yaml", FIXABLE)
    _, _, err = run_cli("check", "bank", "--fix", "--no-cache", cwd=tmp_path)
    assert "qlint: fixed 1 file\n" in err
