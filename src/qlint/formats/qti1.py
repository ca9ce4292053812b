"""QTI 1.2 items (``<questestinterop>``) as Canvas, Blackboard, Respondus, D2L and text2qti write them.

An item is multiple choice when it has exactly one response block and that block is a ``response_lid`` with
choices; any other item (fill-in blanks, matching, several response blocks) is unsupported and counted as such.
Text is read from every ``material`` wherever it sits: directly in ``presentation``, inside ``flow`` blocks, or
as Blackboard's ``mat_extension/mat_formattedtext``.

Keys come from ``resprocessing``: a condition that sets a positive score on a choice. In a single-answer item the
choices with the highest score are the keys and a choice with a lower positive score is a distractor with partial
credit (Canvas's "vary points by answer"). Feedback maps as Canvas shows it: a choice's own feedback is its
rationale; the item's correct (incorrect) feedback is the rationale of a key (distractor) that has none; the
general feedback shown to everyone is the explanation.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from qlint.formats import xmlsafe
from qlint.formats.base import Draft, on_time
from qlint.limits import Limits

_TYPES = {"multiple_choice_question", "true_false_question", "multiple_answers_question",
          "multiple choice", "multiple answer", "true/false", "either/or", "multiple_choice", "true_false",
          "multiple_answer", "multiplechoice", "truefalse", "multipleanswer"}
_NAMES = {"essay_question": "essay", "numerical_question": "numeric", "short_answer_question": "short answer",
          "matching_question": "matching", "fill_in_multiple_blanks_question": "cloze",
          "multiple_dropdowns_question": "cloze", "file_upload_question": "file upload",
          "text_only_question": "description", "calculated_question": "calculated", "essay": "essay",
          "matching": "matching", "fill in the blank": "fill in the blank", "opinion scale": "likert",
          "ordering": "ordering", "numeric": "numeric", "calculated": "calculated", "hot spot": "hot spot",
          "jumbled sentence": "cloze", "quiz bowl": "short answer", "short response": "essay",
          "file upload": "file upload", "fill in multiple blanks": "cloze"}
_BLOCKS = ("response_lid", "response_str", "response_num", "response_xy", "response_grp", "response_extension")
_GENERAL = ("general_fb", "general", "generalfeedback")
_RESPONDUS_CORRECT = re.compile(r"_C$")   # Respondus: _C correct, _IC incorrect, _ALL general, _AC/_AIC per answer
_CORRECT = ("correct_fb", "correct", "correctfeedback")
_INCORRECT = ("general_incorrect_fb", "incorrect_fb", "incorrect", "incorrectfeedback")


def _metadata(item) -> dict[str, str]:
    fields = {}
    for entry in [*xmlsafe.descendants(item, "qtimetadatafield"), *xmlsafe.descendants(item, "qti_metadatafield")]:
        label, value = xmlsafe.child(entry, "fieldlabel"), xmlsafe.child(entry, "fieldentry")
        if label is not None and value is not None:
            fields[(label.text or "").strip().lower()] = (value.text or "").strip()
    if "respondusapi_qtype" in fields:
        fields.setdefault("question_type", fields["respondusapi_qtype"])
    for name in ("bbmd_questiontype", "qmd_itemtype", "cc_profile"):   # Blackboard, Respondus, Common Cartridge
        holder = next(iter(xmlsafe.descendants(item, name)), None)
        if holder is not None and (holder.text or "").strip():
            fields.setdefault("question_type", holder.text.strip())
    return fields


def _material_text(material, images: bool = False) -> str:
    """One ``material``'s text: its ``mattext``/``mat_formattedtext``/``matemtext`` parts in order, images by
    their label when nothing else is there."""
    parts = []
    pictures = []
    for element in material.iter():
        name = xmlsafe.local(element) if isinstance(element.tag, str) else ""
        if name in ("mattext", "matemtext"):
            kind = (element.get("texttype") or "text/plain").lower()
            literal = kind == "text/plain"
            parts.append(xmlsafe.plain(element, literal=literal, keep_spacing=literal, images=images))
        elif name == "mat_formattedtext":
            parts.append(xmlsafe.plain(element, images=images))
        elif name == "matimage":
            label = (element.get("label") or "").strip() or (element.get("uri") or "").rsplit("/", 1)[-1]
            pictures.append(label or "[image]")
    text = "\n\n".join(p.strip("\n") for p in parts if p.strip())
    return text if text or not images else " ".join(pictures)


def _materials(element, outside: tuple = ()) -> list:
    """The outermost ``material`` elements under ``element``, leaving out those under any of ``outside``."""
    found = []
    for material in xmlsafe.descendants(element, "material"):
        ancestors = list(material.iterancestors())
        if any(a in outside for a in ancestors):
            continue
        if any(xmlsafe.local(a) == "material" for a in ancestors[:ancestors.index(element)] if a is not element):
            continue
        found.append(material)
    return found


def _text_of(element, outside: tuple = (), images: bool = False) -> tuple[str, object]:
    materials = _materials(element, outside) if element is not None else []
    texts = [t for t in (_material_text(m, images) for m in materials) if t.strip()]
    first = next((e for m in materials for e in m.iter() if isinstance(e.tag, str)
                  and xmlsafe.local(e) in ("mattext", "mat_formattedtext", "matemtext", "matimage")), None)
    return "\n\n".join(texts), (first if first is not None else materials[0] if materials else element)


def _score(setvar) -> float | None:
    """What a ``setvar`` gives: its number, infinity for Blackboard's ``SCORE.max``, None for no credit."""
    value = (setvar.text or "").strip()
    if (setvar.get("action") or "Set").lower() not in ("set", "add"):
        return None
    if value.lower().endswith(".max"):
        return float("inf")
    try:
        number = float(value)
    except ValueError:
        return None
    return number if number > 0 else None


