"""qlint report / qlint stats: the numbers equal check's JSON, the page is self-contained, and it renders."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from helpers import ROOT, report_bank


@pytest.fixture
def bank(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    report_bank(tmp_path)
    return "bank"


def _json(run_cli, *args) -> dict:
    code, out, err = run_cli(*args)
    assert code == 0, err   # the bank's findings are warnings and infos: the default fail-on (error) passes
    return json.loads(out)


def test_summary_numbers_equal_check_json(run_cli, bank):
    extra = ()
    check = _json(run_cli, "check", bank, "--format", "json", *extra)
    stats = _json(run_cli, "stats", bank, "--format", "json", *extra)
    assert check["findings"], "the test bank must produce findings"
    for key in ("files", "questions", "findings", "error", "warning", "info"):
        assert stats["totals"][key] == check["summary"][key], key

    per_rule = Counter(f["rule"] for f in check["findings"])
    assert {r["name"]: r["findings"] for r in stats["by_rule"] if r["findings"]} == dict(per_rule)
    assert sum(r["findings"] for r in stats["by_rule"]) == len(check["findings"])
    per_folder = Counter(f["path"].rsplit("/", 1)[0] for f in check["findings"])
    assert {r["folder"]: r["findings"] for r in stats["by_folder"] if r["findings"]} == dict(per_folder)
    assert sum(r["questions"] for r in stats["by_folder"]) == check["summary"]["questions"]

    # key positions: the verdict agrees with the rule, and the counts cover every single-key question
    bias = [f for f in check["findings"] if f["rule"] == "answer-position-bias"]
    assert bias and stats["key_positions"]["verdict"] == "biased"
    assert stats["key_positions"]["findings"] == bias
    four = next(g for g in stats["key_positions"]["groups"] if g["options"] == 4)
    assert four["tested"] and four["biased"]
    assert f"chi-square {four['statistic']:.1f}" in bias[0]["message"]
    assert ", ".join(f"{'ABCD'[i]} {c}" for i, c in enumerate(four["counts"])) in bias[0]["message"]

    # reading level, option length, near-duplicates: the same counts check reports
    reading = stats["reading"]
    assert reading["findings"] == per_rule["reading-level"] >= 1
    assert reading["findings"] == reading["long_sentences"] + reading["long_stems"] + reading["long_options"]
    # the sentence-length distribution is cut where the rule is: at its limit and where its tolerance ends
    assert reading["reported"]["max_sentence_words"] == 40 and [b["words"] for b in reading["sentence_bins"]] == [
        "0-9", "10-19", "20-29", "30-35", "36-40", "41+"]
    assert sum(b["stems"] for b in reading["sentence_bins"][-1:]) == reading["long_sentences"]
    assert reading["grade_findings"] == per_rule["reading-grade"] == reading["above_target"] == reading["graded"] == 1
    assert stats["lengths"]["findings"] == per_rule["option-length"] >= 1
    assert stats["lengths"]["bias_findings"] == [f for f in check["findings"] if f["rule"] == "key-length-bias"]
    near = stats["near_duplicates"]
    assert near["findings"] == per_rule["near-duplicate-stem"] == near["questions_in_clusters"] == 5
    assert sorted(c["size"] for c in near["clusters"]) == [2, 3]
    flagged = {(f["path"], f["question"]) for f in check["findings"] if f["rule"] == "near-duplicate-stem"}
    assert {(m["path"], m["id"]) for c in near["clusters"] for m in c["members"]} == flagged

    # coverage adds up
    cov = stats["coverage"]
    total = check["summary"]["questions"]
    assert sum(o["questions"] for o in cov["objectives"]) + cov["no_objective"] == total
    assert sum(d["questions"] for d in cov["difficulty"]) + cov["no_difficulty"] == total


def test_summary_follows_select_and_suppressions(run_cli, bank, tmp_path):
    path = tmp_path / "bank" / "alpha" / "questions.yaml"
    text = path.read_text()
    path.write_text(text.replace("  - id: dup-a1\n",
                                 "  - id: dup-a1\n    qlint: {ignore: {near-duplicate-stem: kept on purpose}}\n"))
    check = _json(run_cli, "check", bank, "--format", "json", "--ignore", "reading-level,reading-grade")
    stats = _json(run_cli, "stats", bank, "--format", "json", "--ignore", "reading-level,reading-grade")
    assert stats["totals"]["findings"] == check["summary"]["findings"]
    assert not stats["reading"]["rule_active"] and stats["reading"]["findings"] == 0
    assert not stats["reading"]["grade_active"] and stats["reading"]["graded"] == 0
    near = stats["near_duplicates"]
    assert near["findings"] == sum(f["rule"] == "near-duplicate-stem" for f in check["findings"]) == 4
    members = {m["id"]: m["flagged"] for c in near["clusters"] for m in c["members"]}
    assert members["dup-a1"] is False and members["dup-a0"] is True


HTTP_REF = re.compile(r"""(?:\bsrc|\bhref|xlink:href)\s*=\s*["']?\s*(?:https?:)?//|url\(\s*["']?\s*(?:https?:)?//|@import""",
                      re.IGNORECASE)


