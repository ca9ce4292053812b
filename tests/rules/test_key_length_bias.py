"""key-length-bias: the key is the longest option far more often than chance across the bank, a folder or an
objective; chance and a small tilt in a big bank are not."""
from __future__ import annotations

import json

import pytest

from qlint.rules import key_length_bias
from qlint.run.pipeline import run_check


def _question(qid: str, key: int, long: int, objective: str | None = None) -> str:
    lines = [f"  - id: {qid}", f"    stem: Which setting explains case {qid} of the memory report?"]
    if objective:
        lines.append(f"    objective: {objective}")
    lines.append("    options:")
    for j in range(4):
        text = "Each stored loss keeps its whole autograd graph alive" if j == long else f"Setting {j}"
        lines.append(f"      - {{text: {text}, {'correct: true, ' if j == key else ''}rationale: Reason.}}")
    return "\n".join(lines) + "\n"


def _write(folder, name: str, questions: list[str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text("questions:\n" + "".join(questions), encoding="utf-8")


def _findings(path, **kwargs):
    run = run_check([str(path)], use_cache=False, keep_questions=True, select=["key-length-bias"], **kwargs)
    return run, [f for f in run.findings if f.rule == "key-length-bias"]


def test_a_bank_whose_keys_are_the_longest_gets_one_finding_with_the_numbers(tmp_path):
    # 30 questions, keys evenly over A-D; the long option is the key in 24 of them (chance: a quarter)
    _write(tmp_path / "bank", "a.yaml", [_question(f"q{i}", i % 4, i % 4 if i % 5 else (i + 1) % 4)
                                         for i in range(30)])
    run, (finding,) = _findings(tmp_path / "bank")
    assert finding.question is None and finding.field.startswith("options[")
    assert finding.message.startswith("across the bank, the key is the clearly longest option in 24 of the 30 "
                                      "questions that have one (80%); chance is 25% (exact binomial test, p=")
    assert "; the starkest: q" in finding.message
    table, _, ran = run.published("key-length-bias")
    (bank,) = [g for g in table["groups"] if g["kind"] == "bank"]
    assert ran and bank["questions"] == 30 and bank["key_longest"] == 24 and bank["flagged"]
    assert table["by_options"] == [{"options": 4, "questions": 30, "key_longest": 24, "chance": 0.25}]


def test_chance_and_a_small_tilt_in_a_big_bank_are_no_finding(tmp_path):
    # the long option is the key wherever chance puts it (a quarter of the time)
    _write(tmp_path / "fair", "a.yaml", [_question(f"q{i}", i % 4, (i // 4) % 4) for i in range(64)])
    assert _findings(tmp_path / "fair")[1] == []
    # 2,000 questions, the key is the long option in 30%: significant (p ~ 1e-7), but below 1.5x chance
    _write(tmp_path / "big", "a.yaml", [_question(f"q{i}", i % 4, i % 4 if i % 10 < 3 else (i + 1) % 4)
                                        for i in range(2000)])
    run, found = _findings(tmp_path / "big")
    assert found == []
    (bank,) = [g for g in run.published("key-length-bias")[0]["groups"] if g["kind"] == "bank"]
    assert bank["p_value"] < 1e-5 and not bank["flagged"]


def test_a_folder_or_an_objective_is_reported_where_its_questions_are(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "bank" / "cloud", "a.yaml", [_question(f"c{i}", i % 4, i % 4) for i in range(20)])
    _write(tmp_path / "bank" / "maths", "a.yaml", [_question(f"m{i}", i % 4, (i // 4) % 4) for i in range(60)])
    _write(tmp_path / "bank" / "mixed", "a.yaml", [_question(f"x{i}", i % 4, i % 4 if i % 2 else (i // 4) % 4,
                                                             objective="Caching" if i % 2 else "Paging")
                                                   for i in range(80)])
    run, found = _findings("bank")
    # the cloud folder and the Caching objective; the bank, biased only through them, is not reported again
    assert sorted((f.path, f.message.split(",")[0]) for f in found) == [
        ("bank/cloud/a.yaml", "across bank/cloud/"), ("bank/mixed/a.yaml", "across objective 'Caching'")]
    rows = {(g["kind"], g["name"]): g for g in run.published("key-length-bias")[0]["groups"]}
    assert rows[("folder", "bank/cloud")]["flagged"] and rows[("objective", "Caching")]["flagged"]
    assert not rows[("bank", "")]["flagged"] and not rows[("folder", "bank/maths")]["flagged"]


def test_the_feature_is_cached_and_read_back_exactly():
    features = [key_length_bias.Longest(4, 1, 2, 2.5), key_length_bias.Longest(2, 1, -1, 1.1)]
    data = json.loads(json.dumps(key_length_bias.encode(features)))
    assert key_length_bias.decode(data, 2) == features
    for bad in ([[4, 1, "2", 2.5], [2, 1, -1, 1.1]], [[4, 1, 2]], "x", [[True, 1, 2, 2.5], [2, 1, -1, 1.1]],
                [[4, 1, 2, 2.5], [4, 1, 2, 2.5, 0]], [[4, 1, 2, 2.5], "4122"], [[4, 1, 2, 2.5], [4, 1, 2, None]],
                [[4, 1, 2, 2.5], [4, True, 2, 2.5]]):
        with pytest.raises(Exception):
            key_length_bias.decode(bad, 2)


def test_equal_records_are_read_back_as_one_and_a_whole_ratio_as_a_float():
    read = key_length_bias.decode([[4, 1, -1, 1], [4, 1, -1, 1.0], [4, 1, 2, 2.5]], 3)
    assert read[0] is read[1] and read[0].ratio == 1.0 and type(read[0].ratio) is float
    assert read[2] == key_length_bias.Longest(4, 1, 2, 2.5) and key_length_bias.decode([], 0) == []


def test_a_warm_run_reports_what_a_cold_run_does(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "bank", "a.yaml", [_question(f"q{i}", i % 4, i % 4) for i in range(24)])
    cold = [f.message for f in run_check(["bank"], select=["key-length-bias"]).findings]
    warm = [f.message for f in run_check(["bank"], select=["key-length-bias"]).findings]
    assert cold == warm and len(cold) == 1


def _items(layout: list[tuple[str, str | None, bool]]):
    """Bank items for the verdicts alone: (folder, objective, whether the long option is the key) per question."""
    from qlint.items import BankItem, Features, Places

    out = []
    for n, (folder, objective, keyed) in enumerate(layout):
        feature = key_length_bias.Longest(4, 1, 0 if keyed else 1 + n % 3, 1.6)
        out.append(BankItem(f"q{n}", f"{folder}/a.yaml", 1 + 10 * n, 1, 9 + 10 * n, 1, (0,), 4, objective, (), None,
                            {}, Places({}), Features({key_length_bias.RULE.name: feature})))
    return out


def _reference(items, options) -> list[tuple[str, str, bool]]:
    """The reporting the rule's card states, the obvious way: every flagged group checked against every other."""
    found = key_length_bias.groups(items)
    tested = [g for g in found if len(g.items) >= options.min_questions]
    alpha = options.alpha / max(1, len(tested))
    flagged = [g for g in tested if key_length_bias._biased(g, alpha, options)[1]]
    out = []
    for g in found:
        reported = g in flagged
        if reported:
            own = {id(i) for i in g.items}
            narrower = set().union(*({id(i) for i in w.items} for w in flagged if {id(i) for i in w.items} < own))
            if narrower:
                rest = key_length_bias.Group(g.kind, g.name, [i for i in g.items if id(i) not in narrower])
                reported = len(rest.items) >= options.min_questions and key_length_bias._biased(rest, alpha, options)[1]
        out.append((g.kind, g.name, reported))
    return out


def test_narrower_groups_are_found_as_the_card_says_and_groups_are_never_compared_by_value(monkeypatch):
    import random

    options = key_length_bias.Options()
    rng = random.Random(7)
    for _ in range(20):
        # folders biased or not, objectives inside a folder, across folders, or none
        layout = []
        for f in range(rng.randint(1, 8)):
            bias = rng.choice((0.2, 0.5, 0.95))
            for _ in range(rng.randint(5, 40)):
                objective = rng.choice((None, f"in-{f}", "shared", f"in-{f}-b"))
                layout.append((f"d{f}", objective, rng.random() < bias))
        items = _items(layout)
        expected = _reference(items, options)
        with monkeypatch.context() as patched:
            def refuse(self, other):
                raise AssertionError("groups compared by value")
            patched.setattr(key_length_bias.Group, "__eq__", refuse)
            got = [(v.group.kind, v.group.name, v.reported) for v in key_length_bias.verdicts(items, options)]
        assert got == expected


def test_a_bank_biased_only_through_its_thousands_of_folders_is_reported_through_them():
    # every one of 3,000 folders is biased: each is reported, and the bank, biased only through them, is not
    items = _items([(f"d{f}", None, True) for f in range(3000) for _ in range(10)])
    found = key_length_bias.verdicts(items, key_length_bias.Options())
    assert sum(v.reported for v in found) == 3000
    assert not next(v for v in found if v.group.kind == "bank").reported
