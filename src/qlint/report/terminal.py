"""``qlint stats``: the bank summary as rich tables, for people who live in the shell.

Bank text (ids, tags, objectives, folder and file names, messages) is never markup and never reaches the terminal
as control characters: rich's markup and emoji codes are off, and every cell is plain text with control
characters shown as escapes (``\\x1b``), so a tag like ``[/]`` or an escape sequence in a name prints as it is
written. A table is fitted to the terminal without breaking a word (numbers never wrap); one that cannot fit is
printed a row at a time instead, each value beside its column's name.

rich is part of the ``report`` extra: this module is imported only when ``stats`` prints tables.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TextIO

from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from qlint.output.base import escape_text
from qlint.report.summary import LETTERS, BankSummary
from qlint.wording import plural

SEVERITY_STYLES = {"error": "bold red", "warning": "yellow", "info": "cyan"}
MAX_ROWS = 25
# characters that reorder what a terminal shows (bidirectional embeddings, overrides and isolates)
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def plain(value, style: str = "") -> Text:
    """A value as terminal text: never markup, control and bidirectional characters shown as escapes."""
    text = escape_text(_fmt(value))
    return Text(_BIDI.sub(lambda m: f"\\u{ord(m.group()):04x}", text), style=style)


def _fmt(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


@dataclass
class Grid:
    """A table as data: printed as a table fitted to the terminal, or a row at a time when none fits."""

    title: str
    columns: Sequence[str]
    numeric: frozenset[int] = frozenset()
    rows: list[list] = field(default_factory=list)
    caption: str | None = None

    def add(self, *cells) -> None:
        self.rows.append([c if isinstance(c, Text) else plain(c) for c in cells])


class _Console(Console):
    def on_broken_pipe(self) -> None:
        """A reader that left (``qlint stats | head``): stop printing and let the command end with its own exit
        code. rich's own handler exits 1, which fails a ``set -o pipefail`` pipeline that nothing went wrong in."""
        self.quiet = True
        raise BrokenPipeError


def console_for(out: TextIO, colour: bool | None, width: int | None) -> Console:
    """A console that prints text as it is: no markup, no emoji codes, no highlighting."""
    return _Console(file=out, force_terminal=colour, no_color=colour is False, width=width or None, highlight=False,
                   soft_wrap=False, markup=False, emoji=False)


def show(console: Console, grid: Grid) -> None:
    """Print ``grid`` as a table when one fits the console's width without breaking a word, else a row at a time."""
    heads = [plain(c) for c in grid.columns]
    for head in heads:   # a heading may wrap between its words, even over a column of numbers that never wraps
        head.no_wrap = False
    widths = _widths(console, heads, grid.rows, grid.numeric)
    if widths is None:
        _records(console, grid, heads)
        return
    # at least as wide as its title and caption (as far as the console allows), so that they wrap only when they must
    wanted = max(len(grid.title), len(grid.caption or ""))
    table = Table(title=plain(grid.title, "bold"), title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                  caption=plain(grid.caption) if grid.caption else None, caption_justify="left",
                  min_width=min(wanted, console.width))
    for i, (head, width) in enumerate(zip(heads, widths)):
        table.add_column(head, justify="right" if i in grid.numeric else "left", width=width,
                         no_wrap=i in grid.numeric, overflow="fold")
    for row in grid.rows:
        table.add_row(*row)
    console.print(table)


def _widths(console: Console, heads: list[Text], rows: list[list[Text]], numeric: frozenset[int]) -> list[int] | None:
    """Column widths that fit the console: every column at least its longest word (a numeric column its longest
    value), what is left shared out towards each column's widest cell; None when even the least does not fit."""
    n = len(heads)
    least, most = [0] * n, [0] * n
    for row, cells in enumerate((heads, *rows)):
        for i, cell in enumerate(cells):
            span = Measurement.get(console, console.options, cell)
            least[i] = max(least[i], span.maximum if i in numeric and row else span.minimum)
            most[i] = max(most[i], span.maximum)
    room = console.width - (3 * n - 1)   # SIMPLE_HEAD without edge padding: one space each side of a separator
    if sum(least) > room:
        return None
    widths, spare = list(least), room - sum(least)
    for i in sorted(range(n), key=lambda i: most[i] - least[i]):   # the smallest needs are met first
        extra = min(spare, most[i] - widths[i])
        widths[i] += extra
        spare -= extra
    return widths


