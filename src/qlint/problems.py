"""The findings qlint's own machinery reports rather than a rule's check: each code and name is defined here once.

Readers report parse and schema problems, the engine a rule that failed or ran out of time, the run a fix it
refused; the rule modules that document these (their cards, their switches) take their code and name from here.
"""
from __future__ import annotations

from typing import NamedTuple


class Problem(NamedTuple):
    """A finding's code and rule name; unpacks as ``code, name``."""

    code: str
    name: str


PARSE_ERROR = Problem("Q101", "parse-error")
SCHEMA = Problem("Q102", "schema")
UNSUPPORTED = Problem("Q109", "unsupported-question")
RATIONALES_NOT_HELD = Problem("Q110", "rationales-not-held")
IMPORT_HAZARD = Problem("Q111", "import-hazard")
RESPONSE_DATA = Problem("Q700", "response-data")
INTERNAL_ERROR = Problem("Q901", "internal-error")
UNUSED_SUPPRESSION = Problem("Q902", "unused-suppression")
INVALID_SUPPRESSION = Problem("Q903", "invalid-suppression")
RULE_TIMEOUT = Problem("Q904", "rule-timeout")
FIX_SKIPPED = Problem("Q905", "fix-skipped")

# reported whatever --select, --ignore or per-file-ignores say (as ruff never hides a syntax error): the rules that
# are on did not see what they hide (nor did a rule that failed). A parse or schema error's severity can still be
# changed, and a finding suppressed where it is.
ALWAYS_REPORTED = frozenset((PARSE_ERROR.name, SCHEMA.name, INTERNAL_ERROR.name))
