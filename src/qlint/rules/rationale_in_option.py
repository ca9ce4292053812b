"""rationale-in-option: an option's text carries commentary that belongs in its rationale."""
import re
from collections.abc import Iterator

from pydantic import Field

from qlint.finding import Severity
from qlint.language.wordlists import word_lists
from qlint.language.words import CODE_SPAN
from qlint.model import Question
from qlint.rule import QuestionRule, RuleOptions, Violation

_DATA = word_lists("rationale-in-option")
_URL = re.compile(r"\bhttps?://\S+|\bwww\.\S+\.\w{2,}", re.I)
# a link is a source (commentary) when it is a markdown link, follows a lead ("See", "Reference:"), stands in
# brackets of its own, or sits on a line or in a sentence of its own after the answer; a link the answer names
# ("server running at http://127.0.0.1:3000/", "the scope 'https://...'") is content, and so is an image
_MD_LINK = re.compile(r"(?<!!)\[(?!\s*(?:https?://|www\.))[^\]\n]{1,200}\]\(\s*(?:https?://|www\.)", re.I)
# a local address is something the answer runs or prints, never a source
_LOCAL = re.compile(r"\bhttps?://(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])\S*", re.I)
_IMAGE = re.compile(r"!\[[^\]\n]{0,200}\]\([^)\s]{1,2000}\)")
_LED_LINK = re.compile(r"\b(?:" + "|".join(_DATA["link_leads"]) + r")\s*:?\s*<?(?:https?://|www\.)", re.I)
_ALONE_LINK = re.compile(r"(?:[(\[]\s*<?(?:https?://|www\.)[^\s)\]]+\s*[)\]]|(?:\n|[.!?]\s)\s*<?(?:https?://|www\.)\S+"
                         r"\s*$)", re.I)
_TAIL = re.compile(r"(?:[.;!?(\[\n]|\s[-–—]+)\s*(?:" + "|".join(_DATA["labels"]) + r")\s*:\s*\S", re.I)
# "Key: value" fields: an option that opens with one and has two or more is a form ("Source: X. Target: Y.",
# "Metric source: X. Metric name: Y."), whose labels are content
_FIELD = re.compile(r"(?:^|[.;,\n]\s*)[A-Z][\w-]*(?: [\w-]+){0,3}\s*:\s+\S")
# a verdict that fills its bracket, or opens a reason: "(correct)", "(wrong - ...)", not "(right atrium)"
_BRACKET = re.compile(r"[(\[]\s*(?:this\s+is\s+(?:the\s+)?)?(?:" + "|".join(_DATA["verdicts"]) + r")"
                      r"(?:\s*[)\]]|\s*[,:;.–—-][^)\]]{0,200}[)\]]|\s+(?:because|since|as)\b[^)\]]{0,200}[)\]])", re.I)
# "(true)" alone is a value ("x==5 (true)", "1 (true)"); "(false: it ...)" gives a reason, so it is a verdict
_BRACKET_TF = re.compile(r"[(\[]\s*(?:true|false)(?:\s*[:;–—-]\s*[^)\]]{3,200}[)\]]|\s+(?:because|since)\b[^)\]]{0,200}"
                         r"[)\]])", re.I)
_DASH = re.compile(r"\s[-–—]+\s*(?:correct|incorrect|wrong|right answer|the correct answer)\s*[.!]?\s*$"
                   r"|\s[-–—]+\s*(?:" + "|".join(_DATA["dash_verdicts"]) + r")\s*(?:[:;,(]|\s(?:because|since|as|it|this)\b)",
                   re.I)
_WHICH = re.compile(_DATA["which_verdict"], re.I)
# commentary opens a later sentence, or a clause after a break: "...; this sounds plausible", "... - a common trap",
# "..., but it would be dangerous if true", "Stare decisis (this is a common misconception)"; one search with the
# break as its prefix, each branch opening with a definite character, so most positions fail at once
_BREAK = r"(?:[.!?]\s+(?-i:(?=[A-Z(]))|\s[-–—]+\s*|[–—]\s*|[(\[]\s*|;\s+|,\s+(?=but\b|however\b))"
_BREAK_CHARS = frozenset(".!?;-–—([")
_COMMENT = re.compile(_BREAK + r"\s*(?:" + "|".join(_DATA["comment_sentences"]) + ")", re.I)


