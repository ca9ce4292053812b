"""Zip packages read as hostile input: the central directory is sized from the end-of-archive record before
Python's ``zipfile`` builds an object per entry (1.5 million entries would cost about 900 MB), and nothing is
ever extracted to disk."""
from __future__ import annotations

import struct

_END = b"PK\x05\x06"
_END64 = b"PK\x06\x06"
_LOCATOR = b"PK\x06\x07"
_END_SIZE = 22
_TAIL = _END_SIZE + 65535   # the end record and the longest comment it may carry
BYTES_PER_ENTRY = 512        # far above a real entry's directory record (46 bytes and its name)


def directory(tail: bytes, tail_offset: int) -> tuple[int, int] | None:
    """``(entries, directory bytes)`` from an archive's last bytes (``tail``, which starts at ``tail_offset`` in
    the archive); None when no end record is there (not a zip, or one ``zipfile`` will refuse itself)."""
    at = tail.rfind(_END)
    if at < 0 or len(tail) - at < _END_SIZE:
        return None
    _, _, _, _, entries, size, _, _ = struct.unpack("<4s4H2LH", tail[at:at + _END_SIZE])
    if entries != 0xFFFF and size != 0xFFFFFFFF:
        return entries, size
    locator = at - 20
    if locator < 0 or tail[locator:locator + 4] != _LOCATOR:
        return entries, size
    (record,) = struct.unpack("<Q", tail[locator + 8:locator + 16])
    start = record - tail_offset
    if not 0 <= start <= len(tail) - 56 or tail[start:start + 4] != _END64:
        return 0xFFFFFFFF, 0xFFFFFFFF   # a zip64 record out of reach: too big to trust
    entries64, size64 = struct.unpack("<QQ", tail[start + 32:start + 48])
    return entries64, size64


def of_bytes(data: bytes) -> tuple[int, int] | None:
    offset = max(0, len(data) - _TAIL - 56)
    return directory(data[offset:], offset)


def of_file(handle) -> tuple[int, int] | None:
    handle.seek(0, 2)
    length = handle.tell()
    offset = max(0, length - _TAIL - 56)
    handle.seek(offset)
    return directory(handle.read(), offset)


def too_big(sizes: tuple[int, int] | None, most_entries: int) -> str | None:
    """Why an archive's central directory is refused before it is read, or None."""
    if sizes is None:
        return None
    entries, size = sizes
    if entries > most_entries:
        return f"package holds {entries} entries, over {most_entries}"
    if size > max(1 << 20, most_entries * BYTES_PER_ENTRY):
        return f"package's central directory is {size / 1048576:.0f} MB, too big for {most_entries} entries at most"
    return None
