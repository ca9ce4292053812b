"""Item statistics against an independent numpy computation, and the findings against planted truth."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("duckdb")

from qlint.analysis.run import analyze, bank_questions  # noqa: E402
from qlint.analysis.simulate import simulate  # noqa: E402
from qlint.config import Config, Settings, resolve_rules  # noqa: E402
from qlint.registry import load_registry  # noqa: E402
from qlint.responserule import ResponseRule  # noqa: E402
from qlint.wording import letter  # noqa: E402


def run_simulation(tmp_path: Path, seed: int, persons: int = 500, items: int = 40):
    sim = simulate(items=items, seed=seed)
    (tmp_path / "bank.yaml").write_text(sim.bank_yaml, encoding="utf-8")
    with open(tmp_path / "responses.csv", "w", encoding="utf-8") as handle:
        handle.write("person,item,response\n")
        handle.writelines(sim.long_rows(persons, seed))
    registry = load_registry()
    names = [r.name for r in registry if isinstance(r, ResponseRule)]
    active = resolve_rules(Config(Settings(), tmp_path, None), registry, select=names)
    analysis = analyze(bank_questions([str(tmp_path / "bank.yaml")]), [tmp_path / "responses.csv"], active)
    return sim, analysis


def matrix(sim, persons: int, seed: int) -> np.ndarray:
    """The same responses the CSV holds, as (persons, items) option indices, -1 omitted."""
    return np.vstack([sim.responses(min(20_000, persons - s), seed * 1_000_003 + s) for s in range(0, persons, 20_000)])


def test_ctt_statistics_equal_a_numpy_computation(tmp_path):
    sim, analysis = run_simulation(tmp_path, seed=3, persons=400, items=12)
    chosen = matrix(sim, 400, 3)
    scores = (chosen == sim.bank_keys[None, :]).astype(float)
    total = scores.sum(axis=1)
    k = scores.shape[1]
    alpha = k / (k - 1) * (1 - scores.var(axis=0).sum() / total.var())
    assert analysis.stats.forms[0].alpha == pytest.approx(alpha, abs=1e-9)
    for item in analysis.stats.items:
        i = item.qi
        rest = total - scores[:, i]
        assert item.p == pytest.approx(scores[:, i].mean())
        assert item.omitted == int((chosen[:, i] == -1).sum())
        assert item.item_rest == pytest.approx(np.corrcoef(scores[:, i], rest)[0, 1], abs=1e-9)
        without = np.delete(scores, i, axis=1)
        t2 = without.sum(axis=1)
        alpha_del = (k - 1) / (k - 2) * (1 - without.var(axis=0).sum() / t2.var())
        assert item.alpha_if_deleted == pytest.approx(alpha_del, abs=1e-9)
        for option in item.options:
            picked = (chosen[:, i] == option.opt).astype(float)
            assert option.proportion == pytest.approx(picked.mean())
            if 0 < picked.sum() < 400:
                assert option.rest_pb == pytest.approx(np.corrcoef(picked, rest)[0, 1], abs=1e-9)
        # the five score groups: every person in one, so the option shares of each group add up to one
        for g in range(5):
            assert sum(o.groups[g] for o in item.options) + item.omitted_groups[g] == pytest.approx(1.0)
        # the key's curve rises from the lowest fifth to the highest on a discriminating question
        if item.item_rest and item.item_rest > 0.3:
            assert item.options[item.key].groups[4] > item.options[item.key].groups[0]


def test_upper_lower_index_uses_27_percent_groups(tmp_path):
    sim, analysis = run_simulation(tmp_path, seed=5, persons=300, items=10)
    chosen = matrix(sim, 300, 5)
    scores = (chosen == sim.bank_keys[None, :]).astype(float)
    total = scores.sum(axis=1)
    size = round(0.27 * 300)
    for item in analysis.stats.items:
        # ties at the group boundary are split by person; compare against the range numpy allows
        lo_cut, hi_cut = np.sort(total)[size - 1], np.sort(total)[-size]
        surely_low, surely_high = total < lo_cut, total > hi_cut
        i = item.qi
        upper_bounds = (scores[surely_high, i].sum(), scores[surely_high, i].sum() + scores[total == hi_cut, i].sum())
        lower_bounds = (scores[surely_low, i].sum(), scores[surely_low, i].sum() + scores[total == lo_cut, i].sum())
        low = (upper_bounds[0] - lower_bounds[1]) / size
        high = (upper_bounds[1] - lower_bounds[0]) / size
        assert low - 1e-9 <= item.discrimination <= high + 1e-9


def flagged(analysis):
    """(question, letter) pairs the findings name: the option behaving like the key, the dead distractor."""
    keys = set()
    for f in analysis.findings:
        if f.rule == "likely-miskeyed":
            named = f.message.split("option ", 1)[1][0] if "behaves like the key" in f.message else "?"
            keys.add((f.question, named))
    dead = {(f.question, letter(int(f.field.split("[")[1].split("]")[0])))
            for f in analysis.findings if f.rule == "non-functioning-distractor"}
    return keys, dead


def test_planted_miskeys_and_dead_distractors_are_found_over_seeds(tmp_path):
    """500 examinees, 40 questions, ten seeds: recall and precision of both kinds of planted fault >= 0.95."""
    hits = {"miskey": [0, 0, 0], "dead": [0, 0, 0]}   # true positives, findings, planted
    for seed in range(10):
        folder = tmp_path / str(seed)
        folder.mkdir()
        sim, analysis = run_simulation(folder, seed=seed)
        keys, dead = flagged(analysis)
        for kind, found, planted in (("miskey", keys, set(sim.truth.miskeyed.items())), ("dead", dead, sim.truth.dead)):
            hits[kind][0] += len(found & planted)
            hits[kind][1] += len(found)
            hits[kind][2] += len(planted)
    for kind, (tp, found, planted) in hits.items():
        assert tp / planted >= 0.95, (kind, tp, planted)
        assert tp / found >= 0.95, (kind, tp, found)


def test_forms_are_analysed_apart(tmp_path):
    """Two forms sharing some questions: each form's KR-20 is its own persons' and questions' (numpy)."""
    sim = simulate(items=14, seed=11, miskeyed=0, dead=0, flat=0)
    (tmp_path / "bank.yaml").write_text(sim.bank_yaml, encoding="utf-8")
    chosen = sim.responses(600, 11)
    forms = {"A": (range(0, 300), range(0, 9)), "B": (range(300, 600), range(5, 14))}
    with open(tmp_path / "r.csv", "w", encoding="utf-8") as handle:
        handle.write("form,person,item,response\n")
        for form, (persons, items) in forms.items():
            for p in persons:
                for i in items:
                    handle.write(f"{form},p{p},{sim.ids[i]},{letter(chosen[p, i]) if chosen[p, i] >= 0 else ''}\n")
    analysis = analyze(bank_questions([str(tmp_path / "bank.yaml")]), [tmp_path / "r.csv"], [], None)
    by_form = {f.form: f for f in analysis.stats.forms}
    for form, (persons, items) in forms.items():
        block = chosen[np.ix_(list(persons), list(items))]
        scores = (block == sim.bank_keys[list(items)][None, :]).astype(float)
        k = scores.shape[1]
        alpha = k / (k - 1) * (1 - scores.var(axis=0).sum() / scores.sum(axis=1).var())
        assert by_form[form].persons == 300 and by_form[form].items == 9
        assert by_form[form].alpha == pytest.approx(alpha, abs=1e-9)
    assert {(i.form, sim.ids[i.qi]) for i in analysis.stats.items} == {
        (form, sim.ids[i]) for form, (_, items) in forms.items() for i in items}


