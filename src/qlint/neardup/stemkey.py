"""What near-duplicate search keeps of each question: its comparison text, numbers, code and word hashes.

Computed per question with its file (in worker processes, and cached), in plain Python: a run whose bank
findings come from the cache never imports numpy or rapidfuzz. ``qlint.neardup.search`` does the bank-wide search.
"""
from __future__ import annotations

import base64
import hashlib
import json
import re
import sys
from array import array
from collections.abc import Callable, Iterable
from functools import lru_cache
from itertools import chain
from typing import NamedTuple

from qlint.language.stems import KEY_STOPWORDS, key_stem
from qlint.language.wordlists import word_lists
from qlint.language.words import has_digit, normalize
from qlint.shapes import lists_of, only

LEAD_INS = re.compile(
    r"\b(?:which|what)\s+(?:one\s+)?of\s+(?:the\s+)?(?:following|these|those)(?:\s+(?:statements?|options?|choices?|"
    r"answers?|items?|best|most|is|are|would|will|can|could|should|does|do))*"
    r"|\b(?:select|choose|pick|mark)\s+(?:the\s+)?(?:one|two|three|four|five|best|correct|right|most\s+\w+)"
    r"(?:\s+(?:answers?|options?|choices?|responses?))?"
    r"|\ball\s+that\s+apply\b|\bthe\s+correct\s+answer\s+is\b|\bbest\s+describes?\b|\bwhich\s+statement\b"
)
_DIGITS = re.compile(r"\d+(?:\.\d+)?")
# code spans, indented code lines and short quoted terms: stems that differ only there ask different things
_CODE = re.compile(r"`[^`]+`|^(?: {4}|\t).+$|\"[^\"\n]{1,40}\"|“[^”\n]{1,40}”", re.MULTILINE)
MAX_COMPARE_CHARS = 4000  # a pathological 3 MB stem must not make a comparison cost seconds
_JSON = json.JSONEncoder(ensure_ascii=False).encode   # json.dumps(value, ensure_ascii=False), its encoder made once


def key_text(stem: str) -> str:
    """The part of a stem that says what it asks: normalised, lead-ins removed."""
    text = normalize(stem[:MAX_COMPARE_CHARS])
    return " ".join(LEAD_INS.sub(" ", text).split())


class StemKey(NamedTuple):
    """What near-duplicate search keeps per question: small, picklable, cacheable (a named tuple: a warm run
    builds one per question from the cache, and a tuple is built several times faster than a dataclass).

    Everything the bank-wide search needs is computed here, per question (in worker processes, and cached
    with the file): the comparison text, the sorted stemmed words (``bag``), and stable 32-bit hashes of
    its words, from which the word trigrams (and word pairs of short stems) that candidates are blocked on
    are coded. ``sig`` is a stable 64-bit hash of everything else (0: unknown), by which the search kept from
    an earlier run (``qlint.neardup.index``) knows a stem it has seen.
    """

    text: str
    numbers: tuple[str, ...]
    code: tuple[str, ...]
    bag_chars: int = 0    # the length of ``bag``, which is made only for the stems compared
    tokens: bytes = b""   # uint32 word hashes, native byte order
    sig: int = 0
    asks: str = ""      # the question after a long shared passage or scenario, as comparison text ("": none)
    answers: str = ""   # digest of the options' texts and which are keys ("": not known)
    choices: bytes = b""   # a short digest of each option's text (``DIGEST`` bytes each), sorted (empty: not known)
    ends: bytes = b""   # uint32 places in the text's words where a sentence ends, native byte order
    gist: int = 0       # a stable hash of the content words in any order (0: none)
    marks: str = ""     # what the stem asks for beyond its content words ("not,true"), sorted
    open: bool = False  # the stem leaves its question to the options ("Which of the following is true?")
    keyed: bytes = b""   # the digests of the keys' texts, sorted, as ``choices`` (empty: not known)
    tail: str = ""      # a stem longer than the compared head: its closing question's words, normalised, ends marked

    @property
    def bag(self) -> str:
        """The stemmed words in sorted order: a swapped pair of words compares as the same stem. Made from the
        text when the search compares two stems, not kept: a million stems would keep a second copy of their
        words (the search first compares their lengths, ``bag_chars``)."""
        return bag(self.text)

    @property
    def core(self) -> str:
        """The stemmed content words, sentence by sentence (" | " between sentences). Made from the text and its
        sentence ends when two stems are compared, not kept: on a million stems it would be a second text each."""
        return core(self.text, self.ends, self.tail)

    @property
    def words(self) -> frozenset[str]:
        """Stemmed content words: "a deque" and "a queue" share text, not meaning."""
        return frozenset(key_stem(w) for w in self.text.split() if len(w) >= 3 and w not in CONTENT_STOPWORDS)


