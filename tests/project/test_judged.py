"""The judged-precision script's arithmetic: Wilson intervals, stratified allocation, scoring and settling."""
from __future__ import annotations

import pytest
from helpers import ROOT, load_script

SCRIPT = ROOT / "scripts" / "judged.py"


@pytest.fixture(scope="module")
def judged():
    return load_script(SCRIPT)


def test_wilson_interval_matches_the_textbook_values(judged):
    low, high = judged.wilson(38, 40)
    assert (round(low, 3), round(high, 3)) == (0.835, 0.986)
    assert judged.wilson(0, 0) == (0.0, 1.0)
    low, high = judged.wilson(40, 40)
    assert high == 1.0 and 0.91 < low < 0.92


def test_round_robin_gives_the_next_draw_to_the_corpus_with_the_fewest(judged):
    pools = {"big": [f"b{i}" for i in range(1000)], "mid": [f"m{i}" for i in range(10)], "small": ["s0", "s1"]}
    got = judged.round_robin(pools, {}, 24)
    assert {c: len(v) for c, v in got.items()} == {"big": 12, "mid": 10, "small": 2}   # small banks count as much
    assert got["big"] == pools["big"][:12]                                             # in the pool's (random) order
    # judged findings count: a corpus already judged waits for the others
    assert {c: len(v) for c, v in judged.round_robin(pools, {"big": 5}, 6).items()} == {"big": 0, "mid": 4, "small": 2}
    assert {c: len(v) for c, v in judged.round_robin(pools, {}, 100, per_corpus=3).items()} == \
        {"big": 3, "mid": 3, "small": 2}


def test_draw_samples_every_corpus_of_a_rule(judged):
    by_rule = {"r": {("a", f"a-{i:06d}"): {"message": "m"} for i in range(1, 200)} |
               {("b", "b-000001"): {"message": "m"}, ("c", "c-000001"): {"message": "m"}}}
    picked = judged.draw(by_rule, 9, seed=1, skip=set())
    assert sorted(p["corpus"] for p in picked) == ["a"] * 7 + ["b", "c"]
    assert judged.draw(by_rule, 9, seed=1, skip=set()) == picked   # a seed reproduces the draw


def test_score_counts_only_findings_still_reported_and_only_flaws_as_right(judged):
    by_rule = {"r": {("c", "c-000001"): {}, ("c", "c-000002"): {}, ("c", "c-000003"): {}}}
    verdicts = [{"corpus": "c", "id": "c-000001", "rule": "r", "verdict": "flaw"},
                {"corpus": "c", "id": "c-000002", "rule": "r", "verdict": "debatable"},
                {"corpus": "c", "id": "c-000009", "rule": "r", "verdict": "false-alarm"}]
    row = judged.score(by_rule, verdicts)["r"]
    assert (row["judged"], row["flaw"], row["precision"]) == (2, 1, 0.5)
    assert row["unjudged"] == 1 and row["no_longer_reported"] == 1


def test_score_is_per_corpus_and_the_bars_are_per_corpus(judged):
    names = judged.NAMES
    by_rule = {"r": {(names[0], f"x-{i:06d}"): {} for i in range(20)} | {(names[1], f"y-{i:06d}"): {} for i in range(3)}}
    verdicts = [{"corpus": names[0], "id": f"x-{i:06d}", "rule": "r", "verdict": "flaw" if i < 18 else "false-alarm"}
                for i in range(20)] + [{"corpus": names[1], "id": "y-000000", "rule": "r", "verdict": "false-alarm"}]
    row = judged.score(by_rule, verdicts)["r"]
    first, second = row["by_corpus"][names[0]], row["by_corpus"][names[1]]
    assert (first["judged"], first["precision"], first["findings"]) == (20, 0.9, 20)
    assert (second["judged"], second["precision"], second["findings"]) == (1, 0.0, 3)
    table = {"r": row}
    assert judged.verdict_on_bars(table, {"r": "warning"}) == {"r": []}     # 3 findings: too few to be held to it
    assert judged.verdict_on_bars(table, {"r": "error"})["r"][0].startswith(judged.short_name(names[0]))


def test_packets_show_the_judging_definition_and_no_code(judged, tmp_path):
    path = tmp_path / "defs.md"
    path.write_text("intro\n\n- all-of-the-above: an option is \"All of the above\".\n  Same test as above.\n"
                    "- duplicate-option: two options say the same thing.\n\nVerdict per packet.\n", encoding="utf-8")
    defs = judged.judging_definitions(path)
    assert defs == {"all-of-the-above": 'an option is "All of the above". Same test as above.',
                    "duplicate-option": "two options say the same thing."}


def test_settle_keeps_agreement_and_lists_disagreement(judged, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(judged, "VERDICTS", tmp_path / "verdicts.csv")
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    a.write_text("c|c-000001|r,flaw,the word is there\nc|c-000002|r,flaw,yes\n", encoding="utf-8")
    b.write_text("c|c-000001|r,flaw,agreed\nc|c-000002|r,false-alarm,a name\n", encoding="utf-8")
    args = type("A", (), {"a": str(a), "b": str(b), "third": None})
    judged.cmd_settle(args)
    assert "c|c-000002|r: flaw" in capsys.readouterr().out
    kept = judged.read_csv(tmp_path / "verdicts.csv")
    assert [(r["id"], r["verdict"], r["agreement"]) for r in kept] == [("c-000001", "flaw", "both")]
