#!/usr/bin/env python3
"""Hold docs/architecture.json against the code: every import between parts drawn on the whiteboard and every arrow
drawn still in the code, the imports that must never exist, import cycles between modules and between packages,
modules loose at the package root, imports of qlint modules that do not exist (moved since), functions over 60
lines, ``global`` statements, and imports inside functions that do not say why.

usage: python scripts/check_architecture.py [--root .]

Every module of src/qlint belongs to the part of docs/architecture.json whose ``is`` names it (a file, or a folder
ending in ``/``; the longest match wins). An import from a module of part A to one of part B (A other than B) must be
one of the ``arrows`` [A, B], and breaks the house rule when [A, B] is one of the ``never`` pairs; an arrow no import
draws any more is reported too, so the whiteboard is the code's picture both ways. A package is ``qlint.x`` for the
modules under ``src/qlint/x/`` and the module itself for one at the root; packages import each other one way only,
except the loops named in ``loops``, each with why it is still there (a listed loop that is gone is reported, so the
list only shrinks). A module at the root of src/qlint must belong to a part named in ``root``. Imports inside
functions count as imports (hiding one there does not remove the arrow), and each must carry a comment on its line
or the line above saying why it is not at the top (an optional or heavy dependency). Exits 1 when anything is found,
listing it.
"""
from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path

MAX_LINES = 60


def modules(src: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module under ``src/qlint``."""
    found = {}
    for path in sorted((src / "qlint").rglob("*.py")):
        name = ".".join(path.relative_to(src).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def imported(name: str, path: Path, node: ast.AST, known: dict[str, Path]) -> list[str]:
    """The qlint modules an import statement reaches (``from a import b`` reaches ``a`` and ``a.b`` when a module)."""
    if isinstance(node, ast.Import):
        targets = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
            package = package[:len(package) - node.level + 1]
            base = ".".join([*package, base] if base else package)
        targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
    return [t for t in targets if t in known]


def missing(name: str, path: Path, node: ast.AST, known: dict[str, Path]) -> list[str]:
    """The qlint modules an import statement names that do not exist (a module moved since the import was written):
    ``import qlint.x`` or ``from qlint.x import y`` where ``qlint.x`` is no module."""
    if isinstance(node, ast.Import):
        named = [alias.name for alias in node.names]
    elif node.level:
        return []   # relative: resolved by ``imported``; qlint writes none
    else:
        named = [node.module or ""]
        base = known.get(node.module or "")
        if base is not None and base.name == "__init__.py":   # ``from qlint import x``: x a module or a name there
            defined = _top_level_names(base)
            named += [f"{node.module}.{a.name}" for a in node.names if a.name != "*" and a.name not in defined]
    return [m for m in named if m.split(".")[0] == "qlint" and m not in known]


def _top_level_names(path: Path) -> set[str]:
    """The names a package's ``__init__.py`` defines or imports at its top level."""
    names = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for target in targets for n in ast.walk(target) if isinstance(n, ast.Name))
    return names


class Module:
    """What one module imports, and what else the house rules look at in it."""

    def __init__(self, name: str, path: Path, known: dict[str, Path]) -> None:
        text = path.read_text(encoding="utf-8")
        shown = path.relative_to(path.parents[len(name.split(".")) - (path.name == "__init__.py")])
        lines = text.splitlines()
        tree = ast.parse(text)
        self.imports: set[str] = set()
        self.long: list[str] = []
        self.globals: list[int] = []
        self.silent: list[str] = []
        self.missing: list[str] = []
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                size = node.end_lineno - node.lineno + 1
                if size > MAX_LINES:
                    self.long.append(f"{shown}:{node.lineno} {node.name} ({size} lines)")
                for inner in ast.walk(node):
                    if isinstance(inner, (ast.Import, ast.ImportFrom)) and not _explained(lines, inner.lineno):
                        self.silent.append(f"{shown}:{inner.lineno} in {node.name}")
            elif isinstance(node, ast.Global):
                self.globals.append(node.lineno)
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                self.imports.update(t for t in imported(name, path, node, known) if t != name)
                self.missing += [f"{shown}:{node.lineno} {m}" for m in missing(name, path, node, known)]


