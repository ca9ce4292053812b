"""The bank format as pydantic models: validated once at the boundary, frozen inside."""
from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

NonBlank = Annotated[str, StringConstraints(min_length=1, pattern=r"\S")]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=False)


class Option(_Frozen):
    """One answer option."""

    text: NonBlank
    correct: bool = False
    rationale: str | None = None


class QuestionSettings(_Frozen):
    """Per-question qlint settings (the reserved ``qlint:`` field)."""

    ignore: dict[str, NonBlank] = Field(
        default_factory=dict,
        description="rule name or code -> the reason it does not apply to this question",
    )


class Question(_Frozen):
    """One multiple-choice question."""

    id: NonBlank
    stem: NonBlank
    options: tuple[Option, ...] = Field(min_length=2)
    select: int = Field(default=1, ge=1)
    explanation: str | None = None
    difficulty: int | str | None = None
    objective: str | None = None
    tags: tuple[str, ...] = ()
    meta: dict[str, Any] | None = None
    qlint: QuestionSettings | None = None

    @field_validator("difficulty", mode="before")
    @classmethod
    def _difficulty(cls, value: Any) -> Any:
        # Scalars arrive as text; a difficulty written as a number is a number.
        if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
            return int(value)
        return value

    @property
    def keys(self) -> tuple[int, ...]:
        """Indices of the correct options."""
        return tuple(i for i, option in enumerate(self.options) if option.correct)


QUESTION_FIELDS = tuple(Question.model_fields)
OPTION_FIELDS = tuple(Option.model_fields)
