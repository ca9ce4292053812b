"""extraneous-info: its message quotes the stem's words as written, not their stems."""
from __future__ import annotations

from helpers import fired, question


def test_extraneous_info_message_quotes_the_stem_as_written(registry):
    text = question("Caching helps. Which caching layer is fastest?", [("L1", True), ("L2", False), ("L3", False)])
    [message] = fired(text, "extraneous-info", registry)
    assert '"Caching"' in message and "cach," not in message and "cach;" not in message
