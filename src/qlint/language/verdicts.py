"""A rationale's opening verdict: whether it begins by calling its option correct or incorrect ("Correct.",
"This is wrong because ..."), read by rationale-contradicts-key and by the bank-consistency comparison."""
import re

# what may come before the verdict: spaces, a run of markup or a label; possessive, as the verdict opens with a
# letter that none of them takes (spaces handed back one at a time to the run made a long run quadratic)
_NOISE = r"^\s*+(?:[*_#>\-\s]++|\(?[A-Ha-h]\)\s*+|[A-H][.:]\s++)?"
_POSITIVE = re.compile(_NOISE + "(?:" + "|".join((
    # "Correct." / "Correct, because" -- not "Correct answer is B" (which points elsewhere)
    r"correct(?!\s+answer\b|\s+option\b|\s+choice\b|\s+is\b)(?:\s*[.!:,;—–-]|\s+(?:because|since|as|—))",
    r"correct\s*$",
    r"(?:this|that|it)\s+is\s+(?:the\s+)?(?:correct|right|best)(?:\s+(?:answer|option|choice|response))?\b"
    r"(?!\s+(?:only|if|when|for)\b)",
    r"(?:this|that)\s+(?:option|answer|choice)\s+is\s+(?:correct|right)\b",
    r"that's\s+(?:correct|right)\b",
)) + ")", re.I)
_NEGATIVE = re.compile(_NOISE + "(?:" + "|".join((
    r"(?:incorrect|wrong|not\s+correct)(?:\s*[.!:,;—–-]|\s+(?:because|since|as|—)|\s*$)",
    r"(?:this|that|it)\s+is\s+(?:incorrect|wrong|not\s+(?:correct|right|the\s+(?:correct|right|best)\s+answer))\b",
    r"(?:this|that)\s+(?:option|answer|choice)\s+is\s+(?:incorrect|wrong|not\s+(?:correct|right))\b",
    r"that's\s+(?:incorrect|wrong|not\s+(?:correct|right))\b",
)) + ")", re.I)
_HEDGE = re.compile(r"^\s*(?:partially|partly|mostly|almost|nearly|technically|not\s+entirely|half)\b", re.I)


def polarity(rationale: str | None) -> int:
    """+1 when a rationale opens with a 'correct' verdict, -1 with an 'incorrect' one, 0 otherwise."""
    if not rationale or _HEDGE.match(rationale):
        return 0
    return -1 if _NEGATIVE.match(rationale) else 1 if _POSITIVE.match(rationale) else 0
