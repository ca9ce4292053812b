"""reading-level: a sentence, a stem or an option longer than a candidate should have to hold in mind at once."""
from __future__ import annotations

import hashlib
import math
import re
from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from itertools import chain

from pydantic import Field, model_validator

from qlint.finding import Severity
from qlint.items import BankItem
from qlint.language.readability import (Restatements, Sentence, StemMeasure, covered_by, lead_in, may_spell,
                                        measure_stem, most_words, prose, word_runs, words_as_read, words_in_text)
from qlint.language.words import short
from qlint.model import Question
from qlint.rule import BankRule, BankViolation, Invalid, RuleOptions

# the characters of a setup's prose that name it: two questions whose setups open alike share one passage (a case
# study, a logic game, a stimulus) when their questions differ
SETUP_CHARS = 200


class Options(RuleOptions):
    max_sentence_words: int = Field(default=35, ge=5, le=1_000_000, description=(
        "a sentence of the stem with more words than this (and the tolerance) is reported (plain-language guides "
        "call a sentence over 25-35 words long; code, tables and formulas are not counted)"))
    max_stem_words: int = Field(default=200, ge=10, le=1_000_000, description=(
        "a stem with more words than this (and the tolerance) is reported, not counting a passage the question "
        "asks about"))
    max_option_words: int = Field(default=80, ge=5, le=1_000_000, description=(
        "an option with more words than this (and the tolerance) is reported when half its words repeat another "
        "option or the stem"))
    max_passage_words: int = Field(default=1000, ge=10, le=1_000_000, description=(
        "a passage with more words than this (and the tolerance) is reported: the paragraphs before a stem's last "
        "one, when that last paragraph asks about them ('the passage', 'the author', 'the argument above') or they "
        "have 150 words or more; in a stem of one paragraph, the sentences before its question when they have 300 "
        "words or more (a case study); and a setup other questions of the bank share"))
    tolerance: float = Field(default=0.15, ge=0, le=10, description=(
        "the share by which a text may exceed its limit before it is reported: a limit is a target, and a text a "
        "few words over it reads as well as one at it (0.15: a 35-word limit reports sentences of 41 words or more)"))

    @model_validator(mode="before")
    @classmethod
    def _grade_moved(cls, data: object) -> object:
        moved = sorted(k for k in ("max-grade", "min-words") if isinstance(data, dict) and k in data)
        if moved:
            raise ValueError(f"{' and '.join(moved)} moved to the reading-grade rule: set "
                             f"{'them' if len(moved) > 1 else 'it'} under [rules.reading-grade]")
        return data

    def reported(self, limit: int) -> int:
        """The most words a text held to ``limit`` may have before it is reported."""
        return math.floor(limit * (1 + self.tolerance) + 1e-9)


def _count(n: int) -> str:
    return f"{n:,}"


def _limit(limit: int, reported: int) -> str:
    return f"limit {_count(limit)}" + (f", reported above {_count(reported)}" if reported != limit else "")


# a title in title case: capitalised words, with the small words a title leaves lower-case between them, and among
# them a word a name would leave lower-case ("I Went Back to My Fourth Wife For the Third Time ..."): a run of words
# between names ("Judge Harold Harley from the Marin County Hall of Justice") has none
TITLE_WORDS = 10   # a title of this many words or more is read as one
_SMALL = frozenset("a an the and or nor but of to for in on at by with from as up out off into onto over".split())
_NOT_IN_A_NAME = _SMALL | frozenset("i me my you your he him his she her it its we us our they them their is are was "
                                    "were be been am do does did not no".split())
_TITLE_TOKEN = re.compile(r"[A-Z][\w'’&-]*|[a-z]+")


def _title_saved(chunk: str) -> int:
    """Words a long title saves: a run of TITLE_WORDS words or more, each capitalised but for a title's small words
    between them, and one of them capitalised as only a title capitalises it, is read as one name, as the title of
    a list's item is."""
    saved, run, last, titled = 0, 0, 0, False
    for token in [*chunk.split(), ""]:
        word = token.strip("\"'“”‘’(),;:!?.")
        if word and _TITLE_TOKEN.fullmatch(word) and (word[0].isupper() or (run and word in _SMALL)):
            run += 1
            if word[0].isupper():
                last = run
                titled = titled or (run > 1 and word.lower() in _NOT_IN_A_NAME)
            if token[-1:] not in ",;:!?.":
                continue
        if last >= TITLE_WORDS and titled:
            saved += last - 1
        run, last, titled = 0, 0, False
    return saved


