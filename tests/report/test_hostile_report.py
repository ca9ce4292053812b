"""Hostile bank text in ``qlint report`` and ``qlint stats``: mathtext, rich markup, terminal escapes and hyperlinks
are printed as the text they are; tables never break a number at any width; the answer-key panel says which test
found what; a coverage chart of all-unique objectives draws no bars of one."""
from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from helpers import ROOT, report_bank

pytest.importorskip("matplotlib")
pytest.importorskip("rich")

ESC = "\x1b"
HOSTILE_TAGS = ["$\\sqrt{$", "[/]", "[bold red]loud", ":smile:", f"{ESC}]8;;http://evil.example/{ESC}\\click{ESC}]8;;{ESC}\\",
                f"{ESC}[2J{ESC}[31mred", "left\u202eright"]


def _yaml_string(text: str) -> str:
    return json.dumps(text)   # a JSON string is a YAML double-quoted scalar


def _hostile_bank(root: Path) -> Path:
    folder = root / "f$x$"
    folder.mkdir()
    tags = ", ".join(_yaml_string(t) for t in HOSTILE_TAGS)
    (folder / "b.yaml").write_text(f"""questions:
  - id: {_yaml_string('q-$' + chr(92) + 'sqrt{$')}
    stem: What does the catalogue say about the price range of the basic model sold this year?
    objective: 'Prices from $5 to $10'
    difficulty: {_yaml_string('$x$[/]')}
    tags: [{tags}]
    options:
      - {{text: '$5', correct: true, rationale: Correct. It says so.}}
      - {{text: '$10', rationale: Incorrect. Too much.}}
      - {{text: '$50', rationale: Incorrect. Too much.}}
""", encoding="utf-8")
    # the same question again: findings (duplicate id, near-duplicate stem) in that folder, every tag twice
    (folder / "c.yaml").write_bytes((folder / "b.yaml").read_bytes())
    return folder


def test_report_draws_mathtext_and_dollars_as_the_text_they_are(tmp_path, run_cli):
    _hostile_bank(tmp_path)
    code, out, err = run_cli("report", ".", "-o", "r.html", cwd=tmp_path)
    assert code == 0 and "internal error" not in err and "Glyph" not in err, err
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", page)   # matplotlib's text nodes (svg.fonttype none)
    assert "Prices from $5 to $10" in texts and "$\\sqrt{$" in texts and "f$x$" in texts, texts
    assert "$x$[/]" in texts, texts
    assert any("\\x1b]8;;http://evil.example/" in t for t in texts) and not any(ESC in t for t in texts)


def _stats(tmp_path: Path, colour: bool, width: int) -> str:
    """``qlint stats`` as a terminal would get it (colour forced on, as on a TTY)."""
    from qlint.report.summary import summarize
    from qlint.report.terminal import render
    from qlint.run.pipeline import run_check

    run = run_check([str(tmp_path)], use_cache=False, keep_questions=True)
    out = io.StringIO()
    render(summarize(run, [str(tmp_path)]), out, colour=colour, width=width)
    return out.getvalue()


@pytest.mark.parametrize("colour", [True, False])
def test_stats_prints_markup_escapes_and_hyperlinks_as_text(colour, tmp_path, run_cli):
    _hostile_bank(tmp_path)
    code, out, err = run_cli("stats", ".", cwd=tmp_path)
    assert code == 0 and "internal error" not in err, err
    printed = _stats(tmp_path, colour, 200)
    for shown in ("[/]", "[bold red]loud", ":smile:", "$\\sqrt{$", "\\x1b]8;;http://evil.example/\\x1b\\click",
                  "\\x1b[2J\\x1b[31mred", "left\\u202eright"):
        assert shown in printed, shown
    # the only escape sequences are the table's own colours (SGR): no hyperlink, no clearing, no cursor movement
    sequences = re.findall(r"\x1b(?:\[[0-9;?]*[A-Za-z]|\][^\x07\x1b]*|.)", printed)
    assert all(re.fullmatch(r"\x1b\[[0-9;]*m", s) for s in sequences), sequences
    assert bool(sequences) == colour   # coloured tables have their colours, plain ones none
    assert "\u202e" not in printed and "\U0001f604" not in printed


