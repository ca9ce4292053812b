"""rationale-in-option: an option's text carries commentary that belongs in its rationale."""
import re
from collections.abc import Iterator

from pydantic import Field

from qlint.finding import Severity
from qlint.model import Question
from qlint.rule import QuestionRule, RuleOptions, Violation
from qlint.rules._cues_a import data
from qlint.text import CODE_SPAN

_DATA = data("rationale-in-option")
_URL = re.compile(r"\bhttps?://\S+|\bwww\.\S+\.\w{2,}", re.I)
_TAIL = re.compile(r"(?:^|[\s.;,(\[-])(?:" + "|".join(_DATA["labels"]) + r")\s*:\s*\S", re.I)
# a verdict that fills its bracket, or opens a reason: "(correct)", "(wrong - ...)", not "(right atrium)"
_BRACKET = re.compile(r"[(\[]\s*(?:this\s+is\s+(?:the\s+)?)?(?:" + "|".join(_DATA["verdicts"]) + r")"
                      r"(?:\s*[)\]]|\s*[,:;.–—-][^)\]]{0,200}[)\]]|\s+(?:because|since|as)\b[^)\]]{0,200}[)\]])", re.I)
_DASH = re.compile(r"\s[-–—]+\s*(?:correct|incorrect|wrong|right answer|the correct answer)\s*[.!]?\s*$", re.I)
_COMMENT = re.compile(r"^\s*(?:" + "|".join(_DATA["comment_sentences"]) + ")", re.I)
_SENTENCES = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")
_ASIDE = re.compile(r"\s[-–—]+\s*|\s*[–—]\s*|\s*[(\[]\s*")  # "Stare decisis - this is a common misconception"


class Options(RuleOptions):
    flag_urls: bool = Field(default=True, description="report links in option text")


def _problem(text: str, options: Options) -> str | None:
    # each pattern needs a character or word that most options lack: test for it first (it is much cheaper)
    if "`" in text:
        text = CODE_SPAN.sub(" ", text).strip()   # code is quoted material
    lower = text.lower()
    if options.flag_urls and ("http" in lower or "www." in lower):
        url = _URL.search(text)
        if url and text.strip(" .,;:\"'<>()") != url.group(0).strip(".,;:\"'<>()"):
            return "contains a link; move sources into the rationale"
    if ":" in text and _TAIL.search(text):
        return "contains a labelled explanation; move it into the rationale"
    bracket = "(" in text or "[" in text
    dash = "-" in text or "–" in text or "—" in text
    if (bracket and _BRACKET.search(text)) or (dash and _DASH.search(text)):
        return "states its own verdict (e.g. \"(correct)\"); move it into the rationale"
    if not text.startswith(("\"", "“", "'")):
        if ("." in text or "!" in text or "?" in text) and any(_COMMENT.match(s) for s in _SENTENCES.split(text)[1:]):
            return "comments on itself in a later sentence; move the commentary into the rationale"
        if (bracket or dash) and any(_COMMENT.match(s) for s in _ASIDE.split(text)[1:]):
            return "comments on itself in an aside; move the commentary into the rationale"
    return None


def check(question: Question, options: Options) -> Iterator[Violation]:
    for i, option in enumerate(question.options):
        if problem := _problem(option.text.strip(), options):
            yield Violation(f"options[{i}].text", f"option {i + 1} {problem}")


RULE = QuestionRule(
    code="Q206",
    name="rationale-in-option",
    severity=Severity.WARNING,
    summary="An option's text contains explanation or commentary (\"Explanation:\", \"(correct)\", a link, "
            "\"This is a common misconception\").",
    why=("Commentary inside an option is shown to the examinee: it can reveal the key (\"correct because ...\"), "
         "marks a distractor as a trap, and lengthens the option (a length cue). Why an option is right or wrong "
         "belongs in its rationale, which is shown only after answering."),
    use_instead="Keep the option to the answer itself; move the explanation, source or link into its `rationale`.",
    options=Options,
    check=check,
    notes=("Reported: a URL next to other text (an option that is only a URL, or one in `code`, is an answer); "
           "a labelled tail (\"Explanation:\", \"Source:\" ...); a bracketed or dashed verdict (\"(correct)\", "
           "\"- wrong\"); and a second or later sentence that comments on the "
           "option (\"This is a common misconception\", \"Many students choose ...\", \"See chapter 3\"). The first "
           "sentence is never judged and quoted utterances are skipped, so two-sentence answers pass. No human "
           "labels exist; on the BenchMarker dev split the only finding is a URL inside an option. Phrase lists: "
           "src/qlint/rules/data/rationale-in-option.yaml."),
    passing=("""\
id: rio-two-sentences
stem: Which statement about the 1929 crash is accurate?
options:
  - {text: Stock prices fell sharply in October. Many banks later failed., correct: true, rationale: Correct. Both happened.}
  - {text: The crash happened in 1939., rationale: Incorrect. It was 1929.}
  - {text: Prices rose through 1930., rationale: Incorrect. They kept falling.}
""", """\
id: rio-quoted
stem: Which reply to the anxious patient is most appropriate?
options:
  - {text: '"Tell me more about the pain."', correct: true, rationale: Correct. An open question invites detail.}
  - {text: '"This is a common worry. Many patients feel it."', rationale: Incorrect. It dismisses the concern.}
  - {text: '"You should rest."', rationale: Incorrect. Advice comes before assessment.}
""", """\
id: rio-bracket-not-verdict
stem: Which chamber receives blood from the lungs?
options:
  - {text: the left atrium, correct: true, rationale: Correct. The pulmonary veins empty into it.}
  - {text: the chamber on the right (right atrium), rationale: Incorrect. It receives blood from the body.}
  - {text: 'the address `https://example.org` of the lab', rationale: Incorrect. A URL in code is not commentary.}
""", """\
id: rio-exact
stem: Which value of k makes 2k = 6 true?
options:
  - {text: k = 3 (exact), correct: true, rationale: Correct. 6 / 2 = 3.}
  - {text: k = 4, rationale: Incorrect. 2 x 4 = 8.}
  - {text: k = 12, rationale: Incorrect. That multiplies instead of dividing.}
"""),
    failing=("""\
id: rio-verdict
stem: What is the SI unit of force?
options:
  - {text: newton (correct), correct: true, rationale: Correct. 1 N = 1 kg m/s^2.}
  - {text: joule, rationale: Incorrect. It is the unit of energy.}
  - {text: watt, rationale: Incorrect. It is the unit of power.}
""", """\
id: rio-comment
stem: Which organ produces insulin?
options:
  - {text: the pancreas, correct: true, rationale: Correct. Beta cells in the islets make it.}
  - {text: the liver. This is a common misconception because the liver stores glycogen., rationale: Incorrect. The liver responds to insulin.}
  - {text: the kidney, rationale: Incorrect. It filters blood.}
""", """\
id: rio-link
stem: Which planet has the most known moons?
options:
  - {text: Saturn. See https://example.org/moons for the count., correct: true, rationale: Correct. Saturn passed Jupiter in 2023.}
  - {text: Mars, rationale: Incorrect. It has two.}
  - {text: Venus, rationale: Incorrect. It has none.}
"""),
)