class Options(RuleOptions):
    flag_urls: bool = Field(default=True, description="report links in option text that cite a source")


def _link(text: str) -> bool:
    """A link used as a source: markdown link, led by 'See'/'Reference:', bracketed alone, or trailing alone."""
    if "![" in text:
        text = _IMAGE.sub(" ", text)
    text = _LOCAL.sub(" ", text)
    if _URL.search(text) is None:
        return False
    return bool(_MD_LINK.search(text) or _LED_LINK.search(text) or _ALONE_LINK.search(text))


def _form(text: str) -> bool:
    """The option is a set of labelled fields: it opens with one and has at least two."""
    fields = [m.start() for m in _FIELD.finditer(text)]
    return len(fields) >= 2 and fields[0] == 0


def _comments(text: str) -> bool:
    """A later sentence or clause comments on the option itself (its appeal, its verdict, who picks it)."""
    if text.startswith(("\"", "“", "'")):
        return False   # a quoted utterance: its sentences are the answer
    if not _BREAK_CHARS.intersection(text) and ", but" not in text and ", however" not in text:
        return False   # most options have no break for commentary to follow: skip the search
    return _COMMENT.search(text) is not None


def _problem(text: str, options: Options) -> tuple[str, re.Match | None] | None:
    """What is wrong with an option's text, and the match that shows it (None when no one match does)."""
    # each pattern needs a character or word that most options lack: test for it first (it is much cheaper)
    if "`" in text:
        text = CODE_SPAN.sub(" ", text).strip()   # code is quoted material
    lower = text.lower()
    if options.flag_urls and ("http" in lower or "www." in lower) and _link(text):
        return "contains a link; move sources into the rationale", _URL.search(text)
    if ":" in text and (tail := _TAIL.search(text)) and not _form(text):
        return "contains a labelled explanation; move it into the rationale", tail
    bracket = "(" in text or "[" in text
    dash = "-" in text or "–" in text or "—" in text
    verdict = ((bracket and (_BRACKET.search(text) or _BRACKET_TF.search(text))) or (dash and _DASH.search(text)))
    if verdict:
        return "states its own verdict (e.g. \"(correct)\"); move it into the rationale", verdict
    if "which" in lower and (which := _WHICH.search(text)):
        return "judges itself (\", which is wrong because ...\"); move the commentary into the rationale", which
    if _comments(text):
        return ("comments on itself (why it is tempting or wrong); move the commentary into the rationale",
                _COMMENT.search(text))
    return None


def check(question: Question, options: Options) -> Iterator[Violation]:
    for i, option in enumerate(question.options):
        text = option.text.strip()
        if found := _problem(text, options):
            problem, match = found
            yield Violation(f"options[{i}].text", f"option {i + 1} {problem}", span=_span(option.text, text, match))


