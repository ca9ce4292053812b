"""Declarative rule packs: word- and phrase-based rules written as YAML data (in the spirit of Vale).

A pack file holds one rule, or a mapping with a ``rules:`` list. Each rule
``extends`` one kind:

- ``existence``: report any of ``tokens`` (words or phrases, matched on word
  boundaries, case-insensitive unless ``ignorecase: false``), except where one of
  ``exceptions`` covers the match.
- ``substitution``: report each key of ``swap`` and suggest its value.
- ``pattern``: report matches of ``patterns`` (regular expressions). A bank's own packs
  run them on RE2, which matches in time linear in the text whatever the pattern; what RE2
  cannot run (backreferences, lookarounds) is refused when the pack is loaded. The packs
  qlint ships keep Python's ``re`` (their lookaheads are reviewed and tested on hostile text).

A pattern may also be written ``{pattern: ..., unless-others: [...], unless-stem: [...]}``: a match of it in an
option is not reported when two or more of the question's other options match one of ``unless-others``, or when
the question's stem matches one of ``unless-stem`` (a bare "None" among "I only", "I and II only" is that set's
own answer; among "One", "Two" it is zero; a bank whose counting questions take "None" for zero can excuse it where
the stem asks "how many").

Tokens and swaps need no such engine: qlint builds their patterns itself from escaped
literals joined by ``\\s+``, with one-character lookarounds for word edges, and those
cannot backtrack more than linearly.

``scope`` picks the texts: stem, options, keys, distractors, rationales, explanation.
A failing example is the question's YAML, or ``{text: ..., field: ..., message: ...}`` stating the field the finding
names and a fragment of its message (each a string, or a list with one entry per finding), checked like a Python
rule's ``Invalid``.
Packs are validated on load; an unknown key is a configuration error with a did-you-mean.
"""
from __future__ import annotations

import os
import re
import string
from collections.abc import Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import re2  # google-re2: linear-time matching for the patterns a bank's own packs write
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from qlint.files import read_regular, shipped_dir
from qlint.finding import Severity
from qlint.language.patterns import check_pattern_safety
from qlint.rule import Invalid, NoOptions, QuestionRule, Violation
from qlint.wording import kebab, validation_message

if TYPE_CHECKING:
    from qlint.model import Question

Scope = Literal["stem", "options", "keys", "distractors", "rationales", "explanation"]


class PackError(Exception):
    """A rule pack that is not valid: a configuration error."""


class ExcusedPattern(BaseModel):
    """A pattern whose match in an option is not reported when enough of the other options match ``unless-others``,
    or the stem matches ``unless-stem`` (one of the two at least)."""

    model_config = ConfigDict(frozen=True, extra="forbid", alias_generator=kebab, populate_by_name=True)

    pattern: str
    unless_others: tuple[str, ...] = ()
    unless_stem: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _an_excuse(self) -> ExcusedPattern:
        if not self.unless_others and not self.unless_stem:
            raise ValueError("a pattern written as a table needs unless-others or unless-stem")
        return self


