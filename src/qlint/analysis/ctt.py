"""Classical item statistics as SQL aggregations over the ``answers`` table.

Conventions (the ones a psychometrician's table states):
- one answer per person and question: the first attempt (lowest ``attempt``, numeric when it parses); later
  ones are counted as repeats;
- an omitted answer scores 0 and counts in the question's n; a question a person never saw is absent, not 0,
  except in KR-20, which needs a full matrix and so counts it as 0;
- the rest score is the person's total minus this question's score (item-rest, "corrected" item-total);
- point-biserials use population standard deviations (the same as Pearson's r against a 0/1 variable);
- the upper and lower groups are the top and bottom 27% of persons by total score within a form (ties broken
  by a hash of the person id, so the split is stable and unbiased); the five score groups split persons the
  same way in fifths.

Every query is a GROUP BY, a join or one window over persons (not over answers), so it ports to Spark SQL or
BigQuery as written.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from qlint.analysis.readers import ANSWERED, OMITTED

GROUPS = 5
OMIT = -1   # the option number an omitted answer gets in ``scored``


@dataclass(frozen=True)
class OptionStats:
    """One option of one question: who chose it and how they scored on the rest of the test."""

    opt: int
    n: int
    proportion: float
    rest_pb: float | None
    groups: tuple[float, ...]   # proportion choosing it in each of the five score groups, lowest first


@dataclass(frozen=True)
class ItemStats:
    """One question on one form."""

    form: str
    qi: int
    key: int
    n: int
    p: float
    omitted: int
    item_rest: float | None
    discrimination: float | None   # upper-lower 27% index
    alpha_if_deleted: float | None
    options: tuple[OptionStats, ...]
    omitted_groups: tuple[float, ...] = ()


@dataclass(frozen=True)
class FormStats:
    """A form (the whole data set when there is no ``form`` column): its persons, questions and reliability."""

    form: str
    persons: int
    items: int
    mean: float
    sd: float
    alpha: float | None


@dataclass
class Statistics:
    forms: list[FormStats] = field(default_factory=list)
    items: list[ItemStats] = field(default_factory=list)
    repeats: int = 0


def build_scored(con) -> int:
    """``scored``: one row per person and question (the first attempt), with its score; returns repeats."""
    con.execute(f"""
        CREATE OR REPLACE TABLE scored AS
        SELECT a.form, a.person, a.qi,
               arg_min(coalesce(a.opt, {OMIT}), (TRY_CAST(a.attempt AS DOUBLE), a.attempt)) AS opt,
               count(*) AS n
        FROM answers a WHERE a.status IN ({ANSWERED}, {OMITTED}) GROUP BY a.form, a.person, a.qi""")
    repeats = con.execute("SELECT coalesce(sum(n) - count(*), 0) FROM scored").fetchone()[0]
    con.execute("""
        CREATE OR REPLACE TABLE scored AS
        SELECT s.form, s.person, s.qi, s.opt, CAST(s.opt = q.key AS TINYINT) AS score
        FROM scored s JOIN questions q USING (qi)""")
    con.execute(f"""
        CREATE OR REPLACE TABLE persons AS
        WITH t AS (SELECT form, person, sum(score) AS total FROM scored GROUP BY form, person),
        r AS (SELECT *, row_number() OVER (PARTITION BY form ORDER BY total, hash(person), person) AS rk,
                     count(*) OVER (PARTITION BY form) AS np FROM t)
        SELECT form, person, total,
               CASE WHEN rk <= round(0.27 * np) THEN -1 WHEN rk > np - round(0.27 * np) THEN 1 ELSE 0 END AS band,
               CAST(floor({GROUPS} * (rk - 1) / np) AS INTEGER) AS grp
        FROM r""")
    return int(repeats)


_FORMS = """
    WITH k AS (SELECT form, count(DISTINCT qi) AS k FROM scored GROUP BY form),
    p AS (SELECT form, count(*) AS np, avg(total) AS mean, var_pop(total) AS var_t FROM persons GROUP BY form),
    iv AS (SELECT s.form, s.qi, sum(s.score) / any_value(p.np) AS pi FROM scored s JOIN p USING (form)
           GROUP BY s.form, s.qi)
    SELECT p.form, p.np, k.k, p.mean, sqrt(p.var_t), p.var_t, sum(iv.pi * (1 - iv.pi)) AS sum_var
    FROM p JOIN k USING (form) JOIN iv USING (form) GROUP BY p.form, p.np, k.k, p.mean, p.var_t ORDER BY p.form
