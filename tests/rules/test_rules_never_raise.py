"""No rule may raise: every rule over the six real corpora, and over generated hostile questions.

A rule that raises becomes an internal-error (Q901) finding instead of a crash; these tests hold every rule to
never getting there. The corpus half runs only where the shared corpora sit beside the checkout (it skips
otherwise): every question of the five smaller corpora, and a fixed sample of 4,972 of OpenTriviaQA's 49,716
(every 10th line from the second, which keeps its "S-nin" option), so that each corpus is one case of well under
a minute.
"""
from __future__ import annotations

import gzip
import json
from collections import defaultdict
from pathlib import Path

import pytest
from helpers import SHARED
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from qlint.config import Config, Settings, resolve_rules
from qlint.engine import check_bank, check_file
from qlint.model import Question
from qlint.problems import INTERNAL_ERROR
from qlint.registry import load_registry
from qlint.sourcemap import LoadedQuestion, ParsedFile

CORPORA = SHARED / "corpora"
SAMPLED = {"opentriviaqa": (10, 1)}   # corpus -> keep the lines numbered (from 0) offset, offset + N, ...
REGISTRY = load_registry()
NAMES = [rule.name for rule in REGISTRY]
# option-order's quantity() raised KeyError('') on options such as "To become a S-nin" while it was being fixed
# elsewhere: expected to fail where those options are, until that fix lands (then XPASS, not a failure)
# rules with a known crash, expected to fail until fixed, and where: none now (option-order's KeyError('') on
# 'a S-nin' and 'a S. aureus' options is fixed; these cases pass)
KNOWN: dict[str, tuple[str, set[str]]] = {}


def _active():
    return resolve_rules(Config(Settings(), Path.cwd(), None), REGISTRY, select=["ALL"])


def _question(record: dict, qid: str) -> Question | None:
    """A corpus record as the loader would validate it; None for one the schema refuses (a schema finding)."""
    options = [{"text": o["text"], "correct": bool(o.get("correct")), "rationale": o.get("rationale")}
               for o in record.get("options", [])]
    try:
        return Question(id=qid, stem=record.get("stem", ""), options=options, select=max(1, record.get("select") or 1),
                        explanation=record.get("explanation"))
    except ValidationError:
        return None


def _loaded(questions: list[Question], path: str) -> ParsedFile:
    return ParsedFile(path, [LoadedQuestion(q, path, i + 1, 1, {}) for i, q in enumerate(questions)])


def _corpus(path: Path) -> list[Question]:
    name = path.name.split(".")[0]
    step, offset = SAMPLED.get(name, (1, 0))
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        records = [json.loads(line) for n, line in enumerate(handle) if n % step == offset]
    return [q for n, r in enumerate(records) if (q := _question(r, f"{name}-{n}")) is not None]


CORPUS_FILES = ["agieval-en.jsonl", "ditectrev-cloud-exams.jsonl", "frenchmedmcqa.jsonl", "javascript-questions.jsonl",
                "linkedin-skill-assessments.jsonl", "opentriviaqa.jsonl.gz"]


def lint(files, active):
    """Every rule over questions built here (no reader): the engine's per-file rules, then its bank rules."""
    outcomes = [check_file(f, active) for f in files]
    return [f for o in outcomes for f in o.findings] + check_bank([i for o in outcomes for i in o.items], active)


@pytest.fixture(scope="module")
def crashes_in():
    """Every rule over one corpus, once per corpus: its internal errors by the rule that raised, with where."""
    done: dict[str, dict[str, list[str]]] = {}

    def run(corpus: str) -> dict[str, list[str]]:
        path = CORPORA / corpus
        if not path.is_file():
            pytest.skip("the shared corpora are not beside this checkout")
        if corpus not in done:
            questions = _corpus(path)
            assert questions, corpus
            found: dict[str, list[str]] = defaultdict(list)
            # files of 100 questions, as to_bank.py writes them: each file has its own rule time budget
            files = [_loaded(questions[i:i + 100], f"{corpus}/part-{i // 100:04d}.yaml")
                     for i in range(0, len(questions), 100)]
            for finding in lint(files, _active()):
                assert finding.rule != "rule-timeout", finding.message   # every rule ran over every question
                if finding.code == INTERNAL_ERROR[0]:
                    found[finding.message.split()[1]].append(f"{finding.question}: {finding.message}")
            done[corpus] = found
        return done[corpus]
    return run