def test_numeric_wide_data_with_a_missing_code_finds_the_miskey(tmp_path):
    """Published data sets often come as a wide table of option numbers (1..k) with a code such as 8 for
    missing and no person column: the mis-key is still found and named, the 8s reported, not scored."""
    sim = simulate(items=32, options=5, seed=12, miskeyed=1, dead=0, flat=0)
    (tmp_path / "bank.yaml").write_text(sim.bank_yaml, encoding="utf-8")
    chosen = sim.responses(600, 12)
    with open(tmp_path / "wide.csv", "w", encoding="utf-8") as handle:
        handle.write(",".join(sim.ids) + "\n")
        for row in chosen:
            handle.write(",".join("8" if c < 0 else str(c + 1) for c in row) + "\n")
    registry = load_registry()
    active = resolve_rules(Config(Settings(), tmp_path, None), registry,
                           select=[r.name for r in registry if isinstance(r, ResponseRule)])
    analysis = analyze(bank_questions([str(tmp_path / "bank.yaml")]), [tmp_path / "wide.csv"], active)
    keys, _ = flagged(analysis)
    assert keys == set(sim.truth.miskeyed.items())
    assert analysis.stats.forms[0].persons == 600
    assert any(f.rule == "response-data" and "'8'" in f.message for f in analysis.findings)
