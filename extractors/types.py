"""The vocabulary shared by every extractor: answer types and the extraction result."""

from __future__ import annotations

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


class Extraction(BaseModel):
    """What an extractor found in a response, and how.

    ``value`` is the normalised answer, or None; when it is None, ``reason`` is a short
    code saying why (``no_answer``, ``refusal``, ``several_final_answers``, ...).
    ``method`` names the rule that produced it (or ``llm``); ``evidence`` is the span of
    the response the value came from, verbatim.
    """

    model_config = ConfigDict(frozen=True)

    value: AnswerValue = None
    reason: str | None = None
    method: str | None = None
    evidence: str | None = None
    unit: str | None = None

    @property
    def found(self) -> bool:
        return self.value is not None
