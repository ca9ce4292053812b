"""The bank report as one self-contained HTML page: inline CSS, charts as inline SVG drawn by matplotlib.

Nothing on the page refers to the network: no scripts, no style sheets, no fonts, no images by URL. The
charts are matplotlib figures saved as SVG (Agg backend, text kept as ``<text>`` in a system font stack)
with their XML prologue, namespaces and metadata stripped and their ids prefixed per chart, so several
can live in one document. Every number comes from the ``BankSummary``.

This module draws the charts and gathers each section's values; the markup is Jinja2 templates in
``templates/`` (package data), which escape every value they are given. Bank text only ever reaches a
template as such a value: never as template source, markup or a format string.
"""
from __future__ import annotations

import functools
import html
import io
import os
import re
import tempfile
from pathlib import Path
from urllib.parse import quote

from qlint import __version__
from qlint.output.base import escape_text
from qlint.report.summary import LETTERS, BankSummary
from qlint.wording import plural

SEVERITY_COLOURS = {"error": "#c0392b", "warning": "#d68910", "info": "#2e86c1"}
ACCENT = "#2c5d8a"
MUTED = "#9aa5b1"
GOOD = "#2e7d4f"
FONT_STACK = ('system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Liberation Sans", '
              '"DejaVu Sans", sans-serif')
SECTIONS = (
    ("keys", "Answer-key positions"),
    ("reading", "Reading level"),
    ("lengths", "Option-length ratio"),
    ("findings", "Findings by rule and folder"),
    ("coverage", "Coverage"),
    ("clusters", "Near-duplicate clusters"),
)
MAX_BARS = 30
MAX_FINDINGS_LISTED = 2000


# -- matplotlib, lazily ------------------------------------------------------------------------------------


def _writable(folder: str | os.PathLike | None) -> bool:
    return bool(folder) and os.path.isdir(folder) and os.access(folder, os.W_OK)


def pyplot():
    """pyplot on the Agg backend, configured for small offline SVG; imported only when a report is drawn."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    if "MPLCONFIGDIR" not in os.environ:
        home = os.path.expanduser("~")
        config_home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
        if not (_writable(config_home) or _writable(home)):
            os.environ["MPLCONFIGDIR"] = tempfile.mkdtemp(prefix="qlint-mpl-")
    import matplotlib  # optional and heavy (the report extra), and configured by the environment set just above

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt  # after the backend is chosen, as matplotlib requires

    matplotlib.rcParams.update({
        "svg.fonttype": "none",  # text stays text: small, crisp, selectable
        "svg.hashsalt": "qlint",  # stable ids between runs
        "font.family": "sans-serif",
        "font.sans-serif": ["DejaVu Sans", "Liberation Sans", "Arial", "Helvetica"],
        "font.size": 10,
        "axes.titlesize": 11,
        "axes.titleweight": "bold",
        "axes.labelsize": 10,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.edgecolor": "#8a949e",
        "axes.grid": True,
        "axes.axisbelow": True,
        "grid.color": "#e3e7eb",
        "grid.linewidth": 0.8,
        "xtick.color": "#3c4650",
        "ytick.color": "#3c4650",
        "axes.labelcolor": "#3c4650",
        "text.color": "#1f2933",
        "figure.dpi": 100,
        "figure.facecolor": "white",
        # every label is plain text: bank text such as "$5 to $10" or "$\\sqrt{$" is never read as mathtext
        "text.parse_math": False,
    })
    return plt


_SVG_DROP = (
    re.compile(r"<\?xml.*?\?>\s*", re.S),
    re.compile(r"<!DOCTYPE.*?>\s*", re.S),
    re.compile(r"<metadata>.*?</metadata>\s*", re.S),
    re.compile(r'\s+xmlns(?::\w+)?="[^"]*"'),
)


def svg_of(fig, prefix: str, title: str) -> str:
    """A figure as an inline ``<svg>`` with no external references and ids unique to ``prefix``: markup, which the
    page's templates include unescaped (matplotlib escapes the text it draws)."""
    import matplotlib.pyplot as plt  # optional and heavy: the figure that reached here already loaded it

    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    text = buffer.getvalue()
    for pattern in _SVG_DROP:
        text = pattern.sub("", text)
    text = text.replace("xlink:href=", "href=")
    text = re.sub(r'\bid="([^"]+)"', lambda m: f'id="{prefix}-{m.group(1)}"', text)
    text = re.sub(r'url\(#([^)]+)\)', lambda m: f"url(#{prefix}-{m.group(1)})", text)
    text = re.sub(r'href="#([^"]+)"', lambda m: f'href="#{prefix}-{m.group(1)}"', text)
    # the figure's own style sheet uses a global selector; scope it to this chart
    text = text.replace("<style type=\"text/css\">*{", f"<style type=\"text/css\">#{prefix} *{{")
    text = text.replace("<svg ", f'<svg id="{prefix}" class="chart" role="img" aria-label="{html.escape(title)}" ', 1)
    from markupsafe import Markup  # Jinja2's markup type (the report extra): the page includes the chart as it is

    return Markup(text.strip())