def _numbers(summary: dict) -> set[str]:
    """The numbers the stats tables print, as they print them."""
    t = summary["totals"]
    found = {str(t[k]) for k in ("files", "questions", "findings", "error", "warning", "info")}
    found |= {str(r["findings"]) for r in summary["by_rule"] if r["findings"]}
    return found


# the widest line at each width: 24 columns are too few for the narrowest table, which takes 28
@pytest.mark.parametrize(("width", "widest"), [(80, 80), (60, 60), (40, 40), (24, 28)])
def test_stats_tables_never_break_a_number(width, widest, tmp_path, run_cli):
    pytest.importorskip("duckdb")
    from qlint.analysis.simulate import simulate

    sim = simulate(seed=9, items=15)
    (tmp_path / "bank.yaml").write_text(sim.bank_yaml, encoding="utf-8")
    with open(tmp_path / "responses.csv", "w", encoding="utf-8") as handle:
        handle.write("person,item,response\n")
        handle.writelines(sim.long_rows(400, 9))
    code, out, _ = run_cli("stats", "bank.yaml", "--responses", "responses.csv", "--width", width, cwd=tmp_path)
    assert code == 0
    words = set(out.split())
    _, data, _ = run_cli("stats", "bank.yaml", "--responses", "responses.csv", "--format", "json", cwd=tmp_path)
    summary = json.loads(data)
    for row in summary["item_analysis"]:
        assert row["id"] in words and f"{row['p']:.2f}" in words, (row["id"], width)
        for o in row["options"]:
            share = f"{o['option']}:{o['share']:.2f}/{o['rest_pb']:+.2f}" if o["rest_pb"] is not None else None
            assert share is None or share in words, (share, width, out)
    assert _numbers(summary) <= words
    assert max(len(line) for line in out.splitlines()) <= widest


def test_stats_tables_fit_the_width_when_they_can(tmp_path, run_cli):
    report_bank(tmp_path)
    code, out, _ = run_cli("stats", "bank", "--width", "80", cwd=tmp_path)
    assert code == 0
    assert max(len(line) for line in out.splitlines()) <= 80
    assert re.search(r"^ code +rule +severity +findings", out, re.M), out   # still a table at 80


QUIZ = "questions:\n" + "".join(f"""  - id: quiz-{i}
    stem: Quiz question {i} on topic number {i * 11}?
    objective: Objective number {i}
    options:
      - {{text: First choice, correct: true, rationale: Correct. Reason.}}
      - {{text: Second choice, rationale: Incorrect. Reason.}}
      - {{text: Third choice, rationale: Incorrect. Reason.}}
      - {{text: Fourth choice, rationale: Incorrect. Reason.}}
""" for i in range(12))


def test_the_answer_key_panel_names_the_exact_test_that_fired(tmp_path, run_cli):
    """Twelve 4-option questions, every key at A: too few for chi-square, not for the exact test check runs."""
    (tmp_path / "quiz.yaml").write_text(QUIZ, encoding="utf-8")
    code, out, _ = run_cli("check", ".", "--format", "json", cwd=tmp_path)
    (bias,) = [f for f in json.loads(out)["findings"] if f["rule"] == "answer-position-bias"
               and "exact binomial" in f["message"]]
    _, out, _ = run_cli("stats", ".", "--format", "json", cwd=tmp_path)
    keys = json.loads(out)["key_positions"]
    (group,) = keys["groups"]
    assert keys["verdict"] == "biased" and group["tested"] and group["biased"] and group["test"] == "exact binomial"
    assert group["reason"].startswith("biased: exact binomial test, 12 keys at one position")
    assert group["p_value"] == pytest.approx(float(bias["message"].split("p=")[1].rstrip(")")), rel=0.05)
    run_cli("report", ".", "-o", "r.html", cwd=tmp_path)
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    panel = page[page.index('<section id="keys">'):page.index('<section id="reading">')]
    assert "Biased: keys pile up in the 4-option questions (exact binomial test)" in panel
    assert "not tested" not in panel
    _, out, _ = run_cli("stats", ".", "--width", "200", cwd=tmp_path)
    assert "Answer-key positions: biased (4 options, exact binomial" in out


