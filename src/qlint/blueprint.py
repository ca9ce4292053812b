"""The exam blueprint: domains and objectives with their weights, validated once at the boundary, and how a set of
questions (the bank, or one drawn form) covers it.

A blueprint is a YAML file (``blueprint = "exam/blueprint.yaml"`` in the config) or a table in the config
(``[tool.qlint.blueprint]``). It is read by the config (``load_blueprint``: a bad one is a configuration error with
file and line) and handed to the rules that check coverage as one of their options. ``coverage`` is pure: the rules,
the form check, ``qlint stats`` and the report all count with it.
"""
from __future__ import annotations

import math
import os
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, PrivateAttr, ValidationError, model_validator

from qlint.wording import did_you_mean, kebab

if TYPE_CHECKING:
    import yaml

MAX_BLUEPRINT_BYTES = 1024 * 1024   # an exam outline is a few kB
MAX_DEPTH = 16
_PERCENT = re.compile(r"\s*(\d+(?:\.\d+)?)\s*%\s*")


class BlueprintError(Exception):
    """A blueprint the user must fix; the message names the file and, where it can, the line."""


def _share(value: Any) -> Any:
    """A weight as a share of the exam: ``0.24`` or ``"24%"``; a bare number above 1 is refused (24 or 0.24?)."""
    if isinstance(value, str):
        matched = _PERCENT.fullmatch(value)
        if matched is None:
            raise ValueError("must be a share such as 0.24 or a percentage such as '24%'")
        return float(matched[1]) / 100
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("must be a share such as 0.24 or a percentage such as '24%'")
    if value > 1:
        raise ValueError(f"{value} is more than the whole exam: write a share (0.24) or a percentage ('24%')")
    return float(value)


def _text(value: Any) -> Any:
    """Ids and names as written: ``id: 1.1`` is the text "1.1", not a number."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return value


Share = Annotated[float, BeforeValidator(_share), Field(ge=0, le=1)]
Name = Annotated[str, BeforeValidator(_text), Field(min_length=1, max_length=500, pattern=r"\S")]


class _Model(BaseModel):
    # built on first use: every run imports the blueprint's models (the rules' options name them), few use them
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True, defer_build=True,
                              alias_generator=kebab)


class Objective(_Model):
    """One objective (task statement) of a domain; a question names it by id or by name in its ``objective``."""

    id: Name
    name: Name | None = None
    weight: Share | None = Field(default=None, description="share of the exam")
    count: int | None = Field(default=None, ge=0, le=100_000, description="questions on one form")
    min_questions: int | None = Field(default=None, ge=0, le=10_000_000,
                                      description="questions the bank needs (default: the blueprint's)")


class Domain(_Model):
    """One content domain, with a weight (share of the exam) or a count (questions on one form)."""

    id: Name | None = None
    name: Name
    weight: Share | None = None
    count: int | None = Field(default=None, ge=0, le=100_000)
    tolerance: float | None = Field(default=None, ge=0, le=1, description="allowed deviation of its share")
    objectives: tuple[Objective, ...] = ()

    @property
    def key(self) -> str:
        return self.id or self.name


class Blueprint(_Model):
    """An exam blueprint. ``tolerance`` is how far (absolute share) a domain's share may be from its weight;
    ``min_questions`` is how many questions each objective needs in the bank; ``difficulty`` is a target mix
    (label or level -> share) held to ``difficulty_tolerance``."""

    name: str | None = Field(default=None, max_length=500)
    source: str | None = Field(default=None, max_length=2000, description="where the outline comes from")
    form_size: int | None = Field(default=None, ge=1, le=100_000, description="questions on one form")
    tolerance: float = Field(default=0.05, ge=0, le=1)
    min_questions: int = Field(default=1, ge=0, le=10_000_000)
    difficulty: dict[Name, Share] = Field(default_factory=dict, max_length=100)
    difficulty_tolerance: float = Field(default=0.10, ge=0, le=1)
    domains: tuple[Domain, ...] = Field(min_length=1, max_length=1000)
    _where: dict[tuple, tuple[str, int]] = PrivateAttr(default_factory=dict)

    @model_validator(mode="after")
    def _consistent(self) -> Blueprint:
        weighted = [d.weight is not None for d in self.domains]
        counted = [d.count is not None for d in self.domains]
        if not (all(weighted) or all(counted)):
            raise ValueError("give every domain a weight, or every domain a count")
        if all(weighted) and not math.isclose(sum(d.weight for d in self.domains), 1.0, abs_tol=0.011):
            total = sum(d.weight for d in self.domains)
            raise ValueError(f"the domains' weights add up to {total:.0%}, not 100%")
        if not all(weighted) and sum(d.count for d in self.domains) == 0:
            raise ValueError("the domains' counts add up to 0")
        if self.difficulty and not math.isclose(sum(self.difficulty.values()), 1.0, abs_tol=0.011):
            raise ValueError(f"the difficulty mix adds up to {sum(self.difficulty.values()):.0%}, not 100%")
        seen: set[str] = set()
        for key in [d.key for d in self.domains] + [o.id for d in self.domains for o in d.objectives]:
            if key.casefold() in seen:
                raise ValueError(f"id {key!r} is used twice")
            seen.add(key.casefold())
        return self

    def share(self, domain: Domain, counts: int | None = None) -> float:
        """A domain's target share of the exam (its weight, or its count over all domains' counts, which a caller
        asking for every domain's share sums once and passes as ``counts``)."""
        if domain.weight is not None:
            return domain.weight
        return domain.count / (sum(d.count or 0 for d in self.domains) if counts is None else counts)  # type: ignore[operator]

    def where(self, *path: str | int) -> tuple[str, int] | None:
        """The file and line that set a part of the blueprint (``where("domains", 0)``), when it was read from a
        file; None for one written inline."""
        while path:
            if path in self._where:
                return self._where[path]
            path = path[:-1]
        return self._where.get(())

    def placed(self, where: dict[tuple, tuple[str, int]]) -> Blueprint:
        self._where = where
        return self


