"""QTI 2.1, 2.2 and 3.0 items (``assessmentItem``, ``qti-assessment-item``).

An item is multiple choice when its body holds exactly one interaction and it is a choice interaction. The key is
read from the response the interaction names (``RESPONSE``, ``RESPONSE_31941445``...): its ``correctResponse``,
else its mapping's best values, else the common ``responseProcessing`` patterns (``match``/``member`` of the
response against a value in a branch that sets ``SCORE`` above zero). An item whose key none of these gives is
counted as unsupported, saying so, never read with no key.

``feedbackInline`` in a choice, and ``modalFeedback`` naming a choice, are that choice's rationale; modal feedback
for the outcome "correct" ("incorrect") is the rationale of a key (distractor) that has none; any other modal
feedback is the explanation.
"""
from __future__ import annotations

from qlint.formats import xmlsafe
from qlint.formats.base import Draft, on_time
from qlint.limits import Limits

_SKIP_BODY = frozenset(("choiceinteraction", "feedbackblock", "feedbackinline", "rubricblock", "modalfeedback",
                        "templateblock", "templateinline"))
_CHOICE_SKIP = frozenset(("feedbackinline",))
_SCORES = ("SCORE", "MAXSCORE")


def _count(skipped: dict, kind: str, where: tuple[int, int]) -> None:
    count, line, column = skipped.get(kind, (0, *where))
    skipped[kind] = (count + 1, line, column)


def _number(text: str | None) -> float | None:
    try:
        return float((text or "").strip())
    except ValueError:
        return None


def _declared_keys(declaration) -> set[str]:
    """A response declaration's correct values, else the values its mapping scores highest above zero."""
    keys = {(v.text or "").strip() for c in xmlsafe.children(declaration, "correctresponse")
            for v in xmlsafe.children(c, "value")}
    if keys:
        return keys
    mapped = {}
    for mapping in xmlsafe.children(declaration, "mapping"):
        for entry in xmlsafe.children(mapping, "mapentry"):
            value = _number(xmlsafe.attribute(entry, "mappedValue"))
            if value is not None and value > 0:
                mapped[xmlsafe.attribute(entry, "mapKey") or ""] = value
    return set(mapped)


def _branch_scores(branch) -> bool:
    """Whether a response branch sets SCORE above zero (a number, a variable such as MAXSCORE, or a sum)."""
    for action in xmlsafe.children(branch, "setoutcomevalue"):
        if (action.get("identifier") or "").upper() not in _SCORES:
            continue
        values = [_number(v.text) for v in xmlsafe.descendants(action, "basevalue")]
        if any(v is not None and v > 0 for v in values) or xmlsafe.descendants(action, "variable"):
            return True
    return False


def _processed_keys(item, response: str) -> set[str]:
    """Keys from custom response processing: ``match``/``member`` of the response against a base value in the
    first branch that scores (a later branch that scores another combination is an alternative answer, which a
    question's one key set cannot hold)."""
    branches = [e for e in item.iter() if isinstance(e.tag, str) and xmlsafe.local(e) in ("responseif", "responseelseif")]
    for branch in branches:
        keys: set[str] = set()
        condition = next((c for c in branch if isinstance(c.tag, str)), None)
        if condition is None or not _branch_scores(branch):
            continue
        for test in [condition, *condition.iter()]:
            if not isinstance(test.tag, str) or xmlsafe.local(test) not in ("match", "member", "contains"):
                continue
            if any(xmlsafe.local(a) == "not" for a in test.iterancestors() if a is not branch):
                continue
            names = [v.get("identifier") for v in xmlsafe.children(test, "variable")]
            if response in names:
                keys |= {(v.text or "").strip() for v in xmlsafe.descendants(test, "basevalue")}
        if keys:
            return keys
    return set()


def _modal(item, choices: set[str]) -> tuple[dict[str, object], list, list, list]:
    """Modal feedback by what shows it: per choice, for "correct", for "incorrect", and the rest."""
    own: dict[str, object] = {}
    correct, incorrect, general = [], [], []
    for feedback in xmlsafe.descendants(item, "modalfeedback"):
        ident = feedback.get("identifier") or ""
        shown = (xmlsafe.attribute(feedback, "showHide", "show") or "show").lower() == "show"
        if shown and ident in choices:
            own.setdefault(ident, feedback)
        elif shown and ident.lower() in ("correct", "right", "true_fb", "correct_fb"):
            correct.append(feedback)
        elif shown and ident.lower() in ("incorrect", "wrong", "false_fb", "incorrect_fb"):
            incorrect.append(feedback)
        else:
            general.append(feedback)
    return own, correct, incorrect, general


