"""reading-level on stems and options shaped to make it cost the square of their size: a stem of hundreds of long
sentences, a quoting stem of thousands of lines, hundreds of long options that share their words. Each took seconds
to minutes for one question before (outside any time budget: it is a bank rule's per-question feature); each bound
is this process's CPU time (a busy machine cannot trip it) and many times what the linear code needs."""
from __future__ import annotations

from helpers import cpu_seconds, model_question

from qlint.rules import reading_level

BOUND = 5.0   # seconds of CPU; the linear code takes well under one
DEFAULT_OPTIONS = ["Option one here", "Option two here"]


def _sentence(i: int, words: int = 60) -> str:
    return " ".join(f"w{i}x{j}" for j in range(words)) + "."


def test_a_stem_of_hundreds_of_long_sentences_is_measured_in_linear_time():
    # each sentence over the limit was compared with a table of the whole text before it, made again for each
    stem = "Which one is right? " + " ".join(_sentence(i) for i in range(400))
    question = model_question(DEFAULT_OPTIONS, stem)
    seconds, _ = cpu_seconds(lambda: reading_level.extract(question, reading_level.Options()))
    assert seconds < BOUND


def test_a_quoting_stem_of_thousands_of_lines_is_measured_in_linear_time():
    # sentences were looked for in lists of sentences, and each line compared with every line naming "this novel"
    stem = "Which one is right?\n" + "\n".join(
        f"In this novel line {i} is here and it goes on a while." if i % 2 else f"The line {i} goes on and on here."
        for i in range(3200))
    quote = "Which one is right? " + " ".join(
        f"This quote {i} is here and it goes on a while." if i % 2 else f"The line {i} goes on and on here."
        for i in range(3200))
    for text in (stem, quote):
        question = model_question(DEFAULT_OPTIONS, text)
        seconds, _ = cpu_seconds(lambda: reading_level.extract(question, reading_level.Options()))
        assert seconds < BOUND


def test_hundreds_of_long_options_that_share_their_words_are_compared_in_linear_time():
    shared = " ".join(f"shared{j}" for j in range(100))
    options = [f"{shared} step {k}" for k in range(400)]
    question = model_question(options, stem="Which order?")
    seconds, _ = cpu_seconds(lambda: reading_level.extract(question, reading_level.Options()))
    assert seconds < BOUND


def _letters(n: int) -> str:
    """A word of letters alone for ``n`` (the word counts read letters: "own1" and "own2" are one word)."""
    return "w" + "".join(chr(97 + int(d)) for d in str(n))


def test_long_options_that_repeat_one_another_are_still_reported_and_others_are_not():
    shared = " ".join(_letters(j) for j in range(100))
    alone = [" ".join(_letters(1000 * (k + 1) + j) for j in range(100)) for k in range(3)]
    question = model_question([f"{shared} step 1", f"{shared} step 2", *alone], stem="Which order?")
    fields = [field for field, _ in reading_level._options(question, reading_level.Options())]
    assert fields == ["options[0].text", "options[1].text"]


def test_restatements_counted_as_the_text_is_read_equal_those_counted_from_its_start():
    import random

    from qlint.language.readability import Restatements, restated_words, sentences

    rng = random.Random(5)
    vocabulary = "the graph loss keeps alive its whole autograd when stored tensor a of".split()
    for _ in range(200):
        text = " ".join(" ".join(rng.choice(vocabulary) for _ in range(rng.randint(3, 30))) + rng.choice(".?!")
                        for _ in range(rng.randint(1, 12)))
        found = sentences(text)
        restated = Restatements(text)
        assert [restated(s, s.start) for s in found] == [restated_words(text, s, s.start) for s in found]
