"""Declarative rule packs: a bank's own rules as data, validated on load, safe against hostile patterns."""
from __future__ import annotations

from helpers import ROOT

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qlint.language.patterns import UnsafePattern, check_pattern_safety
from qlint.packs import PackError, read_pack



def readme_pack() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.search(r"```yaml\n# house-style/banned-terms.yaml\n(.*?)```", text, re.S).group(1)


def test_readme_pack_example_works(run_cli, write, tmp_path):
    write("house-style/banned-terms.yaml", readme_pack())
    write("pyproject.toml", '[tool.qlint]\nrule-packs = ["house-style/"]\n')
    bank = write("bank/q.yaml", "id: q\nstem: Which pytorch call frees cached memory?\noptions:\n"
                 "  - {text: torch.cuda.empty_cache(), correct: true, rationale: Correct. It releases the cache.}\n"
                 "  - {text: gc.collect(), rationale: Incorrect. It collects Python objects.}\n")
    code, out, err = run_cli("check", bank)
    assert 'H001 house-banned-terms: use "PyTorch" instead of "pytorch"' in out, out + err
    code, out, _ = run_cli("rule", "house-banned-terms", "--config", tmp_path / "pyproject.toml")
    assert code == 0 and "## What it does" in out


def test_unknown_pack_key_is_a_config_error_with_hint(run_cli, write):
    write("packs/bad.yaml", readme_pack().replace("use-instead:", "use-insted:"))
    write("qlint.toml", 'rule-packs = ["packs"]\n')
    code, _, err = run_cli("check", write("bank/q.yaml", "id: q\nstem: s?\noptions: [{text: a}, {text: b}]\n"))
    assert code == 2 and "use-insted" in err and "did you mean 'use-instead'" in err


def test_a_link_out_of_the_packs_folder_is_not_read(run_cli, write, tmp_path):
    secret = write("elsewhere/secret.yaml", "name: TOP SECRET\napi_key: sk-live-1234\n")
    write("project/qlint.toml", 'rule-packs = ["packs"]\n')
    (tmp_path / "project" / "packs").mkdir()
    (tmp_path / "project" / "packs" / "house.yaml").symlink_to(secret)
    bank = write("project/bank/q.yaml", "id: q\nstem: s?\noptions: [{text: a, correct: true}, {text: b}]\n")
    code, out, err = run_cli("check", bank, "--no-cache")
    assert code == 2 and "a symbolic link to a file outside the rule-packs folder" in err, out + err
    assert "SECRET" not in out + err and "api_key" not in out + err


@pytest.mark.parametrize("pattern", [r"(a+)+$", r"(\w*)*x", r"(a|aa)*(b+)+", r"(x)\1"])
def test_dangerous_patterns_are_refused(pattern):
    with pytest.raises(UnsafePattern):
        check_pattern_safety(pattern)


@pytest.mark.parametrize("pattern", [r"\ball of the above\b", r"\d+\s*(?:km|m)", r"[A-Z]{2,}s?"])
def test_ordinary_patterns_pass(pattern):
    check_pattern_safety(pattern)


def test_shipped_packs_load_and_run_fast_on_hostile_text(tmp_path):
    from qlint.model import Question
    from qlint.packs import load_pack_files

    rules = [rule for rule, _ in load_pack_files()]
    assert rules, "qlint ships at least one pack"
    evil = Question(id="x", stem="a" * 200_000 + "!", options=({"text": "none " * 20_000}, {"text": "b"}))
    for rule in rules:  # linear-time patterns: this returns at once (a backtracking pattern would hang here)
        list(rule.check(evil, rule.options()))
    assert read_pack(next((ROOT / "packs").glob("*.yaml")))


# --- a bank's own pattern rules run on RE2: linear time whatever the pattern ----------------------------------------

HOSTILE = [r"(a|a)+$", r"(.*){1,100}x", r"(a{1,100}){1,100}$", "a*" * 30 + "x", r"(a?){40}a{40}", r"(?=(a|a)+$)",
           r"(a+)+$", r"(x+x+)+y", r"^(\w+\s?)*$"]


def _pattern_pack(tmp_path: Path, *patterns: str, ignorecase: bool = True) -> Path:
    path = tmp_path / "house.yaml"
    lines = ["name: house-pattern", "code: H900", "extends: pattern", "summary: s", "why: w", "use-instead: u",
             "message: 'found {match}'", "scope: [stem, options]", f"ignorecase: {str(ignorecase).lower()}",
             "failing: ['x']", "patterns:"] + [f"  - '{p}'" for p in patterns]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("pattern", HOSTILE)