def _feedback_text(elements: list) -> str:
    return "\n\n".join(t for t in (xmlsafe.plain(e, literal=True) for e in elements) if t)


def _option(choice, index: int, keys: set[str], own: dict, correct: list, incorrect: list, draft: Draft,
            where: xmlsafe.Positions) -> dict:
    """One choice as an option: its inline feedback, else modal feedback naming it, else that of its outcome."""
    ident = choice.get("identifier", "")
    key = ident in keys
    option: dict = {"text": xmlsafe.plain(choice, _CHOICE_SKIP, True, images=True), "correct": key}
    draft.positions[f"options[{index}]"] = draft.positions[f"options[{index}].text"] = where(choice)
    inline = xmlsafe.descendants(choice, "feedbackinline")
    chosen = inline[:1] or ([own[ident]] if ident in own else (correct if key else incorrect))
    text = _feedback_text(chosen)
    if text:
        option["rationale"] = text
        draft.positions[f"options[{index}].rationale"] = where(chosen[0])
    return option


def item_draft(item, where: xmlsafe.Positions, skipped: dict, limits: Limits) -> Draft | None:
    """One QTI 2/3 item as a draft question, or None (counted in ``skipped``) when it is not multiple choice or
    its key cannot be determined."""
    on_time(limits)
    at = where(item)
    body = xmlsafe.child(item, "itembody")
    interactions = [e for e in (body.iter() if body is not None else ()) if isinstance(e.tag, str)
                    and xmlsafe.local(e).endswith("interaction")]
    if len(interactions) != 1 or xmlsafe.local(interactions[0]) != "choiceinteraction":
        kinds = sorted({xmlsafe.local(e).removesuffix("interaction") or "interaction" for e in interactions})
        _count(skipped, "several interactions" if len(interactions) > 1 else (kinds[0] if kinds else "no interaction"), at)
        return None
    interaction = interactions[0]
    if xmlsafe.descendants(item, "templatedeclaration"):   # its texts and key are generated when it is delivered
        _count(skipped, "template", at)
        return None
    response = xmlsafe.attribute(interaction, "responseIdentifier", "RESPONSE") or "RESPONSE"
    declared = [d for d in xmlsafe.descendants(item, "responsedeclaration") if d.get("identifier") == response]
    keys = set().union(*(_declared_keys(d) for d in declared)) or _processed_keys(item, response)
    choices = xmlsafe.descendants(interaction, "simplechoice")
    idents = {c.get("identifier", "") for c in choices}
    processing = xmlsafe.child(item, "responseprocessing")
    stated = any(xmlsafe.child(d, n) is not None for d in declared for n in ("correctresponse", "mapping"))
    if not keys & idents and processing is None and not stated:   # nothing scores it: a survey or likert item
        _count(skipped, "unscored choice", at)
        return None
    if not keys & idents and processing is not None and not processing.get("template") and len(processing):
        # its own scoring logic, in a form qlint does not follow
        _count(skipped, "choice item whose key cannot be determined", at)
        return None
    prompt = xmlsafe.child(interaction, "prompt")
    lead = xmlsafe.plain(body, _SKIP_BODY, True, images=True) if body is not None else ""
    stem = "\n\n".join(t for t in (lead, xmlsafe.plain(prompt, literal=True, images=True) if prompt is not None else "")
                       if t)
    draft = Draft({"id": item.get("identifier") or None, "stem": stem}, *at, name=item.get("title"))
    if not draft.fields["id"]:
        del draft.fields["id"]
    draft.positions["stem"] = where(prompt if prompt is not None and not lead else (body if body is not None else item))
    own, correct, incorrect, general = _modal(item, idents)
    options = [_option(choice, index, keys, own, correct, incorrect, draft, where) for index, choice in enumerate(choices)]
    draft.fields["options"] = options
    cardinality = declared[0].get("cardinality", "single") if declared else "single"
    if cardinality != "single" or xmlsafe.attribute(interaction, "maxChoices", "1") != "1":
        draft.fields["select"] = max(1, len(keys & idents))
    explanation = _feedback_text(general)
    if explanation:
        draft.fields["explanation"] = explanation
        draft.positions["explanation"] = where(general[0])
    return draft