def test_the_panel_tells_runs_from_an_uneven_spread(tmp_path, run_cli):
    """Keys spread evenly over A-D, but in four blocks of eight: runs, not a pile-up."""
    text = "questions:\n" + "".join(f"""  - id: run-{i}
    stem: Run question {i} on topic number {i * 13}?
    options:
""" + "".join(f"      - {{text: Choice {j}, correct: {str(j == i // 8).lower()}, rationale: Reason.}}\n"
              for j in range(4)) for i in range(32))
    (tmp_path / "runs.yaml").write_text(text, encoding="utf-8")
    _, out, _ = run_cli("stats", "runs.yaml", "--format", "json", cwd=tmp_path)
    keys = json.loads(out)["key_positions"]
    assert keys["verdict"] == "runs" and not keys["groups"][0]["biased"] and keys["groups"][0]["runs"], keys
    run_cli("report", "runs.yaml", "-o", "r.html", cwd=tmp_path)
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "Spread evenly, but keys repeat in long runs" in page and "Biased" not in page


def test_the_published_verdict_is_the_one_check_reaches_with_its_shared_alpha(tmp_path):
    """Two option-count groups share alpha: a group whose p is below alpha but above alpha / 2 is not flagged by
    check, and the table must not call it biased either."""
    from qlint.run.pipeline import run_check

    def group(k: int, n: int, keys: list[int], prefix: str) -> str:
        return "".join(f"""  - id: {prefix}-{i}
    stem: {prefix} question {i} about topic number {i * 17 + k}?
    options:
""" + "".join(f"      - {{text: Choice {j}, correct: {str(j == keys[i]).lower()}, rationale: Reason.}}\n"
              for j in range(k)) for i in range(n))

    # 60 three-option questions: 29 / 17 / 14 gives chi-square 6.3, p about 0.043: below 0.05, above 0.025
    three = [0] * 29 + [1] * 17 + [2] * 14
    order = [three[(i * 7) % 60] for i in range(60)]   # interleaved: no runs
    two = [i % 2 for i in range(40)]
    (tmp_path / "b.yaml").write_text("questions:\n" + group(3, 60, order, "t") + group(2, 40, two, "w"))
    (tmp_path / "qlint.toml").write_text("[rules.answer-position-bias]\nalpha = 0.05\n")
    run = run_check([str(tmp_path / "b.yaml")], config_path=str(tmp_path / "qlint.toml"), use_cache=False)
    table, _, _ = run.published("answer-position-bias")
    (three_group,) = [g for g in table["groups"] if g["options"] == 3]
    assert 0.025 < three_group["p_value"] < 0.05 and three_group["alpha"] == pytest.approx(0.025)
    assert three_group["biased"] is False
    assert not [f for f in run.findings if f.rule == "answer-position-bias"]


def test_unique_objectives_draw_no_bars_of_one(tmp_path, run_cli):
    text = QUIZ.replace("correct: true, rationale: Correct", "rationale: Correct")
    text = "questions:\n" + "".join(f"""  - id: u-{i}
    stem: Unique question {i} on topic number {i * 11}?
    objective: Objective number {i}
    tags: [tag-{i}]
    options:
""" + "".join(f"      - {{text: Choice {j}, correct: {str(j == i % 4).lower()}, rationale: Reason.}}\n"
              for j in range(4)) for i in range(30))
    (tmp_path / "u.yaml").write_text(text, encoding="utf-8")
    code, _, err = run_cli("report", "u.yaml", "-o", "r.html", cwd=tmp_path)
    assert code == 0, err
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    chart = page[page.index('id="chart-objectives"'):page.index('id="chart-tags"')]
    assert "Each of the 30 objectives has one question" in chart
    assert "Objective number 7" not in chart   # no bar labels
    assert "Objective number 7" in page        # the table still lists them
    assert "Each of the 30 tags has one question" in page


