"""Reading grade of a text, offline and fast.

Sentences are counted as textstat counts them (a test holds the two equal); syllables come
from a vowel-group rule with a per-word memo (more accurate than pyphen, textstat's fallback,
and far cheaper). textstat itself is not imported at run time: its per-call caches cost more
than the counting, and from 0.7.10 its syllable functions fetch NLTK's cmudict over the
network on first use, while qlint must never touch the network (pre-commit.ci and
air-gapped CI have none).
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from qlint.language.words import CODE_SPAN

_URL = re.compile(r"https?://\S+|www\.\S+")
# identifiers and code-like tokens: dotted or slashed names, calls, snake_case, camelCase, digits, ACRONYMS
_IDENT = re.compile(r"\b\w+(?:[._/\\:]\w+)+(?:\(\))?|\b\w+\(\)|\b\w*_\w*|\b[a-z]+[A-Z]\w*|\b\w*\d\w*|\b[A-Z]{2,}s?\b")
_SENTENCE_END = re.compile(r"[.!?]+(?:\s|$)")


_VOWEL_GROUPS = re.compile(r"[aeiouy]+")


@lru_cache(maxsize=200_000)
def syllables(word: str) -> int:
    """Syllables in one plain word: vowel groups, less a silent final e / -ed / -es.

    Against the CMU pronouncing dictionary on real exam stems this agrees on 95% of word tokens
    (pyphen's hyphenation points, textstat's own fallback: 93%) at a seventeenth of the cost.
    """
    w = word.lower()
    if len(w) <= 3:
        return 1
    count = len(_VOWEL_GROUPS.findall(w))
    if count > 1:
        if w.endswith("e") and not w.endswith(("le", "ee", "ye")):
            count -= 1
        elif w.endswith("ed") and not w.endswith(("ted", "ded")):
            count -= 1
        elif w.endswith("es") and not w.endswith(("ses", "zes", "ces", "ges", "xes", "shes", "ches")):
            count -= 1
    return max(1, count)


_TOKEN_NOT_PROSE = re.compile("|".join(f"(?:{p.pattern})" for p in (_URL, _IDENT)))
_PLAIN_WORD = re.compile(r"[A-Za-z]+(?:'[a-z]+)?")
_TEXTSTAT_SENTENCE = re.compile(r"\b[^.!?]+[.!?]*")
_WORD_CHAR = re.compile(r"\w")


@lru_cache(maxsize=500_000)
def _token(token: str) -> tuple[str, int, int]:
    """A whitespace-delimited token -> (its plain form, plain words in it, their syllables). No URL or identifier
    match crosses whitespace, so replacing token by token gives the same words as replacing in the whole text;
    tokens are Zipfian, so the memo answers nearly all of them."""
    plain = _TOKEN_NOT_PROSE.sub(" term ", token)
    words = _PLAIN_WORD.findall(plain)
    return plain, len(words), sum(syllables(w) for w in words)


def _few_words(sentence: str) -> bool:
    """Two words or fewer, as textstat counts words (tokens left with a word character once punctuation goes)."""
    n = 0
    for token in sentence.split():
        if token.isalnum() or _WORD_CHAR.search(token):
            n += 1
            if n > 2:
                return False
    return True


def sentence_count(text: str) -> int:
    """textstat's ``sentence_count``, computed the same way without its per-call caches: runs of text up to
    sentence punctuation, less those of two words or fewer; at least one for a non-empty text."""
    if not text:
        return 0
    sentences = _TEXTSTAT_SENTENCE.findall(text)
    return max(1, len(sentences) - sum(map(_few_words, sentences)))


def grade(text: str) -> tuple[float, int]:
    """Flesch-Kincaid grade of ``text`` and the number of words it was computed on."""
    if "`" in text:
        text = CODE_SPAN.sub(" term ", text)
    entries = list(map(_token, text.split()))
    plain_tokens, counts, totals = zip(*entries) if entries else ((), (), ())
    count = sum(counts)
    if count == 0:
        return 0.0, 0
    plain = " ".join(plain_tokens)
    sentences = max(1, sentence_count(plain), len(_SENTENCE_END.findall(plain)))
    return 0.39 * count / sentences + 11.8 * sum(totals) / count - 15.59, count


# --- sentences and words, for limits an author can act on -----------------------------------------------------

@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence of a text: where it is (character offsets), how many words it has, and which paragraph
    (counted from 0, a blank line apart) it is in."""

    start: int
    end: int
    words: int
    paragraph: int


