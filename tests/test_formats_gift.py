"""GIFT read as Moodle's importer reads it; a lexer whose memory does not grow with the length of a token."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest


_MEMORY = textwrap.dedent("""
    import resource, sys
    from qlint.formats import read
    from qlint.formats.base import ReadLimits
    data = {data}
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = read(data, "big.gift", ReadLimits(max_file_size=10**9))
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    print(grown * 1024 / len(data), len(result.questions))
""")


@pytest.mark.parametrize("data", [
    'b"::t:: " + b"word " * 400_000 + b"{=a ~b}\\n"',           # one long stem
    'b"::t:: Q {=" + b"word " * 400_000 + b" ~b}\\n"',          # one long answer
    'b"::" + b"w:" * 1_000_000 + b":: Q {=a ~b}\\n"',           # a long title of single colons
    'b"::t:: " + b"\\\\{" * 1_000_000 + b"{=a ~b}\\n"',          # a long run of escapes
])
def test_lexer_memory_does_not_grow_per_character_of_a_token(data):
    # the old terminals kept a regex backtracking frame per character: 110-170 bytes for every character of the
    # longest token (a 2 MB token took over 300 MB); the reader keeps a small multiple of the text itself
    out = subprocess.run([sys.executable, "-c", _MEMORY.format(data=data)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    per_char, questions = out.stdout.split()
    assert float(per_char) < 40 and questions == "1"
