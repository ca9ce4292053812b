"""The bank as two small tables the responses join against: questions (id, key) and answer tokens.

A response names an option by its exact text, by its letter (A, B, ...) or by its 1-based number; when one
spelling could mean two options, the text wins, then the letter, then the number.
"""
from __future__ import annotations

import csv
import os
import tempfile
from collections.abc import Sequence

from qlint.responserule import BankQuestion
from qlint.wording import letter

_TEXT, _LETTER, _NUMBER = 0, 1, 2


def normalise(text: str) -> str:
    """How a response and an option text are compared: trimmed and lower-cased, as the SQL side's
    lower(trim(response)) does (a per-row regular expression to collapse inner spaces cost a third of the read)."""
    return text.strip().lower()


def token_rows(questions: Sequence[BankQuestion]):
    """(question index, token, option index, priority) for every way of naming every option."""
    for q in questions:
        for i, text in enumerate(q.options):
            yield q.index, normalise(text), i, _TEXT
            yield q.index, letter(i).lower(), i, _LETTER
            yield q.index, str(i + 1), i, _NUMBER


def load_bank(con, questions: Sequence[BankQuestion]) -> None:
    """Create ``questions`` and ``tokens`` in DuckDB. Written through a temporary CSV: one bulk read, where
    row-by-row inserts of a large bank would take minutes."""
    con.execute("CREATE OR REPLACE TABLE questions (qi INTEGER, id VARCHAR, key SMALLINT, n_options SMALLINT)")
    con.execute("CREATE OR REPLACE TABLE tokens (qi INTEGER, token VARCHAR, opt SMALLINT, prio TINYINT)")
    con.execute("CREATE OR REPLACE TABLE stems (qi INTEGER, stem VARCHAR)")
    with tempfile.TemporaryDirectory(prefix="qlint-analysis-") as folder:
        for table, rows in (("questions", ((q.index, q.id, q.key, len(q.options)) for q in questions)),
                            ("tokens", token_rows(questions)),
                            ("stems", ((q.index, normalise(q.loaded.question.stem)) for q in questions))):
            path = os.path.join(folder, f"{table}.csv")
            with open(path, "w", encoding="utf-8", newline="") as handle:
                writer = csv.writer(handle)
                writer.writerows(("" if v is None else v for v in row) for row in rows)
            con.execute(f"INSERT INTO {table} SELECT * FROM read_csv(?, header=false, columns=?, quote='\"', "
                        "escape='\"', nullstr='', auto_detect=false)",
                        [path, _columns(con, table)])
    # the lowest priority spelling wins when two options share a token ("B" the text and B the letter)
    con.execute("CREATE OR REPLACE TABLE tokens AS SELECT qi, token, arg_min(opt, prio) AS opt "
                "FROM tokens GROUP BY qi, token")
    con.execute("CREATE OR REPLACE TABLE stems AS SELECT stem, min(qi) AS qi FROM stems GROUP BY stem")
    # how an answer names its question: by id, or by position (a Moodle slot); a repeated id (duplicate-id
    # reports it) joins its first question only, so no answer is counted twice
    con.execute("CREATE OR REPLACE TABLE refs AS SELECT 'id:' || id AS ref, min(qi) AS qi FROM questions GROUP BY id "
                "UNION ALL SELECT '#slot:' || qi, qi FROM questions")
    con.execute("CREATE OR REPLACE TABLE refs AS SELECT r.ref, r.qi, q.key FROM refs r JOIN questions q USING (qi)")


def _columns(con, table: str) -> dict[str, str]:
    return {name: kind for name, kind, *_ in con.execute(f"DESCRIBE {table}").fetchall()}
