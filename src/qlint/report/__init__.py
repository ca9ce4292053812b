"""Bank health report: one ``BankSummary`` per run, rendered as a self-contained HTML page or terminal tables.

``summary`` computes every number from a finished ``Run`` (the same run ``qlint check`` reports), ``html``
draws it with matplotlib into one offline HTML file, ``terminal`` prints it with rich, and ``cli`` holds
the ``report`` and ``stats`` subcommands.
"""
from __future__ import annotations

from qlint.report.summary import BankSummary, summarize

__all__ = ["BankSummary", "summarize"]
