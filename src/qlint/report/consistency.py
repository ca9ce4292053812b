"""The bank-consistency part of ``qlint stats`` and the report: blueprint coverage (target against actual per
domain and objective, and the difficulty mix), keys that contradict each other, and questions that give each other
away. Everything comes from what the rules publish about the run (``Run.published``), never a second count.
"""
from __future__ import annotations

from typing import TextIO

from qlint.language.words import short
from qlint.report.html import render_template, svg_of
from qlint.wording import plural

BLUEPRINT, CONTRADICTIONS, ENEMIES = "blueprint-coverage", "contradictory-keys", "enemy-items"
MAX_LISTED = 200
_STATUS = {"ok": "ok", "under": "under", "over": "over", "missing": "missing", "too few": "too few"}


def published(run) -> dict:
    """What the bank-consistency rules publish about this run, by section; a rule that did not run (or has nothing
    to say: no blueprint) is left out."""
    out = {}
    for key, name in (("blueprint", BLUEPRINT), ("contradictions", CONTRADICTIONS), ("enemies", ENEMIES)):
        data, _, ran = run.published(name)
        if ran and data is not None:
            out[key] = data
    return out


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}".replace(".0%", "%")


def _label(row: dict) -> str:
    name = row["name"] if row["name"] != row["id"] else ""
    return f"{row['id']} {name}".strip() if row["kind"] == "domain" else f"  {row['id']} {name}".rstrip()


def coverage_rows(data: dict) -> list[list[str]]:
    """The coverage table's rows: domain or objective, target share, target on a form, questions, share, minimum,
    status."""
    return [[_label(r), _pct(r["target_share"]), "-" if r["target_count"] is None else f"{r['target_count']:.1f}",
             str(r["questions"]), _pct(r["share"]), "-" if r["minimum"] is None else str(r["minimum"]),
             _STATUS.get(r["status"], r["status"])] for r in data["rows"]]


COVERAGE_COLUMNS = ["domain / objective", "target", "on a form", "questions", "share", "minimum", "status"]


def _footnote(data: dict) -> str:
    unknown = sum(data["unknown"].values())

    def names(n: int) -> str:
        return f"{n} {'names' if n == 1 else 'name'}"

    parts = [f"{data['counted']} of {plural(data['total'], 'question')} {'names' if data['total'] == 1 else 'name'} "
             "a blueprint objective"]
    if unknown:
        parts.append(f"{names(unknown)} one it does not have ({', '.join(sorted(data['unknown'])[:5])})")
    if data["no_objective"]:
        parts.append(f"{names(data['no_objective'])} none")
    return "; ".join(parts)


def render_text(sections: dict, out: TextIO, *, colour: bool | None = None, width: int | None = None) -> None:
    """The sections as terminal tables (rich)."""
    # rich is in the report extra, loaded by ``stats`` only when it prints tables
    from rich import box
    from rich.console import Console
    from rich.table import Table

    console = Console(file=out, force_terminal=colour, no_color=colour is False, width=width or None,
                      highlight=False, soft_wrap=False, markup=False)  # bank text may hold "[/x]"

    def table(title: str, columns: list[str], numeric: tuple[int, ...]) -> Table:
        tab = Table(title=title, title_justify="left", title_style="bold", box=box.SIMPLE_HEAD, pad_edge=False)
        for i, column in enumerate(columns):
            tab.add_column(column, justify="right" if i in numeric else "left", overflow="fold")
        return tab

    if "blueprint" in sections:
        data = sections["blueprint"]
        tab = table(f"Blueprint coverage: {data['blueprint'] or 'the blueprint'}", COVERAGE_COLUMNS, (1, 2, 3, 4, 5))
        for row in coverage_rows(data):
            tab.add_row(*row)
        for level in data["difficulty"]:
            tab.add_row(f"difficulty {level['level']}", _pct(level["target"]), "-", str(level["questions"]),
                        _pct(level["share"]), "-", level["status"])
        tab.caption, tab.caption_justify = _footnote(data), "left"
        console.print(tab)
    for key, title in (("contradictions", "Keys that contradict each other"),
                       ("enemies", "Questions that give each other away")):
        if key in sections:
            rows = pair_rows(key, sections[key])
            tab = table(f"{title} ({len(rows)})", ["question", "where", "other", "where", "what"], ())
            for row in rows[:MAX_LISTED] or [["none", "", "", "", ""]]:
                tab.add_row(*row)
            console.print(tab)