# What is not prose. A fenced code block, a table row, an image, a display formula, a LaTeX environment marker,
# row break or rule, an HTML line or paragraph break: each ends a sentence and has no words (_CUT). An inline code
# span, a URL or an inline formula is one word (_WORD). Every alternative scans forward to its own end or fails at
# once, so a pass over the text is linear in its length (no pattern here can backtrack over a long run). Each is
# written after its first character, which ``_opaque`` reads before them all, and checks that character by a
# lookbehind: a pattern that opens with a set of characters is one the scan skips through in C.
_CUT = (r"(?<=`)``[\s\S]*?(?:```|\Z)", r"(?<=~)~~[\s\S]*?(?:~~~|\Z)", r"(?:(?<=^\|)|(?<=^[ \t])[ \t]*\|)[^\n]*\|[ \t]*$",
        r"(?<=!)\[[^\[\]\n]*\]\([^()\n]*\)", r"(?<=\$)\$[^$]*\$\$", r"(?<=\\)(?:begin|end)\{[^}\n]{0,40}\}",
        r"(?<=\\)\\", r"(?<=\\)hline", r"(?<=<)br\s*/?>", r"(?<=<)/?p>")
_WORD = (r"(?<=`)[^`\n]+`", r"(?:(?<=h)ttps?://|(?<=w)ww\.)[^\s<>]*[^\s<>.,;:!?)\]'\"]", r"(?<=\$)[^$\n]{1,300}\$",
         # a quotation of some length, or what follows "lyrics:" or "the quote:": the material the question asks
         # about, read as one thing, not the writer's sentence (each alternative stops at its closing mark or the
         # line's end)
         r"(?<=\")[^\"\n]{40,2000}\"", r"(?<=“)[^“”\n]{40,2000}(?:”|$)", r"(?<=‘)[^‘’\n]{40,2000}(?:’|$)",
         r"(?i:(?<=l)yrics|(?<=q)uote|(?<=q)uotation|(?<=c)ommented|(?<=w)rote)[^:\n]{0,30}: [^\n]{1,2000}")
# the alternatives whose first characters are common (a space, a letter): left out of the pattern for a text that
# lacks what they need ("|", "://" or "www.", ": "), where they cannot match
_TABLE_ROW, _URL_WORD, _AFTER_COLON = _CUT[2], _WORD[1], _WORD[6]


@lru_cache(maxsize=8)
def _opaque(table: bool, url: bool, colon: bool) -> re.Pattern[str]:
    """What is not prose, for a text that may hold a table row, a URL, a colon and a space (or not): the alternatives
    in their order, after a set of the characters they start with (no other character matches "l", "q", "c" or "w"
    when case is ignored). A match is a cut when its group ``cut`` is set, else a word."""
    cut = [p for p in _CUT if table or p is not _TABLE_ROW]
    word = [p for p in _WORD if (url or p is not _URL_WORD) and (colon or p is not _AFTER_COLON)]
    first = "`~!$\\\\<\"“‘" + (" \t|" if table else "") + ("hw" if url else "") + ("lLqQcCwW" if colon else "")
    return re.compile(f"[{first}](?:(?:{'|'.join(cut)})(?P<cut>)|(?:{'|'.join(word)})(?P<word>))", re.M)


# words that open a sentence and are never capitalised inside one: after a lower-case word with no punctuation
# between, a full stop was lost ("all log data is kept in files The files are ...") and a new sentence begins; so
# does a capitalised preposition before a lower-case question word ("... with the user profile information To which
# policy section ...")
_OPENERS = (r"(?:The|This|These|Those|All|Each|However|Therefore|It|They|There|What|Which|How|Why|Because"
            r"|(?:To|In|For|On|From|At|By|With|Of|Under|Into|Through) (?:which|what|whom)\b)")
