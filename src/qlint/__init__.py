"""qlint: a linter for banks of multiple-choice exam questions."""

__version__ = "0.1.0"

# What each optional extra installs, for when qlint's own metadata cannot be read (a source tree on sys.path)
_EXTRAS = {"report": ("matplotlib>=3.7", "rich>=13", "jinja2>=3.1"), "server": ("pygls>=2.0,<3", "lsprotocol>=2025.0.0"),
           "analysis": ("duckdb>=1.1",), "irt": ("duckdb>=1.1", "mirt>=1.2")}


def install_hint(extra: str) -> str:
    """The command that installs an optional extra's libraries, by their own names and pins: a package named qlint
    on PyPI is another project, so ``pip install 'qlint[report]'`` would fetch that one, not this one's extra."""
    import importlib.metadata  # only when an extra is missing: importing qlint stays as light as it was
    import re  # likewise

    try:
        declared = importlib.metadata.requires("qlint") or []
    except importlib.metadata.PackageNotFoundError:
        declared = []
    marker = re.compile(rf"""extra\s*==\s*["']{re.escape(extra)}["']""")
    wanted = [r.split(";")[0].strip() for r in declared if ";" in r and marker.search(r.split(";", 1)[1])]
    wanted = wanted or list(_EXTRAS.get(extra, ()))
    return "pip install " + " ".join(f"'{r}'" for r in wanted) + f" (qlint's {extra} extra)"
