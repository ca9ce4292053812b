"""What a rule is: metadata, options, its own examples, and a pure check.

A question rule is a function of one question; a bank rule is a function of the
whole bank. Both yield Violations that name a field, never a line: the engine
resolves positions from the loader's source map.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

from qlint.finding import Severity
from qlint.wording import kebab

if TYPE_CHECKING:
    from pydantic import BaseModel as RuleOptions  # to a type checker, the base of every rule's options model

    from qlint.items import BankItem
    from qlint.model import Question

_NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
_CODE = re.compile(r"[A-Z]{1,4}[0-9]{3}")


def __getattr__(name: str) -> Any:
    """``RuleOptions`` and ``NoOptions``, the pydantic bases of every rule's options, built when a rule module (or a
    rule without options) first asks for them: a warm check, which runs no rule, never builds pydantic."""
    if name in ("RuleOptions", "NoOptions"):
        return _option_models()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@lru_cache(maxsize=1)
def _option_models() -> dict[str, type]:
    from pydantic import BaseModel, ConfigDict  # only when a rule module (or a rule without options) is loaded

    class RuleOptions(BaseModel):
        """Base of every rule's options: frozen, unknown keys rejected."""

        model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True, alias_generator=kebab)

    class NoOptions(RuleOptions):
        """For rules that take no options."""

    for model in (RuleOptions, NoOptions):
        model.__qualname__ = model.__name__   # found by name, as pickle and the manifest find them
    return {"RuleOptions": RuleOptions, "NoOptions": NoOptions}


@dataclass(frozen=True)
class Violation:
    """A question rule's verdict: which field, what is wrong with it, and optionally a safe fix.

    ``span``, when given, is the ``(start, end)`` character offsets of the offending words in the field's text as
    the rule read it (``question.options[2].text[start:end]``): the finding then points at those words.
    """

    field: str
    message: str
    fix: Any = None  # qlint.edits.Fix
    span: tuple[int, int] | None = None


class Store(Protocol):
    """Where a bank rule keeps its work between runs: the run hands one to the rule (kept in its cache), so that the
    rule reads and writes its own bytes and never a path. A store may be empty, hold another run's bytes, or lose a
    write: the rule's answer must not depend on it."""

    def read(self) -> bytes | None:
        """What the rule last wrote, or None."""

    def write(self, chunks: Iterable[bytes]) -> None:
        """Replace what is kept with these bytes, all of them or (on any error) none."""

    def beside(self, part: str) -> Store:
        """Another store of the same rule, for a second piece of its work kept apart from the first (``part``: a
        short lowercase name)."""


@dataclass(frozen=True)
class BankViolation:
    """A bank rule's verdict: which question, which field, what is wrong.

    ``bank_level`` marks a verdict about the bank as a whole, shown at ``item`` but not owned by it
    (its JSON ``question`` is null). ``at``, when given, is the (path, line) of a place outside the bank where such a
    verdict is shown instead (an objective's line in the exam blueprint).
    """

    item: BankItem
    field: str
    message: str
    bank_level: bool = False
    at: tuple[str, int] | None = None


@dataclass(frozen=True)
class Valid:
    """An example the rule must pass: a file's ``text``, read as ``path`` (its suffix picks the format), under
    ``options`` (the rule's own table, as ``[tool.qlint.rules.NAME]`` sets it; an example may instead state them in a
    leading ``# options:`` comment block) and ``settings`` (the config's other keys, e.g. ``rule-time-budget``).

    A plain string in ``passing`` is ``Valid(text)``."""

    text: str
    _: KW_ONLY
    options: Mapping[str, Any] = field(default_factory=dict, hash=False)   # a rule, and so its examples, hash
    settings: Mapping[str, Any] = field(default_factory=dict, hash=False)
    path: str = "example.yaml"


@dataclass(frozen=True)
class Invalid(Valid):
    """An example the rule must fire on, and what it must say (Fixit's ``Invalid``, sqlfluff's ``fail_str``).

    ``field`` is the field each finding names and ``message`` a fragment each finding's message contains: a string
    holds for every finding, a tuple lists the findings one by one in the order qlint reports them (so it fixes
    their number too; None in a field tuple is a finding about the file, which names no field). ``fixed``, when
    given, is the whole text after ``qlint check --fix`` with this rule's fixes alone: stating it on any example
    makes the rule ``fixable``. Unstated parts are not checked; a plain string in ``failing`` is ``Invalid(text)``."""

    field: str | tuple[str | None, ...] | None = None   # in a tuple, None is a finding about the file, not a field
    message: str | tuple[str, ...] | None = None
    fixed: str | None = None

    def __post_init__(self) -> None:
        for name, kinds in (("field", (str, type(None))), ("message", (str,))):
            stated = getattr(self, name)
            if isinstance(stated, tuple) and (not stated or not all(isinstance(s, kinds) for s in stated)):
                raise ValueError(f"an example's {name} is a string or a non-empty tuple of strings")


def as_valid(example: str | Valid) -> Valid:
    return example if isinstance(example, Valid) else Valid(example)


def as_invalid(example: str | Invalid) -> Invalid:
    if isinstance(example, Invalid):
        return example
    if isinstance(example, Valid):   # a passing example among the failing ones is a mistake, not a conversion
        raise TypeError("a failing example is a string or an Invalid")
    return Invalid(example)


