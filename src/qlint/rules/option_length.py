"""option-length: the key is the longest option by a clear margin, so length alone points to it."""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from pydantic import Field

from qlint.finding import Severity
from qlint.language.phrases import is_meta
from qlint.language.words import is_code, is_numeric, is_title, plain, strip_code
from qlint.model import Question
from qlint.rule import Invalid, QuestionRule, RuleOptions, Violation


class Options(RuleOptions):
    key_ratio: float = Field(default=1.5, gt=1, le=1000, description=(
        "the key is reported when it has at least this many times the characters of the longest distractor ..."))
    key_word_ratio: float = Field(default=1.4, ge=1, le=1000, description=(
        "... and this many times the words of the wordiest one: longer in what it says, not only in its letters ..."))
    min_extra_words: int = Field(default=3, ge=0, le=10_000, description=(
        "... and at least this many more words than it ..."))
    min_extra_chars: int = Field(default=20, ge=0, le=1_000_000, description=(
        "... and this many more characters: a qualifier's worth, that a reader sees (with several keys, their "
        "average must have the extra words and characters)"))
    long_words: int = Field(default=12, ge=1, le=10_000, description=(
        "when every distractor has at least this many words (all the options are long sentences) ..."))
    long_spread: float = Field(default=2.0, ge=0, le=1000, description=(
        "... the key's lead over the longest distractor must be at least this many times the distractors' own "
        "spread (longest minus shortest, in characters): among long sentences that differ a lot, one more step "
        "does not stand out"))
    key_min_words: int = Field(default=3, ge=1, le=10_000, description=(
        "keys of fewer words (a name, a term) are not judged: their lengths carry no qualifier"))
    among_terms_min_words: int = Field(default=5, ge=1, le=10_000, description=(
        "when most distractors are names or terms (titles, or one or two words), the key must have at least this "
        "many words: a longer name among names is how the names are"))


# words as a candidate counts them: runs of letters, and a number that stands alone ("the 1/2 lives"); a formula,
# an identifier or a code such as "HT2" has no more words than its letters
WORDS = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*|(?<![\w.,/-])\d+(?:[.,/]\d+)*(?![\w/-])")
# a stem that asks for quoted words (a lyric, a quotation, a slogan): the options are the source's words, and
# their lengths are the source's, not a writer's qualification
QUOTED = re.compile(r"\b(?:lyrics?|quot(?:e|es|ed|ation|ations)|proverbs?|slogans?|mottos?|mottoes|catchphrases?|"
                    r"taglines?)\b", re.I)
# an answer that denies the question ("It is not guaranteed", "The EU has no official capital", "Neither"): among
# names it is "none of these" in words, of another form than the names and not a qualified one of them; the
# denial is the answer's own, in its first words and not in a clause of it ("Components that don't need ...")
DENIAL = re.compile(r"^\W*(?:(?!(?:that|which|who|whose|if|when|because|unless|qui|que|si)\b)[\w'’-]+\s+){0,4}?"
                    r"(?:(?:not|no|none|never|neither|nobody|nothing|aucun|aucune|jamais)\b|\w+n['’]t\b)", re.I)
# a stem about the options as specimens (which sentence uses a comma wrongly, which spelling is right): the options
# are the examples the question is about, and their lengths are the examples'
SPECIMEN = re.compile(r"\b(?:sentences?|punctuat\w*|grammatical(?:ly)?|commas?|apostrophes?|spell(?:s|ed|ing)?|"
                      r"misspell\w*)\b", re.I)
# a pair matched in an option ("Aladdin - a lamp"): when every option is one, the lengths are the two names'
PAIR = re.compile(r"\S\s+[-–—]\s+\S")
# inline mathematics ("$x-5$ is a factor of $p(x)$"): the lengths are the formulas'
MATH = re.compile(r"\$[^$]+\$|\\\(.+?\\\)")
# a conditional ("If player 4 has healed, then he is not fit", "Unless ..., ..."): a condition and a consequence,
# two plain statements in the form the logic asks for; and two statements joined in one option
CONDITIONAL = re.compile(r"^\W*(?:if|unless|only\s+if|si)\b", re.I)
JOINED = re.compile(r",\s*(?:and|but)\s+|;\s*")
CLAUSE_BREAK = re.compile(r",\s*(?:then\s+)?|\s+then\s+", re.I)
# a technical term that takes two words where a reader counts one, a species after its genus ("Pseudomonas
# aeruginosa"): the key needs the term, and its length is the term's
SPECIES = re.compile(r"(?<=\w )([A-Z][a-z]{3,}) (?:[a-z]{3,}(?:us|um|ae|ii|is|a|i))\b")


