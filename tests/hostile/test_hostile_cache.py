"""Hostile caches, configs and cache locations: a damaged entry is a miss, a hostile config is exit 2 naming the
file (and line), and neither a repository nor its config can steer the cache's writes outside it."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest
from helpers import CACHE_BANK as BANK
from helpers import house_pack, run_qlint

from qlint.run.cache import FileStore

SECRET = "a-fixed-secret-so-runs-share-the-cache"
DEEP = "[" * 100_000 + "]" * 100_000


def check(root: Path, *args: str, env: dict | None = None, cmd: str = "check") -> tuple[int, str, str]:
    """A qlint run that must never show a traceback or an internal error."""
    # an empty QLINT_CACHE_DIR is unset: the cache goes where the config puts it, whatever the caller's environment
    env = {"QLINT_CACHE_DIR": "", "QLINT_CACHE_SECRET": SECRET, "XDG_CACHE_HOME": str(root / "xdg"), **(env or {})}
    full = [cmd, *args] if cmd != "check" else ["check", "bank", "--format", "json", *args]
    code, out, err, _ = run_qlint(full, root, env)
    assert "Traceback" not in err and "internal error" not in err.lower(), err
    return code, out, err


def findings(out: str) -> list[dict]:
    return json.loads(out)["findings"]


def make_bank(root: Path) -> Path:
    (root / "bank").mkdir(parents=True)
    for name, text in BANK.items():
        (root / "bank" / name).write_text(text)
    return root


# --- damaged entries: every decode failure is a miss, and a wrong shape is never a finding ------------------------

@pytest.fixture(scope="module")
def warm(tmp_path_factory):
    """A bank, a cold cache filled by one run, and what a run without the cache finds."""
    root = make_bank(tmp_path_factory.mktemp("warm"))
    (root / "qlint.toml").write_text("")
    cache = root / "cache"
    code, out, _ = check(root, env={"QLINT_CACHE_DIR": str(cache)})
    assert code == 1
    reference = check(root, "--no-cache")
    assert findings(reference[1]) == findings(out)
    rules = {f["rule"] for f in findings(out)}
    assert {"correct-count", "near-duplicate-stem"} <= rules
    return root, cache, reference


def _entry(folder: Path, name: str) -> Path:
    """The entry of one bank file (``b.yaml`` has a correct-count finding)."""
    for path in folder.glob("??/*.json"):
        if json.loads(path.read_text().partition("\n")[0])["path"].endswith(name):
            return path
    raise AssertionError(name)


def _edit_head(change):
    def damage(folder: Path) -> None:
        path = _entry(folder, "b.yaml")
        head, _, rest = path.read_text().partition("\n")
        doc = json.loads(head)
        change(doc)
        path.write_text(json.dumps(doc) + "\n" + rest)
    return damage


def _edit_line(number: int, change):
    """Edit line ``number`` of b.yaml's entry; the bank findings are dropped, so the questions are decoded."""
    def damage(folder: Path) -> None:
        shutil.rmtree(folder / "bank")
        path = _entry(folder, "b.yaml")
        lines = path.read_text().split("\n")
        doc = json.loads(lines[number])
        change(doc)
        lines[number] = json.dumps(doc)
        path.write_text("\n".join(lines))
    return damage


def _set(*keys_and_value):
    *keys, value = keys_and_value

    def change(doc):
        for key in keys[:-1]:
            doc = doc[key]
        doc[keys[-1]] = value
    return change


def _bank_rows(change):
    def damage(folder: Path) -> None:
        (path,) = folder.glob("bank/*.json")
        doc = json.loads(path.read_text())
        change(doc)
        path.write_text(json.dumps(doc))
    return damage


def _write(name: str, text: str):
    def damage(folder: Path) -> None:
        for path in folder.glob(name):
            path.write_text(text)
    return damage


def _head_text(text: str):
    def damage(folder: Path) -> None:
        path = _entry(folder, "b.yaml")
        path.write_text(text + "\n" + path.read_text().partition("\n")[2])
    return damage


def _row(index: int, value):
    return _edit_head(lambda doc: doc["findings"]["rows"][0].__setitem__(index, value))


