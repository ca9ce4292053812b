"""What a ``check`` is asked to do, as one typed value: ``check`` builds it from its command line, ``analyze`` from
its own (the response rules over the bank named), and the check path reads nothing else.

Light on import, like the parsers: building the options loads nothing of the run.
"""
from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass, field


@dataclass(frozen=True)
class CheckOptions:
    """Every choice a check run and its report take; the defaults are those of ``qlint check`` with no options."""

    paths: list[str] = field(default_factory=list)
    format: str | None = None
    output_file: str | None = None
    config: list[str] = field(default_factory=list)   # config files and KEY=VALUE settings, as ``--config`` gives them
    respect_gitignore: bool | None = None
    select: list[str] | None = None
    extend_select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    fail_on: str | None = None
    exit_zero: bool = False
    statistics: bool = False
    quiet: bool = False
    stdin_filename: str | None = None
    show_source: bool | None = None
    color: str = "auto"
    baseline: str | None = None
    write_baseline: str | None = None
    jobs: int | None = None
    no_cache: bool = False
    fix: bool = False
    show_fixes: bool = False
    diff: bool = False
    force_exclude: bool = False
    allow_empty: bool = False
    watch: bool = False
    show_settings: bool = False
    show_files: bool = False
    responses: list[str] = field(default_factory=list)
    form: list[str] = field(default_factory=list)
    source_format: str | None = None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> CheckOptions:
        """The options of ``qlint check``'s parsed command line (its parser sets every one of them)."""
        given = vars(args)
        values = {f.name: given[f.name] for f in dataclasses.fields(cls)}
        for name in ("paths", "config", "extend_select", "ignore", "responses", "form"):
            values[name] = list(values[name] or ())
        return cls(**values)

    def replace(self, **changes) -> CheckOptions:
        """These options with some changed."""
        return dataclasses.replace(self, **changes)
