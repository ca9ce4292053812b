#!/usr/bin/env python3
"""Measure every speed target of qlint in one run and print one table of ratios, each beside its target.

usage:
  python benchmarks/all.py                                    # the real corpora, a 100k synthetic bank, start-up
  python benchmarks/all.py --questions 2000 --corpus javascript-questions --runs 5   # a quick look
  python benchmarks/all.py --against OLD/src                  # an older source tree too, run by run beside this one
  python benchmarks/all.py --bank BANK --skip corpora         # a gen_bank.py bank made before (copied, not touched)

For each bank (the real corpora of ../shared/corpora written by their to_bank.py, every corpus in a folder of its
own, and a benchmarks/gen_bank.py bank of --questions questions) it prints:
  - the GC-free libyaml parse of every file in one process (the floor the ratios are taken to),
  - `qlint check` cold (empty cache), warm (nothing changed) and with one file changed,
  - two workers against one (`--jobs 2` and `--jobs 1`, both `--no-cache`),
  - one named file in the bank, cold (no cache) and warm, as pre-commit and an editor run it,
  - the peak RSS of each run (qlint's own and its workers': qlint is started from a small forkserver process),
  - yamllint on the same files, as the peer (left out, with a note, when yamllint is not installed);
and once, from benchmarks/startup.py: `qlint --version` and a warm check of one small file (medians of --runs runs),
with yamllint on the same file as the yardstick. Each row has its ratio to the floor, or to what its target is
stated against (cold, one worker, 0.12 s, yamllint), the target and PASS or MISS. The targets are stated for the real
corpora and a bank of 100,000 questions on the 2-core machine: on a small bank the verdicts only show the script runs.

With --against OLD/src (an older qlint's source folder, e.g. the src/ of a git worktree of an older commit) every
qlint run is made for both trees, one after the other, the order swapped at each step, each tree on its own copy of
the bank (so each has its own cache), and the table adds the older tree's time and this tree's time over it.

Real corpora are left out, with a note, when ../shared/corpora is absent. Every bank, copy and output is written in
a temporary folder, deleted at the end (unless --keep); nothing is written into the checkout. The number of runs is
bounded by --rounds and --runs, and a run that does not end within an hour is stopped and counts as failed.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import startup  # noqa: E402
from common import (CHANGED_OF_COLD, COLD_OF_FLOOR, CORPORA, JOBS_SPEEDUP, NAMED_COLD_OF_FLOOR,  # noqa: E402
                    NAMED_WARM_SECONDS, RSS_1M_BYTES, TINY_OF_YAMLLINT, TINY_WARM_SECONDS, VERSION_SECONDS,
                    WARM_OF_COLD, QlintFailed, bank_files, corpus_bank, corpus_names, cross_file_findings, launcher,
                    named_file, parse_floor, qlint_env, run_qlint, synthetic_bank, timed, touch_one_file,
                    whole_folder_is_the_bank)

MAX_ROUNDS = 9
MAX_RUNS = 101
THIS, OLDER = "this", "older"


@dataclass
class Tree:
    """A qlint to time: this checkout's (``source`` None) or an older source folder, with its own copy of a bank."""
    name: str
    source: str | None
    bank: Path = Path()


@dataclass
class Row:
    label: str
    seconds: float | None = None
    rss: int | None = None
    of_floor: float | None = None
    ratio: str = ""
    target: str = ""
    ok: bool | None = None
    older: float | None = None
    older_note: str = ""


@dataclass
class Section:
    title: str
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def progress(message: str) -> None:
    print(f"  ... {message}", file=sys.stderr, flush=True)


def _digest(value: object) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