@dataclass(frozen=True, slots=True)
class Measured:
    """One option as the rule measures it: its index, its plain text, its characters and words, and whether it
    is a key."""

    index: int
    text: str
    chars: int
    words: int
    key: bool


def measured(question: Question) -> list[Measured] | None:
    """The options the rule compares (not 'All/None of the above' or 'Cannot be determined'), or None when their
    lengths carry no cue: fewer than two, or any of them code or a number."""
    out = []
    for i, option in enumerate(question.options):
        if is_meta(option.text):
            continue
        if is_code(option.text):
            return None
        text = plain(strip_code(option.text))
        if is_numeric(text):
            return None
        out.append(Measured(i, text, len(text), len(WORDS.findall(text)), option.correct))
    if len(out) < 2:
        return None
    return out


def _term_once(m: Measured) -> Measured:
    """The option measured with each species it names counted once, by its genus."""
    text = SPECIES.sub(r"\1", m.text)
    return m if text == m.text else Measured(m.index, text, len(text), len(WORDS.findall(text)), m.key)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _can_fire(question: Question, ratio: float) -> bool:
    """A cheap first look: is the shortest key at least ``ratio`` times the characters of the longest distractor that
    is not about the other options? Most questions stop here."""
    keys = question.keys
    if not keys or len(keys) == len(question.options):
        return False
    lengths = [len(plain(strip_code(o.text))) for o in question.options]
    shortest_key = min(lengths[i] for i in keys)
    others = sorted((i for i in range(len(lengths)) if i not in keys), key=lambda i: -lengths[i])
    longest = next((lengths[i] for i in others if not is_meta(question.options[i].text)), None)
    return longest is not None and shortest_key >= ratio * longest


def _stands_out(keys: list[Measured], distractors: list[Measured], options: Options) -> bool:
    """Whether the keys are longer than every distractor by a margin a reader sees: each by key-ratio in characters
    and key-word-ratio in words, on average by min-extra-words and min-extra-chars, and, where all the options are
    long sentences, by long-spread times the distractors' own spread."""
    longest = max(m.chars for m in distractors)
    most_words = max(m.words for m in distractors)
    if not all(k.chars >= options.key_ratio * longest and k.words >= options.key_word_ratio * most_words
               for k in keys):
        return False
    mean_chars = sum(k.chars for k in keys) / len(keys)
    mean_words = sum(k.words for k in keys) / len(keys)
    if mean_chars - longest < options.min_extra_chars or mean_words - most_words < options.min_extra_words:
        return False
    if min(m.words for m in distractors) >= options.long_words:
        spread = longest - min(m.chars for m in distractors)
        return min(k.chars for k in keys) - longest >= options.long_spread * spread
    return True


def _lengths_are_the_material(question: Question) -> bool:
    """Whether the options' lengths are those of their material and not of a writer's qualification: quoted words
    (a stem that asks for lyrics or a quotation), specimens (a stem about the options as sentences or spellings),
    matched pairs ("Aladdin - a lamp") or formulas in every option."""
    if QUOTED.search(question.stem) or SPECIMEN.search(question.stem):
        return True
    texts = [o.text for o in question.options if not is_meta(o.text)]
    return all(PAIR.search(t) for t in texts) or all(MATH.search(t) for t in texts)


def _clauses(text: str, distractors: list[Measured]) -> list[str] | None:
    """A key's two statements, when it is two in the form the question asks for: a conditional (its condition and
    its consequence), or two statements joined that each begin as a distractor does ("No one is smart but ..., and
    no one is ..." beside "No one is smart and wise")."""
    if CONDITIONAL.match(text) and CLAUSE_BREAK.search(text):
        return CLAUSE_BREAK.split(text, maxsplit=1)
    if JOINED.search(text):
        parts = JOINED.split(text, maxsplit=1)
        heads = {tuple(WORDS.findall(d.text.lower())[:3]) for d in distractors}
        if all(tuple(WORDS.findall(part.lower())[:3]) in heads for part in parts):
            return parts
    return None


