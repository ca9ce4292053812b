"""Item analysis: how people answered a bank's questions, joined to the bank, turned into findings.

Response data can be millions of rows, so it never becomes Python objects one per response: it is read,
joined and aggregated inside DuckDB, an embedded analytical engine that streams from disk. The statistics are
plain SQL aggregations (GROUP BY, joins, one window for score groups) that port to a distributed SQL engine.

DuckDB is an optional extra (``analysis``): linting a bank needs none of this.
"""
from __future__ import annotations

import os
import tempfile

from qlint import install_hint


class AnalysisError(Exception):
    """Response data that cannot be analysed at all (missing engine, unreadable file): exit code 2."""


def connect(memory_limit: str = "1GB", threads: int | None = None):
    """A fresh in-memory DuckDB connection, bounded in memory so that big inputs spill to disk instead."""
    try:
        import duckdb  # optional heavy dependency: only item analysis needs it
    except ImportError:
        raise AnalysisError(f"item analysis needs DuckDB: {install_hint('analysis')}") from None
    con = duckdb.connect(":memory:")
    con.execute(f"SET memory_limit = '{memory_limit}'")
    # spill to the system's temporary folder (DuckDB removes the folder it made on close), never to a ".tmp"
    # in the folder qlint runs in
    con.execute("SET temp_directory = ?", [os.path.join(tempfile.gettempdir(), f"qlint-duckdb-{os.getpid()}-{id(con)}")])
    con.execute("SET preserve_insertion_order = false")
    con.execute("SET enable_progress_bar = false")
    # offline at run time: never fetch an extension (a path like s3://... or http://... fails instead)
    con.execute("SET autoinstall_known_extensions = false")
    con.execute("SET autoload_known_extensions = false")
    if threads:
        con.execute(f"SET threads = {int(threads)}")
    return con
