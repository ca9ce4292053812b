"""Test a rule the way qlint tests its own: by its examples, each run through the real reader, engine and ``--fix``.

A public, stable helper for rule authors (built-in rules and plugins alike)::

    from qlint.testing import Invalid, assert_rule
    from my_rules.exact_duplicate_stem import RULE

    def test_exact_duplicate_stem():
        assert_rule(RULE)                       # the rule's own passing and failing examples
        assert_rule(RULE, invalid=[Invalid(TEXT, field="stem", message="same stem as")])

A passing example (a string or a ``Valid``) must draw no finding from the rule. A failing one (a string or an
``Invalid``) must draw at least one, each with a line and a column, and each naming the ``field`` and containing the
``message`` fragment the example states; its ``fixed`` text, when stated, is what ``qlint check --fix`` makes of
it with the rule's own fixes. The rule runs alongside qlint's default rules, as ``--extend-select`` turns it on, with
the example's ``options`` and ``settings`` as a config would set them. A response rule's example holds its answers
in ``# responses:`` lines (``qlint.analysis.rule.example`` writes them) and runs through ``qlint analyze``'s
statistics, which need the analysis extra; a form rule's examples need a drawn form and are not run here. A
finding the machinery makes (a ``MachineRule``: internal-error, fix-skipped, parse-error, rule-timeout) fires on a
failing example run the way its ``made_by`` declares: read as any file, with a rule installed that raises on
every question, or through ``check --fix``.
"""
from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path

import yaml

from qlint.config import Config, Settings, resolve_rules
from qlint.finding import Finding, Severity
from qlint.formats.yaml_edit import FixError, apply_fixes, fixable
from qlint.run.fix import fix_run, skipped_findings
from qlint.run.pipeline import Run, check_sources
from qlint.registry import Registry, load_registry
from qlint.rule import ActiveRule, Invalid, MachineRule, QuestionRule, Rule, Valid, as_invalid, as_valid

__all__ = ["Invalid", "Valid", "assert_findings", "assert_rule", "check_example", "lint_example", "stated_options"]

FIX_ROUNDS = 5   # as many as ``qlint check --fix`` takes before it leaves what is still fixable


@lru_cache(maxsize=1)
def _installed() -> Registry:
    return load_registry()


def _registry(rule: Rule, registry: Registry | None, *also: Rule) -> Registry:
    """``registry`` (the installed rules by default) with ``rule`` in it, in place of any rule of its name or code,
    and the rules ``also``."""
    base = registry if registry is not None else _installed()
    if base.rules.get(rule.name) is rule and not also:
        return base
    own = Registry()
    for other in base:
        if other.name != rule.name and other.code != rule.code:
            own.add(other, "installed")
    own.add(rule, "tested")
    for other in also:
        own.add(other, "tested")
    return own


def _raise(question, options):
    raise RuntimeError("this rule raises on every question")


# the rule an internal-error example runs with: a plugin's code and a broken check
RAISING = QuestionRule(code="X999", name="always-raises", severity=Severity.WARNING, summary="Raises on every question.",
                       why="It stands for a broken rule.", use_instead="-", check=_raise, passing=("-",),
                       failing=("-",))


def _made_by(rule: Rule, example: Valid) -> str:
    """How the example is run: a machine rule's failing example with what makes its findings, else as any file."""
    return rule.made_by if isinstance(rule, MachineRule) and isinstance(example, Invalid) else "reading"


def stated_options(text: str) -> dict:
    """The options an example states in its leading comment block (``# options:`` then the rule's table as indented
    YAML in comments); {} when it states none."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "# options:":
        return {}
    body = []
    for line in lines[1:]:
        if not line.startswith("#  "):
            break
        body.append(line[1:])
    return yaml.safe_load("\n".join(body)) or {}


def lint_example(rule: Rule, example: str | Valid, *, registry: Registry | None = None,
                 text: str | None = None) -> list[Finding]:
    """The rule's findings on the example (or on ``text`` read as the example's file), in the order qlint reports
    them."""
    example = as_valid(example)
    made_by = _made_by(rule, example)
    registry = _registry(rule, registry, *([RAISING] if made_by == "a-raising-rule" else []))
    options = {**stated_options(example.text), **example.options}
    settings = Settings.from_table({**example.settings, "rules": {rule.name: options}})
    source = example.text if text is None else text
    if rule.kind == "response":
        return _with_responses(rule, source, settings, registry)
    if rule.kind == "form":
        raise TypeError(f"{rule.name} is a form rule: its examples run with a drawn form (qlint check --form), "
                        "which qlint.testing does not draw")
    extend = [rule.name, RAISING.name] if made_by == "a-raising-rule" else [rule.name]
    active = resolve_rules(Config(settings, Path.cwd(), None), registry, extend_select=extend)
    if made_by == "fix":
        return _through_fix(example.path, source, settings, registry, active)
    found = check_sources([(example.path, source.encode("utf-8"))], active, limits=settings.limits,
                          all_rules=[r.name for r in registry])
    return [f for f in found if f.rule == rule.name]


def _through_fix(name: str, text: str, settings: Settings, registry: Registry,
                 active: list[ActiveRule]) -> list[Finding]:
    """What ``check --fix`` reports of the files and fixes it leaves alone, over ``text`` as a file ``name``
    (written nowhere but a temporary folder: the fixes are worked out, not written)."""
    with tempfile.TemporaryDirectory(prefix="qlint-example-") as folder:
        path = Path(folder) / Path(name).name
        path.write_bytes(text.encode("utf-8"))
        found = check_sources([(str(path), text.encode("utf-8"))], active, limits=settings.limits,
                              all_rules=[r.name for r in registry])
        report = fix_run(Run(Config(settings, Path(folder), None), registry, active, [], found), write=False)
    return [dataclasses.replace(f, path=name) for f in skipped_findings(report, active)]


def _with_responses(rule: Rule, text: str, settings: Settings, registry: Registry) -> list[Finding]:
    """A response rule's findings on an example that holds its bank and, in ``# responses:`` lines, the answers."""
    # only a response rule's examples need the analysis extra (DuckDB): imported when one is run
    from qlint.responserule import split_example
    from qlint.analysis.run import DATA_RULE, analyze, bank_questions

    bank, responses = split_example(text)
    with tempfile.TemporaryDirectory(prefix="qlint-example-") as folder:
        (Path(folder) / "bank.yaml").write_text(bank, encoding="utf-8")
        (Path(folder) / "responses.csv").write_text(responses, encoding="utf-8")
        active = resolve_rules(Config(settings, Path(folder), None), registry, select=[rule.name])
        severity = Severity.WARNING if rule.name == DATA_RULE[1] else None   # response-data is its findings
        result = analyze(bank_questions([str(Path(folder) / "bank.yaml")]), [Path(folder) / "responses.csv"],
                         active, severity)
    return [f for f in result.findings if f.rule == rule.name]


