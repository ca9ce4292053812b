"""The run index: a warm check with nothing changed reads every file's outcome from one file of the cache, never
opening the per-file entries, and an index that is damaged, planted or of another set of files is never trusted."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from qlint.run import cache as cache_module
from qlint.run.pipeline import run_check

BANK = {
    "a.yaml": "id: a-1\nstem: Which call returns a Python float from a one-element loss tensor?\noptions:\n"
              "  - {text: loss.item(), correct: true, rationale: Correct. It copies the value out.}\n"
              "  - {text: loss.detach(), rationale: Incorrect. It returns a tensor.}\n",
    "b.yaml": "id: b-1\nstem: Which call returns a Python float from a one element loss tensor?\noptions:\n"
              "  - {text: loss.item(), correct: true, rationale: Correct. It copies the value out.}\n"
              "  - {text: loss.detach(), correct: true, rationale: Correct. Also a tensor.}\n",
    # a suppression and an ignore field: the index must carry what they need of the questions
    "c.yaml": "questions:\n"
              "  - id: c-1  # qlint: ignore-question[correct-count] two keys on purpose\n"
              "    stem: Which two of these calls copy a tensor's value out to Python?\n"
              "    options:\n"
              "      - {text: loss.item(), correct: true, rationale: Correct. It copies the value out.}\n"
              "      - {text: loss.tolist(), correct: true, rationale: Correct. It copies the values out.}\n"
              "  - id: c-2\n"
              "    qlint: {ignore: {correct-count: no key yet}}\n"
              "    stem: Which call moves a tensor to the first GPU?\n"
              "    options:\n"
              "      - {text: x.cuda(), rationale: It does.}\n"
              "      - {text: x.cpu(), rationale: It does not.}\n",
}


@pytest.fixture
def bank(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "bank"
    folder.mkdir()
    for name, text in BANK.items():
        (folder / name).write_text(text)
    monkeypatch.setenv("QLINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(folder)
    return folder


def check(bank: Path, use_cache: bool = True) -> list:
    """Every finding as the JSON output shows it, and whether it offers a fix."""
    return [(f.to_json(), f.fix is not None) for f in run_check([str(bank)], jobs=1, use_cache=use_cache).findings]


def indexes(bank: Path) -> list[Path]:
    return sorted((bank.parent / "cache").rglob("runs/*.txt"))


def no_entry_opened(monkeypatch) -> None:
    def refuse(self, digest, features=True):
        raise AssertionError("a per-file entry was opened")
    monkeypatch.setattr(cache_module.Cache, "get_with_text", refuse)


def test_a_warm_run_opens_no_per_file_entry(bank, monkeypatch):
    cold = check(bank)
    assert {"near-duplicate-stem", "correct-count"} <= {json.loads(f)["rule"] for f, _ in cold}
    assert not any(json.loads(f)["path"].endswith("c.yaml") for f, _ in cold)   # suppressed and ignored
    assert len(indexes(bank)) == 1
    no_entry_opened(monkeypatch)
    assert check(bank) == cold == check(bank, use_cache=False)


def test_an_edit_names_a_new_index_and_is_seen(bank, monkeypatch):
    check(bank)
    (bank / "b.yaml").write_text(BANK["b.yaml"].replace("correct: true, rationale: Correct. Also",
                                                        "rationale: Incorrect. Also"))
    edited = check(bank)
    assert edited == check(bank, use_cache=False)
    assert not any(json.loads(f)["rule"] == "correct-count" and "b.yaml" in f for f, _ in edited)
    assert len(indexes(bank)) == 2
    no_entry_opened(monkeypatch)
    assert check(bank) == edited


def _tamper(index: Path, how: str) -> None:
    lines = index.read_text().split("\n")
    if how == "truncated":
        index.write_text("\n".join(lines[:-2]))
    elif how == "swapped":   # every file's outcome under another file's name
        pairs = [lines[i:i + 2] for i in range(0, len(lines), 2)]
        index.write_text("\n".join(line for pair in pairs[1:] + pairs[:1] for line in pair))
    elif how == "planted":   # every file checked clean
        heads = []
        for head in lines[::2]:
            doc = json.loads(head)
            doc["findings"] = {"paths": [], "kinds": [], "ids": [], "fields": [], "rows": []}
            heads.append(json.dumps(doc, separators=(",", ":")))
        index.write_text("\n".join(line for head, middle in zip(heads, lines[1::2]) for line in (head, middle)))
    elif how == "garbage":
        index.write_text("{not json\n" * len(lines))


@pytest.mark.parametrize("how", ["truncated", "swapped", "garbage"])
def test_a_damaged_index_is_a_miss(bank, how):
    cold = check(bank)
    [index] = indexes(bank)
    _tamper(index, how)
    assert check(bank) == cold


def test_an_index_planted_in_a_repository_is_never_read(bank, tmp_path, monkeypatch):
    """The index lives in the entry folder keyed with the user's secret: another machine never finds it."""
    cold = check(bank)
    [index] = indexes(bank)
    _tamper(index, "planted")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "ci-home"))
    assert check(bank) == cold


def test_files_checked_in_workers_with_fixable_findings_are_indexed(bank, monkeypatch):
    """A worker sends an outcome with a proposed fix whole; the run index still gets its entry."""
    from qlint.run import batch

    (bank / "d.yaml").write_text(BANK["a.yaml"].replace("id: a-1", "id: d-1")
                                 .replace("stem: Which call returns a Python float from a one-element loss tensor?",
                                          "stem: '  Padded: which call gives a float from a loss tensor?'"))
    monkeypatch.setattr(batch, "PARALLEL_MIN_BYTES", 0)
    cold = [(f.to_json(), f.fix is not None) for f in run_check([str(bank)], jobs=2).findings]
    assert any(json.loads(f)["rule"] == "stray-whitespace" and fixable for f, fixable in cold)
    assert len(indexes(bank)) == 1
    no_entry_opened(monkeypatch)
    assert check(bank) == cold
