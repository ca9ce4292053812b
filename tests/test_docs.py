"""The published documentation cannot drift: rule docs and measured accuracy are regenerated and compared."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_EVAL = ROOT.parent / "shared" / "eval"


def test_rules_doc_is_current():
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_docs.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.skipif(not (SHARED_EVAL / "score.py").exists(), reason="needs ../shared/eval (human labels)")
def test_published_accuracy_matches_a_fresh_measurement():
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "measure_accuracy.py"), "--check"],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
