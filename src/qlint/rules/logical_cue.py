"""logical-cue: distractors that contradict the stem's frame (time) or are not the kind of answer the key is."""
import re
from collections.abc import Iterator

from pydantic import Field

from qlint.finding import Severity
from qlint.language.grammar import form
from qlint.language.phrases import is_meta
from qlint.language.words import WORD
from qlint.model import Question
from qlint.rule import Invalid, QuestionRule, RuleOptions, Violation

TIME_CLASH = (("next", re.compile(r"\b(?:before this|beforehand|earlier)\b", re.I)),
              ("before", re.compile(r"\b(?:afterwards|after this|next)\b", re.I)))


class Options(RuleOptions):
    check_form: bool = Field(default=True, description="two or more short options of another form than the key")


def check(question: Question, options: Options) -> Iterator[Violation]:
    stem = question.stem.lower()
    for cue, clash in TIME_CLASH:
        if re.search(rf"\b{cue}\b", stem):
            for i, option in enumerate(question.options):
                if clash.search(option.text):
                    yield Violation(f"options[{i}].text", f"option {i + 1}'s time frame contradicts the stem (\"{cue}\")")
                    return
    opts = question.options
    if not options.check_form or len(question.keys) != 1 or len(opts) < 4:
        return
    forms = {i: form(o.text) for i, o in enumerate(opts) if not is_meta(o.text)}
    key_form = forms.get(question.keys[0])
    if key_form in (None, "num", "sentence"):
        return
    odd = [i for i, f in forms.items() if f not in (key_form, None, "sentence")]
    if len(odd) >= 2 and all(len(WORD.findall(opts[i].text)) <= 4 for i in forms):
        yield Violation(f"options[{odd[0]}].text", f"options {', '.join(str(i + 1) for i in odd)} are not the kind "
                                                   "of answer the key is; logic alone rules them out")


RULE = QuestionRule(
    code="Q205",
    name="logical-cue",
    severity=Severity.INFO,
    enabled=False,
    summary="Distractors contradict the stem's frame (e.g. 'before this' for 'what next?') or are of another kind.",
    why=("If options can be excluded by their type or by a contradiction with the stem's frame, candidates answer "
         "by logic, not by knowledge (Haladyna, Downing & Rodriguez 2002; the NBME guide's 'logical cues')."),
    use_instead="Make every option the same kind of thing the stem asks for, in the stem's time frame.",
    options=Options,
    check=check,
    notes="Off by default: very low recall and precision about 0.5 on the BenchMarker dev labels. ",
    passing=("""\
id: lc-ok
stem: A run hit an out-of-memory error at step 1200. What should the engineer do next?
options:
  - {text: take a memory snapshot around step 1200, correct: true, rationale: Correct. It shows what grew.}
  - {text: double the batch size, rationale: Incorrect. That raises memory further.}
  - {text: disable the profiler, rationale: Incorrect. The profiler did not cause the error.}
""",),
    failing=(Invalid("""\
id: lc-bad
stem: A run hit an out-of-memory error at step 1200. What should the engineer do next?
options:
  - {text: take a memory snapshot around step 1200, correct: true, rationale: Correct. It shows what grew.}
  - {text: have lowered the batch size before this, rationale: Incorrect. The run has already failed.}
  - {text: disable the profiler, rationale: Incorrect. The profiler did not cause the error.}
""", field="options[1].text", message="option 2's time frame contradicts the stem (\"next\")"),),
)