# where a sentence may end, found by its first character (so that the scan skips the rest of the text in C) and
# judged in ``_Splitter.prose``: sentence punctuation (closing quotes and brackets kept with it) before a space or
# the end, or run into the next sentence's capital ("recession.As a result"); a colon that opens a capitalised clause
# or list ("the following requirements: Each object ..."); a semicolon or a spaced dash; a line break; an item marker
# of a list run into the text ("... as follows: (1) H and Y ...; (2) F and G ...")
# sentence adverbs that never open a clause inside a sentence with a capital: after a comma too, a full stop was lost
# ("running out of processing power in your mix, Besides printing ...")
_ADVERBS = r"(?:Besides|However|Therefore|Moreover|Furthermore|Hence|Thus|Otherwise|Nevertheless|Consequently)"
# a capitalised subject (one or two words) and a finite verb (an auxiliary, or a verb in -s before an article) after
# a lower-case word: a new sentence whose full stop was lost ("to store reports Management has mandated ...", "batch
# processors Cloud Watch monitors the number ..."); not after a word that takes a name (a preposition, an article, a verb of
# naming), where the capital is a name inside the sentence
_SUBJECT_VERB = re.compile(r"[A-Z][a-z]+(?: [A-Z][a-z]+)? (?:(?:has|have|had|is|are|was|were|must|will|needs|wants"
                           r"|requires|asks|plans)\b|[a-z]+[^s\W]s (?:the|a|an|all|each|every|its|their)\b)")
_TAKES_A_NAME = frozenset("a an the of in on at to for from by with and or but nor that which who whom whose as than "
                          "named called via like about into onto over under if when while because since until where "
                          "whether so then also not only both either neither uses use using used".split())
# (the first character is read before the alternatives, each of which then checks it by a lookbehind: a pattern that
# opens with a set of characters is what lets the scan skip to the next one in C). A break at a space is found from
# the character after it, a dash or a capital (spaces are many, capitals after them few), and read by ``_marks`` as
# starting at the space.
_MARK = re.compile(r"[.!?…:\n(;,A-Z\-–—](?:(?<=[.!?…])[.!?…]*[\"')\]”’»]*|(?<=[:\n(])|(?<=;) |(?<= -)- |(?<= [–—]) "
                   r"|(?<=,) (?=" + _ADVERBS + r"\b)|(?<= (?=" + _OPENERS + r"\b|[A-Z][a-z]+ [A-Za-z])[A-Z]))")
_AT_SPACE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ-–—")
_RUN_IN = re.compile(r"[A-Z][a-z]")
_OPENER = re.compile(_OPENERS + r"\b")
_PREVIOUS_WORD = re.compile(r"(?:^|\s)([a-z][a-z-]*)$")
_COLON_OPENS = re.compile(r"[ \t]+[\"'“‘(]?[A-Z]")
_ITEM = re.compile(r"\((?:\d{1,2}|[a-zA-Z]|[ivxIVX]{1,4})\)(?=\s)")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
# a full stop after these is not the end of a sentence (compared lower-case, without their inner dots' last one)
_ABBREVIATIONS = frozenset("mr mrs ms dr prof st sr jr vs cf e.g i.e fig figs eq no nos vol pp approx u.s u.k "
                           "a.m p.m ca et al".split())
# the characters every match of what is not prose contains: a text with none of them has nothing but prose
_OPAQUE_STARTS = ("`", "~~~", "|", "![", "$", "\\", "<", "://", "www.", '"', "“", "‘", ": ")
# a code span or a quotation that holds its sentence's full stop ("`Restricted.` The next ...", 'asked, "Are you
# satisfied?" Of those ...'): the sentence ends with it
_CLOSED = re.compile(r"(?:`.*|[\"“‘].*)[.!?][`\"”’]$", re.S)
_NEXT_CAPITAL = re.compile(r"\s+[A-Z]")
_LAST_WORD = re.compile(r"([A-Za-z][A-Za-z.]{0,7})$")


@lru_cache(maxsize=100_000)
def _is_word(token: str) -> bool:
    """A whitespace-delimited token that is a word: it has a letter or a digit."""
    return any(map(str.isalnum, token))


# a whitespace-delimited token that is a word (``_is_word``), from its first letter or digit to its end: one match a
# word ([^\W_] is what str.isalnum accepts, \S what str.split does not split at)
_WORD_TOKEN = re.compile(r"[^\W_]\S*")


def _words(chunk: str) -> int:
    return len(_WORD_TOKEN.findall(chunk))


# the first character that str.strip would keep (\S is what str.isspace does not accept)
_NON_SPACE = re.compile(r"\S")


