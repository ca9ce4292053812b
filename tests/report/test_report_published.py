"""The bank report reads what the bank rules publish about a run; it never imports a rule or recomputes one."""
from __future__ import annotations

import ast
import json

import pytest
from helpers import ROOT, report_bank

from qlint.report import consistency
from qlint.report.summary import summarize
from qlint.run.pipeline import run_check

REPORT = ROOT / "src" / "qlint" / "report"


@pytest.fixture
def run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    report_bank(tmp_path)
    return run_check(["bank"], use_cache=False, keep_questions=True)


def test_what_the_rules_publish_is_computed_once_with_the_bank_rules(tmp_path, monkeypatch):
    """A run asked to publish holds every bank rule's table when it returns; asking again hands out the same one,
    so the report and stats (which ask for several, some twice) never run a rule's search a second time."""
    monkeypatch.chdir(tmp_path)
    report_bank(tmp_path)
    run = run_check(["bank"], use_cache=False, keep_questions=True, publish=True)
    publishing = {r.name for r in run.registry if r.kind == "bank" and r.publish is not None}
    assert {"near-duplicate-stem", "answer-position-bias", "reading-grade"} <= publishing
    assert publishing <= set(run.tables)
    first = {name: run.tables[name][0] for name in publishing}
    summarize(run, ["bank"])
    consistency.published(run)
    assert all(run.published(name)[0] is first[name] for name in publishing)


def test_a_run_that_reports_and_publishes_searches_and_groups_the_bank_once(tmp_path, monkeypatch):
    """The near-duplicate search and the key-position grouping are each rule's survey: the bank stage runs it once
    and hands it to both the check and the table (they used to run again for the report)."""
    from qlint.rules import answer_position_bias, near_duplicate_stem

    calls = {"search": 0, "groups": 0}

    def counted(name, real):
        def call(*args, **kwargs):
            calls[name] += 1
            return real(*args, **kwargs)
        return call

    monkeypatch.setattr(near_duplicate_stem, "confirmed_pairs", counted("search", near_duplicate_stem.confirmed_pairs))
    monkeypatch.setattr(answer_position_bias, "_groups", counted("groups", answer_position_bias._groups))
    monkeypatch.chdir(tmp_path)
    report_bank(tmp_path)
    run = run_check(["bank"], use_cache=False, keep_questions=True, publish=True, jobs=1)
    summarize(run, ["bank"])
    consistency.published(run)
    assert calls == {"search": 1, "groups": 1}
    assert any(f.rule == "answer-position-bias" for f in run.findings)


def test_items_and_kept_questions_are_one_to_one(run):
    # the report indexes the kept questions with the positions the rules publish over the bank items
    items = [i for o in run.results for i in o.items]
    questions = [q for o in run.results for q in o.questions]
    assert [(i.path, i.id) for i in items] == [(q.path, q.question.id) for q in questions]


def test_key_position_table_is_the_one_check_tests(run):
    table, options, ran = run.published("answer-position-bias")
    assert ran and options.alpha == 0.01
    four = next(g for g in table["groups"] if g["options"] == 4)
    assert sum(four["counts"]) == four["questions"] == 29 and four["counts"][1] > 20
    assert four["tested"] and four["biased"] and four["p_value"] < options.alpha
    (finding,) = [f for f in run.findings if f.rule == "answer-position-bias" and f.question is None]
    spread = ", ".join(f"{'ABCD'[i]} {c}" for i, c in enumerate(four["counts"]))
    assert spread in finding.message and f"chi-square {four['statistic']:.1f}" in finding.message
    assert table["excluded"] == 0


def test_key_position_table_of_a_rule_that_did_not_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    report_bank(tmp_path)
    run = run_check(["bank"], use_cache=False, keep_questions=True, ignore=["answer-position-bias"],
                    select=["near-duplicate-stem"])
    table, options, ran = run.published("answer-position-bias")
    assert not ran and options.min_questions == 20   # the defaults
    assert [g["options"] for g in table["groups"]] == [4]


def test_near_duplicate_pairs_are_the_ones_check_reports(run):
    pairs, options, ran = run.published("near-duplicate-stem")
    assert ran and options.threshold == 90.0
    items = [i for o in run.results for i in o.items]
    in_pairs = {items[i].id for a, b, _ in pairs for i in (a, b)}
    flagged = {f.question for f in run.findings if f.rule == "near-duplicate-stem"}
    assert in_pairs == flagged == {"dup-a0", "dup-a1", "dup-a2", "dup-b0", "dup-b1"}
    assert all(a < b and 90 <= s <= 100 for a, b, s in pairs)


