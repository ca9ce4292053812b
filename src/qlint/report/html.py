"""The bank report as one self-contained HTML page: inline CSS, charts as inline SVG drawn by matplotlib.

Nothing on the page refers to the network: no scripts, no style sheets, no fonts, no images by URL. The
charts are matplotlib figures saved as SVG (Agg backend, text kept as ``<text>`` in a system font stack)
with their XML prologue, namespaces and metadata stripped and their ids prefixed per chart, so several
can live in one document. Every number comes from the ``BankSummary``.
"""
from __future__ import annotations

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
    """A figure as an inline ``<svg>`` with no external references and ids unique to ``prefix``."""
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
    return text.strip()


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

CSS = """
:root {{ --ink:#1f2933; --muted:#5f6b7a; --line:#e3e7eb; --panel:#f7f9fb; --accent:{accent};
        --error:{error}; --warning:{warning}; --info:{info}; --good:{good}; }}
* {{ box-sizing: border-box; }}
body {{ margin:0; font-family:{font}; color:var(--ink); background:#fff; line-height:1.45; font-size:15px; }}
header {{ background:linear-gradient(135deg,#1f3b57,#2c5d8a); color:#fff; padding:28px 40px 22px; }}
header h1 {{ margin:0 0 4px; font-size:26px; font-weight:650; letter-spacing:-0.01em; }}
header .sub {{ opacity:.85; font-size:14px; }}
header .sub code {{ background:rgba(255,255,255,.15); color:#fff; }}
.totals {{ display:flex; flex-wrap:wrap; gap:12px; margin-top:18px; }}
.total {{ background:rgba(255,255,255,.12); border-radius:8px; padding:8px 14px; min-width:92px; }}
.total b {{ display:block; font-size:22px; font-variant-numeric:tabular-nums; }}
.total span {{ font-size:12px; text-transform:uppercase; letter-spacing:.06em; opacity:.85; }}
.total.error b {{ color:#ffb4a8; }} .total.warning b {{ color:#ffd98a; }} .total.info b {{ color:#a9d6ff; }}
nav {{ position:sticky; top:0; background:#fff; border-bottom:1px solid var(--line); padding:10px 40px; z-index:2;
      font-size:14px; }}
nav a {{ color:var(--accent); text-decoration:none; margin-right:18px; white-space:nowrap; }}
main {{ max-width:1180px; margin:0 auto; padding:8px 40px 48px; }}
section {{ padding:22px 0 8px; border-bottom:1px solid var(--line); }}
h2 {{ font-size:20px; margin:0 0 6px; }}
h3 {{ font-size:15px; margin:18px 0 6px; color:var(--muted); font-weight:600; }}
p.lead {{ color:var(--muted); margin:0 0 14px; max-width:860px; }}
.grid {{ display:grid; grid-template-columns:repeat(auto-fit,minmax(460px,1fr)); gap:18px 28px; align-items:start; }}
figure {{ margin:0; }}
svg.chart {{ max-width:100%; height:auto; display:block; }}
table {{ border-collapse:collapse; width:100%; font-size:13.5px; margin:6px 0 12px; }}
th, td {{ text-align:left; padding:6px 10px; border-bottom:1px solid var(--line); vertical-align:top; }}
th {{ background:var(--panel); font-weight:600; color:#3c4650; }}
td.n, th.n {{ text-align:right; font-variant-numeric:tabular-nums; }}
tr:hover td {{ background:#fbfcfd; }}
td:first-child code {{ white-space:nowrap; }}
td a code {{ overflow-wrap:anywhere; }}
code {{ font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace; font-size:12.5px;
       background:var(--panel); padding:1px 5px; border-radius:4px; }}
a {{ color:var(--accent); }}
.verdict {{ border-radius:10px; padding:14px 18px; margin:8px 0 16px; border:1px solid; max-width:860px; }}
.verdict strong {{ font-size:17px; display:block; margin-bottom:2px; }}
.verdict.bad {{ background:#fdf0ee; border-color:#f1b8ae; }} .verdict.bad strong {{ color:var(--error); }}
.verdict.good {{ background:#eef7f1; border-color:#b4dcc3; }} .verdict.good strong {{ color:var(--good); }}
.verdict.neutral {{ background:var(--panel); border-color:var(--line); }} .verdict.neutral strong {{ color:var(--muted); }}
.verdict ul {{ margin:6px 0 0; padding-left:20px; }}
.stats {{ display:flex; flex-wrap:wrap; gap:10px; margin:4px 0 14px; }}
.stat {{ background:var(--panel); border:1px solid var(--line); border-radius:8px; padding:6px 12px; }}
.stat b {{ font-size:17px; font-variant-numeric:tabular-nums; margin-right:4px; }}
.stat span {{ color:var(--muted); font-size:13px; }}
.sev {{ display:inline-block; border-radius:10px; padding:0 8px; font-size:12px; color:#fff; }}
.sev.error {{ background:var(--error); }} .sev.warning {{ background:var(--warning); }} .sev.info {{ background:var(--info); }}
.cluster {{ border:1px solid var(--line); border-radius:10px; padding:10px 14px; margin:10px 0 14px; }}
.cluster h3 {{ margin:2px 0 6px; color:var(--ink); }}
.muted {{ color:var(--muted); }}
.ok {{ color:var(--good); font-weight:600; }}
details {{ margin:6px 0 12px; }} summary {{ cursor:pointer; color:var(--accent); }}
footer {{ max-width:1180px; margin:0 auto; padding:16px 40px 40px; color:var(--muted); font-size:13px; }}
@media print {{ nav {{ position:static; }} }}
""".format(accent=ACCENT, good=GOOD, font=FONT_STACK, **SEVERITY_COLOURS)