class Runs:
    """The runs of one bank: every step made for each tree, the trees' order swapped from one step to the next."""

    def __init__(self, trees: list[Tree]) -> None:
        self.trees = trees
        self.step = 0
        self.times: dict[tuple[str, str], list[float]] = {}
        self.rss: dict[tuple[str, str], int] = {}
        self.docs: dict[str, dict] = {}
        self.failed: dict[tuple[str, str], str] = {}

    def pair(self, label: str, targets, *extra: str) -> None:
        """One `qlint check` per tree; ``targets`` gives a tree's bank its arguments."""
        order = self.trees if self.step % 2 == 0 else self.trees[::-1]
        self.step += 1
        for tree in order:
            key = (label, tree.name)
            if key in self.failed:
                continue
            progress(f"{label} ({tree.name} tree)" if len(self.trees) > 1 else label)
            try:
                seconds, rss, doc = run_qlint(tree.bank, targets(tree.bank), *extra, source=tree.source)
            except QlintFailed as failure:
                if tree.source is None:
                    raise
                self.failed[key] = str(failure).split(":")[0]   # "qlint failed (2)"
                continue
            self.times.setdefault(key, []).append(seconds)
            self.rss[key] = max(self.rss.get(key, 0), rss)
            if tree.source is None:   # what the checks of agreement need, not the report (it can be large)
                self.docs[label] = {"report": _digest(doc), "findings": _digest(doc["findings"]),
                                    "cross-file": _digest(cross_file_findings(doc)), "count": len(doc["findings"]),
                                    "questions": doc["summary"]["questions"]}

    def seconds(self, label: str, tree: str = THIS) -> float | None:
        return _median(self.times.get((label, tree), []))

    def row(self, label: str, shown: str, of_floor_by: float | None, **kwargs) -> Row:
        row = Row(shown, self.seconds(label), self.rss.get((label, THIS)), **kwargs)
        if row.seconds is not None and of_floor_by:
            row.of_floor = row.seconds / of_floor_by
        if len(self.trees) > 1:
            row.older = self.seconds(label, OLDER)
            row.older_note = self.failed.get((label, OLDER), "")
        return row


def warm_up(trees: list[Tree], folder: Path) -> None:
    """Each tree's bytecode written and its imports in the file cache before anything is timed."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "one.yaml").write_text(startup.SMALL_BANK, encoding="utf-8")
    for tree in trees:
        for extra in ((), ("--no-cache",), ("--no-cache", "--jobs", "2")):
            try:
                run_qlint(folder, ["one.yaml"], *extra, source=tree.source)
            except QlintFailed:
                if tree.source is None:
                    raise


def _give_copies(bank: Path, trees: list[Tree], work: Path) -> None:
    """This tree checks ``bank``; any other gets a copy of its own in ``work`` (and so a cache of its own)."""
    for tree in trees:
        tree.bank = bank
        if tree.source is not None:
            tree.bank = work / f"{bank.name}-{tree.name}"
            shutil.rmtree(tree.bank, ignore_errors=True)
            shutil.copytree(bank, tree.bank)


def run_rounds(runs: Runs, named: str, rounds: int) -> bool:
    """Every bank step, ``rounds`` times; whether the one-file edit failed to change a file in any round."""
    whole = lambda b: [str(b)]  # noqa: E731
    edit_missed = False
    for index in range(rounds):
        if rounds > 1:
            progress(f"round {index + 1} of {rounds}")
        for tree in runs.trees:
            shutil.rmtree(tree.bank / ".qlint_cache", ignore_errors=True)
        runs.pair("cold", whole)
        runs.pair("warm", whole)
        touched = [touch_one_file(bank_files(tree.bank)) for tree in runs.trees]
        edit_missed = edit_missed or any(path.read_text(encoding="utf-8") == before for path, before in touched)
        try:
            runs.pair("changed", whole)
            runs.pair("jobs2", whole, "--no-cache", "--jobs", "2")
            runs.pair("jobs1", whole, "--no-cache", "--jobs", "1")
        finally:
            for path, before in touched:   # the next run starts from the same files
                path.write_text(before, encoding="utf-8")
        for tree in runs.trees:
            shutil.rmtree(tree.bank / ".qlint_cache", ignore_errors=True)
        runs.pair("named cold", lambda b: [named])
        runs.pair("named warm", lambda b: [named])
    return edit_missed


def bank_rows(runs: Runs, floor: float, peer: tuple[float, int, int] | None) -> list[Row]:
    """The table's rows for one bank, each with its ratio, target and verdict."""
    cold, warm, changed = runs.seconds("cold"), runs.seconds("warm"), runs.seconds("changed")
    jobs2, jobs1 = runs.seconds("jobs2"), runs.seconds("jobs1")
    named_cold, named_warm = runs.seconds("named cold"), runs.seconds("named warm")
    questions = runs.docs["cold"]["questions"]
    peak = max(rss for (_, tree), rss in runs.rss.items() if tree == THIS)
    rows = [
        Row("libyaml parse, GC off (the floor)", floor, of_floor=1.0),
        runs.row("cold", "qlint check, cold", floor, ratio=f"{cold / floor:.2f}x floor",
                 target=f"<= {COLD_OF_FLOOR}x floor", ok=cold / floor <= COLD_OF_FLOOR),
        runs.row("warm", "warm, nothing changed", floor, ratio=f"{warm / cold:.1%} of cold",
                 target=f"<= {WARM_OF_COLD:.0%} of cold", ok=warm / cold <= WARM_OF_COLD),
        runs.row("changed", "warm, one file changed", floor, ratio=f"{changed / cold:.1%} of cold",
                 target=f"<= {CHANGED_OF_COLD:.0%} of cold", ok=changed / cold <= CHANGED_OF_COLD),
        runs.row("jobs2", "--no-cache --jobs 2", floor, ratio=f"{jobs1 / jobs2:.2f}x faster than 1",
                 target=f">= {JOBS_SPEEDUP}x faster", ok=jobs1 / jobs2 >= JOBS_SPEEDUP),
        runs.row("jobs1", "--no-cache --jobs 1", floor, ratio="(the yardstick)"),
        runs.row("named cold", "one named file, cold", floor, ratio=f"{named_cold / floor:.2f}x floor",
                 target=f"<= {NAMED_COLD_OF_FLOOR}x floor", ok=named_cold / floor <= NAMED_COLD_OF_FLOOR),
        runs.row("named warm", "one named file, warm", floor,
                 ratio=f"{named_warm / NAMED_WARM_SECONDS:.2f}x the target",
                 target=f"<= {NAMED_WARM_SECONDS} s", ok=named_warm <= NAMED_WARM_SECONDS),
        Row("peak RSS, largest run", rss=peak, ratio=f"{peak / questions / 1e3:.1f} kB per question",
            target=f"1M questions < {RSS_1M_BYTES / 1e9:.0f} GB"),
    ]
    if peer:
        seconds, rss, code = peer
        ratio = f"cold {cold / seconds:.2f}x yamllint" if code in (0, 1, 2) else f"failed ({code})"
        rows.append(Row("yamllint, same files (the peer)", seconds, rss, seconds / floor, ratio=ratio))
    older_cold = runs.seconds("cold", OLDER)
    if older_cold:
        rows.append(Row("cold, this tree over the older", ratio=f"{cold / older_cold:.2f}x the older",
                        target="<= 1.00x", ok=cold / older_cold <= 1.0))
    return rows


