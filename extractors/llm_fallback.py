"""The LLM extraction fallback: ask a model for the final answer the rules could not find.

Called only when the rules found no confident answer and the reason is one an LLM can
fix (``ASKABLE``: ``no_answer`` and the ``unparsable_*`` reasons). Reasons that mean
the response truly gives no single answer are final, and no model is asked:
``refusal``, ``none_of_the_options``, ``several_final_answers``, ``not_an_option``,
``empty_response`` (an LLM asked anyway tends to pick an answer the response never
committed to).

The model must return ``{"answer": ..., "evidence": ...}`` where ``answer`` is constrained
to the values allowed for the answer type (an option letter within range, a set or a
sequence of such letters, a number, yes/no, a clock time, ...) or null when the response
states none, and ``evidence`` is a verbatim quote of the response, checked (whitespace
normalised, nothing else) to occur in it. A quote that does not occur is sent back as a
validation error (a re-ask, by the LLM client); when the re-asks run out, the row gets
no answer with reason ``llm_no_evidence``. Values are normalised to the same forms as
the rules' (see ``extractors/__init__.py``).

This module does not import ``judge``: the LLM is passed in, typed by ``AnswerLLM``,
which ``judge.llm.LLMClient`` satisfies. Two ways to call it::

    ex = await llm_extract(llm, response, "choice", choices=["3", "4", "5"])   # one row

    req = build_request(response, "choice", choices=[...])       # many rows, e.g. with
    result = await llm.acomplete(req.spec, req.response_model,  # LLMClient.run(jobs)
                                 validation_context=req.validation_context)
    ex = read_result(req, result)
"""

from __future__ import annotations

import hashlib
import re
import string
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, create_model, field_validator, model_validator

from extractors.choice import option_letters
from extractors.clock import parse_time
from extractors.currency import code_of
from extractors.duration import parse_duration_value
from extractors.markup import clean_value
from extractors.types import ANSWER_TYPES, AnswerType, Extraction, Parsed

#: Rule reasons the LLM may resolve; any other reason is final.
ASKABLE: frozenset[str] = frozenset({
    "no_answer", "unparsable_number", "unparsable_time", "unparsable_duration",
})
#: Bump when the prompt template or the answer forms change (it is part of the cache key).
PROMPT_VERSION = "llm-extract-1"
#: The phrase the evidence check's error carries; how a failed row is told apart.
NOT_IN_RESPONSE = "is not a verbatim quote of the response"

_TEMPLATE = string.Template((Path(__file__).with_name("llm_fallback.txt")).read_text(encoding="utf-8"))

_FORMS: dict[str, str] = {
    "choice": "one option letter (a string), e.g. \"B\".",
    "multi_choice": "the list of every option letter the response selects, e.g. [\"A\", \"C\"].",
    "ordering": "the list of option letters in the order the response gives, repeats kept, e.g. [\"B\", \"D\", \"A\"].",
    "integer": "a number (JSON number), without units.",
    "float": "a number (JSON number), without units.",
    "currency": "the amount as a JSON number, and \"currency\": the ISO code or symbol the response uses (or null).",
    "percent": "the number in percent units as a JSON number (12.5% -> 12.5).",
    "time": "the clock time as the response writes it, e.g. \"7:30 pm\" or \"19:30\".",
    "duration": "the duration as the response writes it, e.g. \"2 hours 15 minutes\".",
    "yes_no": "\"yes\" or \"no\".",
    "text": "the answer as the response words it (a short phrase, at most 40 words).",
}


class AnswerLLM(Protocol):
    """What the fallback needs from an LLM client (``judge.llm.LLMClient`` has it).

    ``spec`` is a mapping with the fields of ``judge.llm.CallSpec`` (``messages``,
    ``prompt_version``, ``temperature``, ``max_tokens``, ``tag``). The result has
    ``value`` (the validated response model or None), ``error``, ``error_kind`` and ``model``.
    """

    async def acomplete(self, spec: Any, response_model: Any = None, *,
                        validation_context: dict[str, Any] | None = None) -> Any: ...


