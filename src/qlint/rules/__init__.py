"""Built-in rules, one module each; every module exposes ``RULE``.

They register through the ``qlint.rules`` entry point (``builtin``, ``qlint.registry:builtin_rules``), the same
path a third-party plugin takes.
"""