def _two_plain_statements(keys: list[Measured], distractors: list[Measured]) -> bool:
    """Whether every key is two statements in the question's form, each no longer than the longest distractor:
    the logic asks for both, and neither is a qualified one."""
    longest = max(m.chars for m in distractors)
    return all((parts := _clauses(k.text, distractors)) and max(len(p.strip()) for p in parts) <= longest
               for k in keys)


def _a_ladder(distractors: list[Measured]) -> bool:
    """Whether one distractor says another's words with a step of its own words again ("a student of a student of
    X" beside "a student of X"): the options count steps of one ladder, and a longer key is one more step."""
    words = [Counter(WORDS.findall(m.text.lower())) for m in distractors]
    return any(inner.total() >= 3 and inner < outer and not (outer - inner).keys() - inner.keys()
               for inner in words for outer in words)


def check(question: Question, options: Options) -> Iterator[Violation]:
    if not _can_fire(question, options.key_ratio) or _lengths_are_the_material(question):
        return
    found = measured(question)
    if found is None:
        return
    found = [_term_once(m) for m in found]
    keys = [m for m in found if m.key]
    distractors = [m for m in found if not m.key]
    if not keys or len(keys) != len(question.keys) or len(distractors) < min(2, len(keys)):
        return   # a key among the meta-options, or too few distractors to compare with
    terms = sum(is_title(m.text) or m.words <= 2 for m in distractors)
    among_terms = 2 * terms > len(distractors)
    least = options.among_terms_min_words if among_terms else options.key_min_words
    if any(is_title(k.text) or k.words < least or (among_terms and DENIAL.match(k.text)) for k in keys):
        return
    if (not _stands_out(keys, distractors, options) or _two_plain_statements(keys, distractors)
            or _a_ladder(distractors)):
        return
    longest = max(distractors, key=lambda m: (m.chars, m.words))
    shortest = min(keys, key=lambda m: m.chars)
    ratio = shortest.chars / max(1, longest.chars)
    if len(keys) == 1:
        message = (f"the key is the longest option by far: {_plural(shortest.words, 'word')}, {ratio:.1f}x the "
                   f"characters of the longest distractor ({_plural(longest.words, 'word')}); length alone points "
                   "to it")
    else:
        message = (f"the {len(keys)} keys are the {len(keys)} longest options by far: each at least {ratio:.1f}x "
                   f"the characters of the longest distractor ({_plural(longest.words, 'word')}); length alone "
                   "points to them")
    yield Violation(f"options[{shortest.index}].text", message)


