"""option-length: the key is the longest option by a clear margin in a question; natural option lists (names, terms,
numbers, a long distractor) are no cue. Hand-made held-out cases included, written apart from the labelled dev data."""

from __future__ import annotations


import pytest
from helpers import corpus_rows, fired, judged_verdicts
from helpers import question as q

from qlint.model import Question
from qlint.rules import key_length_bias, option_length

STEM = "Why does storing the loss in a list every step make GPU memory grow?"


def test_a_key_longer_than_every_distractor_is_named_with_its_numbers(registry):
    options = [("Each stored loss keeps its autograd graph and its activations alive", True),
               ("The optimizer copies it", False), ("Lists are pinned", False), ("Python leaks", False)]
    (message,) = fired(q(STEM, options), "option-length", registry)
    assert message == ("the key is the longest option by far: 11 words, 2.9x the characters of the longest "
                       "distractor (4 words); length alone points to it")


def test_the_key_must_beat_every_distractor_not_their_median(registry):
    options = [("Each stored loss keeps its autograd graph and its activations alive", True),
               ("The optimizer keeps a copy of every loss on the GPU for its statistics", False),
               ("Lists are pinned", False), ("Python leaks", False)]
    assert fired(q(STEM, options), "option-length", registry) == []


def test_both_margins_are_options(run_cli, write):
    options = [("Each stored loss keeps its autograd graph alive", True), ("The optimizer copies it", False),
               ("Lists are pinned", False)]
    path = write("q.yaml", q(STEM, options))
    assert "option-length" in run_cli("check", path)[1]
    write("qlint.toml", "[rules.option-length]\nkey-ratio = 3\n")
    assert "option-length" not in run_cli("check", path)[1]
    write("qlint.toml", "[rules.option-length]\nmin-extra-words = 5\n")
    assert "option-length" not in run_cli("check", path)[1]


@pytest.mark.parametrize("options", [
    # a long distractor or a stub points to no key
    [("Gradient tracking", True), ("Dropout and the running statistics of batch normalization in every module", False),
     ("Automatic casting", False), ("The allocator", False)],
    # names and titles: a longer title is how titles are
    [("The Lord of the Rings: The Return of the King", True), ("Mystic River", False), ("Seabiscuit", False)],
    # a longer term among terms
    [("Leaky rectified linear unit", True), ("tanh", False), ("GELU", False), ("Swish", False)],
    # numbers, formulas and code
    [("12,345.678 kg", True), ("12 kg", False), ("1 kg", False)],
    [("`loss.detach().cpu().numpy().item()`", True), ("`loss.data`", False), ("`loss.cpu()`", False)],
    # 'None of the above' is not compared, and a key that is one is not judged
    [("None of the above", True), ("A", False), ("B", False)],
], ids=["long-distractor", "titles", "terms", "numbers", "code", "meta"])
def test_no_cue_to_the_key_is_no_finding(options, registry):
    assert fired(q(STEM, options), "option-length", registry) == []


def test_a_statement_among_names_is_a_cue(registry):
    options = [("Carbon dioxide released when fossil fuels burn in power plants", True), ("Nitrogen", False),
               ("Oxygen", False), ("Argon", False)]
    assert fired(q("Which gas drives most of the recent warming?", options), "option-length", registry)


def test_several_keys_must_all_be_the_longest(registry):
    long_keys = [("Pinning host memory so that copies run asynchronously", True),
                 ("Several worker processes that prepare batches in parallel", True),
                 ("Shuffling", False), ("A smaller batch", False)]
    (message,) = fired(q("Which two settings speed up copies? (Select two.)", long_keys, select=2), "option-length",
                       registry)
    assert message.startswith("the 2 keys are the 2 longest options by far")
    one_short = [("Pinning host memory so that copies run asynchronously", True), ("Workers", True),
                 ("Shuffling", False), ("A smaller batch", False)]
    assert fired(q("Which two settings speed up copies? (Select two.)", one_short, select=2), "option-length",
                 registry) == []


def test_among_names_only_a_key_that_is_a_statement_is_a_length_cue(registry):
    # a longer name among names is how the names are; a qualified statement among names is the cue
    long_name = [("Leaky rectified linear", True), ("tanh", False), ("GELU", False), ("ReLU", False)]
    assert fired(q("Which activation keeps a small slope for negative inputs?", long_name),
                 "option-length", registry) == []
    statement = [("A rectifier that keeps a small slope for negative inputs", True), ("tanh", False),
                 ("GELU", False), ("Swish", False)]
    assert fired(q("Which activation suits sparse negative inputs best?", statement), "option-length",
                 registry)
    near_key = [("state-sponsored hackers", True), ("black hat hackers", False), ("hacktivists", False),
                ("competitors", False)]
    assert fired(q("Which attackers have the most resources?", near_key), "option-length", registry) == []


