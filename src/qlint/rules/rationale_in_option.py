"""rationale-in-option: an option's text carries commentary that belongs in its rationale."""
import re
from collections.abc import Iterator

from pydantic import Field

from qlint.finding import Severity
from qlint.language.wordlists import word_lists
from qlint.language.words import CODE_SPAN
from qlint.model import Question
from qlint.rule import Invalid, QuestionRule, RuleOptions, Violation

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
_DASH = re.compile(r"\s[-–—]++\s*+(?:correct|incorrect|wrong|right answer|the correct answer)\s*+[.!]?\s*$"
                   r"|\s[-–—]++\s*+(?:" + "|".join(_DATA["dash_verdicts"]) + r")\s*(?:[:;,(]|\s(?:because|since|as|it|this)\b)",
                   re.I)
_WHICH = re.compile(_DATA["which_verdict"], re.I)
# commentary opens a later sentence, or a clause after a break: "...; this sounds plausible", "... - a common trap",
# "..., but it would be dangerous if true", "Stare decisis (this is a common misconception)"; one search with the
# break as its prefix, each branch opening with a definite character, so most positions fail at once
# a sentence ends at a stop that follows no title or initial ("Mr. Wrong" is a name, not a verdict); the stop is
# read first and what precedes it is checked after it (each look-behind spans the stop), so that a search skips
# every position that holds no stop without testing a look-behind there
_STOP = r"[.!?](?<!\bMr.)(?<!\bMrs.)(?<!\bMs.)(?<!\bDr.)(?<!\bSt.)(?<!\bvs.)(?<!\bNo.)(?<!\b[A-Z].)"
# each run of dashes and spaces is taken whole (possessive): a long run given back a character at a time to the
# patterns after it cost the square of its length at every start (a minute for 10,000 spaces after a semicolon)
_BREAK = (r"(?:" + _STOP + r"\s++(?-i:(?=[A-Z(]))|\s[-–—]++\s*+|[–—]\s*+|[(\[]\s*+|;\s++"
          r"|,\s++(?=but\b|however\b))")
# a character that opens or ends a break (one set: a search tests each character once)
_BREAK_CHAR = re.compile(r"[.!?;\-–—(\[]")
_COMMENT = re.compile(_BREAK + r"\s*(?:" + "|".join(_DATA["comment_sentences"]) + ")", re.I)


# where a later sentence or clause begins: a sentence end (not after a title or an initial: "Mr. Wrong" is a name),
# a semicolon, a dash, a bracket, or ", but" and kin
_LATER = re.compile(_STOP + r"\s+(?=[A-Z(\"'])|;\s+|\s[-–—]+\s|\(|,\s+(?=(?:but|however|yet|although|though|while|whereas)\b)")
_TOKENS = re.compile(r"[a-z]+(?:['’][a-z]+)?|[a-z]+-[a-z]+")
_WORDS = {name: frozenset(_DATA[name]) for name in ("concessions", "negations", "fitness", "unfit", "context",
                                                    "appeal", "audience", "anaphors")}
_GRANTED = re.compile(r"\b(?:is|are|was|were)\s+(?:a\s+|an\s+)?(?:very\s+)?(?:" + "|".join(_DATA["grants"])
                      + r")\b|\b(?:does|do)\s+(?:indeed\s+)?exist\b|\bexists\b", re.I)
_CHOSEN = re.compile(r"\b(?:" + "|".join(_DATA["audience"]) + r")\b[^.;!?]{0,40}?\b(?:"
                     + "|".join(w.replace(" ", r"\s+") for w in _DATA["cognition"])
                     + r")\s+(?:it|this|them|these|this\s+(?:one|option|answer|choice)|that\s+(?:one|option))\b", re.I)
_CAUSES = frozenset(("because", "since", "so", "why", "as"))
_LIKENESS = re.compile(r"\b(?:looks?|sounds?|seems?)\s+like\s+(?:the|a|an)\s+(?:right\s+|correct\s+|obvious\s+)?"
                       r"(?:answer|fit|solution|match|choice)\b", re.I)


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