DAMAGE = {
    # issue 9: valid JSON with a bad index, a string line number, deep nesting
    "path-index-out-of-range": _row(0, 99),
    "kind-index-out-of-range": _row(3, 7),
    "path-index-negative": _row(0, -1),
    "string-line": _row(1, "3"),
    "bool-line": _row(1, True),
    "float-line": _row(1, 2.5),
    "zero-line": _row(1, 0),
    "message-not-text": _row(5, ["x"]),
    "question-index-past-its-table": _row(6, 99),
    "field-index-below-none": _row(7, -2),
    "bool-path-index": _row(0, True),
    "end-line-without-end-column": _row(8, 3),
    "question-count-a-string": _edit_head(_set("questions", "1")),
    "head-deeply-nested": _head_text(DEEP),
    "columns-short": _edit_line(1, lambda cols: cols["id"].clear()),
    "columns-positions-not-numbers": _edit_line(1, lambda cols: cols["positions"].__setitem__(0, {"stem": "x"})),
    "features-short-column": _edit_line(2, lambda f: f["near-duplicate-stem"]["encoded"][0].clear()),
    "bank-index-out-of-range": _bank_rows(lambda doc: doc["rows"][0].__setitem__(3, 50)),
    "bank-deeply-nested": _write("bank/*.json", DEEP),
    "signatures-deeply-nested": _write("signatures.json", DEEP),
}


# damage the code before these checks already treated as a miss: kept so that the shape checks keep covering them
ALREADY_MISSES = {
    "unknown-severity": _row(4, 99),
    "short-row": _edit_head(lambda doc: doc["findings"]["rows"][0].pop()),
    "kinds-not-pairs": _edit_head(_set("findings", "kinds", [["Q1"]])),
    "suppressions-not-records": _edit_head(_set("suppressions", [{"line": "x"}])),
    "head-a-list": _head_text("[1, 2, 3]"),
    "columns-line-a-string": _edit_line(1, lambda cols: cols["line"].__setitem__(0, "4")),
    "columns-keys-not-numbers": _edit_line(1, lambda cols: cols["keys"].__setitem__(0, ["a"])),
    "columns-deeply-nested": _edit_line(1, lambda cols: cols.__setitem__("tags", json.loads("[" * 900 + "]" * 900))),
    "features-sizes-disagree": _edit_line(2, lambda f: f["near-duplicate-stem"]["encoded"][4].__setitem__(0, 10**9)),
    "features-bad-base64": _edit_line(2, lambda f: f["near-duplicate-stem"]["encoded"].__setitem__(5, "%%%")),
    "features-not-a-table": _edit_line(2, lambda f: f.__setitem__("near-duplicate-stem", [1])),
    "bank-string-line": _bank_rows(lambda doc: doc["rows"][0].__setitem__(1, "2")),
    "signatures-short-entries": _write("signatures.json", '{"started": 1, "files": {"a.yaml": [1]}}'),
    "signatures-digest-a-list": _write("signatures.json",
                                      '{"started": 99999999999999999999, "files": {"a.yaml": [1,2,3,4,5,[6]]}}'),
}


@pytest.mark.parametrize("name", list(DAMAGE) + list(ALREADY_MISSES))
def test_a_damaged_entry_is_a_miss_and_recomputed(name, warm, tmp_path):
    root, cache, reference = warm
    mine = tmp_path / "cache"
    shutil.copytree(cache, mine)
    (folder,) = [p for p in mine.iterdir() if p.is_dir()]
    {**DAMAGE, **ALREADY_MISSES}[name](folder)
    code, out, err = check(root, env={"QLINT_CACHE_DIR": str(mine)})
    assert (code, findings(out)) == (reference[0], findings(reference[1])), err


def _memo_footer(change):
    """A kept near-duplicate search whose JSON footer is edited; its arrays stay as written."""
    def damage(path: Path) -> None:
        data = path.read_bytes()
        size = int.from_bytes(data[-8:], "little")
        meta = json.loads(data[len(data) - 8 - size:len(data) - 8])
        footer = change(meta).encode()
        path.write_bytes(data[:len(data) - 8 - size] + footer + len(footer).to_bytes(8, "little"))
    return damage


def _nan_scores(path: Path) -> None:
    data = bytearray(path.read_bytes())
    size = int.from_bytes(data[-8:], "little")
    meta = json.loads(bytes(data[len(data) - 8 - size:len(data) - 8]))
    offset, _, shape = meta["arrays"]["scores"]
    assert shape[0] >= 1
    data[offset:offset + 8] = np.array([np.nan]).tobytes()
    path.write_bytes(bytes(data))


def _postings_file(memo: Path) -> Path:
    return FileStore(memo).beside("postings").path