def _records(console: Console, grid: Grid, heads: list[Text]) -> None:
    """The rows one at a time: a row's name (its first cell, unless that is a number), then each value beside its
    column's name, filled into lines; a line breaks between values, or inside a long value between its words,
    never inside a word or number."""
    console.print(plain(grid.title, "bold"))
    width = console.width - 2
    for row in grid.rows:
        first = 0 if 0 in grid.numeric else 1
        if first and row[0].plain:
            console.print(row[0], no_wrap=True, crop=False, overflow="ignore")
        units: list[tuple[Text, str]] = []
        for i, cell in enumerate(row[first:], first):
            if cell.plain:
                units += _units(Text.assemble(heads[i], " ", cell), width)
        for line in _fill(units, width):
            console.print(Text("  ") + line, no_wrap=True, crop=False, overflow="ignore")
    if grid.caption:
        console.print(plain(grid.caption))
    console.print()


def _units(pair: Text, width: int) -> list[tuple[Text, str]]:
    """A name and its value as one unit (two spaces before it), or as its words when it is longer than a line."""
    if pair.cell_len <= width:
        return [(pair, "  ")]
    return [(word, " " if i else "  ") for i, word in enumerate(pair.split(" ")) if word.plain]


def _fill(units: list[tuple[Text, str]], width: int) -> list[Text]:
    lines: list[Text] = []
    for unit, gap in units:
        if lines and lines[-1].cell_len + len(gap) + unit.cell_len <= width:
            lines[-1] = Text.assemble(lines[-1], gap, unit)
        else:
            lines.append(unit)
    return lines


def _totals(console: Console, s: BankSummary) -> None:
    t = s.totals
    head = Grid(f"Bank {s.name}", ("files", "questions", "findings", "error", "warning", "info", "rules run"),
                frozenset(range(7)))
    head.add(t["files"], t["questions"], t["findings"], t["error"], t["warning"], t["info"], s.rules_run)
    show(console, head)


def key_title(k) -> str:
    """The key-position verdict naming the test that found it."""
    biased = [f"{g.options} options, {g.test}" for g in k.groups if g.biased]
    if biased:
        return f"Answer-key positions: biased ({'; '.join(biased)}; alpha {k.alpha:g} shared)"
    if k.verdict == "runs":
        return "Answer-key positions: spread evenly, but keys repeat in long runs"
    return f"Answer-key positions: {k.verdict} (alpha {k.alpha:g} shared among the option counts)"


def _key_positions(console: Console, s: BankSummary) -> None:
    k = s.key_positions
    width_k = max((g.options for g in k.groups), default=0)
    keys = Grid(key_title(k), ("options", "n", *LETTERS[:width_k], "expected", "test", "statistic", "p", "verdict"),
                frozenset(range(width_k + 3)) | {width_k + 4, width_k + 5})
    for g in k.groups:
        statistic = "-" if g.statistic is None else f"{g.statistic:.1f}" if g.test == "chi-square" else f"{g.statistic:.0f}"
        keys.add(g.options, g.questions, *[g.counts[i] if i < g.options else "" for i in range(width_k)], g.expected,
                 g.test or "-", statistic, "-" if g.p_value is None else f"{g.p_value:.2g}",
                 g.reason.split(":")[0] + (" (runs)" if g.runs else ""))
    show(console, keys)
    for f in k.findings:
        console.print(Text.assemble("  ", plain(f["code"], "yellow"), " ", plain(f"{f['path']}:{f['line']}: "),
                                    plain(f["message"])))
    if k.excluded:
        console.print(f"  {plural(k.excluded, 'multiple-key or key-less question')} "
                      f"{'is' if k.excluded == 1 else 'are'} not part of the test.")


def _reading(console: Console, s: BankSummary) -> None:
    r = s.reading
    limits = r.limits
    over = r.reported
    lengths = Grid(f"Reading level (limits: sentence {limits.get('max_sentence_words')}, stem "
                   f"{limits.get('max_stem_words')}, option {limits.get('max_option_words')} words; reported above "
                   f"{over.get('max_sentence_words')}, {over.get('max_stem_words')}, {over.get('max_option_words')})",
                   ("stems", "long sentences", "long stems", "long options", "passages", "findings"),
                   frozenset(range(6)))
    lengths.add(r.stems, r.long_sentences, r.long_stems, r.long_options, r.passages, r.findings)
    show(console, lengths)
    grades = Grid(f"Reading grade (Flesch-Kincaid, {r.min_words}+ words, target <= {r.target:g})",
                  ("graded", "too short", "above target", "findings", "mean", "median", "max"), frozenset(range(7)))
    grades.add(r.graded, r.too_short, r.above_target, r.grade_findings, r.mean, r.median, r.max)
    show(console, grades)
    if len(r.objectives) > 1:
        per = Grid("Reading by objective", ("objective", "stems", "long sentences", "long stems", "median words",
                                            "graded", "median grade"), frozenset(range(1, 7)))
        for o in r.objectives[:MAX_ROWS]:
            per.add(o["objective"] or "(no objective)", *(o[k] for k in (
                "stems", "long_sentences", "long_stems", "median_words", "graded", "median_grade")))
        show(console, per)


