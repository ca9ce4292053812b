"""The item-analysis table (``qlint stats --responses``) and report section (``qlint report --responses``).

One row per question and form, in the columns a psychometrician expects: n, key, p, item-rest r, upper-lower
D, alpha if deleted, omitted, each option's share and option-rest r, and the 2PL parameters when fitted. The
report adds a difficulty-discrimination scatter and, for every flagged question, its empirical option curves:
the share choosing each option in five score groups.
"""
from __future__ import annotations

from typing import TextIO

from qlint.analysis.ctt import GROUPS
from qlint.report.html import chart_text, render_template, svg_of
from qlint.wording import letter

FLAGGING = ("likely-miskeyed", "non-discriminating", "too-easy", "too-hard", "non-functioning-distractor",
            "alpha-if-deleted")


def _r(value: float | None, spec: str = ".2f") -> str:
    return "-" if value is None or value != value else format(value, spec)   # NaN: a bound hit, no estimate


def item_rows(analysis) -> list[dict]:
    """The table as data: one dict per question and form (JSON-ready)."""
    irt = {(i.form, i.qi): i for i in analysis.irt}
    flags: dict[tuple[str, str], list[str]] = {}
    for f in analysis.findings:
        if f.question is not None and f.rule in FLAGGING:
            flags.setdefault(("", f.question), []).append(f.rule)
    rows = []
    for s in analysis.stats.items:
        q = analysis.questions[s.qi]
        fit = irt.get((s.form, s.qi))
        rows.append({
            "id": q.id, "form": s.form, "path": q.loaded.path, "line": q.loaded.line, "n": s.n,
            "key": letter(s.key), "p": s.p, "item_rest": s.item_rest, "discrimination": s.discrimination,
            "alpha_if_deleted": s.alpha_if_deleted, "omitted": s.omitted,
            "options": [{"option": letter(o.opt), "share": o.proportion, "rest_pb": o.rest_pb, "groups": list(o.groups)}
                        for o in s.options],
            "irt": None if fit is None else {"a": fit.discrimination, "a_se": fit.discrimination_se,
                                             "b": fit.difficulty, "b_se": fit.difficulty_se,
                                             "s_x2": fit.fit_s_x2, "df": fit.fit_df, "p": fit.fit_p},
            "flags": sorted(set(flags.get(("", q.id), []))),
        })
    return rows


def render_text(analysis, out: TextIO, *, colour: bool | None = None, width: int | None = None) -> None:
    """The item-analysis table in the terminal (rich): fitted to its width, else a question at a time."""
    # rich is in the report extra; the JSON rows above need none of it
    from qlint.report.terminal import Grid, console_for, show

    console = console_for(out, colour, width)
    for form in analysis.stats.forms:
        title = (f"Item analysis{f' form {form.form}' if form.form else ''}: {form.persons} persons, {form.items} "
                 f"questions, KR-20 {_r(form.alpha, '.3f')}, mean {form.mean:.2f}, sd {form.sd:.2f}")
        irt = any(a.form == form.form for a in analysis.irt)
        columns = ["id", "n", "key", "p", "item-rest r", "D (27%)", "alpha if deleted", "omit",
                   "options: share / option-rest r"]
        columns += ["a (se)", "b (se)", "S-X2 p"] if irt else []
        table = Grid(title, columns, frozenset({1, 3, 4, 5, 6, 7} | ({9, 10, 11} if irt else set())))
        for row in item_rows(analysis):
            if row["form"] != form.form:
                continue
            # one option's share and option-rest r as one word: a table may wrap between options, never inside one
            options = "  ".join(f"{o['option']}:{o['share']:.2f}/{_r(o['rest_pb'], '+.2f')}" for o in row["options"])
            cells = [row["id"] + (" !" if row["flags"] else ""), row["n"], row["key"], f"{row['p']:.2f}",
                     _r(row["item_rest"], "+.2f"), _r(row["discrimination"], "+.2f"), _r(row["alpha_if_deleted"], ".3f"),
                     row["omitted"], options]
            if irt:
                fit = row["irt"] or {}
                cells += [f"{_r(fit.get('a'))} ({_r(fit.get('a_se'))})", f"{_r(fit.get('b'))} ({_r(fit.get('b_se'))})",
                          _r(fit.get("p"), ".3f")]
            table.add(*cells)
        show(console, table)
    console.print("! flagged by a response rule (qlint analyze lists why)")


def chart_scatter(plt, analysis) -> str:
    """Difficulty (p) against item-rest discrimination, flagged questions marked."""
    rows = item_rows(analysis)
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    for flagged, colour, label in ((False, "#4c78a8", "not flagged"), (True, "#e45756", "flagged")):
        picked = [r for r in rows if bool(r["flags"]) == flagged and r["item_rest"] is not None]
        ax.scatter([r["p"] for r in picked], [r["item_rest"] for r in picked], s=22, color=colour, label=label)
    ax.axhline(0.15, color="#8a949e", linewidth=0.8, linestyle="--")
    ax.set_xlim(0, 1)
    ax.set_xlabel("difficulty p (proportion correct)")
    ax.set_ylabel("item-rest correlation")
    ax.set_title("Difficulty and discrimination")
    ax.legend(loc="lower right", frameon=False)
    return svg_of(fig, "ia-scatter", "Difficulty and discrimination of every question")


def chart_option_curves(plt, row: dict, index: int) -> str:
    """Share choosing each option in the five score groups: the key should rise, distractors fall."""
    fig, ax = plt.subplots(figsize=(4.6, 3.0))
    groups = list(range(1, GROUPS + 1))
    for option in row["options"]:
        is_key = option["option"] == row["key"]
        ax.plot(groups, option["groups"], marker="o", linewidth=2.4 if is_key else 1.2,
                label=f"{option['option']}{' (key)' if is_key else ''}")
    ax.set_ylim(0, 1)
    ax.set_xticks(groups, ["lowest", "2", "3", "4", "highest"])
    ax.set_xlabel("score group (fifths by total score)")
    ax.set_ylabel("share choosing")
    ax.set_title(f"{chart_text(row['id'])}: option curves")
    ax.legend(loc="upper left", frameon=False, fontsize=8)
    return svg_of(fig, f"ia-curve-{index}", f"Option curves of question {row['id']}")


def html_section(plt, analysis, limit: int = 40) -> str:
    """The report's item-analysis section: summary, scatter, table, and option curves of flagged questions."""
    rows = item_rows(analysis)
    forms = "; ".join(f"{f.form or 'all'}: {f.persons} persons, {f.items} questions, KR-20 {_r(f.alpha, '.3f')}"
                      for f in analysis.stats.forms)
    table = [[r["id"], r["n"], r["key"], round(r["p"], 3), _r(r["item_rest"], "+.2f"), _r(r["discrimination"], "+.2f"),
              _r(r["alpha_if_deleted"], ".3f"), r["omitted"],
              "  ".join(f"{o['option']} {o['share']:.2f}/{_r(o['rest_pb'], '+.2f')}" for o in r["options"]),
              ", ".join(r["flags"])] for r in rows]
    flagged = [r for r in rows if r["flags"]]
    return render_template("items.html.j2", forms=forms, summary=" ".join(analysis.summary()[:1]),
                           scatter=chart_scatter(plt, analysis), rows=table,
                           curves=[chart_option_curves(plt, r, i) for i, r in enumerate(flagged[:limit])],
                           more=len(flagged) - limit)
