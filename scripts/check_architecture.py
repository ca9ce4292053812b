#!/usr/bin/env python3
"""Hold docs/architecture.json against the code: the imports that must never exist, import cycles, functions over
60 lines, ``global`` statements, and imports inside functions that do not say why.

usage: python scripts/check_architecture.py [--root .]

Every module of src/qlint belongs to the part of docs/architecture.json whose ``is`` names it (a file, or a folder
ending in ``/``; the longest match wins). An import from a module of part A to one of part B breaks the house rule
when [A, B] is one of the ``never`` pairs. Imports inside functions count as imports (hiding one there does not
remove the arrow), and each must carry a comment on its line or the line above saying why it is not at the top
(an optional or heavy dependency). Exits 1 when anything is found, listing it.
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


def problems(root: Path) -> list[str]:
    board = json.loads((root / "docs" / "architecture.json").read_text(encoding="utf-8"))
    parts, never = board["parts"], {(a, b): why for a, b, why in board["never"]}
    known = modules(root / "src")
    seen = {name: Module(name, path, known) for name, path in known.items()}
    where = {name: part_of(path.relative_to(root).as_posix(), parts) for name, path in known.items()}
    out = [f"no part of docs/architecture.json holds {known[name].relative_to(root)}"
           for name, part in where.items() if part is None]
    for name, module in seen.items():
        for target in sorted(module.imports):
            why = never.get((where[name], where[target]))
            if why:
                out.append(f"never: {name} -> {target} ({where[name]} -> {where[target]}: {why})")
        out += [f"long function: {entry}" for entry in module.long]
        out += [f"global statement: {known[name].relative_to(root)}:{line}" for line in module.globals]
        out += [f"import inside a function without a comment saying why: {entry}" for entry in module.silent]
    out += [f"cycle: {' <-> '.join(group)}" for group in cycles({n: m.imports for n, m in seen.items()})]
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