def pair_rows(key: str, data: list[dict]) -> list[list[str]]:
    """One row per contradiction (its first two copies) or per enemy pair."""
    rows = []
    for entry in data:
        if key == "contradictions":
            a, b = entry["copies"][0], next(c for c in entry["copies"] if c["held_true"] != entry["copies"][0]["held_true"])
            what = f"{entry['statement']!r}: {'key' if a['keyed'] else 'distractor'} / {'key' if b['keyed'] else 'distractor'}"
            if entry["why"]:
                what += f"; {next(c['id'] for c in entry['copies'] if c['probably_wrong'])} probably wrong ({entry['why']})"
        else:
            a, b = entry["gives"], entry["answers"]
            what = f"its {entry['field']} states {entry['key']!r}"
        rows.append([a["id"], f"{a['path']}:{a['line']}", b["id"], f"{b['path']}:{b['line']}", what])
    return rows


def _bars(plt, title: str, prefix: str, rows: list[dict], target, actual, label: str, unit: str) -> str:
    """One pair of bars per row: the blueprint's target (grey) and the bank's own figure (blue, red where off)."""
    from matplotlib.patches import Patch  # optional and heavy: the figure's pyplot already loaded it

    fig, ax = plt.subplots(figsize=(7.5, 0.34 * max(len(rows), 3) + 1.4))
    ax.set_title(title)
    ys = list(range(len(rows)))[::-1]
    wanted = [target(r) for r in rows]
    have = [actual(r) for r in rows]
    bars = ax.barh([y + 0.19 for y in ys], wanted, height=0.38, color="#9aa5b1")
    ax.bar_label(bars, labels=[unit.format(v) for v in wanted], padding=2, fontsize=8)
    bars = ax.barh([y - 0.19 for y in ys], have, height=0.38,
                   color=["#2c5d8a" if r["status"] == "ok" else "#c0392b" for r in rows])
    ax.bar_label(bars, labels=[unit.format(v) for v in have], padding=2, fontsize=8)
    ax.set_yticks(ys, [short(_label(r).strip(), 40) for r in rows])
    ax.set_xlabel(label)
    ax.set_xlim(0, max(wanted + have + [1]) * 1.2)
    ax.grid(axis="y", visible=False)
    ax.legend(handles=[Patch(color="#9aa5b1", label="blueprint"), Patch(color="#2c5d8a", label="this bank"),
                       Patch(color="#c0392b", label="off target")], loc="best", fontsize=8)
    fig.tight_layout()
    return svg_of(fig, prefix, title)


def _charts(plt, data: dict) -> list[str]:
    """Target against actual: the domains' shares, and each objective's questions against its minimum (or its
    share, where the blueprint weighs objectives)."""
    domains = [r for r in data["rows"] if r["kind"] == "domain"]
    charts = [_bars(plt, "Blueprint coverage by domain", "chart-blueprint", domains, lambda r: r["target_share"] * 100,
                    lambda r: r["share"] * 100, "share of the questions that name a blueprint objective (%)",
                    "{:.1f}%")]
    objectives = [r for r in data["rows"] if r["kind"] == "objective"]
    if objectives and all(r["minimum"] is not None for r in objectives):
        charts.append(_bars(plt, "Questions per objective against the minimum", "chart-blueprint-objectives",
                            objectives, lambda r: r["minimum"], lambda r: r["questions"], "questions", "{:g}"))
    elif objectives and all(r["target_share"] is not None for r in objectives):
        charts.append(_bars(plt, "Blueprint coverage by objective", "chart-blueprint-objectives", objectives,
                            lambda r: r["target_share"] * 100, lambda r: r["share"] * 100, "share (%)", "{:.1f}%"))
    return charts


def html_sections(plt, sections: dict) -> tuple[tuple[str, str, str], ...]:
    """The report's sections (key, title, HTML body) for what the rules published."""
    out = []
    if "blueprint" in sections:
        data = sections["blueprint"]
        rows = coverage_rows(data) + [[f"difficulty {d['level']}", _pct(d["target"]), "-", str(d["questions"]),
                                       _pct(d["share"]), "-", d["status"]] for d in data["difficulty"]]
        out.append(("blueprint", "Blueprint coverage", render_template(
            "blueprint.html.j2", blueprint=data["blueprint"], footnote=_footnote(data), charts=_charts(plt, data),
            columns=COVERAGE_COLUMNS, rows=rows)))
    for key, title in (("contradictions", "Contradictory keys"), ("enemies", "Enemy items")):
        if key in sections:
            out.append((key, title, render_template("pairs.html.j2", rows=pair_rows(key, sections[key]),
                                                    limit=MAX_LISTED)))
    return tuple(out)
