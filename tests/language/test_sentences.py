"""The sentences, paragraphs and passages of a text, as the reading rules measure them, and the parts of a grade."""
from __future__ import annotations

from helpers import within
from hypothesis import given, settings
from hypothesis import strategies as st

from qlint.language.readability import grade_parts, measure_stem, most_words, repeated_words, sentences, words_as_read


def _texts(text: str) -> list[str]:
    return [text[s.start:s.end] for s in sentences(text)]


def _words(n: int, word: str = "word") -> str:
    return " ".join([word] * n)


# ---- sentences ------------------------------------------------------------------------------------------------------

def test_sentences_end_at_full_stops_also_run_into_the_next_sentence():
    text = "The job failed.The retry worked! Was it the cache? Yes."
    assert _texts(text) == ["The job failed.", "The retry worked!", "Was it the cache?", "Yes."]


def test_abbreviations_decimals_and_names_do_not_end_a_sentence():
    text = "Dr. Smith met Mr.Jones in the U.S. office at 3.5 p.m. and left, e.g. early. Then it rained."
    assert _texts(text) == ["Dr. Smith met Mr.Jones in the U.S. office at 3.5 p.m. and left, e.g. early.",
                            "Then it rained."]


def test_lists_run_into_the_text_are_items_not_one_sentence():
    text = "Known? (1) H and Y go together; (2) F and G do not; (3) X goes first. Which must be true?"
    assert _texts(text) == ["Known?", "(1) H and Y go together;", "(2) F and G do not;", "(3) X goes first.",
                            "Which must be true?"]
    assert _texts("The rules are as follows: Each object is encrypted. Keys rotate.")[0] == "The rules are as follows:"


def test_code_tables_images_and_formulas_are_not_words():
    text = ("What does it print?\n\n```python\nprint('a long line of code that is not prose at all, not at all')\n```\n"
            "| a | b |\n|---|---|\n| 1 | 2 |\n![chart](img/a.png)\nCall `obj.method(x, y)` at https://example.org/a/b "
            "with $x^2 + y^2$ now.")
    found = sentences(text)
    assert [s.words for s in found] == [4, 7]   # the code span, the URL and the formula are a word each
    assert text[found[1].start:found[1].end] == "Call `obj.method(x, y)` at https://example.org/a/b with $x^2 + y^2$ now."


def test_a_code_span_that_holds_the_full_stop_ends_the_sentence():
    assert _texts("It is marked `Restricted.` The next one is not.") == ["It is marked `Restricted.`",
                                                                        "The next one is not."]


def test_line_breaks_end_sentences_unless_the_prose_is_hard_wrapped():
    verse = "Take it off\nTake it all off\nAnd dance"
    assert _texts(verse) == ["Take it off", "Take it all off", "And dance"]
    wrapped = "A job that runs on eight GPUs\nslows down, and the team\nwants to know why."
    assert _texts(wrapped) == [wrapped]


def test_paragraphs_are_counted_and_a_passage_is_what_the_question_asks_about():
    stem = "The rail reached the valley in 1850. Farmers sold their land.\n\nAccording to the passage, why did they sell?"
    measure = measure_stem(stem)
    assert measure.passage_words == 11 and measure.words == 8
    # a scenario set apart above its question is what the question asks about: material, held to the passage bound
    scenario = "A company runs a web tier. It is slow at night.\n\nWhich change helps most?"
    assert measure_stem(scenario).passage_words == 11 and measure_stem(scenario).words == 4
    # run on into the question, it is the stem's own wording; and a last paragraph that asks nothing leaves it so
    assert measure_stem(scenario.replace("\n\n", " ")).passage == []
    assert measure_stem("A company runs a web tier. It is slow at night.\n\nThe team reads the logs.").passage == []
    long_setup = _words(150, "setup") + ".\n\nWhich change helps most?"
    assert measure_stem(long_setup).passage_words == 150


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["word", "The", ".", "!", "?", ":", "\n", "\n\n", "`x.y`", "```", "e.g.", "(1)",
                                 " ", "U.S.", "|", "![i](p)", "$x$", "https://a.b/c.", "Mr.", "“", "a.B"]),
                max_size=60).map("".join))