def _writer_speaks(segment: str, before: str) -> bool:
    """Whether a later sentence or clause (``segment``, after ``before``) speaks of the option to the candidate: it
    denies that the option fits the question ("It does not address this requirement", "It is unsuitable here"),
    grants that what it names is real and then denies the fit ("... a real service, but they do not keep records in
    this scenario"), or explains its pull on candidates ("... so it draws candidates in", "Many candidates confuse
    it with a firewall", "It seems like the obvious fit")."""
    words = _TOKENS.findall(segment.lower())
    if not words:
        return False
    have = set(words)
    denied = bool(have & _WORDS["negations"]) or any(w.endswith(("n't", "n’t")) for w in words)
    about_option, about_question = have & _WORDS["anaphors"], have & _WORDS["context"]
    if about_question and (denied and have & _WORDS["fitness"] or have & _WORDS["unfit"]):
        return True
    if have & _WORDS["concessions"] and denied and about_option and (about_question or _GRANTED.search(before)):
        return True
    if have & _WORDS["audience"] and have & _WORDS["appeal"] or _CHOSEN.search(segment):
        return True
    return bool(_LIKENESS.search(segment)) and bool(have & (_CAUSES | _WORDS["audience"]))


def _voice(text: str) -> tuple[int, int] | None:
    """Where the first later sentence or clause in the writer's voice is (the first sentence is the answer)."""
    breaks = list(_LATER.finditer(text))
    for k, found in enumerate(breaks):
        end = breaks[k + 1].start() if k + 1 < len(breaks) else len(text)
        start = breaks[k - 1].end() if k else 0
        if _writer_speaks(text[found.end():end], text[start:found.start()]):
            return found.end(), end
    return None


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
    if text.startswith(("\"", "“", "'")):
        return None   # a quoted utterance: its sentences are the answer, none of them comments on it
    # a later sentence or clause that comments on the option (its appeal, its verdict, who picks it) follows a
    # break, which most options lack: both searches are skipped for them
    breaks = _BREAK_CHAR.search(text) is not None
    if (breaks or ", but" in text or ", however" in text) and (comment := _COMMENT.search(text)):
        return "comments on itself (why it is tempting or wrong); move the commentary into the rationale", comment
    if breaks and (where := _voice(text)):
        return ("comments on itself (why it is tempting, or that it does not fit the question); move the commentary "
                "into the rationale", _Span(text, *where))
    return None


class _Span:
    """A found place in an option's text, shaped as the match ``_span`` reads."""

    def __init__(self, string: str, start: int, end: int) -> None:
        self.string, self._start, self._end = string, start, end

    def group(self, _: int = 0) -> str:
        return self.string[self._start:self._end]

    def start(self) -> int:
        return self._start

    def end(self) -> int:
        return self._end


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
           "follow if it were true (\"This would be dangerous if true\"), or a pointer (\"See chapter 3\"). "
           "Beyond those phrases, the class of commentary in the writer's voice is caught by what a later sentence "
           "or clause does: it denies that the option fits the question (\"It does not address this "
           "requirement\", \"irrelevant here\"), grants that what the option names is real and then denies the "
           "fit (\"Delivery streams are a real service, but they do not keep records in this scenario\"), or "
           "explains the option's pull on candidates (\"... so it draws candidates in\", \"Many learners assume "
           "it ...\", \"It seems like the obvious fit\"). A concession or denial about the subject of the answer "
           "(\"Both acquire the lock, but one blocks when the mutex is not free\") is content. The first "
           "sentence is never judged, quoted utterances are skipped, and a stop after a title or an initial ends "
           "no sentence (\"Mr. Wrong\" is a name), so two-sentence answers pass. No human labels exist. Word "
           "lists: src/qlint/rules/data/rationale-in-option.yaml."),
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
""", """\
id: rio-title
stem: Which 1996 comedy starring Ellen DeGeneres was titled after a bad boyfriend?
options:
  - {text: Mr. Wrong, correct: true, rationale: Correct. She plays a woman who dates the wrong man.}
  - {text: Mr. Right, rationale: Incorrect. That is a 2015 film.}
  - {text: Dr. No, rationale: Incorrect. That is a Bond film.}
""", """\
id: rio-content-with-a-limit
stem: Which service runs a short image-resizing job each time a file is uploaded, without managing servers?
options:
  - {text: 'A function service. It runs code on each upload, but a run must finish within 15 minutes.', correct: true, rationale: Correct. Resizing takes seconds.}
  - {text: A virtual machine. It does not scale to zero when idle., rationale: Incorrect. It bills while idle.}
  - {text: A data warehouse. It stores tables for analysis., rationale: Incorrect. It runs queries and no jobs.}
"""),
    failing=(Invalid("""\
