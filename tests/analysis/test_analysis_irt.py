"""The optional 2PL fit: mirt's parameters agree with girth's independent fit within mirt's standard errors."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("duckdb")
pytest.importorskip("mirt")
girth = pytest.importorskip("girth")

from qlint.analysis import connect  # noqa: E402
from qlint.analysis.bankkeys import load_bank  # noqa: E402
from qlint.analysis.ctt import build_scored  # noqa: E402
from qlint.analysis.irt import fit_2pl, score_matrix  # noqa: E402
from qlint.analysis.readers import Intake, create_answers, read_file  # noqa: E402
from qlint.analysis.run import bank_questions  # noqa: E402
from qlint.analysis.simulate import simulate  # noqa: E402


def test_2pl_agrees_with_girth_within_standard_errors(tmp_path):
    sim = simulate(items=12, seed=7, miskeyed=0, dead=0, flat=0)
    (tmp_path / "bank.yaml").write_text(sim.bank_yaml)
    with open(tmp_path / "r.csv", "w") as handle:
        handle.write("person,item,response\n")
        handle.writelines(sim.long_rows(800, 7))
    questions = bank_questions([str(tmp_path / "bank.yaml")])
    con = connect()
    load_bank(con, questions)
    create_answers(con)
    read_file(con, tmp_path / "r.csv", "f0", questions, Intake())
    build_scored(con)
    items = fit_2pl(con, [""])
    matrix, qis = score_matrix(con, "")
    assert matrix.shape == (800, 12) and (matrix >= 0).all()
    peer = girth.twopl_mml(matrix.T.astype(int))
    for item, a, b in zip(items, peer["Discrimination"], peer["Difficulty"]):
        assert abs(item.discrimination - a) <= item.discrimination_se, (item, a)
        assert abs(item.difficulty - b) <= item.difficulty_se, (item, b)
        assert item.fit_p is not None and 0 <= item.fit_p <= 1   # on 800 answers mirt gives every item an S-X2 p
    # and both recover the generating slopes roughly (omissions score 0, so not exactly)
    true_a = sim.a[[int(q) for q in qis]]
    assert np.corrcoef(true_a, [i.discrimination for i in items])[0, 1] > 0.8


def test_a_question_everyone_gets_right_is_left_out_of_the_fit(tmp_path):
    sim = simulate(items=6, seed=8, miskeyed=0, dead=0, flat=0)
    (tmp_path / "bank.yaml").write_text(sim.bank_yaml)
    chosen = sim.responses(300, 8)
    chosen[:, 0] = sim.bank_keys[0]
    with open(tmp_path / "r.csv", "w") as handle:
        handle.write("person,item,response\n")
        for p, row in enumerate(chosen):
            handle.writelines(f"p{p},{qid},{'ABCD'[c] if c >= 0 else ''}\n" for qid, c in zip(sim.ids, row))
    questions = bank_questions([str(tmp_path / "bank.yaml")])
    con = connect()
    load_bank(con, questions)
    create_answers(con)
    read_file(con, tmp_path / "r.csv", "f0", questions, Intake())
    build_scored(con)
    items = fit_2pl(con, [""])
    assert sorted(i.qi for i in items) == [1, 2, 3, 4, 5]
