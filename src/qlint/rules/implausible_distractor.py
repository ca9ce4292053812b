"""implausible-distractor: a distractor that can be dismissed without knowledge (a duplicate, another type)."""
import re
from collections.abc import Iterator

from pydantic import Field

from qlint.finding import Severity
from qlint.language.grammar import form
from qlint.language.phrases import is_meta
from qlint.model import Question
from qlint.rule import Invalid, QuestionRule, RuleOptions, Violation


class Options(RuleOptions):
    check_duplicates: bool = Field(default=True, description="a distractor with the same words as another option")
    check_type: bool = Field(default=True, description="a short distractor of a different phrase form than the key")


def check(question: Question, options: Options) -> Iterator[Violation]:
    opts = question.options
    seen: dict[str, int] = {}
    for i, option in enumerate(opts):
        key = " ".join(re.findall(r"\w+", option.text.lower()))
        if options.check_duplicates and key and key in seen:
            yield Violation(f"options[{i}].text",
                            f"option {i + 1} repeats option {seen[key] + 1}; it cannot attract anyone")
            return
        seen.setdefault(key, i)
    if not options.check_type or len(question.keys) != 1 or len(opts) < 4:
        return
    forms = {i: form(o.text) for i, o in enumerate(opts) if not is_meta(o.text)}
    key_form = forms.get(question.keys[0])
    if key_form in (None, "num", "sentence"):
        return
    same = [i for i, f in forms.items() if f == key_form]
    odd = [i for i, f in forms.items() if f not in (key_form, None)]
    if odd and len(same) >= 2 and len(odd) <= len(same) and all(len(opts[i].text.split()) <= 4 for i in forms):
        yield Violation(f"options[{odd[0]}].text", f"option {odd[0] + 1} is a {forms[odd[0]]} phrase where the key "
                                                   f"is a {key_form} phrase; it is not the kind of answer asked for")


RULE = QuestionRule(
    code="Q306",
    name="implausible-distractor",
    severity=Severity.INFO,
    enabled=False,
    summary="A distractor repeats another option or is a different kind of thing than the key.",
    why=("Distractors that no candidate would choose only reduce the number of working options (Haladyna, Downing & "
         "Rodriguez 2002: make all distractors plausible; Tarrant et al. 2006)."),
    use_instead="Replace the distractor with a plausible error of the same kind as the key.",
    options=Options,
    check=check,
    notes=("Off by default: plausibility is about content, which a lexical check barely sees (precision below 0.5 on "
           "the BenchMarker dev labels). Exact duplicates are also duplicate-option's job. "),
    passing=("""\
id: id-ok
stem: Which precision format keeps the exponent range of fp32?
options:
  - {text: bfloat16, correct: true, rationale: Correct. It has 8 exponent bits.}
  - {text: fp16, rationale: Incorrect. It has 5 exponent bits.}
  - {text: fp8 e4m3, rationale: Incorrect. It has 4 exponent bits.}
  - {text: int8, rationale: Incorrect. It is an integer format.}
""",),
    failing=(Invalid("""\
id: id-bad
stem: Which precision format keeps the exponent range of fp32?
options:
  - {text: bfloat16, correct: true, rationale: Correct. It has 8 exponent bits.}
  - {text: fp16, rationale: Incorrect. It has 5 exponent bits.}
  - {text: FP16, rationale: Incorrect. It has 5 exponent bits.}
  - {text: int8, rationale: Incorrect. It is an integer format.}
""", field="options[2].text", message="option 3 repeats option 2"),),
)
