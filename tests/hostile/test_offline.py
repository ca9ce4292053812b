"""qlint never reaches the network: textstat's NLTK cmudict download must never be needed."""
from __future__ import annotations

import subprocess
import sys

from helpers import NETWORK_GUARD, ROOT


def test_check_runs_with_the_network_unreachable(tmp_path):
    # one long dense sentence, four times: reading-level counts its words, reading-grade grades the whole
    sentence = ("Considering the aforementioned computational considerations regarding the instantiation of "
                "heterogeneous parallelisation configurations, notwithstanding organisational particularities and "
                "the jurisdictional data-residency considerations of multinational organisations, administrators "
                "evaluate interoperability, maintainability and the appropriateness of every implementation, while "
                "their many stakeholders anticipate considerable operational variability across every region. ")
    stem = sentence * 4 + "Which consideration predominantly determines it?"
    (tmp_path / "q.yaml").write_text(
        f"id: hard\nstem: {stem}\noptions:\n  - {{text: Bandwidth, correct: true, rationale: Correct.}}\n"
        "  - {text: Colour, rationale: Incorrect.}\n", encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "NLTK_DATA": str(tmp_path / "no-nltk-data"),
           "NO_COLOR": "1"}
    for target in (tmp_path, ROOT / "bank"):
        proc = subprocess.run([sys.executable, "-c", NETWORK_GUARD, "check", str(target), "--format", "json",
                               "--select", "reading-level,reading-grade"],
                              capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path)
        assert "network access attempted" not in proc.stderr + proc.stdout
        assert "tried to download" not in proc.stderr + proc.stdout
        assert proc.returncode == 0, proc.stderr   # reading-level and reading-grade warn and inform: the run passes
        if target == tmp_path:
            # the readability paths really ran
            assert '"reading-level"' in proc.stdout and '"reading-grade"' in proc.stdout
