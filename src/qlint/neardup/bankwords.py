"""The words the bank-consistency rules compare, as stable numbers: what a stem asks, what an option states, the
content words of a text. Computed per question with its file (in the workers, and cached); plain Python.

Texts are read through the near-duplicate key's normalisation and stemmer (``normalize``, ``key_stem``): case,
accents and punctuation aside, 'groups' and 'group' alike. Hashes are blake2b, stable from one process and one
run to the next (Python's own ``hash`` is not).
"""
from __future__ import annotations

import base64
import hashlib
import re
import zlib
from array import array
from functools import lru_cache

from qlint.language.stems import CUE_STOPWORDS, FRENCH_STOPWORDS, KEY_STOPWORDS, key_stem
from qlint.language.words import normalize
from qlint.shapes import only

CONTENT_BIT = 1 << 31
HASH_MASK = CONTENT_BIT - 1
MAX_TEXT_CHARS = 20_000   # a pathological 3 MB explanation is read this far

# words that change what a stem asks ("not", "most", "before"): kept in its ask, though the near-duplicate key drops
# them; and the words that only say how it asks, dropped (polarity is read apart, as ``negative``)
_MEANING = frozenset("""
not no nor only more most least few before after above below against under over up down off out all any each both
some same other than first last best likely into from to without never always pas plus moins ne ni sans seule tous
tout toute toutes
""".split())
_POLARITY = frozenset("""
true false correct incorrect right wrong untrue inaccurate accurate valid invalid except exacte exactes inexacte
inexactes fausse fausses vraie vraies juste justes sauf
""".split())
_FILLER = frozenset("""
actually basically really exactly just simply typically generally usually currently please also still indeed
specifically particular particularly here there following statement statements option options answer answers
choice choices question
""".split())
_ASK_IGNORED = ((KEY_STOPWORDS | FRENCH_STOPWORDS) - _MEANING) | _POLARITY | _FILLER
_PHRASE_IGNORED = KEY_STOPWORDS | FRENCH_STOPWORDS
_CONTEXT_IGNORED = CUE_STOPWORDS | FRENCH_STOPWORDS

# a stem that asks for what is false (its key is a false statement, its distractors true ones)
_NEGATIVE = re.compile(r"\b(?:NOT|EXCEPT|FALSE|INCORRECT|UNTRUE)\b|(?i:\b(?:except|false|incorrect|untrue|inaccurate|"
                       r"wrong|not\s+(?:true|correct|accurate|valid|right|the\s+case)|fausses?|inexactes?|"
                       r"incorrectes?|sauf)\b|n['’]est\s+pas\b|ne\s+sont\s+pas\b)")
# the words without which the patterns cannot match: a question's words are read once, the patterns only when one
# of these is among them (a bank rarely asks for the false option; a regex over every stem cost more than the rest)
_NEGATIVE_CUES = frozenset("not except false incorrect untrue inaccurate wrong fausse fausses inexacte inexactes "
                           "incorrecte incorrectes sauf pas".split())
# a stem that asks for the best of its options: another option list may have a better one
_SUPERLATIVE = frozenset("best most least first primary main recommended preferred ideal optimal cheapest fastest "
                         "simplest meilleur meilleure meilleurs meilleures principal principale principaux "
                         "principales".split())
# a stem that points at material it does not hold: "this quote", "the exhibit", "the users shown in the table"
_EXHIBIT = re.compile(r"(?i)\b(?:this|these|the\s+following|the\s+above|the\s+shown)\s+(?:\w+\s+)?(?:phrase|quote|quotation|"
                      r"clip|audio|sound|song\s+clip|lyrics?|picture|image|photo(?:graph)?|screen\s?shot|diagram|"
                      r"exhibit|figure|graph|chart|logo|flag|map|table|video|scene|painting|drawing)s?\b"
                      r"|\b(?:shown|pictured|displayed|depicted|illustrated)\s+(?:below|above|here|in\s+the)\b"
                      r"|\b(?:refer|see)\s+to\s+the\s+exhibit\b")
_EXHIBIT_CUES = frozenset("this these following above shown pictured displayed depicted illustrated refer see".split())
_INLINE_EXHIBIT = re.compile(r"!\[|<img\b|^\s*\|.*\|\s*$|```|^(?: {4}|\t)\S", re.MULTILINE)