# --- which blueprint entry a question's ``objective`` names -------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """A domain or objective a question can name: where it sits in the blueprint."""

    domain: int
    objective: int | None   # None: the domain itself (a domain with no objectives)


def targets(blueprint: Blueprint) -> dict[str, Target]:
    """What a question's ``objective`` may say (ids and names, case aside), and what each names."""
    named: dict[str, Target] = {}
    for d, domain in enumerate(blueprint.domains):
        own = Target(d, None)
        for spelled in (domain.id, domain.name):
            if spelled:
                named.setdefault(spelled.strip().casefold(), own)
        for o, objective in enumerate(domain.objectives):
            for spelled in (objective.id, objective.name):
                if spelled:
                    named.setdefault(spelled.strip().casefold(), Target(d, o))
    return named


def spellings(blueprint: Blueprint) -> list[str]:
    """Every id and name as written, for a did-you-mean."""
    out = []
    for domain in blueprint.domains:
        out += [s for s in (domain.id, domain.name) if s]
        for objective in domain.objectives:
            out += [s for s in (objective.id, objective.name) if s]
    return out


# --- coverage ------------------------------------------------------------------------------------------------------


@dataclass
class Row:
    """One domain or objective: what the blueprint asks for and what the questions give."""

    kind: str               # "domain" or "objective"
    id: str
    name: str
    domain: int
    objective: int | None
    target_share: float | None    # of all questions (None: the blueprint gives none)
    target_count: float | None    # on a form of ``size`` questions (None: no size known)
    minimum: int | None           # questions the bank needs (objectives only)
    questions: int = 0
    share: float = 0.0
    status: str = "ok"            # ok, missing, too few, under, over


@dataclass
class Coverage:
    """How a set of questions covers a blueprint: a row per domain (its objectives after it), the questions whose
    objective is not in the blueprint or missing, and the difficulty mix."""

    rows: list[Row]
    counted: int                   # questions that name a domain or objective of the blueprint
    total: int                     # every question
    unknown: dict[str, int] = field(default_factory=dict)   # objective as written -> questions
    no_objective: int = 0
    difficulty: list[dict] = field(default_factory=list)    # {"level", "target", "questions", "share", "status"}
    rated: int = 0                 # questions with a difficulty the mix counts


def _tolerance(blueprint: Blueprint, domain: Domain) -> float:
    return blueprint.tolerance if domain.tolerance is None else domain.tolerance


def _off(share: float, target: float, tolerance: float, n: int) -> str:
    """Whether a share of ``n`` questions is off its target by more than the tolerance, and by a whole question at
    least: four questions cannot hit 40% closer than 50%, and that is no shortfall."""
    if abs(share - target) * n < 1 - 1e-9:
        return "ok"
    if share < target - tolerance - 1e-9:
        return "under"
    if share > target + tolerance + 1e-9:
        return "over"
    return "ok"