# ---- held-out option lists -----------------------------------------------------------------------------------------

ANY_STEM = "Which one is right?"

EVEN = [
    [("Balance sheet", True), ("Income statement", False), ("Statement of cash flows", False),
     ("Statement of changes in equity", False)],
    [("Statement of changes in equity", True), ("Balance sheet", False), ("Income statement", False),
     ("Statement of cash flows", False)],
    [("Core", True), ("Radiative zone", False), ("Convection zone", False), ("Photosphere", False)],
    [("Standard deviation", True), ("Mean", False), ("Median", False), ("Mode", False)],
    [("Water", True), ("Hydrochloric acid", False), ("Sodium hydroxide", False), ("Acetic acid", False)],
    [("Lungs", False), ("Skin", False), ("Kidneys", False), ("Large intestine", True)],
    [("Magna Carta", True), ("Declaration of Independence", False), ("Bill of Rights", False),
     ("Articles of Confederation", False)],
    [("FIFO", False), ("LIFO", True), ("Weighted average cost", False), ("Specific identification", False)],
    [("Sole proprietorship", False), ("Partnership", False), ("Corporation", True),
     ("Limited liability company", False)],
    [("$1,800", True), ("$600", False), ("$13,800", False), ("$1,890.75", False)],
    [("0.5", False), ("0.25", False), ("0.125", True), ("0.0625", False)],
    [("3x^2 + 2", True), ("3x^2", False), ("x^4/4 + x^2", False), ("3x + 2", False)],
    [("(a + b)(a - b)", True), ("(a - b)^2", False), ("(b - a)^2", False), ("a^2 + b^2", False)],
    [("It recomputes activations", True),
     ("It keeps every intermediate activation on the host in pinned memory buffers", False),
     ("It stores two copies of the optimizer state in separate worker processes", False),
     ("It moves the weights of each layer to local disk between the training steps", False)],
]

UNEVEN = [
    [("Each stored loss still references its autograd graph, so the activations of every step stay allocated "
      "on the GPU until the list is cleared", True), ("The optimizer copies it", False),
     ("Lists are pinned", False), ("Python leaks", False)],
    [("Short-lived credentials", False), ("Least privilege", False), ("Longer key names", False),
     ("Rotating every key by hand each morning before any of the engineers start their work", True)],
    [("It halves the number of parameters while keeping every layer and its accuracy the same", True),
     ("It is faster", False)],
    [("Recompute activations in the backward pass and discard them after the forward pass", True),
     ("Use fp16", False), ("Add GPUs", False), ("Shard data", False)],
    [("Nitrogen", False), ("Oxygen", False), ("Argon", False),
     ("Carbon dioxide released when fossil fuels burn in power plants", True)],
    [("A linked list whose nodes each keep a pointer to the next and previous node", True),
     ("Hash table", False), ("Binary heap", False), ("Trie", False)],
]


# a long or a short distractor is uneven, but it points to no key: a test-wise candidate who picks the longest option
# is wrong here, and one who drops the shortest loses nothing
NO_KEY_CUE = [
    [("Blood pressure", False), ("Heart rate", False),
     ("The ratio of the stroke volume to the end-diastolic volume of the left ventricle, in percent", False),
     ("Cardiac output", True)],
    [("The court will apply the reasonable person standard to the defendant's conduct", True),
     ("Negligence", False), ("A tort claim for battery under the common law of the forum state", False),
     ("The plaintiff wins because the defendant breached the duty of care owed to every visitor", False)],
]


@pytest.mark.parametrize("options", EVEN + NO_KEY_CUE, ids=[f"even-{i}" for i in range(len(EVEN))]
                         + [f"no-key-cue-{i}" for i in range(len(NO_KEY_CUE))])
def test_natural_option_lists_pass(options, registry):
    assert fired(q(ANY_STEM, options), "option-length", registry) == []


@pytest.mark.parametrize("options", UNEVEN, ids=[f"uneven-{i}" for i in range(len(UNEVEN))])
def test_conspicuous_lengths_fire(options, registry):
    assert fired(q(ANY_STEM, options), "option-length", registry)


# --- the margin a reader sees, and the judged items
CAUSE = "A training job on a shared cluster stalls after its first epoch. What is the most likely cause?"
KEY = ("The data loader forks its worker processes after the CUDA context exists, so every worker deadlocks on the "
       "first batch it tries to pin to memory, and the epoch never ends")