def test_near_duplicates_publish_nothing_when_the_rule_did_not_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    report_bank(tmp_path)
    run = run_check(["bank"], use_cache=False, keep_questions=True, ignore=["near-duplicate-stem"])
    assert run.published("near-duplicate-stem")[0] is None


@pytest.mark.parametrize("module", sorted(p.name for p in REPORT.glob("*.py")))
def test_report_imports_no_rule_internals(module):
    tree = ast.parse((REPORT / module).read_text(encoding="utf-8"))
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    names += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    forbidden = ("qlint.rules", "qlint.neardup.search", "qlint.neardup.index")
    assert not [n for n in names if n.startswith(forbidden)], module


def test_a_warm_report_run_takes_the_cache_and_gives_what_an_uncached_one_does(tmp_path, monkeypatch):
    """report and stats use the cache as check does: a warm run runs no rule over a file again, only reads the
    questions back, and the summary and the published tables are those of a run without the cache."""
    import qlint.run.perfile

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("QLINT_CACHE_DIR", str(tmp_path / "cache"))
    report_bank(tmp_path)
    uncached = run_check(["bank"], use_cache=False, keep_questions=True, publish=True)
    run_check(["bank"], keep_questions=True, publish=True)
    checked: list[str] = []
    original = qlint.run.perfile.check_file
    monkeypatch.setattr(qlint.run.perfile, "check_file", lambda result, *a, **k: checked.append(result.path)
                        or original(result, *a, **k))
    warm = run_check(["bank"], keep_questions=True, publish=True)
    assert checked == [] and all(o.questions for o in warm.results)
    assert summarize(warm, ["bank"]).to_dict() == summarize(uncached, ["bank"]).to_dict()
    assert consistency.published(warm) == consistency.published(uncached)


def test_a_file_changed_since_it_was_hashed_is_checked_again_when_its_questions_are_read(tmp_path, monkeypatch):
    from qlint.limits import Limits
    from qlint.run.cache import Cache
    from qlint.run.perfile import FileSetup, check_path, reread

    monkeypatch.chdir(tmp_path)
    bank = report_bank(tmp_path)
    path = sorted(bank.rglob("*.yaml"))[0]
    setup = FileSetup((), Limits(), keep=True)
    cached, _, _, _ = check_path(path, path.name, FileSetup((), Limits()), None)
    assert cached.questions is None
    same = reread(cached, path, path.name, Cache.digest(path.name, path.read_bytes()), setup)
    assert same is cached and len(same.questions) == len(same.items)
    path.write_text(path.read_text(encoding="utf-8").split("\n  - id:")[0] + "\n", encoding="utf-8")
    again = reread(cached, path, path.name, "an older digest", setup)
    assert again is not cached and len(again.questions) == len(again.items) < len(cached.items)


def test_reading_figures_count_stems_and_options_as_reading_level_reports_them(tmp_path, monkeypatch):
    """The reading figures are the rule's: a quotation the question asks about is not a long sentence, nor is a
    long option all its own a long option, so the report's counts of long sentences and long options are the
    stems and options reading-level reports (they used to count every sentence and option by its raw length)."""
    quote = ("I love you in a really big way and I will pretend to like your taste in music and let you eat the last "
             "piece of cake and hold the remote control as long as you want to because that is what friends do.")
    run_on = ("A company that runs its web tier on a fleet of virtual machines behind a load balancer in two regions, "
              "with a managed database that replicates to a standby in a second zone and a nightly export of every "
              "table to object storage, wants to cut its monthly bill without losing availability.")
    plan = " ".join(f"step {n} runs" for n in range(33)) + "."
    stems = {"quoted": quote + " Who said this?", "long": run_on + " What should it do?", "plan": "Which plan works?"}
    lines = ["questions:"]
    for qid, stem in stems.items():
        first = plan if qid == "plan" else "The first"
        lines += [f"  - id: {qid}", f"    stem: {json.dumps(stem)}", "    options:",
                  f"      - {{text: {json.dumps(first)}, correct: true, rationale: Correct. It fits.}}",
                  "      - {text: The second, rationale: Incorrect. It does not fit.}"]
    (tmp_path / "bank").mkdir()
    (tmp_path / "bank" / "q.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    run = run_check(["bank"], use_cache=False, keep_questions=True, publish=True)
    reported = [f for f in run.findings if f.rule == "reading-level"]
    assert [(f.question, f.field) for f in reported] == [("long", "stem")]
    reading = summarize(run, ["bank"]).reading
    assert (reading.long_sentences, reading.long_options) == (1, 0)
    longest = {q.id: q.longest_sentence for q in summarize(run, ["bank"]).questions}
    assert reported[0].message.startswith(f"a sentence of {longest['long']} words") and longest["quoted"] < 35, longest