def test_hostile_pattern_is_refused_or_runs_in_linear_time(pattern, tmp_path):
    from helpers import within

    from qlint.model import Question

    try:
        rules = read_pack(_pattern_pack(tmp_path, pattern))
    except PackError as exc:   # what RE2 cannot run is refused, naming the file and the pattern
        assert "house.yaml" in str(exc) and pattern in str(exc) and "RE2" in str(exc)
        return
    # each ran past 60 s on a 40-character stem under a backtracking engine
    for stem in ("a" * 40 + "!", "a" * 40, "a" * 10_000 + "!", "x" * 40 + "!"):
        question = Question(id="x", stem=stem, options=({"text": "a" * 40 + "b"}, {"text": "b"}))
        with within(10):
            list(rules[0].check(question, rules[0].options()))


@pytest.mark.parametrize("pattern", [r"(?<![\w-])abc", r"(x)\1", r"(?=a)a", r"(?P<w>a)(?P=w)", r"a++", r"(?>a)"])
def test_patterns_re2_cannot_run_are_refused_at_load(pattern, tmp_path):
    with pytest.raises(PackError, match=r"house\.yaml: rule 'house-pattern': pattern .* is not a regular "
                                        r"expression RE2 can run \(.+\); .* no backreferences or lookarounds"):
        read_pack(_pattern_pack(tmp_path, pattern))


def test_re2_pattern_rules_keep_their_meaning(tmp_path):
    from qlint.model import Question

    rule = read_pack(_pattern_pack(tmp_path, r"\bcolou?r\b", r"^\s*(?:\(?[a-d]\)\s*)?none\b"))[0]
    fired = lambda stem, *opts: [v.field for v in rule.check(Question(id="x", stem=stem, options=[
        {"text": t} for t in (opts or ("one", "two"))]), rule.options())]
    assert fired("Which COLOR is it?") == ["stem"]           # ignorecase
    assert fired("Which colours are there?") == []           # word boundary after the match
    assert fired("Which multicolor one?") == []              # word boundary before it
    assert fired("Which is it?", "(b) None", "none") == ["options[0].text", "options[1].text"]
    assert fired("Which is it?", "Nonetheless yes", "x none") == []
    exact = read_pack(_pattern_pack(tmp_path, r"\bColor\b", ignorecase=False))[0]
    assert [v.message for v in exact.check(Question(id="x", stem="Color or color?", options=[
        {"text": "a"}, {"text": "b"}]), exact.options())] == ["found Color"]


HOUSE_PACK = """\
name: house-none
code: H901
extends: pattern
summary: s
why: w
use-instead: u
message: 'found {match}'
scope: [options]
failing: ['x']
patterns:
"""   # a bank's own pattern pack, up to its patterns


def test_a_pattern_can_be_excused_by_the_other_options(tmp_path):
    """``{pattern, unless-others}``: a bare "None" among combinations of listed statements is that set's own answer
    (on RE2 here, as a bank's own pack runs)."""
    from qlint.model import Question

    path = tmp_path / "house.yaml"
    path.write_text(HOUSE_PACK + """\
  - '^\\s*none of the above\\b'
  - pattern: '^\\s*none\\s*$'
    unless-others: ['^\\s*[ivx]+(?:\\s+and\\s+[ivx]+)*\\s+only\\s*$']
""", encoding="utf-8")
    rule = read_pack(path)[0]
    fired = lambda *opts: [v.field for v in rule.check(Question(id="x", stem="Which are true?", options=[
        {"text": t} for t in opts]), rule.options())]
    assert fired("None", "II only", "I and II only", "I, II and III") == []
    assert fired("None", "II only", "a square", "a circle") == ["options[0].text"]   # one combination is no set
    assert fired("None of the above", "II only", "I and II only") == ["options[0].text"]   # only its own pattern
    bad = path.read_text(encoding="utf-8").replace("unless-others: [", "unless-other: [")
    path.write_text(bad, encoding="utf-8")
    with pytest.raises(PackError):
        read_pack(path)


def test_a_pattern_can_be_excused_by_the_stem(tmp_path):
    """``{pattern, unless-stem}``: a bare "None" answering "how many" is zero (on RE2 here, as a bank's own pack
    runs); a table with no excuse at all is refused."""
    from qlint.model import Question

    path = tmp_path / "house.yaml"
    head = HOUSE_PACK + "  - pattern: '^\\s*none\\s*$'\n"
    path.write_text(head + "    unless-stem: ['\\bhow\\s+many\\b']\n", encoding="utf-8")
    rule = read_pack(path)[0]
    fired = lambda stem, *opts: [v.field for v in rule.check(Question(id="x", stem=stem, options=[
        {"text": t} for t in opts]), rule.options())]
    assert fired("How many moons does Mars have?", "1", "2", "None") == []
    assert fired("What is 7 times 8?", "54", "56", "None") == ["options[2].text"]
    path.write_text(head, encoding="utf-8")
    with pytest.raises(PackError, match="unless-others or unless-stem"):
        read_pack(path)


