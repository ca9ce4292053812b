"""reading-level: the limits an author can act on (a sentence's, a stem's, an option's words, a passage held to its own
bound), and the false-alarm classes judged on real banks (quoted material, lists, a lost full stop)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from helpers import corpus_rows, judged_verdicts, lint_text
from helpers import question as q
from pydantic import ValidationError

from qlint.language.readability import restated_words, sentences
from qlint.model import Question
from qlint.rules import reading_level

KEY = [("The cache", True), ("The disk", False), ("The network", False)]


def _words(n: int, word: str = "word") -> str:
    return " ".join([word] * n)


def qq(stem: str, options: list[tuple[str, bool]]) -> str:
    """A question whose stem may hold line breaks and blank lines (written as a double-quoted YAML string)."""
    return q("STEM", options).replace("'STEM'", json.dumps(stem), 1)


def _fired(text: str, registry, rule: str = "reading-level"):
    return [f for f in lint_text(text, registry) if f.rule == rule]


def test_a_long_sentence_is_named_with_its_words_and_its_start(registry):
    long_sentence = ("When the nightly job that copies every table of the reporting database into the analytics "
                     "bucket runs at the same time as the backup that the operations team scheduled last year for "
                     "the same window, which of the two jobs should move?")
    (finding,) = _fired(q("The jobs overlap. " + long_sentence, KEY), registry)
    assert str(finding.severity) == "warning" and finding.field == "stem"
    assert finding.message.startswith("a sentence of 42 words (limit 35, reported above 40): \"When the nightly job")


def test_a_long_stem_is_reported_with_its_words(registry):
    stem = " ".join(f"Fact number {i} holds." for i in range(60)) + " Which fact matters?"
    (finding,) = _fired(q(stem, KEY), registry)
    assert "the stem has 243 words (limit 200, reported above 230)" in finding.message


def test_six_hundred_thousand_words_are_a_finding(registry):
    text = q(_words(600_000), KEY)
    messages = sorted(f.message for f in _fired(text, registry))
    assert messages[0].startswith("a sentence of 600,000 words") and "the stem has 600,000 words" in messages[1]


def test_a_passage_is_held_to_its_own_bound_not_to_the_stem_limits(registry):
    passage = " ".join(["The long sentence of the passage goes on and on about the railway, the valley, the farmers, "
                        "the merchants and the towns that grew up around the stations as the years went by."] * 3)
    clean = qq(f"{passage}\n\nAccording to the passage, what grew around the stations?", KEY)
    assert _fired(clean, registry) == []
    huge = qq(f"{passage * 20}\n\nAccording to the passage, what grew around the stations?", KEY)
    assert [f.message.split(" (")[0] for f in _fired(huge, registry)] == [
        "the passage before the question has 1,980 words"]


def test_a_question_set_apart_below_its_material_leaves_the_material_to_the_passage_bound(registry):
    """A judged false-alarm class: a logic game's rules, an argument, a stimulus above a one-line question are the
    material the question asks about, not the writer's sentence, even when the question does not say 'the passage'."""
    stimulus = ("The media has been full of gossip about a celebrity, and if she does not come forward to refute it "
                "the rumours will be believed by the public, while if she does come forward her denial will draw "
                "more attention to the story and make it spread faster and wider than before.")
    assert _fired(qq(stimulus + "\n\nWhich of the following lists is an acceptable first team?", KEY), registry) == []
    # the same words with no question set apart are one long stem and one long sentence
    assert _fired(q(stimulus + " Which of the following lists is an acceptable first team?", KEY), registry)


def test_quoted_material_a_semicolon_list_and_a_lost_full_stop_are_not_one_long_sentence(registry):
    """Judged false-alarm classes: lyrics or a quotation the question asks about are read as one thing; clauses a
    semicolon joins are read one at a time; a full stop lost before 'The', 'However', 'What' ... ends a sentence."""
    lyrics = ("What song are these lyrics from: under a lovers sky I am going to be with you and no one is going "
              "to be around if you think that you will not fall well just wait until the sun goes down underneath "
              "the starlight there is a magical feeling so right it will steal your heart tonight")
    quoted = ("Which novel holds this line: \u201cit is an illusion that youth is happy, an illusion of those who "
              "have lost it, but the young know they are wretched for they are full of the truthless ideals which "
              "have been instilled into them and each time they meet the real they are bruised\u201d?")
    requirements = ("Requirements are: workers take and process messages as capacity permits; a worker that fails "
                    "leaves its message for another to resume; the solution keeps a central log of every message "
                    "processed on the server side; and nothing is lost. Which service should you use?")
    lost = ("Your department creates analytics reports from the company's log files All log data is collected in "
            "a bucket and processed by daily jobs that generate reports and aggregated tables in a data warehouse every "
            "night for the finance team "
            "However the team wants lower costs. Which change lowers costs?")
    for stem in (lyrics, quoted, requirements, lost):
        assert _fired(qq(stem, KEY), registry) == [], stem
    # a run-on sentence of the writer's own, with none of these, is still one
    run_on = lost.replace(" All log", " and all log").replace(" However the", " while the")
    assert _fired(qq(run_on, KEY), registry)