def test_report_html_is_self_contained(run_cli, bank, tmp_path):
    code, out, err = run_cli("report", bank, "--output", "out/report.html")
    assert code == 0, err
    page = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert not HTTP_REF.search(page), HTTP_REF.search(page).group(0)
    assert "<script" not in page.lower() and "<link" not in page.lower()
    assert page.count("<svg") >= 6
    for title in ("Answer-key positions", "Reading level", "Option-length ratio", "Findings by rule and folder",
                  "Coverage", "Near-duplicate clusters"):
        assert f">{title}</h2>" in page, title
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids)), "element ids must be unique across the inline charts"
    check = _json(run_cli, "check", bank, "--format", "json")
    assert f"<b>{check['summary']['findings']}</b><span>findings</span>" in page
    assert f"<b>{check['summary']['questions']}</b><span>questions</span>" in page
    # cluster members link to their files relative to the report's folder
    for f in check["findings"]:
        if f["rule"] == "near-duplicate-stem":
            assert f'href="../{f["path"]}"' in page
    assert "Biased" in page


def test_stats_prints_tables(run_cli, bank):
    code, out, err = run_cli("stats", bank, "--width", "140")
    assert code == 0, err
    for title in ("Answer-key positions: biased", "Reading level", "Option-length ratio", "Findings by rule",
                  "Findings by folder", "Coverage by objective", "Coverage by tag", "Coverage by difficulty",
                  "Near-duplicate clusters"):
        assert title in out, title
    assert "near-duplicate-stem" in out and "dup-a0" in out
    assert "\x1b[" not in out


def test_report_on_sample_bank_needs_no_findings(run_cli, tmp_path):
    root = ROOT
    code, out, err = run_cli("report", str(root / "bank"), "-o", str(tmp_path / "r.html"))
    assert code == 0, err
    assert "<svg" in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_report_usage_errors(run_cli, tmp_path):
    code, out, err = run_cli("report", str(tmp_path / "missing"))
    assert code == 2 and "no such file" in err


# -- headless Chromium ----------------------------------------------------------------------------------------


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _png_colours(path: Path) -> tuple[int, int, int]:
    """Width, height and the number of distinct colours of a PNG (decoded by matplotlib, already a dependency)."""
    from matplotlib import image

    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pixels = image.imread(path)
    height, width = pixels.shape[:2]
    rgb = (pixels[..., :3] * 255).astype("uint8").reshape(-1, 3)
    colours = len({tuple(p) for p in rgb[:: 97].tolist()})
    return width, height, colours


def screenshot(page: Path, png: Path, profile: Path, size: str = "1280,2000") -> None:
    """Render ``page`` in headless Chromium to ``png``; offline, no GPU, no sandbox, a throwaway profile."""
    subprocess.run(
        [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
         f"--user-data-dir={profile}", f"--screenshot={png}", f"--window-size={size}", page.resolve().as_uri()],
        check=True, capture_output=True, timeout=120)


@pytest.mark.slow
@pytest.mark.skipif(_chromium() is None, reason="headless Chromium is not installed (apt-get install chromium)")
def test_report_renders_in_headless_chromium(run_cli, bank, tmp_path):
    code, out, err = run_cli("report", bank, "--output", "report.html")
    assert code == 0, err
    png = tmp_path / "shot.png"
    screenshot(tmp_path / "report.html", png, tmp_path / "profile")
    width, height, colours = _png_colours(png)
    assert (width, height) == (1280, 2000)
    assert colours > 50, "the screenshot is blank or nearly so"


def test_report_and_stats_name_the_extra_when_its_libraries_are_missing(run_cli, monkeypatch, tmp_path):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name in ("matplotlib", "rich") else real(name, *a))
    code, _, err = run_cli("report", "bank/", "-o", tmp_path / "r.html", cwd=ROOT)
    assert code == 2 and "qlint[" not in err, err
    assert all(f"'{r}'" in err for r in ("matplotlib>=3.7", "rich>=13", "jinja2>=3.1")), err  # the whole report extra
    code, _, err = run_cli("stats", "bank/")
    assert code == 2 and "rich" in err


def test_report_without_jinja2_names_the_extra_and_is_no_internal_error(run_cli, monkeypatch, tmp_path):
    """An install made with the older hint has matplotlib and rich but not Jinja2: a usage error naming the extra."""
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "jinja2" else real(name, *a))
    code, _, err = run_cli("report", "bank/", "-o", tmp_path / "r.html", cwd=ROOT)
    assert code == 2 and "needs jinja2" in err and "internal error" not in err, err