class WordMemo(dict):
    """A function of one word, each word's value computed once and looked up after: ``map(memo.__getitem__,
    words)`` is a dict lookup in C per word, cheaper than an ``lru_cache``'s call. Emptied when it holds ``size``
    words, so a bank of millions of distinct words keeps it bounded."""

    def __init__(self, function: Callable[[str], object], size: int = 1_000_000) -> None:
        super().__init__()
        self.function, self.size = function, size

    def __missing__(self, word: str) -> object:
        if len(self) >= self.size:
            self.clear()
        value = self[word] = self.function(word)
        return value


_STEMS = WordMemo(key_stem)


def bag_of(text: str) -> str:
    """A compared text's stemmed words, sorted."""
    return " ".join(sorted(map(_STEMS.__getitem__, text.split())))


bag = lru_cache(maxsize=4096)(bag_of)   # the search compares a stem with several others


def bag_chars(tokens: list[str]) -> int:
    """The length of ``bag_of`` the text of ``tokens`` (its words): the characters of their stems and a space
    between each two, which sorting does not change."""
    return sum(map(len, map(_STEMS.__getitem__, tokens))) + len(tokens) - 1 if tokens else 0


DIGEST = 5   # bytes of an option's digest in ``choices`` and ``keyed``


def digest_set(packed: bytes) -> set[bytes]:
    """The option digests ``choices`` or ``keyed`` holds, as a set."""
    return {packed[at:at + DIGEST] for at in range(0, len(packed), DIGEST)}


def digest_count(packed: bytes) -> int:
    """How many option digests ``choices`` or ``keyed`` holds."""
    return len(packed) // DIGEST


def _word_hash(token: str) -> int:
    """A stable 32-bit hash of a word (Python's own hash differs from one process to the next). Two words that
    share a hash only make an extra candidate pair, which rapidfuzz then turns down."""
    return int.from_bytes(hashlib.blake2b(token.encode(), digest_size=4).digest(), "little")


_HASHES = WordMemo(_word_hash)


def token_hashes(tokens: list[str]) -> bytes:
    """The stable hashes of a stem's words, as uint32 bytes: trigram codes are made from them for the whole
    bank at once, in numpy (a Python loop of big-integer products per stem cost more than the rest of the key)."""
    return array("I", map(_HASHES.__getitem__, tokens)).tobytes()


_CODE_CHARS = ("`", "\"", "“", "    ", "\t")


# a stem whose text before its last paragraph (or sentence) is this long carries a passage or scenario that
# several questions may share; what such a question asks is its last paragraph
PASSAGE_CHARS = 150
_PARAGRAPHS = re.compile(r"\n\s*\n")
_IMAGE = re.compile(r"!\[[^\]\n]*\]\([^)\n]*\)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(])")


def asked_part(stem: str) -> str:
    """The comparison text of what a stem asks after a long passage ("" when it has none): its last paragraph,
    or for one long paragraph its last sentence."""
    # the question closes the stem: read its end (a long case study asks past the compared head), without the
    # figures that follow it
    tail = _IMAGE.sub(" ", stem[-MAX_COMPARE_CHARS:]).strip()
    last = _PARAGRAPHS.split(tail)[-1]
    if last == tail:
        cut = [m.end() for m in _SENTENCE_END.finditer(tail)]
        last = tail[cut[-1]:] if cut else tail
    if len(stem.rstrip()) - len(last) < PASSAGE_CHARS:   # no long passage before the question
        return ""
    return key_text(last) or ""


def answers_digest(texts: list[str], keys: list[bool]) -> str:
    """A digest of a question's options (case and spacing aside, in any order) and of which ones are keys; ""
    for fewer than three options, which many different questions share by chance ("Yes" / "No")."""
    if len(texts) < 3:
        return ""
    normal = sorted(zip(map(" ".join, map(str.split, map(str.lower, texts))), keys))
    return hashlib.blake2b(_JSON(normal).encode("utf-8", "surrogatepass"),
                           digest_size=8).hexdigest()


def option_digests(texts: list[str]) -> list[bytes]:
    """A short digest of each option's text (case, accents, punctuation and spacing aside), in order: which options
    two questions share ("Ion zinc." and "ion Zinc" are one option)."""
    return [hashlib.blake2b((normalize(t) or t).encode("utf-8", "surrogatepass"), digest_size=DIGEST).digest()
            for t in texts]