class PackExample(BaseModel):
    """A failing example that states what it shows: the field its finding names and a fragment of its message."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    field: str | tuple[str, ...] | None = None
    message: str | tuple[str, ...] | None = None

    def invalid(self) -> Invalid:
        return Invalid(self.text, field=self.field, message=self.message)


class PackRule(BaseModel):
    """One declarative rule as written in a pack file."""

    model_config = ConfigDict(frozen=True, extra="forbid", alias_generator=kebab, populate_by_name=True)

    name: str
    code: str
    extends: Literal["existence", "substitution", "pattern"]
    summary: str
    why: str
    use_instead: str
    message: str = Field(description="finding text; {match} is the matched text, {suggestion} the swap")
    severity: Literal["error", "warning", "info"] = "warning"
    enabled: bool = True
    scope: tuple[Scope, ...] = ("stem", "options")
    ignorecase: bool = True
    tokens: tuple[str, ...] = ()
    exceptions: tuple[str, ...] = ()
    swap: dict[str, str] = Field(default_factory=dict)
    patterns: tuple[str | ExcusedPattern, ...] = ()
    whole_option: bool = Field(default=False, description="existence: a token must be the whole option text")
    accuracy: dict[str, float | int | str] | None = None
    notes: str = ""
    passing: tuple[str, ...] = ()
    failing: tuple[str | PackExample, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _kind_fields(self) -> PackRule:
        need = {"existence": self.tokens, "substitution": self.swap, "pattern": self.patterns}[self.extends]
        if not need:
            field = {"existence": "tokens", "substitution": "swap", "pattern": "patterns"}[self.extends]
            raise ValueError(f"a rule that extends {self.extends} needs {field!r}")
        return self

    @model_validator(mode="after")
    def _message_template(self) -> PackRule:
        # the message is filled with text from the bank: only the two names, never a format spec or a conversion
        # ("{match:>400000000}" would write 400 MB per finding) or an attribute ("{match.__class__}")
        try:
            fields = [(name, spec, conv) for _, name, spec, conv in string.Formatter().parse(self.message)
                      if name is not None]
        except ValueError as exc:
            raise ValueError(f"message {self.message!r} is not a valid template: {exc}") from None
        for name, spec, conv in fields:
            if name not in ("match", "suggestion") or spec or conv:
                raise ValueError(f"message {self.message!r}: only {{match}} and {{suggestion}} may be filled in, "
                                 f"without a format spec or conversion")
        return self


def _re2_options(ignorecase: bool) -> re2.Options:
    options = re2.Options()
    options.case_sensitive = not ignorecase
    options.log_errors = False  # a refused pattern is a PackError, not a line on stderr
    return options


def compile_linear(patterns: Iterable[str], ignorecase: bool):
    """One RE2 pattern matching any of ``patterns``: linear time in the text; PackError naming what RE2 refuses."""
    options = _re2_options(ignorecase)
    patterns = tuple(patterns)
    for pattern in patterns:  # one by one, so the error names the pattern
        try:
            re2.compile(pattern, options)
        except re2.error as exc:
            reason = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(exc.args[0], bytes) else exc
            raise PackError(f"pattern {pattern!r} is not a regular expression RE2 can run ({reason}); pack patterns "
                            "run on RE2, which never backtracks (matching is linear in the text) and so has no "
                            "backreferences or lookarounds") from None
    try:
        return re2.compile("|".join(f"(?:{p})" for p in patterns), options)
    except re2.error:  # each fits RE2's memory bound, all of them together do not
        raise PackError(f"its {len(patterns)} patterns together are too large for RE2; split them over rules") from None


def _phrase(token: str) -> str:
    words = [re.escape(w) for w in token.split()]
    body = r"\s+".join(words)
    left = r"(?<![\w-])" if token[:1].isalnum() else ""
    right = r"(?![\w-])" if token[-1:].isalnum() else ""
    return left + body + right


# the names of the first options' fields (all a real question has), made once rather than for every text read
_NAMED = 32
_OPTION_TEXTS = tuple(f"options[{i}].text" for i in range(_NAMED))
_RATIONALES = tuple(f"options[{i}].rationale" for i in range(_NAMED))


def _texts(question: Question, scope: Iterable[str]) -> Iterator[tuple[str, str]]:
    for part in scope:
        if part == "stem":
            yield "stem", question.stem
        elif part == "explanation" and question.explanation:
            yield "explanation", question.explanation
        else:
            for i, option in enumerate(question.options):
                if part == "options" or (part == "keys" and option.correct) or (part == "distractors" and not option.correct):
                    yield _OPTION_TEXTS[i] if i < _NAMED else f"options[{i}].text", option.text
                elif part == "rationales" and option.rationale:
                    yield _RATIONALES[i] if i < _NAMED else f"options[{i}].rationale", option.rationale


def _covered(span: tuple[int, int], shields: list[tuple[int, int]]) -> bool:
    return any(s <= span[0] and span[1] <= e for s, e in shields)


def _literals(tokens: Iterable[str], ignorecase: bool) -> tuple[str, ...] | None:
    """A word each token must contain (its longest), for a substring test before the regex; None if some has none."""
    out = []
    for token in tokens:
        words = re.findall(r"[A-Za-z0-9]+", token)
        if not words:
            return None
        word = max(words, key=len)
        out.append(word.lower() if ignorecase else word)
    return tuple(sorted(set(out)))


class _Whole:
    r"""An existence rule's whole-option test, ``^\W*(?:tokens)\W*$``, in time linear in the option: matched as it
    is, a punctuation token ("!") in a long run of punctuation was tried at every split of the run (quadratic).
    A token holds every word character of an option it is the whole of, and at most ``edge`` - 1 characters beside
    them, so the pattern is matched only on the option from ``edge`` characters before its first word character to
    as many after its last (the rest, punctuation and spaces, is what ``\W*`` takes on either side); an option of
    punctuation alone is the whole of a token when it holds one. The match, as the full pattern's, is the option."""

    _WORD = re.compile(r"\w")
    _LAST = re.compile(r"\w\W*+$")

    def __init__(self, tokens: re.Pattern, edge: int) -> None:
        self.tokens, self.edge = tokens, edge

    def match(self, found: re.Pattern, text: str) -> _Option | None:
        first = self._WORD.search(text)
        if first is None:
            return _Option(text) if self.tokens.search(text) else None
        last = self._LAST.search(text, first.start())
        end = last.start() + 1 if last else len(text)
        window = text[max(0, first.start() - self.edge):end + self.edge]
        return _Option(text) if found.match(window) else None


