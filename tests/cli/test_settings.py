"""The settings a run resolves: the config's table checked by plain code exactly as the pydantic model checks it,
and each stage handed its own small frozen part of the config."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from qlint.config import ConfigError, Settings, _modelled, _validated, load_config
from qlint.finding import Severity
from qlint.registry import load_registry
from qlint.run.settings import CacheSettings, Ignores, Stages, Walk, resolve

TAKEN = [
    {},
    {"select": ["Q1", "rationale-missing"], "extend-select": ["Q3"], "ignore": ("Q201",)},
    {"per-file-ignores": {"bank/old/*": ["Q2"], "x.yaml": []}, "paths": ["bank"], "exclude": ["bank/drafts/**"]},
    {"respect-gitignore": False, "fail-on": "warning", "rule-packs": ["packs"], "cache-dir": "cache"},
    {"fail-on": Severity.INFO, "max-file-size": 1, "max-depth": 500, "max-alias-expansion": 0},
    {"rule-time-budget": 5, "rules": {"reading-level": {"max-grade": 14}}, "formats": {"*.txt": "xml"}},
    {"extend": "../qlint.toml", "blueprint": "blueprint.yaml"},
    {"blueprint": {"topics": {"a": 1}}, "rule-time-budget": 0.25},
]

# what the plain checks leave to the model: wrong types, values out of range, Python names, unknown keys
REFUSED = [
    {"select": "Q1"}, {"ignore": [1]}, {"per-file-ignores": {"a": "Q1"}}, {"respect-gitignore": "yes"},
    {"respect-gitignore": 1}, {"fail-on": "warn"}, {"fail-on": 2}, {"max-file-size": 0}, {"max-file-size": True},
    {"max-file-size": 1.0}, {"max-depth": 501}, {"max-alias-expansion": -1}, {"rule-time-budget": 0},
    {"rule-time-budget": float("nan")}, {"rule-time-budget": 3601}, {"rules": {"x": 1}}, {"rules": []},
    {"formats": {"*.txt": "nosuch"}}, {"cache-dir": 3}, {"blueprint": 3}, {"max_file_size": 10}, {"selekt": []},
    {"paths": [None]}, {"extend": ["a"]},
]


@pytest.mark.parametrize("table", TAKEN)
def test_the_plain_checks_take_what_the_model_takes_and_make_the_same_settings(table):
    assert _validated(dict(table), "config") == _modelled(dict(table), "config")


@pytest.mark.parametrize("table", REFUSED)
def test_what_the_plain_checks_refuse_the_model_judges_with_its_own_words(table):
    try:
        expected = _modelled(dict(table), "qlint.toml")
    except ConfigError as exc:
        with pytest.raises(ConfigError) as raised:
            _validated(dict(table), "qlint.toml")
        assert str(raised.value) == str(exc)
    else:   # the model takes it (a field by its Python name): the same settings either way
        assert _validated(dict(table), "qlint.toml") == expected


def test_settings_are_plain_frozen_objects():
    settings = Settings.from_table({"paths": ["bank"], "fail-on": "info"})
    assert settings.paths == ("bank",) and settings.fail_on is Severity.INFO
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.paths = ()   # type: ignore[misc]
    assert not hasattr(settings, "__dict__")   # slots
    assert settings.model_dump(by_alias=True, include={"paths", "fail_on"}) == {"paths": ("bank",),
                                                                                   "fail-on": Severity.INFO}
    assert settings.model_dump(mode="json")["fail_on"] == "info"


def test_each_stage_gets_its_part_of_the_config_resolved_once(tmp_path, monkeypatch):
    monkeypatch.delenv("QLINT_CACHE_DIR", raising=False)
    (tmp_path / "qlint.toml").write_text(
        'paths = ["bank"]\nexclude = ["bank/drafts/**"]\ncache-dir = "cache"\nmax-depth = 40\n'
        'formats = {"bank/*.txt" = "aiken", "**" = "gift"}\n[per-file-ignores]\n"bank/old/*" = ["Q2"]\n',
        encoding="utf-8")
    (tmp_path / "bank" / "old").mkdir(parents=True)
    config = load_config(None, tmp_path)
    registry = load_registry()
    before = config.settings
    stages = resolve(config, registry, "moodle")
    assert isinstance(stages, Stages) and config.settings is before   # --from changes no Config
    assert stages.limits.max_depth == 40
    assert stages.limits.formats == (("**", "moodle-xml"), ("bank/*.txt", "aiken"))   # --from first, its own "**" gone
    assert stages.walk == Walk(config.root, ("bank/drafts/**",), True, (config.root / "bank",), config.root,
                               stages.limits)
    assert stages.cache == CacheSettings(config.root / "cache", stages.cache.settings, ())
    assert stages.cache.settings["formats"] == {"**": "moodle-xml", "bank/*.txt": "aiken"}   # in the cache's key
    ignores = stages.ignores
    assert isinstance(ignores, Ignores) and ignores
    q2 = {r.name for r in registry if r.code.startswith("Q2")}
    assert ignores.of(str(tmp_path / "bank" / "old" / "a.yaml")) == q2
    assert ignores.of(str(tmp_path / "bank" / "a.yaml")) == frozenset()
    for stage in (stages, stages.walk, stages.cache, stages.ignores):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(stage, dataclasses.fields(stage)[0].name, Path())
    assert resolve(config, registry).limits == config.settings.limits   # no --from: the config's own