def test_the_items_of_a_list_count_as_a_word_each(registry):
    """A judged false-alarm class: a sentence long only because it lists song titles is read a title at a time.
    A sentence of the writer's own clauses, commas and all, is still long."""
    titles = ("This artist made his debut in 1981 with Unwound and had number one hits in the 1990s with Love "
              "Without End, Amen, I Have Come to Expect It From You, I Cross My Heart, You Cannot Make a Heart Love "
              "Somebody, Blue Clear Sky, Carried Away, One Night At a Time, and Round About Way. Who is he?")
    assert _fired(qq(titles, KEY), registry) == []
    # a title of up to ten words, a film's name inside it ("Somebodys Baby for the Fast Times at Ridgemont High ...")
    hits = ("This singer, the popular songwriter responsible for the hits Doctor My Eyes, Somebodys Baby for the Fast "
            "Times at Ridgemont High soundtrack, Running on Empty, and Take It Easy for the Eagles, was once a member of "
            "what country rock band?")
    assert _fired(qq(hits, KEY), registry) == []
    clauses = ("This 1999 movie, based on a best selling novel by a writer from Wisconsin, stars an actress as a "
               "mother whose youngest son is taken by a woman who raises him as her own for nine years, until he "
               "happens to show up at his real family's door, asking if they need their lawn mowed. Which movie?")
    (finding,) = _fired(qq(clauses, KEY), registry)
    assert finding.message.startswith("a sentence of 55 words")


def test_a_long_option_that_repeats_another_is_reported_on_the_option(registry):
    shared = " ".join(f"step {n} runs" for n in range(33))
    options = [(shared + " first.", True), (shared + " last.", False), ("A short one", False)]
    found = _fired(q("Which plan works?", options), registry)
    assert [f.field for f in found] == ["options[0].text", "options[1].text"]
    assert "option 1 has 100 words (limit 80, reported above 92)" in found[0].message
    # the same length in an option all its own is as long as the plan it proposes
    assert _fired(q("Which plan works?", [(shared + " first.", True), ("A short one", False)]), registry) == []


def test_code_is_not_counted(registry):
    stem = "What does this print?\n\n```python\n" + "x = 1\n" * 400 + "print(x)\n```"
    assert _fired(qq(stem, KEY), registry) == []


def test_limits_are_options_and_the_old_grade_options_say_where_they_went(run_cli, write):
    path = write("q.yaml", q("One two three four five six seven eight nine ten eleven.", KEY))
    write("qlint.toml", "[rules.reading-level]\nmax-sentence-words = 10\ntolerance = 0\n")
    assert "a sentence of 11 words (limit 10)" in run_cli("check", path)[1]
    write("qlint.toml", "[rules.reading-level]\nmax-grade = 12\n")
    code, _, err = run_cli("check", path)
    assert code == 2 and "max-grade moved to the reading-grade rule" in err


# --- read as a bank rule: shared setups, tolerance, lost full stops
CASE = ("Contoso is a consulting firm with a main office in Montreal and branch offices in Seattle and New York, and it "
        "hosts every server it runs in one cloud subscription that the central IT team manages on behalf of all three "
        "offices and of the partners who work with them on projects. The firm plans to move its file shares to managed "
        "storage.")


def bank(*stems: str) -> str:
    """A bank of one question per stem (written as double-quoted YAML strings)."""
    lines = ["questions:"]
    for number, stem in enumerate(stems, 1):
        lines += [f"  - id: q{number}", f"    stem: {json.dumps(stem)}", "    options:",
                  "      - {text: The first, correct: true, rationale: Correct. It fits.}",
                  "      - {text: The second, rationale: Incorrect. It does not fit.}"]
    return "\n".join(lines) + "\n"


def fired(text: str, registry, options: dict | None = None) -> list[tuple[str | None, str]]:
    found = lint_text(text, registry, options={"reading-level": options} if options else None)
    return [(f.question, f.message) for f in found if f.rule == "reading-level"]