class _Option:
    """A match of a whole option (what ``_violation`` and the shields read of a match)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def group(self, index: int = 0) -> str:
        return self.text

    def start(self) -> int:
        return 0

    def span(self) -> tuple[int, int]:
        return 0, len(self.text)


def _compile(spec: PackRule, shipped: bool = False):
    flags = re.IGNORECASE if spec.ignorecase else 0
    if spec.extends == "existence":
        body = "|".join(_phrase(t) for t in sorted(spec.tokens, key=len, reverse=True))
        whole = None
        if spec.whole_option:
            whole = _Whole(re.compile(body, flags), max(map(len, spec.tokens), default=0) + 1)
            body = rf"^\W*(?:{body})\W*$"
        found = re.compile(body, flags)
        shield = re.compile("|".join(_phrase(t) for t in spec.exceptions), flags) if spec.exceptions else None
        return found, shield, {}, _literals(spec.tokens, spec.ignorecase), whole, ()
    if spec.extends == "substitution":
        swaps = {k.lower() if spec.ignorecase else k: v for k, v in spec.swap.items()}
        found = re.compile("|".join(_phrase(k) for k in sorted(spec.swap, key=len, reverse=True)), flags)
        return found, None, swaps, _literals(spec.swap, spec.ignorecase), False, ()
    plain = [p for p in spec.patterns if isinstance(p, str)]
    # patterns that all open with "^" (and no multi-line flag) can match only at the start: one match() will do
    anchored = all(p.startswith("^") for p in plain) and not any(re.search(r"\(\?[a-zA-Z]*m", p) for p in plain)
    excused = tuple((_patterns([p.pattern], spec.ignorecase, shipped),
                     _patterns(p.unless_others, spec.ignorecase, shipped) if p.unless_others else None,
                     _patterns(p.unless_stem, spec.ignorecase, shipped) if p.unless_stem else None)
                    for p in spec.patterns if not isinstance(p, str))
    return _patterns(plain, spec.ignorecase, shipped) if plain else None, None, {}, None, anchored, excused


def _patterns(patterns: Iterable[str], ignorecase: bool, shipped: bool):
    """One compiled pattern matching any of ``patterns``: RE2 for a bank's own packs, Python's ``re`` (checked
    to be safe) for qlint's."""
    patterns = tuple(patterns)
    if not shipped:
        return compile_linear(patterns, ignorecase)
    for pattern in patterns:
        check_pattern_safety(pattern)
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE if ignorecase else 0)


OTHERS_NEEDED = 2   # other options matching ``unless-others`` that make a match in an option the set's own answer


def _excused(others, stem, question: Question, field: str) -> bool:
    """Whether ``field`` is an option of which enough of the other options match ``others``, or of a question
    whose stem matches ``stem`` (either may be None: no such excuse)."""
    if not field.startswith("options[") or not field.endswith("].text"):
        return False
    if stem is not None and stem.search(question.stem):
        return True
    if others is None:
        return False
    own = int(field[len("options["):-len("].text")])
    return sum(1 for k, o in enumerate(question.options) if k != own and others.search(o.text)) >= OTHERS_NEEDED


def _first_match(compiled, question: Question, field: str, text: str) -> re.Match | None:
    """The first match in one text: of the rule's plain patterns, else of the first excusable one whose excuse
    fails."""
    found, _, _, _, anchored, excused = compiled
    if found is not None and (m := found.match(text) if anchored else found.search(text)):
        return m
    for pattern, others, stem in excused:
        if (m := pattern.search(text)) and not _excused(others, stem, question, field):
            return m
    return None


def _violation(spec: PackRule, swaps: dict[str, str], field: str, match: re.Match) -> Violation:
    whole = match.group(0)
    matched = whole.strip()
    suggestion = swaps.get(matched.lower() if spec.ignorecase else matched, "")
    start = match.start() + len(whole) - len(whole.lstrip())   # the words, not the spaces a pattern takes in
    return Violation(field, spec.message.format(match=matched, suggestion=suggestion),
                     span=(start, start + len(matched)))


