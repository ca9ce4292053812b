"""The published documentation cannot drift: rule docs and measured accuracy are regenerated and compared."""
from __future__ import annotations

from helpers import ROOT

import subprocess
import sys
from pathlib import Path

import pytest

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


def test_a_fixable_rules_card_shows_its_fix_before_and_after(registry):
    from qlint.docs import card

    whitespace = card(registry.get("stray-whitespace"))
    fix = whitespace[whitespace.index("## Fix\n"):whitespace.index("## Fix safety")]
    assert "`qlint check --fix` rewrites the example above as:" in fix
    assert 'stem: "Which tensor method returns a Python number?"\n' in fix and "number?  " not in fix
    negative = card(registry.get("negative-stem"))   # its fixed example is not the one the card opens with
    fix = negative[negative.index("## Fix\n"):negative.index("## Fix safety")]
    assert fix.index("Before:") < fix.index("organism cannot make") < fix.index("After `qlint check --fix`:") \
        < fix.index("organism CANNOT make")
    assert "## Fix\n" not in card(registry.get("missing-rationale"))


def test_a_card_shows_an_examples_format_and_the_config_it_runs_under(registry):
    from qlint.docs import card, card_dict

    assert "## Example\n```text\n$CATEGORY:" in card(registry.get("import-hazard"))
    assert "Checked with `rule-time-budget = 1e-09`." in card(registry.get("rule-timeout"))
    stated = card_dict(registry.get("missing-rationale"))["examples"]["failing"][0]
    assert stated["field"] == ["options[1]", "options[2].rationale"]
    assert stated["message"] == ["option 2 has no rationale", "option 3 has a blank rationale"]