@dataclass(frozen=True, kw_only=True)
class Rule:
    """Metadata shared by every rule; subclasses add the check."""

    code: str
    name: str
    summary: str
    why: str
    use_instead: str
    passing: tuple[str | Valid, ...]
    failing: tuple[str | Invalid, ...]
    severity: Severity = Severity.WARNING
    enabled: bool = True
    options: type[RuleOptions] = None  # type: ignore[assignment]  # None: NoOptions, made on first use
    # derived from the examples (a failing one states its ``fixed`` text); stating it must agree with them
    fixable: bool | None = None
    fix_safety: str = ""   # what the fix changes and why that keeps the question's meaning (the card's Fix safety)
    notes: str = ""
    accuracy: dict[str, Any] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.options is None:
            object.__setattr__(self, "options", _option_models()["NoOptions"])
        if not _NAME.fullmatch(self.name):
            raise ValueError(f"rule name {self.name!r} is not kebab-case")
        if not _CODE.fullmatch(self.code):
            raise ValueError(f"rule code {self.code!r} is not like Q101")
        if not self.failing:
            raise ValueError(f"rule {self.name} has no failing example")
        shown = any(example.fixed is not None for example in self.invalid)
        if self.fixable is None:
            object.__setattr__(self, "fixable", shown)
        elif self.fixable != shown:
            raise ValueError(f"rule {self.name} says fixable={self.fixable} but "
                             + ("no failing example states its fixed text" if self.fixable else
                                "a failing example states a fixed text"))

    @property
    def valid(self) -> tuple[Valid, ...]:
        """The passing examples, each as a ``Valid``."""
        return tuple(as_valid(example) for example in self.passing)

    @property
    def invalid(self) -> tuple[Invalid, ...]:
        """The failing examples, each as an ``Invalid``."""
        return tuple(as_invalid(example) for example in self.failing)

    @property
    def kind(self) -> str:
        return "rule"


@dataclass(frozen=True, kw_only=True)
class QuestionRule(Rule):
    """A rule over one question at a time."""

    check: Callable[[Question, Any], Iterable[Violation]]

    @property
    def kind(self) -> str:
        return "question"


@dataclass(frozen=True, kw_only=True)
class BankRule(Rule):
    """A rule over the whole bank at once (near-duplicates, key balance, ids).

    ``check`` sees one BankItem per question. ``extract``, when given, computes a per-question
    feature once (in parallel workers, and cached with the file); the check finds it in
    ``item.features[rule.name]``.

    ``encode`` and ``decode``, when given, carry the features of one file's questions through the cache: ``encode``
    turns the list of them into JSON-able data, ``decode(data, count)`` turns that back into the list, raising
    (any exception) when the data is not in the shape ``encode`` writes, which makes the entry a miss. Without
    them a feature is cached as the JSON value it is, and an outcome whose features JSON cannot carry is not cached.

    ``memo``, when set, means ``check`` also takes a ``store=`` keyword: a ``Store`` (or None) where it may keep its
    work between runs, to answer the next run sooner. The answer must be the same with or without it.

    ``publish``, when given, returns what the rule found about the bank as plain data (a table, clusters) from the
    same items and options ``check`` sees: the bank report shows it instead of computing it a second time.

    ``survey``, when given, is the bank-wide work ``check`` and ``publish`` both read (a search, a grouping, a
    test): ``survey(items, options)`` runs once a run (with ``store=`` when ``memo`` is set), and ``check`` and
    ``publish`` take its answer as a third argument, so a run that reports and publishes does that work once.

    ``counts_rejected``, when set, means ``check`` also sees the questions the format rejected that still name an
    id, in their place among the others: items with their id and position only (no options, keys or features).
    """

    check: Callable[..., Iterable[BankViolation]]
    extract: Callable[[Question, Any], Any] | None = None
    encode: Callable[[list[Any]], Any] | None = None
    decode: Callable[[Any, int], list[Any]] | None = None
    memo: bool = False
    publish: Callable[..., Any] | None = None
    survey: Callable[..., Any] | None = None
    counts_rejected: bool = False

    @property
    def kind(self) -> str:
        return "bank"


@dataclass(frozen=True, kw_only=True)
class LoaderRule(Rule):
    """A problem the loader itself reports (bad YAML, bad shape); listed and configurable like any rule."""

    @property
    def kind(self) -> str:
        return "loader"


# the question a machine rule's passing example reads: well formed, so nothing but the machinery could report on it
A_WELL_FORMED_QUESTION = """\
id: well-formed
stem: Which device holds a tensor created with torch.zeros(3) by default?
options:
  - text: The CPU
    correct: true
    rationale: Correct. Tensors are created on the CPU unless a device is given.
  - text: The current CUDA device
    rationale: Incorrect. CUDA placement needs device="cuda" or .to("cuda").
"""
# how a machine rule's failing examples are run (``MachineRule.made_by``)
MADE_BY = ("reading", "a-raising-rule", "fix")


@dataclass(frozen=True, kw_only=True)
class MachineRule(LoaderRule):
    """A finding qlint's own machinery makes about a file (reading it, its time budget, a rule that raised,
    ``--fix``), not a check of what its questions say. ``made_by`` declares what makes its failing examples fire,
    and so how ``qlint.testing`` runs them: ``reading`` (the reader and engine, as over any file, under the
    settings an example states), ``a-raising-rule`` (with a rule installed that raises on every question),
    ``fix`` (``check --fix`` over the example). Its passing example is a well-formed question, unless it states
    its own."""

    made_by: str = "reading"
    passing: tuple[str | Valid, ...] = (A_WELL_FORMED_QUESTION,)

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.made_by not in MADE_BY:
            raise ValueError(f"rule {self.name}: made_by {self.made_by!r} is not one of {', '.join(MADE_BY)}")


@dataclass(frozen=True)
class ActiveRule:
    """A rule as this run uses it: its validated options and effective severity."""

    rule: Rule
    options: RuleOptions
    severity: Severity
