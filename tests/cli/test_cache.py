"""The content-hash cache: warm runs equal cold ones, edits are seen, damage and concurrency are harmless."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from helpers import CACHE_BANK as BANK
from helpers import run_forked



NO_FINDINGS = json.dumps({"paths": [], "kinds": [], "ids": [], "fields": [], "rows": []})   # a stored snapshot


def run(bank: Path, cache: Path, *extra: str, env: dict | None = None) -> tuple[int, list]:
    env = {**os.environ, "QLINT_CACHE_DIR": str(cache), "NO_COLOR": "1", **(env or {})}
    code, out, err = run_forked(["check", str(bank), "--format", "json", *extra], bank, env)
    assert "Traceback" not in err, err
    return code, json.loads(out)["findings"]


def make(tmp_path: Path) -> Path:
    bank = tmp_path / "bank"
    bank.mkdir()
    for name, text in BANK.items():
        (bank / name).write_text(text)
    return bank


def entries(cache: Path) -> list[Path]:
    return sorted(cache.rglob("*.json"))


def test_warm_equals_cold_and_edits_are_seen(tmp_path):
    bank, cache = make(tmp_path), tmp_path / "cache"
    cold = run(bank, cache)
    assert entries(cache) and cold == run(bank, cache)
    assert {f["rule"] for f in cold[1]} >= {"near-duplicate-stem", "correct-count"}
    (bank / "b.yaml").write_text(BANK["b.yaml"].replace("correct: true, rationale: Correct. Also",
                                                        "rationale: Incorrect. Also"))
    code, found = run(bank, cache)
    assert "correct-count" not in {f["rule"] for f in found}
    assert "near-duplicate-stem" in {f["rule"] for f in found}  # cross-file findings recomputed, still right
    assert (code, found) == run(bank, cache, "--no-cache")


def test_a_link_planted_as_the_used_marker_is_never_followed(tmp_path):
    # every run marks its entry folder used; a symlink in the marker's place must not make it touch (or create) a
    # file elsewhere, and the run still uses its cache
    bank, cache = make(tmp_path), tmp_path / "cache"
    cold = run(bank, cache)
    outside = tmp_path / "outside"
    outside.mkdir()
    (marker,) = cache.glob("v*/.last-used")
    marker.unlink()
    marker.symlink_to(outside / "made-by-qlint")
    assert run(bank, cache) == cold
    assert not any(outside.iterdir()) and marker.is_file() and not marker.is_symlink()


def test_an_entry_is_used_only_for_the_file_it_was_made_of(tmp_path):
    # a signatures file edited (by hand, or in a cache restored in CI) to hand one file another file's digest: the
    # entry names its own file, so the run checks the file afresh rather than report the other one's findings
    bank, cache = make(tmp_path), tmp_path / "cache"
    (bank / "b.yaml").write_text(BANK["b.yaml"].replace("rationale:", "rationnale:", 1))
    cold = run(bank, cache)
    (signatures,) = cache.glob("v*/signatures.json")
    doc = json.loads(signatures.read_text())
    doc["started"] += 10 ** 10   # as if the files had settled long before the run that hashed them: trusted
    files = doc["files"]
    (a,) = [k for k in files if k.endswith("a.yaml")]
    (b,) = [k for k in files if k.endswith("b.yaml")]
    files[b][-1] = files[a][-1]
    signatures.write_text(json.dumps(doc))
    for answer in cache.rglob("answers/*"):
        answer.unlink()
    assert run(bank, cache) == cold == run(bank, cache, "--no-cache")
    assert any(f["rule"] == "schema" for f in cold[1])


def test_bank_findings_are_reused_for_the_same_files_only(tmp_path):
    """Nothing changed: the stored bank findings are reused. Any file edited, added, removed or renamed: recomputed."""
    bank, cache = make(tmp_path), tmp_path / "cache"
    cold = run(bank, cache)
    snapshots = sorted(cache.rglob("bank/*.json"))
    assert len(snapshots) == 1 and "near-duplicate-stem" in {f["rule"] for f in cold[1]}
    snapshots[0].write_text(NO_FINDINGS)   # proves the next run reads it rather than searching again
    for answer in cache.rglob("answers/*"):   # (and does not give the first run's report again)
        answer.unlink()
    assert "near-duplicate-stem" not in {f["rule"] for f in run(bank, cache)[1]}
    changes = [
        lambda: (bank / "c.yaml").write_text(BANK["a.yaml"].replace("a-1", "c-1")),            # added
        lambda: (bank / "c.yaml").rename(bank / "d.yaml"),                                       # renamed
        lambda: (bank / "a.yaml").write_text(BANK["a.yaml"].replace("float", "number")),        # edited
        lambda: (bank / "d.yaml").unlink(),                                                      # removed
    ]
    for change in changes:   # every step reaches a set of files not seen before, whose findings must be fresh
        for snapshot in cache.rglob("bank/*.json"):
            snapshot.write_text(NO_FINDINGS)
        change()
        assert run(bank, cache) == run(bank, cache, "--no-cache")
    for snapshot in cache.rglob("bank/*.json"):
        snapshot.write_text("{damaged")
    assert run(bank, cache) == run(bank, cache, "--no-cache")


def test_damaged_entries_are_recomputed(tmp_path):
    bank, cache = make(tmp_path), tmp_path / "cache"
    cold = run(bank, cache)
    for entry in entries(cache):
        entry.write_text("{not json")
    assert run(bank, cache) == cold
    for entry in entries(cache):
        entry.write_text(json.dumps({"path": "x", "findings": [], "items": [], "suppressions": [], "extra": 1}))
    # an entry that parses but is not one this file wrote (another path, an unknown field) is not trusted either
    assert run(bank, cache) == cold


def test_unwritable_cache_folder_just_runs_without(tmp_path):
    bank = make(tmp_path)
    blocker = tmp_path / "file-not-folder"
    blocker.write_text("")
    assert run(bank, blocker / "cache")[0] == 1


def test_two_concurrent_runs_agree(tmp_path):
    bank, cache = make(tmp_path), tmp_path / "cache"
    env = {**os.environ, "QLINT_CACHE_DIR": str(cache)}
    cmd = [sys.executable, "-m", "qlint", "check", str(bank), "--format", "json"]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, env=env, text=True, cwd=bank) for _ in range(4)]
    outputs = {p.communicate()[0] for p in procs}
    assert len(outputs) == 1
    assert run(bank, cache)[1] == json.loads(outputs.pop())["findings"]


def test_cache_defaults_to_dot_qlint_cache_in_the_project_root(tmp_path):
    """Like ruff's .ruff_cache: beside the config file, git-ignored by a .gitignore of its own."""
    bank = make(tmp_path)
    (tmp_path / "qlint.toml").write_text("")
    env = {k: v for k, v in os.environ.items() if k != "QLINT_CACHE_DIR"}
    subprocess.run([sys.executable, "-m", "qlint", "check", str(bank)], env=env, capture_output=True, cwd=bank)
    assert sorted(p.name for p in bank.iterdir()) == ["a.yaml", "b.yaml"]
    folder = tmp_path / ".qlint_cache"
    assert entries(folder)
    assert (folder / ".gitignore").read_text().splitlines()[-1] == "*"
    assert (folder / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")


def test_entries_planted_in_a_repository_never_open_the_gate(tmp_path):
    """A pull request could commit a cache entry that says a flawed file is clean. The cache folder's name is
    keyed with a per-user secret kept outside the repository, so on any other machine (CI) it is never read."""
    bank, cache = make(tmp_path), tmp_path / "cache"
    author = {"XDG_CACHE_HOME": str(tmp_path / "author-home")}
    code, findings = run(bank, cache, env=author)
    assert code == 1 and "correct-count" in {f["rule"] for f in findings}   # b.yaml has two keys
    for entry in entries(cache):   # the planted lie: every file checked clean
        head, newline, features = entry.read_text().partition("\n")
        doc = json.loads(head)
        if isinstance(doc, dict) and "findings" in doc:
            doc["findings"] = json.loads(NO_FINDINGS)
        entry.write_text(json.dumps(doc) + newline + features)
    for index in cache.rglob("runs/*.txt"):   # the run index holds the same outcomes: the entries are read without it
        index.unlink()
    for answer in cache.rglob("answers/*"):   # and the kept report is the first run's
        answer.unlink()
    planted = run(bank, cache, env=author)[1]   # the author's own machine trusts its own cache ...
    assert "correct-count" not in {f["rule"] for f in planted}
    ci = {"XDG_CACHE_HOME": str(tmp_path / "ci-home")}   # ... no other machine does
    assert run(bank, cache, env=ci) == (code, findings)
    shared = {"QLINT_CACHE_SECRET": "from-the-ci-secret-store"}   # a restored cache is reused with a shared secret
    assert run(bank, cache, env=shared) == (code, findings)
    assert run(bank, cache, env=shared) == (code, findings)


def test_old_keys_are_pruned_and_clean_removes_only_what_qlint_made(tmp_path):
    """Every upgrade or setting change starts a new key; only the last few keys' folders are kept. `qlint clean`
    deletes the cache, and neither ever touches a name qlint did not make (cache-dir may point anywhere)."""
    bank, cache = make(tmp_path), tmp_path / "cache"
    cache.mkdir()
    (cache / "vendor").mkdir()
    (cache / "notes.txt").write_text("mine")
    for age in range(6):
        old = cache / f"v7-{age:032x}"
        (old / "ab").mkdir(parents=True)
        (old / ".last-used").touch()
        os.utime(old / ".last-used", (1_000_000 + age, 1_000_000 + age))
    run(bank, cache)
    kept = sorted(p.name for p in cache.iterdir() if p.name.startswith("v7-"))
    assert kept == [f"v7-{age:032x}" for age in (3, 4, 5)]   # the three most recently used, and the new key
    assert len([p for p in cache.iterdir() if p.name.startswith("v")]) == 5   # + vendor
    env = {**os.environ, "QLINT_CACHE_DIR": str(cache)}
    proc = subprocess.run([sys.executable, "-m", "qlint", "clean"], capture_output=True, text=True, env=env, cwd=bank)
    assert proc.returncode == 0 and "removed 4 cache folders" in proc.stdout
    assert sorted(p.name for p in cache.iterdir()) == ["notes.txt", "vendor"]
    assert (cache / "notes.txt").read_text() == "mine"


def test_unchanged_stat_signatures_skip_hashing_yet_every_edit_is_seen(tmp_path):
    """A file hashed by an earlier run and not touched since is not read again; an edit that keeps the size and
    puts the mtime back still changes the ctime, so it is seen."""
    bank, cache = make(tmp_path), tmp_path / "cache"
    cold = run(bank, cache)
    [signatures] = cache.rglob("signatures.json")
    real = json.loads(signatures.read_text())
    assert set(real["files"]) == {"a.yaml", "b.yaml"}

    def plant(doc: dict) -> None:   # as if the files had settled long before the run that hashed them
        signatures.write_text(json.dumps({**doc, "started": doc["started"] + 10 ** 10}))

    # a trusted signature is used as is, the file not read: pointed at an entry of a.yaml planted under a digest of
    # its own, holding b.yaml's findings (its two keys) as a.yaml's, the run reports them for a.yaml
    def entry(digest: str) -> Path:
        return signatures.parent / digest[:2] / f"{digest}.json"

    head, rest = entry(real["files"]["a.yaml"][5]).read_text().split("\n", 1)
    findings = json.loads(entry(real["files"]["b.yaml"][5]).read_text().split("\n", 1)[0])["findings"]
    planted = "0" * len(real["files"]["a.yaml"][5])
    entry(planted).parent.mkdir(exist_ok=True)
    entry(planted).write_text(json.dumps({**json.loads(head), "findings": {**findings, "paths": ["a.yaml"]}})
                              + "\n" + rest)
    swapped = json.loads(json.dumps(real))
    swapped["files"]["a.yaml"][5] = planted
    plant(swapped)
    keys = [f["path"] for f in run(bank, cache)[1] if f["rule"] == "correct-count"]
    assert keys == ["a.yaml", "b.yaml"] != [f["path"] for f in cold[1] if f["rule"] == "correct-count"]
    plant(real)
    assert run(bank, cache) == cold
    before = os.stat(bank / "b.yaml")
    old = "correct: true, rationale: Correct. Also"
    (bank / "b.yaml").write_text(BANK["b.yaml"].replace(old, "rationale: Incorrect. Also".ljust(len(old))))
    os.utime(bank / "b.yaml", ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(bank / "b.yaml").st_size == before.st_size
    plant(real)
    found = run(bank, cache)
    assert "correct-count" not in {f["rule"] for f in found[1]}
    assert found == run(bank, cache, "--no-cache")


def test_warm_runs_keep_suppressions_and_ignore_fields(tmp_path):
    """A warm run reads a file's questions only when its suppressions or ignore fields need them: both still work,
    and the question count in the summary stays right."""
    bank, cache = make(tmp_path), tmp_path / "cache"
    (bank / "c.yaml").write_text(
        "id: c-1\nstem: Which call moves a tensor to the GPU?\nqlint:\n  ignore:\n    missing-rationale: legacy\n"
        "options:\n  - {text: x.cuda(), correct: true}\n  - {text: x.cpu(), rationale: Incorrect. Host memory.}\n")
    (bank / "d.yaml").write_text(
        "id: d-1\nstem: Which call frees cached GPU memory blocks?\noptions:\n"
        "  - {text: torch.cuda.empty_cache(), correct: true}  # qlint: ignore[missing-rationale] pending review\n"
        "  - {text: gc.collect(), rationale: Incorrect. It collects Python objects.}\n")
    env = {**os.environ, "QLINT_CACHE_DIR": str(cache), "NO_COLOR": "1"}

    def summary(*extra: str) -> dict:
        proc = subprocess.run([sys.executable, "-m", "qlint", "check", str(bank), "--format", "json", *extra],
                              capture_output=True, text=True, env=env, cwd=bank)
        return json.loads(proc.stdout)

    cold = summary()
    about = {f["rule"] for f in cold["findings"] if f["path"] in ("c.yaml", "d.yaml")}
    assert not about & {"missing-rationale", "unused-suppression", "invalid-suppression"}   # suppressed, and used
    warm = summary()
    assert warm == cold == summary("--no-cache")
    assert warm["summary"]["questions"] == 4


def test_near_duplicate_search_is_kept_between_runs_and_stays_exact(tmp_path):
    """The search kept in the cache gives what a fresh search gives after files are edited, added and removed,
    and a damaged one is simply searched afresh."""
    bank, cache = make(tmp_path), tmp_path / "cache"
    stems = ["Which optimizer state must a checkpoint keep so that Adam resumes exactly?",
             "Which collective does DistributedDataParallel use to average gradients across ranks?",
             "Why does appending the loss tensor to a list every step make GPU memory grow?"]
    for i, stem in enumerate(stems):
        (bank / f"s{i}.yaml").write_text(BANK["a.yaml"].replace("a-1", f"s-{i}").replace(
            "Which call returns a Python float from a one-element loss tensor?", stem))
    run(bank, cache)
    memos = sorted(cache.rglob("memo/near-duplicate-stem.memo"))
    assert len(memos) == 1
    changes = [
        lambda: (bank / "t.yaml").write_text((bank / "s0.yaml").read_text().replace("s-0", "t-0").replace(
            "resumes exactly", "resumes exactly where it stopped")),                                  # a new twin
        lambda: (bank / "s1.yaml").write_text((bank / "s2.yaml").read_text().replace("s-2", "s-1")),  # an edit
        lambda: (bank / "s2.yaml").unlink(),                                                          # a removal
        lambda: memos[0].write_bytes(b"damaged"),
    ]
    for change in changes:
        change()
        warm = run(bank, cache)
        assert warm == run(bank, cache, "--no-cache")
        assert "near-duplicate-stem" in {f["rule"] for f in warm[1]}


def test_a_first_run_hashes_files_as_it_checks_them_and_records_what_a_hashing_pass_would(tmp_path):
    """An empty cache can hit nothing, so the first run skips the hashing pass; it still leaves every file's digest
    and stat signature, and the bank findings, for the next run."""
    bank, cache = make(tmp_path), tmp_path / "cache"
    cold = run(bank, cache)
    (folder,) = [p for p in cache.iterdir() if p.is_dir()]
    signatures = json.loads((folder / "signatures.json").read_text())["files"]
    assert sorted(signatures) == sorted(BANK)
    digests = {display: entry[5] for display, entry in signatures.items()}
    assert all((folder / d[:2] / f"{d}.json").is_file() for d in digests.values())
    assert len(list(folder.glob("bank/*.json"))) == 1
    assert run(bank, cache) == cold


def test_what_the_cache_keeps_of_a_bank_is_readable_by_its_owner_alone(tmp_path):
    # entries, run index, bank findings, kept reports and rule memos hold the bank's text (an unreleased exam, say):
    # 0600 whatever the umask; only the markers (.gitignore, CACHEDIR.TAG, an entry folder's empty .last-used), which
    # hold none, are readable by others
    import stat

    bank, cache = make(tmp_path), tmp_path / "cache"
    old = os.umask(0o022)
    try:
        run(bank, cache)
        (bank / sorted(BANK)[0]).write_text(BANK[sorted(BANK)[0]].replace("stem: ", "stem: Edited. ", 1))
        run(bank, cache)
        run(bank, cache)
    finally:
        os.umask(old)
    files = [p for p in cache.rglob("*") if p.is_file() and p.name not in (".gitignore", "CACHEDIR.TAG", ".last-used")]
    assert len(files) > len(BANK)
    assert {p.relative_to(cache).as_posix(): stat.S_IMODE(p.stat().st_mode) for p in files
            if stat.S_IMODE(p.stat().st_mode) != 0o600} == {}