def packed(digests: Iterable[bytes]) -> bytes:
    """Option digests as ``choices`` and ``keyed`` hold them: sorted, in one bytes object."""
    return b"".join(sorted(digests))


def choice_digests(texts: list[str]) -> bytes:
    """``option_digests``, sorted and ``packed``."""
    return packed(option_digests(texts))


def stem_key(stem: str, answers: str = "", choices: bytes = b"", keyed: bytes = b"") -> StemKey:
    head = stem[:MAX_COMPARE_CHARS]
    # one normalisation of the head, its sentence ends marked by a word normalising keeps, serves the compared text
    # (key_text(head): the marks dropped), the ask marks and the content words
    marked = normalize(_mark_ends(head))
    cut, leads = LEAD_INS.subn(" ", marked)
    words = cut.split()
    tokens = list(filter(_BREAK.__ne__, words)) if _BREAK in marked else words
    text = " ".join(tokens)
    code = tuple(_CODE.findall(head)) if any(c in head for c in _CODE_CHARS) else ()
    numbers = tuple(sorted(_DIGITS.findall(head))) if has_digit(head) else ()
    asks = asked_part(stem) if len(stem) > PASSAGE_CHARS else ""
    tail = _tail_words(stem)
    sentences = _sentences(_with_tail(words, tail))
    return StemKey(text, numbers, code, bag_chars(tokens), token_hashes(tokens),
                   signature(text, numbers, code, asks, answers), asks, answers, choices, _ends(words) if
                   len(tokens) < len(words) else b"", gist(sentences),
                   sys.intern(ask_marks(marked.split() if leads else words)),
                   leaves_question_to_options(stem), keyed, tail)


# --- what a stem asks: its content words, sentence by sentence, and the words that say what it asks for --------

_LISTS = word_lists("near-duplicate-stem")
_MARKS = {word: name.removeprefix("ask_") for name, words in _LISTS.items() if name.startswith("ask_")
          for word in words}
# function words (English and French), exam boilerplate, filler and the words of ``ask_marks``: what is left of a
# stem is its content
CONTENT_STOPWORDS = KEY_STOPWORDS.union(_LISTS["fillers"], _LISTS["boilerplate"], _LISTS["function_words_fr"], _MARKS)
# a sentence ends at a stop after a word of two letters or more ("U.S. President" is one sentence), or at a line end;
# _BREAK marks it in normalised text (a word no stem has: normalising keeps it as it is)
_BREAK = "qlintsentenceend"
# the stop is matched first and the two letters before it looked back at, so the scan only stops at stops
_SENTENCE_ENDS = re.compile(r"[.!?](?<=[^\W\d_]{2}[.!?])\s+|[;:]\s+|\n\s*")


_VERDICT_ASK = re.compile(_LISTS["verdict_ask"], re.IGNORECASE)
# a part of a word every verdict ask has (``verdict_ask``)
_VERDICT_HINTS = ("true", "fals", "correct", "accura", "support", "infer", "except", "odd", "belong", "exact", "vrai",
                  "faux", "fauss", "juste")
_VERBS = frozenset(_LISTS["verbs"])
_ARTICLES = frozenset(("the", "a", "an", "le", "la", "les", "l", "un", "une", "des", "du"))
_FENCED = re.compile(r"```.*?(?:```|\Z)|`[^`\n]*`", re.DOTALL)


def _mark_ends(text: str) -> str:
    """``text`` with each sentence end replaced by ``_BREAK``: a stop after two letters (not after an initial or
    an abbreviation such as "U.S."), a semicolon or a colon, a line end."""
    return _SENTENCE_ENDS.sub(f" {_BREAK} ", text)


def _content_stem(word: str) -> str:
    """A normalised word's stem when it is a content word ("" for function words, filler, marks and numbers:
    numbers are compared apart, so a renumbered stem has the content of its twin)."""
    return "" if word in CONTENT_STOPWORDS or word.isdigit() else key_stem(word)


_CONTENT_STEMS = WordMemo(_content_stem)


def _joined(words: list[str]) -> list[str]:
    """Normalised words, with runs of single letters joined ("U.S." and "US" are one word)."""
    if not any(len(w) == 1 for w in words):
        return words
    out: list[str] = []
    run: list[str] = []
    for word in words + [""]:
        if len(word) == 1 and word.isalpha():
            run.append(word)
            continue
        if run:
            out.append("".join(run))
            run = []
        if word:
            out.append(word)
    return out


