"""``qlint stats``: the bank summary as rich tables, for people who live in the shell.

rich is part of the ``report`` extra: this module is imported only when ``stats`` prints tables.
"""
from __future__ import annotations

from typing import TextIO

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from qlint.report.summary import LETTERS, BankSummary
from qlint.wording import plural

SEVERITY_STYLES = {"error": "bold red", "warning": "yellow", "info": "cyan"}
MAX_ROWS = 25


def _fmt(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _table(title: str, *columns: str, numeric: tuple[int, ...] = ()) -> Table:
    tab = Table(title=title, title_justify="left", title_style="bold", box=box.SIMPLE_HEAD, pad_edge=False,
                min_width=len(title))
    for i, column in enumerate(columns):
        tab.add_column(column, justify="right" if i in numeric else "left", overflow="fold", no_wrap=i in numeric)
    return tab


def _totals(console: Console, s: BankSummary) -> None:
    t = s.totals
    head = _table(f"Bank {s.name}", "files", "questions", "findings", "error", "warning", "info", "rules run",
                  numeric=tuple(range(7)))
    head.add_row(*(_fmt(v) for v in (t["files"], t["questions"], t["findings"], t["error"], t["warning"], t["info"],
                                     s.rules_run)))
    console.print(head)


def _key_positions(console: Console, s: BankSummary) -> None:
    k = s.key_positions
    width_k = max((g.options for g in k.groups), default=0)
    keys = _table(f"Answer-key positions: {k.verdict} (chi-square, alpha {k.alpha:g})", "options", "n",
                  *LETTERS[:width_k], "expected", "chi2", "p", "verdict",
                  numeric=tuple(range(width_k + 5)))
    for g in k.groups:
        keys.add_row(str(g.options), str(g.questions), *[str(g.counts[i]) if i < g.options else "" for i in range(width_k)],
                     _fmt(g.expected), "-" if g.statistic is None else f"{g.statistic:.1f}",
                     "-" if g.p_value is None else f"{g.p_value:.2g}", g.reason.split(":")[0])
    console.print(keys)
    for f in k.findings:
        console.print(f"  [yellow]{f['code']}[/] {escape(f['path'])}:{f['line']}: {escape(f['message'])}", markup=True)
    if k.excluded:
        console.print(f"  {plural(k.excluded, 'multiple-key or key-less question')} "
                      f"{'is' if k.excluded == 1 else 'are'} not part of the test.")


def _reading(console: Console, s: BankSummary) -> None:
    r = s.reading
    limits = r.limits
    lengths = _table(f"Reading level (limits: sentence {limits.get('max_sentence_words')}, stem "
                     f"{limits.get('max_stem_words')}, option {limits.get('max_option_words')} words)", "stems",
                     "long sentences", "long stems", "long options", "passages", "findings", numeric=tuple(range(6)))
    lengths.add_row(*(_fmt(v) for v in (r.stems, r.long_sentences, r.long_stems, r.long_options, r.passages,
                                        r.findings)))
    console.print(lengths)
    grades = _table(f"Reading grade (Flesch-Kincaid, {r.min_words}+ words, target <= {r.target:g})", "graded",
                    "too short", "above target", "findings", "mean", "median", "max", numeric=tuple(range(7)))
    grades.add_row(*(_fmt(v) for v in (r.graded, r.too_short, r.above_target, r.grade_findings, r.mean, r.median,
                                       r.max)))
    console.print(grades)
    if len(r.objectives) > 1:
        per = _table("Reading by objective", "objective", "stems", "long sentences", "long stems", "median words",
                     "graded", "median grade", numeric=(1, 2, 3, 4, 5, 6))
        for o in r.objectives[:MAX_ROWS]:
            per.add_row(escape(o["objective"] or "(no objective)"), *(_fmt(o[k]) for k in (
                "stems", "long_sentences", "long_stems", "median_words", "graded", "median_grade")))
        console.print(per)


def _lengths(console: Console, s: BankSummary) -> None:
    length = s.lengths
    lengths = _table("Option-length ratio (key chars / mean distractor chars)", "ratio band", "questions",
                     numeric=(1,))
    for b in length.bands:
        lengths.add_row(b["band"], str(b["questions"]))
    lengths.caption = (f"median {_fmt(length.median)}, max {_fmt(length.max)}; key longer than every distractor: "
                       f"{length.key_longest}; option-length findings: {length.findings}")
    lengths.caption_justify = "left"
    console.print(lengths)
    if length.bias is None:
        console.print("Longest option as key: key-length-bias is not enabled in this run.")
        return
    bias = _table(f"Longest option as key (clearly longest: {length.bias['min_ratio']:g}x the next)", "group",
                  "questions", "the key", "rate", "chance", "p", numeric=(1, 2, 3, 4, 5))
    for g in length.bias["groups"][:MAX_ROWS]:
        name = g["kind"] + (f" {g['name']}" if g["name"] else "")
        bias.add_row(escape(name), str(g["questions"]), str(g["key_longest"]),
                     "-" if g["rate"] is None else f"{g['rate']:.0%}", "-" if g["chance"] is None else f"{g['chance']:.0%}",
                     f"{g['p_value']:.2g}" if g["tested"] else "not tested")
    console.print(bias)
    for f in length.bias_findings:
        console.print(f"  [yellow]{f['code']}[/] {escape(f['path'])}:{f['line']}: {escape(f['message'])}", markup=True)


def _by_rule(console: Console, s: BankSummary) -> None:
    fired = [rc for rc in s.by_rule if rc.findings]
    rules = _table(f"Findings by rule ({len(fired)} of {plural(len(s.by_rule), 'rule')} fired)", "code", "rule",
                   "severity", "findings", "error", "warning", "info", numeric=(3, 4, 5, 6))
    for rc in fired:
        rules.add_row(rc.code, rc.name, f"[{SEVERITY_STYLES.get(rc.severity, '')}]{rc.severity}[/]" if rc.severity else "-",
                      str(rc.findings), str(rc.error), str(rc.warning), str(rc.info))
    if not fired:
        rules.add_row("", "no findings", "", "0", "0", "0", "0")
    console.print(rules)


def _by_folder(console: Console, s: BankSummary) -> None:
    folders = _table("Findings by folder", "folder", "files", "questions", "findings", "error", "warning", "info",
                     numeric=(1, 2, 3, 4, 5, 6))
    for fc in s.by_folder:
        folders.add_row(fc.folder, str(fc.files), str(fc.questions), str(fc.findings), str(fc.error), str(fc.warning),
                        str(fc.info))
    console.print(folders)


def _coverage(console: Console, s: BankSummary) -> None:
    c = s.coverage
    for title, items, none_label, none_count in (
            ("Coverage by objective", c.objectives, "(no objective)", c.no_objective),
            ("Coverage by tag", c.tags, "(untagged)", c.no_tags),
            ("Coverage by difficulty", c.difficulty, "(none)", c.no_difficulty)):
        cov = _table(f"{title} ({len(items)})", "name", "questions", numeric=(1,))
        for item in items[:MAX_ROWS]:
            cov.add_row(item["name"], str(item["questions"]))
        if len(items) > MAX_ROWS:
            cov.add_row(f"... {len(items) - MAX_ROWS} more", "")
        if none_count:
            cov.add_row(none_label, str(none_count))
        console.print(cov)


def _clusters(console: Console, s: BankSummary) -> None:
    n = s.near_duplicates
    if not n.rule_active:
        console.print("Near-duplicate clusters: near-duplicate-stem is not enabled in this run.")
        return
    clusters = _table(f"Near-duplicate clusters ({plural(len(n.clusters), 'cluster')}, "
                      f"{plural(n.questions_in_clusters, 'question')}, {plural(n.findings, 'finding')}, "
                      f"threshold {n.threshold:g})", "cluster", "question", "where", "max %",
                      numeric=(0, 3))
    for cl in n.clusters:
        for i, m in enumerate(cl.members):
            clusters.add_row(str(cl.number) if i == 0 else "", m.id, f"{m.path}:{m.line}",
                             _fmt(cl.max_similarity) if i == 0 else "")
    if not n.clusters:
        clusters.add_row("", "none", "", "")
    console.print(clusters)


SECTIONS = (_totals, _key_positions, _reading, _lengths, _by_rule, _by_folder, _coverage, _clusters)


def render(summary: BankSummary, out: TextIO, *, colour: bool | None = None, width: int | None = None) -> None:
    """The summary as tables, one per section, in the report's order."""
    console = Console(file=out, force_terminal=colour, no_color=colour is False, width=width or None,
                      highlight=False, soft_wrap=False)
    for section in SECTIONS:
        section(console, summary)