def test_a_case_study_two_questions_share_is_their_passage(registry):
    alone = fired(bank(CASE + " Which storage service should the firm use?"), registry)
    assert [m.split(" (")[0] for _, m in alone] == ["a sentence of 52 words"]
    shared = bank(CASE + " Which storage service should the firm use?",
                  CASE + " How should the firm copy the shares without stopping work?",
                  "Which port does HTTPS use by default?")
    assert fired(shared, registry) == []


def test_the_lead_in_of_a_shared_setup_is_still_held_to_the_limit(registry):
    run_on = ("If the firm moves the shares of all three offices in one weekend and the partners keep writing to them "
              "from their own networks during the move, which service lets the firm copy every change made during "
              "the weekend without asking the partners to stop?")
    found = fired(bank(CASE + " " + run_on, CASE + " Which storage service should the firm use?"), registry)
    assert [(q, m.split(":")[0]) for q, m in found] == [("q1", "a sentence of 45 words (limit 35, reported above 40)")]


def test_the_same_stem_twice_is_not_a_shared_setup(registry):
    """Two copies of one question are a duplicate (near-duplicate-stem's business), not a case study: each copy is
    still read alone."""
    stem = CASE + " Which storage service should the firm use?"
    assert [q for q, _ in fired(bank(stem, stem), registry)] == ["q1", "q2"]


def test_a_sentence_barely_over_the_limit_is_not_reported(registry):
    def sentence(n: int) -> str:
        return " ".join(["word"] * (n - 1)) + " end?"
    assert fired(bank(sentence(37)), registry) == []
    assert fired(bank(sentence(40)), registry) == []
    (finding,) = fired(bank(sentence(41)), registry)
    assert finding[1].startswith("a sentence of 41 words (limit 35, reported above 40)")
    (finding,) = fired(bank(sentence(37)), registry, {"tolerance": 0})
    assert finding[1].startswith("a sentence of 37 words (limit 35):")


@pytest.mark.parametrize("text, parts", [
    ("You are running out of processing power in your mix, Besides printing the track, how can you save power?",
     ["You are running out of processing power in your mix,", "Besides printing the track, how can you save power?"]),
    ("A company uses a bucket to store reports Management has mandated that every object is encrypted.",
     ["A company uses a bucket to store reports", "Management has mandated that every object is encrypted."]),
    ("Instances are used as batch processors Cloud Watch monitors the number of queued jobs.",
     ["Instances are used as batch processors", "Cloud Watch monitors the number of queued jobs."]),
    # a name inside a sentence stays in it: after a word that takes a name, or with no verb after it
    ("The team at Google has released a tool that the company uses Kubernetes to run.",
     ["The team at Google has released a tool that the company uses Kubernetes to run."]),
])
def test_a_lost_full_stop_ends_a_sentence(text, parts):
    assert [text[s.start:s.end] for s in sentences(text)] == parts


def test_a_question_that_restates_a_condition_refers_to_it():
    stem = ("Exactly six photographers are available. If Knutson is not assigned to the Thorne ceremony, then both "
            "Heideck and Mays must be assigned to it. Which one of the following, if substituted for the constraint "
            "that if Knutson is not assigned to the Thorne ceremony, then both Heideck and Mays must be assigned to "
            "it, would have the same effect?")
    last = sentences(stem)[-1]
    assert last.words == 35 and restated_words(stem, last, last.start) == 19 - 1
    # the writer's own words, with nothing repeated, count in full
    fresh = "Which one of the following would have the same effect on the assignment of the photographers?"
    assert restated_words(stem + " " + fresh, sentences(stem + " " + fresh)[-1], len(stem)) == 0


def test_a_logic_game_restating_a_condition_in_its_question_is_not_reported(registry):
    setup = ("The manager must assign photographers to two ceremonies. The following constraints apply: Frost must be "
             "assigned together with Heideck. If Knutson is not assigned to the Thorne University ceremony, then both "
             "Heideck and Mays must be assigned to it.")
    question = ("Which one of the following, if substituted for the constraint that if Knutson is not assigned to the "
                "Thorne University ceremony, then both Heideck and Mays must be assigned to it, would have the same "
                "effect in determining the assignment of photographers to the graduation ceremonies?")
    assert fired(bank(setup + "\n\n" + question), registry) == []
    # the same question with its own words in place of the restated condition is one long sentence
    padded = question.replace("the constraint that if Knutson is not assigned to the Thorne University ceremony, then "
                              "both Heideck and Mays must be assigned to it", "the rule about Knutson that the "
                              "manager wrote down first for the two ceremonies of the two universities this spring")
    assert fired(bank(setup + "\n\n" + padded), registry)