def _count_total(domain: Domain) -> int | None:
    """The sum of a domain's objective counts, when every objective gives one; computed once per domain, not once
    per objective (a blueprint may list thousands of them)."""
    counts = [o.count for o in domain.objectives]
    return sum(counts) if all(c is not None for c in counts) else None   # type: ignore[arg-type]


def _objective_share(domain_share: float, counts: int | None, objective: Objective) -> float | None:
    if objective.weight is not None:
        return objective.weight
    if objective.count is not None and counts:
        return domain_share * objective.count / counts
    return None


def _objective_status(n: int, minimum: int | None, target: float | None, share: float, tolerance: float,
                      form: bool, size: int) -> str:
    """A bank is held to each objective's minimum; a form to each objective's share, where the blueprint gives one."""
    if not form:
        return "missing" if n == 0 and minimum else "too few" if minimum and n < minimum else "ok"
    if target is None:
        return "ok"
    return "missing" if n == 0 and target > 0 else _off(share, target, tolerance, size)


def coverage(blueprint: Blueprint, questions: Iterable[tuple[str | None, Any]], *, form: bool = False) -> Coverage:
    """How ``questions`` ((objective, difficulty) of each) cover the blueprint. A bank is held to each objective's
    minimum (``form`` False); a drawn form to the blueprint's counts for a form of its own size."""
    named = targets(blueprint)
    per_domain: Counter[int] = Counter()
    per_objective: Counter[tuple[int, int]] = Counter()
    unknown: Counter[str] = Counter()
    levels: Counter[str] = Counter()
    total = missing = 0
    wanted = {str(k).casefold(): str(k) for k in blueprint.difficulty}
    for objective, difficulty in questions:
        total += 1
        spelled = objective.strip() if isinstance(objective, str) else ""
        if difficulty is not None and str(difficulty).strip().casefold() in wanted:
            levels[wanted[str(difficulty).strip().casefold()]] += 1
        if not spelled:
            missing += 1
            continue
        target = named.get(spelled.casefold())
        if target is None:
            unknown[spelled] += 1
            continue
        per_domain[target.domain] += 1
        if target.objective is not None:
            per_objective[(target.domain, target.objective)] += 1
    counted = sum(per_domain.values())
    size = counted if form else blueprint.form_size
    rows = []
    domain_counts = sum(d.count or 0 for d in blueprint.domains)
    for d, domain in enumerate(blueprint.domains):
        target_share = blueprint.share(domain, domain_counts)
        row = Row("domain", domain.key, domain.name, d, None, target_share,
                  target_share * size if size else None, None, per_domain[d], per_domain[d] / counted if counted else 0.0)
        row.status = _off(row.share, target_share, _tolerance(blueprint, domain), counted) if counted else "missing"
        rows.append(row)
        counts = _count_total(domain)
        for o, objective in enumerate(domain.objectives):
            share = _objective_share(target_share, counts, objective)
            minimum = None if form else (blueprint.min_questions if objective.min_questions is None
                                         else objective.min_questions)
            n = per_objective[(d, o)]
            sub = Row("objective", objective.id, objective.name or objective.id, d, o, share,
                      share * size if share is not None and size else None, minimum, n, n / counted if counted else 0.0)
            sub.status = _objective_status(n, minimum, share, sub.share, _tolerance(blueprint, domain), form, counted)
            rows.append(sub)
    rated = sum(levels.values())
    mix = []
    for level, target in blueprint.difficulty.items():
        share = levels[level] / rated if rated else 0.0
        mix.append({"level": level, "target": target, "questions": levels[level], "share": share,
                    "status": _off(share, target, blueprint.difficulty_tolerance, rated) if rated else "missing"})
    return Coverage(rows, counted, total, dict(unknown), missing, mix, rated)


# --- reading a blueprint file --------------------------------------------------------------------------------------


