"""The bank formats qlint reads and writes, in one table: every command asks it.

Each row declares one format: its name and other names, the reader module that reads it (imported on first use,
so a YAML run loads neither lark nor lxml), which file names settle it and which leave it to the content, what a
folder walk takes, how a suppression comment opens in it, and the ``convert --to`` targets that write it.
``check``'s dispatch and discovery (``qlint.formats``), ``--from``, ``convert``, ``analyze`` (which argument is the
bank), the language server and the pre-commit hooks' ``files`` pattern are all derived from it, so adding a format
is one row here and one reader module. This module imports nothing of qlint: the command line's parser reads it.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BankFormat:
    """One bank format, as every command sees it."""

    name: str
    label: str                       # as messages and help name it
    module: str                      # its reader: ``qlint.formats.<module>.READER``
    suffixes: tuple[str, ...]        # file names that settle the format (``--from`` leaves them alone)
    shared: tuple[str, ...] = ()     # suffixes where the content decides: the reader's ``sniff``, in table order
    fallback: bool = False           # read as this format when no earlier format's sniff takes a shared suffix
    walk: tuple[str, ...] = ()       # suffixes a folder walk takes as this format
    walk_sniffed: bool = False       # the walk takes them only when they look like a bank (root element, manifest)
    walk_forced: tuple[str, ...] = ()   # suffixes a walk takes under ``--from`` this format
    held: tuple[str, ...] = ()       # suffixes ``--from`` another format leaves alone (an XML file stays XML)
    aliases: tuple[str, ...] = ()    # other names ``--from`` and a config's ``formats`` take
    comment: str | None = None       # how a suppression comment opens in the format (None: it holds none)
    targets: tuple[str, ...] = ()    # ``convert --to`` names that write it

    def named(self, lower: str) -> bool:
        """Whether a (lower-case) file name says it is a bank of this format without looking inside."""
        return lower.endswith(self.suffixes + self.walk)


TABLE: tuple[BankFormat, ...] = (
    # the first row is the default: a file nothing else claims is read as YAML, whose loader says what is wrong
    BankFormat("yaml", "YAML", "yaml_reader", (".yaml", ".yml"), walk=(".yaml", ".yml"), comment="#",
               targets=("yaml",)),
    BankFormat("gift", "GIFT", "gift", (".gift", ".gift.txt"), shared=(".txt",), walk=(".gift", ".gift.txt"),
               walk_forced=(".gift", ".txt"), comment="//", targets=("gift",)),
    BankFormat("aiken", "Aiken", "aiken", (".aiken", ".aiken.txt"), shared=(".txt",), walk=(".aiken", ".aiken.txt"),
               walk_forced=(".aiken", ".txt"), targets=("aiken",)),
    BankFormat("moodle-xml", "Moodle XML", "moodle", (), shared=(".xml", ".zip", ".imscc", ".qti"), walk=(".xml",),
               walk_sniffed=True, walk_forced=(".xml",), held=(".xml",), aliases=("moodle", "xml"), comment="<!--",
               targets=("moodle-xml",)),
    BankFormat("qti", "QTI", "qti", (), shared=(".xml", ".zip", ".imscc", ".qti"), fallback=True,
               walk=(".xml", ".zip", ".qti"), walk_sniffed=True, walk_forced=(".xml", ".zip", ".qti"),
               held=(".xml", ".zip"), aliases=("qti12", "qti21", "qti30"), comment="<!--", targets=("qti12", "qti21")),
)

BY_NAME: dict[str, BankFormat] = {f.name: f for f in TABLE}
ALIASES: dict[str, str] = {alias: f.name for f in TABLE for alias in f.aliases}
TARGETS: tuple[str, ...] = tuple(t for f in TABLE for t in f.targets)
SETTLED: tuple[str, ...] = tuple(s for f in TABLE for s in f.suffixes)
NAMED: tuple[str, ...] = tuple(dict.fromkeys(s for f in TABLE for s in f.suffixes + f.walk))
WALKED: tuple[str, ...] = tuple(dict.fromkeys(s for f in TABLE for s in f.walk + f.walk_forced))


def holders(lower: str) -> tuple[str, ...]:
    """The formats that hold a (lower-case) file name against ``--from`` another format (none: any may take it)."""
    return tuple(f.name for f in TABLE if f.held and lower.endswith(f.held))


def is_bank_name(path: str) -> bool:
    """Whether a file's name says it is a bank (of any format qlint reads), without opening it."""
    lower = path.lower()
    return any(f.named(lower) for f in TABLE)


def hook_pattern() -> str:
    """The pre-commit hook's ``files`` pattern: every suffix a folder walk takes as a bank."""
    parts = sorted({s[1:].replace(".", r"\.") for s in WALKED if s != ".txt"} - {"yaml", "yml"})
    return r"\.(ya?ml|" + "|".join(parts) + ")$"
