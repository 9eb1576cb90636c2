"""The data model at the edges: benchmark items, predictions, and a graded item.

Loaders (``judge.loaders``) turn the native formats of each benchmark into these models;
everything downstream (extraction, scoring, judging, reports) sees only these.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from extractors.types import AnswerType, AnswerValue

QuestionType = Literal["multi_choice", "free_form"]
Level = Literal["L1", "L2", "L3"]

#: OmniMapBench's nine map categories (paper, section 3).
MAP_CATEGORIES: tuple[str, ...] = (
    "Indoor Navigation",
    "Education & History",
    "Engineering & Facilities",
    "Transportation",
    "Tourism",
    "Topography & Remote Sensing",
    "Environment & Nature",
    "Socioeconomic",
    "Game",
)

class BenchmarkItem(BaseModel):
    """One question of a benchmark, in the shape every part of reasonjudge reads.

    ``choices`` are option texts lettered A, B, ... in order. ``gold`` is a string, or a
    list of letters for ``multi_choice`` / ``ordering``. ``reference`` is the annotated
    reasoning trajectory, when the benchmark has one.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    question: str = ""
    choices: list[str] | None = None
    gold: str | list[str] | None = None
    answer_type: AnswerType = "text"
    question_type: QuestionType = "free_form"
    format_hint: str | None = None
    reference: str | None = None
    ability: str | None = None
    task: str | None = None
    level: Level | None = None
    category: str | None = None
    language: str | None = None
    image: str | None = None
    #: Where the item came from, for error messages: "file:line".
    source: str | None = None
    #: Fields of the native record we do not model, kept so that nothing is lost.
    extra: dict[str, Any] = Field(default_factory=dict)


class Prediction(BaseModel):
    """A model's response to one item."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    response: str
    model: str | None = None


class PredictedItem(BaseModel):
    """An item paired with the response to grade."""

    model_config = ConfigDict(frozen=True)

    item: BenchmarkItem
    response: str | None
    model: str | None = None


__all__ = [
    "AnswerType",
    "AnswerValue",
    "BenchmarkItem",
    "Level",
    "MAP_CATEGORIES",
    "PredictedItem",
    "Prediction",
    "QuestionType",
]