RULE = QuestionRule(
    code="Q201",
    name="option-length",
    severity=Severity.WARNING,
    summary="The key is the longest option by a clear margin: length alone points to it.",
    why=("Test-wise candidates pick the longest option, because writers qualify the key to make it exactly right "
         "and leave the distractors short (Haladyna, Downing & Rodriguez 2002, guideline 23; the NBME guide lists "
         "'long correct answer')."),
    use_instead="Make the options alike in length and detail: trim the key, or give the distractors the same care.",
    options=Options,
    check=check,
    notes=("The key must be longer than every distractor in what a reader sees and in what it says: key-ratio times "
           "the longest distractor's characters and key-word-ratio times the wordiest one's words, and at least "
           "min-extra-words words and min-extra-chars characters more (a qualifier's worth); with several keys, "
           "every key must be the longer by the ratios and the keys on average by the extra words and characters. "
           "Where every option is a long sentence (every distractor of long-words words or more), the key's lead "
           "must also be long-spread times the distractors' own spread: when they already differ a lot, one more "
           "step is no cue. Only statements are judged: not options that are code, numbers or formulas, not keys of "
           "fewer than key-min-words words (among-terms-min-words when most distractors are names or short terms), "
           "not names and titles ('The Return of the King'), whose lengths carry no qualifier, not a key among "
           "names that denies the question ('It is not guaranteed', 'The Union has no capital'), which is 'none of "
           "these' in words, not quoted words (a stem that asks for lyrics, a quotation or a slogan), whose length "
           "is the source's, not specimens (a stem about the options as sentences, their spelling or punctuation), "
           "matched pairs ('Aladdin - a lamp') or formulas in every option, whose lengths are their material's, not "
           "a key that is two plain statements in the form the logic asks for (a conditional, or two statements "
           "each begun as a distractor is, each no longer than the longest distractor), and not options that are "
           "steps of one ladder (a distractor that says another's words with a step of them again, 'a student of a "
           "student of'), where a longer key is one more step. A species is counted once, by its genus ('Pseudomonas "
           "aeruginosa'), and a number that stands "
           "alone is a word ('the 1/2 life'). 'All/None of the above' and 'Cannot be determined' are not compared. "
           "A long or short distractor is no cue to the key and is not reported; whether keys are the longest "
           "option more often than chance across the bank is key-length-bias's question."),
    passing=("""\
id: ol-ok
stem: Why does storing `loss` in a list every step make GPU memory grow?
options:
  - {text: Each stored loss keeps its autograd graph alive, correct: true, rationale: Correct. The graph holds activations.}
  - {text: The optimizer copies every stored loss to the GPU, rationale: Incorrect. The optimizer never sees the list.}
  - {text: Python lists are allocated in pinned host memory, rationale: Incorrect. Lists live in ordinary host memory.}
""", """\
id: ol-long-distractor
stem: What does `torch.no_grad()` switch off inside its block?
options:
  - {text: Gradient tracking, correct: true, rationale: Correct. No graph is recorded.}
  - {text: Dropout and the running statistics of batch normalization in every module, rationale: Incorrect. That is `model.eval()`.}
  - {text: Automatic casting, rationale: Incorrect. That is autocast.}
  - {text: The caching allocator, rationale: Incorrect. The allocator is unaffected.}
""", """\
id: ol-numbers
stem: How many bytes does one bfloat16 value take?
options:
  - {text: '2', correct: true, rationale: Correct. It is a 16-bit format.}
  - {text: '4', rationale: Incorrect. That is fp32.}
  - {text: '128', rationale: Incorrect. No float format is that wide.}
""", """\
id: ol-code
stem: Which call returns a loss as a plain Python number?
options:
  - {text: '`loss.detach().cpu().numpy().item()`', correct: true, rationale: Correct. It ends in a Python float.}
  - {text: '`loss.data`', rationale: Incorrect. That is a tensor without history.}
  - {text: '`loss.cpu()`', rationale: Incorrect. That is still a tensor.}
""", """\
id: ol-titles
stem: Which film won the Academy Award for Best Picture for 2003?
options:
  - {text: The Lord of the Rings - The Return of the King, correct: true, rationale: Correct. It won eleven awards.}
  - {text: Mystic River, rationale: Incorrect. It was nominated.}
  - {text: Seabiscuit, rationale: Incorrect. It was nominated.}
  - {text: Lost in Translation, rationale: Incorrect. It was nominated.}
""", """\
id: ol-close
stem: Which technique trades extra compute for lower activation memory?
options:
  - {text: Recomputing activations during the backward pass, correct: true, rationale: Correct. That is checkpointing.}
  - {text: Keeping every activation in pinned memory, rationale: Incorrect. That uses more memory.}
  - {text: Doubling the batch size, rationale: Incorrect. That needs more memory.}
""", """\
id: ol-few-more-words
stem: Which technique lets a small GPU train with the effective batch of a large one?
options:
  - {text: Gradient accumulation over microbatches, correct: true, rationale: Correct. Steps wait for several batches.}
  - {text: Larger learning rates, rationale: Incorrect. That changes the step and not the batch.}
  - {text: Mixed precision, rationale: Incorrect. That saves memory but keeps the batch.}
""", """\
id: ol-all-long
stem: A training job on a shared cluster stalls after its first epoch. What is the most likely cause?
options:
  - {text: "The data loader forks its worker processes after the CUDA context exists, so every worker deadlocks on the first batch it tries to pin, and the epoch never ends", correct: true, rationale: Correct. Forking after CUDA is initialised is unsafe.}
  - {text: "The learning rate schedule decays to zero at the end of the first epoch, so every later step leaves the weights where they are", rationale: Incorrect. The job would run and not stall.}
  - {text: "The checkpoint written after the first epoch fills the shared disk, and the job waits for space", rationale: Incorrect. A full disk raises an error.}
  - {text: "The validation pass after the first epoch runs on the CPU and takes hours", rationale: Incorrect. Validation runs on the GPU.}
""", """\
id: ol-denial
stem: Which amendment to the US Constitution guarantees the right to privacy?
options:
  - {text: It is not guaranteed by any amendment in so many words, correct: true, rationale: Correct. Courts read it from several.}
  - {text: The Fourteenth, rationale: Incorrect. Privacy was read into it and not written.}
  - {text: The Fifteenth, rationale: Incorrect. It concerns voting.}
  - {text: The Second, rationale: Incorrect. It concerns arms.}
""", """\
id: ol-quoted
stem: "Complete the lyrics: 'Please don't say tomorrow if you don't mean it ...'"
options:
  - {text: or you just may end up in my next song, correct: true, rationale: Correct. That is the line.}
  - {text: I love you, rationale: Incorrect. Not the line.}
  - {text: we are in love, rationale: Incorrect. Not the line.}
  - {text: I need you, rationale: Incorrect. Not the line.}
""", """\
id: ol-conditional
stem: "The coach fields player 4 only if his injury has healed and his form is good; player 6 plays the final. What must be true?"
options:
  - {text: "If player 4 has healed, then his form is not good", correct: true, rationale: Correct. Otherwise player 4 would play.}
  - {text: Player 4 is badly injured, rationale: Incorrect. He may have healed.}
  - {text: Player 4's form is not good, rationale: Incorrect. He may be injured instead.}
  - {text: Player 6 is not injured, rationale: Incorrect. Nothing is said of it.}
""", """\
id: ol-joined-in-frame
stem: "Some people are clever and some are wise, but no one is both. Which of these cannot be true?"
options:
  - {text: "No one is clever but unwise, and no one is wise but dull", correct: true, rationale: Correct. Some people are one and not the other.}
  - {text: Most people are clever and wise, rationale: Incorrect. It can be true.}
  - {text: No one is clever and wise, rationale: Incorrect. It follows.}
  - {text: Most people are neither, rationale: Incorrect. It can be true.}
""", """\
id: ol-specimens
stem: Which of the following sentences uses a comma wrongly?
options:
  - {text: "Preparing the report for the review board and for possible publication in the journal, was the hardest task of his year", correct: true, rationale: Correct. The comma splits the subject from its verb.}
  - {text: "To stay fit for the season, athletes train every day", rationale: Incorrect. The comma ends an introductory phrase.}
  - {text: "The evidence was strong. Still, some doubted it", rationale: Incorrect. The comma follows a transition.}
  - {text: "After the adjustment, wages fell", rationale: Incorrect. The comma ends an introductory phrase.}
""", """\
id: ol-pairs
stem: Which magic object is not matched with its fairy tale?
options:
  - {text: Aladdin - a lamp, rationale: Incorrect. It is matched.}
  - {text: The Little Mermaid - a key with drops of blood on it, correct: true, rationale: Correct. That is Bluebeard's key.}
  - {text: Snow White - a mirror, rationale: Incorrect. It is matched.}
  - {text: The Wild Swans - nettle shirts, rationale: Incorrect. It is matched.}
""", """\
id: ol-formulas
stem: For a polynomial $p(x)$, $p(3) = -2$. Which of the following must be true?
options:
  - {text: $x-5$ is a factor of $p(x)$, rationale: Incorrect. Nothing is known of $p(5)$.}
  - {text: $x-2$ is a factor of $p(x)$, rationale: Incorrect. Nothing is known of $p(2)$.}
  - {text: The remainder when $p(x)$ is divided by $x-3$ is $-2$, correct: true, rationale: Correct. That is the remainder theorem.}
""", """\
id: ol-denial-among-names
stem: What city is the capital of the European Union?
options:
  - {text: Brussels, rationale: Incorrect. It hosts most institutions but is no declared capital.}
  - {text: Strasbourg, rationale: Incorrect. It hosts the Parliament.}
  - {text: Luxembourg, rationale: Incorrect. It hosts the Court.}
  - {text: The Union has no official capital, correct: true, rationale: Correct. No treaty names one.}
""", """\
id: ol-ladder
stem: A mathematician has an Erdős number of 2. What does it mean?
options:
  - {text: The mathematician was a student of a student of Paul Erdős, rationale: Incorrect. The number counts papers.}
  - {text: The mathematician was a student of Paul Erdős, rationale: Incorrect. The number counts papers.}
  - {text: The mathematician wrote a paper with someone who once wrote an academic paper with Paul Erdős, correct: true, rationale: Correct. Two steps of co-authorship.}
  - {text: The mathematician wrote a paper with Paul Erdős, rationale: Incorrect. That is a number of 1.}
""", """\
id: ol-species-name
stem: Which of these does not apply to amoxicillin?
options:
  - {text: It is an aminopenicillin, rationale: Incorrect. It applies.}
  - {text: It is the drug of choice against Pseudomonas aeruginosa, correct: true, rationale: Correct. Pseudomonas resists it.}
  - {text: It is active by mouth, rationale: Incorrect. It applies.}
  - {text: It can cause allergic reactions, rationale: Incorrect. It applies.}
""", """\
id: ol-numbers-are-read
stem: Which parameter tells you how fast an oral form reaches the blood?
options:
  - {text: Delays before plasma concentrations reach their peaks, correct: true, rationale: Correct. A faster form peaks sooner.}
  - {text: The 1/2 life of elimination, rationale: Incorrect. It belongs to the drug and not to the form.}
  - {text: The 1/2 life of distribution, rationale: Incorrect. It belongs to the drug and not to the form.}
"""),
    failing=(Invalid("""\
id: ol-bad
stem: Why does storing `loss` in a list every step make GPU memory grow?
options:
  - {text: "Each stored loss is a tensor that still references its autograd graph, so every step's activations stay allocated on the GPU", correct: true, rationale: Correct. The graph holds activations.}
  - {text: The optimizer copies it, rationale: Incorrect. The optimizer never sees the list.}
  - {text: Lists are pinned, rationale: Incorrect. Lists live in ordinary host memory.}
""", field="options[0].text", message="the key is the longest option by far"), Invalid("""\
id: ol-pair
stem: What does gradient checkpointing trade?
options:
  - {text: Extra forward compute in exchange for storing fewer activations, correct: true, rationale: Correct. Activations are recomputed.}
  - {text: Accuracy for speed, rationale: Incorrect. The result is the same.}
""", field="options[0].text", message="the key is the longest option by far"), Invalid("""\
id: ol-two-keys
stem: Which two settings make a data loader copy batches to the GPU faster? (Select two.)
select: 2
options:
  - {text: Pinning host memory so that copies can run asynchronously, correct: true, rationale: Correct. Pinned pages can be copied by DMA.}
  - {text: Several worker processes that prepare the next batches in parallel, correct: true, rationale: Correct. The GPU waits less.}
  - {text: Shuffling, rationale: Incorrect. It changes the order only.}
  - {text: A smaller batch, rationale: Incorrect. It copies less per step but no faster.}
""", field="options[0].text", message="the 2 keys are the 2 longest options by far"), Invalid("""\
id: ol-all-long-alike
stem: A training job on a shared cluster stalls after its first epoch. What is the most likely cause?
options:
  - {text: "The data loader forks its worker processes after the CUDA context exists, so every worker deadlocks on the first batch it tries to pin to memory, and the epoch never ends", correct: true, rationale: Correct. Forking after CUDA is initialised is unsafe.}
  - {text: "The learning rate decays to zero at the end of the first epoch, so later steps change nothing", rationale: Incorrect. The job would run and not stall.}
  - {text: "The checkpoint written after the first epoch fills the shared disk, and the job waits", rationale: Incorrect. A full disk raises an error.}
  - {text: "The validation pass after the first epoch runs on the CPU and takes a few hours", rationale: Incorrect. Validation runs on the GPU.}
""", field="options[0].text", message="the key is the longest option by far: 31 words")),
)
