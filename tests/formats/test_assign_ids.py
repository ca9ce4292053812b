"""Ids of questions whose format has none (GIFT, Aiken, Moodle XML, QTI): a unique title, else a hash of the stem,
hashed again while taken. The ids are part of a bank's history (suppressions, baselines and reports name them), so
they never change; working them out costs steps in proportion to the questions, however many repeat."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from qlint.formats import base
from qlint.formats.base import Draft, assign_ids, stable_id


def _walked(drafts: list[Draft]) -> list[str]:
    """The ids as the chain walk from each start gives them (the definition the resumed walk keeps)."""
    counts: dict[str, int] = {}
    for d in drafts:
        if d.name and d.name.strip():
            counts[d.name.strip()] = counts.get(d.name.strip(), 0) + 1
    taken: set[str] = set()
    out = []
    for d in drafts:
        name = (d.name or "").strip()
        if name and counts[name] == 1:
            qid = name
        else:
            stem = str(d.fields.get("stem") or "")
            qid = stable_id(name or stem, stem)
            while qid in taken or counts.get(qid):
                qid = stable_id(qid, stem)
        taken.add(qid)
        out.append(qid)
    return out


def _drafts(rows: list[tuple[str | None, str]]) -> list[Draft]:
    return [Draft({"stem": stem}, 1, 1, name=name) for name, stem in rows]


@given(st.lists(st.tuples(st.one_of(st.none(), st.sampled_from(["", " ", "t1", "t2", "q"])),
                          st.sampled_from(["Pick one", "Pick two", "", "What is 2 + 2?"])), max_size=40))
def test_ids_are_those_of_the_walk_from_each_start(rows):
    drafts = _drafts(rows)
    assign_ids(drafts)
    assert [d.fields["id"] for d in drafts] == _walked(_drafts(rows))
    assert len({d.fields["id"] for d in drafts}) == len(drafts)


def test_many_copies_of_one_question_cost_a_hash_or_two_each(monkeypatch):
    calls = []

    def counted(*parts: str) -> str:
        calls.append(1)
        return stable_id(*parts)

    monkeypatch.setattr(base, "stable_id", counted)
    drafts = _drafts([(None, "Pick one")] * 3000 + [("same", "Pick one")] * 3000)
    assign_ids(drafts)
    assert len({d.fields["id"] for d in drafts}) == 6000
    assert len(calls) <= 3 * 6000   # a walk from each start would be some 9 million