def test_a_long_qualified_key_among_three_short_distractors_is_a_cue(registry):
    options = [("Each stored loss still references its autograd graph, so every step's activations stay allocated",
                True), ("The optimizer copies it", False), ("Lists are pinned", False), ("Python leaks memory", False)]
    (message,) = fired(q(STEM, options), "option-length", registry)
    assert message == ("the key is the longest option by far: 14 words, 4.2x the characters of the longest "
                       "distractor (4 words); length alone points to it")


@pytest.mark.parametrize("options", [
    # 1.9x the characters but one word more: longer words, not more said
    [("Gradient accumulation over microbatches", True), ("Larger learning rates", False), ("Mixed precision", False)],
    # 1.7x the characters and 3 more words, but 13 words against 10 is no lead in what is said
    [("Several of the background workers on the cluster handle the two nightly queues", True),
     ("Any queue is handled by worker A or by B", False), ("Workers C and D handle only one queue each", False),
     ("No queue is handled by A, C or D at all", False)],
    # 2 more words, 20 more characters: a reader hardly notices
    [("must hold at least one hundred units of toxoid", True), ("is a toxoid", False),
     ("does not protect against the germ", False), ("is compulsory here", False)],
], ids=["letters-not-words", "words-ratio", "two-more-words"])
def test_a_slightly_longer_key_is_no_cue(options, registry):
    assert fired(q(STEM, options), "option-length", registry) == []


@pytest.mark.parametrize("options", [
    # a longer name among names: what it names is longer
    [("Elastic Load Balancer access logs", True), ("Auto Scaling logs", False), ("CloudTrail logs", False),
     ("Instance logs", False)],
    [("An astronaut on the moon", True), ("A logo", False), ("A note", False), ("A star", False)],
    [("The festival of San Fermin", True), ("Semana Santa", False), ("La Tomatina", False), ("Las Fallas", False)],
], ids=["log-source", "object", "festival"])
def test_a_longer_name_or_term_among_names_is_no_cue(options, registry):
    assert fired(q("Where is it recorded, or what is it?", options), "option-length", registry) == []


def test_among_long_sentences_the_lead_is_measured_against_the_distractors_spread(registry):
    # every distractor is a sentence of 14 words or more, and they already differ by 53 characters: a key 34 longer
    # than the longest is one more step, not a cue
    staircase = [(KEY.replace(" to memory", ""), True),
                 ("The learning rate schedule decays to zero at the end of the first epoch, so every later step "
                  "leaves the weights where they are", False),
                 ("The checkpoint written after the first epoch fills the shared disk, and the job waits for space",
                  False),
                 ("The validation pass after the first epoch runs on the CPU and takes hours", False)]
    assert fired(q(CAUSE, staircase), "option-length", registry) == []
    # the same key over distractors alike in length stands out
    alike = [(KEY, True), ("The learning rate decays to zero at the end of the first epoch, so later steps change "
                           "nothing", False),
             ("The checkpoint written after the first epoch fills the shared disk, and the job waits", False),
             ("The validation pass after the first epoch runs on the CPU and takes a few hours", False)]
    (message,) = fired(q(CAUSE, alike), "option-length", registry)
    assert message.startswith("the key is the longest option by far: 31 words, 1.8x the characters")


def test_a_denial_among_names_is_none_of_these_in_words(registry):
    names = [("It is not guaranteed by any amendment in so many words", True), ("The Fourteenth", False),
             ("The Fifteenth", False), ("The Second", False)]
    assert fired(q("Which amendment guarantees the right to privacy?", names), "option-length", registry) == []
    # among statements a long denial is judged as any key
    statements = [("It is not possible to resize the volume while the instance keeps running", True),
                  ("Stop the instance first", False), ("Use a snapshot", False), ("Detach the volume", False)]
    assert fired(q("How do you grow the root volume?", statements), "option-length", registry)


def test_quoted_words_have_the_length_of_their_source(registry):
    options = [("or you just may end up in my next song", True), ("I love you", False), ("we are in love", False),
               ("I need you", False)]
    assert fired(q("Complete the lyrics: 'Please don't say tomorrow if you don't mean it ...'", options),
                 "option-length", registry) == []
    assert fired(q("What did the singer warn the listener about?", options), "option-length", registry)


