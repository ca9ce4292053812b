"""Start-up: a command loads only what it needs, and the rule manifest that lets it says what the rules say.

An editor and a pre-commit hook start qlint on every save and commit: ``qlint --version`` and parsing must load
nothing of the run, and a check of one YAML file none of the analysis, the report, the server, the writers, the
other formats' readers, nor (when its outcome comes from the cache) any rule. The times themselves are
measured by ``benchmarks/startup.py``, never here.
"""
from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from qlint.cli.common import FROM_ALIASES, FROM_FORMATS
from qlint.registry import MANIFEST, LazyRule, build_manifest, load_registry

# Runs ``qlint.cli.main.main`` with the arguments given and writes the names of every module then loaded to the file
# named first (``main`` itself, not the console script's ``run``, which leaves without tearing down).
PROBE = """
import sys
from qlint.cli.main import main
target, argv = sys.argv[1], sys.argv[2:]
try:
    main(argv)
except SystemExit:
    pass
loaded = sorted(sys.modules)
with open(target, "w") as handle:
    handle.write("\\n".join(loaded))
"""

BANK = """\
questions:
  - id: capital-fr
    stem: What is the capital of France?
    options:
      - {text: Paris, correct: true, rationale: It has been the capital since the tenth century.}
      - {text: Lyon, rationale: Lyon is the third city by population.}
      - {text: Marseille, rationale: Marseille is the main port on the Mediterranean.}
"""

# never needed to check a YAML bank
NOT_FOR_A_YAML_CHECK = ("qlint.analysis", "qlint.responserule", "qlint.report", "qlint.server", "qlint.run.forms",
                        "qlint.formats.convert", "qlint.formats.write", "qlint.formats.write_text",
                        "qlint.formats.write_xml", "qlint.formats.gift", "qlint.formats.aiken", "qlint.formats.moodle",
                        "qlint.formats.qti", "qlint.formats.qti1", "qlint.formats.qti2", "qlint.docs",
                        "qlint.bank_schema", "qlint.run.fix", "qlint.formats.yaml_edit", "qlint.cli.show",
                        "qlint.cli.report", "qlint.cli.analyze", "duckdb",
                        "lark", "lxml", "matplotlib", "rich", "pygls", "lsprotocol", "mirt", "ruamel.yaml")
# besides those, never needed to print the version
NOT_FOR_THE_VERSION = ("pydantic", "pydantic_core", "yaml", "re2", "pathspec", "numpy", "rapidfuzz", "importlib.metadata", "json",
                       "qlint.config", "qlint.registry", "qlint.rule", "qlint.run",
                       "qlint.formats", "qlint.output", "qlint.model", "qlint.rules", "qlint.engine", "qlint.neardup")


def _loaded(cwd: Path, *argv: str) -> set[str]:
    target = cwd / "modules.json"
    subprocess.run([sys.executable, "-c", PROBE, str(target), *argv], cwd=cwd, check=True, capture_output=True,
                   timeout=120)
    return set(target.read_text().splitlines())


def _below(modules: set[str], names: tuple[str, ...]) -> list[str]:
    """The modules that are one of ``names`` or inside one of them."""
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


def test_the_version_loads_nothing_of_the_run(tmp_path):
    loaded = _loaded(tmp_path, "--version")
    assert _below(loaded, NOT_FOR_A_YAML_CHECK + NOT_FOR_THE_VERSION) == []


@pytest.mark.parametrize("argv", [["check", "--help"], ["report", "--help"], ["analyze", "--help"], ["nosuch"]])
def test_parsing_any_command_loads_nothing_of_the_run(tmp_path, argv):
    """Help and usage errors are parsing too: report's and analyze's parsers are built without their parts."""
    loaded = _loaded(tmp_path, *argv)
    assert _below(loaded, NOT_FOR_A_YAML_CHECK + NOT_FOR_THE_VERSION) == []


def test_a_yaml_check_loads_no_other_part(tmp_path):
    (tmp_path / "one.yaml").write_text(BANK, encoding="utf-8")
    cold = _loaded(tmp_path, "check", "one.yaml")
    assert _below(cold, NOT_FOR_A_YAML_CHECK) == []