@pytest.mark.parametrize("width", ["-5", "0", "19", "1001", "wide"])
def test_a_table_width_that_cannot_hold_a_table_is_a_usage_error(width, tmp_path):
    import subprocess
    import sys

    (tmp_path / "quiz.yaml").write_text(QUIZ, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "qlint", "stats", "quiz.yaml", f"--width={width}"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "--width" in done.stderr and not done.stdout, done


MARKUP = '<x-pwn id="pwn" title=\'t\'>&amp; {{ 7*7 }} {% if true %}{# c #}</td></table></x-pwn>'


def test_report_shows_markup_and_template_syntax_in_bank_text_as_the_text_they_are(tmp_path, run_cli):
    """Bank text (ids, stems, options, objectives, tags, difficulty, folder and file names, a blueprint's names, the
    title) that looks like HTML or like template syntax is escaped where the page shows it, and never evaluated."""
    import lxml.html

    folder = tmp_path / "bank" / MARKUP.replace("/", "|")
    folder.mkdir(parents=True)
    text = _yaml_string(MARKUP)
    question = f"""  - id: {_yaml_string('q-' + MARKUP + '{n}')}
    stem: {_yaml_string('Which of these does the team choose for the release ' + MARKUP + ' this year?')}
    objective: {text}
    difficulty: {text}
    tags: [{text}, "x{{n}}"]
    options:
      - {{text: {_yaml_string(MARKUP + ' a key that is much longer than every other option in this question')}, correct: true, rationale: {text}}}
      - {{text: {text}, rationale: Incorrect.}}
      - {{text: "Plain", rationale: Incorrect.}}
      - {{text: "Other", rationale: Incorrect.}}
"""
    (folder / (MARKUP.replace("/", "|") + ".yaml")).write_text(
        "questions:\n" + "".join(question.replace("{n}", str(n)) for n in range(4)), encoding="utf-8")
    (tmp_path / "bank" / "clf.yaml").write_bytes((ROOT / "tests/data/clf-c02/bank.yaml").read_bytes())
    blueprint = (ROOT / "docs/examples/clf-c02-blueprint.yaml").read_text(encoding="utf-8")
    (tmp_path / "blueprint.yaml").write_text(blueprint.replace("name: Cloud Concepts", f"name: {text}"), encoding="utf-8")
    (tmp_path / "qlint.toml").write_text('paths = ["bank"]\nblueprint = "blueprint.yaml"\n', encoding="utf-8")
    code, _, err = run_cli("report", "--select", "ALL", "--title", MARKUP, "-o", "r.html", cwd=tmp_path)
    assert code == 0 and "internal error" not in err, err
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    doc = lxml.html.document_fromstring(page)
    assert not doc.xpath("//x-pwn | //*[@id='pwn']"), "bank text became markup"
    assert "<x-pwn" not in page
    shown = doc.text_content()
    # shown as typed, in the title, the header, tables and finding messages: "&amp;" stays five characters, the
    # template syntax stays unevaluated
    assert shown.count(MARKUP) >= 10, shown.count(MARKUP)
    assert doc.xpath("//title")[0].text_content().startswith(MARKUP)
    # (the text as typed, the folder named after it: a file name holds no slash) in each section
    in_folder = MARKUP.replace("/", "|")
    for section, both in {"reading": (True, False), "lengths": (True, True), "findings": (False, True),
                          "coverage": (True, False), "clusters": (True, True), "blueprint": (True, False)}.items():
        shown = doc.get_element_by_id(section).text_content()
        assert (MARKUP in shown, in_folder in shown) == both, section


def test_the_page_comes_from_packaged_templates_that_escape_every_value():
    """The report's templates: autoescape on for all of them, an undefined name an error (never an empty string), and
    loaded only from the package."""
    pytest.importorskip("jinja2")
    import jinja2

    from qlint.report.html import environment, render_template

    env = environment()
    assert isinstance(env.loader, jinja2.PackageLoader) and env.undefined is jinja2.StrictUndefined
    names = env.list_templates()
    assert "report.html.j2" in names and "macros.html.j2" in names
    assert all(env.autoescape is True or env.autoescape(name) for name in names)
    table = render_template("pairs.html.j2", rows=[["<b>", "a&b", "<i>", "'", '"']], limit=1)
    assert "<b>" not in table and "<i>" not in table and table.count("&lt;") == 2 and "&amp;" in table
    with pytest.raises(jinja2.UndefinedError):
        render_template("clusters.html.j2", stats=[], base=Path("."))
    with pytest.raises(jinja2.TemplateNotFound):
        env.get_template("../html.py")


def test_a_report_is_never_written_over_a_question_file(tmp_path, run_cli):
    folder = _hostile_bank(tmp_path)
    target = next(p for p in sorted(folder.glob("*.yaml")))
    before = target.read_bytes()
    name = target.relative_to(tmp_path).as_posix()
    code, out, err = run_cli("report", ".", "-o", name, cwd=tmp_path)
    assert code == 2 and f"refusing to write to {name}: it is a bank file this run reads" in err, out + err
    assert target.read_bytes() == before
