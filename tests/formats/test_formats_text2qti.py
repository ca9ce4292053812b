"""QTI packages made by text2qti (the Canvas quiz tool): qlint reads back the stems, options, keys and feedback
of a quiz text2qti built from its Markdown-like source."""
from __future__ import annotations

import pytest

from qlint.formats import read
from qlint.formats.base import ReadLimits

text2qti_quiz = pytest.importorskip("text2qti.quiz")
text2qti_qti = pytest.importorskip("text2qti.qti")
text2qti_config = pytest.importorskip("text2qti.config")

SOURCE = """\
Quiz title: Networking basics
Quiz description: A short quiz.

1.  Which port does HTTP use by default?
... Web servers listen on a well-known port.
*a) 80
... Right: 80 is the registered HTTP port.
b) 443
... No: 443 is HTTPS.
c) 21

2.  Which of these are transport-layer protocols?
[*] TCP
[ ] IP
[*] UDP

3.  Explain what a subnet mask does.
____
"""


def _build(tmp_path):
    config = text2qti_config.Config()
    source = tmp_path / "quiz.md"
    source.write_text(SOURCE, encoding="utf-8")
    try:
        quiz = text2qti_quiz.Quiz(SOURCE, config=config, source_name=source.as_posix())
        target = tmp_path / "quiz.zip"
        text2qti_qti.QTI(quiz).save(target)
    except Exception as exc:  # text2qti's own trouble (a version that wants more config) is not qlint's
        pytest.skip(f"text2qti could not build the quiz: {exc}")
    return target


def test_text2qti_package_reads_back(tmp_path):
    package = _build(tmp_path)
    result = read(package.read_bytes(), "quiz.zip", ReadLimits())
    found = {q.question.stem: q.question for q in result.questions}
    assert set(found) == {"Which port does HTTP use by default?", "Which of these are transport-layer protocols?"}
    http = found["Which port does HTTP use by default?"]
    assert [(o.text, o.correct, o.rationale) for o in http.options] == [
        ("80", True, "Right: 80 is the registered HTTP port."), ("443", False, "No: 443 is HTTPS."), ("21", False, None)]
    assert http.explanation == "Web servers listen on a well-known port."
    transport = found["Which of these are transport-layer protocols?"]
    assert [(o.text, o.correct) for o in transport.options] == [("TCP", True), ("IP", False), ("UDP", True)]
    assert transport.select == 2
    (essay,) = [f for f in result.findings if f.rule == "unsupported-question"]
    assert "1 essay" in essay.message
    assert all(q.path.startswith("quiz.zip!") and q.line > 1 for q in result.questions)