@dataclass
class _Processing:
    """What an item's ``resprocessing`` says: each choice's best score, its own feedback, and the item's feedback."""

    scores: dict[str, float] = field(default_factory=dict)
    own: dict[str, str] = field(default_factory=dict)
    links: dict[str, list[str]] = field(default_factory=dict)   # every feedback a choice's own conditions show
    general: str | None = None
    correct: str | None = None
    incorrect: str | None = None


def _processing(item, response: str) -> _Processing:
    """One pass over the item's conditions, each looked at once (linear in ``varequal`` and ``setvar``)."""
    found = _Processing()
    scored = False
    for condition in xmlsafe.descendants(item, "respcondition"):
        variables = xmlsafe.child(condition, "conditionvar")
        if variables is None:
            continue
        wanted = [(v.text or "").strip() for v in xmlsafe.descendants(variables, "varequal")
                  if v.get("respident") in (None, "", response)
                  and not any(xmlsafe.local(a) == "not" for a in v.iterancestors() if a is not variables)]
        score = max((s for s in map(_score, xmlsafe.children(condition, "setvar")) if s is not None), default=None)
        links = [d.get("linkrefid") for d in xmlsafe.children(condition, "displayfeedback") if d.get("linkrefid")]
        if score is not None:
            scored = True
            for ident in wanted:
                found.scores[ident] = max(found.scores.get(ident, 0.0), score)
            found.correct = found.correct or next((k for k in links if k not in wanted), None)
        elif xmlsafe.child(variables, "other") is not None and links:
            if scored:
                found.incorrect = found.incorrect or links[0]
            else:
                found.general = found.general or links[0]
        if len(wanted) == 1 and links:
            found.links.setdefault(wanted[0], []).extend(links)
            if score is None:
                found.own.setdefault(wanted[0], links[0])
    if not found.scores:   # Respondus scores a zero-point item nowhere: its key shows the "correct" (_C) feedback
        found.scores = {ident: 1.0 for ident, shown in found.links.items() if any(_RESPONDUS_CORRECT.search(k) for k in shown)}
    return found


def _unsupported(item, kind: str | None, blocks: list) -> str | None:
    """Why an item is not multiple choice (the kind to count it as), or None when it is."""
    label = (kind or "").strip().lower()
    if label and label not in _TYPES:
        return _NAMES.get(label, label)
    if len(blocks) != 1:
        return "several response blocks" if blocks else "no response"
    block = blocks[0]
    if (block.get("rcardinality") or "").lower() == "ordered":
        return "ordering"
    if xmlsafe.child(block, "material") is not None:   # a labelled response: a matching row or a dropdown's blank
        return "matching"
    if xmlsafe.local(block) != "response_lid" or not xmlsafe.descendants(block, "response_label"):
        return _NAMES.get(label, "not multiple choice") if label not in _TYPES else "not multiple choice"
    return None