def test_a_warm_yaml_check_imports_no_rule(tmp_path):
    """From the cache, nothing runs a rule: neither the rules' modules nor their patterns are loaded (the bank
    rules' features are not decoded when their findings come from the cache too), and numpy stays out."""
    (tmp_path / "one.yaml").write_text(BANK, encoding="utf-8")
    _loaded(tmp_path, "check", "one.yaml")   # fills the cache
    warm = _loaded(tmp_path, "check", "one.yaml")
    assert _below(warm, NOT_FOR_A_YAML_CHECK + ("numpy", "rapidfuzz")) == []
    assert _below(warm, ("qlint.rules",)) == []
    # nor what only reading a file (the question model), a pack or a blueprint (its models), starting workers, or another output
    # format needs
    assert _below(warm, ("yaml", "multiprocessing", "concurrent.futures", "qlint.formats.yaml_reader", "qlint.model",
                         "qlint.output.junit", "qlint.output.sarif", "xml", "qlint.blueprint")) == []
    # nor pydantic (the config is checked without it, the rules' options are the manifest's defaults) nor a pack
    assert _below(warm, WARM_NEVER + ("re2",)) == []


# what a warm check never loads: the validation models, the packs' reader, the language helpers, the near-duplicate
# search (a config's globs do load RE2, pathspec's engine)
WARM_NEVER = ("pydantic", "pydantic_core", "qlint.packs", "qlint.language", "qlint.neardup")


def test_a_warm_check_under_a_config_builds_no_model(tmp_path):
    """A config written as the README shows it (bank paths, excludes, per-file ignores, a rule's severity, limits)
    is checked by plain code: pydantic is built only to word what is wrong with one (tests/cli/test_config*)."""
    (tmp_path / "qlint.toml").write_text(
        'paths = ["bank"]\nexclude = ["bank/drafts/**"]\nfail-on = "warning"\nmax-file-size = 2_000_000\n'
        'rule-time-budget = 5\nrespect-gitignore = false\nformats = {"bank/*.txt" = "aiken"}\n'
        '[per-file-ignores]\n"bank/old/*" = ["Q2"]\n[rules.missing-rationale]\nseverity = "info"\n',
        encoding="utf-8")
    (tmp_path / "bank").mkdir()
    (tmp_path / "bank" / "one.yaml").write_text(BANK, encoding="utf-8")
    for argv in (["check", "bank/one.yaml"], ["check"]):
        _loaded(tmp_path, *argv)   # fills the cache for this run
        warm = _loaded(tmp_path, *argv)
        assert _below(warm, WARM_NEVER + ("qlint.rules", "qlint.model", "yaml")) == [], argv


def test_a_warm_check_of_a_named_file_in_a_bank_imports_no_rule(tmp_path):
    """pre-commit's case: one file named, compared with the rest of the bank its config names."""
    (tmp_path / "qlint.toml").write_text('paths = ["bank"]\n', encoding="utf-8")
    (tmp_path / "bank").mkdir()
    (tmp_path / "bank" / "one.yaml").write_text(BANK, encoding="utf-8")
    (tmp_path / "bank" / "two.yaml").write_text(BANK.replace("capital-fr", "capital-again"), encoding="utf-8")
    _loaded(tmp_path, "check", "bank/one.yaml")
    warm = _loaded(tmp_path, "check", "bank/one.yaml")
    assert _below(warm, ("qlint.rules", "numpy", "rapidfuzz", "qlint.model") + WARM_NEVER) == []


def test_the_shipped_manifest_says_what_the_rules_say():
    assert json.loads(MANIFEST.read_text(encoding="utf-8")) == build_manifest(), \
        "the rule manifest is out of date: run python scripts/gen_manifest.py"


def test_the_from_choices_are_the_readers_formats():
    from qlint.formats.table import ALIASES, BY_NAME as FORMATS

    assert (FROM_FORMATS, FROM_ALIASES) == (tuple(FORMATS), tuple(ALIASES))


def _real_rules():
    """Every built-in rule and every rule of the packs qlint ships, loaded as they were before the manifest."""
    from qlint.packs import load_pack_files
    from qlint.registry import builtin_rules

    return {rule.name: rule for rule in [*builtin_rules(), *(rule for rule, _ in load_pack_files())]}