def _span(original: str, text: str, match: re.Match | None) -> tuple[int, int] | None:
    """The commentary's place in the option's text, without the break that leads into it; None when the text
    was changed before matching (code blanked out), so offsets into it are not offsets into the option."""
    if match is None or match.string is not text:
        return None
    found = match.group(0)
    lead = len(found) - len(found.lstrip(" \t\n.;,!?-–—"))
    shift = len(original) - len(original.lstrip())
    return shift + match.start() + lead, shift + match.end()


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
    notes=("Reported: a link used as a source (a markdown link, one led by 'See' or 'Reference:', one in brackets "
           "or on a line of its own; a link the answer names, such as 'server running at http://127.0.0.1:3000/', "
           "an image, or a link in `code` is content); a labelled tail after a sentence end, bracket or dash "
           "(\"Explanation:\", \"Source:\" ...; an option of 'Key: value' fields such as 'Metric name: ...' is a "
           "form, not a tail); a bracketed or dashed verdict (\"(correct)\", \"-- incorrect: it ...\"); a "
           "judging clause (\", which is wrong because ...\"); and a later sentence or clause that comments on the "
           "option itself: its appeal (\"This sounds plausible because ...\"), who picks it (\"Teams often pick "
           "this because ...\"), its verdict (\"Incorrect: ...\", \"This is a common misconception\"), what would "
           "follow if it were true (\"This would be dangerous if true\"), or a pointer (\"See chapter 3\"). The "
           "first sentence is never judged and quoted utterances are skipped, so two-sentence answers pass. No "
           "human labels exist. Phrase lists: src/qlint/rules/data/rationale-in-option.yaml."),
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
""", """\
id: rio-fields
stem: Which alert rule scales out the workers when the queue backs up?
options:
  - {text: 'Metric source: message queue. Metric name: Active messages. Statistic: Average.', correct: true, rationale: Correct. Active messages measure the backlog.}
  - {text: 'Metric source: message queue. Metric name: Dead-lettered messages. Statistic: Total.', rationale: 'Incorrect. Dead letters are failures, not backlog.'}
  - {text: 'Metric source: worker pool. Metric name: CPU time. Statistic: Minimum.', rationale: Incorrect. CPU lags the backlog.}
""", """\
id: rio-console
stem: What does the development server print once it is ready?
options:
  - {text: 'server running at http://127.0.0.1:3000/', correct: true, rationale: Correct. It listens on the loopback address.}
  - {text: 'listening on port 0', rationale: Incorrect. Port 0 asks the system for any port.}
  - {text: '![screenshot](https://example.org/ready.png)', rationale: 'Incorrect. An image is content, not a source.'}
""", """\
id: rio-sentences-about-subject
stem: Which storage class suits data read once a quarter?
options:
  - {text: An infrequent-access class. It is a popular choice for backups., correct: true, rationale: Correct. Retrieval is rare.}
  - {text: 'The standard class; it is billed for frequent reads.', rationale: Incorrect. It costs more for cold data.}
  - {text: 'x == 5 (true) and y == 2 (false), so the branch is skipped', rationale: Incorrect. A value in brackets is no verdict.}
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
""", """\
id: rio-tempting
stem: Which service keeps a record of every API call in an account?
options:
  - {text: the audit log service, correct: true, rationale: Correct. It records each call.}
  - {text: the metrics service. This sounds plausible because it collects data from every resource., rationale: 'Incorrect. It keeps numbers, not calls.'}
  - {text: the object store, rationale: Incorrect. It only holds what is written to it.}
""", """\
id: rio-who-picks
stem: Which change stops a container from being killed for using too much memory?
options:
  - {text: raise its memory limit, correct: true, rationale: Correct. The kill is the limit being enforced.}
  - {text: add a second replica. Teams often pick this because more replicas feel safer., rationale: Incorrect. Each replica has the same limit.}
  - {text: lower its CPU request, rationale: Incorrect. CPU does not cause the kill.}
""", """\
id: rio-which-wrong
stem: Which record points a domain name at an IPv6 address?
options:
  - {text: AAAA, correct: true, rationale: Correct. It holds an IPv6 address.}
  - {text: 'MX, which is wrong because it names a mail server', rationale: Incorrect. MX is for mail.}
  - {text: 'CNAME -- incorrect: it points at another name', rationale: Incorrect. A CNAME is an alias.}
""", """\
id: rio-if-true
stem: Which account should hold the organisation's billing settings?
options:
  - {text: the management account, correct: true, rationale: Correct. Billing is set there.}
  - {text: every member account. This would be dangerous if true., rationale: Incorrect. Billing is central.}
  - {text: a sandbox account, rationale: Incorrect. Sandboxes are for experiments.}
"""),
)