# in an ASCII text, whose normalised words are exactly its runs of \w lower-cased, the words every match of a pattern
# holds; a stem is searched only when they are among its words (the patterns' own cue words are too common: "not"
# is in most passages, "the" and "this" in most stems)
_FALSE_WORDS = frozenset("except false incorrect untrue inaccurate wrong fausse fausses inexacte inexactes incorrecte "
                         "incorrectes sauf pas".split())   # "pas" ends "n'est pas" and "ne sont pas"
_NOT_WHAT = frozenset("true correct accurate valid right case".split())   # "not true", ..., "not the case"
_POINTERS = frozenset("this these the".split())
_SHOWN = frozenset("shown pictured displayed depicted illustrated".split())
_WHERE_SHOWN = frozenset("below above here in".split())
_EXHIBITS = frozenset(word + ending for word in """phrase quote quotation clip audio sound lyric lyrics picture image
photo photograph screenshot shot diagram exhibit figure graph chart logo flag map table video scene painting
drawing""".split() for ending in ("", "s"))


@lru_cache(maxsize=64)
def read_stem(text: str) -> Stem:
    """A stem read once for every rule that asks: the bank-consistency rules extract their records from the same
    question one after the other, in the same worker."""
    return Stem(text)


class Stem:
    """A stem read once: its text, its normalised words and the set of them (for the cheap tests), and its words'
    numbers in a phrase (``phrase``) and in what it asks (``asks``). What a rule asks of it is worked out when first
    asked and kept: the rules that share the stem need different parts of it."""

    __slots__ = ("text", "words", "vocabulary", "_phrase", "_asks", "_negative", "_exhibit")

    def __init__(self, text: str) -> None:
        self.text = text
        self.words = normalize(text).split()
        self.vocabulary = frozenset(self.words)
        self._phrase: list[int] | None = None
        self._asks: list[int] | None = None
        self._negative: bool | None = None
        self._exhibit: bool | None = None

    @property
    def phrase(self) -> list[int]:
        """The words' numbers in a phrase, function words left out (``_codes``)."""
        if self._phrase is None:
            self._phrase = [p for p, _ in map(_codes, self.words) if p]
        return self._phrase

    @property
    def asks(self) -> list[int]:
        """The words' numbers in what the stem asks, the words an ask leaves out left out (``_codes``)."""
        if self._asks is None:
            self._asks = list(filter(None, map(_ask_code, self.words)))
        return self._asks

    @property
    def negative(self) -> bool:
        """Whether the stem asks for the false option ("Which is NOT true", "EXCEPT", "laquelle est fausse")."""
        if self._negative is None:
            words, text = self.vocabulary, self.text
            if text.isascii():
                cued = not words.isdisjoint(_FALSE_WORDS) or ("not" in words and (
                    "NOT" in text or not words.isdisjoint(_NOT_WHAT)))
            else:
                cued = not words.isdisjoint(_NEGATIVE_CUES)
            self._negative = cued and _NEGATIVE.search(text) is not None
        return self._negative

    @property
    def superlative(self) -> bool:
        """Whether the stem asks for the best of its options (another list of options may hold a better one)."""
        return not self.vocabulary.isdisjoint(_SUPERLATIVE)

    @property
    def unseen_exhibit(self) -> bool:
        """Whether the stem refers to a figure, table, quote or clip that is not in its text (two such stems read
        alike and ask about different things)."""
        if self._exhibit is None:
            words, text = self.vocabulary, self.text
            if text.isascii():
                cued = ((not words.isdisjoint(_EXHIBITS) and not words.isdisjoint(_POINTERS))
                        or (not words.isdisjoint(_SHOWN) and not words.isdisjoint(_WHERE_SHOWN))
                        or ("exhibit" in words and ("refer" in words or "see" in words)))
            else:
                cued = not words.isdisjoint(_EXHIBIT_CUES)
            self._exhibit = (cued and '"' not in text and "“" not in text and _EXHIBIT.search(text) is not None
                             and not _INLINE_EXHIBIT.search(text))
        return self._exhibit


_CODE = re.compile(r"`[^`]+`|^(?: {4}|\t).+$", re.MULTILINE)
_IMAGE = re.compile(r"!\[[^\]\n]*\]\(([^)\n]*)\)")   # the images' addresses; ``image_addresses`` finds them


