"""The one did-you-mean lookup (qlint.wording.closest) that every message naming a misspelt key, rule, severity or
suppression uses."""
from __future__ import annotations

import pytest

from qlint.finding import Severity
from qlint.wording import closest, did_you_mean


def test_the_closest_name_is_found_and_a_far_one_is_not():
    assert closest("warnng", ["error", "warning", "info"]) == "warning"
    assert closest("zzz", ["error", "warning", "info"]) is None
    assert closest("questons", ("question", "questions"), cutoff=0.8) == "questions"
    assert closest("qstns", ("questions",), cutoff=0.8) is None


def test_the_message_tail_names_it_or_says_what_else_to_do():
    assert did_you_mean("stme", ["stem", "options"]) == "; did you mean 'stem'?"
    assert did_you_mean("zzz", ["stem", "options"]) == "; allowed: stem, options"
    assert did_you_mean("zzz", ["stem"], "") == ""


def test_a_misspelt_severity_is_named():
    with pytest.raises(ValueError, match=r"unknown severity 'warnng'; did you mean 'warning'\?"):
        Severity.parse("warnng")


def test_settings_rule_options_packs_and_blueprints_spell_keys_the_same_way():
    """One kebab-case spelling for every settings model: what a config, a rule's options, a pack and a blueprint
    accept are the same keys."""
    from qlint.blueprint import Blueprint
    from qlint.config import settings_model
    from qlint.packs import ExcusedPattern
    from qlint.rule import RuleOptions
    from qlint.wording import kebab

    assert kebab("max_file_size") == "max-file-size"
    for model in (settings_model(), RuleOptions, ExcusedPattern, Blueprint):
        assert model.model_config["alias_generator"] is kebab, model
