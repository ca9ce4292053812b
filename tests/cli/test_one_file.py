"""Checking named files in a bank (pre-commit, an editor's buffer): only the named files go through the question
rules, the rest of the bank only through the bank rules, and what is reported is exactly what checking every file
with every rule reports for the named files."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from qlint.config import resolve_rules
from qlint.files import relative
from qlint.formats import discover_banks
from qlint.rule import BankRule
from qlint.run.pipeline import check_sources, run_check, setup

STEMS = [
    "Which technique reduces activation memory at the cost of recomputing activations in the backward pass?",
    "Which optimizer keeps two moments per weight and corrects their bias early in training?",
    "Which collective operation averages gradients across the data-parallel ranks after each step?",
    "Which number format keeps the exponent range of fp32 while using only sixteen bits per value?",
    "Which schedule raises the learning rate linearly for the first steps before decaying it slowly?",
]


def _question(qid: str, stem: str, keys: tuple[int, ...] = (0,)) -> str:
    options = "".join(f"      - {{text: Option {i} for {qid}, {'correct: true, ' if i in keys else ''}"
                      f"rationale: {'Correct' if i in keys else 'Incorrect'}. Because of reason {i}.}}\n"
                      for i in range(4))
    return f"  - id: {qid}\n    stem: {stem}\n    options:\n{options}"


def _bank(root: Path) -> Path:
    """A small bank with near-duplicate stems and duplicate ids across files, and question-rule flaws (two keys)
    both in the file that will be named and in the rest."""
    (root / "qlint.toml").write_text('paths = ["bank"]\n', encoding="utf-8")
    bank = root / "bank"
    for part in range(3):
        folder = bank / f"part{part}"
        folder.mkdir(parents=True)
        for number in range(3):
            index = part * 3 + number
            questions = [_question(f"q{index}-{k}", f"{STEMS[(index + k) % 5]} Case {index * 7 + k}.",
                                   keys=(0, 1) if k == 1 else (0,)) for k in range(3)]
            if index in (2, 6):   # an id used again in another file
                questions.append(_question("q0-0", "Which loss suits a multi-class problem with exclusive labels?"))
            if index in (4, 7):   # a near-duplicate of a stem in the named file
                questions.append(_question(f"dup-{index}", f"{STEMS[0]} Case 0."))
            (folder / f"f{index}.yaml").write_text("questions:\n" + "".join(questions), encoding="utf-8")
    return bank


def _row(finding) -> tuple:
    """Everything a report shows of a finding (a cached one keeps that it has a fix, not the fix's edits)."""
    return (finding.path, finding.line, finding.column, finding.code, finding.rule, str(finding.severity),
            finding.message, finding.question, finding.field, finding.end_line, finding.end_column,
            finding.fix is not None)


def _every_rule_on_every_file(root: Path, named: Path) -> list[tuple]:
    """What checking the named file and then the rest of its bank, every rule on every file, reports for the
    named file: the findings of the named-files run before the rest of the bank went through the bank rules only."""
    config, registry = setup(None, named)
    active = resolve_rules(config, registry)
    rest = [f for f in discover_banks([root / "bank"], ()) if f.resolve() != named.resolve()]
    sources = [(relative(f), f.read_bytes()) for f in [named, *rest]]
    bank_rules = {r.name for r in registry if isinstance(r, BankRule)}
    found = check_sources(sources, active, limits=config.settings.limits, report_only={relative(named)})
    return [_row(f) for f in found if not (f.rule in bank_rules and f.question is None)]


@pytest.fixture
def bank(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("QLINT_NO_PROGRESS", "1")
    return _bank(tmp_path)


def test_named_file_findings_equal_every_rule_on_every_file(bank):
    named = Path("bank/part0/f0.yaml")
    expected = _every_rule_on_every_file(Path("."), named)
    rules = {row[4] for row in expected}
    assert {"duplicate-id", "near-duplicate-stem", "correct-count"} <= rules, expected   # the bank is as meant
    for use_cache in (False, True, True):   # no cache, an empty cache, then a warm one
        run = run_check([str(named)], use_cache=use_cache, jobs=1)
        assert [_row(f) for f in run.findings] == expected


def test_rest_of_the_bank_goes_through_the_bank_rules_only(bank):
    run = run_check(["bank/part0/f0.yaml"], use_cache=False, jobs=1)
    bank_rules = {a.rule.name for a in run.active if isinstance(a.rule, BankRule)}
    rest = [o for o in run.results if o.path != "bank/part0/f0.yaml"]
    assert len(rest) == 8
    # every file has a question with two keys: only the named file was asked about it
    assert not any(f.rule == "correct-count" for o in rest for f in o.findings)
    assert any(f.rule == "correct-count" for f in run.findings)
    assert all(o.items and all(set(i.features) == {n for n in bank_rules if n in i.features} for i in o.items)
               for o in rest)
    assert all("near-duplicate-stem" in i.features for o in rest for i in o.items)


def test_cached_bank_findings_follow_a_change_in_the_rest_of_the_bank(bank, run_cli):
    named = "bank/part0/f0.yaml"
    code, out, _ = run_cli("check", named, "--format", "json")
    before = json.loads(out)["findings"]
    assert any(f["rule"] == "near-duplicate-stem" for f in before)
    # the rest of the bank changes: one more copy of a stem of the named file, and the duplicate ids go away
    (bank / "part2" / "f8.yaml").write_text("questions:\n" + _question("dup-new", f"{STEMS[0]} Case 0."),
                                           encoding="utf-8")
    for name in ("f2.yaml", "f6.yaml"):
        path = bank / ("part0" if name == "f2.yaml" else "part2") / name
        path.write_text(path.read_text(encoding="utf-8").replace("id: q0-0", "id: other-" + name[:2]),
                        encoding="utf-8")
    _, warm, _ = run_cli("check", named, "--format", "json")
    _, fresh, _ = run_cli("check", named, "--format", "json", "--no-cache")
    assert json.loads(warm) == json.loads(fresh)
    found = json.loads(warm)["findings"]
    assert not any(f["rule"] == "duplicate-id" for f in found)
    near = lambda doc: [f["message"] for f in doc if f["rule"] == "near-duplicate-stem"]  # noqa: E731
    assert near(before) != near(found) and "(and 2 more)" in near(found)[0]   # dup-4, dup-7 and now dup-new


def test_warm_named_run_reports_as_a_cold_one(bank, run_cli):
    args = ("check", "bank/part1/f4.yaml", "bank/part0/f0.yaml", "--format", "json")
    cold = run_cli(*args)
    assert run_cli(*args) == cold
    assert run_cli(*args, "--no-cache") == cold


def test_stdin_buffer_of_a_new_file_after_a_whole_bank_run(bank, run_cli):
    """A whole-bank run caches its bank findings; an editor's buffer for a file not yet on disk has the same rest of
    the bank, and must still be compared with it (the rest loaded with its features, not the cached verdicts)."""
    run_cli("check", "bank")
    buffer = "questions:\n" + _question("new-1", f"{STEMS[0]} Case 0.")
    code, out, _ = run_cli("check", "-", "--stdin-filename", "bank/part0/new.yaml", "--format", "json", stdin=buffer)
    found = json.loads(out)["findings"]
    assert any(f["rule"] == "near-duplicate-stem" and f["path"] == "bank/part0/new.yaml" for f in found), found


def test_stdin_buffer_findings_equal_a_run_without_cache(bank, run_cli):
    buffer = (bank / "part0" / "f0.yaml").read_text(encoding="utf-8")
    args = ("check", "-", "--stdin-filename", "bank/part0/f0.yaml", "--format", "json")
    cold = run_cli(*args, stdin=buffer)
    assert run_cli(*args, stdin=buffer) == cold
    assert run_cli(*args, "--no-cache", stdin=buffer) == cold
    found = json.loads(cold[1])["findings"]
    assert {"duplicate-id", "near-duplicate-stem", "correct-count"} <= {f["rule"] for f in found}


def test_warm_named_run_reads_nothing_of_the_rest(bank):
    cold = run_check(["bank/part0/f0.yaml"], jobs=1)
    warm = run_check(["bank/part0/f0.yaml"], jobs=1)
    assert len(cold.results) == 9
    # the bank findings come from the cache: the rest's entries are not even read
    assert [o.path for o in warm.results] == ["bank/part0/f0.yaml"]
    assert [_row(f) for f in warm.findings] == [_row(f) for f in cold.findings]


def test_named_run_keeps_the_signatures_of_the_whole_bank(bank):
    run_check(["bank"], jobs=1)
    counts = lambda: sorted(len(json.loads(p.read_text())["files"])  # noqa: E731
                            for p in Path(".qlint_cache").glob("v*/signatures.json"))
    assert counts() == [9]
    run_check(["bank/part0/f0.yaml"], jobs=1)
    # the whole bank's key keeps all nine files; the rest of the bank's own key has the eight others
    assert counts() == [8, 9]
