"""A check whose every input is as an earlier run's gives that run's report again, byte for byte, with its summary
line and its exit code, without reading or rendering a finding.

The answer is named by the run index (``qlint.run.peek``: the settings, rules, packs, qlint itself and every file's
name and content) and by everything else that shapes the output: every option but ``--jobs``, the format chosen,
colour, the stream written to, the variables read, the working folder, the config files and the baseline's bytes.
Anything a replay could get wrong is never replayed: fixes and diffs, standard input, a watch, response data and
forms, and snippets, which are read from the files after the run.
"""
from __future__ import annotations

import codecs
import dataclasses
import hashlib
import json
import os
import stat
import sys
from typing import Any

from qlint import __version__
from qlint.cli.common import UsageError, read_by, refuse_sources
from qlint.cli.options import CheckOptions

ENVIRON = ("NO_COLOR", "FORCE_COLOR", "GITHUB_ACTIONS")   # every variable a report's form depends on
FLUSH_CHARS = 1 << 22   # the report is encoded and compressed in pieces of about this many characters


def replayable(options: CheckOptions, snippets: bool) -> bool:
    """Whether a check with these options can be answered from an earlier run: one of files and folders, through
    the cache, whose report is all made from its findings."""
    return not (options.paths == ["-"] or options.stdin_filename or options.no_cache or options.fix or options.diff
                or options.watch or options.write_baseline or options.responses or options.form or snippets)


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _baseline(options: CheckOptions) -> str | None:
    """The baseline's bytes, hashed; None without one, or when it cannot be read (the run says why)."""
    if not options.baseline:
        return None
    try:   # a named pipe or a device is never waited on: the run reads it and says what it is
        fd = os.open(options.baseline, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return None
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return None


class Replay:
    """One check's answer: looked up before the run (``play``), kept after it (``recorder``, ``keep``)."""

    def __init__(self, options: CheckOptions, fmt: str, out, colour: bool) -> None:
        self.options, self.fmt, self.out, self.colour = options, fmt, out, colour
        self.baseline = _baseline(options)
        self.said: list[str] = []

    def name(self, index: str, config, registry) -> str | None:
        """What names the answer of the run ``index`` with ``config`` and ``registry``; None when it cannot be named
        (a baseline that cannot be read, a working folder gone)."""
        if self.options.baseline and self.baseline is None:
            return None
        try:
            cwd = os.path.realpath(os.getcwd())
        except OSError:
            return None
        # the report is the same whatever the output file is named (only the summary line names it, and it is said
        # with this run's name): what counts is whether it goes to a file or to this stream
        options = {f.name: getattr(self.options, f.name) for f in dataclasses.fields(self.options)
                   if f.name not in ("jobs", "output_file")}
        output = self.options.output_file
        stream = self.out
        payload: dict[str, Any] = {
            "index": index, "qlint": __version__, "options": options, "format": self.fmt, "colour": self.colour,
            "stream": [type(stream).__module__, type(stream).__qualname__, getattr(stream, "encoding", None),
                       getattr(stream, "errors", None), _isatty(stream)],
            "environ": {k: os.environ.get(k) for k in ENVIRON}, "cwd": cwd, "linesep": os.linesep,
            "paths": [os.path.realpath(p) for p in self.options.paths],
            "output": "a file" if output and output != "-" else output,
            "config": [str(config.source), str(config.root), [str(p) for p in config.chain]],
            "problems": [[p.plugin, p.message] for p in registry.problems], "baseline": self.baseline,
        }
        text = json.dumps(payload, sort_keys=True, default=str, ensure_ascii=True)
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:40]

    def play(self, config_path: str | None, overrides, notes) -> int | None:
        """The earlier run's report written again, its summary said and its exit code returned; None when there is
        no answer for this run (then nothing is written). ``config_path`` and ``overrides`` are the config as the
        run takes it; ``notes(config, registry)`` says what the run says first."""
        from qlint.run.peek import peek  # the run's name: config, rules and the files' digests

        o = self.options
        found = peek(o.paths, config_path=config_path, overrides=overrides, select=o.select,
                     extend_select=o.extend_select, ignore=o.ignore, source_format=o.source_format,
                     force_exclude=o.force_exclude, jobs=o.jobs or 1)
        name = self.name(found.index, found.config, found.registry) if found is not None else None
        answer = found.cache.get_answer(name) if name is not None else None  # type: ignore[union-attr]
        if answer is None:
            return None
        header, report = answer
        code, summary = header.get("code"), header.get("summary")
        if type(code) is not int or not (summary is None or type(summary) is str):
            return None
        written = header.get("output")
        if summary is not None and type(written) is str and written != o.output_file:
            # the summary names the file the earlier run wrote: this run's is said instead
            if not summary.endswith(f"; written to {written}"):
                return None
            summary = summary[:len(summary) - len(written)] + str(o.output_file)
        refuse_sources([o.output_file], read_by(found.files, found.config.chain, o.baseline))  # type: ignore[union-attr]
        notes(found.config, found.registry)  # type: ignore[union-attr]
        self._write(report)
        if summary is not None:
            print(summary, file=sys.stderr)
        return code

    def _write(self, report: memoryview) -> None:
        """The report's bytes where the run would write them, through the same text layer when it is not plain
        UTF-8 with newlines as they are."""
        output = self.options.output_file
        plain = os.linesep == "\n"
        if output and output != "-":
            try:
                if plain:
                    with open(output, "wb") as handle:
                        handle.write(report)
                else:
                    with open(output, "w", encoding="utf-8") as handle:
                        handle.write(str(report, "utf-8"))
            except OSError as exc:
                raise UsageError(f"cannot write {output}: {exc.strerror}") from None
            return
        out = self.out
        buffer = getattr(out, "buffer", None)
        encoding = getattr(out, "encoding", None)
        if plain and buffer is not None and encoding and codecs.lookup(encoding).name == "utf-8":
            out.flush()
            buffer.write(report)
        else:
            out.write(str(report, "utf-8"))

    def recorder(self, stream) -> Recorder:
        """``stream``, with what the run writes to it kept for the answer."""
        from qlint.run.cache import Answer  # with the run

        self.recording = Recorder(stream, Answer())
        return self.recording

    def keep(self, run, code: int, summary: str | None) -> None:
        """Keep what the run wrote as the answer of the run it made, when it is whole and every input unchanged."""
        recording = getattr(self, "recording", None)
        if recording is None or run.index is None or not recording.finish() or _baseline(self.options) != self.baseline:
            return
        from qlint.run.cache import Cache  # with the run

        name = self.name(run.index, run.config, run.registry)
        folder = run.stages.cache.location / run.index.split("/")[0] if run.stages is not None else None
        if name is None or folder is None or folder.is_symlink() or not folder.is_dir():
            return
        written = self.options.output_file if self.options.output_file != "-" else None
        Cache(folder).put_answer(name, recording.answer, {"code": code, "summary": summary, "output": written})


class Recorder:
    """A text stream that writes through to another and keeps what went through, as UTF-8, in an ``Answer``."""

    def __init__(self, stream, answer) -> None:
        self.stream = stream
        self.answer = answer
        self.parts: list[str] | None = []
        self.pending = 0

    def write(self, text: str) -> int:
        written = self.stream.write(text)
        if self.parts is not None:
            self.parts.append(text)
            self.pending += len(text)
            if self.pending > FLUSH_CHARS:
                self._flush()
        return written

    def _flush(self) -> None:
        try:   # text the run could write only through an error handler is never replayed
            self.answer.add("".join(self.parts).encode("utf-8"))  # type: ignore[arg-type]
        except UnicodeError:
            self.parts = None
            return
        self.parts, self.pending = [], 0

    def finish(self) -> bool:
        """True when everything written is in the answer."""
        if self.parts is not None:
            self._flush()
        return self.parts is not None and self.answer.chunks is not None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)