PARALLEL_ITEMS = 3    # pieces this many or more, each opening with the same word, are the items of a list
PARALLEL_WORDS = 10   # ... of at most this many words each ("from place N to place O by 4 buses, from place O ...")
_PIECE = re.compile(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+")


def _parallel_saved(chunk: str) -> int:
    """Words a list of parallel pieces saves: a run of PARALLEL_ITEMS pieces or more, split at commas and at 'and'
    or 'or', each opening with the same word and of at most PARALLEL_WORDS words, is read an item at a time, as the
    short items of a list are (each counts as one word)."""
    saved, run, first = 0, [], None
    for piece in [*_PIECE.split(chunk), ""]:
        words = piece.split()
        if words and len(words) <= PARALLEL_WORDS and words[0].lower() == first:
            run.append(len(words))
            continue
        if len(run) >= PARALLEL_ITEMS:
            saved += sum(run) - len(run)
        first = words[0].lower() if words and len(words) <= PARALLEL_WORDS else None
        run = [len(words)] if first else []
    return saved


def _as_read(stem: str, asked: list[Sentence], reported: int) -> list[tuple[int, Sentence]]:
    """The words of each sentence over ``reported`` as a reader counts them (a list's items, a title, a quotation, a
    restated condition as a word each), with the sentences still over it after that."""
    over = []
    restated = Restatements(stem)
    for s in asked:
        if s.words <= reported:
            continue
        n = words_as_read(stem, s)
        if n > reported:
            n = max(1, n - _title_saved(stem[s.start:s.end]) - _parallel_saved(stem[s.start:s.end]))
        if n > reported:
            n = max(1, n - restated(s, s.start))
        over.append((n, s))
    return over


def _longest(stem: str, measure: StemMeasure, options: Options) -> int:
    """The longest sentence of the stem as the rule counts it: as it stands when under the reported length, as read
    when over it."""
    reported = options.reported(options.max_sentence_words)
    under = [s.words for s in measure.asked if s.words <= reported]
    return max([*under, *(n for n, _ in _as_read(stem, measure.asked, reported))], default=0)


def _sentence(stem: str, asked: list[Sentence], limit: int, reported: int) -> Iterator[tuple[str, str]]:
    over = [(n, s) for n, s in _as_read(stem, asked, reported) if n > reported]
    if not over:
        return
    words, worst = max(over, key=lambda pair: pair[0])
    more = f"; {len(over) - 1} more over the limit" if len(over) > 1 else ""
    yield "stem", (f"a sentence of {_count(words)} words ({_limit(limit, reported)}): "
                   f"\"{short(stem[worst.start:worst.end], 70)}\"{more}; split it")


def _stem(stem: str, measure: StemMeasure, options: Options) -> Iterator[tuple[str, str]]:
    reported = options.reported(options.max_sentence_words)
    yield from _sentence(stem, measure.asked, options.max_sentence_words, reported)
    words, reported = measure.words, options.reported(options.max_stem_words)
    if words > reported:
        after = " after its passage" if measure.passage else ""
        yield "stem", (f"the stem has {_count(words)} words{after} ({_limit(options.max_stem_words, reported)}); "
                       "move background into a shorter scenario or cut what the question does not need")
    passage_words, reported = measure.passage_words, options.reported(options.max_passage_words)
    if passage_words > reported:
        yield "stem", (f"the passage before the question has {_count(passage_words)} words "
                       f"({_limit(options.max_passage_words, reported)})")


def _options(question: Question, options: Options) -> Iterator[tuple[str, str]]:
    """Each option over its limit that repeats, for at least half its words, what another option or the stem says:
    what the options share belongs in the stem once; a long option all its own (a solution of several steps among
    other solutions) is as long as what it proposes."""
    reported = options.reported(options.max_option_words)
    long = [(i, words) for i, o in enumerate(question.options)
            if most_words(o.text) > reported and (words := words_in_text(o.text)) > reported]
    if not long:
        return
    texts = [question.stem, *(o.text for o in question.options)]
    runs = [word_runs(t) for t in texts]
    # how many texts hold each run: an option none of whose runs another text holds repeats nothing, whatever the
    # number of options (one long option among hundreds is not compared with each of them)
    held = Counter(chain.from_iterable(runs))
    for i, words in long:
        own = runs[i + 1]
        if any(held[r] > 1 for r in own) and _half_repeated(texts[i + 1], words, i + 1, runs):
            yield f"options[{i}].text", (f"option {i + 1} has {_count(words)} words "
                                         f"({_limit(options.max_option_words, reported)}); shorten it, or move "
                                         "what the options share into the stem")


def _half_repeated(text: str, words: int, own: int, runs: list[set[tuple[str, ...]]]) -> bool:
    """Whether another text than ``own`` (the stem, the other options) says, word for word in runs of
    RESTATED_WORDS or more, at least half of ``text``'s ``words``; the first that does settles it, and a text that
    shares no run with it is not looked at."""
    mine = runs[own]
    for t, other in enumerate(runs):
        if t != own and not mine.isdisjoint(other) and 2 * sum(covered_by(text, other)) >= words:
            return True
    return False


# a stem that says it quotes ("who said this?", "these lyrics", "this quote is from a novel", "the following is a
# letter from"): its other sentences are the quotation, the material the question asks about, even without quotation
# marks
_QUOTES = re.compile(r"\b(?:this|these|the following)\s+(?:quote|quotation|words|lines?|lyrics|excerpt|passage"
                     r"|speech|letter|verse|stanza)\b"
                     r"|\b(?:said|wrote|sang|spoke|says|writes|sings|stated|declared)\s+(?:this|these|the\s+following)\b"
                     # a word of saying that hands over to the words said, at a comma or colon before a capital
                     # ("This writer from Florida stated, Another possible source of guidance ...")
                     r"|\b(?:said|stated|declared|wrote|remarked|proclaimed|exclaimed)(?=[,:]\s*[\"'“‘]?[A-Z])"
                     r"|\b(?:is|are|was|were)\s+(?:a|an|the|some)\s+(?:\w+\s+)?(?:quote|quotation|lines?|lyrics|excerpt"
                     r"|passage|verse|stanza)\s+(?:from|of|by|in)\b", re.I)
# every match of _QUOTES spells one of these words (a stem that spells none is not scanned)
_QUOTE_WORDS = ("quot", "words", "line", "lyrics", "excerpt", "passage", "speech", "letter", "verse", "stanza", "said",
                "wrote", "sang", "spoke", "says", "writes", "sings", "stated", "declared", "remarked", "proclaimed",
                "exclaimed")
# a stem that names the work a line of its own comes from ("... if you want to know the truth.\nBeing one of the most
# controversial works, this novel ..."): the other lines are the work's words
_WORK = re.compile(r"\b(?:this|these)\s+(?:novels?|books?|poems?|songs?|plays?|stor(?:y|ies)|speech(?:es)?|films?"
                   r"|movies?|letters?|hymns?|anthems?)\b", re.I)
# ... and every match of _WORK spells "this" or "these" and one of these
_WORK_WORDS = ("novel", "book", "poem", "song", "play", "story", "stories", "speech", "film", "movie", "letter", "hymn",
               "anthem")
# where the writer's sentence hands over to the quotation it introduces: a comma or a colon before a capital
# ("wrote the following lines to describe how he composed a sky, The dark blue sky is spotted ...")
_HANDS_OVER = re.compile(r"[,:]\s+(?=[\"'“‘]?[A-Z])")
QUOTED_WORDS = 8   # a quotation a sentence introduces is its material when it has this many words or more


# a line a trivia bank quotes and cites with its year, as a film's line is cited ("... until that happens. (1996)"),
# asking nothing else: the whole stem is the material the options name the source of
_CITED = re.compile(r"\(\s*1[0-9]\d\d\s*\)\s*$|\(\s*20\d\d\s*\)\s*$")


def _says(stem: str, measure: StemMeasure, cue: re.Pattern) -> list[Sentence]:
    """The asked sentences a match of ``cue`` starts in (each found by bisection among the matches' starts)."""
    at = [m.start() for m in cue.finditer(stem, measure.asked[0].start)]
    return [s for s in measure.asked if (i := bisect_left(at, s.start)) < len(at) and at[i] < s.end]


def _apart_from(stem: str, others: list[Sentence]) -> Callable[[Sentence], bool]:
    """Whether a sentence (not one of ``others``, which are in text order) is on a line of its own, apart from all
    of them: a line break between it and the nearest of them before it and after it is one between it and every
    one of them. Each answer is two bisections, not a look at every one of ``others``."""
    breaks = [m.start() for m in re.finditer("\n", stem)]
    starts = [o.start for o in others]

    def broken(start: int, end: int) -> bool:
        i = bisect_left(breaks, start)
        return i < len(breaks) and breaks[i] < end

    def apart(sentence: Sentence) -> bool:
        j = bisect_left(starts, sentence.start)
        before = j == 0 or broken(others[j - 1].end, sentence.start)
        return before and (j == len(others) or broken(sentence.end, others[j].start))

    return apart


def _introduced(stem: str, sentence: Sentence) -> tuple[Sentence, Sentence] | None:
    """A quoting sentence split where it hands over to the quotation it introduces (its head the writer's, its tail the
    material), or None when no quotation of QUOTED_WORDS words or more follows its word of quoting."""
    cue = _QUOTES.search(stem, sentence.start, sentence.end)
    if cue is None:
        return None
    hand = _HANDS_OVER.search(stem, cue.end(), sentence.end)
    if hand is None:
        return None
    head, tail = words_in_text(stem[sentence.start:hand.start()]), words_in_text(stem[hand.end():sentence.end])
    if tail < QUOTED_WORDS or not head:
        return None
    return (Sentence(sentence.start, hand.start(), head, sentence.paragraph),
            Sentence(hand.end(), sentence.end, tail, sentence.paragraph))


def _quoted(stem: str, measure: StemMeasure) -> StemMeasure:
    """The measure with what a quoting stem quotes moved to its passage: the sentences but those that say it quotes,
    the sentences on lines apart from one that names their work ("this novel"), and the quotation a sentence hands
    over to after its word of quoting ("wrote the following lines, The dark blue sky ...")."""
    if not measure.asked:
        return measure
    if _CITED.search(stem):
        return StemMeasure([], [*measure.passage, *measure.asked])
    # the sentences are told apart by identity: they are measure.asked's own (comparing them as dataclasses, in
    # lists, cost the square of a stem's sentences)
    quotes = may_spell(stem, _QUOTE_WORDS)
    says = _says(stem, measure, _QUOTES) if quotes else []
    if says and len(measure.asked) > 1:
        saying = {id(s) for s in says}
        quoted = [s for s in measure.asked if id(s) not in saying]
    else:
        names = (_says(stem, measure, _WORK)
                 if may_spell(stem, _WORK_WORDS) and may_spell(stem, ("this", "these")) else [])
        if names:
            named, apart = {id(s) for s in names}, _apart_from(stem, names)
            quoted = [s for s in measure.asked if id(s) not in named and apart(s)]
        else:
            quoted = []
        kept = {id(s) for s in quoted}
        says = [s for s in measure.asked if id(s) not in kept]
    asked, passage = [], [*measure.passage, *quoted]
    for s in says:
        split = _introduced(stem, s) if quotes else None
        asked.append(split[0] if split else s)
        passage.extend(split[1:] if split else ())
    if not passage or len(passage) == len(measure.passage):
        return measure
    return StemMeasure(asked, passage)


def _digest(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big")


def _figures(stem: str, measure: StemMeasure, options: Options) -> list[int]:
    """What the report shows of a measured stem: its longest sentence as counted, its words, its passage's words."""
    return [_longest(stem, measure, options), measure.words, measure.passage_words]


def extract(question: Question, options: Options) -> list:
    """What the bank check needs of one question: its findings read alone, and, when the stem has findings that a
    shared setup would take away, its findings with the setup read as a passage and the digests of the setup
    (its first SETUP_CHARS characters of prose) and of the whole stem's prose; then the figures the report shows
    of the stem read each way (None for a stem too short to measure, which the report counts as it stands):
    ``[alone, shared, setup, whole, figures, shared figures]``, shared, setup, whole and shared figures None when
    there is nothing a shared setup would change."""
    stem = question.stem
    limits = (options.max_sentence_words, options.max_stem_words, options.max_passage_words)
    alone: list[list[str]] = []
    shared = setup = whole = figures = shared_figures = None
    if most_words(stem) > min(limits):
        measure = measure_stem(stem)
        quoted = _quoted(stem, measure)
        alone = [list(v) for v in _stem(stem, quoted, options)]
        figures = _figures(stem, quoted, options)
        if alone:
            found = measure.passage + measure.asked
            start = lead_in(found, stem)
            as_passage = _quoted(stem, StemMeasure(found[start:], found[:start]))
            shared = [list(v) for v in _stem(stem, as_passage, options)]
            if shared != alone and start > 0:
                setup, whole = _digest(prose(stem, found[:start])[:SETUP_CHARS]), _digest(prose(stem, found))
                shared_figures = _figures(stem, as_passage, options)
            else:
                shared = None
    found_options = [list(v) for v in _options(question, options)]
    if not (alone or found_options or figures):
        return NOTHING
    return [alone + found_options, shared + found_options if shared is not None else None, setup, whole, figures,
            shared_figures]


# the feature of most questions, too short to measure and with no finding: one for all (it is only ever read)
NOTHING = ((), None, None, None, None, None)


def _pairs(data: object) -> list[list[str]]:
    if not isinstance(data, list) or not all(isinstance(v, list) and len(v) == 2 and all(type(x) is str for x in v)
                                             for v in data):
        raise ValueError("not this rule's findings")
    return data


def encode(features: list[list]) -> list[list]:
    return features   # lists of strings and integers, as JSON carries them


def decode(data: object, count: int) -> list:
    if not isinstance(data, list) or len(data) != count:
        raise ValueError("not an encoding of this rule's features")
    out = []
    for feature in data:
        if not isinstance(feature, list) or len(feature) != 6:
            raise ValueError("not this rule's feature")
        alone, shared, setup, whole, figures, shared_figures = feature
        if shared is not None:
            _pairs(shared)
            if type(setup) is not int or type(whole) is not int or not _counts(shared_figures):
                raise ValueError("not digests")
        elif shared_figures is not None:
            raise ValueError("figures of a setup the stem does not share")
        if figures is not None and not _counts(figures):
            raise ValueError("not this rule's figures")
        if not alone and shared is None and figures is None and setup is None and whole is None:
            out.append(NOTHING)
        else:
            out.append([_pairs(alone), shared, setup, whole, figures, shared_figures])
    return out


def _counts(figures: object) -> bool:
    return isinstance(figures, list) and len(figures) == 3 and all(type(n) is int and n >= 0 for n in figures)


def survey(items: Sequence[BankItem], options: Options) -> dict[int, set[int]]:
    """The setups of the bank's stems, each with (up to two of) the whole stems that open with it."""
    stems: dict[int, set[int]] = defaultdict(set)
    for item in items:
        feature = item.features.get(RULE.name)
        if feature and feature[1] is not None and len(stems[feature[2]]) < 2:
            stems[feature[2]].add(feature[3])
    return stems


def _shares(feature: list, stems: dict[int, set[int]]) -> bool:
    """Whether a question's setup is one another question of the bank, asking something else, opens with too."""
    return feature[1] is not None and len(stems.get(feature[2], ())) > 1


def check(items: Sequence[BankItem], options: Options, stems: dict[int, set[int]]) -> Iterator[BankViolation]:
    """Each question's findings read alone, but with its setup read as a passage when another question of the bank,
    asking something else, opens with the same setup: a case study, a logic game or a stimulus several questions
    share is the material they ask about, and only each question's own lead-in is held to the limits."""
    for item in items:
        feature = item.features.get(RULE.name)
        if not feature:
            continue
        for field, message in feature[1] if _shares(feature, stems) else feature[0]:
            yield BankViolation(item, field, message)


def publish(items: Sequence[BankItem], options: Options, stems: dict[int, set[int]]) -> dict:
    """The figures of every measured stem as the findings count them (a shared setup read as a passage): its
    longest sentence, its words, its passage's words; a stem too short to measure is not listed."""
    questions = []
    for item in items:
        feature = item.features.get(RULE.name)
        if feature and feature[4] is not None:
            longest, words, passage = feature[5] if _shares(feature, stems) else feature[4]
            questions.append({"id": item.id, "path": item.path, "line": item.line, "longest_sentence": longest,
                              "words": words, "passage_words": passage})
    return {"questions": questions}


_LONG_SENTENCE = ("A company that runs its web tier on a fleet of virtual machines behind a load balancer in two "
                  "regions, with a managed database that replicates synchronously to a standby in a second zone and "
                  "a nightly export of every table to object storage for analytics, wants to cut its monthly bill "
                  "without losing availability.")

_CASE = ("Contoso is a consulting firm with a main office in Montreal and branch offices in Seattle and New York, and "
         "it hosts every server it runs in one cloud subscription that the central IT team manages on behalf of all "
         "three offices and of the partners who work with them on projects. The firm plans to move its file shares to "
         "managed storage. Every office must keep working during the move.")
_GAME = ("A panel selects exactly four of seven works: F, G, H, J, K, L and M. The following conditions apply: If F is "
         "selected, then neither G nor H is selected; if J is selected, then K is selected and L is not selected; at "
         "least one of G and M is selected, unless both H and L are selected and J is not selected; M is selected "
         "only if K is selected.")
_SCENARIO = ("A hospital keeps the records of its patients in a database in one region, replicates them every hour "
             "to a second region for disaster recovery, lets doctors in three clinics read them through a web "
             "portal, and sends a nightly extract of the billing tables to an outside firm that prepares the "
             "invoices and answers questions from insurers about them.")
_MERGED = ("A company uses a bucket to store its reports Management has mandated that every new object stored in the "
           "bucket is encrypted at rest with a key the company owns and that nobody outside the security team can "
           "read those keys.The bucket already has versioning turned on for every prefix that holds reports.")
_THIRTY_SEVEN = ("A team that deploys a web application to three regions wants each deployment to shift traffic to the "
                 "new version gradually and to roll back when the error rate of the new version rises above "
                 "one percent.")
_RUN_ON_LEAD_IN = ("If your team deploys the same container image to a cluster in each of three regions every night and "
                   "the image pulls its configuration from a shared bucket that only the build account can write, "
                   "which change lets the security team audit every read of it without slowing the deployment?")
_KEY = ("  - {text: Turn on access logging for the bucket, correct: true, rationale: Correct. It records every read.}\n"
        "  - {text: Copy the bucket each night, rationale: Incorrect. It records nothing.}\n")

_LEGEND = ("The monthly cost of a storage bucket can be estimated with the expression $c = p g + r n$, where $p$ is the "
           "price of one gigabyte kept for a month, $g$ is the number of gigabytes the bucket holds, $r$ is the price "
           "of one read, and $n$ is the number of reads.")
_SURVEY = ("A polling firm asked 1,000 residents chosen at random from the city's voter rolls, \"Are you satisfied with "
           "the bus service in your neighbourhood?\" Of those asked, 61 percent said that they were satisfied with the "
           "bus service in their neighbourhood.")
_ARGUMENT = ("Because the farmers of the valley had sold their grain to the same merchant for three generations, and "
             "because that merchant paid them in credit at his own store rather than in coin, the coming of the "
             "railway, which let any buyer in the city bid for their harvest, freed them from a debt they could never "
             "repay.")
_AFTERTHOUGHT = ("The statue was first meant for the tomb of a pope in the great basilica, but after his death it was "
                 "moved to a small church on this hill -- one of the famous seven hills of the city.")
_CASE_STUDY = " ".join(f"The {office} office runs {count} servers that host its {system} and must keep running during "
                       "the move." for office, count, system in (
                           ("Montreal", "twelve", "payroll"), ("Seattle", "eight", "portal"), ("Boston", "six", "billing"),
                           ("Denver", "four", "archive"), ("Austin", "three", "builds"), ("Chicago", "two", "test lab"),
                           ("Atlanta", "five", "reports"), ("Dallas", "seven", "help desk"), ("Miami", "nine", "mail"),
                           ("Phoenix", "three", "videos"), ("Portland", "two", "wiki"), ("Detroit", "four", "catalogue"),
                           ("Houston", "six", "orders"), ("Tampa", "eight", "kiosks"), ("Omaha", "two", "printers"),
                           ("Tulsa", "five", "badges"), ("Reno", "three", "cameras"), ("Provo", "four", "licences")))
_STEPS = ("Create a topic for alerts and subscribe the security team to it. Add a stage to the pipeline that scans each "
          "template with the policy checker before the build. Store the rules of the checker in a repository that only "
          "the security team can change. Publish a message to the topic when the checker finds a template that breaks "
          "a rule. Stop the pipeline at that stage until a member of the security team approves the template, and "
          "record the approval in the audit log of the account.")
_ORDER = ["A user requests the image from the address of the network, and the name service sends the request to the nearest "
          "point of presence.", "If no edge server there holds the image, the point of presence asks the origin server "
          "for the file.", "The origin server returns the image to an edge server, which keeps a copy in its cache and "
          "returns the image to the user.", "Later requests reach the same point of presence, whose edge server returns "
          "the image from its cache until the copy expires."]
_ORDERINGS = ((0, 1, 2, 3), (1, 0, 2, 3), (3, 0, 1, 2), (2, 0, 3, 1))

RULE = BankRule(
    code="Q404",
    name="reading-level",
    severity=Severity.WARNING,
    summary="A sentence, the stem or an option is longer than a candidate should have to hold in mind at once.",
    why=("An exam should test the subject, not reading stamina. A long sentence or a padded stem adds "
         "construct-irrelevant difficulty (NBME), which penalises second-language and slow readers most; a long "
         "option usually repeats what belongs in the stem."),
    use_instead=("Split long sentences; move background into a short scenario; put what every option repeats into "
                 "the stem. Code blocks, tables, formulas, URLs and images are not counted as words."),
    options=Options,
    check=check,
    extract=extract,
    encode=encode,
    decode=decode,
    survey=survey,
    publish=publish,
    notes=("Each finding names what it measured: the longest sentence over the limit (with its first words), the "
           "stem's words, or an option's words. A text is reported only when it exceeds its limit by more than the "
           "tolerance (15%: a sentence of 41 words against 35, a stem of 231 against 200), since a text a few words "
           "over reads as well as one at the limit. A sentence ends at a full stop, question or exclamation mark "
           "(also when the next sentence runs on without a space: 'keys.The'), at a semicolon, at a colon that opens "
           "a capitalised clause, at a line break that is not hard-wrapped prose, and where a full stop was plainly "
           "lost: a lower-case word, then 'The', 'However', 'What', 'To which' ...; a comma, then 'Besides', 'However' ...; a "
           "lower-case word, then a capitalised subject and its verb ('reports Management has mandated'). The items "
           "of a list (three or more comma-separated pieces of at most four words, or titles of at most ten) count "
           "as a word each, and so do "
           "the definitions of a formula's legend ('where $x$ is ..., and $y$ is ...'); a spaced dash ends a clause "
           "as a semicolon does, and a quotation that holds its own question mark ends its sentence. A "
           "quotation of eight words or more, or what follows 'lyrics:' or 'the quote:', is the material asked about "
           "and counts as one word, and so does a run of eight words or more that repeats the stem's own material "
           "(a question that restates one of a game's conditions). In a stem that says it quotes ('Who said this?', "
           "'said the following?', 'these lyrics', 'this quote is from', 'the following is an excerpt from'), the "
           "other sentences are the quotation, and so is what a sentence of quoting hands over to after a comma or a "
           "colon ('wrote the following lines, The dark blue sky ...', 'This writer stated, Another source of ...'); "
           "in a stem that names 'this novel', 'this song' ..., so are its lines apart from that one (a novel's "
           "opening line above it); a stem that ends by citing a year, '(1996)', as a trivia bank cites a film's "
           "line, is all quotation. A title of ten words or more in title case, "
           "with a word only a title capitalises ('I Went Back to My Fourth Wife For the Third Time ...'), counts as "
           "one word, and so does each of three or more parallel pieces of at most ten words that open with the same "
           "word ('from town N to town O by 4 buses, from town O ... and from town P ...'). A reading passage is "
           "exempt from the sentence "
           "and stem limits and held to max-passage-words instead: the paragraphs before the stem's last one, when "
           "that last paragraph asks about them ('According to the passage', 'the author', 'the argument above'), "
           "is itself a question (or a lead-in the options complete, with no punctuation at its end: '... all "
           "show the same bias except') of at most 60 words, or they run to 150 words or more; in a stem "
           "of one paragraph, the sentences before its question when they run to 300 words or more (a case study); "
           "and a setup that other "
           "questions of the bank share (a case study, a logic game, a stimulus: their stems open with the same "
           "200 characters of prose and go on to ask different things), where only each question's lead-in (its "
           "last paragraph, else its last question) is held to the limits. Questions whose whole stems are the same "
           "are not a shared setup (near-duplicate-stem's business). An option over its limit is reported when at "
           "least half its words repeat another option or the stem (what they share belongs in the stem); a long "
           "option all its own is as long as the solution it proposes. The grade of long stems against the audience "
           "is reading-grade's."),
    passing=("""\
id: rl-ok
stem: >-
  A run with `torch.cuda.amp` and `GradScaler` prints a loss of NaN after a few hundred steps.
  The same run in fp32 trains well. What should you check first?
options:
  - {text: Whether the scaler skips steps with inf gradients, correct: true, rationale: Correct. Overflow shows up as inf.}
  - {text: Whether the data loader shuffles each epoch, rationale: Incorrect. Shuffling does not depend on precision.}
""", """\
id: rl-passage
stem: |
  The passage below comes from a 1910 essay on the railway age.

  When the first lines were laid across the valley, the farmers who had carried their grain to the river on carts
  for three generations found that a merchant in the city could now buy it, store it and sell it again before their
  own wagons would have reached the ferry, and many of them, seeing no reason to resist what their sons welcomed,
  sold their land to the company and moved to the towns that grew up around the stations.

  According to the passage, why did many farmers sell their land?
options:
  - {text: They saw no reason to resist a change their sons welcomed, correct: true, rationale: Correct. The passage says so.}
  - {text: The company forced them off the land, rationale: Incorrect. The passage describes a choice.}
""", """\
id: rl-code
stem: |
  What does this function return for `f([3, 1, 2])`?

  ```python
  def f(values):
      return sorted(values, key=lambda value: (value % 2 == 0, value), reverse=False)[0] if values else None
  ```
options:
  - {text: '1', correct: true, rationale: Correct. Odd values sort first.}
  - {text: '2', rationale: Incorrect. Even values sort after odd ones.}
""", f"""\
questions:
  - id: rl-case-1
    stem: {_CASE} Which storage service should the firm use for the file shares?
    options:
{_KEY.replace("  - ", "      - ")}  - id: rl-case-2
    stem: {_CASE} How should the firm copy the shares without stopping work?
    options:
{_KEY.replace("  - ", "      - ")}""", f"""\
id: rl-game
stem: >-
  {_GAME} Which one of the following could be the works selected?
options:
  - {{text: 'F, J, K, M', correct: true, rationale: Correct. It meets every condition.}}
  - {{text: 'F, G, K, M', rationale: Incorrect. F excludes G.}}
""", f"""\
id: rl-scenario
stem: "{_SCENARIO}\\n\\nWhich service should hold the extract?"
options:
{_KEY}""", f"""\
id: rl-merged
stem: >-
  {_MERGED} Which policy meets the mandate?
options:
{_KEY}""", f"""\
id: rl-formula-legend
stem: >-
  {_LEGEND} Which term of the expression changes when the bucket is read twice as often?
options:
  - {{text: $r n$, correct: true, rationale: Correct. The number of reads doubles.}}
  - {{text: $p g$, rationale: Incorrect. The bucket holds as much as before.}}
""", f"""\
id: rl-quoted-question
stem: >-
  {_SURVEY} Which conclusion does the survey support?
options:
  - {{text: Most residents of the city are likely satisfied, correct: true, rationale: Correct. The sample is random.}}
  - {{text: Every resident is satisfied, rationale: Incorrect. Only 61 percent said so.}}
""", f"""\
id: rl-lead-in-below-its-argument
stem: "{_ARGUMENT}\\n\\nEach of the following, if true, weakens the argument above except"
options:
  - {{text: The merchant also bought land from the farmers, correct: true, rationale: Correct. It bears on neither claim.}}
  - {{text: City buyers paid less than the merchant, rationale: Incorrect. It weakens the claim that the railway freed them.}}
""", f"""\
id: rl-song-titles
stem: >-
  This singer, the popular songwriter responsible for the hits Doctor My Eyes, Somebodys Baby for the Fast Times at
  Ridgemont High soundtrack, Running on Empty, and Take It Easy for the Eagles, was once a member of which band?
options:
  - {{text: The Nitty Gritty Dirt Band, correct: true, rationale: Correct. He played with it as a teenager.}}
  - {{text: The Byrds, rationale: Incorrect. He never joined it.}}
""", """\
id: rl-quoted-lines
stem: >-
  Which painter wrote the following lines to his brother to describe how he composed a sky, The dark blue sky is
  spotted with clouds of an even darker blue than the fundamental blue of intense cobalt, and others of a lighter
  blue, like the bluish white of the Milky Way?
options:
  - {text: Vincent van Gogh, correct: true, rationale: Correct. He wrote it to Theo.}
  - {text: Henri Matisse, rationale: Incorrect. He had no brother named Theo.}
""", """\
id: rl-quote-from-a-letter
stem: "The following is a quote from a letter believed to have been sent by which man to a news office in London:\\n
  \\nSir I send you half the thing I took from the house and kept for you and the other half I sold in the market
  for a good price and I may send you the knife that cut it if you only wait a while longer."
options:
  - {text: The man the letter was signed for, correct: true, rationale: Correct. It bears his name.}
  - {text: The editor, rationale: Incorrect. He received it.}
""", """\
id: rl-opening-line
stem: "If you really want to hear about it, the first thing you will want to know is where I was born, and what my
  childhood was like, and how my parents were occupied before they had me, but I do not feel like going into it, if
  you want to know the truth.\\nThis novel by an American writer was banned in several states for its language."
options:
  - {text: 'True', correct: true, rationale: Correct. It opens The Catcher in the Rye.}
  - {text: 'False', rationale: Incorrect. It was banned.}
""", """\
id: rl-long-title
stem: >-
  Not only did he sing I Went Back to My Fourth Wife For the Third Time And Gave Her a Second Chance to Make a First
  Class Fool Out of Me on the radio every week but he also wrote a gospel song for his church. Who is he?
options:
  - {text: The first singer, correct: true, rationale: Correct. He recorded both.}
  - {text: The second singer, rationale: Incorrect. He recorded neither.}
""", """\
id: rl-lost-stop-before-to-which
stem: >-
  You need to add the following policies to the policies file: a policy that stores the identity of the user, a
  policy that looks up the cached value and a policy that stores the value for the user To which section should
  you add the policies?
options:
  - {text: The inbound section, correct: true, rationale: Correct. The lookup runs before the back end.}
  - {text: The outbound section, rationale: Incorrect. It runs too late for the lookup.}
""", """\
id: rl-parallel-pieces
stem: >-
  Suppose you can travel from a town M to a town N by 3 buses, from town N to town O by 4 buses, from town O to
  town P by 1 bus and from town P to town Q by 3 buses. In how many ways can you travel from M to Q?
options:
  - {text: '36', correct: true, rationale: Correct. The counts multiply.}
  - {text: '11', rationale: Incorrect. The counts do not add.}
""", f"""\
id: rl-afterthought
stem: >-
  {_AFTERTHOUGHT}
options:
  - {{text: True, correct: true, rationale: Correct. The statue stands in a church on the hill.}}
  - {{text: False, rationale: Incorrect. It was moved after the pope's death.}}
""", f"""\
id: rl-case-study
stem: >-
  Contoso is moving every office to one cloud subscription. {_CASE_STUDY} Which migration tool should Contoso use?
options:
{_KEY}""", f"""\
id: rl-steps-option
stem: >-
  The security team must hear of every template that breaks an internal standard without slowing the developers.
  Which solution meets these requirements?
options:
  - {{text: '{_STEPS}', correct: true, rationale: Correct. The pipeline checks every template before the build.}}
  - {{text: Ask the developers to review each other's templates, rationale: Incorrect. Nobody tells the security team.}}
""", f"""\
id: rl-thirty-seven-words
stem: >-
  {_THIRTY_SEVEN} Which deployment strategy fits?
options:
  - {{text: A canary deployment with automatic rollback, correct: true, rationale: Correct. It shifts traffic in steps.}}
  - {{text: A deployment that replaces every instance at once, rationale: Incorrect. It cannot shift gradually.}}
"""),
    failing=(Invalid(f"""\
id: rl-run-on-lead-in
stem: >-
  The company runs its builds in a separate account. {_RUN_ON_LEAD_IN}
options:
{_KEY}""", field="stem", message="a sentence of 50 words (limit 35, reported above 40)"), Invalid(f"""\
id: rl-long-sentence
stem: >-
  {_LONG_SENTENCE} Which change saves the most?
options:
  - {{text: Buy reserved capacity for the steady base load, correct: true, rationale: Correct. It is the largest line.}}
  - {{text: Stop the nightly export, rationale: Incorrect. Analytics needs it.}}
""", field="stem", message="words (limit 35, reported above 40)"), Invalid("""\
id: rl-long-stem
stem: >-
  Your team maintains the checkout service of an online shop. The service runs in containers on a managed cluster.
  It talks to a payment provider over HTTPS. Last month the provider changed its certificate chain. Two of the
  five replicas kept working. The other three began to fail every payment with a handshake error. The replicas
  were built from the same image. They were started on different days. The cluster runs three node pools. Each
  pool uses a different machine image. The failing replicas all ran on the oldest pool. Restarting them on the same
  pool did not help. Moving one to a newer pool fixed it at once. The security team asks you for the root cause
  before the next release. They also want to know how to prevent a repeat. The release is due on Friday. Your
  manager asks for a short written summary by Thursday. You have read access to the cluster and to the build logs.
  You cannot change the node pools yourself. Your team lead is on holiday this week. The shop runs a sale next
  month. Marketing expects twice the usual traffic on its first day. Last year the sale was the busiest week of the
  year. The team has two new members who joined last month. One of them set up the oldest pool two years ago at
  another company. What is the most likely cause of the failures?
options:
  - {text: The oldest node pool's machine image lacks the provider's new root certificate, correct: true, rationale: Correct. The trust store comes from the node.}
  - {text: The container image has an expired client certificate, rationale: Incorrect. Every replica uses the same image.}
""", field="stem", message="words (limit 200, reported above 230); move background into a shorter scenario"), Invalid(
    "id: rl-options-repeat-the-steps\nstem: In which order does the network deliver the image? (Select one.)\noptions:\n"
    + "".join(f"  - text: '{' '.join(f'Step {n}: {_ORDER[s]}' for n, s in enumerate(order, 1))}'\n"
              + ("    correct: true\n    rationale: Correct. A miss goes to the origin first.\n" if order == (0, 1, 2, 3)
                 else "    rationale: Incorrect. The image is cached only after a miss.\n")
              for order in _ORDERINGS),
    field=("options[0].text", "options[1].text", "options[2].text", "options[3].text"),
    message="words (limit 80, reported above 92); shorten it, or move what the options share into the stem")),
)
