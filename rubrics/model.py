"""The strict model of a rubric file, and the deterministic item score it defines.

A rubric is data: a name, a version, criteria, and how their parts combine into one
item score in [0, 1]. Two kinds of criterion:

- ``scale``: an integer score on ``scale = [lo, hi]`` with a description for every
  level from ``lo`` to ``hi`` (a missing level is an error);
- ``first_error``: the number of the earliest wrong step of the response (1-based, as
  the prompt numbers them), or -1 when no step is wrong (ProcessBench's convention).

Combination methods (``[combine] method = ...``):

- ``weighted_mean``: every criterion normalised to [0, 1] and averaged with ``weights``
  (a scale score ``s`` gives ``(s - lo) / (hi - lo)``; a first error at step ``k`` of
  ``n`` gives ``(k - 1) / n``, the share of steps before it; no error gives 1);
- ``rating_over_max``: one scale criterion, score = ``s / hi`` (OCR-Reasoning's
  published semantics: rating / 10);
- ``no_error``: one first_error criterion, score = 1 when no step is wrong, else 0.

Every model here forbids unknown keys, so a misspelt key in a TOML file is an error.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

CriterionKind = Literal["scale", "first_error"]
CombineMethod = Literal["weighted_mean", "rating_over_max", "no_error"]

#: The value a ``first_error`` criterion takes when no step is wrong.
NO_ERROR = -1

_ID = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,39}$")]


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Criterion(_Strict):
    """One question the judge answers, with a description for every score level."""

    id: _ID
    kind: CriterionKind = "scale"
    question: str = Field(min_length=1)
    #: ``[lo, hi]`` for a scale criterion; absent for first_error.
    scale: tuple[int, int] | None = None
    #: Level -> description; TOML keys are strings ("1"), read as integers.
    levels: dict[int, str] = Field(default_factory=dict)
    #: For first_error: what "no wrong step" and "step k is the first wrong one" mean.
    none: str | None = None
    error: str | None = None

    @field_validator("levels", mode="before")
    @classmethod
    def _int_keys(cls, v: object) -> object:
        if isinstance(v, dict):
            out = {}
            for k, desc in v.items():
                try:
                    out[int(k)] = desc
                except (TypeError, ValueError):
                    raise ValueError(f"level {k!r} is not an integer") from None
            return out
        return v

    @model_validator(mode="after")
    def _check_kind(self) -> Criterion:
        if self.kind == "scale":
            if self.scale is None:
                raise ValueError("a scale criterion needs 'scale = [lo, hi]'")
            lo, hi = self.scale
            if lo >= hi:
                raise ValueError(f"scale [{lo}, {hi}]: lo must be below hi")
            missing = [k for k in range(lo, hi + 1) if not (self.levels.get(k) or "").strip()]
            if missing:
                raise ValueError(f"levels: missing description for level(s) {', '.join(map(str, missing))}")
            extra = sorted(k for k in self.levels if not lo <= k <= hi)
            if extra:
                raise ValueError(f"levels: {', '.join(map(str, extra))} outside scale [{lo}, {hi}]")
            if self.none is not None or self.error is not None:
                raise ValueError("'none' and 'error' belong to first_error criteria")
        else:
            if self.scale is not None or self.levels:
                raise ValueError("a first_error criterion takes 'none' and 'error', not 'scale'/'levels'")
            if not (self.none and self.error):
                raise ValueError("a first_error criterion needs 'none' and 'error' descriptions")
        return self

    @property
    def lo(self) -> int:
        return self.scale[0] if self.scale else NO_ERROR

    @property
    def hi(self) -> int:
        return self.scale[1] if self.scale else NO_ERROR

    def normalise(self, value: float, *, n_steps: int) -> float:
        """Map a score (or a first-error step) to [0, 1]; 1 is best."""
        if self.kind == "scale":
            lo, hi = self.scale  # type: ignore[misc]
            return (value - lo) / (hi - lo)
        if value == NO_ERROR:
            return 1.0
        return (value - 1) / n_steps if n_steps > 0 else 0.0


class Combine(_Strict):
    """How criterion parts make the item score."""

    method: CombineMethod
    weights: dict[str, float] = Field(default_factory=dict)


class Rubric(_Strict):
    """A rubric file: what the judge is asked and how its answers are scored."""

    name: Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]{0,39}$")]
    version: int = Field(ge=1)
    description: str = Field(min_length=1)
    #: Extra guidance placed in the prompt before the criteria.
    instructions: str = ""
    #: Whether the prompt shows the reference trajectory (and requires one).
    uses_reference: bool = True
    criteria: list[Criterion] = Field(min_length=1)
    combine: Combine

    @model_validator(mode="after")
    def _check_combine(self) -> Rubric:
        ids = [c.id for c in self.criteria]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ValueError(f"criteria: duplicate id(s) {', '.join(dup)}")
        if sum(c.kind == "first_error" for c in self.criteria) > 1:
            raise ValueError("criteria: at most one first_error criterion")
        m = self.combine
        if m.method == "weighted_mean":
            unknown = sorted(set(m.weights) - set(ids))
            if unknown:
                raise ValueError(f"combine.weights: unknown criterion id(s) {', '.join(unknown)}")
            missing = sorted(set(ids) - set(m.weights))
            if missing:
                raise ValueError(f"combine.weights: no weight for {', '.join(missing)}")
            if any(w < 0 for w in m.weights.values()) or sum(m.weights.values()) <= 0:
                raise ValueError("combine.weights: weights must be >= 0 with a positive sum")
        else:
            want = "scale" if m.method == "rating_over_max" else "first_error"
            if len(self.criteria) != 1 or self.criteria[0].kind != want:
                raise ValueError(f"combine.method '{m.method}' takes exactly one {want} criterion")
            if m.weights:
                raise ValueError(f"combine.method '{m.method}' takes no weights")
            if want == "scale" and self.criteria[0].lo < 0:
                raise ValueError("rating_over_max needs a scale starting at 0 or above")
        return self

    @property
    def first_error_criterion(self) -> Criterion | None:
        return next((c for c in self.criteria if c.kind == "first_error"), None)

    def item_score(self, parts: dict[str, float], *, n_steps: int) -> float:
        """Combine criterion values into the item score in [0, 1], as ``combine`` says.

        >>> r = load_rubric("ocr-reasoning")  # doctest: +SKIP
        >>> r.item_score({"rating": 7}, n_steps=3)  # doctest: +SKIP
        0.7
        """
        m = self.combine.method
        if m == "rating_over_max":
            c = self.criteria[0]
            return parts[c.id] / c.hi
        if m == "no_error":
            return 1.0 if parts[self.criteria[0].id] == NO_ERROR else 0.0
        total = sum(self.combine.weights.values())
        return sum(
            self.combine.weights[c.id] * c.normalise(parts[c.id], n_steps=n_steps) for c in self.criteria
        ) / total