def test_a_cached_feature_of_another_shape_is_refused():
    good = reading_level.encode([[[["stem", "a sentence"]], None, None, None, [41, 60, 0], None],
                                 [[], [["stem", "x"]], 7, 9, [50, 70, 0], [12, 12, 58]], [[], None, None, None, None, None]])
    assert json.loads(json.dumps(reading_level.decode(good, 3))) == good
    assert reading_level.decode(good, 3)[2] is reading_level.NOTHING   # one for all the questions with nothing
    for bad in ([[[["stem"]], None, None, None, None, None]], [[[], [["stem", "x"]], "digest", 1, None, [1, 1, 1]]],
                [[[], [["stem", "x"]], 7, 9, None, None]], [[[], None, None, None, [1, -1, 0], None]],
                [[[], None, None, None, None, [1, 1, 1]]], [[[], None]], {"a": 1}):
        with pytest.raises(ValueError):
            reading_level.decode(bad, 1)


def test_the_sentences_a_stem_says_it_quotes_are_its_material(registry):
    """A judged false-alarm class: the quotation a question asks about is not the writer's sentence, also when the
    stem marks it with words ('who said this?', 'these lyrics') instead of quotation marks."""
    quote = ("I love you in a really big way and I will pretend to like your taste in music and let you eat the last "
             "piece of cake and hold the remote control as long as you want to because that is what friends do.")
    assert fired(bank(quote + " Who said this?"), registry) == []
    # the same words as the writer's own sentence, with no word of quoting, are one long sentence
    assert fired(bank(quote + " Which friend is kind?"), registry)


def test_a_quotation_without_quotation_marks_is_the_material_its_stem_introduces(registry):
    """A judged false-alarm class: lyrics, a letter, a novel's opening line the question asks about are material
    even when the bank lost their quotation marks: after 'the following lines' and a capital, after 'is a quote
    from ...:', and on a line apart from one that names 'this novel'."""
    lines = ("the dark blue sky is spotted with clouds of an even darker blue than the fundamental blue of intense "
             "cobalt, and others of a lighter blue, like the bluish white of the Milky Way")
    assert fired(bank(f"Which painter wrote the following lines to his brother, {lines[0].upper()}{lines[1:]}?"),
                 registry) == []
    # the same words as the writer's own clause, with no word of quoting, are one long sentence
    assert fired(bank(f"Which painter wrote in a letter to his brother that {lines}?"), registry)
    letter = ("Sir I send you half the thing I took from the house and kept for you and the other half I sold in the "
              "market for a good price and I may send you the knife that cut it if you wait a while longer.")
    assert fired(bank(f"The following is a quote from a letter sent by which man:\n\n{letter}"), registry) == []
    assert fired(bank(f"Which man sent a letter to the office?\n\n{letter}"), registry)
    opening = ("If you really want to hear about it, the first thing you will want to know is where I was born, and "
               "what my childhood was like, and how my parents were occupied before they had me, but I do not feel "
               "like going into it.")
    assert fired(bank(f"{opening}\nThis novel was banned in several states."), registry) == []
    assert fired(bank(f"{opening} This novel was banned in several states."), registry)


def test_a_quotation_after_a_word_of_saying_or_cited_with_its_year_is_material(registry):
    """A judged false-alarm class: the words of a speaker the question asks about, with no quotation marks, after
    'said the following?' on a line of their own, after 'stated,' and a capital, or a line a trivia bank cites with
    its film's year, '(1996)', and asks nothing else about."""
    words = ("the need for truth and wisdom and world peace pales in comparison to the need for toothpaste that "
             "offers white teeth and fresher breath to every one of us who watches it every night")
    assert fired(bank(f"What character said the following?\nMy petition and my request is this:If {words}, let them come to the banquet tomorrow."), registry) == []
    assert fired(bank(f"This writer from Florida stated, Another source of guidance is television, but {words}."),
                 registry) == []
    line = (f"I will not rest until I have you holding a drink and wearing your own shoe, and {words}, and I will "
            "not sleep until it happens.")
    assert fired(bank(f"{line} (1996)"), registry) == []
    # the same words as the writer's own: a question after them, no word of saying, or a year that is not a citation
    assert fired(bank(f"What character asked for this?\nMy petition and my request is this:If {words}, let them come to the banquet tomorrow."), registry)
    assert fired(bank(f"This writer from Florida noted that television, but {words}."), registry)
    assert fired(bank(f"{line} In which year (1996)?"), registry)