def image_addresses(text: str) -> list[str]:
    """``_IMAGE.findall(text)``, in time linear in the text: the pattern, tried from every "![", reads to the end of
    the line from each when no "](...)" follows (a stem of 60,000 "![" took 16 s). A try from "![" ends at the first
    "]" or line break after it, and every later try that starts before that place ends there too, with the same
    outcome; so each failure moves past it instead of one character on."""
    found = []
    end, i = len(text), text.find("![")
    while i >= 0:
        close, stop = text.find("]", i + 2), text.find("\n", i + 2)
        stop = end if stop < 0 else stop
        if close < 0:
            break   # no "]" ahead: no try can match
        if stop < close:   # the line ends first: so does every try from this line
            i = text.find("![", stop + 1)
            continue
        if text.startswith("(", close + 1):
            paren = text.find(")", close + 2)
            if 0 <= paren < stop:
                found.append(text[close + 2:paren])
                i = text.find("![", paren + 1)
                continue
            i = text.find("![", stop + 1)   # no ")" on this line: every try from it fails at its end
            continue
        i = text.find("![", close + 1)
    return found


def digest(text: str) -> int:
    """A stable 64-bit number for a text; never 0 (0 means "none"). Two CRCs (one of the text reversed): options
    are compared only among the few questions that ask the same thing, where a chance clash of 64 bits is no
    concern, and a cryptographic hash of every option cost more than reading it."""
    data = text.encode("utf-8", "surrogatepass")
    return (zlib.crc32(data) << 32 | zlib.crc32(data[::-1])) or 1