def content_sentences(stem: str, words: list[str] | None = None) -> list[list[str]]:
    """The stemmed content words of each sentence of the compared head, and of the question that closes a stem
    longer than the head. ``words``: the head's normalised words, lead-ins out and sentence ends marked (made here
    when not given)."""
    if words is None:
        words = LEAD_INS.sub(" ", normalize(_mark_ends(stem[:MAX_COMPARE_CHARS]))).split()
    return _sentences(_with_tail(words, _tail_words(stem)))


def _with_tail(words: list[str], tail: str) -> list[str]:
    """The head's words followed, as a sentence of their own, by the closing question's (``_tail_words``)."""
    return words + [_BREAK, *tail.split()] if tail else words


def _tail_words(stem: str) -> str:
    """The normalised words of the question that closes a stem longer than the compared head, sentence ends marked
    ("" for a stem the head holds whole)."""
    if len(stem) <= MAX_COMPARE_CHARS:
        return ""
    return " ".join(normalize(_mark_ends(_PARAGRAPHS.split(stem[-MAX_COMPARE_CHARS:].strip())[-1])).split())


def _sentences(words: list[str]) -> list[list[str]]:
    """Normalised words with sentence ends marked, as the stemmed content words of each sentence."""
    if 1 in map(len, words):
        words = _joined(words)
    words = [*words, _BREAK]   # an end after the last word closes the last sentence
    out: list[list[str]] = []
    at = 0
    while at < len(words):
        stop = words.index(_BREAK, at)   # each word is read once: the scans go from one end to the next
        if sentence := list(filter(None, map(_CONTENT_STEMS.__getitem__, words[at:stop]))):
            out.append(sentence)
        at = stop + 1
    return out


def _ends(words: list[str]) -> bytes:
    """Where the sentence ends marked in ``words`` fall among the other words, as uint32 places (each once)."""
    places, at = [], 0
    for word in words:
        if word != _BREAK:
            at += 1
        elif not places or places[-1] != at:
            places.append(at)
    return array("I", places).tobytes()


@lru_cache(maxsize=4096)   # the search compares a stem with several others
def core(text: str, ends: bytes, tail: str = "") -> str:
    """A key's stemmed content words, sentence by sentence (" | " between sentences), from its compared text, the
    places of its sentence ends (``_ends``) and its closing question's words (``_tail_words``)."""
    tokens = text.split()
    words: list[str] = []
    at = 0
    for place in array("I", ends):
        words += tokens[at:place]
        words.append(_BREAK)
        at = max(at, place)
    words += tokens[at:]
    return " | ".join(" ".join(sentence) for sentence in _sentences(_with_tail(words, tail)))


def gist(sentences: list[list[str]]) -> int:
    """A stable 64-bit hash of the content words in any order (0: there are none): stems that differ only in
    word order, punctuation and filler have the same gist."""
    words = sorted(chain.from_iterable(sentences))
    if not words:
        return 0
    return int.from_bytes(hashlib.blake2b(" ".join(words).encode("utf-8", "surrogatepass"), digest_size=8).digest(),
                          "little") or 1


def ask_marks(words: list[str]) -> str:
    """The words that say what a stem asks for ("not", "false", "must", "least", ...), as sorted names; ``words``
    are the stem's normalised words, lead-ins and all."""
    return ",".join(sorted(map(_MARKS.__getitem__, filter(_MARKS.__contains__, words))))


def leaves_question_to_options(stem: str) -> bool:
    """Whether the stem's question is in its options: a verdict ask ("Which of the following is true?", "could
    be true", "EXCEPT", "laquelle est exacte ?") or a bare topic ("Le virus de l'hepatite B :")."""
    tail = stem[-MAX_COMPARE_CHARS:]
    last = _PARAGRAPHS.split((_FENCED.sub(" ", tail) if "`" in tail else tail).strip())[-1]
    probe = last[-1000:].lower()
    # the verdict words, tested as substrings first: most stems have none of them
    if any(hint in probe for hint in _VERDICT_HINTS) and _VERDICT_ASK.search(probe):
        return True
    if len(last) > 200:   # a bare topic is a few words
        return False
    words = normalize(last).split()
    if len(words) > 12 or any(w in _VERBS for w in words):
        return False
    content = sum(1 for w in words if w not in CONTENT_STOPWORDS)
    if last.rstrip().endswith((":", "…", "...")):
        return content <= 5
    # a noun phrase alone: "La pharmacovigilance", "The mitochondrion"
    return bool(words) and words[0] in _ARTICLES and content <= 3 and last.rstrip()[-1:] not in "?.!"