def test_a_long_title_is_one_name_but_a_run_of_names_is_not(registry):
    """A judged false-alarm class: a song's title in title case is read as one name; names joined by prepositions
    ('Judge Harold Harley from the Marin County Hall of Justice') have no word only a title capitalises."""
    title = "I Went Back to My Fourth Wife For the Third Time And Gave Her a Second Chance to Make a First Class Fool"
    tail = "on the radio every week of the year but he also wrote a gospel song for the church. Who is he?"
    assert fired(bank(f"Not only did he sing {title} {tail}"), registry) == []
    assert fired(bank(f"Not only did he sing {title.lower()} {tail}"), registry)
    assert fired(bank("What woman became the third woman on the list of the most wanted on a day in the summer of "
                      "that year when she went on the run after her part in the kidnapping and murder of Judge "
                      "Harold Harley from the Marin County Hall of Justice?"), registry)


def test_a_lost_full_stop_before_a_capitalised_preposition_and_a_question_word_ends_a_sentence(registry):
    """A judged false-alarm class: '... the user profile information To which policy section ...' is two sentences
    whose full stop was lost; a title that opens with a preposition ('the film In Which We Serve') is not."""
    setup = ("You need to add the following policies to the policies file: a policy that stores the identity of the "
             "user, a policy that looks up the cached value and a policy that stores the value for the "
             "user")
    assert fired(bank(f"{setup} To which section should you add the policies?"), registry) == []
    assert fired(bank(f"{setup} to which section of the file you add them?"), registry)
    title = [s.words for s in sentences("They met in the film In Which We Serve and in which town?")]
    assert title == [13]


def test_parallel_pieces_that_open_with_the_same_word_are_a_list(registry):
    """A judged debatable class: legs of a journey in parallel ('from N to O by 4 buses, from O to P ...') read one
    at a time, as a list's items do; the same words without the parallel openings are one long sentence."""
    legs = ("from a town M to a town N by 3 buses, from town N to town O by 4 buses, from town O to town P by 1 bus "
            "and from town P to town Q by 3 buses")
    assert fired(bank(f"Suppose you can travel {legs}. In how many ways can you travel from M to Q?"), registry) == []
    mixed = legs.replace(", from town N", ", then town N").replace(" and from town P", " and after that town P")
    assert fired(bank(f"Suppose you can travel {mixed}. In how many ways can you travel from M to Q?"), registry)


# ---- the judged findings on the real banks ------------------------------------------------------------------------

def _reported(name: str) -> set[str]:
    """The ids of a corpus's questions reading-level reports, read as one bank (a shared setup needs its peers)."""
    options, items = reading_level.Options(), []
    for line, row in enumerate(corpus_rows(name), 1):
        qid = f"{name}-{line:06d}"
        select = {"select": row["select"]} if row.get("select", 1) not in (0, 1) else {}
        try:
            question = Question.model_validate({"id": qid, "stem": row["stem"], **select, "options": [
                {"text": o["text"], **({"correct": True} if o.get("correct") else {})} for o in row["options"]]})
        except ValidationError:
            continue   # a question the schema refuses is not read by the bank rules either
        items.append(SimpleNamespace(id=qid, features={reading_level.RULE.name: reading_level.extract(question,
                                                                                                      options)}))
    return {v.item.id for v in reading_level.check(items, options, reading_level.survey(items, options))}


@pytest.mark.slow  # reads four of the six corpora, OpenTriviaQA's 50,000 questions among them
def test_the_judged_flaws_still_fire_and_the_judged_findings_that_fire_are_mostly_flaws():
    # every verdict on the real banks: a change may trade a few findings, but it may not lose the judged flaws or let
    # the judged non-flaws (passages, formulas' legends, case studies, quotations) back in, in any corpus
    verdicts = judged_verdicts("reading-level")
    reported = set().union(*(_reported(name) for name in {v["corpus"] for v in verdicts}))
    flaws = [v["id"] for v in verdicts if v["verdict"] == "flaw"]
    assert len(flaws) >= 39 and sum(i in reported for i in flaws) >= 0.95 * len(flaws), \
        [i for i in flaws if i not in reported]
    for corpus in sorted({v["corpus"] for v in verdicts}):
        firing = [v for v in verdicts if v["corpus"] == corpus and v["id"] in reported]
        right = sum(v["verdict"] == "flaw" for v in firing)
        assert right >= FLOORS.get(corpus, 1.0) * len(firing), [v["id"] for v in firing if v["verdict"] != "flaw"]


# judged precision per corpus, a margin under what the rule reaches (the rule must not let judged non-flaws back in);
# OpenTriviaQA's every finding is judged (0.81 on the 42 that still fire once quotations after a word of saying and
# lines cited with their year are material)
FLOORS = {"ditectrev-cloud-exams": 0.80, "opentriviaqa": 0.78, "agieval-en": 0.65, "linkedin-skill-assessments": 0.75}