id: rio-verdict
stem: What is the SI unit of force?
options:
  - {text: newton (correct), correct: true, rationale: Correct. 1 N = 1 kg m/s^2.}
  - {text: joule, rationale: Incorrect. It is the unit of energy.}
  - {text: watt, rationale: Incorrect. It is the unit of power.}
""", field="options[0].text", message='option 1 states its own verdict (e.g. "(correct)")'), Invalid("""\
id: rio-comment
stem: Which organ produces insulin?
options:
  - {text: the pancreas, correct: true, rationale: Correct. Beta cells in the islets make it.}
  - {text: the liver. This is a common misconception because the liver stores glycogen., rationale: Incorrect. The liver responds to insulin.}
  - {text: the kidney, rationale: Incorrect. It filters blood.}
""", field="options[1].text", message="option 2 comments on itself (why it is tempting or wrong)"), Invalid("""\
id: rio-link
stem: Which planet has the most known moons?
options:
  - {text: Saturn. See https://example.org/moons for the count., correct: true, rationale: Correct. Saturn passed Jupiter in 2023.}
  - {text: Mars, rationale: Incorrect. It has two.}
  - {text: Venus, rationale: Incorrect. It has none.}
""", field="options[0].text", message="option 1 contains a link"), Invalid("""\
id: rio-tempting
stem: Which service keeps a record of every API call in an account?
options:
  - {text: the audit log service, correct: true, rationale: Correct. It records each call.}
  - {text: the metrics service. This sounds plausible because it collects data from every resource., rationale: 'Incorrect. It keeps numbers, not calls.'}
  - {text: the object store, rationale: Incorrect. It only holds what is written to it.}
""", field="options[1].text", message="option 2 comments on itself (why it is tempting or wrong)"), Invalid("""\
id: rio-who-picks
stem: Which change stops a container from being killed for using too much memory?
options:
  - {text: raise its memory limit, correct: true, rationale: Correct. The kill is the limit being enforced.}
  - {text: add a second replica. Teams often pick this because more replicas feel safer., rationale: Incorrect. Each replica has the same limit.}
  - {text: lower its CPU request, rationale: Incorrect. CPU does not cause the kill.}
""", field="options[1].text", message="option 2 comments on itself (why it is tempting or wrong)"), Invalid("""\
id: rio-which-wrong
stem: Which record points a domain name at an IPv6 address?
options:
  - {text: AAAA, correct: true, rationale: Correct. It holds an IPv6 address.}
  - {text: 'MX, which is wrong because it names a mail server', rationale: Incorrect. MX is for mail.}
  - {text: 'CNAME -- incorrect: it points at another name', rationale: Incorrect. A CNAME is an alias.}
""",
        field=("options[1].text", "options[2].text"),
        message=(
            'option 2 judges itself (", which is wrong because ...")',
            'option 3 states its own verdict (e.g. "(correct)")',
        )), Invalid("""\
id: rio-if-true
stem: Which account should hold the organisation's billing settings?
options:
  - {text: the management account, correct: true, rationale: Correct. Billing is set there.}
  - {text: every member account. This would be dangerous if true., rationale: Incorrect. Billing is central.}
  - {text: a sandbox account, rationale: Incorrect. Sandboxes are for experiments.}
""", field="options[1].text", message="option 2 comments on itself (why it is tempting or wrong)"), Invalid("""\
id: rio-real-but-not-here
stem: Which service lets a team replay a day of click events into a new analytics job?
options:
  - {text: a stream with 24-hour retention, correct: true, rationale: Correct. Consumers can re-read the retained records.}
  - {text: 'a delivery stream. Delivery streams are a real service, but they do not keep records to replay in this scenario.', rationale: Incorrect. It only delivers.}
  - {text: a message queue, rationale: Incorrect. A read message is gone.}
""",
        field="options[1].text",
        message="option 2 comments on itself (why it is tempting, or that it does not fit the question)"), Invalid("""\
id: rio-why-it-attracts
stem: Which control protects a web application from SQL injection?
options:
  - {text: a web application firewall rule set, correct: true, rationale: Correct. It inspects request bodies.}
  - {text: 'a DDoS protection plan. Its name makes it look like the answer to any attack, so it draws candidates in.', rationale: Incorrect. It absorbs floods.}
  - {text: a private subnet, rationale: Incorrect. The application must stay reachable.}
""",
        field="options[1].text",
        message="option 2 comments on itself (why it is tempting, or that it does not fit the question)")),
)