def agreement(docs: dict[str, dict]) -> str:
    """Whether the runs that must give the same findings did."""
    return (f"{docs['cold']['count']:,} findings; "
            f"warm run's report identical to cold: {docs['warm']['report'] == docs['cold']['report']}; "
            f"cross-file findings after one change equal a --no-cache run's: "
            f"{docs['changed']['cross-file'] == docs['jobs2']['cross-file']}; "
            f"--jobs 1 and 2 agree: {docs['jobs1']['findings'] == docs['jobs2']['findings']}; "
            f"named file warm as cold: {docs['named cold']['report'] == docs['named warm']['report']}")


def measure_bank(title: str, bank: Path, trees: list[Tree], rounds: int, yamllint: list[str] | None,
                 work: Path, no_peer: str = "") -> Section:
    """Every bank measurement of one bank, for each tree, ``rounds`` times; medians of the times. Without
    ``yamllint`` the peer's row is left out and ``no_peer`` says why."""
    whole_folder_is_the_bank(bank)   # so that a file named alone is compared with the whole bank
    shutil.rmtree(bank / ".qlint_cache", ignore_errors=True)
    _give_copies(bank, trees, work)
    files = bank_files(bank)
    size = sum(f.stat().st_size for f in files)
    named = str(named_file(files).relative_to(bank))
    warm_up(trees, work / "warm-up")

    progress(f"{title}: libyaml parse of {len(files)} files")
    floor = parse_floor(files)
    runs = Runs(trees)
    try:
        edit_missed = run_rounds(runs, named, rounds)
    finally:
        for tree in trees:   # the older tree's copy is not needed any more
            if tree.bank != bank:
                shutil.rmtree(tree.bank, ignore_errors=True)
    peer = None
    if yamllint:
        progress(f"yamllint on the same {len(files)} files")
        seconds, rss, code, _ = timed([*yamllint, *(str(f.relative_to(bank)) for f in files)], bank, qlint_env())
        peer = (seconds, rss, code)

    questions = runs.docs["cold"]["questions"]
    section = Section(f"{title}: {questions:,} questions, {len(files):,} files, {size / 1e6:.1f} MB"
                      + (f", medians of {rounds} rounds" if rounds > 1 else ""), bank_rows(runs, floor, peer))
    if not yamllint and no_peer:
        section.notes.append(no_peer)
    section.notes.append(agreement(runs.docs))
    section.notes.append(f"changed and named file: {named}" + (" (the edit did not apply!)" if edit_missed else ""))
    return section


