"""Published scoring semantics we reproduce for ``mode="official"``, ported faithfully.

VLMEvalKit (https://github.com/open-compass/VLMEvalKit), Apache-2.0, Copyright the
VLMEvalKit authors:

- :func:`can_infer_option`, :func:`can_infer_text`, :func:`can_infer` are ported from
  ``vlmeval/utils/matching_util.py`` at commit 18fc37a5337e31eec9c104887728ad14e82a6a85
  (the version without the later "letter not among the last five tokens" condition), with
  the ``VERBOSE`` logging branch left out (it is off by default). Their defects are kept on
  purpose, because they are what the published numbers were computed with: an option
  letter is accepted only when exactly one option letter appears anywhere in the text as
  a token, so the article "A" counts and a chain of thought that mentions two options
  fails; any unique option text contained in the response is accepted.
- :func:`ocr_reasoning_post_check` is ``post_check(line, prefetch=False)`` of
  ``vlmeval/dataset/utils/ocr_reasoning.py`` (commit 1a32f51479d664522e16a61a33538679eba7f045),
  which turns the LLM extractor's answer string into a hit: ``can_infer`` for multiple
  choice; ``int()`` / ``float()`` of the string for integer / float answers (so ``$3.24``
  and ``45%`` raise ValueError and count as misses, and floats are compared with ``==``);
  otherwise case-sensitive string equality after removing spaces. It evaluated the
  ``choices`` string as Python code; here the choices arrive already parsed (literals only).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

_REJECT_TO_ANSWER = (
    "Sorry, I can't help with images of people yet.",
    "I can't process this file.",
    "I'm sorry, but without the image provided",
    "Cannot determine the answer",
)
_STRIP = ".()[],:;!*#{}"
_STRIP_TABLE = str.maketrans({c: " " for c in _STRIP})


def can_infer_option(answer: str, choices: Mapping[str, str]) -> str | bool:
    """Return the single option letter present as a token in ``answer``, 'Z' for a refusal, else False."""
    if "Failed to obtain answer via API" in answer:
        return False
    for err in _REJECT_TO_ANSWER:
        if err in answer:
            return "Z"
    splits = [x.strip() for x in answer.translate(_STRIP_TABLE).split()]
    # The original counts with `c in splits` on a list; a set gives the same counts faster.
    present = set(splits)
    count = sum(1 for c in choices if c in present)
    if count == 1:
        for ch in choices:
            if ch in present:
                return ch
    elif count == 0 and sum(1 for c in ("Z", "") if c in present) == 1:
        return "Z"
    return False


def can_infer_text(answer: str, choices: Mapping[str, str]) -> str | bool:
    """Return the letter of the only option whose text occurs in ``answer`` (case-folded), else False."""
    answer = answer.lower()
    cands = [k for k, v in choices.items() if str(v).lower() in answer]
    if len(cands) == 1:
        return cands[0]
    return False


def can_infer(answer: object, choices: Mapping[str, str]) -> str | bool:
    """VLMEvalKit's rule matcher: an option letter if one can be inferred, else False."""
    answer = str(answer)
    copt = can_infer_option(answer, choices)
    return copt if copt else can_infer_text(answer, choices)


def letter_dict(choices: Sequence[str]) -> dict[str, str]:
    """``list_to_dict`` of the original: option texts keyed A, B, C, ..."""
    return {chr(65 + i): v for i, v in enumerate(choices)}


def ocr_reasoning_post_check(res: object, gold: object, *, question_type: str, answer_type: str,
                             choices: Sequence[str] | None = None) -> bool:
    """Apply OCR-Reasoning's official hit test to an extracted answer string ``res``.

    ``question_type`` is ``multi_choice`` or ``free_form``; ``answer_type`` is the official
    ``integer``, ``float`` or anything else (string comparison). For multiple choice
    ``gold`` is the answer option letter.
    """
    ans: object = gold
    out: object = None
    try:
        if question_type == "multi_choice":
            if choices is None:
                raise ValueError("official OCR-Reasoning multiple-choice scoring needs the choices")
            out = can_infer(res, letter_dict(choices))
        elif answer_type == "integer":
            out = int(res)  # type: ignore[call-overload]
            ans = int(gold)  # type: ignore[call-overload]
        elif answer_type == "float":
            out = float(res)  # type: ignore[arg-type]
            ans = float(gold)  # type: ignore[arg-type]
        else:
            out = str(res).replace(" ", "")
            ans = str(gold).replace(" ", "")
    except ValueError as e:
        if "needs the choices" in str(e):
            raise
        # The original swallows ValueError: whatever `out` holds then is compared.
    return out == ans