def _empty(ax, message: str) -> None:
    ax.text(0.5, 0.5, message, ha="center", va="center", transform=ax.transAxes, color="#6b7785", fontsize=11)
    ax.set_xticks([])
    ax.set_yticks([])
    ax.grid(False)


def _integer(axis) -> None:
    from matplotlib.ticker import MaxNLocator  # optional and heavy: loaded by pyplot before any chart is drawn

    axis.set_major_locator(MaxNLocator(integer=True))


def chart_text(text: str, width: int = 48) -> str:
    """Bank text for a chart's label: control characters as escapes, cut to ``width`` (math is off: a ``$`` is a
    dollar sign, see ``pyplot``)."""
    text = escape_text(text)
    return text if len(text) <= width else text[: width - 1] + "\u2026"


# -- charts ------------------------------------------------------------------------------------------------


def chart_key_positions(plt, s: BankSummary) -> str:
    groups = [g for g in s.key_positions.groups]
    shown = sorted(groups, key=lambda g: -g.questions)[:4]
    shown.sort(key=lambda g: g.options)
    if not shown:
        fig, ax = plt.subplots(figsize=(7, 2.4))
        ax.set_title("Answer-key position by option count")
        _empty(ax, "No single-key questions to count")
        return svg_of(fig, "chart-keys", "Answer-key positions")
    fig, axes = plt.subplots(1, len(shown), figsize=(max(4.2, 3.3 * len(shown)), 3.4), squeeze=False)
    for ax, g in zip(axes[0], shown):
        colour = SEVERITY_COLOURS["error"] if g.biased else (ACCENT if g.tested else MUTED)
        letters = list(LETTERS[: g.options])
        bars = ax.bar(letters, g.counts, color=colour, width=0.65)
        ax.bar_label(bars, padding=2, fontsize=9)
        ax.axhline(g.expected, color="#1f2933", linestyle="--", linewidth=1)
        state = (f"{'biased' if g.biased else 'no bias detected'} ({g.test})" if g.tested else "not tested")
        ax.set_title(f"{g.options} options \u00b7 {plural(g.questions, 'question')}\n{state}, "
                     f"dashed: expected {g.expected:g}", fontsize=10)
        _integer(ax.yaxis)
        ax.set_xlabel("key position")
        ax.grid(axis="x", visible=False)
        ax.set_ylim(0, max(max(g.counts), g.expected) * 1.25 + 0.5)
    axes[0][0].set_ylabel("questions with the key there")
    fig.suptitle("Answer-key position by option count", fontweight="bold", fontsize=11)
    fig.tight_layout()
    return svg_of(fig, "chart-keys", "Answer-key positions by option count")


def chart_reading(plt, s: BankSummary) -> str:
    r = s.reading
    fig, ax = plt.subplots(figsize=(7, 3.3))
    ax.set_title("Reading grade of stems (Flesch-Kincaid)")
    if not r.bins:
        _empty(ax, f"No stem has {r.min_words}+ words in {r.min_sentences}+ sentences to grade")
        return svg_of(fig, "chart-reading", "Reading-level distribution")
    xs = [b["grade"] for b in r.bins]
    ys = [b["stems"] for b in r.bins]
    colours = [SEVERITY_COLOURS["warning"] if g + 1 > r.target else ACCENT for g in xs]
    bars = ax.bar([x + 0.5 for x in xs], ys, width=0.9, color=colours)
    ax.bar_label(bars, padding=2, fontsize=8)
    ax.axvline(r.target, color=SEVERITY_COLOURS["error"], linewidth=1.6)
    ax.annotate(f"target \u2264 {r.target:g}", xy=(r.target, 1), xycoords=("data", "axes fraction"),
                xytext=(4, -12), textcoords="offset points", color=SEVERITY_COLOURS["error"], fontsize=9)
    ax.set_xlabel("grade (bins of one grade)")
    ax.set_ylabel("stems")
    lo, hi = min(min(xs), int(r.target)) - 1, max(max(xs) + 1, int(r.target) + 1) + 1
    ax.set_xlim(lo, hi)
    ax.set_ylim(0, max(ys) * 1.2 + 0.5)
    ax.grid(axis="x", visible=False)
    _integer(ax.yaxis)
    fig.tight_layout()
    return svg_of(fig, "chart-reading", "Reading-level distribution of stems against the target")


