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
NEGATIVE = re.compile(r"\b(?:NOT|EXCEPT|FALSE|INCORRECT|UNTRUE)\b|(?i:\b(?:except|false|incorrect|untrue|inaccurate|"
                      r"wrong|not\s+(?:true|correct|accurate|valid|right|the\s+case)|fausses?|inexactes?|"
                      r"incorrectes?|sauf)\b|n['’]est\s+pas\b|ne\s+sont\s+pas\b)")
# a stem that asks for the best of its options: another option list may have a better one
SUPERLATIVE = re.compile(r"(?i)\b(?:best|most|least|first|primary|main|recommended|preferred|ideal|optimal|"
                         r"cheapest|fastest|simplest|MOST|LEAST|BEST|meilleure?s?|principale?s?)\b")
# a stem that points at material it does not hold: "this quote", "the exhibit", "the users shown in the table"
_EXHIBIT = re.compile(r"(?i)\b(?:this|these|the\s+following|the\s+above|the\s+shown)\s+(?:\w+\s+)?(?:phrase|quote|quotation|"
                      r"clip|audio|sound|song\s+clip|lyrics?|picture|image|photo(?:graph)?|screen\s?shot|diagram|"
                      r"exhibit|figure|graph|chart|logo|flag|map|table|video|scene|painting|drawing)s?\b"
                      r"|\b(?:shown|pictured|displayed|depicted|illustrated)\s+(?:below|above|here|in\s+the)\b"
                      r"|\b(?:refer|see)\s+to\s+the\s+exhibit\b")
_INLINE_EXHIBIT = re.compile(r"!\[|<img\b|^\s*\|.*\|\s*$|```|^(?: {4}|\t)\S", re.MULTILINE)


def unseen_exhibit(stem: str) -> bool:
    """Whether a stem refers to a figure, table, quote or clip that is not in its text (two such stems read alike
    and ask about different things)."""
    return bool(_EXHIBIT.search(stem)) and not _INLINE_EXHIBIT.search(stem) and '"' not in stem and "“" not in stem


_CODE = re.compile(r"`[^`]+`|^(?: {4}|\t).+$", re.MULTILINE)
_IMAGE = re.compile(r"!\[[^\]\n]*\]\(([^)\n]*)\)")


def digest(text: str) -> int:
    """A stable 64-bit number for a text; never 0 (0 means "none")."""
    value = int.from_bytes(hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "little")
    return value or 1


@lru_cache(maxsize=500_000)
def _phrase_code(word: str) -> int:
    """A normalised word's number in a phrase (31 bits, its stem's hash) with ``CONTENT_BIT`` set for a content
    word; 0 for a function word, which phrases skip."""
    if word in _PHRASE_IGNORED:
        return 0
    stem = key_stem(word)
    code = int.from_bytes(hashlib.blake2b(stem.encode("utf-8", "surrogatepass"), digest_size=4).digest(),
                          "little") & HASH_MASK
    content = len(word) >= 3 and word not in _CONTEXT_IGNORED and not word.isdigit()
    return (code or 1) | (CONTENT_BIT if content else 0)


def phrase_codes(text: str, limit: int = MAX_TEXT_CHARS) -> list[int]:
    """The words of a text that a phrase is made of (function words dropped), as numbers, in order."""
    return [c for c in map(_phrase_code, normalize(text[:limit]).split()) if c]


def content_codes(codes: list[int]) -> set[int]:
    """The content words among a text's phrase codes."""
    return {c for c in codes if c & CONTENT_BIT}


def ask_digests(stem: str) -> tuple[int, int, list[int]]:
    """What a stem asks: its words in order and sorted, as two digests, and the words themselves as 32-bit numbers
    (to tell a swapped pair of neighbours from other reorderings). Function words, polarity ("true", "NOT": the
    ``NEGATIVE`` pattern reads those) and fillers ("actually") are left out; code, and figures by their file names,
    are part of it."""
    words = [key_stem(w) for w in normalize(NEGATIVE.sub(" ", stem)).split() if w not in _ASK_IGNORED]
    code = _CODE.findall(stem) if "`" in stem or "    " in stem or "\t" in stem else []
    extra = "\x1f".join([" ".join(c.split()) for c in code] + _IMAGE.findall(stem))
    return (digest(" ".join(words) + "\x1e" + extra), digest(" ".join(sorted(words)) + "\x1e" + extra),
            [_word_code(w) for w in words])


@lru_cache(maxsize=500_000)
def _word_code(stem: str) -> int:
    return int.from_bytes(hashlib.blake2b(stem.encode("utf-8", "surrogatepass"), digest_size=4).digest(), "little")


def one_swap(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Whether two word sequences differ only by two neighbours swapped ("Python and Java" / "Java and Python";
    not "a male lion and a female tiger" / "a female lion and a male tiger")."""
    if len(a) != len(b) or a == b:
        return False
    diff = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]


_CODE_LIKE = re.compile(r"[`()\[\]{}=<>;_$\\]|::|->|^\.|\w\.\w")
_RELATIONAL = re.compile(
    r"^(?:all|none|both|neither|any)\b.*\b(?:above|below|these|those|them|options?|answers?|choices?|listed|"
    r"mentioned|previous|preceding|others?)$|^(?:all|none|both|neither)(?: of them)?$"
    r"|^(?:[a-f]|i{1,3}|iv|v|vi{0,3})(?: (?:and|or|&) (?:[a-f]|i{1,3}|iv|v|vi{0,3}))+(?: only)?$"
    r"|^(?:aucune|toutes|tous|aucun)\b.*\b(?:reponses?|propositions?|dessus|autres)\b")


def statement(text: str) -> tuple[int, bool]:
    """An option's statement as a number (0: it states nothing of its own), and whether it refers to the other
    options ("All of the above", "A and B", "None of these"), which makes it no statement. Prose is compared with
    case and punctuation aside; code as written ('pt[1]' and 'pt.1' differ)."""
    spelled = " ".join(text.split())
    if _CODE_LIKE.search(spelled):
        shown = spelled.strip("`").rstrip(".").strip()
        return (digest("c" + shown) if shown else 0), False
    plain = normalize(spelled)
    if not plain:
        return 0, False
    if _RELATIONAL.search(plain):
        return 0, True
    return digest("p" + plain), False


# --- the cache's encoding of one file's records (the bank-consistency rules' ``encode``/``decode``) --------------


def encode_records(records: list[bytes]) -> list:
    """One file's per-question records: their lengths, and their bytes as one base64 text."""
    return [[len(r) for r in records], base64.b64encode(b"".join(records)).decode("ascii")]


def decode_records(data: object, count: int, unit: int = 1) -> list[bytes]:
    """``encode_records``'s output back as ``count`` records (each a multiple of ``unit`` bytes long); ValueError
    for anything not in that shape."""
    if not (type(data) is list and len(data) == 2 and type(data[0]) is list and len(data[0]) == count
            and only(data[0], int) and type(data[1]) is str):
        raise ValueError("not an encoding of per-question records")
    whole = base64.b64decode(data[1], validate=True)
    sizes = data[0]
    if (sizes and min(sizes) < 0) or sum(sizes) != len(whole) or any(size % unit for size in sizes):
        raise ValueError("records out of shape")
    out, at = [], 0
    for size in sizes:
        out.append(whole[at:at + size])
        at += size
    return out
