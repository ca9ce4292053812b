"""Files that are not what their names say: a FIFO or a device where a bank file should be, met on a walk of a
folder or named, by every command that opens files (check, --fix, convert, stats). Each is a finding, never a read
that blocks: run in a subprocess with a timeout, since a hang is what is tested."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from helpers import run_forked

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")

QUESTION = "id: q1\nstem: What is it?\noptions:\n  - {text: a, correct: true, rationale: r}\n  - {text: b, rationale: r}\n"


def _qlint(*args, cwd: Path, timeout: float = 30) -> subprocess.CompletedProcess:
    """The CLI in a forked child: a hang is a timeout of the child, never of the test run."""
    code, out, err = run_forked([str(a) for a in args], cwd, {**os.environ, "NO_COLOR": "1"}, timeout=timeout)
    return subprocess.CompletedProcess(["qlint", *map(str, args)], code, out, err)


@pytest.mark.parametrize("suffix", [".xml", ".zip", ".qti", ".gift"])
@pytest.mark.parametrize("command", [["check", "bank", "--no-cache"], ["convert", "bank", "--to", "yaml", "-o", "out"]])
def test_a_fifo_in_a_bank_folder_is_a_finding_not_a_hang(suffix, command, tmp_path):
    (tmp_path / "bank").mkdir()
    (tmp_path / "bank" / "a.yaml").write_text(QUESTION)
    os.mkfifo(tmp_path / "bank" / f"evil{suffix}")
    done = _qlint(*command, cwd=tmp_path)
    assert "Traceback" not in done.stderr
    assert "not a regular file (a named pipe)" in done.stdout + done.stderr, (done.stdout, done.stderr)


def test_convert_reports_a_named_fifo_as_input(tmp_path):
    (tmp_path / "a.yaml").write_text(QUESTION)
    os.mkfifo(tmp_path / "pipe.yaml")
    done = _qlint("convert", "pipe.yaml", "a.yaml", "--to", "gift", "-o", "out", cwd=tmp_path)
    assert done.returncode == 1 and "pipe.yaml:1:1: Q101 parse-error: not a regular file (a named pipe)" in done.stderr
    assert "q1" in (tmp_path / "out" / "a.gift").read_text()


@pytest.mark.parametrize("force", [[], ["--force"]])
@pytest.mark.parametrize("output,to,pipe,said", [
    ("out.zip", "qti21", "out.zip", "refusing to write the package out.zip: it is a named pipe, not a file"),
    ("out", "gift", "out", "refusing to write to out: it is a named pipe, not a folder"),
    ("out", "gift", "out/a.gift", "refusing to write out/a.gift: it is a named pipe, not a regular file"),
])
def test_convert_refuses_a_named_fifo_as_output_even_with_force(output, to, pipe, said, force, tmp_path):
    (tmp_path / "a.yaml").write_text(QUESTION)
    (tmp_path / pipe).parent.mkdir(exist_ok=True)
    os.mkfifo(tmp_path / pipe)
    done = _qlint("convert", "a.yaml", "--to", to, "-o", output, *force, cwd=tmp_path)
    assert done.returncode == 2 and said in done.stderr, done.stderr
    assert (tmp_path / pipe).is_fifo()   # neither opened nor replaced


def test_stats_walks_past_a_fifo(tmp_path):
    (tmp_path / "bank").mkdir()
    (tmp_path / "bank" / "a.yaml").write_text(QUESTION)
    os.mkfifo(tmp_path / "bank" / "evil.xml")
    done = _qlint("stats", "bank", "--format", "json", cwd=tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr


@pytest.mark.parametrize("flag", ["--fix", "--diff"])
def test_fix_and_diff_never_open_a_named_fifo(flag, tmp_path):
    os.mkfifo(tmp_path / "p.txt")
    done = _qlint("check", flag, "p.txt", cwd=tmp_path)
    assert "Traceback" not in done.stderr


def test_convert_reads_no_device(tmp_path):
    done = _qlint("convert", "/dev/zero", "--to", "gift", "-o", "out", cwd=tmp_path)
    assert done.returncode == 1 and "not a regular file (a character device)" in done.stderr, done.stderr
    assert not (tmp_path / "out").exists()


LONG = "a" * 300   # longer than any file name the system allows (255 bytes)


@pytest.mark.parametrize("args,exit", [
    (["check", f"{LONG}.yaml"], 2),
    # a name for standard input is only a label: the question read from stdin is checked (and passes)
    (["check", "-", "--stdin-filename", f"{LONG}.yaml"], 0),
    (["check", "-", "--stdin-filename", f"{LONG}/{LONG}/x.yaml"], 0),
    (["analyze", f"{LONG}.csv", "ok.yaml"], 2),
    (["check", "ok.yaml", "--config", LONG], 2),
    (["check", "ok.yaml", "--config", f"rule-packs = ['{LONG}']"], 2),
    (["convert", f"{LONG}.gift", "--to", "yaml", "-o", "out"], 2),
    (["stats", LONG], 2),
])
def test_a_name_too_long_for_the_system_is_an_error_not_an_internal_one(args, exit, tmp_path, run_cli, write):
    """Python 3.11's Path.is_file() and exists() raise for a name the system refuses (ENAMETOOLONG): every probe of a
    path the user gave was an internal error; now such a path is one that does not exist."""
    write("ok.yaml", QUESTION)
    code, out, err = run_cli(*args, cwd=tmp_path, stdin=QUESTION)
    assert "internal error" not in err and "Traceback" not in err, err
    assert code == exit, (code, err)


def test_a_walk_follows_no_link_to_a_file_outside_the_folder(tmp_path, run_cli, write):
    """A planted ``bank/x.yaml -> ~/.aws/credentials`` put that file's keys into the findings (``unknown key
    'aws_secret_access_key'``) of a CI log: the walk names it in a finding and never opens it. A link inside the
    folder is still one more name for a bank file, and a link named on the command line is read, as asked."""
    write("secret/creds.yaml", "aws_secret_access_key: not-for-your-eyes\n")
    write("bank/a.yaml", QUESTION)
    os.symlink(tmp_path / "secret" / "creds.yaml", tmp_path / "bank" / "link.yaml")
    os.symlink("a.yaml", tmp_path / "bank" / "again.yaml")
    code, out, _ = run_cli("check", tmp_path / "bank", "--format", "concise", cwd=tmp_path)
    assert "aws_secret_access_key" not in out, out
    assert "link.yaml:1:1: error: Q101 parse-error: cannot read it: a symbolic link to a file outside" in out, out
    assert "in 1 question, 2 files" in out, out
    code, out, _ = run_cli("check", tmp_path / "bank" / "link.yaml", "--format", "concise", cwd=tmp_path)
    assert "aws_secret_access_key" in out


@pytest.mark.parametrize("pack", ["../outside.yaml", "/etc/passwd", "inside/../../outside.yaml"])
def test_a_config_names_no_rule_pack_outside_its_folder(pack, tmp_path, run_cli, write):
    """rule-packs could name any file on the machine, and PyYAML's error quoted its lines: a private key's
    first lines showed in the run's output. A pack lies inside the config's folder, as the bank does."""
    write("outside.yaml", "line one: a\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAE\n")
    write("proj/qlint.toml", f"rule-packs = [{pack!r}]\n")
    write("proj/a.yaml", QUESTION)
    code, _, err = run_cli("check", "a.yaml", cwd=tmp_path / "proj")
    assert code == 2 and "rule-packs" in err and "lies outside" in err and "PRIVATE KEY" not in err, err


def test_a_broken_rule_pack_is_named_with_its_line_not_quoted(tmp_path, run_cli, write):
    write("proj/qlint.toml", 'rule-packs = ["packs"]\n')
    write("proj/packs/bad.yaml", "line one: a\n-----BEGIN SECRET-----\nAAAAsecretAAAA\n")
    write("proj/a.yaml", QUESTION)
    code, _, err = run_cli("check", "a.yaml", cwd=tmp_path / "proj")
    assert code == 2 and "bad.yaml:3:1: rule pack is not valid YAML" in err and "AAAAsecret" not in err, err


def test_a_file_over_a_tiny_max_file_size_says_both_sizes_in_bytes(run_cli, write, tmp_path):
    write("qlint.toml", "max-file-size = 10\n")
    path = write("q.yaml", "id: a\nstem: s?\noptions: [{text: a, correct: true}, {text: b}]\n")
    code, out, err = run_cli("check", path, "--no-cache", cwd=tmp_path)
    assert "file is 62 bytes, over the limit of 10 bytes (max-file-size)" in out, out + err