def signature(text: str, numbers: tuple[str, ...], code: tuple[str, ...], asks: str = "", answers: str = "") -> int:
    """A stable 64-bit hash of what a key is made of (its bag and tokens follow from its text); never 0."""
    # unambiguous whatever the texts hold: the text alone when there is nothing else, else all as JSON
    rest = (numbers, code, asks, answers)
    spelled = "0" + text if not any(rest) else "1" + _JSON((text, *rest))
    digest = hashlib.blake2b(spelled.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "little") or 1


# --- the cache's encoding of one file's keys (near-duplicate-stem's ``encode``/``decode``) -----------------------


def encode_keys(keys: list[StemKey]) -> list:
    """One file's stem keys, column by column: JSON lists, and the word hashes of all of them as one base64 blob
    with their lengths (a warm run decodes a million of them)."""
    return [[k.text for k in keys], [k.numbers for k in keys], [k.code for k in keys], [k.bag_chars for k in keys],
            [len(k.tokens) for k in keys], base64.b64encode(b"".join(k.tokens for k in keys)).decode("ascii"),
            [k.sig for k in keys], [k.asks for k in keys], [k.answers for k in keys], [k.choices.hex() for k in keys],
            [k.ends.hex() for k in keys], [k.gist for k in keys], [k.marks for k in keys], [k.open for k in keys],
            [k.keyed.hex() for k in keys], [k.tail for k in keys]]


def decode_keys(data: object, count: int) -> list[StemKey]:
    """``encode_keys``'s output back as ``count`` keys; ValueError for anything not in that shape."""
    if not (type(data) is list and len(data) == 16):
        raise ValueError("not an encoding of stem keys")
    texts, numbers, codes, bags, sizes, blob, sigs, asks, answers, choices, ends, gists, marks, opens, keyed, tails = data
    columns = (texts, numbers, codes, bags, sizes, sigs, asks, answers, choices, ends, gists, marks, opens, keyed, tails)
    if not (all(type(c) is list and len(c) == count for c in columns) and type(blob) is str
            and only(texts, str) and only(bags, int) and only(sizes, int) and only(sigs, int) and only(asks, str)
            and only(answers, str) and lists_of(numbers, str) and lists_of(codes, str) and only(choices, str)
            and only(ends, str) and only(tails, str) and only(gists, int) and only(marks, str) and only(opens, bool)
            and only(keyed, str)):
        raise ValueError("not an encoding of stem keys")
    hashes = base64.b64decode(blob, validate=True)
    if sizes and not (min(sizes) >= 0 and sum(sizes) == len(hashes) and all(n % 4 == 0 for n in sizes)):
        raise ValueError("word hashes out of shape")
    if (sigs and not (min(sigs) >= 0 and max(sigs) < 1 << 64)) or (gists and not (min(gists) >= 0
                                                                                   and max(gists) < 1 << 64)):
        raise ValueError("signature out of range")
    out, at = [], 0
    if bags and min(bags) < 0:
        raise ValueError("a length out of range")
    choices, ends, keyed = _unhexed(choices, DIGEST), _unhexed(ends, 4), _unhexed(keyed, DIGEST)
    for t, n, c, b, size, sig, q, a, ch, e, g, m, o, k, tl in zip(texts, numbers, codes, bags, sizes, sigs, asks,
                                                                  answers, choices, ends, gists, marks, opens, keyed,
                                                                  tails):
        out.append(StemKey(t, tuple(n), tuple(c), b, hashes[at:at + size], sig, q, a, ch, e, g, sys.intern(m), o, k,
                           tl))
        at += size
    return out


def _unhexed(texts: list[str], size: int) -> list[bytes]:
    """Each text's bytes from its hex, the whole column in one pass (a warm run decodes a million of them);
    ValueError unless each is whole records of ``size`` bytes in hex digits alone."""
    if any(len(text) % (2 * size) for text in texts):
        raise ValueError("packed values out of shape")
    data = bytes.fromhex("".join(texts))
    if len(data) * 2 != sum(map(len, texts)):   # a space, which ``fromhex`` skips
        raise ValueError("packed values out of shape")
    out, at = [], 0
    for text in texts:
        end = at + len(text) // 2
        out.append(data[at:end])
        at = end
    return out