"""

_ITEMS = """
    WITH f AS (SELECT form, count(*) AS np, avg(total) AS mean_t, var_pop(total) AS var_t FROM persons GROUP BY form),
    j AS (SELECT s.form, s.qi, s.opt, s.score, p.total, p.total - s.score AS rest, p.band, p.grp
          FROM scored s JOIN persons p USING (form, person))
    SELECT j.form, j.qi, count(*) AS n, avg(j.score) AS p, count(*) FILTER (WHERE j.opt = -1) AS omitted,
           corr(j.score, j.rest) AS item_rest,
           avg(j.score) FILTER (WHERE j.band = 1) - avg(j.score) FILTER (WHERE j.band = -1) AS disc,
           sum(j.score) / any_value(f.np) AS p_full,
           sum(j.score * j.total) / any_value(f.np) AS e_tx,
           any_value(f.mean_t) AS mean_t, any_value(f.var_t) AS var_t,
           avg(j.rest) AS mean_rest, stddev_pop(j.rest) AS sd_rest
    FROM j JOIN f USING (form) GROUP BY j.form, j.qi ORDER BY j.form, j.qi
"""

_OPTIONS = """
    SELECT s.form, s.qi, s.opt, count(*) AS n, avg(p.total - s.score) AS mean_rest
    FROM scored s JOIN persons p USING (form, person) GROUP BY s.form, s.qi, s.opt
"""

_OPTION_GROUPS = """
    WITH c AS (SELECT s.form, s.qi, s.opt, p.grp, count(*) AS n
               FROM scored s JOIN persons p USING (form, person) GROUP BY s.form, s.qi, s.opt, p.grp)
    SELECT form, qi, opt, grp, n, sum(n) OVER (PARTITION BY form, qi, grp) AS group_n FROM c
"""


def _alpha(k: int, sum_var: float, var_total: float) -> float | None:
    if k < 2 or var_total <= 0:
        return None
    return k / (k - 1) * (1 - sum_var / var_total)


def compute(con, keys: dict[int, int], option_counts: dict[int, int]) -> Statistics:
    """Every form's and question's statistics. ``keys`` and ``option_counts`` are by question index."""
    stats = Statistics(repeats=build_scored(con))
    sum_vars: dict[str, tuple[int, float]] = {}
    for form, np_, k, mean, sd, var_t, sum_var in con.execute(_FORMS).fetchall():
        stats.forms.append(FormStats(form, int(np_), int(k), float(mean), float(sd or 0.0),
                                     _alpha(int(k), float(sum_var), float(var_t))))
        sum_vars[form] = (int(k), float(sum_var))
    counts: dict[tuple[str, int], dict[int, int]] = {}
    rests: dict[tuple[str, int], dict[int, float]] = {}
    for form, qi, opt, n, mean_rest in con.execute(_OPTIONS).fetchall():
        counts.setdefault((form, qi), {})[int(opt)] = int(n)
        rests.setdefault((form, qi), {})[int(opt)] = float(mean_rest)
    groups: dict[tuple[str, int, int], list[float]] = {}
    for form, qi, opt, grp, n, group_n in con.execute(_OPTION_GROUPS).fetchall():
        groups.setdefault((form, qi, int(opt)), [0.0] * GROUPS)[int(grp)] = n / group_n if group_n else 0.0
    for row in con.execute(_ITEMS).fetchall():
        stats.items.append(_item(row, keys, option_counts, counts, rests, groups, sum_vars))
    return stats


def _item(row, keys, option_counts, counts, rests, groups, sum_vars) -> ItemStats:
    form, qi, n, p, omitted, item_rest, disc, p_full, e_tx, mean_t, var_t, mean_rest, sd_rest = row
    k, sum_var = sum_vars[form]
    var_i = p_full * (1 - p_full)
    var_without = var_t + var_i - 2 * (e_tx - mean_t * p_full)
    alpha_del = _alpha(k - 1, sum_var - var_i, var_without) if k > 2 else None
    options = []
    for opt in range(option_counts[qi]):
        chosen = counts.get((form, qi), {}).get(opt, 0)
        share = chosen / n
        pb = None
        if 0 < chosen < n and sd_rest:
            pb = (rests[(form, qi)][opt] - mean_rest) / sd_rest * (share / (1 - share)) ** 0.5
        options.append(OptionStats(opt, chosen, share, pb, tuple(groups.get((form, qi, opt), [0.0] * GROUPS))))
    return ItemStats(form, int(qi), keys[qi], int(n), float(p), int(omitted), _num(item_rest), _num(disc),
                     alpha_del, tuple(options), tuple(groups.get((form, qi, OMIT), [0.0] * GROUPS)))


def _num(value) -> float | None:
    if value is None:
        return None
    value = float(value)
    return None if value != value else value   # NaN (a constant column) is "not defined"