def chart_lengths(plt, s: BankSummary) -> str:
    length = s.lengths
    fig, ax = plt.subplots(figsize=(7, 3.3))
    ax.set_title("Key length \u00f7 mean distractor length")
    if not length.measured:
        _empty(ax, "No question has both a key and a distractor")
        return svg_of(fig, "chart-lengths", "Option-length ratio distribution")
    labels = [b["band"] for b in length.bands]
    counts = [b["questions"] for b in length.bands]
    colours = [ACCENT, GOOD, ACCENT, SEVERITY_COLOURS["warning"], SEVERITY_COLOURS["error"]][: len(labels)]
    bars = ax.bar(labels, counts, color=colours, width=0.65)
    ax.bar_label(bars, padding=2, fontsize=9)
    ax.set_xlabel("ratio band (1.0 = key as long as the average distractor)")
    ax.set_ylabel("questions")
    ax.set_ylim(0, max(counts) * 1.2 + 0.5)
    ax.grid(axis="x", visible=False)
    _integer(ax.yaxis)
    fig.tight_layout()
    return svg_of(fig, "chart-lengths", "Option-length ratio distribution, key versus distractors")


def _severity_barh(plt, ax, labels: list[str], rows: list) -> None:
    ys = list(range(len(labels)))[::-1]
    left = [0] * len(labels)
    for severity in ("error", "warning", "info"):
        values = [getattr(r, severity) for r in rows]
        if any(values):
            ax.barh(ys, values, left=left, color=SEVERITY_COLOURS[severity], label=severity, height=0.65)
            left = [a + b for a, b in zip(left, values)]
    for y, total in zip(ys, left):
        ax.text(total, y, f" {total}", va="center", fontsize=8)
    ax.set_yticks(ys, labels)
    ax.set_xlim(0, max(left) * 1.35 + 1)
    ax.grid(axis="y", visible=False)
    _integer(ax.xaxis)
    ax.legend(loc="lower right", frameon=False, fontsize=8)


def _all_rules(count: int) -> str:
    return "the 1 rule" if count == 1 else f"all {count} rules"


def chart_findings_by_rule(plt, s: BankSummary) -> str:
    rows = [r for r in s.by_rule if r.findings][:MAX_BARS]
    fig, ax = plt.subplots(figsize=(7, 0.32 * max(len(rows), 3) + 1.3))
    ax.set_title("Findings by rule")
    if not rows:
        _empty(ax, f"No findings: {_all_rules(s.rules_run)} passed")
        return svg_of(fig, "chart-rules", "Findings by rule")
    _severity_barh(plt, ax, [chart_text(f"{r.code} {r.name}") for r in rows], rows)
    ax.set_xlabel("findings")
    fig.tight_layout()
    return svg_of(fig, "chart-rules", "Findings by rule")


def chart_findings_by_folder(plt, s: BankSummary) -> str:
    rows = [r for r in s.by_folder if r.findings][:MAX_BARS]
    fig, ax = plt.subplots(figsize=(7, 0.32 * max(len(rows), 3) + 1.3))
    ax.set_title("Findings by folder")
    if not rows:
        _empty(ax, f"No findings in {len(s.by_folder)} folders")
        return svg_of(fig, "chart-folders", "Findings by folder")
    _severity_barh(plt, ax, [chart_text(r.folder, 40) for r in rows], rows)
    ax.set_xlabel("findings")
    fig.tight_layout()
    return svg_of(fig, "chart-folders", "Findings by folder")