def measure_startup(runs: int, against: str | None) -> Section:
    progress(f"start-up: {runs} rounds of each command")
    medians = startup.measure(runs, against)
    section = Section(f"start-up: one small file of 2 questions, medians of {runs} runs, commands in turn")
    version, warm = medians["qlint --version"], medians["qlint check one.yaml, warm"]
    peer = medians.get("yamllint one.yaml")
    older = lambda label: medians.get(f"{label} (older)")  # noqa: E731
    rows = section.rows
    rows.append(Row("python -c pass", medians["python -c pass"], ratio="(Python alone)"))
    rows.append(Row("python -c 'import pydantic'", medians[startup.PYDANTIC], ratio="(what settings cost)"))
    rows.append(Row("qlint --version", version, ratio=f"{version / VERSION_SECONDS:.2f}x the target",
                    target=f"<= {VERSION_SECONDS} s", ok=version <= VERSION_SECONDS, older=older("qlint --version")))
    if peer:
        rows.append(Row("tiny check, warm, vs yamllint", warm, ratio=f"{warm / peer:.2f}x yamllint",
                        target=f"<= {TINY_OF_YAMLLINT}x yamllint", ok=warm / peer <= TINY_OF_YAMLLINT,
                        older=older("qlint check one.yaml, warm")))
    else:
        section.notes.append("yamllint is not installed: no peer ratio (pip install yamllint)")
    rows.append(Row("tiny check, warm", warm, ratio=f"{warm / TINY_WARM_SECONDS:.2f}x the target",
                    target=f"<= {TINY_WARM_SECONDS} s", ok=warm <= TINY_WARM_SECONDS,
                    older=older("qlint check one.yaml, warm")))
    rows.append(Row("tiny check, --no-cache", medians["qlint check one.yaml --no-cache"], ratio="(every rule run)",
                    older=older("qlint check one.yaml --no-cache")))
    if peer:
        rows.append(Row("yamllint, same file (the peer)", peer))
    return section


def _seconds(value: float | None) -> str:
    if value is None:
        return ""
    return f"{value:.3f} s" if value < 10 else f"{value:.1f} s"


def _cells(row: Row, against: str | None) -> list[str]:
    cells = [row.label, _seconds(row.seconds), f"{row.rss / 2**20:.0f} MB" if row.rss else "",
             f"{row.of_floor:.2f}x" if row.of_floor is not None else "", row.ratio, row.target,
             "" if row.ok is None else ("PASS" if row.ok else "MISS")]
    if against:
        ratio = f"{row.seconds / row.older:.2f}x" if row.older and row.seconds else ""
        cells += [_seconds(row.older) or row.older_note, ratio]
    return cells


def print_table(sections: list[Section], against: str | None) -> None:
    """One table: a title line per bank, a line per measurement, the columns aligned across all of them."""
    head = ["measurement", "time", "peak RSS", "/floor", "ratio", "target", ""]
    if against:
        head += ["older", "this/older"]
    lines = {id(section): [_cells(row, against) for row in section.rows] for section in sections}
    for cells in lines.values():
        for row in cells:
            row[0] = "  " + row[0]
    widths = [max(len(c) for c in column) for column in zip(head, *(row for rows in lines.values() for row in rows))]
    right = {1, 2, 3}   # numbers

    def fmt(cells: list[str]) -> str:
        padded = (c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths)))
        return "  ".join(padded).rstrip()

    print(fmt(head))
    print("-" * sum(widths + [2 * (len(widths) - 1)]))
    for section in sections:
        print(section.title)
        for cells in lines[id(section)]:
            print(fmt(cells))
        for note in section.notes:
            print(f"  note: {note}")