def _explained(lines: list[str], number: int) -> bool:
    """A comment on the import's line, on another import of the same block, or on the line above the block."""
    at = number - 1
    while at > 0 and lines[at - 1].strip().startswith(("import ", "from ")):
        at -= 1
    block = lines[at:number]
    return any("#" in line for line in block) or at > 0 and lines[at - 1].strip().startswith("#")


def part_of(path: str, parts: dict[str, dict]) -> str | None:
    best, length = None, -1
    for part, spec in parts.items():
        for place in spec["is"]:
            if (path == place or place.endswith("/") and path.startswith(place)) and len(place) > length:
                best, length = part, len(place)
    return best


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (iterative Tarjan: no recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def package(name: str) -> str:
    """``qlint.run.cache`` -> ``qlint.run``; a module at the root is its own package."""
    return ".".join(name.split(".")[:2])


def arrow_problems(board: dict, imports: dict[str, set[str]], where: dict[str, str | None]) -> list[str]:
    """Imports between parts that are a never or missing from the whiteboard; whiteboard arrows no import draws."""
    never = {(a, b): why for a, b, why in board["never"]}
    drawn = {(a, b) for a, b in board["arrows"]}
    found: dict[tuple[str, str], list[str]] = {}
    out = []
    for name in sorted(imports):
        for target in sorted(imports[name]):
            pair = (where[name], where[target])
            if None in pair or pair[0] == pair[1]:
                continue
            found.setdefault(pair, []).append(f"{name} -> {target}")
            if pair in never:
                out.append(f"never: {name} -> {target} ({pair[0]} -> {pair[1]}: {never[pair]})")
    for pair, seen in sorted(found.items()):
        if pair not in drawn and pair not in never:
            out.append(f"arrow not on the whiteboard: {pair[0]} -> {pair[1]} ({', '.join(seen[:3])}"
                       f"{', ...' if len(seen) > 3 else ''})")
    out += [f"arrow on the whiteboard that no import draws: {a} -> {b}" for a, b in sorted(drawn - set(found))]
    return out


def loop_problems(board: dict, imports: dict[str, set[str]]) -> list[str]:
    """Cycles between packages, less the loops the whiteboard names (and those it names that are gone)."""
    edges: dict[str, set[str]] = {package(name): set() for name in imports}
    for name, targets in imports.items():
        edges[package(name)].update(package(t) for t in targets if package(t) != package(name))
    allowed = {frozenset(loop[:-1]) for loop in board.get("loops", [])}
    groups = [frozenset(group) for group in cycles(edges)]
    out = [f"package cycle: {' <-> '.join(sorted(group))}" for group in groups if group not in allowed]
    out += [f"loop named on the whiteboard that is gone: {' <-> '.join(sorted(loop))}"
            for loop in allowed if loop not in groups]
    return sorted(out)


def problems(root: Path) -> list[str]:
    board = json.loads((root / "docs" / "architecture.json").read_text(encoding="utf-8"))
    parts = board["parts"]
    known = modules(root / "src")
    seen = {name: Module(name, path, known) for name, path in known.items()}
    where = {name: part_of(path.relative_to(root).as_posix(), parts) for name, path in known.items()}
    out = [f"no part of docs/architecture.json holds {known[name].relative_to(root)}"
           for name, part in where.items() if part is None]
    at_root = set(board.get("root", {}))
    out += [f"loose at the package root: {known[name].relative_to(root)} belongs to {part}, not a part kept at the root"
            for name, part in where.items() if part is not None and part not in at_root
            and known[name].parent == root / "src" / "qlint" and known[name].name != "__init__.py"]
    imports = {name: module.imports for name, module in seen.items()}
    out += arrow_problems(board, imports, where)
    for name, module in seen.items():
        out += [f"long function: {entry}" for entry in module.long]
        out += [f"global statement: {known[name].relative_to(root)}:{line}" for line in module.globals]
        out += [f"import inside a function without a comment saying why: {entry}" for entry in module.silent]
        out += [f"import of a qlint module that does not exist: {entry}" for entry in module.missing]
    out += [f"cycle: {' <-> '.join(group)}" for group in cycles(imports)]
    out += loop_problems(board, imports)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    found = problems(parser.parse_args(argv).root)
    for line in found:
        print(line)
    print(f"architecture: {len(found)} problem{'s' if len(found) != 1 else ''}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