def item_draft(item, where: xmlsafe.Positions, skipped: dict, titles: dict[str, int], limits: Limits) -> Draft | None:
    """One QTI 1.2 item as a draft question, or None (counted in ``skipped``) when it is not multiple choice."""
    on_time(limits)
    at = where(item)
    metadata = _metadata(item)
    presentation = xmlsafe.child(item, "presentation")
    blocks = [e for e in (presentation.iter() if presentation is not None else ())
              if isinstance(e.tag, str) and xmlsafe.local(e) in _BLOCKS]
    reason = _unsupported(item, metadata.get("question_type"), blocks)
    if reason is not None:
        count, line, column = skipped.get(reason, (0, *at))
        skipped[reason] = (count + 1, line, column)
        return None
    block = blocks[0]
    stem, stem_at = _text_of(presentation, (block,), images=True)
    title = item.get("title")
    name = title if title and titles.get(title) == 1 else item.get("ident")
    draft = Draft({"stem": stem}, *at, name=name)
    draft.positions["stem"] = where(stem_at if stem_at is not None else item)
    process = _processing(item, block.get("ident", ""))
    feedback = {f.get("ident"): f for f in xmlsafe.descendants(item, "itemfeedback")}
    several = (block.get("rcardinality") or "").lower() == "multiple" or \
        (metadata.get("question_type") or "").lower() in ("multiple_answers_question", "multiple answer")
    choices = xmlsafe.descendants(block, "response_label")
    best = max((process.scores.get(c.get("ident", ""), 0.0) for c in choices), default=0.0)
    texts = {key: _text_of(feedback[key]) for key in feedback}
    correct = _first(texts, process.correct, _CORRECT, "_C")
    incorrect = _first(texts, process.incorrect, _INCORRECT, "_IC")
    options = []
    for choice in choices:
        ident = choice.get("ident", "")
        text, text_at = _text_of(choice, images=True)
        score = process.scores.get(ident, 0.0)
        key = score > 0 if several else best > 0 and score == best
        own = texts.get(process.own.get(ident, f"{ident}_fb")) or texts.get(ident)
        if not text.strip() and not key and not (own and own[0]):
            continue   # an answer slot left blank: the LMS shows no option there (Moodle and Canvas drop them)
        index = len(options)
        option: dict = {"text": text, "correct": key}
        if score > 0 and not key and best not in (0.0, float("inf")):
            option["credit"] = round(100 * score / best, 5)
        draft.positions[f"options[{index}]"] = where(choice)
        draft.positions[f"options[{index}].text"] = where(text_at)
        body, body_at = own if own and own[0] else (correct if key else incorrect) or ("", None)
        if body:
            option["rationale"] = body
            draft.positions[f"options[{index}].rationale"] = where(body_at)
        options.append(option)
    draft.fields["options"] = options
    if several:
        draft.fields["select"] = max(1, sum(1 for o in options if o["correct"]))
    respondus = next((k for k in texts if k and k.endswith("_ALL")), None)
    general = _first(texts, respondus or process.general, _GENERAL, "_ALL")
    if general is not None and general[0]:
        draft.fields["explanation"] = general[0]
        draft.positions["explanation"] = where(general[1])
    return draft


def _first(texts: dict, linked: str | None, names: tuple[str, ...], suffix: str):
    """The feedback a condition links to, else the first of the conventional idents the item holds (Canvas's
    names, or Respondus's ``..._ALL``/``..._C``/``..._IC``)."""
    for key in ((linked,) if linked else ()) + names + tuple(k for k in texts if k and k.endswith(suffix)):
        if key in texts and texts[key][0]:
            return texts[key]
    return None


def drafts(root, where: xmlsafe.Positions, skipped: dict, limits: Limits) -> list[Draft]:
    items = xmlsafe.descendants(root, "item")
    titles: dict[str, int] = {}
    for item in items:
        titles[item.get("title", "")] = titles.get(item.get("title", ""), 0) + 1
    found = (item_draft(item, where, skipped, titles, limits) for item in items)
    return [d for d in found if d is not None]