def test_several_keys_clear_the_extra_length_on_average_and_the_ratios_each(registry):
    stem = "Which two settings make copies to the GPU faster? (Select two.)"
    # the shorter key has only two more words than the wordiest distractor, the other many more
    keys = [("Pinned memory for host buffers", True),
            ("Several worker processes that prepare the next batches in parallel while the GPU computes", True),
            ("Shuffling", False), ("A smaller batch", False)]
    (message,) = fired(q(stem, keys, select=2), "option-length", registry)
    assert message.startswith("the 2 keys are the 2 longest options by far: each at least 2.0x")
    # a key that is not itself clearly longer than every distractor spoils the cue
    keys[0] = ("Pinned host buffers", True)
    assert fired(q(stem, keys, select=2), "option-length", registry) == []


def test_the_new_margins_are_options(run_cli, write):
    options = [("Each stored loss keeps its autograd graph alive", True), ("The optimizer copies it", False),
               ("Lists are pinned", False)]
    path = write("q.yaml", q(STEM, options))
    assert "option-length" in run_cli("check", path)[1]
    write("qlint.toml", "[rules.option-length]\nmin-extra-chars = 40\n")
    assert "option-length" not in run_cli("check", path)[1]
    write("qlint.toml", "[rules.option-length]\nkey-word-ratio = 2.5\n")
    assert "option-length" not in run_cli("check", path)[1]
    cause = write("long.yaml", q(CAUSE, [(KEY, True), ("The learning rate decays to zero at the end of the first "
                                                      "epoch, so later steps change nothing", False),
                                         ("The checkpoint written after the first epoch fills the shared disk, and "
                                          "the job waits", False)]))
    write("qlint.toml", "[rules.option-length]\n")
    assert "option-length" in run_cli("check", cause)[1]
    write("qlint.toml", "[rules.option-length]\nlong-spread = 20\n")
    assert "option-length" not in run_cli("check", cause)[1]


# ---- the judged findings on the real banks ------------------------------------------------------------------------

def _fires(row: dict, qid: str) -> bool:
    options = [{"text": o["text"], **({"correct": True} if o.get("correct") else {})} for o in row["options"]]
    select = {"select": row["select"]} if row.get("select", 1) not in (0, 1) else {}
    question = Question.model_validate({"id": qid, "stem": row["stem"], "options": options, **select})
    return bool(list(option_length.check(question, option_length.Options())))


@pytest.mark.slow  # reads four of the six corpora, OpenTriviaQA's 50,000 questions among them
def test_the_judged_flaws_still_fire_and_the_judged_findings_that_fire_are_mostly_flaws():
    # every verdict, the items the rule was studied on and the fresh sample that measured it: a change may trade
    # a few findings, but it may not lose the judged flaws or let the judged non-flaws back in
    verdicts = judged_verdicts("option-length")
    rows = {name: corpus_rows(name) for name in {v["corpus"] for v in verdicts}}
    fires = {v["id"]: _fires(rows[v["corpus"]][int(v["id"].rsplit("-", 1)[1]) - 1], v["id"]) for v in verdicts}
    flaws = [v["id"] for v in verdicts if v["verdict"] == "flaw"]
    others = [v["id"] for v in verdicts if v["verdict"] != "flaw"]
    firing_flaws, firing_others = sum(fires[i] for i in flaws), sum(fires[i] for i in others)
    assert len(flaws) >= 80 and firing_flaws >= 0.95 * len(flaws), [i for i in flaws if not fires[i]]
    assert firing_flaws / (firing_flaws + firing_others) >= 0.90, [i for i in others if fires[i]]


# ---- key-length-bias counts only options that have a length to compare ---------------------------------------------

def test_the_bank_habit_counts_no_question_whose_options_are_numbers_or_code():
    def longest(options: list[tuple[str, bool]]) -> int:
        question = Question.model_validate({"id": "x", "stem": "What does the program print?",
                                            "options": [{"text": t, "correct": k} for t, k in options]})
        return key_length_bias.extract(question, key_length_bias.Options()).longest

    prose = [("It fails to compile because the declaration is ambiguous", True), ("It prints five", False),
             ("It prints ten", False)]
    assert longest(prose) == 0
    assert longest([("It fails to compile because the declaration is ambiguous", True), ("5", False),
                    ("10", False)]) == -1
    assert longest([("It fails to compile because the declaration is ambiguous", True), ("`x.grad`", False),
                    ("`x.data`", False)]) == -1


# ---- lengths that are the material's, and keys that are two plain statements ------------------------------------

def test_specimen_sentences_have_the_length_of_the_examples(registry):
    options = [("Preparing the report for the review board and for possible publication in the journal, was the "
                "hardest task of his year", True), ("To stay fit for the season, athletes train every day", False),
               ("The evidence was strong. Still, some doubted it", False), ("After the adjustment, wages fell", False)]
    assert fired(q("Which of the following sentences uses a comma wrongly?", options), "option-length", registry) == []
    assert fired(q("What did the auditor write in her report?", options), "option-length", registry)


