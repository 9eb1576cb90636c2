"""The judge's verdict as a pydantic model built from a rubric, and what is computed from it.

For every criterion the model has a rationale field, then the score field (in that
order, so the judge writes its reasons before its numbers). A scale score is a
``Literal`` of the rubric's levels (the JSON schema shows the allowed values); a
first-error score is ``-1`` or a step number, checked against ``n_steps`` from the
validation context. A failed check is a validation error, which the LLM client sends
back to the model as the reason for a re-ask.

Also here: k-sample aggregation (mean or median per criterion, with the spread) and the
logprob-weighted expected score of a criterion when the provider returned the top
alternatives of the score token.
"""

from __future__ import annotations

import math
import re
import statistics
from collections import Counter
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, create_model, model_validator

from rubrics import NO_ERROR, Rubric

Aggregate = Literal["mean", "median"]


class VerdictBase(BaseModel):
    """Base of every rubric's verdict model; checks step numbers against the context."""

    model_config = ConfigDict(extra="forbid")

    rubric: ClassVar[Rubric]

    @model_validator(mode="after")
    def _steps_in_range(self, info: ValidationInfo) -> VerdictBase:
        ctx = info.context or {}
        n = ctx.get("n_steps")
        for c in self.rubric.criteria:
            if c.kind != "first_error":
                continue
            v = getattr(self, c.id)
            if v == NO_ERROR:
                continue
            if v < 1 or (n is not None and v > n):
                top = f"{n}" if n is not None else "the last step"
                raise ValueError(f"{c.id} = {v}: must be -1 (no wrong step) or a step number from 1 to {top}")
        return self

    def parts(self) -> dict[str, int]:
        """The score of every criterion, by id."""
        return {c.id: int(getattr(self, c.id)) for c in self.rubric.criteria}

    def rationales(self) -> dict[str, str]:
        """The rationale of every criterion, by id."""
        return {c.id: getattr(self, f"{c.id}_rationale") for c in self.rubric.criteria}


def verdict_model(rubric: Rubric) -> type[VerdictBase]:
    """Build the verdict model of ``rubric`` (rationale before score, for each criterion)."""
    fields: dict[str, Any] = {}
    for c in rubric.criteria:
        fields[f"{c.id}_rationale"] = (str, Field(description=f"Why the score for '{c.id}' is what it is; "
                                                   "cite step numbers. Written before the score."))
        if c.kind == "scale":
            levels = tuple(range(c.lo, c.hi + 1))
            fields[c.id] = (Literal[levels], Field(description=f"{c.question} One of {list(levels)}."))  # type: ignore[valid-type]
        else:
            fields[c.id] = (int, Field(description=f"{c.question} -1 if no step is wrong, else the step number."))
    name = "Verdict_" + re.sub(r"\W", "_", rubric.name) + f"_v{rubric.version}"
    model = create_model(name, __base__=VerdictBase, **fields)
    model.rubric = rubric
    return model


# -- logprobs ------------------------------------------------------------------------

def _alternatives(tok: dict[str, Any]) -> list[dict[str, Any]]:
    return tok.get("top") or tok.get("top_logprobs") or []


def expected_from_logprobs(logprobs: list[dict[str, Any]] | None, rubric: Rubric,
                           text: str | None = None) -> dict[str, float]:
    """Return ``{criterion: expected score}`` for the scale criteria whose score token was found.

    The output text is rebuilt from the tokens; for each scale criterion the token that
    starts the value of ``"<id>":`` is located, and its top alternatives that read as one
    of the rubric's levels are renormalised: ``E = sum(p_i * v_i) / sum(p_i)``. A
    criterion is left out when its score is not a single token (e.g. ``10`` split into
    ``1`` + ``0``) or no alternative is a level.
    """
    if not logprobs:
        return {}
    tokens = [str(t.get("token", "")) for t in logprobs]
    starts, pos = [], 0
    for t in tokens:
        starts.append(pos)
        pos += len(t)
    joined = "".join(tokens)
    out: dict[str, float] = {}
    for c in rubric.criteria:
        if c.kind != "scale":
            continue
        m = re.search(r'"' + re.escape(c.id) + r'"\s*:\s*(\d+)', joined)
        if not m:
            continue
        at = m.start(1)
        idx = max(i for i, s in enumerate(starts) if s <= at)
        chosen = tokens[idx][at - starts[idx]:]
        if not re.fullmatch(r"\d+\W*", chosen) or re.match(r"\d+", chosen).group(0) != m.group(1):
            continue  # the number spans several tokens: no single distribution to weigh
        num, den = 0.0, 0.0
        for alt in _alternatives(logprobs[idx]):
            s = str(alt.get("token", "")).strip().strip('",')
            if s.lstrip("-").isdigit() and c.lo <= int(s) <= c.hi:
                p = math.exp(float(alt["logprob"]))
                num += p * int(s)
                den += p
        if den > 0:
            out[c.id] = num / den
    return out


# -- aggregation ---------------------------------------------------------------------

def spread(values: list[float]) -> dict[str, float | None]:
    """Population standard deviation, minimum and maximum of k values."""
    return {
        "std": statistics.pstdev(values) if len(values) > 1 else 0.0,
        "min": min(values),
        "max": max(values),
    }


def aggregate_parts(samples: list[dict[str, int]], rubric: Rubric, *, how: Aggregate) -> dict[str, float]:
    """Aggregate k verdicts' parts: mean or median for scale criteria, majority for the first error.

    A first-error step is a location, not a quantity, so it takes the most common answer
    (ties go to the earliest step, -1 counting as "after the last step").
    """
    out: dict[str, float] = {}
    for c in rubric.criteria:
        vals = [s[c.id] for s in samples]
        if c.kind == "scale":
            out[c.id] = statistics.fmean(vals) if how == "mean" else float(statistics.median(vals))
        else:
            counts = Counter(vals)
            best = max(counts.values())
            tied = [v for v, k in counts.items() if k == best]
            out[c.id] = min(tied, key=lambda v: math.inf if v == NO_ERROR else v)
    return out
