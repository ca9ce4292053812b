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

The answers are read twice: once to give each person a total, once (joined to those totals) into one
GROUP BY over question, option, score fifth and 27% band that keeps counts and sums of totals. Every
statistic follows exactly from those few thousand rows of sufficient statistics, as a map-reduce would
compute it; each query is a GROUP BY, a join or one window over persons (not over answers), so it ports to
Spark SQL or BigQuery as written.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from qlint.analysis.readers import ANSWERED, OMITTED
from qlint.responserule import FormStats, ItemStats, OptionStats

GROUPS = 5
OMIT = -1   # the option number an omitted answer gets in ``scored``


@dataclass
class Statistics:
    forms: list[FormStats] = field(default_factory=list)
    items: list[ItemStats] = field(default_factory=list)
    repeats: int = 0


def build_scored(con, attempts: bool = True) -> int:
    """``scored``: one row per person and question, with its score, and ``persons``: each person's total,
    27% band and fifth. Returns the number of repeated answers left out. With an attempt column the first
    attempt counts; without one (rows have no order in SQL) the lowest option of the repeats does."""
    pick = f"arg_min(coalesce(a.opt, {OMIT}), (TRY_CAST(a.attempt AS DOUBLE), a.attempt))" if attempts else \
        f"min(coalesce(a.opt, {OMIT}))"
    con.execute(f"""
        CREATE OR REPLACE TABLE scored AS
        SELECT s.form, s.person, s.qi, s.opt, CAST(s.opt = q.key AS TINYINT) AS score, s.n
        FROM (SELECT a.form, a.person, a.qi, {pick} AS opt, count(*) AS n
              FROM answers a WHERE a.status IN ({ANSWERED}, {OMITTED}) GROUP BY a.form, a.person, a.qi) s
        JOIN questions q USING (qi)""")
    repeats = con.execute("SELECT coalesce(sum(n) - count(*), 0) FROM scored").fetchone()[0]
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


# the one pass over the answers: sufficient statistics per question, option, score fifth and 27% band. Within a
# cell every answer has the same score (the option decides it), so rest-score sums follow from total sums.
_CELLS = """
    SELECT s.form, s.qi, s.opt, p.grp, p.band, count(*) AS n, sum(p.total) AS st, sum(p.total * p.total) AS stt
    FROM scored s JOIN persons p USING (form, person) GROUP BY s.form, s.qi, s.opt, p.grp, p.band
"""
_FORMS = "SELECT form, count(*), avg(total), var_pop(total) FROM persons GROUP BY form ORDER BY form"


@dataclass
class _Sums:
    """Running sums for one question on one form, filled from its cells."""

    n: int = 0
    correct: int = 0
    omitted: int = 0
    rest: int = 0
    rest2: int = 0
    score_rest: int = 0
    score_total: int = 0
    option_n: dict[int, int] = field(default_factory=dict)
    option_rest: dict[int, int] = field(default_factory=dict)
    group_n: dict[tuple[int, int], int] = field(default_factory=dict)   # (option, fifth) -> n
    band: dict[int, list[int]] = field(default_factory=dict)            # band -> [n, correct]

    def add(self, opt: int, grp: int, band: int, n: int, st: int, stt: int, key: int) -> None:
        score = 1 if opt == key else 0
        rest, rest2 = st - score * n, stt - 2 * score * st + score * n
        self.n += n
        self.correct += score * n
        self.omitted += n if opt == OMIT else 0
        self.rest += rest
        self.rest2 += rest2
        self.score_rest += score * rest
        self.score_total += score * st
        self.option_n[opt] = self.option_n.get(opt, 0) + n
        self.option_rest[opt] = self.option_rest.get(opt, 0) + rest
        self.group_n[(opt, grp)] = self.group_n.get((opt, grp), 0) + n
        counts = self.band.setdefault(band, [0, 0])
        counts[0] += n
        counts[1] += score * n


def _alpha(k: int, sum_var: float, var_total: float) -> float | None:
    if k < 2 or var_total <= 0:
        return None
    return k / (k - 1) * (1 - sum_var / var_total)


def compute(con, keys: dict[int, int], option_counts: dict[int, int], attempts: bool = True) -> Statistics:
    """Every form's and question's statistics. ``keys`` and ``option_counts`` are by question index."""
    stats = Statistics(repeats=build_scored(con, attempts))
    sums: dict[tuple[str, int], _Sums] = {}
    for form, qi, opt, grp, band, n, st, stt in con.execute(_CELLS).fetchall():
        sums.setdefault((form, qi), _Sums()).add(int(opt), int(grp), int(band), int(n), int(st), int(stt), keys[qi])
    forms = {}
    for form, np_, mean, var_t in con.execute(_FORMS).fetchall():
        items = {qi: s for (f, qi), s in sums.items() if f == form}
        sum_var = sum((s.correct / np_) * (1 - s.correct / np_) for s in items.values())
        forms[form] = FormStats(form, int(np_), len(items), float(mean), float(var_t) ** 0.5,
                                _alpha(len(items), sum_var, float(var_t)))
        stats.forms.append(forms[form])
        for qi, s in sorted(items.items()):
            stats.items.append(_item(form, qi, s, keys[qi], option_counts[qi], int(np_), float(mean),
                                     float(var_t), sum_var, len(items)))
    return stats


def _item(form: str, qi: int, s: _Sums, key: int, option_count: int, np_: int, mean_t: float, var_t: float,
          sum_var: float, k: int) -> ItemStats:
    p = s.correct / s.n
    mean_rest = s.rest / s.n
    var_rest = max(s.rest2 / s.n - mean_rest ** 2, 0.0)
    sd_rest = var_rest ** 0.5
    cov = s.score_rest / s.n - p * mean_rest
    var_score = p * (1 - p)
    item_rest = cov / (var_score * var_rest) ** 0.5 if var_score > 0 and var_rest > 0 else None
    upper, lower = s.band.get(1), s.band.get(-1)
    disc = upper[1] / upper[0] - lower[1] / lower[0] if upper and lower and upper[0] and lower[0] else None
    p_full = s.correct / np_
    var_i = p_full * (1 - p_full)
    var_without = var_t + var_i - 2 * (s.score_total / np_ - mean_t * p_full)
    alpha_del = _alpha(k - 1, sum_var - var_i, var_without) if k > 2 else None
    group_size = [sum(n for (o, g), n in s.group_n.items() if g == grp) for grp in range(GROUPS)]

    def shares(opt: int) -> tuple[float, ...]:
        return tuple(s.group_n.get((opt, g), 0) / group_size[g] if group_size[g] else 0.0 for g in range(GROUPS))

    options = []
    for opt in range(option_count):
        chosen = s.option_n.get(opt, 0)
        share = chosen / s.n
        pb = None
        if 0 < chosen < s.n and sd_rest > 0:
            pb = (s.option_rest[opt] / chosen - mean_rest) / sd_rest * (share / (1 - share)) ** 0.5
        options.append(OptionStats(opt, chosen, share, pb, shares(opt)))
    return ItemStats(form, int(qi), key, s.n, p, s.omitted, item_rest, disc, alpha_del, tuple(options), shares(OMIT))