def _version(source: str | None) -> str:
    done = subprocess.run([sys.executable, "-m", "qlint", "--version"], env=qlint_env(source), capture_output=True,
                          text=True, check=False)
    return (done.stdout or done.stderr).strip().splitlines()[-1] if (done.stdout or done.stderr) else "?"


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=100000, help="the synthetic bank's size (default 100000)")
    parser.add_argument("--bank", type=Path, help="a synthetic bank made before, used instead of a new one (copied)")
    parser.add_argument("--corpus", action="append", metavar="NAME",
                        help="a corpus of ../shared/corpora to use (repeatable; default: all of them)")
    parser.add_argument("--repeat", type=int, default=1, help="write the corpora this many times (default 1)")
    parser.add_argument("--rounds", type=int, default=1, help=f"rounds of the bank runs, medians (1-{MAX_ROUNDS})")
    parser.add_argument("--runs", type=int, default=15, help=f"rounds of the start-up commands (1-{MAX_RUNS})")
    parser.add_argument("--against", metavar="SRC", help="an older qlint's source folder, run beside this one")
    parser.add_argument("--skip", action="append", default=[], choices=["corpora", "synthetic", "startup", "peer"],
                        help="leave a part out (repeatable); peer: yamllint on the banks")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder of banks")
    args = parser.parse_args()
    args.rounds = min(max(1, args.rounds), MAX_ROUNDS)
    args.runs = min(max(1, args.runs), MAX_RUNS)
    args.against = str(Path(args.against).resolve()) if args.against else None
    if args.against and not (Path(args.against) / "qlint").is_dir():
        raise SystemExit(f"--against: {args.against} holds no qlint package (give an older checkout's src/ folder)")
    return args


def corpora_bank(args: argparse.Namespace, work: Path) -> tuple[Path | None, str]:
    """The real corpora written as one bank in ``work`` and its title; no bank, and a note, without ../shared."""
    available = corpus_names()
    if not available:
        return None, f"no corpora in {CORPORA} (../shared beside the checkout): real corpora left out"
    names = args.corpus or available
    missing = [n for n in names if n not in available]
    if missing:
        raise SystemExit(f"no corpus {', '.join(missing)} in {CORPORA} (there are: {', '.join(available)})")
    progress(f"writing {len(names)} corpora as a bank")
    bank = work / "corpora"
    corpus_bank(bank, names, args.repeat)
    title = "real corpora" + (f" ({', '.join(names)})" if args.corpus else f" (all {len(names)})")
    return bank, title + (f", written {args.repeat} times" if args.repeat > 1 else "")


def generated_bank(args: argparse.Namespace, work: Path) -> tuple[Path, str]:
    """The synthetic bank in ``work`` (a copy of --bank, or a new gen_bank.py bank) and its title."""
    bank = work / "synthetic"
    if args.bank:
        progress(f"copying {args.bank}")
        shutil.copytree(args.bank, bank, ignore=shutil.ignore_patterns(".qlint_cache"))
        return bank, f"synthetic bank ({args.bank.name})"
    progress(f"writing a synthetic bank of {args.questions} questions")
    synthetic_bank(bank, args.questions)
    return bank, "synthetic bank (gen_bank.py)"


def main() -> None:
    args = _arguments()
    launcher()   # before this process holds any bank
    trees = [Tree(THIS, None)] + ([Tree(OLDER, args.against)] if args.against else [])
    yamllint = startup._yamllint_command()
    peer = None if "peer" in args.skip else yamllint
    no_peer = "" if yamllint else "yamllint is not installed: no peer on the bank (pip install yamllint)"
    sections: list[Section] = []
    notes: list[str] = []
    work = Path(tempfile.mkdtemp(prefix="qlint-bench-all-"))
    try:
        if "startup" not in args.skip:
            sections.append(measure_startup(args.runs, args.against))
        if "corpora" not in args.skip:
            bank, title = corpora_bank(args, work)
            if bank is None:
                notes.append(title)
            else:
                sections.append(measure_bank(title, bank, trees, args.rounds, peer, work, no_peer))
                shutil.rmtree(bank, ignore_errors=True)
        if "synthetic" not in args.skip and (args.bank or args.questions > 0):
            bank, title = generated_bank(args, work)
            sections.append(measure_bank(title, bank, trees, args.rounds, peer, work, no_peer))
    finally:
        if args.keep:
            print(f"kept {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)

    print(_version(None) + (f", beside {_version(args.against)} from {args.against}" if args.against else "")
          + f"; {os.cpu_count()} cores; Python {sys.version.split()[0]}")
    print_table(sections, args.against)
    for note in notes:
        print(f"note: {note}")
    misses = sum(1 for s in sections for r in s.rows if r.ok is False)
    passes = sum(1 for s in sections for r in s.rows if r.ok)
    print(f"targets met: {passes}, missed: {misses}")


if __name__ == "__main__":
    main()