def _groups(where: str):
    """Every rule but the known failures as one case, and each known failure as a case of its own: an expected
    failure where its known trigger is."""
    yield pytest.param(where, frozenset(NAMES) - KNOWN.keys(), id=f"{where}-every-rule")
    for name, (reason, places) in KNOWN.items():
        marks = [pytest.mark.xfail(strict=False, reason=reason)] if where in places else []
        yield pytest.param(where, frozenset((name,)), id=f"{where}-{name}", marks=marks)


@pytest.mark.slow  # every real corpus, where ../shared has them
@pytest.mark.parametrize("corpus,names", [case for corpus in CORPUS_FILES for case in _groups(corpus)])
def test_no_rule_raises_on_the_real_corpora(corpus, names, crashes_in):
    crashes = [line for name, lines in sorted(crashes_in(corpus).items()) if name in names for line in lines]
    assert not crashes, "\n".join(crashes[:5])


def test_corpus_sample_is_what_the_docstring_says():
    path = CORPORA / "opentriviaqa.jsonl.gz"
    if not path.is_file():
        pytest.skip("the shared corpora are not beside this checkout")
    assert 4_900 <= len(_corpus(path)) <= 4_972   # 4,972 lines kept; a few fail the schema


# --- generated questions ------------------------------------------------------------------------------------------

ODD = st.sampled_from(["", " ", "\u200b", "\u00a0", "\ufeff", "\u0301", "e\u0301", "\U0001f600", "\u202e", "ß", "İ",
                       "ﬁ", "Σ", "ς", "\t", "\n", "\r\n", "\x0b", "\x85", "\u2028", "-", "'", '"', "(", ")", "[",
                       "]", "{", "}", "$", "%", "&", "*", "+", "/", "\\", "|", "_", "^", "~", "`", "#", "@", ".",
                       "..", "...", ",", ";", ":", "?", "!", "0", "1", "½", "²", "Ⅻ", "٣", "-1", "1e9", "3.14",
                       "1,000", "10^6", "NaN", "inf", "S-nin", "S.", "a", "A", "I", "II", "IV", "none", "all",
                       "of the above", "both", "neither", "not", "never", "always", "true", "false", "and", "or",
                       "km", "kg", "ms", "GB", "°C", "%", "mg/L", "µm", "m²", "h", "s", "day", "years",
                       "____", "___", "__", "blank", "Which", "which", "What", "NOT", "EXCEPT", "the", "an",
                       "A and B", "I and III only", "True, False", "See above.", "correct", "rationale"])
WORDS = st.lists(st.one_of(ODD, st.text(max_size=8)), max_size=12).map(" ".join)
NUMBER = st.builds(lambda n, unit: f"{n} {unit}".strip(),
                   st.one_of(st.integers(-10**12, 10**12), st.floats(allow_nan=True, allow_infinity=True)),
                   st.sampled_from(["", "km", "kg", "%", "ms", "°C", "MB", "GiB", "m/s", "x", "S"]))
TEXT = st.one_of(WORDS, NUMBER, st.text(max_size=40), WORDS.map(lambda w: (w + " ") * 40))
OPTION = st.fixed_dictionaries({"text": TEXT.filter(str.strip), "correct": st.booleans()},
                               optional={"rationale": st.one_of(st.none(), TEXT)})


@st.composite
def questions(draw) -> Question:
    many = draw(st.booleans())
    options = draw(st.lists(OPTION, min_size=2, max_size=60 if many else 6))
    return Question(id="gen", stem=draw(TEXT.filter(str.strip)), options=options,
                    select=draw(st.integers(1, 4)), explanation=draw(st.one_of(st.none(), TEXT)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(generated=st.lists(questions(), min_size=1, max_size=3))
@example(generated=[Question(id="units", stem="What does the S stand for?", options=[
    {"text": "To become a S-nin", "correct": True}, {"text": "La septicémie a S. aureus"}, {"text": "1 S"}])])
def _no_crash(generated, names):
    active = [a for a in _active() if a.rule.name in names]
    findings = lint([_loaded(generated, "gen.yaml")], active)
    assert not [f for f in findings if f.rule == "rule-timeout"]
    crashes = [f.message for f in findings if f.code == INTERNAL_ERROR[0]]
    assert not crashes, crashes


@pytest.mark.parametrize("where,names", list(_groups("generated")))
def test_no_rule_raises_on_generated_questions(where, names):
    _no_crash(names=names)