def test_matched_pairs_and_formulas_have_the_length_of_their_material(registry):
    pairs = [("Aladdin - a lamp", False), ("The Little Mermaid - a key with drops of blood on it", True),
             ("Snow White - a mirror", False), ("The Wild Swans - nettle shirts", False)]
    assert fired(q("Which object is not matched with its tale?", pairs), "option-length", registry) == []
    formulas = [("$x-5$ is a factor of $p(x)$", False), ("$x-2$ is a factor of $p(x)$", False),
                ("The remainder when $p(x)$ is divided by $x-3$ is $-2$", True)]
    assert fired(q("Given $p(3) = -2$, which must be true?", formulas), "option-length", registry) == []


def test_a_conditional_key_is_a_cue_only_when_a_clause_is_longer_than_the_distractors(registry):
    stem = "Player 6 plays the final. What must be true?"
    short = [("If player 4 has healed, then his form is not good", True), ("Player 4 is badly injured", False),
             ("Player 4's form is not good", False), ("Player 6 is not injured", False)]
    assert fired(q(stem, short), "option-length", registry) == []
    qualified = [("If player 4 has healed after the long rest the coach ordered in March, then his form is not "
                  "good", True)] + short[1:]
    assert fired(q(stem, qualified), "option-length", registry)


def test_two_statements_joined_count_as_two_only_in_the_distractors_frame(registry):
    stem = "Some people are clever and some are wise, but no one is both. Which cannot be true?"
    framed = [("No one is clever but unwise, and no one is wise but dull", True),
              ("Most people are clever and wise", False), ("No one is clever and wise", False),
              ("Most people are neither", False)]
    assert fired(q(stem, framed), "option-length", registry) == []
    unframed = [("Cleverness is common among scholars, and wisdom comes only with long age", True)] + framed[1:]
    assert fired(q(stem, unframed), "option-length", registry)


def test_a_ladder_of_distractors_makes_a_longer_key_one_more_step(registry):
    ladder = [("The mathematician was a student of a student of Paul Erdős", False),
              ("The mathematician was a student of Paul Erdős", False),
              ("The mathematician wrote a paper with someone who once wrote an academic paper with Paul Erdős", True),
              ("The mathematician wrote a paper with Paul Erdős", False)]
    assert fired(q("What does an Erdős number of 2 mean?", ladder), "option-length", registry) == []
    ladder[0] = ("The mathematician taught at the same university as Paul Erdős", False)
    assert fired(q("What does an Erdős number of 2 mean?", ladder), "option-length", registry)
    # a distractor that adds words of its own to another is no ladder: the key's qualifier still stands out
    ladder[0] = ("The mathematician was a student and friend of Paul Erdős", False)
    assert fired(q("What does an Erdős number of 2 mean?", ladder), "option-length", registry)


def test_a_denial_anywhere_in_a_key_among_names_is_none_of_these(registry):
    cities = [("Brussels", False), ("Strasbourg", False), ("Luxembourg", False),
              ("The Union has no official capital", True)]
    assert fired(q("What city is the capital of the European Union?", cities), "option-length", registry) == []
    # a negation inside a clause of a qualified key is no denial of the question
    terms = [("Components that don't need to be declared in any module", True), ("Standalone parts", False),
             ("Independent components", False), ("Isolated components", False)]
    assert fired(q("What are standalone components?", terms), "option-length", registry)


def test_a_species_counts_once_by_its_genus(registry):
    stem = "Which of these does not apply to amoxicillin?"
    options = [("It is an aminopenicillin", False), ("It is the drug of choice against Pseudomonas aeruginosa", True),
               ("It is active by mouth", False), ("It can cause allergic reactions", False)]
    assert fired(q(stem, options), "option-length", registry) == []
    options[1] = ("It is the drug of choice against every strain of the hospital germs", True)
    assert fired(q(stem, options), "option-length", registry)


def test_a_number_that_stands_alone_is_a_word_a_reader_reads(registry):
    stem = "Which parameter tells you how fast an oral form reaches the blood?"
    options = [("Delays before plasma concentrations reach their peaks", True), ("The 1/2 life of elimination", False),
               ("The 1/2 life of distribution", False)]
    assert fired(q(stem, options), "option-length", registry) == []
    without = [options[0], ("The life of elimination", False), ("The life of distribution", False)]
    assert fired(q(stem, without), "option-length", registry)