def test_shipped_packs_keep_their_lookaheads(tmp_path):
    # qlint's own packs are reviewed code, run on Python's re (lookaheads, possessive spaces); the same file in a
    # bank's folder is refused
    shipped = next((ROOT / "packs").glob("*.yaml"))
    assert read_pack(shipped)
    copy = tmp_path / shipped.name
    copy.write_bytes(shipped.read_bytes())
    with pytest.raises(PackError, match="lookahead|perl operator|repetition operator"):
        read_pack(copy)


def test_patterns_too_large_together_are_refused(tmp_path, monkeypatch):
    import re2

    real = re2.compile

    def bounded(pattern, options=None):   # as if the alternation of all of them passed RE2's memory bound
        if "|" in pattern:
            raise re2.error(b"pattern too large - compile failed")
        return real(pattern, options)

    monkeypatch.setattr("qlint.packs.re2.compile", bounded)
    with pytest.raises(PackError, match="house.yaml: rule 'house-pattern': its 2 patterns together are too large"):
        read_pack(_pattern_pack(tmp_path, "a", "b"))


def test_a_pack_example_states_its_field_and_message_and_qlint_testing_checks_them(tmp_path):
    from qlint.rule import Invalid
    from qlint.testing import assert_rule

    question = ("id: q\nstem: Which pytorch call frees cached memory?\noptions:\n"
                "  - {text: torch.cuda.empty_cache(), correct: true, rationale: Correct.}\n"
                "  - {text: gc.collect(), rationale: Incorrect.}\n")
    pack = readme_pack().split("failing:\n")[0] + "failing:\n  - text: |\n" + \
        "".join(f"      {line}\n" for line in question.splitlines()) + \
        "    field: stem\n    message: 'use \"PyTorch\"'\n"
    (tmp_path / "pack.yaml").write_text(pack, encoding="utf-8")
    (rule,) = read_pack(tmp_path / "pack.yaml")
    assert rule.invalid == (Invalid(question, field="stem", message='use "PyTorch"'),)
    assert_rule(rule)
    (tmp_path / "pack.yaml").write_text(pack.replace("field: stem", "field: options[0].text"), encoding="utf-8")
    with pytest.raises(AssertionError, match="names field 'stem', the example states 'options\\[0\\].text'"):
        assert_rule(read_pack(tmp_path / "pack.yaml")[0])


@given(st.lists(st.sampled_from(["!", "n/a", "none", "?!", "i don't know", "-", "x-ray", "N A", "é"]), min_size=1,
                max_size=3),
       st.text(alphabet="!?-/ anoxé'.\n", max_size=30))
def test_a_whole_option_token_is_found_as_the_full_pattern_finds_it(tokens, text):
    from qlint.packs import PackRule, _compile

    spec = PackRule.model_validate({"name": "house-whole", "code": "H901", "extends": "existence", "summary": "s",
                                    "why": "w", "use-instead": "u", "message": "m", "tokens": tokens,
                                    "whole-option": True, "scope": ["options"], "failing": ["x"]})
    found, _, _, _, whole, _ = _compile(spec)
    assert (whole.match(found, text) is not None) == (found.match(text) is not None)
    assert (whole.match(found, text * 7) is not None) == (found.match(text * 7) is not None)


def test_a_whole_option_token_of_punctuation_in_a_long_run_is_read_at_once(tmp_path):
    from helpers import within

    from qlint.model import Question

    path = tmp_path / "house.yaml"
    path.write_text("name: house-bang\ncode: H902\nextends: existence\nsummary: s\nwhy: w\nuse-instead: u\n"
                    "message: 'found {match}'\nwhole-option: true\ntokens: ['!', 'n/a']\nscope: [options]\n"
                    "failing: ['x']\n", encoding="utf-8")
    (rule,) = read_pack(path)
    for text in ("!" * 200_000 + "x", " " * 200_000 + "n/a" + "!" * 200_000, "!" * 200_000):
        question = Question(id="q", stem="Which?", options=({"text": text, "correct": True}, {"text": "b"}))
        with within(20):   # the full pattern took minutes on each
            found = list(rule.check(question, rule.options()))
        assert bool(found) == (not text.endswith("x"))
