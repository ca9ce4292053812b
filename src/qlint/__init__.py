"""qlint: a linter for banks of multiple-choice exam questions."""

__version__ = "0.1.0"