def needs_llm(extraction: Extraction) -> bool:
    """Return True when the rules found nothing and an LLM may find the stated answer."""
    return extraction.value is None and extraction.reason in ASKABLE


def _squash(s: str) -> str:
    return " ".join(s.split())


def locate(quote: str, response: str) -> str:
    """Return the span of ``response`` that ``quote`` matches up to whitespace (else ``quote``)."""
    words = quote.split()
    if not words:
        return quote
    m = re.search(r"\s+".join(map(re.escape, words)), response)
    return m.group(0) if m else quote


class _Base(BaseModel):
    model_config = ConfigDict(extra="forbid")

    evidence: str | None = Field(default=None, description="verbatim span of the response stating the answer")

    @model_validator(mode="after")
    def _evidence_in_response(self, info: ValidationInfo) -> _Base:
        if getattr(self, "answer", None) is None:
            return self
        quote = _squash(self.evidence or "")
        if not quote:
            raise ValueError("an answer needs evidence: quote the span of the response that states it")
        response = (info.context or {}).get("response")
        if response is not None and quote not in _squash(response):
            raise ValueError(f"evidence {self.evidence!r} {NOT_IN_RESPONSE}; copy the span exactly")
        return self


def _time_ok(v: str | None) -> str | None:
    if v is None:
        return None
    got = parse_time(v.strip(), 0, len(v.strip()))
    if not isinstance(got, Parsed):
        raise ValueError(f"cannot read a clock time from {v!r}")
    return v


def _duration_ok(v: str | None) -> str | None:
    if v is not None and parse_duration_value(v.strip()) is None:
        raise ValueError(f"cannot read a duration from {v!r}")
    return v


@lru_cache(maxsize=128)
def answer_model(answer_type: AnswerType, letters: str = "", length: int | None = None) -> type[_Base]:
    """Return the response model for ``answer_type`` (letters: the allowed option letters)."""
    if answer_type not in ANSWER_TYPES:
        raise ValueError(f"unknown answer type {answer_type!r}")
    fields: dict[str, Any] = {}
    validators: dict[str, Any] = {}
    if answer_type in ("choice", "multi_choice", "ordering"):
        if not letters:
            raise ValueError(f"answer type {answer_type!r} needs the options")
        letter = Literal[tuple(letters)]  # type: ignore[valid-type]
        if answer_type == "choice":
            fields["answer"] = (letter | None, None)
        else:
            lo, hi = (length, length) if length else (1, None)
            fields["answer"] = (list[letter] | None, Field(default=None, min_length=lo, max_length=hi))  # type: ignore[valid-type]
    elif answer_type in ("integer", "float", "percent"):
        fields["answer"] = (float | int | None, None)
    elif answer_type == "currency":
        fields["answer"] = (float | int | None, None)
        fields["currency"] = (str | None, None)
    elif answer_type == "yes_no":
        fields["answer"] = (Literal["yes", "no"] | None, None)
    elif answer_type == "time":
        fields["answer"] = (str | None, None)
        validators["_time"] = field_validator("answer")(lambda cls, v: _time_ok(v))
    elif answer_type == "duration":
        fields["answer"] = (str | None, None)
        validators["_duration"] = field_validator("answer")(lambda cls, v: _duration_ok(v))
    else:
        fields["answer"] = (str | None, Field(default=None, max_length=400))
    name = "FinalAnswer"
    model = create_model(name, __base__=_Base, __validators__=validators, **fields)
    model.__doc__ = f"The final answer stated in the response ({_FORMS[answer_type]}), with a verbatim quote."
    return model


@dataclass(frozen=True)
class FallbackRequest:
    """One call to make: the spec (CallSpec fields), the response model, the context."""

    spec: dict[str, Any]
    response_model: type[BaseModel]
    validation_context: dict[str, Any]
    answer_type: AnswerType
    letters: str


def _fence(response: str) -> str:
    # A delimiter the response cannot close: derived from its hash, and checked.
    tag = hashlib.sha256(response.encode("utf-8")).hexdigest()[:12]
    fence = f"=====RESPONSE-{tag}====="
    while fence in response:
        fence = "=" + fence + "="
    return fence