def _coverage_barh(plt, title: str, prefix: str, items: list[dict], none_label: str, none_count: int,
                   noun: str) -> str:
    """Questions per objective (or tag) as bars, the largest ``MAX_BARS``; when every one has a single question,
    bars of one compare nothing, and the chart says so instead."""
    if len(items) > 1 and all(i["questions"] == 1 for i in items):
        fig, ax = plt.subplots(figsize=(7, 2.2))
        ax.set_title(title)
        without = f"\n{plural(none_count, 'question')} {none_label}" if none_count else ""
        _empty(ax, f"Each of the {len(items)} {noun}s has one question: nothing to compare{without}")
        return svg_of(fig, prefix, title)
    if len(items) > MAX_BARS:
        title = f"{title} (the {MAX_BARS} largest of {len(items)})"
    items = items[:MAX_BARS]
    labels = [chart_text(i["name"]) for i in items]
    values = [i["questions"] for i in items]
    if none_count:
        labels.append(none_label)
        values.append(none_count)
    fig, ax = plt.subplots(figsize=(7, 0.3 * max(len(labels), 3) + 1.2))
    ax.set_title(title)
    if not labels:
        _empty(ax, "Nothing to count")
        return svg_of(fig, prefix, title)
    ys = list(range(len(labels)))[::-1]
    colours = [ACCENT] * len(items) + ([MUTED] if none_count else [])
    bars = ax.barh(ys, values, color=colours, height=0.65)
    ax.bar_label(bars, padding=2, fontsize=8)
    ax.set_yticks(ys, labels)
    ax.set_xlabel("questions")
    ax.set_xlim(0, max(values) * 1.15 + 0.5)
    ax.grid(axis="y", visible=False)
    _integer(ax.xaxis)
    fig.tight_layout()
    return svg_of(fig, prefix, title)


def chart_difficulty(plt, s: BankSummary) -> str:
    c = s.coverage
    labels = [chart_text(d["name"], 24) for d in c.difficulty] + (["(none)"] if c.no_difficulty else [])
    values = [d["questions"] for d in c.difficulty] + ([c.no_difficulty] if c.no_difficulty else [])
    fig, ax = plt.subplots(figsize=(7, 3))
    ax.set_title("Questions by difficulty")
    if not labels:
        _empty(ax, "No questions")
        return svg_of(fig, "chart-difficulty", "Questions by difficulty")
    colours = [ACCENT] * len(c.difficulty) + ([MUTED] if c.no_difficulty else [])
    bars = ax.bar(labels, values, color=colours, width=0.6)
    ax.bar_label(bars, padding=2, fontsize=9)
    ax.set_xlabel("difficulty")
    ax.set_ylabel("questions")
    ax.set_ylim(0, max(values) * 1.2 + 0.5)
    ax.grid(axis="x", visible=False)
    _integer(ax.yaxis)
    fig.tight_layout()
    return svg_of(fig, "chart-difficulty", "Questions by difficulty")


# -- page --------------------------------------------------------------------------------------------------
# The page is Jinja2 templates shipped in the package (templates/), rendered with every value escaped: bank text
# reaches a template only as a value, never as template source, markup or a format string.


@functools.cache
def environment():
    """The templates' environment: autoescape everywhere, an undefined name is an error, templates only from the
    package."""
    import jinja2  # the report extra, like matplotlib: loaded only when a report is drawn

    env = jinja2.Environment(loader=jinja2.PackageLoader("qlint.report", "templates"), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                             auto_reload=False)
    env.filters.update(num=_num, fmt=format, file_href=file_href)
    env.globals.update(plural=plural)
    return env


def render_template(name: str, **context) -> str:
    """A template's output, as markup another template includes unescaped."""
    from markupsafe import Markup  # Jinja2's own markup type: the environment above has loaded it

    return Markup(environment().get_template(name).render(**context))


def _num(value):
    """A table cell or statistic as the page prints it: None as a dash, a float without trailing zeros."""
    if value is None:
        return "\u2013"
    if isinstance(value, float):
        return f"{value:g}"
    return value


def _fixed(value: float | None, spec: str) -> str | None:
    """A statistic printed the way the rule's message prints it."""
    return None if value is None else format(value, spec)


def file_href(path: str, base: Path) -> str | None:
    """A relative link from the report's folder to a bank file; None for pseudo-paths such as <stdin>."""
    if path.startswith("<"):
        return None
    try:
        rel = os.path.relpath(Path(path).resolve(), base.resolve())
    except ValueError:
        return Path(path).resolve().as_uri()
    # a file name's bytes that are not UTF-8 are linked as those bytes (%FF), so the link still opens the file
    return quote(Path(rel).as_posix(), errors="surrogateescape")