@lru_cache(maxsize=500_000)
def _codes(word: str) -> tuple[int, int]:
    """A normalised word's numbers: in a phrase (31 bits of its stem's hash, with ``CONTENT_BIT`` set for a content
    word; 0 for a function word, which phrases skip), and in what a stem asks (32 other bits; 0 for a word an ask
    leaves out). One hash of the stem for both: the two rules that read them read the same words."""
    stem = key_stem(word)
    value = int.from_bytes(hashlib.blake2b(stem.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "little")
    phrase = 0
    if word not in _PHRASE_IGNORED:
        content = len(word) >= 3 and word not in _CONTEXT_IGNORED   # a year or a count (1971, 404) says a lot
        phrase = ((value & HASH_MASK) or 1) | (CONTENT_BIT if content else 0)
    return phrase, (0 if word in _ASK_IGNORED else (value >> 32) or 1)


@lru_cache(maxsize=500_000)
def _ask_code(word: str) -> int:
    """A normalised word's number in what a stem asks (``_codes``), alone: what a stem asks is read word by word,
    and most of its words are read again and again across a bank."""
    return _codes(word)[1]


def phrase_codes(text: str, limit: int = MAX_TEXT_CHARS) -> list[int]:
    """The words of a text that a phrase is made of (function words dropped), as numbers, in order."""
    return codes_of(normalize(text[:limit]).split())


def codes_of(words: list[str]) -> list[int]:
    """``phrase_codes`` of words already normalised."""
    return [p for p, _ in map(_codes, words) if p]


def ask_digests(stem: Stem) -> tuple[int, int, list[int]]:
    """What a stem asks: its words in order and sorted, as two digests, and the words themselves as 32-bit numbers
    (to tell a swapped pair of neighbours from other reorderings). Function words, polarity ("true", "NOT": read
    apart, as ``Stem.negative``) and fillers ("actually") are left out; code, and figures by their file names, are
    part of it."""
    text = stem.text
    words = stem.asks if not stem.negative else list(filter(None, map(_ask_code, normalize(_NEGATIVE.sub(" ", text))
                                                                      .split())))
    code = _CODE.findall(text) if "`" in text or "    " in text or "\t" in text else []
    extra = "\x1f".join([" ".join(c.split()) for c in code] + image_addresses(text))
    extra_bytes = extra.encode("utf-8", "surrogatepass")
    return (_bytes_digest(array("I", words).tobytes() + b"\x1e" + extra_bytes),
            _bytes_digest(array("I", sorted(words)).tobytes() + b"\x1e" + extra_bytes), words)


def _bytes_digest(data: bytes) -> int:
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little") or 1


def one_swap(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Whether two word sequences differ only by two neighbours swapped ("Python and Java" / "Java and Python";
    not "a male lion and a female tiger" / "a female lion and a male tiger")."""
    if len(a) != len(b) or a == b:
        return False
    diff = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]


_CODE_CHARS = frozenset("`()[]{}=<>;_$\\")
_DOTTED = re.compile(r"\w\.\w")
_RELATIONAL_FIRST = frozenset("all none both neither any a b c d e f i ii iii iv v vi vii viii aucune toutes tous "
                              "aucun".split())
_RELATIONAL = re.compile(
    r"^(?:all|none|both|neither|any)\b.*\b(?:above|below|these|those|them|options?|answers?|choices?|listed|"
    r"mentioned|previous|preceding|others?)$|^(?:all|none|both|neither)(?: of them)?$"
    r"|^(?:[a-f]|i{1,3}|iv|v|vi{0,3})(?: (?:and|or|&) (?:[a-f]|i{1,3}|iv|v|vi{0,3}))+(?: only)?$"
    r"|^(?:aucune|toutes|tous|aucun)\b.*\b(?:reponses?|propositions?|dessus|autres)\b")


@lru_cache(maxsize=1 << 16)
def statement(text: str) -> tuple[int, bool]:
    """An option's statement as a number (0: it states nothing of its own), and whether it refers to the other
    options ("All of the above", "A and B", "None of these"), which makes it no statement. Prose is compared with
    case and punctuation aside; code as written ('pt[1]' and 'pt.1' differ). Kept for the texts met most recently:
    a bank's options repeat ("True", "None of the above", the same answers across a topic's questions)."""
    spelled = " ".join(text.split())
    if (not _CODE_CHARS.isdisjoint(spelled) or "::" in spelled or "->" in spelled or spelled.startswith(".")
            or ("." in spelled and _DOTTED.search(spelled))):
        shown = spelled.strip("`").rstrip(".").strip()
        return (digest("c" + shown) if shown else 0), False
    plain = normalize(spelled)
    if not plain:
        return 0, False
    if plain.split(" ", 1)[0] in _RELATIONAL_FIRST and _RELATIONAL.search(plain):
        return 0, True
    return digest("p" + plain), False


# --- the cache's encoding of one file's records (the bank-consistency rules' ``encode``/``decode``) --------------


class Records:
    """One file's per-question records as the cache gives them back: all their bytes, and each one's length. Every
    question of the file has this one object as its feature (row by row, in order): a warm run decodes a file's
    records in a few C calls instead of making an object per question."""

    __slots__ = ("data", "lengths")

    def __init__(self, data: bytes, lengths: array) -> None:
        self.data, self.lengths = data, lengths


def encode_records(values: list) -> str:
    """One file's records (bytes, or the file's ``Records`` as decoded) as one base64 text: the count, each
    length (32 bits), then the bytes."""
    if values and all(v is values[0] for v in values) and isinstance(values[0], Records):
        lengths, data = values[0].lengths, values[0].data
    else:
        records = [v if isinstance(v, bytes) else b"" for v in values]
        lengths, data = array("I", map(len, records)), b"".join(records)
    return base64.b64encode(array("I", [len(lengths)]).tobytes() + lengths.tobytes() + data).decode("ascii")


def decode_records(data: object, count: int, unit: int = 1) -> list:
    """``encode_records``'s output back as the file's ``Records``, once per question (each record a multiple of
    ``unit`` bytes long); ValueError for anything not in that shape."""
    if type(data) is not str:
        raise ValueError("not an encoding of per-question records")
    whole = base64.b64decode(data, validate=True)
    head = 4 * (count + 1)
    if len(whole) < head:
        raise ValueError("records out of shape")
    numbers = array("I")
    numbers.frombytes(whole[:head])
    lengths = numbers[1:]
    if numbers[0] != count or sum(lengths) != len(whole) - head or any(n % unit for n in lengths):
        raise ValueError("records out of shape")
    return [Records(whole[head:], lengths)] * count


def gather(questions, name: str) -> tuple[bytes, array]:
    """Every question's record of rule ``name`` joined in bank order, and each one's length (0: none): a file's
    ``Records`` are taken whole (its questions come one after another), a fresh question's bytes one by one."""
    parts: list[bytes] = []
    lengths = array("I")
    current: Records | None = None
    row = 0
    for item in questions:
        value = item.features.get(name)
        if isinstance(value, Records):
            if value is not current:
                _close(parts, current, row)
                current, row = value, 0
                parts.append(value.data)
            if row < len(value.lengths):
                lengths.append(value.lengths[row])
                row += 1
                continue
            value = None   # more questions than the file's records: never written so; the rest have none
        _close(parts, current, row)
        current = None
        record = value if isinstance(value, bytes) else b""
        parts.append(record)
        lengths.append(len(record))
    _close(parts, current, row)
    return b"".join(parts), lengths


def _close(parts: list[bytes], current: Records | None, row: int) -> None:
    """A file's records left after ``row`` questions: the bytes of the rows not taken are cut off."""
    if current is not None and row < len(current.lengths):
        parts[-1] = current.data[:sum(current.lengths[:row])]