def build_request(response: str, answer_type: AnswerType, *, choices: Sequence[str] | None = None,
                  question: str | None = None, length: int | None = None,
                  max_tokens: int = 512) -> FallbackRequest:
    """Return the call that asks for the final answer of ``response``.

    ``choices`` are the option texts, lettered A, B, ... in order (needed for the letter
    types); ``length`` fixes the length of an ``ordering`` when it is known.
    """
    letters = option_letters(choices) if answer_type in ("choice", "multi_choice", "ordering") else ""
    model = answer_model(answer_type, letters, length if answer_type == "ordering" else None)
    question_block = f"\nQuestion:\n{question.strip()}\n" if question and question.strip() else ""
    options_block = ""
    if choices and letters:
        options_block = "\nOptions:\n" + "\n".join(f"{l}. {c}" for l, c in zip(letters, choices)) + "\n"
    form = _FORMS[answer_type]
    if answer_type == "ordering" and length:
        form += f" Exactly {length} letters."
    prompt = _TEMPLATE.substitute(fence=_fence(response), answer_form=form, question_block=question_block,
                                  options_block=options_block, response=response)
    spec = {"messages": [{"role": "user", "content": prompt}], "prompt_version": PROMPT_VERSION,
            "temperature": 0.0, "max_tokens": max_tokens, "tag": "extract"}
    return FallbackRequest(spec, model, {"response": response}, answer_type, letters)


def _normalise(answer_type: str, got: Any) -> tuple[Any, str | None]:
    v = got.answer
    if answer_type == "multi_choice":
        return sorted(set(v)), None
    if answer_type == "ordering":
        return list(v), None
    if answer_type == "integer":
        return (int(v) if float(v).is_integer() else float(v)), None
    if answer_type == "float":
        return (int(v) if isinstance(v, int) else float(v)), None
    if answer_type == "percent":
        return v, "%"
    if answer_type == "currency":
        return v, (code_of(got.currency.strip()) if got.currency and got.currency.strip() else None)
    if answer_type == "time":
        parsed = parse_time(v.strip(), 0, len(v.strip()))
        return parsed.value, None  # type: ignore[union-attr]  # checked by the model's validator
    if answer_type == "duration":
        return parse_duration_value(v.strip()), "s"
    if answer_type == "text":
        return clean_value(v) or None, None
    return v, None


def read_result(request: FallbackRequest, result: Any) -> Extraction | None:
    """Turn the LLM's result into an Extraction (``method="llm"``).

    Returns None when the call was not made (``error_kind`` ``budget`` or ``dry_run``):
    the rules' extraction stands and a later run may ask. A transport failure or a
    refused request raises ``LLMFallbackError`` (the row is failed, not unanswered).
    """
    kind = getattr(result, "error_kind", None)
    error = getattr(result, "error", None)
    if kind in ("budget", "dry_run"):
        return None
    if error is not None:
        if kind == "invalid_output":
            reason = "llm_no_evidence" if (NOT_IN_RESPONSE in error or "needs evidence" in error) else "llm_invalid_answer"
            return Extraction(reason=reason, method="llm")
        raise LLMFallbackError(error)
    got = result.value
    if got is None or got.answer is None:
        return Extraction(reason="llm_no_answer", method="llm")
    value, unit = _normalise(request.answer_type, got)
    if value is None:
        return Extraction(reason="llm_no_answer", method="llm")
    # The evidence row holds the response's own characters, not the model's re-spacing of them.
    evidence = locate(got.evidence or "", request.validation_context["response"])
    return Extraction(value=value, method="llm", evidence=evidence, unit=unit)


class LLMFallbackError(Exception):
    """The fallback call itself failed (transport, refused request); the message says why."""


async def llm_extract(llm: AnswerLLM, response: str, answer_type: AnswerType, *,
                      choices: Sequence[str] | None = None, question: str | None = None,
                      length: int | None = None) -> Extraction | None:
    """Ask ``llm`` for the final answer of ``response``; see ``read_result`` for the outcomes."""
    req = build_request(response, answer_type, choices=choices, question=question, length=length)
    result = await llm.acomplete(req.spec, req.response_model, validation_context=req.validation_context)
    return read_result(req, result)
