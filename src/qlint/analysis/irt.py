"""Optional 2PL item response theory fit: discrimination and difficulty with standard errors, and item fit.

The fit is mirt's (the ``irt`` extra): marginal maximum likelihood by EM, standard errors from the
information matrix and the S-X2 item-fit statistic (Orlando & Thissen), with numpy and scipy only. girth, the
other maintained Python IRT library, fits the same model but gives no standard errors; the tests use it as the
independent peer (parameters must agree within mirt's standard errors). Classical statistics never need either.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from qlint import install_hint
from qlint.analysis import AnalysisError


@dataclass(frozen=True)
class IrtItem:
    """One question's 2PL parameters on one form."""

    form: str
    qi: int
    discrimination: float
    discrimination_se: float
    difficulty: float
    difficulty_se: float
    fit_s_x2: float | None
    fit_df: float | None
    fit_p: float | None


def score_matrix(con, form: str) -> tuple[np.ndarray, np.ndarray]:
    """(persons, questions) 0/1 scores of one form, -1 where a person never saw a question, and the question
    index of each column. Built from integer columns only: no Python object per answer."""
    rows = con.execute("""
        WITH p AS (SELECT person, CAST(row_number() OVER (ORDER BY person) - 1 AS INTEGER) AS pi
                   FROM persons WHERE form = ?),
        q AS (SELECT qi, CAST(row_number() OVER (ORDER BY qi) - 1 AS INTEGER) AS ci
              FROM (SELECT DISTINCT qi FROM scored WHERE form = ?))
        SELECT p.pi, q.ci, q.qi, s.score FROM scored s JOIN p USING (person) JOIN q USING (qi) WHERE s.form = ?
    """, [form, form, form]).fetchnumpy()
    persons = int(rows["pi"].max()) + 1 if len(rows["pi"]) else 0
    columns = int(rows["ci"].max()) + 1 if len(rows["ci"]) else 0
    matrix = np.full((persons, columns), -1, dtype=np.int8)
    matrix[rows["pi"], rows["ci"]] = rows["score"]
    qis = np.zeros(columns, dtype=np.int64)
    qis[rows["ci"]] = rows["qi"]
    return matrix, qis


def fit_2pl(con, forms: list[str]) -> list[IrtItem]:
    """A 2PL fit per form (after ``ctt.build_scored``)."""
    try:
        import mirt  # optional heavy dependency: only --irt needs it
        from mirt.diagnostics.itemfit import compute_itemfit
    except ImportError:
        raise AnalysisError(f"the 2PL fit needs mirt: {install_hint('irt')}") from None
    out: list[IrtItem] = []
    for form in forms:
        matrix, qis = score_matrix(con, form)
        # a question everyone (or no one) got right has no finite 2PL estimate: it is left out of the fit
        seen = matrix >= 0
        right = (matrix == 1).sum(axis=0)
        varied = (right > 0) & (right < seen.sum(axis=0))
        matrix, qis = matrix[:, varied], qis[varied]
        if matrix.shape[0] < 2 or matrix.shape[1] < 2:
            continue
        try:
            result = mirt.fit_mirt(matrix.astype(np.int64), model="2PL")
            fit = compute_itemfit(result.model, matrix.astype(np.int64), ["S_X2"])
        except Exception as exc:  # a degenerate matrix (a constant column): reported, not a crash
            raise AnalysisError(f"the 2PL fit failed on form {form!r}: {exc}") from None
        params, errors = result.model.parameters, result.standard_errors
        for c, qi in enumerate(qis):
            out.append(IrtItem(form, int(qi), float(params["discrimination"][c]), float(errors["discrimination"][c]),
                               float(params["difficulty"][c]), float(errors["difficulty"][c]),
                               _num(fit["S_X2"][c]), _num(fit["df"][c]), _num(fit["p_value"][c])))
    return out


def _num(value) -> float | None:
    value = float(value)
    return None if value != value else value
