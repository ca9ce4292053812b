"""Response files -> one ``answers`` table in DuckDB, joined to the bank, every row accounted for.

Layouts (examples in tests/data/responses/):

- long: one row per answer, columns ``person``, ``item``, ``response`` and optionally ``form``, ``attempt``,
  ``timestamp`` (CSV, TSV or Parquet);
- wide: one row per person, a ``person`` column first, then one column per question id;
- Moodle's quiz "Responses" export (``Response 1``, ``Response 2``, ... holding the chosen option's text, with
  ``Question 1``, ... holding the question text when exported; slot N is the bank's Nth question otherwise);
- Canvas's "Student Analysis" export (``<canvas id>: <question text>`` columns holding the chosen option's
  text, each followed by its points column).

Rows the reader cannot parse (ragged, bad bytes, over-long lines) are counted with their line numbers;
answers to unknown questions or naming no option are kept in ``answers`` with a status, so nothing is dropped
unseen.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from qlint.analysis import AnalysisError
from qlint.analysis.bankkeys import normalise
from qlint.analysis.sources import check_lines, explain, opened, quote, refuse_by_name, source
from qlint.responserule import BankQuestion

ANSWERED, OMITTED, UNKNOWN_ITEM, UNKNOWN_OPTION, NOT_SCORED = 0, 1, 2, 3, 4
STATUS_NAMES = {ANSWERED: "answered", OMITTED: "omitted", UNKNOWN_ITEM: "unknown question id",
                UNKNOWN_OPTION: "no such option", NOT_SCORED: "not scored (more than one key)"}
PERSON_NAMES = ("person", "person_id", "student", "student_id", "examinee", "candidate", "user", "user_id",
                "respondent", "id", "name")
ITEM_NAMES = ("item", "item_id", "question", "question_id", "qid")
RESPONSE_NAMES = ("response", "answer", "choice", "option", "selected")
_MOODLE_RESPONSE = re.compile(r"response (\d+)", re.I)
_CANVAS_QUESTION = re.compile(r"(\d+): (.*)", re.S)
# the spellings of "no answer": blank, a dash, or the usual placeholders
SLOT = "#slot:"   # how an item names the bank's Nth question rather than an id (see bankkeys.refs)
OMIT_TOKENS = ("", "-", "--", ".", "na", "n/a", "null", "none", "omit", "omitted", "skip", "skipped")


@dataclass
class Rejected:
    """Rows a file could not contribute, by kind, with the first few line numbers."""

    path: str
    kind: str
    count: int
    lines: list[int]


@dataclass
class Intake:
    """What the readers did: rows per status, rejected rows, which layout each file was read as, and how many
    answers each file gave."""

    layouts: dict[str, str] = field(default_factory=dict)
    answers: dict[str, int] = field(default_factory=dict)
    empty: dict[str, str] = field(default_factory=dict)   # a file that gave no answers: why
    rejected: list[Rejected] = field(default_factory=list)
    status_counts: dict[int, int] = field(default_factory=dict)
    unknown_items: list[tuple[str, int]] = field(default_factory=list)
    unknown_options: list[tuple[str, str, int]] = field(default_factory=list)


def ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def columns(con, src: str) -> list[str]:
    return [row[0] for row in con.execute(f"DESCRIBE SELECT * FROM {src}").fetchall()]


def _pick(names: Sequence[str], wanted: Sequence[str]) -> str | None:
    lowered = {n.strip().lower(): n for n in names}
    return next((lowered[w] for w in wanted if w in lowered), None)


def layout_of(names: Sequence[str]) -> str:
    lowered = [n.strip().lower() for n in names]
    if _pick(names, PERSON_NAMES) and _pick(names, ITEM_NAMES) and _pick(names, RESPONSE_NAMES):
        return "long"
    if any(_MOODLE_RESPONSE.fullmatch(n) for n in lowered):
        return "moodle"
    if any(_CANVAS_QUESTION.fullmatch(n.strip()) for n in names):
        return "canvas"
    return "wide"


def create_answers(con) -> None:
    con.execute("CREATE OR REPLACE TABLE answers (form VARCHAR, person VARCHAR, qi INTEGER, opt SMALLINT, "
                "status TINYINT, attempt VARCHAR, raw_item VARCHAR, raw_response VARCHAR)")


def _insert(con, rows_sql: str) -> None:
    """Join (form, person, item, response, attempt) rows to the bank and append them to ``answers``.

    ``item`` is a question id, or ``SLOT`` + N for the bank's Nth question (Moodle slots, Canvas columns
    matched by question text); both become one equality join against ``refs``."""
    omit = ", ".join(quote(t) for t in OMIT_TOKENS)
    con.execute(f"""
        INSERT INTO answers
        WITH raw AS ({rows_sql}),
        norm AS (
            SELECT form, person, attempt, item, response,
                   lower(trim(coalesce(response, ''))) AS token,
                   CASE WHEN starts_with(item, '{SLOT}') THEN item ELSE 'id:' || trim(item) END AS ref
            FROM raw)
        SELECT n.form, n.person, r.qi, t.opt,
               CASE WHEN r.qi IS NULL THEN {UNKNOWN_ITEM}
                    WHEN n.token IN ({omit}) THEN {OMITTED}
                    WHEN r.key IS NULL THEN {NOT_SCORED}
                    WHEN t.opt IS NULL THEN {UNKNOWN_OPTION}
                    ELSE {ANSWERED} END AS status,
               n.attempt,
               CASE WHEN r.qi IS NULL OR t.opt IS NULL THEN n.item END,
               CASE WHEN r.qi IS NULL OR t.opt IS NULL THEN n.response END
        FROM norm n
        LEFT JOIN refs r ON r.ref = n.ref
        LEFT JOIN tokens t ON t.qi = r.qi AND t.token = n.token
    """)


def read_file(con, path: Path, tag: str, questions: Sequence[BankQuestion], intake: Intake) -> None:
    """Append one response file's rows to ``answers``. The engine reads the file qlint opened, never a pattern;
    whatever it cannot read is an AnalysisError naming the file (and the line, where there is one)."""
    # the engine's own error class: DuckDB is loaded by now (connect), and only item analysis needs it
    import duckdb

    refuse_by_name(path)
    with opened(path) as file:
        if file.size == 0:
            intake.answers[str(path)], intake.empty[str(path)] = 0, "the file is empty"
            return
        check_lines(file, path)
        before = _answer_count(con)
        try:
            _read_rows(con, path, source(path, file, tag), tag, questions, intake)
        except duckdb.Error as exc:
            raise AnalysisError(explain(exc, path, file)) from None
        except AnalysisError as exc:
            raise AnalysisError(f"{path}: {exc}") from None
        count = intake.answers[str(path)] = _answer_count(con) - before
    if not count:
        rejected = sum(r.count for r in intake.rejected if r.path == str(path))
        intake.empty[str(path)] = (f"none of its {rejected} rows could be read" if rejected
                                   else "it has a header and no rows")


def _answer_count(con) -> int:
    return int(con.execute("SELECT count(*) FROM answers").fetchone()[0])


def _read_rows(con, path: Path, src: str, tag: str, questions: Sequence[BankQuestion], intake: Intake) -> None:
    names = columns(con, src)
    kind = layout_of(names)
    intake.layouts[str(path)] = kind
    rows = {"long": _long_rows, "wide": _wide_rows, "moodle": _moodle_rows, "canvas": _canvas_rows}[kind](
        names, src, questions)
    _insert(con, rows)
    if src.startswith("read_csv"):
        for kind_, count, lines in con.execute(
                f"SELECT error_type, count(DISTINCT line), list(DISTINCT line ORDER BY line)[1:5] "
                f"FROM rejects_{tag} GROUP BY error_type ORDER BY error_type").fetchall():
            intake.rejected.append(Rejected(str(path), str(kind_).lower(), int(count), [int(x) for x in lines]))


def _long_rows(names: Sequence[str], src: str, questions: Sequence[BankQuestion]) -> str:
    person, item, response = (ident(_pick(names, w)) for w in (PERSON_NAMES, ITEM_NAMES, RESPONSE_NAMES))
    form = _pick(names, ("form", "version", "booklet"))
    attempt = _pick(names, ("attempt",)) or _pick(names, ("timestamp", "time", "submitted"))
    return (f"SELECT CAST({ident(form) if form else repr('')} AS VARCHAR) AS form, CAST({person} AS VARCHAR) AS person, "
            f"CAST({item} AS VARCHAR) AS item, CAST({response} AS VARCHAR) AS response, "
            f"CAST({ident(attempt) if attempt else 'NULL'} AS VARCHAR) AS attempt FROM {src}")


def _unpivot(src: str, person: str, item_columns: dict[str, str], form: str | None = None,
             attempt: str | None = None) -> str:
    """Wide rows to long ones: ``item_columns`` maps each answer column to the item it holds."""
    if not item_columns:
        raise AnalysisError("no answer columns: a wide file needs a person column and one column per question id")
    cases = " ".join(f"WHEN {quote(col)} THEN {quote(item)}" for col, item in item_columns.items())
    cols = ", ".join(ident(c) for c in item_columns)
    keep = ", ".join(f"CAST({ident(c)} AS VARCHAR) AS {ident(c)}" for c in item_columns)
    extra = f", {ident(form)} AS __form" if form else ", '' AS __form"
    extra += f", {ident(attempt)} AS __attempt" if attempt else ", NULL AS __attempt"
    return (f"SELECT CAST(__form AS VARCHAR) AS form, CAST(__person AS VARCHAR) AS person, "
            f"CASE __column {cases} END AS item, response, CAST(__attempt AS VARCHAR) AS attempt FROM ("
            f"SELECT * FROM (SELECT {ident(person)} AS __person{extra}, {keep} FROM {src}) "
            f"UNPIVOT INCLUDE NULLS (response FOR __column IN ({cols})))")


def _wide_rows(names: Sequence[str], src: str, questions: Sequence[BankQuestion]) -> str:
    """A person column (by name, else the first column unless it is a question id: then persons are row
    numbers), an optional form column, and every other column a question."""
    ids = {q.id for q in questions}
    person = _pick(names, PERSON_NAMES) or (names[0] if names[0].strip() not in ids else None)
    form = _pick(names, ("form", "version", "booklet"))
    skip = {person, form}
    if person is None:
        src = f"(SELECT CAST(row_number() OVER () AS VARCHAR) AS __row, * FROM {src})"
        person = "__row"
    return _unpivot(src, person, {c: c.strip() for c in names if c not in skip}, form)


def _moodle_rows(names: Sequence[str], src: str, questions: Sequence[BankQuestion]) -> str:
    """Moodle: ``Response N`` answers slot N. With ``Question N`` columns (the question text, per row: a
    random question differs from person to person) the slot is matched to the bank by that text; else slot N
    is the bank's Nth question. Moodle's closing "Overall average" row is not a person."""
    person = _pick(names, ("email address", "username", "id number")) or names[0]
    slots = {n: int(m.group(1)) - 1 for n in names if (m := _MOODLE_RESPONSE.fullmatch(n.strip()))}
    stems = {int(m.group(1)) - 1: n for n in names if (m := re.fullmatch(r"question (\d+)", n.strip(), re.I))}
    stem_case = " ".join(f"WHEN {quote(col)} THEN {ident(stems[slot])}" for col, slot in slots.items()
                         if slot in stems)
    stem_expr = f"CASE __column {stem_case} END" if stem_case else "NULL"
    slot_case = " ".join(f"WHEN {quote(col)} THEN '{SLOT}{slot}'" for col, slot in slots.items())
    kept = ", ".join(ident(stems[s]) for s in sorted(set(stems) & set(slots.values())))
    answers = ", ".join(f"CAST({ident(c)} AS VARCHAR) AS {ident(c)}" for c in slots)
    return (f"SELECT '' AS form, CAST(__person AS VARCHAR) AS person, "
            f"coalesce('{SLOT}' || s.qi, CASE __column {slot_case} END) AS item, response, NULL AS attempt FROM ("
            f"SELECT * FROM (SELECT {ident(person)} AS __person{', ' + kept if kept else ''}, {answers} "
            f"FROM {src} WHERE coalesce(lower(CAST({ident(names[0])} AS VARCHAR)), '') NOT LIKE 'overall average%') "
            f"UNPIVOT INCLUDE NULLS (response FOR __column IN ({', '.join(ident(c) for c in slots)}))) u "
            f"LEFT JOIN stems s ON s.stem = lower(trim({stem_expr}))")


def _canvas_rows(names: Sequence[str], src: str, questions: Sequence[BankQuestion]) -> str:
    """Canvas: ``<canvas id>: <question text>`` columns; matched to the bank by id first, then by stem text."""
    by_id = {q.id: q.id for q in questions}
    by_stem = {normalise(q.loaded.question.stem): f"{SLOT}{q.index}" for q in questions}
    items: dict[str, str] = {}
    for name in names:
        match = _CANVAS_QUESTION.fullmatch(name.strip())
        if match:
            canvas_id, text = match.groups()
            items[name] = by_id.get(canvas_id) or by_stem.get(normalise(text)) or canvas_id
    person = _pick(names, ("id", "sis_id", "name")) or names[0]
    return _unpivot(src, person, items, attempt=_pick(names, ("attempt",)))
