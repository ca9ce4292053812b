"""The one atomic writer (qlint.files.write_atomic): the whole file or none of it, never a temporary left behind,
never over a name another writer took when told not to overwrite."""
from __future__ import annotations

import os
import stat

import pytest

from qlint.files import write_atomic


def test_a_file_is_written_whole_with_the_mode_asked(tmp_path):
    target = tmp_path / "a.txt"
    write_atomic(target, [b"one ", b"two\n"], mode=0o640, durable=True)
    assert target.read_bytes() == b"one two\n"
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640
    assert os.listdir(tmp_path) == ["a.txt"]


def test_an_existing_file_is_replaced_only_when_asked(tmp_path):
    target = tmp_path / "a.txt"
    target.write_bytes(b"old\n")
    with pytest.raises(FileExistsError):
        write_atomic(target, [b"new\n"], overwrite=False)
    assert target.read_bytes() == b"old\n"
    write_atomic(target, [b"new\n"])
    assert target.read_bytes() == b"new\n"
    assert os.listdir(tmp_path) == ["a.txt"]


def test_a_failure_while_writing_or_preparing_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "a.txt"
    target.write_bytes(b"old\n")

    def chunks():
        yield b"half"
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match="No space left"):
        write_atomic(target, chunks())

    def refuse(tmp):
        raise PermissionError(1, "Operation not permitted")

    with pytest.raises(PermissionError):
        write_atomic(target, [b"new\n"], prepare=refuse)
    assert target.read_bytes() == b"old\n"
    assert os.listdir(tmp_path) == ["a.txt"]


def test_a_file_system_without_hard_links_still_never_overwrites(tmp_path, monkeypatch):
    def no_links(src, dst):
        raise OSError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    fresh = tmp_path / "fresh.txt"
    write_atomic(fresh, [b"new\n"], overwrite=False)
    assert fresh.read_bytes() == b"new\n"
    with pytest.raises(FileExistsError):
        write_atomic(fresh, [b"newer\n"], overwrite=False)
    assert fresh.read_bytes() == b"new\n"
    assert os.listdir(tmp_path) == ["fresh.txt"]