def _walk(node: yaml.Node, path: tuple, where: dict[tuple, int], seen: set[int], depth: int) -> Any:
    """A composed YAML node as plain values, every entry's line recorded by its path; aliases and deep nesting
    refused (a blueprint needs neither, and they are how a hostile file costs memory)."""
    import yaml  # loaded by load_blueprint, the only caller: a check without a blueprint file never loads it here

    if id(node) in seen:
        raise BlueprintError(f"{node.start_mark.line + 1}: aliases are not allowed in a blueprint")
    if depth > MAX_DEPTH:
        raise BlueprintError(f"{node.start_mark.line + 1}: nested deeper than {MAX_DEPTH} levels")
    seen.add(id(node))
    where.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        out = {}
        for key, value in node.value:
            name = _walk(key, path + ("<key>",), {}, seen, depth + 1)
            where[path + (str(name),)] = key.start_mark.line + 1
            out[str(name)] = _walk(value, path + (str(name),), where, seen, depth + 1)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_walk(item, path + (i,), where, seen, depth + 1) for i, item in enumerate(node.value)]
    if node.tag.endswith((":int", ":float")):
        try:
            return int(node.value) if node.tag.endswith(":int") else float(node.value)
        except ValueError:   # YAML 1.1's 0o17, 1_000, 1:30, .inf: kept as written, for the model to judge
            return node.value
    if node.tag.endswith(":bool"):
        return node.value.lower() in ("true", "yes", "on")
    if node.tag.endswith(":null"):
        return None
    if node.tag.endswith(":str"):
        return node.value
    raise BlueprintError(f"{node.start_mark.line + 1}: tag {node.tag} is not allowed in a blueprint")


def _read(path: Path, shown: str) -> str:
    try:
        if not path.is_file():
            raise BlueprintError(f"{shown}: the blueprint must be a regular file")
        with open(path, "rb") as handle:
            raw = handle.read(MAX_BLUEPRINT_BYTES + 1)
    except OSError as exc:
        raise BlueprintError(f"{shown}: cannot read the blueprint: {exc.strerror}") from None
    if len(raw) > MAX_BLUEPRINT_BYTES:
        raise BlueprintError(f"{shown}: a blueprint larger than {MAX_BLUEPRINT_BYTES // 1024} KiB")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise BlueprintError(f"{shown}:{line}: not UTF-8 text") from None


def _messages(exc: ValidationError, shown: str, line_of) -> str:
    out = []
    for err in exc.errors():
        loc = tuple(err["loc"])
        dotted = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".")
        line = line_of(loc)
        place = f"{shown}:{line}" if line else shown
        if err["type"] == "extra_forbidden":
            out.append(f"{place}: unknown key {dotted!r}{_known(loc)}")
        else:
            message = err["msg"].removeprefix("Value error, ")
            out.append(f"{place}: {dotted + ': ' if dotted else ''}{message}")
    return "\n".join(out)


def _known(loc: tuple) -> str:
    model: type[BaseModel] = Blueprint
    for part in loc[:-1]:
        if isinstance(part, int):
            continue
        model = {"domains": Domain, "objectives": Objective}.get(str(part), model)
    return did_you_mean(str(loc[-1]), [f.alias or n for n, f in model.model_fields.items()])


def validate(data: Any, shown: str, line_of=lambda loc: None) -> Blueprint:
    """A blueprint from plain data (a config table), or BlueprintError naming ``shown`` and the line."""
    if not isinstance(data, dict):
        raise BlueprintError(f"{shown}: a blueprint is a mapping with 'domains'")
    try:
        return Blueprint.model_validate(data)
    except ValidationError as exc:
        raise BlueprintError(_messages(exc, shown, line_of)) from None


def load_blueprint(path: Path, shown: str | None = None) -> Blueprint:
    """Read and validate a blueprint file; BlueprintError (file and line) for anything wrong with it."""
    import yaml  # only when a blueprint file is read: a check without one does not load the YAML library here

    shown = shown or os.fspath(path)
    text = _read(path, shown)
    try:
        root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        raise BlueprintError(f"{shown}{line}: invalid YAML: {getattr(exc, 'problem', None) or exc}") from None
    except RecursionError:
        raise BlueprintError(f"{shown}: nested too deeply") from None
    if root is None:
        raise BlueprintError(f"{shown}: the blueprint is empty")
    lines: dict[tuple, int] = {}
    try:
        data = _walk(root, (), lines, set(), 0)
    except BlueprintError as exc:
        raise BlueprintError(f"{shown}:{exc}") from None

    def line_of(loc: tuple) -> int | None:
        while loc and tuple(loc) not in lines:
            loc = loc[:-1]
        return lines.get(tuple(loc))

    blueprint = validate(data, shown, line_of)
    return blueprint.placed({path_: (shown, line) for path_, line in lines.items()})