def _fifo(path: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("needs named pipes")
    path.unlink()
    os.mkfifo(path)


def _token(memo: Path) -> str:
    data = memo.read_bytes()
    size = int.from_bytes(data[-8:], "little")
    return json.loads(data[len(data) - 8 - size:len(data) - 8])["token"]


def _shape(name: str, shape):
    def change(meta):
        meta["arrays"][name][2] = shape
        return json.dumps(meta)
    return _memo_footer(change)


MEMO_DAMAGE = {
    "footer-deeply-nested": _memo_footer(lambda meta: DEEP),
    "footer-infinite-bits": _memo_footer(lambda meta: json.dumps({**meta, "bits": float("inf")})),
    "huge-shape": _shape("sig", [10 ** 30]),
    "huge-postings-count": _memo_footer(lambda meta: json.dumps({**meta, "postings": 10 ** 30})),
    "token-not-hex": _memo_footer(lambda meta: json.dumps({**meta, "token": "not hex"})),
    "postings-of-another-run": lambda path: _postings_file(path).write_bytes(
        _postings_file(path).read_bytes().replace(bytes.fromhex(_token(path)), b"\0" * 16, 1)),
    "postings-cut-short": lambda path: _postings_file(path).write_bytes(_postings_file(path).read_bytes()[:-3]),
    "postings-gone": lambda path: _postings_file(path).unlink(),
    "postings-a-fifo": lambda path: _fifo(_postings_file(path)),   # never read: a read would wait for a writer
    "index-a-fifo": lambda path: _fifo(path),
    "nan-scores": _nan_scores,
    # already a full search before the shape checks; kept so they keep covering them
    "footer-a-list": _memo_footer(lambda meta: "[1, 2]"),
    "negative-shape-reads-everything": _shape("scores", [-1]),
    "footer-length-beyond-the-file": lambda path: path.write_bytes(path.read_bytes()[:-8] + (2**62).to_bytes(8, "little")),
}


@pytest.mark.parametrize("name", list(MEMO_DAMAGE))
def test_a_damaged_near_duplicate_memo_means_a_full_search(name, tmp_path):
    """README: "a damaged or foreign file means a full search"."""
    from qlint.neardup import index as ndindex
    from qlint.neardup.stemkey import stem_key

    stems = ["Which optimizer state must a checkpoint keep so that Adam resumes exactly?",
             "Which optimizer state must a checkpoint keep so that Adam resumes exactly where it stopped?",
             "Which collective does DistributedDataParallel use to average gradients across ranks?"]
    keys = [stem_key(s) for s in stems]
    memo = tmp_path / "near.memo"
    fresh = ndindex.search(keys, 90.0, store=FileStore(memo))
    assert fresh and memo.is_file()
    MEMO_DAMAGE[name](memo)
    assert ndindex._load(FileStore(memo), {"threshold": 90.0, "min_chars": 12, "min_overlap": 0.75, "ignore_variants": True,
                                "max_df": 60, "min_shared": 2}) is None
    assert ndindex.search(keys, 90.0, store=FileStore(memo)) == fresh


# --- hostile configuration: bounded numbers, malformed files are exit 2 naming the file and line ------------------

def _config_bank(tmp_path: Path) -> Path:
    root = make_bank(tmp_path / "proj")
    return root


@pytest.mark.parametrize("text, needle", [
    ("# limits\nmax-alias-expansion = 1000000000000\n", "qlint.toml:2: max-alias-expansion"),
    ("max-file-size = 10737418240\n", "qlint.toml:1: max-file-size"),
    ("max-file-size = true\n", "qlint.toml:1: max-file-size"),   # not a size of 1 byte
    ("# house limits\n[rules.option-length]\nkey-ratio = 1e300\n", "qlint.toml:2: [rules.option-length]: key-ratio"),
    ("[rules.answer-position-bias]\nmax-run = 1000000000000000\n", "max-run"),
    ("[rules.reading-grade]\nmax-grade = inf\n", "max-grade"),
    ("[rules.reading-level]\nmax-sentence-words = 1e400\n", "max-sentence-words"),
])
def test_numbers_in_the_config_are_bounded(text, needle, tmp_path):
    root = _config_bank(tmp_path)
    (root / "qlint.toml").write_text(text)
    code, _, err = check(root, "--no-cache")
    assert code == 2 and needle in err, err


def test_a_bad_value_in_pyproject_names_the_line_of_its_tool_qlint_key(tmp_path):
    root = _config_bank(tmp_path)
    (root / "pyproject.toml").write_text("[tool.other]\nmax-alias-expansion = 5\n\n[tool.qlint]\n"
                                         "max-alias-expansion = 1000000000000\n")
    code, _, err = check(root, "--no-cache")
    assert code == 2 and "pyproject.toml:5: max-alias-expansion" in err, err


@pytest.mark.parametrize("text, line", [("tool = 5\n", 1), ("# a project\n\ntool = 'qlint'\n[project]\nname = 'x'\n", 3),
                                        ("tool = ['qlint']\n", 1)])
def test_a_pyproject_whose_tool_is_not_a_table_is_a_configuration_error(text, line, tmp_path):
    """Not a pyproject.toml any tool can read: its settings, if any, must not silently lapse."""
    root = _config_bank(tmp_path)
    (root / "pyproject.toml").write_text(text)
    code, out, err = check(root, "--no-cache")
    assert code == 2 and f"pyproject.toml:{line}: [tool] must be a table" in err, (code, out, err)


@pytest.mark.parametrize("raw, needle", [
    (b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n[tool.qlint]\nselect = ['correct-count']\n", "nested too deeply"),
    ("[tool.qlint]\n# caf\u00e9\nselect = ['correct-count']\n".encode("latin-1"), "pyproject.toml:2: invalid TOML"),
    (b"[tool.qlint]\nselect = ['correct-count'\n", "pyproject.toml:3: invalid TOML"),
])
def test_a_pyproject_that_cannot_be_read_is_refused_not_ignored(raw, needle, tmp_path):
    """It may hold [tool.qlint]: silently skipping it would drop its settings without a word."""
    root = _config_bank(tmp_path)
    (root / "pyproject.toml").write_bytes(raw)
    code, out, err = check(root, "--no-cache")
    assert code == 2 and needle in err and str(root / "pyproject.toml") in err, (code, err)


def test_a_pyproject_whose_tool_is_not_a_table_named_by_config_is_refused(tmp_path):
    root = _config_bank(tmp_path)
    (root / "pyproject.toml").write_text("# a project\ntool = 5\n[project]\nname = 'x'\n")
    code, _, err = check(root, "--no-cache", "--config", "pyproject.toml")
    assert code == 2 and "pyproject.toml:2: [tool] must be a table" in err, err


@pytest.mark.parametrize("message", ["{match:>40000}", "{match!r}", "{match.__class__}", "{0}", "{}", "{match[0]}",
                                     "{suggestion:{match}}", "{other}", "unclosed {match"])
def test_a_pack_message_fills_in_only_match_and_suggestion(message, tmp_path):
    root = _config_bank(tmp_path)
    (root / "qlint.toml").write_text("rule-packs = ['house.yaml']\n")
    (root / "house.yaml").write_text(house_pack(message))
    code, out, err = check(root, "--no-cache")
    assert code == 2 and "house.yaml" in err and "message" in err, (code, out[-500:], err)


def test_a_plain_pack_message_still_works(tmp_path):
    root = _config_bank(tmp_path)
    (root / "qlint.toml").write_text("rule-packs = ['house.yaml']\n")
    (root / "house.yaml").write_text(house_pack("say {{match}} plainly: {match}"))
    code, out, _ = check(root, "--no-cache")
    assert code == 1 and any(f["message"] == "say {match} plainly: loss" for f in findings(out))


# --- the repository cannot steer where the cache writes ---------------------------------------------------------

def _repo(tmp_path: Path, config: str = "") -> tuple[Path, Path]:
    root = make_bank(tmp_path / "repo")
    (root / "qlint.toml").write_text(config)
    outside = tmp_path / "outside"
    outside.mkdir()
    return root, outside


@pytest.mark.parametrize("config, needle", [
    ("cache-dir = '../outside'\n", "cache-dir '../outside' must be a folder below"),
    ("cache-dir = '/tmp'\n", "must be a folder below"),
    ("cache-dir = '.'\n", "must be a folder below"),
    ("cache-dir = 'link'\n", "must be a folder below"),
    ("paths = ['bank']\ncache-dir = 'bank'\n", "qlint.toml:2: cache-dir 'bank' overlaps the bank path 'bank'"),
    ("paths = ['bank/topic']\ncache-dir = 'bank'\n", "overlaps"),
    ("paths = ['bank']\ncache-dir = 'bank/.cache'\n", "overlaps"),
])
def test_a_config_cannot_put_the_cache_outside_its_tree_or_in_the_bank(config, needle, tmp_path):
    root, outside = _repo(tmp_path, config)
    (root / "bank" / "topic").mkdir()
    (root / "link").symlink_to(outside)
    code, _, err = check(root)
    assert code == 2 and needle in err and "qlint.toml" in err, err
    assert list(outside.iterdir()) == [] and not (root / "bank" / ".gitignore").exists()


def test_a_cache_dir_inside_the_tree_still_works(tmp_path):
    root, _ = _repo(tmp_path, "paths = ['bank']\ncache-dir = 'build/cache'\n")
    code, out, _ = check(root)
    assert code == 1
    (folder,) = [p for p in (root / "build" / "cache").iterdir() if p.is_dir()]
    assert (folder / ".gitignore").read_text().splitlines()[-1] == "*"
    assert check(root)[:2] == (code, out)


def test_a_committed_cache_symlink_is_not_followed(tmp_path):
    """A checkout's .qlint_cache that links elsewhere: the run goes on without the cache and says so once."""
    root, outside = _repo(tmp_path)
    (root / ".qlint_cache").symlink_to(outside)
    code, out, err = check(root)
    assert code == 1 and "correct-count" in {f["rule"] for f in findings(out)}
    assert list(outside.iterdir()) == []
    assert err.count("not using the cache") == 1 and ".qlint_cache" in err, err


def test_clean_does_not_follow_a_committed_cache_symlink(tmp_path):
    root, outside = _repo(tmp_path)
    victim = outside / ("v11-" + "0" * 32)
    victim.mkdir()
    (outside / ".gitignore").write_text("# Created by qlint: never commit this folder.\n*\n")
    (root / ".qlint_cache").symlink_to(outside)
    code, out, _ = check(root, cmd="clean")
    assert code == 0 and victim.is_dir() and (outside / ".gitignore").exists(), out


def test_a_planted_marker_symlink_in_a_committed_cache_folder_is_not_written_through(tmp_path):
    root, outside = _repo(tmp_path)
    (root / ".qlint_cache").mkdir()
    (root / ".qlint_cache" / ".gitignore").symlink_to(outside / "victim")
    (root / ".qlint_cache" / "CACHEDIR.TAG").symlink_to(outside / "tag")
    code, _, _ = check(root)
    assert code == 1 and list(outside.iterdir()) == []


def test_a_folder_qlint_did_not_make_gets_no_gitignore_over_its_files(tmp_path):
    """The cache's `*` .gitignore goes only into a folder qlint made: in any other it would hide that folder's
    files from git. The entry folder carries its own, so the cache stays out of git either way."""
    root, _ = _repo(tmp_path)
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "notes.txt").write_text("mine")
    code, _, _ = check(root, env={"QLINT_CACHE_DIR": str(shared)})
    assert code == 1 and not (shared / ".gitignore").exists()
    (folder,) = [p for p in shared.iterdir() if p.is_dir()]
    assert (folder / ".gitignore").read_text().splitlines()[-1] == "*"


def test_a_secret_of_any_bytes_keys_the_cache(tmp_path):
    root, _ = _repo(tmp_path)
    # bytes that are not UTF-8, spelled as the surrogates os.fsencode turns back into those bytes for the child
    env = {"QLINT_CACHE_DIR": str(tmp_path / "cache"), "QLINT_CACHE_SECRET": os.fsdecode(b"\xff\xfe not utf-8 \xc3")}
    first = check(root, env=env)
    assert first[0] == 1 and list((tmp_path / "cache").rglob("??/*.json"))
    assert check(root, env=env) == first


DOTTED = "a" + ".a" * 50_000 + " = 1\n"


@pytest.mark.parametrize("text", [
    DOTTED,                                               # the parser's cost grew with the square of the key's parts
    ".".join(["'x'"] * 20_000) + " = 1\n",                  # quoted parts
    "x = {" + ".".join(["b"] * 50_000) + " = 1}\n",         # inside an inline table
    "a = " + "[" * 500 + "]" * 500 + "\n",                 # nested as deep as the parser goes
])
@pytest.mark.parametrize("where", ["qlint.toml", "--config"])
def test_a_config_nested_or_dotted_too_deeply_is_refused_quickly(text, where, tmp_path):
    """A 50,000-part dotted key took the TOML parser 20 s and 4 GB before a MemoryError (an internal error), and a
    deeply nested --config value a RecursionError: each is a configuration error naming where, in a second."""
    (tmp_path / "a.yaml").write_text(BANK["a.yaml"] if "a.yaml" in BANK else "id: a\n", encoding="utf-8")
    args = ["check", "a.yaml"]
    if where == "qlint.toml":
        (tmp_path / "qlint.toml").write_text(text, encoding="utf-8")
    else:
        args += ["--config", text.strip()]
    code, out, err, seconds = run_qlint(args, tmp_path, timeout=60)
    assert code == 2 and "internal error" not in err and "Traceback" not in err, err[-500:]
    assert ("qlint.toml" in err) if where == "qlint.toml" else ("--config" in err)
    assert seconds < 20
