"""``qlint check --form FORM``: a drawn exam form checked against the blueprint and the bank's pairs.

A form is a YAML file that lists question ids (a list, or a ``questions:`` list whose entries are ids or questions
with an ``id``), or a folder of bank files whose questions are the form. Its questions are the bank's questions of
those ids, from the run that checked the bank; the pairs are what the bank rules published about that run
(enemy-items, near-duplicate-stem, contradictory-keys). The form rules (``qlint.formrule``) turn them into findings
that point at the form.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import yaml

from qlint.config import ConfigError, resolve_rules
from qlint.files import read_file, relative
from qlint.finding import Finding, finding
from qlint.formats import discover_banks
from qlint.formrule import FormEntry, FormPair, FormRule, FormView
from qlint.items import BankItem
from qlint.run.perfile import FileSetup, check_source
from qlint.run.settings import Walk, walk_of

PAIRED = ("enemy-items", "near-duplicate-stem", "contradictory-keys")
MAX_FORM_QUESTIONS = 1_000_000


class FormError(Exception):
    """A form that cannot be read as one: the message names the file and, where it can, the line."""


def _listed(path: Path, limits) -> tuple[str, list[tuple[str, str, int]]]:
    """A form file's name and its (id, path, line) entries."""
    shown = relative(path)
    data, _, problem = read_file(path, limits)
    if data is None:
        raise FormError(f"{shown}: cannot read the form: {problem}")
    try:
        root = yaml.compose(data.decode("utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except UnicodeDecodeError:
        raise FormError(f"{shown}: a form must be UTF-8 text") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise FormError(f"{shown}{f':{mark.line + 1}' if mark else ''}: invalid YAML: "
                        f"{getattr(exc, 'problem', None) or exc}") from None
    except RecursionError:
        raise FormError(f"{shown}: nested too deeply") from None
    name, items = shown, root
    if isinstance(root, yaml.MappingNode):
        keys = {k.value: v for k, v in root.value if isinstance(k, yaml.ScalarNode)}
        if "questions" not in keys:
            raise FormError(f"{shown}:{root.start_mark.line + 1}: a form is a list of question ids, or a mapping "
                            "with 'questions'")
        if isinstance(keys.get("name"), yaml.ScalarNode):
            name = keys["name"].value
        items = keys["questions"]
    if not isinstance(items, yaml.SequenceNode):
        raise FormError(f"{shown}:{(items.start_mark.line + 1) if items is not None else 1}: a form lists question "
                        "ids")
    out = []
    for node in items.value[:MAX_FORM_QUESTIONS]:
        if isinstance(node, yaml.MappingNode):   # a question written out: its id
            node = next((v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == "id"), node)
        if not isinstance(node, yaml.ScalarNode) or not node.value.strip():
            raise FormError(f"{shown}:{node.start_mark.line + 1}: a form entry must be a question id")
        out.append((node.value.strip(), shown, node.start_mark.line + 1))
    return name, out


def _folder(path: Path, walk: Walk) -> tuple[str, list[tuple[str, str, int]]]:
    """A folder form: the questions of its bank files, each where it is written."""
    setup = FileSetup((), walk.limits)
    out = []
    for file in discover_banks([path], walk.exclude, walk.limits):
        data, _, problem = read_file(file, walk.limits)
        outcome = check_source(data, relative(file), setup, file, problem)
        out += [(item.id, item.path, item.line) for item in outcome.items]
    return relative(path), out


def _pairs(run, index: dict[str, int]) -> tuple[list[FormPair], list[str]]:
    """The published pairs with both questions on the form, and the pairing rules that did not run."""
    pairs: list[FormPair] = []
    missing = []
    every = [i for o in run.results for i in o.items]
    for name in PAIRED:
        data, _, ran = run.published(name)
        if not ran or data is None:
            missing.append(name)
            continue
        if name == "enemy-items":
            found = [(p["gives"]["id"], p["answers"]["id"], f"{p['gives']['id']!r} states {p['key']!r}, the key of "
                      f"{p['answers']['id']!r}") for p in data]
        elif name == "near-duplicate-stem":
            found = [(every[a].id, every[b].id, f"stems {score:.0f}% similar") for a, b, score in data]
        else:
            found = [(x["id"], y["id"], f"{entry['statement']!r} is keyed one way in one and the other way in the "
                      "other") for entry in data for x in entry["copies"] for y in entry["copies"]
                     if x["held_true"] and not y["held_true"]]
        for a, b, detail in found:
            if a in index and b in index and index[a] != index[b]:
                first, second = sorted((index[a], index[b]))
                pairs.append(FormPair(name, first, second, detail))
    unique = {(p.rule, p.first, p.second): p for p in pairs}
    return sorted(unique.values(), key=lambda p: (p.second, p.first, p.rule)), missing


def form_view(form: Path, run) -> tuple[FormView, list[str]]:
    """The form as its rules see it, and the file each of its entries is listed in; FormError for a form that
    cannot be read."""
    if form.is_dir():
        name, listed = _folder(form, run.stages.walk if run.stages is not None else walk_of(run.config))
    elif form.exists():
        name, listed = _listed(form, run.limits)
    else:
        raise FormError(f"no such form: {form}")
    bank: dict[str, BankItem] = {}
    for outcome in run.results:
        for item in outcome.items:
            bank.setdefault(item.id, item)
    entries = tuple(FormEntry(qid, line, bank.get(qid)) for qid, _, line in listed)
    index: dict[str, int] = {}
    for i, (qid, _, _) in enumerate(listed):
        index.setdefault(qid, i)
    pairs, missing = _pairs(run, index)
    return FormView(name, relative(form), entries, run.config.blueprint, tuple(pairs), tuple(missing)), \
        [where for _, where, _ in listed]


def form_rules(run, *, select=None, extend_select: Sequence[str] = (), ignore: Sequence[str] = ()) -> list:
    """The form rules this run applies: those selected, else all of them (less those ignored)."""
    names = [r.name for r in run.registry if isinstance(r, FormRule)]
    try:
        wanted = [a for a in resolve_rules(run.config, run.registry, select=select, extend_select=extend_select,
                                           ignore=ignore) if isinstance(a.rule, FormRule)]
        if not wanted:
            wanted = [a for a in resolve_rules(run.config, run.registry, select=select,
                                               extend_select=[*extend_select, *names], ignore=ignore)
                      if isinstance(a.rule, FormRule)]
    except ConfigError as exc:
        raise FormError(str(exc)) from None
    return wanted


def check_form(form: Path, run, active: Iterable) -> tuple[list[Finding], tuple[str, ...]]:
    """The form rules' findings on one form, and the pairing rules whose pairs it could not check."""
    view, places = form_view(form, run)
    out = []
    for chosen in active:
        rule = chosen.rule
        for violation in rule.check(view, chosen.options):
            if violation.entry is None:
                path, line, question = view.path, 1, None
            else:
                entry = view.entries[violation.entry]
                path, line, question = places[violation.entry], entry.line, entry.id
            out.append(finding(path, line, 1, (rule.code, rule.name), violation.message, question,
                               severity=chosen.severity))
    wants_pairs = any(a.rule.name == "form-conflict" for a in active)
    return out, view.missing if wants_pairs else ()


def form_findings(run, forms: Sequence[str], *, select=None, extend_select: Sequence[str] = (),
                  ignore: Sequence[str] = ()) -> tuple[list[Finding], list[str]]:
    """Every form rule's findings on the named forms, and warnings to print (pairs that could not be checked)."""
    active = form_rules(run, select=select, extend_select=extend_select, ignore=ignore)
    found: list[Finding] = []
    missing: set[str] = set()
    for form in forms:
        extra, lacking = check_form(Path(form), run, active)
        found += extra
        missing.update(lacking)
    warnings = [f"{name} did not run: the form's pairs of it are not checked" for name in PAIRED if name in missing]
    return found, warnings