def key_headline(k) -> str:
    """What the answer-key position tests found, naming the test that found it."""
    biased = [g for g in k.groups if g.biased]
    if biased:
        return "Biased: keys pile up in " + "; ".join(
            f"the {g.options}-option questions ({g.test} test)" for g in biased)
    if k.verdict == "runs":
        return "Spread evenly, but keys repeat in long runs: " + "; ".join(
            f"{r['length']} {g.options}-option questions in a row at {r['position']}" for g in k.groups for r in g.runs)
    return {"no bias detected": "No position bias detected",
            "not tested": "Not tested: no option count has two single-key questions",
            "rule off": "answer-position-bias is not enabled in this run"}[k.verdict]


def _section_keys(plt, s: BankSummary) -> str:
    k = s.key_positions
    detail = (f"Each option count is tested once, at alpha {k.alpha:g} shared among the groups tested: chi-square "
              f"where a group has at least {k.min_questions} questions and 5 expected keys per position, else an "
              "exact binomial test of its fullest position; a run of one key position is flagged when its chance "
              "is below that alpha.")
    width = max((g.options for g in k.groups), default=0)
    rows = [[g.options, g.questions] + [g.counts[i] if i < g.options else "" for i in range(width)]
            + [g.expected, g.test or "none", _fixed(g.statistic, ".1f" if g.test == "chi-square" else ".0f"),
               _fixed(g.p_value, ".2g"),
               _fixed(g.alpha, ".2g"), g.reason.split(":")[0] + (" (runs)" if g.runs else "")]
            for g in k.groups]
    return render_template(
        "keys.html.j2", k=k, klass={"biased": "bad", "runs": "bad", "no bias detected": "good"}.get(k.verdict, "neutral"),
        headline=key_headline(k), detail=detail, tested=len([g for g in k.groups if g.tested]),
        chart=chart_key_positions(plt, s), rows=rows,
        headers=["options", "questions", *LETTERS[:width], "expected each", "test", "statistic", "p", "alpha", "verdict"],
        numeric=tuple(set(range(0, width + 3)) | {width + 4, width + 5, width + 6}))


def _section_reading(plt, s: BankSummary, base: Path) -> str:
    r = s.reading
    over = r.reported
    stats = [(r.stems, "stems"), (r.long_sentences, f"with a sentence over {over.get('max_sentence_words')} words"),
             (r.long_stems, f"stems over {over.get('max_stem_words')} words"),
             (r.long_options, f"options over {over.get('max_option_words')} words"),
             (r.findings, "reading-level findings"), (r.passages, "with a reading passage"),
             (r.graded, f"graded ({r.min_words}+ words, {r.min_sentences}+ sentences)"),
             (r.above_target, f"above grade {r.target:g}"), (r.grade_findings, "reading-grade findings"),
             (r.median, "median grade")]
    hardest = sorted((q for q in s.questions if q.graded and q.grade is not None), key=lambda q: -q.grade)[:10]
    longest = [q for q in sorted(s.questions, key=lambda q: -q.longest_sentence)[:10] if q.longest_sentence]
    objectives = [[o["objective"] or "(no objective)", o["stems"], o["long_sentences"], o["long_stems"],
                   o["median_words"], o["graded"], o["median_grade"], o["above_target"]] for o in r.objectives]
    return render_template("reading.html.j2", r=r, stats=stats, chart=chart_reading(plt, s), hardest=hardest,
                           longest=longest, objectives=objectives, base=base)


def _section_lengths(plt, s: BankSummary, base: Path) -> str:
    length = s.lengths
    stats = [(length.measured, "questions measured"), (length.median, "median ratio"), (length.mean, "mean ratio"),
             (length.max, "highest ratio"), (length.key_longest, "key longer than every distractor"),
             (length.findings, "option-length findings")]
    largest = sorted((q for q in s.questions if q.length_ratio is not None), key=lambda q: -q.length_ratio)[:10]
    return render_template("lengths.html.j2", stats=stats, chart=chart_lengths(plt, s),
                           bands=[[b["band"], b["questions"]] for b in length.bands], largest=largest,
                           bias=length.bias, bias_rows=_key_length_rows(length.bias),
                           bias_findings=length.bias_findings, base=base)


def _key_length_rows(bias: dict | None) -> list[list]:
    """key-length-bias's table: how often the clearly longest option is a key, for the bank, folders, objectives."""
    if bias is None:
        return []
    where = {"bank": "the bank", "folder": "folder", "objective": "objective"}
    return [[where[g["kind"]] + (f" {g['name']}" if g["name"] else ""), g["questions"], g["key_longest"],
             None if g["rate"] is None else f"{g['rate']:.0%}", None if g["chance"] is None else f"{g['chance']:.0%}",
             _fixed(g["p_value"], ".2g") if g["tested"] else "not tested", "reported" if g["flagged"] else ""]
            for g in bias["groups"]]


