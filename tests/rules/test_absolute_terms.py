"""absolute-terms: an absolute word in a distractor is still reported (a held-out case)."""
from __future__ import annotations

from helpers import fired, question


def test_absolute_in_a_distractor_is_still_reported(registry):
    text = question("What does gradient checkpointing change?",
                    [("Peak activation memory", True), ("It always makes training faster", False),
                     ("Nothing at all in memory use", False)])
    assert fired(text, "absolute-terms", registry)
