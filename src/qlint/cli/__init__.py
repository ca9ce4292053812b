"""The command line: ``main`` parses and runs a command (``qlint.cli.main``), each command's argument handling beside
it (``common``, ``parsers``, ``show``, ``watch``, ``completion``, ``report``, ``analyze``). Empty on purpose: a
module of the command line imports only what it needs, and ``qlint --version`` loads nothing else.
"""