def _e(value) -> str:
    return html.escape(str(value), quote=True)


def _num(value) -> str:
    if value is None:
        return "\u2013"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def html_table(headers: list[str], rows: list[list], numeric: set[int] = frozenset(), raw: set[int] = frozenset()) -> str:
    head = "".join(f'<th class="n">{_e(h)}</th>' if i in numeric else f"<th>{_e(h)}</th>" for i, h in enumerate(headers))
    body = []
    for row in rows:
        cells = []
        for i, cell in enumerate(row):
            content = cell if i in raw else _e(_num(cell))
            cells.append(f'<td class="n">{content}</td>' if i in numeric else f"<td>{content}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _fixed(value: float | None, spec: str) -> str | None:
    """A statistic printed the way the rule's message prints it."""
    return None if value is None else format(value, spec)


def _stats(pairs: list[tuple[object, str]]) -> str:
    return '<div class="stats">' + "".join(
        f'<div class="stat"><b>{_e(_num(v))}</b><span>{_e(label)}</span></div>' for v, label in pairs) + "</div>"


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


def _file_link(path: str, line: int | None, base: Path) -> str:
    label = f"{path}:{line}" if line else path
    href = file_href(path, base)
    return f'<a href="{_e(href)}"><code>{_e(label)}</code></a>' if href else f"<code>{_e(label)}</code>"


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
    klass = {"biased": "bad", "runs": "bad", "no bias detected": "good"}.get(k.verdict, "neutral")
    tested = [g for g in k.groups if g.tested]
    detail = (f"Each option count is tested once, at alpha {k.alpha:g} shared among the groups tested: chi-square "
              f"where a group has at least {k.min_questions} questions and 5 expected keys per position, else an "
              "exact binomial test of its fullest position; a run of one key position is flagged when its chance "
              "is below that alpha.")
    items = "".join(f"<li>{_e(g.options)}-option questions ({g.questions}): {_e(g.reason)}</li>" for g in k.groups)
    reported = "".join(f"<li><code>{_e(f['path'])}:{f['line']}</code> {_e(f['message'])}</li>" for f in k.findings)
    box = (f'<div class="verdict {klass}"><strong>{_e(key_headline(k))}</strong>{_e(detail)}'
           f"<ul>{items or '<li>No single-key questions.</li>'}</ul>"
           + (f"<div style='margin-top:8px'><b>{len(k.findings)} answer-position-bias "
              f"finding{'s' if len(k.findings) != 1 else ''}</b><ul>{reported}</ul></div>" if k.findings else
              f"<div style='margin-top:8px' class='muted'>0 answer-position-bias findings; "
              f"{len(tested)} group{'s' if len(tested) != 1 else ''} tested.</div>")
           + "</div>")
    width = max((g.options for g in k.groups), default=0)
    rows = [[g.options, g.questions] + [g.counts[i] if i < g.options else "" for i in range(width)]
            + [g.expected, g.test or "none", _fixed(g.statistic, ".1f" if g.test == "chi-square" else ".0f"),
               _fixed(g.p_value, ".2g"),
               _fixed(g.alpha, ".2g"), g.reason.split(":")[0] + (" (runs)" if g.runs else "")]
            for g in k.groups]
    table = html_table(["options", "questions", *LETTERS[:width], "expected each", "test", "statistic", "p",
                        "alpha", "verdict"], rows, numeric=set(range(0, width + 3)) | {width + 4, width + 5, width + 6})
    excluded = (f'<p class="muted">{k.excluded} multiple-key or key-less question'
                f"{'s are' if k.excluded != 1 else ' is'} not part of the test.</p>" if k.excluded else "")
    return (f"<p class='lead'>Where the correct option sits, per number of options. Writers favour middle "
            f"positions; a test tells a real pile-up from chance.</p>{box}"
            f"<figure>{chart_key_positions(plt, s)}</figure>{table}{excluded}")


def _section_reading(plt, s: BankSummary, base: Path) -> str:
    r = s.reading
    limits = r.limits
    stats = _stats([(r.stems, "stems"), (r.long_sentences, f"with a sentence over {limits.get('max_sentence_words')} words"),
                    (r.long_stems, f"stems over {limits.get('max_stem_words')} words"),
                    (r.long_options, f"options over {limits.get('max_option_words')} words"),
                    (r.findings, "reading-level findings"), (r.passages, "with a reading passage"),
                    (r.graded, f"graded ({r.min_words}+ words, {r.min_sentences}+ sentences)"),
                    (r.above_target, f"above grade {r.target:g}"), (r.grade_findings, "reading-grade findings"),
                    (r.median, "median grade")])
    note = ""
    if not r.rule_active:
        note += "<p class='muted'>reading-level is not enabled in this run; the limits shown are its defaults.</p>"
    if not r.grade_active:
        note += "<p class='muted'>reading-grade is not enabled in this run: no stem was graded.</p>"
    elif r.above_target != r.grade_findings:
        note += (f"<p class='muted'>{r.above_target - r.grade_findings} stem(s) above the grade are suppressed or "
                 "ignored, so check does not report them.</p>")
    top = sorted((q for q in s.questions if q.graded and q.grade is not None), key=lambda q: -q.grade)[:10]
    table = html_table(["question", "file", "grade", "words"],
                   [[f"<code>{_e(q.id)}</code>", _file_link(q.path, q.line, base), q.grade, q.words] for q in top],
                   numeric={2, 3}, raw={0, 1})
    longest = sorted(s.questions, key=lambda q: -q.longest_sentence)[:10]
    sentences = html_table(["question", "file", "longest sentence (words)", "stem words"],
                           [[f"<code>{_e(q.id)}</code>", _file_link(q.path, q.line, base), q.longest_sentence, q.words]
                            for q in longest if q.longest_sentence], numeric={2, 3}, raw={0, 1})
    objectives = html_table(["objective", "stems", "long sentences", "long stems", "median words", "graded",
                             "median grade", "above grade"],
                            [[o["objective"] or "(no objective)", o["stems"], o["long_sentences"], o["long_stems"],
                              o["median_words"], o["graded"], o["median_grade"], o["above_target"]]
                             for o in r.objectives], numeric=set(range(1, 8)))
    return (f"<p class='lead'>What reading-level holds every stem and option to (sentence, stem and option length, "
            f"in words; code, tables and formulas are not counted), and the Flesch-Kincaid grade reading-grade gives "
            f"stems long enough to grade, against the audience's grade {r.target:g}.</p>{stats}{note}"
            f"<div class='grid'><figure>{chart_reading(plt, s)}</figure>"
            f"<div><h3>Hardest stems</h3>{table if top else '<p class=muted>No graded stems.</p>'}</div></div>"
            f"<h3>Longest sentences</h3>"
            f"{sentences if longest and longest[0].longest_sentence else '<p class=muted>No sentences.</p>'}"
            f"<h3>By objective</h3>{objectives}")


def _section_lengths(plt, s: BankSummary, base: Path) -> str:
    length = s.lengths
    stats = _stats([(length.measured, "questions measured"), (length.median, "median ratio"),
                    (length.mean, "mean ratio"), (length.max, "highest ratio"),
                    (length.key_longest, "key longer than every distractor"),
                    (length.findings, "option-length findings")])
    top = sorted((q for q in s.questions if q.length_ratio is not None), key=lambda q: -q.length_ratio)[:10]
    table = html_table(["question", "file", "ratio"],
                   [[f"<code>{_e(q.id)}</code>", _file_link(q.path, q.line, base), round(q.length_ratio, 2)]
                    for q in top], numeric={2}, raw={0, 1})
    bands = html_table(["ratio band", "questions"], [[b["band"], b["questions"]] for b in length.bands], numeric={1})
    return (f"<p class='lead'>Characters in the key divided by the mean characters of the distractors. Around 1.0 "
            f"is healthy; a key much longer than its distractors is a cue test-wise candidates use.</p>{stats}"
            f"<div class='grid'><figure>{chart_lengths(plt, s)}</figure><div>{bands}"
            f"<h3>Largest ratios</h3>{table if top else '<p class=muted>Nothing measured.</p>'}</div></div>"
            f"{_key_length_table(length, base)}")


def _key_length_table(length, base: Path) -> str:
    """key-length-bias's table: how often the clearly longest option is a key, for the bank, folders, objectives."""
    bias = length.bias
    if bias is None:
        return "<h3>Longest option as key</h3><p class='muted'>key-length-bias is not enabled in this run.</p>"
    where = {"bank": "the bank", "folder": "folder", "objective": "objective"}
    rows = [[where[g["kind"]] + (f" {g['name']}" if g["name"] else ""), g["questions"], g["key_longest"],
             None if g["rate"] is None else f"{g['rate']:.0%}", None if g["chance"] is None else f"{g['chance']:.0%}",
             _fixed(g["p_value"], ".2g") if g["tested"] else "not tested", "reported" if g["flagged"] else ""]
            for g in bias["groups"]]
    table = html_table(["group", "questions with a clearly longest option", "the key", "rate", "chance", "p",
                        "finding"], rows, numeric={1, 2, 3, 4, 5})
    reported = "".join(f"<li>{_file_link(f['path'], f['line'], base)}: {_e(f['message'])}</li>"
                       for f in length.bias_findings)
    return (f"<h3>Longest option as key</h3><p class='lead'>How often the option that is clearly the longest "
            f"(at least {bias['min_ratio']:g}x the next) is a key, against the rate chance gives (one in the number "
            f"of options); key-length-bias tests it exactly.</p>{table}"
            + (f"<ul>{reported}</ul>" if reported else ""))


def _section_findings(plt, s: BankSummary, findings: list[dict] | None, base: Path) -> str:
    t = s.totals
    stats = _stats([(t["findings"], "findings"), (t["error"], "error"), (t["warning"], "warning"),
                    (t["info"], "info"), (s.rules_run, "rules run")])
    fired = [r for r in s.by_rule if r.findings]
    rule_rows = [[f"<code>{_e(r.code)}</code>", _e(r.name), _sev(r.severity), r.findings, r.error, r.warning, r.info]
                 for r in fired]
    rules_table = (html_table(["code", "rule", "severity", "findings", "error", "warning", "info"], rule_rows,
                          numeric={3, 4, 5, 6}, raw={0, 1, 2}) if fired
                   else f"<p class='ok'>No rule fired: {_all_rules(s.rules_run)} passed.</p>")
    quiet = [r for r in s.by_rule if not r.findings]
    quiet_list = (f"<details><summary>{plural(len(quiet), 'rule')} ran with no findings</summary><p>"
                  + ", ".join(f"<code>{_e(r.code)}</code> {_e(r.name)}" for r in quiet) + "</p></details>") if quiet else ""
    folder_rows = [[_e(r.folder), r.files, r.questions, r.findings, r.error, r.warning, r.info] for r in s.by_folder]
    folders_table = html_table(["folder", "files", "questions", "findings", "error", "warning", "info"], folder_rows,
                           numeric={1, 2, 3, 4, 5, 6}, raw={0})
    listing = ""
    if findings:
        shown = findings[:MAX_FINDINGS_LISTED]
        rows = [[_file_link(f["path"], f["line"], base), f"<code>{_e(f['code'])}</code> {_e(f['rule'])}",
                 _sev(f["severity"]), _e(f["message"])] for f in shown]
        more = (f"<p class='muted'>First {len(shown)} of {len(findings)} shown; "
                "<code>qlint check</code> lists them all.</p>" if len(findings) > len(shown) else "")
        listing = (f"<details><summary>{'The finding' if len(findings) == 1 else f'All {len(findings)} findings'}</summary>"
                   f"{html_table(['where', 'rule', 'severity', 'message'], rows, raw={0, 1, 2, 3})}{more}</details>")
    return (f"<p class='lead'>Which rules fire, and where. Counts are exactly those of "
            f"<code>qlint check --format json</code> on the same paths and options.</p>{stats}"
            f"<div class='grid'><figure>{chart_findings_by_rule(plt, s)}</figure>"
            f"<figure>{chart_findings_by_folder(plt, s)}</figure></div>"
            f"<div class='grid'><div><h3>By rule</h3>{rules_table}{quiet_list}</div>"
            f"<div><h3>By folder</h3>{folders_table}</div></div>{listing}")


def _sev(severity: str) -> str:
    return f'<span class="sev {_e(severity)}">{_e(severity)}</span>' if severity else "<span class='muted'>\u2013</span>"


def _section_coverage(plt, s: BankSummary) -> str:
    c = s.coverage
    stats = _stats([(s.totals["questions"], "questions"), (len(c.objectives), "objectives"),
                    (c.no_objective, "without objective"), (len(c.tags), "tags"), (c.no_tags, "untagged"),
                    (len(c.difficulty), "difficulty levels"), (c.no_difficulty, "without difficulty")])
    objectives = _coverage_barh(plt, "Questions by objective", "chart-objectives", c.objectives,
                                "(no objective)", c.no_objective, "objective")
    tags = _coverage_barh(plt, "Questions by tag", "chart-tags", c.tags, "(untagged)", c.no_tags, "tag")
    obj_table = html_table(["objective", "questions"], [[o["name"], o["questions"]] for o in c.objectives]
                       + ([["(no objective)", c.no_objective]] if c.no_objective else []), numeric={1})
    tag_table = html_table(["tag", "questions"], [[o["name"], o["questions"]] for o in c.tags]
                       + ([["(untagged)", c.no_tags]] if c.no_tags else []), numeric={1})
    diff_table = html_table(["difficulty", "questions"], [[o["name"], o["questions"]] for o in c.difficulty]
                        + ([["(none)", c.no_difficulty]] if c.no_difficulty else []), numeric={1})
    return (f"<p class='lead'>How the bank covers its objectives, tags and difficulty levels.</p>{stats}"
            f"<div class='grid'><figure>{objectives}</figure><figure>{tags}</figure>"
            f"<figure>{chart_difficulty(plt, s)}</figure><div><h3>Difficulty</h3>{diff_table}</div></div>"
            f"<details><summary>Objective and tag tables</summary><div class='grid'>"
            f"<div>{obj_table}</div><div>{tag_table}</div></div></details>")


def _section_clusters(s: BankSummary, base: Path) -> str:
    n = s.near_duplicates
    if not n.rule_active:
        return "<p class='muted'>near-duplicate-stem is not enabled in this run.</p>"
    stats = _stats([(len(n.clusters), "clusters"), (n.questions_in_clusters, "questions in clusters"),
                    (n.findings, "near-duplicate-stem findings"), (n.threshold, "similarity threshold")])
    lead = (f"<p class='lead'>Questions whose stems are at least {n.threshold:g}% similar (shared lead-ins ignored), "
            "grouped into clusters: each cluster is one set of questions that ask the same thing. "
            "Links open the file.</p>")
    if not n.clusters:
        return f"{lead}{stats}<p class='ok'>No near-duplicate stems.</p>"
    blocks = []
    for c in n.clusters:
        rows = [[f"<code>{_e(m.id)}</code>", _file_link(m.path, m.line, base), _e(m.stem),
                 "yes" if m.flagged else "<span class='muted'>suppressed</span>"] for m in c.members]
        pairs = ", ".join(f"{_e(p['a'])} \u2194 {_e(p['b'])} {p['similarity']:.0f}%" for p in c.pairs)
        blocks.append(
            f"<div class='cluster' id='cluster-{c.number}'><h3>Cluster {c.number}: {c.size} questions, "
            f"up to {c.max_similarity:.0f}% similar</h3>"
            f"{html_table(['question', 'file', 'stem', 'reported'], rows, raw={0, 1, 2, 3})}"
            f"<div class='muted' style='font-size:13px'>Pairs: {pairs}</div></div>")
    return f"{lead}{stats}{''.join(blocks)}"


def render(summary: BankSummary, *, base: Path | None = None, findings: list[dict] | None = None,
           sections: tuple[tuple[str, str, str], ...] = ()) -> str:
    """The whole page. ``base`` is the folder the HTML file will live in; ``findings`` (check's JSON list) are
    listed in a collapsed table when given; ``sections`` (key, title, HTML body) are added at the end."""
    plt = pyplot()
    base = base or Path(".")   # relative file links start from the report's folder
    s = summary
    t = s.totals
    totals = "".join(
        f'<div class="total {klass}"><b>{_e(value)}</b><span>{_e(label)}</span></div>' for value, label, klass in (
            (t["files"], "files", ""), (t["questions"], "questions", ""), (t["findings"], "findings", ""),
            (t["error"], "errors", "error"), (t["warning"], "warnings", "warning"), (t["info"], "info", "info"),
            (len(s.near_duplicates.clusters), "dup clusters", "")))
    paths = " ".join(f"<code>{_e(p)}</code>" for p in s.paths) or "<code>.</code>"
    nav = "".join(f'<a href="#{key}">{_e(title)}</a>' for key, title in (*SECTIONS, *((k, t) for k, t, _ in sections)))
    bodies = {
        "keys": _section_keys(plt, s),
        "reading": _section_reading(plt, s, base),
        "lengths": _section_lengths(plt, s, base),
        "findings": _section_findings(plt, s, findings, base),
        "coverage": _section_coverage(plt, s),
        "clusters": _section_clusters(s, base),
    }
    bodies.update({key: body for key, _, body in sections})
    sections = "".join(f'<section id="{key}"><h2>{_e(title)}</h2>{bodies[key]}</section>'
                       for key, title in (*SECTIONS, *((k, t) for k, t, _ in sections)))
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="qlint {_e(__version__)}">
<title>{_e(s.name)} \u00b7 qlint bank report</title>
<style>{CSS}</style>
</head>
<body>
<header>
<h1>Bank report: {_e(s.name)}</h1>
<div class="sub">{paths} \u00b7 {plural(t['questions'], 'question')} in {plural(t['files'], 'file')} \u00b7 \
{plural(s.rules_run, 'rule')} \u00b7 \
qlint {_e(__version__)}</div>
<div class="totals">{totals}</div>
</header>
<nav>{nav}</nav>
<main>
{sections}
</main>
<footer>Generated by <code>qlint report</code>. Every number comes from the same run as
<code>qlint check --format json</code>; <code>qlint stats --format json</code> prints them as data.</footer>
</body>
</html>
"""
