"""The bank format as pydantic models: validated once at the boundary, frozen inside."""
from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

# blank as every reader and writer takes it (Python's str.split and strip): the separators U+001C-1F are white space
# there, though not in Unicode's White_Space, so a text of them alone is as blank as spaces
NonBlank = Annotated[str, StringConstraints(min_length=1, pattern=r"[^\s\x1c-\x1f]")]
_TRUE, _FALSE = frozenset(("true", "True", "TRUE")), frozenset(("false", "False", "FALSE"))


class Plain(str):
    """The text of a plain (unquoted) YAML scalar: only these may be read as booleans or numbers.

    The loader hands every scalar over as text, so that ``text: no`` stays the word "no" and
    ``id: 007`` keeps its zeros; ``correct: true`` is a boolean, ``correct: "true"`` is not.
    """

    __slots__ = ()


def _whole_number(value: Any) -> Any:
    if isinstance(value, Plain) and value.strip().lstrip("+-").isdigit():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ValueError("must be a whole number (unquoted)")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=False)


class Option(_Frozen):
    """One answer option."""

    text: NonBlank = Field(description="What the candidate reads as this option.")
    correct: bool = Field(default=False, description="Whether this option is a key (unquoted true or false).")
    rationale: str | None = Field(default=None, description="Why this option is right or wrong; shown after "
                                                            "answering. Every option needs one.")
    credit: float | None = Field(default=None, ge=-100, le=100,
                                 description="Partial credit: the percentage of the question's marks this option "
                                             "earns (an LMS's fraction or grade, -100 to 100). A distractor with "
                                             "credit is still not a key; item analysis scores it as written.")

    @field_validator("correct", mode="before")
    @classmethod
    def _boolean(cls, value: Any) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, Plain) and (value in _TRUE or value in _FALSE):
            return value in _TRUE
        shown = f"{value!r}" if isinstance(value, str) else type(value).__name__
        raise ValueError(f"must be true or false, unquoted (got {shown})")


class QuestionSettings(_Frozen):
    """Per-question qlint settings (the reserved ``qlint:`` field)."""

    ignore: dict[str, NonBlank] = Field(
        default_factory=dict,
        description="rule name or code -> the reason it does not apply to this question",
    )


class Question(_Frozen):
    """One multiple-choice question."""

    id: NonBlank = Field(description="Unique across the whole bank; read as written (007 keeps its zeros).")
    stem: NonBlank = Field(description="The question the candidate answers.")
    options: tuple[Option, ...] = Field(min_length=2, description="The answer options, at least two.")
    select: int = Field(default=1, ge=1, description="How many options are correct (default 1).")
    explanation: str | None = Field(default=None, description="General feedback about the question.")
    difficulty: int | str | None = Field(default=None, description="A number or a label such as 'hard'.")
    objective: str | None = Field(default=None, description="The learning objective the question tests.")
    tags: tuple[str, ...] = Field(default=(), description="Free labels, for coverage in the bank report.")
    meta: dict[str, Any] | None = Field(default=None, description="Free-form data; never checked.")
    qlint: QuestionSettings | None = Field(default=None, description="Per-question qlint settings, e.g. "
                                                                       "ignore: {option-length: reason}.")

    @field_validator("select", mode="before")
    @classmethod
    def _select(cls, value: Any) -> int:
        return _whole_number(value)

    @field_validator("difficulty", mode="before")
    @classmethod
    def _difficulty(cls, value: Any) -> Any:
        # a difficulty written as a plain number is a number; any other scalar is a label ("hard")
        if value is None or isinstance(value, (int, str)) and not isinstance(value, bool):
            try:
                return _whole_number(value)
            except ValueError:
                return value
        raise ValueError("must be a whole number or a label")

    @property
    def keys(self) -> tuple[int, ...]:
        """Indices of the correct options."""
        return tuple(i for i, option in enumerate(self.options) if option.correct)


QUESTION_FIELDS = tuple(Question.model_fields)
OPTION_FIELDS = tuple(Option.model_fields)