def test_sentences_are_ordered_disjoint_and_hold_words(text):
    found = sentences(text)
    previous_end = 0
    for s in found:
        assert previous_end <= s.start < s.end <= len(text)
        assert s.words >= 1 and text[s.start:s.end].strip() == text[s.start:s.end]
        previous_end = s.end
    assert [s.paragraph for s in found] == sorted(s.paragraph for s in found)


def test_pathological_texts_are_split_in_one_pass():
    # runs that a backtracking pattern would scan again and again: each must finish at once
    for text in ("`" * 200_000, "$" * 200_000, "(1) " * 50_000, "a.B" * 60_000, ".\n" * 100_000, "```" * 50_000,
                 "![" * 100_000, "![a](" * 100_000, "$$ $" * 50_000, "https://" * 50_000, "|" * 200_000 + "\n",
                 "x" * 500_000, "“" * 200_000, "‘" * 200_000, '"' * 200_000, "“" + "a " * 200_000,
                 "lyrics: " * 50_000, "quote: a" * 50_000, ": " * 200_000, "a ; " * 100_000, "a The " * 100_000,
                 "a, " * 200_000):
        with within(20):   # a hang guard, generous for a loaded machine: a quadratic scan takes minutes
            found = sentences(text)
        assert all(0 <= s.start < s.end <= len(text) for s in found), text[:20]


def test_grade_parts_count_code_as_one_syllable():
    text = "Call `torch.cuda.empty_cache()` to release the memory."
    parts = grade_parts(text, sentences(text))
    assert parts.words == 6 and "memory" in parts.long_words and "torch" not in parts.long_words


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["word", "a.B", "end.Next", "x`y`z", "a$b$c", "see:https://a.b/c", "a![i](p)b",
                                 "(1)", "a\\\\b", "a<br>b", "q?A", " ", "\n", "\n\n", "Mr.", "`a b c`", "$x + y$"]),
                max_size=50).map("".join))
def test_most_words_is_an_upper_bound_of_the_words_found(text):
    assert sum(s.words for s in sentences(text)) <= most_words(text)


def test_a_spaced_dash_and_a_quotation_that_asks_end_a_clause_and_an_ellipsis_does_not():
    assert _texts("It stands on this hill -- one of the seven hills.") == ["It stands on this hill --",
                                                                          "one of the seven hills."]
    assert _texts("It stands on this hill—one of the seven.") == ["It stands on this hill—one of the seven."]
    assert _texts("The raids......the doors were shut.") == ["The raids......the doors were shut."]
    asked = 'They asked each adult, "Are you satisfied with the bus service in your area?" Of those asked, most were.'
    assert _texts(asked) == ['They asked each adult, "Are you satisfied with the bus service in your area?"',
                             "Of those asked, most were."]


def test_each_definition_of_a_formulas_legend_is_read_as_one_word():
    text = "The fee is $n K h$, where $n$ is the number of walls, $K$ is a price per foot, and $h$ is the height."
    (sentence,) = sentences(text)
    assert sentence.words == 22 and words_as_read(text, sentence) == 5 + 3
    # "where" with no variable after it is plain prose
    plain = "The fee is the price, where the painter is the one who sets it, and the buyer is the one who pays it."
    (sentence,) = sentences(plain)
    assert words_as_read(plain, sentence) == sentence.words


def test_repeated_words_are_runs_shared_word_for_word():
    steps = "the origin server returns the image to an edge server in the point of presence"
    assert repeated_words(f"Step 2: {steps}.", f"Step 1: {steps}.") == 16
    assert repeated_words("the origin server returns the file", f"{steps}.") == 0
