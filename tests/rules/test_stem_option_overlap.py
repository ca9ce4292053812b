"""stem-option-overlap: its message quotes the key's words as written, not their stems."""
from __future__ import annotations

from helpers import fired, question


def test_overlap_message_quotes_the_key_as_written(registry):
    text = question("Which layer caches activations between steps?",
                    [("a layer that caches activations", True), ("the optimizer", False), ("the data loader", False)])
    [message] = fired(text, "stem-option-overlap", registry)
    assert '"caches"' in message and '"activations"' in message
    assert "(cach" not in message and "activ," not in message and "activ)" not in message