def _marks(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """Where a sentence may end between ``start`` and ``end``: each mark's start and end, in order, as a scan of the
    text from each of its characters finds them (a break at a space starts at the space). ``_MARK`` finds such a
    break from the character after the space, a capital matched but not kept or a dash kept: it starts one
    character earlier, and is not a mark when that space is before ``start`` or in the mark before it ("; The",
    ", However", " -- The"), where a scan from the space would not have looked."""
    last = start
    for match in _MARK.finditer(text, start, end):
        at, after = match.start(), match.end()
        if text[at] in _AT_SPACE:
            if after == at + 1:   # the capital after the space
                after = at
            at -= 1
            if at < last:
                continue
        yield at, after
        last = after


# the characters besides the ASCII letters that an ASCII letter of a pattern matches when the pattern ignores case
# ("İ" and "ı" match "i", "ſ" matches "s", the Kelvin sign matches "k")
_FOLDS_TO_ASCII = ("\u0130", "\u0131", "\u017f", "\u212a")


def may_spell(text: str, words: tuple[str, ...]) -> bool:
    """Whether ``text`` may spell one of ``words`` (lower-case ASCII letters) in any case, as a pattern that ignores
    case matches it: False only when it surely does not, so that a pattern every match of which spells one of them
    need not scan a text that has none (most stems). One pass of C over the text for each word."""
    lower = text.lower()
    return any(w in lower for w in words) or (not text.isascii() and any(c in text for c in _FOLDS_TO_ASCII))


def _abbreviation_before(text: str, dot: int) -> bool:
    match = _LAST_WORD.search(text, max(0, dot - 8), dot)
    return match is not None and match.group(1).lower().rstrip(".") in _ABBREVIATIONS


def _wrapped(text: str, newline: int) -> bool:
    """A line break inside a sentence: the line before ends in a lower-case letter, a comma or a hyphen, and the
    next line starts with a lower-case letter (hard-wrapped prose, not a list, a table or a verse)."""
    before = text[max(0, newline - 2):newline].rstrip(" \t")
    after = text[newline + 1:newline + 40].lstrip(" \t")
    return bool(before) and (before[-1].islower() or before[-1] in ",-") and after[:1].islower()


class _Splitter:
    """Sentences of one text, built piece by piece (``sentences`` drives it)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.out: list[Sentence] = []
        self.start: int | None = None
        self.words = 0
        self.paragraph = 0

    def close(self, end: int) -> None:
        if self.start is not None and self.words:
            while end > self.start and self.text[end - 1].isspace():
                end -= 1
            self.out.append(Sentence(self.start, end, self.words, self.paragraph))
        self.start, self.words = None, 0

    def add(self, start: int, end: int) -> None:
        """Prose from ``start`` to ``end``: its words join the current sentence."""
        count = len(_WORD_TOKEN.findall(self.text, start, end))
        if count:
            if self.start is None:
                self.start = _NON_SPACE.search(self.text, start, end).start()
            self.words += count

    def word(self, start: int) -> None:
        if self.start is None:
            self.start = start
        self.words += 1

    def prose(self, start: int, end: int) -> None:
        text = self.text
        position = start
        for at, after in _marks(text, start, end):
            mark = text[at:after]
            first = mark[0]
            if first == "\n":
                if _wrapped(text, at):
                    continue
                self.add(position, at)
                self.close(at)
                if _PARAGRAPH_BREAK.match(text, at):
                    self.paragraph += 1
            elif first == "(":
                if (at > 0 and (text[at - 1].isalnum() or text[at - 1] in "_(")) or not _ITEM.match(text, at, end):
                    continue
                self.add(position, at)   # the item marker starts the next sentence
                self.close(at)
                position = at
                continue
            elif first == ";":   # clauses a semicolon joins are read one at a time (a list of rules, requirements)
                self.add(position, after)
                self.close(after)
            elif first == " " and len(mark) > 1:   # a spaced dash: a clause break, as a semicolon is
                self.add(position, after)
                self.close(after)
            elif first == " ":   # a lost full stop: only after a lower-case word
                # an opener, or a subject and its verb, is looked for first: most capitals open neither
                opener = _OPENER.match(text, after, end) is not None
                if not opener and not _SUBJECT_VERB.match(text, after, end):
                    continue
                previous = _PREVIOUS_WORD.search(text, max(0, at - 40), at)
                if previous is None or (not opener and previous.group(1) in _TAKES_A_NAME):
                    continue
                self.add(position, at)
                self.close(at)
            elif first == ",":   # ", Besides ...": a sentence adverb with a capital, a lost full stop
                self.add(position, at + 1)
                self.close(at + 1)
            elif first == ":":
                if not _COLON_OPENS.match(text, after, end):
                    continue
                self.add(position, after)
                self.close(after)
            elif not self._ends(mark, at, after, end):
                continue
            else:
                self.add(position, after)
                self.close(after)
            position = after
        self.add(position, end)

    def _ends(self, mark: str, at: int, after: int, end: int) -> bool:
        """Whether sentence punctuation ends a sentence: before a space or the end, or run into a capitalised word
        ("failed.The retry") after a letter, a digit or a bracket; never a lone full stop after an abbreviation."""
        text = self.text
        if mark == "." and _abbreviation_before(text, at):
            return False
        if after >= end or text[after].isspace():
            return True
        return (mark[-1] in ".!?" and at > 0 and (text[at - 1].isalnum() or text[at - 1] in ")]")
                and _RUN_IN.match(text, after, end) is not None)


def _not_prose(text: str) -> Iterator[re.Match[str]]:
    """What is not prose in a text, in order (nothing in a text without any of _OPAQUE_STARTS)."""
    if not any(map(text.__contains__, _OPAQUE_STARTS)):
        return iter(())
    return _opaque("|" in text, "://" in text or "www." in text, ": " in text).finditer(text)


def _unbroken(text: str) -> list[Sentence]:
    """The sentences of a text that has no mark and nothing but prose (most options): its words as one sentence,
    from its first character to its last but whitespace, or none when it has no word."""
    count = _words(text)
    if not count:
        return []
    return [Sentence(_NON_SPACE.search(text).start(), len(text.rstrip()), count, 0)]


def sentences(text: str) -> list[Sentence]:
    """The sentences of a text, in order, each with its words. Code blocks, tables, images and display formulas
    are not prose (they end a sentence and count no words); an inline code span, a URL or a formula is one word.
    A line break ends a sentence unless the line is hard-wrapped prose. Work is linear in the text's length."""
    if _MARK.search(text) is None and not any(map(text.__contains__, _OPAQUE_STARTS)):
        return _unbroken(text)
    splitter = _Splitter(text)
    position = 0
    for match in _not_prose(text):
        if match.start() > position:
            splitter.prose(position, match.start())
        if match.group("word") is not None:
            splitter.word(match.start())
            if _CLOSED.match(match.group()) and _NEXT_CAPITAL.match(text, match.end()):
                splitter.close(match.end())   # the span or the quotation held the full stop
        else:
            splitter.close(match.start())
        position = match.end()
    if position < len(text):
        splitter.prose(position, len(text))
    splitter.close(len(text))
    return splitter.out


# the question after a blank line refers back to the text before it: that text is a reading passage (an argument,
# an excerpt) the question asks about, material the candidate reads rather than the writer's wording of the ask
_REFERS_BACK = re.compile(r"\b(?:passages?|authors?|author's|argument|arguments|reasoning|excerpts?|paragraphs?"
                          r"|lines?\s+\d+|poem|speaker|narrator|essay|article|text|above|preceding|conclusion"
                          r"|premises?|claims?|discrepancy|according\s+to|if\s+true)\b", re.I)
# a last paragraph that asks (a question mark, a lead-in ending in a colon, or one the options complete, with no
# punctuation at its end: "The following statements all show the same bias except") and is no longer than a lead-in
# is: the paragraphs above it are what it asks about
_ASKS = re.compile(r"\?|[:\w]\s*$")
LEAD_IN_WORDS = 60
# text before the question this long is reading material whatever the question says about it (a scenario is shorter)
PASSAGE_WORDS = 150
# ... and a setup this long before the question is a case study (an organisation, its environment, its requirements)
# even when no blank line sets it apart: longer than any scenario the stem limit holds
CASE_WORDS = 300


def passage_length(text: str, found: list[Sentence]) -> int:
    """How many of ``found`` (the sentences of a stem, from ``sentences``) form a passage: the paragraphs before
    the last one, when that last paragraph asks about them ("the passage", "the author", "the argument above") or
    they run to PASSAGE_WORDS words; in a stem of one paragraph, the sentences before its lead-in when they run to
    CASE_WORDS words; 0 when the stem has no such passage."""
    if not found:
        return 0
    if found[-1].paragraph == found[0].paragraph:
        start = lead_in(found, text)   # a case study run into one paragraph: its setup is reading material too
        return start if sum(s.words for s in found[:start]) >= CASE_WORDS else 0
    last = found[-1].paragraph
    first = next(i for i, s in enumerate(found) if s.paragraph == last)
    if sum(s.words for s in found[:first]) >= PASSAGE_WORDS:
        return first
    if _ASKS.search(text, found[first].start, found[-1].end) and sum(s.words for s in found[first:]) <= LEAD_IN_WORDS:
        return first   # a question set apart below its material: a stimulus, a case, a logic game's rules
    return first if _REFERS_BACK.search(text, found[first].start, found[-1].end) else 0


_ENGLISH = frozenset("the of and to in is that for it with as on are be this by was which or from an at not have "
                     "has can will what their they when you your its into than these those were been would should "
                     "does do who how why".split())
_FRENCH = frozenset("de la le les et des du un une est en que qui pour dans par sur au aux ce cette sont ou ne pas "
                    "il elle ils lors chez".split())


def is_english(text: str) -> bool:
    """Whether a text reads as English, by its function words: Flesch-Kincaid is an English formula."""
    tokens = LOWER_WORD.findall(text.lower())
    english = sum(t in _ENGLISH for t in tokens)
    return english >= 0.08 * len(tokens) and english >= 2 * sum(t in _FRENCH for t in tokens)


LOWER_WORD = re.compile(r"[a-zà-öø-ÿ']+")


@dataclass(frozen=True, slots=True)
class GradeParts:
    """What a Flesch-Kincaid grade is made of, kept apart so that some words can be counted as plain: the words,
    sentences and syllables of a text, and its words of three syllables or more (lower-case) with how often each
    occurs."""

    words: int
    sentences: int
    syllables: int
    long_words: dict[str, int]

    def grade(self, plain_words: frozenset[str] | set[str] = frozenset()) -> float:
        """The grade, with each word of ``plain_words`` counted as two syllables: as a familiar word, not a hard
        one."""
        total = self.syllables - sum((syllables(w) - 2) * n for w, n in self.long_words.items() if w in plain_words)
        return 0.39 * self.words / max(1, self.sentences) + 11.8 * total / max(1, self.words) - 15.59


@lru_cache(maxsize=200_000)
def long_words_of(token: str) -> tuple[str, ...]:
    """The words of three syllables or more in a whitespace-delimited token, lower-case (identifiers, code and URLs
    have none)."""
    plain, _, total = _token(token)
    if total < 3:
        return ()
    return tuple(w.lower() for w in _PLAIN_WORD.findall(plain) if syllables(w) >= 3)


def grade_parts(text: str, found: list[Sentence]) -> GradeParts:
    """The grade's parts of these sentences of ``text`` (identifiers, code and URLs count as a one-syllable word,
    as in ``grade``)."""
    words = syllable_total = 0
    long_words: dict[str, int] = {}
    for s in found:
        chunk = text[s.start:s.end]
        if "`" in chunk:
            chunk = CODE_SPAN.sub(" term ", chunk)
        for token in chunk.split():
            _, count, total = _token(token)
            words += count
            syllable_total += total
            for word in long_words_of(token) if total >= 3 else ():
                long_words[word] = long_words.get(word, 0) + 1
    return GradeParts(words, len(found), syllable_total, long_words)


_CANDIDATE = re.compile(r"[a-z]{5,}")


# each word of five letters or more looked at so far -> whether it has three syllables or more: a text's words are
# answered by one set difference and one filter in C (emptied when it reaches MEMO_WORDS words, to stay bounded)
_LONG: dict[str, bool] = {}
MEMO_WORDS = 200_000


def long_words_in(text: str) -> frozenset[str]:
    """The distinct words of three syllables or more in a text, lower-case, in one pass of C (shorter words have
    fewer syllables; unlike ``grade_parts``, words inside identifiers count too)."""
    found = set(_CANDIDATE.findall(text.lower()))
    new = found.difference(_LONG)
    if new:
        if len(_LONG) + len(new) > MEMO_WORDS:
            _LONG.clear()
            new = found
        _LONG.update((w, syllables(w) >= 3) for w in new)
    return frozenset(filter(_LONG.__getitem__, found))


_SPLITTERS = b".!?:(`$/\\<"   # the characters that can split a token, but "…" (not ASCII)


def most_words(text: str) -> int:
    """An upper bound of the words ``sentences`` finds in a text, worked out in C. A short text has at most half its
    characters, rounded up (a word is at least one character, and at least one more separates it from the next); a
    longer one at most its whitespace-delimited tokens plus one for every character that can split a token (a full
    stop run into the next sentence, a list item, a code span, a URL, a formula or a markup break inside it)."""
    if len(text) < 80:
        return (len(text) + 1) // 2
    if text.isascii():   # the splitting characters deleted from the bytes in one pass of C
        return len(text.split()) + len(text) - len(text.encode("ascii").translate(None, _SPLITTERS))
    return len(text.split()) + sum(map(text.count, ".!?:(…`$/\\<"))


@dataclass(frozen=True, slots=True)
class StemMeasure:
    """A stem as reading-level measures it: its sentences after any passage (``asked``), and the passage's."""

    asked: list[Sentence]
    passage: list[Sentence]

    @property
    def words(self) -> int:
        return sum(s.words for s in self.asked)

    @property
    def passage_words(self) -> int:
        return sum(s.words for s in self.passage)

    @property
    def longest(self) -> int:
        return max((s.words for s in self.asked), default=0)


@lru_cache(maxsize=64)   # reading-grade and reading-level measure each stem in turn: the second gets the first's
def measure_stem(stem: str) -> StemMeasure:
    """The stem's sentences, split into its passage and what follows it (shared: never change the lists)."""
    found = sentences(stem)
    split = passage_length(stem, found)
    return StemMeasure(found[split:], found[:split])


LIST_ITEM_WORDS = 4   # a comma-separated piece this short, in a run of three or more, is an item of a list
TITLE_ITEM_WORDS = 10  # ... or this short when its words are capitalised (a title, a name)
_CAPITALISED = re.compile(r"[A-Z0-9]")


def _list_item(piece: str) -> int:
    """The words of a comma-separated piece when it reads as a list's item (else 0)."""
    tokens = [t for t in piece.split() if _is_word(t)]
    if tokens and tokens[0] in ("and", "or"):
        tokens = tokens[1:]
    if not tokens or len(tokens) > TITLE_ITEM_WORDS:
        return 0
    if len(tokens) <= LIST_ITEM_WORDS or 2 * sum(bool(_CAPITALISED.match(t)) for t in tokens) > len(tokens):
        return len(tokens)
    return 0


# a variable of a formula: an inline formula, or one letter that is not a word ("a", "I")
_VARIABLE = r"(?:\$[^$\n]{1,40}\$|\b[B-HJ-Zb-z]\b)"
_DEFINES = r"\s+(?:is|are|represents|denotes|stands\s+for|equals|gives)\b"
# a formula's legend: "..., where $n$ is the number of walls, $K$ is a constant ..., and $h$ is the height ..."
_LEGEND = re.compile(r",?\s+where\s+(?=" + _VARIABLE + _DEFINES + ")")
_DEFINITION = re.compile(r"(?:,\s*|\s+)(?:and\s+)?(?=" + _VARIABLE + _DEFINES + ")")
_FORMULA = re.compile(r"\$[^$\n]{1,300}\$")


def _legend_saved(chunk: str) -> int:
    """Words a formula's legend saves: each definition of a variable ("$P$ is the number of phones left") is read as
    one thing, like an item of a list; 0 when the sentence has no legend."""
    match = _LEGEND.search(chunk)
    if match is None:
        return 0
    legend = _FORMULA.sub("x", chunk[match.end():])
    definitions = len(_DEFINITION.findall(" " + legend))
    return max(0, _words(legend) - definitions)


def words_as_read(text: str, sentence: Sentence) -> int:
    """A sentence's words with each item of a list counted as one: a run of three or more comma-separated pieces
    of at most LIST_ITEM_WORDS words each, or titles and names of at most TITLE_ITEM_WORDS ("Make It With You, If,
    Baby, I Want You, and ..."), is read an item at a time, like the clauses a semicolon joins; so is each definition
    of a formula's legend ("where $x$ is the number of years since 2000, and $y$ is ..."). Linear in the sentence's
    length."""
    chunk = text[sentence.start:sentence.end]
    legend = _legend_saved(chunk) if "where" in chunk else 0
    pieces = chunk.split(",")
    if len(pieces) < 3:
        return max(1, sentence.words - legend)
    saved, run = 0, []
    for count in [*map(_list_item, pieces), 0]:
        if count:
            run.append(count)
            continue
        if len(run) >= 3:
            saved += sum(run) - len(run)
        run = []
    return max(1, sentence.words - max(saved, legend))


def words_in_text(text: str) -> int:
    """Words of a text as reading-level counts them (code, tables and images are not words)."""
    return sum(s.words for s in sentences(text))


RESTATED_WORDS = 8   # a run of this many words that repeats the text above it is a reference to that text


def word_runs(text: str) -> set[tuple[str, ...]]:
    """Every run of RESTATED_WORDS words of ``text`` (lower-cased): what ``covered_by`` looks words up in. Made once
    for a text that several others are compared with."""
    seen = LOWER_WORD.findall(text.lower())
    return {tuple(seen[i:i + RESTATED_WORDS]) for i in range(len(seen) - RESTATED_WORDS + 1)}


def covered_by(text: str, runs: set[tuple[str, ...]]) -> list[bool]:
    """For each word of ``text``, whether it lies in a run of RESTATED_WORDS or more words found in ``runs``
    (``word_runs`` of another text). Linear in the text's length."""
    words = LOWER_WORD.findall(text.lower())
    if not runs or len(words) < RESTATED_WORDS:
        return []
    covered = [False] * len(words)
    for i in range(len(words) - RESTATED_WORDS + 1):
        if tuple(words[i:i + RESTATED_WORDS]) in runs:
            covered[i:i + RESTATED_WORDS] = [True] * RESTATED_WORDS
    return covered


def _covered(text: str, other: str) -> list[bool]:
    """For each word of ``text``, whether it lies in a run of RESTATED_WORDS or more words that ``other`` has too.
    Linear in the two lengths."""
    return covered_by(text, word_runs(other))


def repeated_words(text: str, other: str) -> int:
    """Words of ``text`` that repeat, in runs of RESTATED_WORDS or more, what ``other`` says: what two options share
    word for word (the steps every option of an ordering question lists), or what an option repeats of its stem."""
    return sum(_covered(text, other))


def restated_words(text: str, sentence: Sentence, before: int) -> int:
    """Words of ``sentence`` that repeat, in runs of RESTATED_WORDS or more, what ``text`` says before offset
    ``before``, less one for each run: a question that quotes its own material ("if substituted for the constraint
    that if K is not assigned ...") refers to it, and a reference is read as one thing. Linear in the two lengths."""
    if before <= 0:
        return 0
    return _less_runs(_covered(text[sentence.start:sentence.end], text[:before]))


def _less_runs(covered: list[bool]) -> int:
    runs = sum(1 for i, c in enumerate(covered) if c and (i == 0 or not covered[i - 1]))
    return sum(covered) - runs


class Restatements:
    """``restated_words`` for the sentences of one text, asked in the order of their starts (each sentence against
    the text before it): the runs of words before each are added to those before the last as the reading moves on,
    not made again from the start of the text for each sentence (a stem of hundreds of long sentences cost the
    square of its length). A sentence asked out of order is measured as ``restated_words`` measures it."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.upto = 0
        self.seen: list[str] = []
        self.runs: set[tuple[str, ...]] = set()

    def __call__(self, sentence: Sentence, before: int) -> int:
        if before <= 0:
            return 0
        if before < self.upto:
            return restated_words(self.text, sentence, before)
        first = max(0, len(self.seen) - RESTATED_WORDS + 1)
        self.seen += LOWER_WORD.findall(self.text[self.upto:before].lower())
        self.upto = before
        seen = self.seen
        self.runs.update(tuple(seen[i:i + RESTATED_WORDS]) for i in range(first, len(seen) - RESTATED_WORDS + 1))
        return _less_runs(covered_by(self.text[sentence.start:sentence.end], self.runs))


def lead_in(found: list[Sentence], text: str) -> int:
    """Where the lead-in of a stem starts among its sentences ``found``: the last paragraph when the stem has more
    than one, else the last sentence that asks (a question mark) and what follows it, else the last sentence."""
    if not found:
        return 0
    last = found[-1].paragraph
    if found[0].paragraph != last:
        return next(i for i, s in enumerate(found) if s.paragraph == last)
    for i in range(len(found) - 1, -1, -1):
        if "?" in text[found[i].start:found[i].end]:
            return i
    return len(found) - 1


def prose(text: str, found: list[Sentence]) -> str:
    """The sentences ``found`` of ``text`` as lower-case letters and digits alone: what two copies of one passage
    share however their spacing, markup or punctuation differ."""
    return "".join(LOWER_ALNUM.findall("".join(text[s.start:s.end] for s in found).lower()))


LOWER_ALNUM = re.compile(r"[a-z0-9]+")