def _lengths(console: Console, s: BankSummary) -> None:
    length = s.lengths
    lengths = Grid("Option-length ratio (key chars / mean distractor chars)", ("ratio band", "questions"),
                   frozenset({1}), caption=f"median {_fmt(length.median)}, max {_fmt(length.max)}; key longer than "
                                           f"every distractor: {length.key_longest}; option-length findings: "
                                           f"{length.findings}")
    for b in length.bands:
        lengths.add(b["band"], b["questions"])
    show(console, lengths)
    if length.bias is None:
        console.print("Longest option as key: key-length-bias is not enabled in this run.")
        return
    bias = Grid(f"Longest option as key (clearly longest: {length.bias['min_ratio']:g}x the next)",
                ("group", "questions", "the key", "rate", "chance", "p"), frozenset(range(1, 6)))
    for g in length.bias["groups"][:MAX_ROWS]:
        bias.add(g["kind"] + (f" {g['name']}" if g["name"] else ""), g["questions"], g["key_longest"],
                 "-" if g["rate"] is None else f"{g['rate']:.0%}", "-" if g["chance"] is None else f"{g['chance']:.0%}",
                 f"{g['p_value']:.2g}" if g["tested"] else "not tested")
    show(console, bias)
    for f in length.bias_findings:
        console.print(Text.assemble("  ", plain(f["code"], "yellow"), " ", plain(f"{f['path']}:{f['line']}: "),
                                    plain(f["message"])))


def _by_rule(console: Console, s: BankSummary) -> None:
    fired = [rc for rc in s.by_rule if rc.findings]
    rules = Grid(f"Findings by rule ({len(fired)} of {plural(len(s.by_rule), 'rule')} fired)",
                 ("code", "rule", "severity", "findings", "error", "warning", "info"), frozenset({3, 4, 5, 6}))
    for rc in fired:
        rules.add(rc.code, rc.name, plain(rc.severity or "-", SEVERITY_STYLES.get(rc.severity, "")), rc.findings,
                  rc.error, rc.warning, rc.info)
    if not fired:
        rules.add("", "no findings", "", 0, 0, 0, 0)
    show(console, rules)


def _by_folder(console: Console, s: BankSummary) -> None:
    folders = Grid("Findings by folder", ("folder", "files", "questions", "findings", "error", "warning", "info"),
                   frozenset({1, 2, 3, 4, 5, 6}))
    for fc in s.by_folder:
        folders.add(fc.folder, fc.files, fc.questions, fc.findings, fc.error, fc.warning, fc.info)
    show(console, folders)


def _coverage(console: Console, s: BankSummary) -> None:
    c = s.coverage
    for title, items, none_label, none_count in (
            ("Coverage by objective", c.objectives, "(no objective)", c.no_objective),
            ("Coverage by tag", c.tags, "(untagged)", c.no_tags),
            ("Coverage by difficulty", c.difficulty, "(none)", c.no_difficulty)):
        cov = Grid(f"{title} ({len(items)})", ("name", "questions"), frozenset({1}))
        for item in items[:MAX_ROWS]:
            cov.add(item["name"], item["questions"])
        if len(items) > MAX_ROWS:
            cov.add(f"... {len(items) - MAX_ROWS} more", "")
        if none_count:
            cov.add(none_label, none_count)
        show(console, cov)


def _clusters(console: Console, s: BankSummary) -> None:
    n = s.near_duplicates
    if not n.rule_active:
        console.print("Near-duplicate clusters: near-duplicate-stem is not enabled in this run.")
        return
    clusters = Grid(f"Near-duplicate clusters ({plural(len(n.clusters), 'cluster')}, "
                    f"{plural(n.questions_in_clusters, 'question')}, {plural(n.findings, 'finding')}, "
                    f"threshold {n.threshold:g})", ("cluster", "question", "where", "max %"), frozenset({0, 3}))
    for cl in n.clusters:
        for i, m in enumerate(cl.members):
            clusters.add(cl.number if i == 0 else "", m.id, f"{m.path}:{m.line}", cl.max_similarity if i == 0 else "")
    if not n.clusters:
        clusters.add("", "none", "", "")
    show(console, clusters)


SECTIONS = (_totals, _key_positions, _reading, _lengths, _by_rule, _by_folder, _coverage, _clusters)


def render(summary: BankSummary, out: TextIO, *, colour: bool | None = None, width: int | None = None) -> None:
    """The summary as tables, one per section, in the report's order."""
    console = console_for(out, colour, width)
    for section in SECTIONS:
        section(console, summary)
