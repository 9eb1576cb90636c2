"""The vocabulary shared by every extractor: answer types and the extraction result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Union, get_args

from pydantic import BaseModel, ConfigDict

AnswerType = Literal[
    "choice",        # one option letter
    "multi_choice",  # a set of option letters
    "ordering",      # a sequence of option letters; letters may repeat
    "integer",
    "float",
    "currency",
    "percent",
    "time",          # clock time of day
    "duration",
    "yes_no",
    "text",
]
ANSWER_TYPES: tuple[str, ...] = get_args(AnswerType)

#: A normalised answer: a letter or string, a list of letters, or a number.
AnswerValue = Union[str, float, int, list[str], None]

#: Why an extraction has no value. ``several_final_answers``: the response hedges between
#: answers; ``not_an_option``: its final answer is not one of the options;
#: ``none_of_the_options``: it says no option is right; ``unparsable_*``: it states a final
#: answer that is not a value of the asked type.
Reason = Literal[
    "empty_response",
    "no_answer",
    "refusal",
    "several_final_answers",
    "not_an_option",
    "none_of_the_options",
    "unparsable_number",
    "unparsable_time",
    "unparsable_duration",
]
REASONS: tuple[str, ...] = get_args(Reason)


class Extraction(BaseModel):
    """What an extractor found in a response, and how.

    ``value`` is the normalised answer, or None; when it is None, ``reason`` is a short
    code saying why (``no_answer``, ``refusal``, ``several_final_answers``, ...).
    ``method`` names the rule that produced it (or ``llm``); ``evidence`` is the span of
    the response the value came from, verbatim. ``unit`` is the unit the response stated
    (a currency code, ``%``, ``s`` for durations); ``magnitude`` the magnitude word that
    scaled the stated number (``万``, ``亿``, ``million``), already applied to ``value``.
    """

    model_config = ConfigDict(frozen=True)

    value: AnswerValue = None
    reason: str | None = None
    method: str | None = None
    evidence: str | None = None
    unit: str | None = None
    magnitude: str | None = None

    @property
    def found(self) -> bool:
        return self.value is not None


@dataclass(frozen=True, slots=True)
class Parsed:
    """A value read from a span of a response; ``start``/``end`` index the response."""

    value: AnswerValue
    start: int
    end: int
    unit: str | None = None
    magnitude: str | None = None


@dataclass(frozen=True, slots=True)
class NoValue:
    """A span that states a final answer which is not a usable value (hedge, refusal, ...)."""

    reason: str