def _stated(expected: str | tuple[str, ...], count: int) -> tuple[str, ...]:
    return expected if isinstance(expected, tuple) else (expected,) * count


def assert_findings(example: str | Invalid, findings: Sequence[Finding], name: str = "the rule") -> None:
    """Check findings (one rule's, however they were produced) against what a failing example states: at least one,
    each located, and each with its field and message fragment. AssertionError says what differs."""
    example = as_invalid(example)
    if not findings:
        raise AssertionError(f"{name} did not fire")
    for expected, what in ((example.field, "field"), (example.message, "message")):
        if expected is None:
            continue
        got = [getattr(f, what) for f in findings]
        wanted = _stated(expected, len(findings))
        if len(wanted) != len(got):
            raise AssertionError(f"{name} reported {len(got)} finding(s), the example states {len(wanted)}: {got}")
        for number, (want, have) in enumerate(zip(wanted, got, strict=True), 1):
            if (have != want) if what == "field" else (want not in (have or "")):
                relation = "names field" if what == "field" else "has message"
                raise AssertionError(f"{name}: finding {number} {relation} {have!r}, the example states {want!r}")
    unplaced = [f.message for f in findings if f.line < 1 or f.column < 1]
    if unplaced:
        raise AssertionError(f"{name}: findings without a line and column: {unplaced}")


def fixed_text(rule: Rule, example: str | Valid, *, registry: Registry | None = None) -> str:
    """The example's text after the rule's own safe fixes, applied and checked again as ``--fix`` does until it
    offers no more. AssertionError when a fix is refused or the rule keeps offering fixes."""
    example = as_valid(example)
    text = example.text
    for _ in range(FIX_ROUNDS):
        fixes = fixable(lint_example(rule, example, registry=registry, text=text))
        if not fixes:
            return text
        try:
            applied = apply_fixes(text, fixes)
        except FixError as exc:
            raise AssertionError(f"{rule.name}: its fix cannot be applied: {exc}") from None
        if applied.refused:
            raise AssertionError(f"{rule.name}: its fix was refused: {'; '.join(applied.refused)}")
        if applied.text == text:
            return text
        text = applied.text
    raise AssertionError(f"{rule.name}: still offers a fix after {FIX_ROUNDS} rounds of --fix")


def check_example(rule: Rule, example: str | Valid, *, failing: bool | None = None,
                  registry: Registry | None = None) -> None:
    """Run one example: a ``Valid`` (or, with ``failing=False``, a string) must pass, an ``Invalid`` (or a string
    with ``failing=True``) must fire as it states. AssertionError says what differs."""
    if failing is None:
        if not isinstance(example, Valid):
            raise TypeError("a plain-string example needs failing=True or failing=False")
        failing = isinstance(example, Invalid)
    if not failing:
        found = lint_example(rule, example, registry=registry)
        if found:
            raise AssertionError(f"{rule.name} fired on a passing example: {[f.message for f in found]}")
        return
    example = as_invalid(example)
    assert_findings(example, lint_example(rule, example, registry=registry), rule.name)
    if example.fixed is not None:
        after = fixed_text(rule, example, registry=registry)
        if after == example.text:
            raise AssertionError(f"{rule.name} offers no fix on an example that states its fixed text")
        if after != example.fixed:
            raise AssertionError(f"{rule.name}: --fix gives\n{after}\nthe example states\n{example.fixed}")


def assert_rule(rule: Rule, valid: Iterable[str | Valid] | None = None, invalid: Iterable[str | Invalid] | None = None,
                *, registry: Registry | None = None) -> None:
    """Check a rule against examples: ``valid`` must pass and ``invalid`` fire as they state; each defaults to the
    rule's own (``passing`` and ``failing``). One AssertionError lists every example that differs."""
    cases = [(False, i, e) for i, e in enumerate(rule.passing if valid is None else valid)]
    cases += [(True, i, e) for i, e in enumerate(rule.failing if invalid is None else invalid)]
    problems = []
    for failing, index, example in cases:
        try:
            check_example(rule, example, failing=failing, registry=registry)
        except AssertionError as exc:
            problems.append(f"{'failing' if failing else 'passing'} example {index}: {exc}")
    if problems:
        raise AssertionError(f"{rule.name}: " + "\n".join(problems))