def _section_findings(plt, s: BankSummary, findings: list[dict] | None, base: Path) -> str:
    t = s.totals
    stats = [(t["findings"], "findings"), (t["error"], "error"), (t["warning"], "warning"), (t["info"], "info"),
             (s.rules_run, "rules run")]
    folders = [[r.folder, r.files, r.questions, r.findings, r.error, r.warning, r.info] for r in s.by_folder]
    findings = findings or []
    return render_template(
        "findings.html.j2", stats=stats, rule_chart=chart_findings_by_rule(plt, s),
        folder_chart=chart_findings_by_folder(plt, s), fired=[r for r in s.by_rule if r.findings],
        quiet=[r for r in s.by_rule if not r.findings], all_rules=_all_rules(s.rules_run), folders=folders,
        findings=findings, shown=findings[:MAX_FINDINGS_LISTED], base=base)


def _section_coverage(plt, s: BankSummary) -> str:
    c = s.coverage
    stats = [(s.totals["questions"], "questions"), (len(c.objectives), "objectives"),
             (c.no_objective, "without objective"), (len(c.tags), "tags"), (c.no_tags, "untagged"),
             (len(c.difficulty), "difficulty levels"), (c.no_difficulty, "without difficulty")]

    def rows(items: list[dict], none_label: str, none_count: int) -> list[list]:
        return [[o["name"], o["questions"]] for o in items] + ([[none_label, none_count]] if none_count else [])

    return render_template(
        "coverage.html.j2", stats=stats,
        objectives_chart=_coverage_barh(plt, "Questions by objective", "chart-objectives", c.objectives,
                                        "(no objective)", c.no_objective, "objective"),
        tags_chart=_coverage_barh(plt, "Questions by tag", "chart-tags", c.tags, "(untagged)", c.no_tags, "tag"),
        difficulty_chart=chart_difficulty(plt, s), objectives=rows(c.objectives, "(no objective)", c.no_objective),
        tags=rows(c.tags, "(untagged)", c.no_tags), difficulty=rows(c.difficulty, "(none)", c.no_difficulty))


def _section_clusters(s: BankSummary, base: Path) -> str:
    n = s.near_duplicates
    stats = [(len(n.clusters), "clusters"), (n.questions_in_clusters, "questions in clusters"),
             (n.findings, "near-duplicate-stem findings"), (n.threshold, "similarity threshold")]
    return render_template("clusters.html.j2", n=n, stats=stats, base=base)


def render(summary: BankSummary, *, base: Path | None = None, findings: list[dict] | None = None,
           sections: tuple[tuple[str, str, str], ...] = ()) -> str:
    """The whole page. ``base`` is the folder the HTML file will live in; ``findings`` (check's JSON list) are
    listed in a collapsed table when given; ``sections`` (key, title, HTML body) are added at the end: each body is
    markup this package's own templates made (``consistency``, ``items``), included as it is."""
    from markupsafe import Markup  # Jinja2's markup type, loaded with it

    plt = pyplot()
    base = base or Path(".")   # relative file links start from the report's folder
    s = summary
    t = s.totals
    totals = ((t["files"], "files", ""), (t["questions"], "questions", ""), (t["findings"], "findings", ""),
              (t["error"], "errors", "error"), (t["warning"], "warnings", "warning"), (t["info"], "info", "info"),
              (len(s.near_duplicates.clusters), "dup clusters", ""))
    titles = dict(SECTIONS)
    bodies = [("keys", _section_keys(plt, s)), ("reading", _section_reading(plt, s, base)),
              ("lengths", _section_lengths(plt, s, base)), ("findings", _section_findings(plt, s, findings, base)),
              ("coverage", _section_coverage(plt, s)), ("clusters", _section_clusters(s, base))]
    page = [(key, titles[key], body) for key, body in bodies]
    page += [(key, title, Markup(body)) for key, title, body in sections]
    colours = {"accent": ACCENT, "good": GOOD, **SEVERITY_COLOURS}
    # the font stack is this module's constant, quotes and all: a style sheet is not HTML-escaped text
    return environment().get_template("report.html.j2").render(
        s=s, totals=totals, sections=page, version=__version__, colours=colours, font=Markup(FONT_STACK))