def _check(spec: PackRule, compiled, question: Question, options: NoOptions) -> Iterator[Violation]:
    found, shield, swaps, literals, anchored, _ = compiled
    pattern = spec.extends == "pattern"
    for field, text in _texts(question, spec.scope):
        if literals is not None and text.isascii():
            # no token can match where none of its words occurs (ASCII only: str.lower and re's case folding agree)
            probe = text.lower() if spec.ignorecase else text
            if not any(lit in probe for lit in literals):
                continue
        if pattern:   # a pattern rule has no exceptions: its first match is the finding
            if (match := _first_match(compiled, question, field, text)) is not None:
                yield _violation(spec, swaps, field, match)
            continue
        shields = [m.span() for m in shield.finditer(text)] if shield else []
        matches = ((m,) if (m := anchored.match(found, text)) else ()) if anchored else found.finditer(text)
        for match in matches:
            if not _covered(match.span(), shields):
                yield _violation(spec, swaps, field, match)
                break  # one finding per field is enough to act on


def to_rule(spec: PackRule, shipped: bool = False) -> QuestionRule:
    """The pack rule as a question rule; ``shipped`` (qlint's own packs) keeps Python's ``re`` for its patterns."""
    compiled = _compile(spec, shipped)
    return QuestionRule(
        code=spec.code, name=spec.name, summary=spec.summary, why=spec.why, use_instead=spec.use_instead,
        severity=Severity.parse(spec.severity), enabled=spec.enabled, passing=spec.passing,
        failing=tuple(e if isinstance(e, str) else e.invalid() for e in spec.failing),
        check=partial(_check, spec, compiled), notes=spec.notes,
        accuracy=dict(spec.accuracy) if spec.accuracy else None,
    )


def read_pack(path: Path) -> list[QuestionRule]:
    """The rules in one pack file; PackError when it is not valid."""
    if not os.path.isfile(path):  # a FIFO or a device would block the read (and a name too long is none)
        raise PackError(f"{path}: a rule pack must be a regular file")
    import yaml  # a pack is read only when its rules are used: a warm check reads none

    try:
        data = yaml.safe_load(read_regular(path).decode("utf-8"))
    except OSError as exc:
        raise PackError(f"{path}: cannot read rule pack: {exc.strerror}") from None
    except yaml.YAMLError as exc:   # where and what, never the lines PyYAML quotes
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark is not None else str(path)
        raise PackError(f"{where}: rule pack is not valid YAML: {getattr(exc, 'problem', None) or 'syntax error'}") from None
    except UnicodeDecodeError:
        raise PackError(f"{path}: rule pack is not UTF-8 text") from None
    except RecursionError:
        raise PackError(f"{path}: rule pack is nested too deeply") from None
    entries = data.get("rules") if isinstance(data, dict) and "rules" in data else [data]
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise PackError(f"{path}: a rule pack holds a rule mapping or a 'rules:' list of them")
    shipped = shipped_dir()
    trusted = shipped is not None and path.resolve().parent == shipped.resolve()
    rules = []
    for entry in entries:
        try:
            spec = PackRule.model_validate(entry)
        except ValidationError as exc:
            allowed = [f.alias or n for n, f in PackRule.model_fields.items()]
            raise PackError(validation_message(exc, allowed, str(path))) from None
        try:
            rules.append(to_rule(spec, trusted))
        except (ValueError, re.error, PackError) as exc:
            raise PackError(f"{path}: rule {spec.name!r}: {exc}") from None
    return rules


def load_pack_files(extra: Iterable[Path] = (), shipped: bool = True) -> list[tuple[QuestionRule, Path]]:
    """Every pack rule with the file it came from (without ``shipped``, those of qlint's own packs left out: the
    registry has them from its manifest)."""
    folder = shipped_dir() if shipped else None
    files: list[Path] = sorted(folder.glob("*.yaml")) if folder else []
    for path in extra:
        if os.path.isdir(path):
            inside = os.path.realpath(path)
            for p in sorted(p for p in path.iterdir() if p.suffix in (".yaml", ".yml")):
                # a folder's packs are its own files: a link out of it (to a file of secrets, say) is not read, as
                # the bank walk reads none; a pack named by its own path is read wherever it is
                if os.path.islink(p) and not Path(os.path.realpath(p)).is_relative_to(inside):
                    raise PackError(f"{p}: cannot read it: a symbolic link to a file outside the rule-packs folder "
                                    "(name the file itself in rule-packs to use it)")
                files.append(p)
        elif os.path.exists(path):
            files.append(path)
        else:
            raise PackError(f"{path}: rule pack not found")
    return [(rule, f) for f in files for rule in read_pack(f)]
