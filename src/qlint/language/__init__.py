"""The one home of qlint's language helpers: pure functions over strings, used by the rules and the
near-duplicate search. Nothing here knows a rule, a reader or the registry.

- ``words``: tokens, normalisation, markup and code in text, cheap character tests;
- ``stems``: the stop-word lists and the two stemmers (the near-duplicate key's, the cue rules');
- ``numbers``: the one quantity an option states ("3 km", "two weeks", "1/2");
- ``grammar``: a/an by first sound, the rough form of a short phrase, grammatical number of a noun phrase;
- ``phrases``: phrase templates as regexes, options about the other options, the clause of a stem that asks;
- ``terms``: term lists matched on word boundaries with their exception idioms;
- ``readability``: the reading grade of a text;
- ``wordlists``: the word lists of ``rules/data/*.yaml``, loaded and validated once;
- ``patterns``: the check that a regular expression cannot backtrack catastrophically.
"""
