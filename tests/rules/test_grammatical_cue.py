"""grammatical-cue on hand-made questions: clean wording a naive a/an or plural check would trip on stays quiet;
stems whose grammar fits only some options fire."""
from __future__ import annotations

import pytest
from helpers import fired as fired_by
from helpers import question as q

RULE = "grammatical-cue"


def fired(text: str, registry) -> list[str]:
    return fired_by(text, RULE, registry)


CLEAN = {
    "silent-h": q("A unit of time equal to sixty minutes is an",
                  [("hour", True), ("epoch", False), ("interval", False), ("era", False)]),
    "unicorn": q("The mythical horse with a single horn on its forehead is a",
                 [("unicorn", True), ("centaur", False), ("griffin", False), ("pegasus", False)]),
    "one-time": q("A fee charged only once, when an account is opened, is a",
                  [("one-time fee", True), ("monthly fee", False), ("recurring fee", False), ("late fee", False)]),
    "acronym": q("To image a torn knee ligament without ionising radiation, the doctor orders an",
                 [("MRI", True), ("X-ray", False), ("ECG", False), ("FBC", False)]),
    "european": q("Someone born and raised in Portugal is a",
                  [("European", True), ("South American", False), ("North African", False), ("Scandinavian", False)]),
    "all-vowel": q("The part of a cell that carries out one specific function is an",
                   [("organelle", True), ("enzyme", False), ("antibody", False), ("ion", False)]),
    "plural-called": q("Organisms that make their own food are called",
                       [("producers", True), ("consumers", False), ("decomposers", False), ("scavengers", False)]),
    "these-are": q("These are the parts of a flower that produce pollen:",
                   [("stamens", True), ("sepals", False), ("petals", False), ("carpels", False)]),
    "which-is-a": q("Which of the following is a mammal?",
                    [("Whale", True), ("Shark", False), ("Trout", False), ("Octopus", False)]),
    "planets": q("Which planet is closest to the Sun?",
                 [("Mercury", True), ("Venus", False), ("Mars", False), ("Earth", False)]),
    "prime": q("Which of the following is a prime number?", [("7", True), ("9", False), ("15", False), ("21", False)]),
    "fractions": q("What fraction of a day is one hour?",
                   [("1/24", True), ("1/12", False), ("1/60", False), ("1/100", False)]),
    "compound-plural": q("Which of the following are examples of renewable energy sources?",
                         [("Wind and solar power", True), ("Coal and oil", False), ("Natural gas and coal", False),
                          ("Oil and peat", False)]),
    "plural-subject": q("As the temperature of a gas rises, its molecules",
                        [("move faster", True), ("move more slowly", False), ("stop moving", False),
                         ("lose mass", False)]),
    "goal": q("To convert a temperature from Celsius to Fahrenheit,",
              [("multiply by 9/5 and add 32", True), ("add 32 and multiply by 9/5", False),
               ("multiply by 5/9 and subtract 32", False), ("subtract 32 and halve it", False)]),
    "do-frame": q("What does Maria need to do before she bakes the cake?",
                  [("preheat the oven", True), ("repaint the kitchen", False), ("buy a new car", False)]),
    "all-articles": q("Which instrument is used to measure air pressure?",
                      [("a barometer", True), ("a thermometer", False), ("an anemometer", False),
                       ("a hygrometer", False)]),
    "mixed-units": q("At sea level, pure water boils at",
                     [("100 °C", True), ("212 °C", False), ("373 °F", False), ("100 K", False)]),
    "units": q("How far does light travel in one second, roughly?",
               [("300,000 km", True), ("30,000 km", False), ("3,000 km", False), ("300 km", False)]),
}

FLAWED = {
    "a-vs-consonant": q("A unit of time equal to sixty minutes is an",
                        [("hour", True), ("day", False), ("week", False), ("minute", False)]),
    "an-vs-key": q("The largest living land animal is an",
                   [("elephant", True), ("giraffe", False), ("rhinoceros", False), ("hippopotamus", False)]),
    "singular-stem": q("Which of the following is a renewable resource?",
                       [("wind", True), ("coal deposits", False), ("oil reserves", False),
                        ("natural gas fields", False)]),
    "plural-called": q("Organisms that make their own food are called",
                       [("producers", True), ("a consumer", False), ("a decomposer", False), ("a scavenger", False)]),
    "these-are": q("These are the organs that filter the blood:",
                   [("kidneys", True), ("a heart", False), ("a stomach", False), ("a lung", False)]),
    "agreement": q("When the teacher enters the room, the students",
                   [("stand up", True), ("is quiet", False), ("was late", False), ("has left", False)]),
    "only-key-has-article": q("Which is used to measure air pressure?",
                              [("a barometer", True), ("thermometer", False), ("anemometer", False),
                               ("hygrometer", False)]),
    "numeric-format": q("What is 25% of 80?", [("20", True), ("16", False), ("32", False), ("40 percent", False)]),
    "sentence-among-phrases": q("What is the main job of red blood cells?",
                                [("They carry oxygen to the tissues.", True), ("digestion", False),
                                 ("clotting", False), ("immunity", False)]),
    "goal": q("To remove a rust stain from a white shirt,",
              [("soak it in lemon juice and salt, then wash it", True),
               ("the stain will fade on its own in time", False), ("it is best left in the sun", False)]),
    "past-tense": q("What does Ben need to do before the exam?",
                    [("review his notes", True), ("reviewed his notes", False), ("passed the test", False)]),
    "prep-among-nouns": q("Where in a plant cell does photosynthesis take place?",
                          [("in the chloroplast", True), ("nucleus", False), ("ribosome", False),
                           ("cell membrane", False)]),
    "where-adjective": q("Where would you most likely buy fresh bread?",
                         [("bakery", True), ("library", False), ("expensive", False), ("garage", False)]),
    "want-to-do-adjective": q("Ana won the spelling bee. What will Ana want to do next?",
                              [("tell her family", True), ("proud", False), ("nervous", False)]),
    "modal-what-plural": q("A cyclist going uphill should what to save energy?",
                           [("shift to a lower gear", True), ("brakes", False), ("pedal faster", False),
                            ("stand up", False)]),
    "do-what-ical": q("Iron and oxygen do what when they form rust?",
                      [("react together", True), ("chemical bonds", False), ("melt together", False),
                       ("stay apart", False)]),
}


@pytest.mark.parametrize("name", CLEAN)
def test_clean_stays_quiet(name, registry):
    assert fired(CLEAN[name], registry) == []


@pytest.mark.parametrize("name", FLAWED)
def test_flaw_fires(name, registry):
    assert fired(FLAWED[name], registry), name