def test_a_stand_in_answers_as_its_rule_does():
    from qlint.responserule import ResponseRule
    from qlint.formrule import FormRule
    from qlint.rule import BankRule, LoaderRule, QuestionRule, Rule

    real = _real_rules()
    stand_ins = [r for r in load_registry() if type(r) is LazyRule]
    assert sorted(r.name for r in stand_ins) == sorted(real)
    for stand_in in stand_ins:
        rule = real[stand_in.name]
        for name in ("name", "code", "kind", "severity", "enabled", "summary", "fixable"):
            assert getattr(stand_in, name) == getattr(rule, name), (rule.name, name)
        for cls in (Rule, QuestionRule, BankRule, LoaderRule, ResponseRule, FormRule):
            assert isinstance(stand_in, cls) == isinstance(rule, cls), (rule.name, cls)
        for hook in ("extract", "encode", "decode", "publish"):
            assert (getattr(stand_in, hook, None) is None) == (getattr(rule, hook, None) is None), (rule.name, hook)
        defaults = stand_in.options.model_validate({})
        assert defaults.model_dump(mode="json") == rule.options().model_dump(mode="json"), rule.name
        assert stand_in._rule is None, f"{rule.name} was loaded to answer what the manifest holds"


def test_a_stand_in_becomes_its_rule_on_first_use():
    real = _real_rules()
    registry = load_registry()
    stand_in = registry.get("option-length")
    options = stand_in.options.model_validate({})
    assert options == real["option-length"].options()   # the defaults themselves, once asked for more than a dump
    assert stand_in.check is real["option-length"].check
    assert stand_in == real["option-length"] and real["option-length"] == stand_in
    assert pickle.loads(pickle.dumps(stand_in)) is real["option-length"]   # a worker gets the rule itself
    assert pickle.loads(pickle.dumps(options)) == options
    configured = registry.get("near-duplicate-stem").options.model_validate({"threshold": 95})
    assert configured.threshold == 95


def test_a_missing_manifest_imports_the_rules(monkeypatch, tmp_path):
    monkeypatch.setattr("qlint.registry.MANIFEST", tmp_path / "absent.json")
    rules = list(load_registry())
    assert rules and not any(type(r) is LazyRule for r in rules)
    assert sorted(r.name for r in rules) == sorted(_real_rules())


def test_a_shipped_pack_rule_loads_its_pack_on_first_use():
    stand_in = load_registry().get("none-of-the-above")
    assert type(stand_in) is LazyRule and stand_in._rule is None
    real = _real_rules()["none-of-the-above"]
    assert stand_in.failing == real.failing and stand_in.why == real.why
    assert pickle.loads(pickle.dumps(stand_in)).name == "none-of-the-above"


def test_a_pack_qlint_does_not_list_is_read_as_it_stands(monkeypatch):
    """A shipped pack the manifest does not know (an install out of step with it) is loaded, never left out."""
    import qlint.registry

    shipped = qlint.registry._shipped_packs()
    monkeypatch.setattr("qlint.registry._shipped_packs", lambda: [*shipped, shipped[0].with_name("extra.yaml")])
    rules = load_registry()
    assert type(rules.get("none-of-the-above")) is not LazyRule


def test_a_stand_in_can_be_replaced_as_a_rule_can():
    """A plugin or a test may derive a rule from a built-in one with dataclasses.replace."""
    from dataclasses import asdict, fields, replace

    stand_in = load_registry().get("too-easy")
    derived = replace(stand_in, name="too-easy-here", code="X999")
    assert type(derived) is type(stand_in.loaded()) and derived.check is stand_in.check
    assert [f.name for f in fields(stand_in)] == [f.name for f in fields(derived)]
    assert asdict(stand_in)["name"] == "too-easy"


def test_a_plugin_s_version_is_read_from_its_metadata_headers():
    """The cache's key names each plugin's version; reading it from the headers gives what importlib.metadata does."""
    from importlib.metadata import distributions

    from qlint.registry import _version

    for dist in list(distributions())[:40]:
        assert _version(dist) == (dist.version or ""), dist


def test_the_start_up_benchmark_times_a_check_of_a_clean_bank(registry):
    """``benchmarks/startup.py`` times a warm check of its small bank: every rule on, the bank has nothing to report
    (an unquoted ", " in a flow mapping once made a key of half a rationale, and the check timed a schema error)."""
    import ast

    from helpers import ROOT, lint_text

    script = ast.parse((ROOT / "benchmarks" / "startup.py").read_text(encoding="utf-8"))
    [bank] = [ast.literal_eval(node.value) for node in script.body if isinstance(node, ast.Assign)
              and [getattr(t, "id", None) for t in node.targets] == ["SMALL_BANK"]]
    assert [(f.code, f.message) for f in lint_text(bank, registry, select=["ALL"], path="one.yaml")] == []
