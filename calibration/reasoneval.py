"""Readers for the MR-MATH files of ReasonEval (gold labels and evaluator outputs).

They turn ReasonEval's encodings into the conventions of ``calibration.steps`` (solution
label 1 = correct; 0-based first-error index, -1 = none), following ReasonEval's
``codes/mr-math_eval.py`` to the letter so that its published numbers come out exactly:

- gold ``model_output_solution_first_error_step`` is 1-based, ``"N/A"`` when correct;
- an LLM verdict counts as "correct" only if ``correctness_pred`` is exactly ``Correct`` or
  ``correct``, as "wrong" only if exactly ``Wrong`` or ``wrong``; anything else is a miss;
- an LLM's error step is the first run of digits in ``error_step_pred`` ("Step 3" -> 3); when
  there is none, or it exceeds the number of steps, the prediction is "no error";
- ReasonEval-model scores are ``p(positive) + p(neutral)`` per sub-step (items 2 + 1 of each
  triple), Math-Shepherd's the score itself; a step's score is the minimum over its
  sub-steps, a solution's the minimum over all sub-steps; ROSCOE gives one score per solution.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from judge.errors import InputError
from judge.io import read_jsonl

__all__ = [
    "MrMathSolution",
    "MrMathVerdict",
    "gold_first_error",
    "verdict_solution_label",
    "verdict_first_error",
    "read_mrmath_gold",
    "read_mrmath_verdicts",
    "read_mrmath_scores",
]

ScoreKind = Literal["reasoneval", "math-shepherd", "roscoe"]


@dataclass(frozen=True)
class MrMathSolution:
    """One gold solution: its label, first-error index and sub-step counts per step."""

    id: str
    label: int  # 1 correct, 0 erroneous
    first_error: int  # 0-based, -1 = none
    substeps: tuple[int, ...]  # number of sub-steps of each step

    @property
    def n_steps(self) -> int:
        return len(self.substeps)


@dataclass(frozen=True)
class MrMathVerdict:
    """One LLM evaluator's raw verdict fields, as ReasonEval stores them."""

    id: str
    correctness_pred: str
    error_step_pred: str


def gold_first_error(value: Any) -> int:
    """Convert ReasonEval's 1-based first error step (``"N/A"`` = none) to a 0-based index (-1 = none)."""
    if value == "N/A":
        return -1
    step = int(value)
    if step < 1:
        raise ValueError(f"first error step {value!r}: steps are numbered from 1")
    return step - 1


def verdict_solution_label(correctness_pred: str) -> int | None:
    """Return 1 for exactly ``Correct``/``correct``, 0 for ``Wrong``/``wrong``, else None (a miss)."""
    if correctness_pred in ("Correct", "correct"):
        return 1
    if correctness_pred in ("Wrong", "wrong"):
        return 0
    return None


_DIGITS = re.compile(r"(\d+)")


def verdict_first_error(correctness_pred: str, error_step_pred: str, n_steps: int) -> int:
    """Return the 0-based first-error index an LLM verdict predicts (-1 = no error).

    As ReasonEval's step-level code: a ``Correct``/``correct`` verdict predicts no error;
    otherwise the first number in ``error_step_pred`` is the 1-based error step, and a
    missing or out-of-range number falls back to "no error".
    """
    if correctness_pred in ("Correct", "correct"):
        return -1
    found = _DIGITS.findall(error_step_pred)
    if not found:
        return -1
    step = int(found[0])
    if step > n_steps:
        return -1
    if step < 1:
        # ReasonEval's code would build a label list one longer than the solution here
        # and fail its own assert; no published file has it, so refuse loudly.
        raise ValueError(f"error step {error_step_pred!r}: steps are numbered from 1")
    return step - 1


def _field(row: dict[str, Any], name: str, path: str, line: int) -> Any:
    if name not in row:
        raise InputError("required", path=path, line=line, field=name)
    return row[name]


def read_mrmath_gold(path: str | os.PathLike[str]) -> list[MrMathSolution]:
    """Read ``mr-math_invalid_errors.jsonl``: one ``MrMathSolution`` per line, in file order."""
    out = []
    p = str(path)
    for line, row in read_jsonl(path):
        correctness = _field(row, "model_output_solution_correctness", p, line)
        steps = _field(row, "model_output_step_format", p, line)
        if not isinstance(steps, list) or not steps or not all(isinstance(s, list) and s for s in steps):
            raise InputError("expected a non-empty list of non-empty step lists", path=p, line=line,
                             field="model_output_step_format")
        try:
            first_error = gold_first_error(_field(row, "model_output_solution_first_error_step", p, line))
        except (TypeError, ValueError) as e:
            raise InputError(str(e), path=p, line=line, field="model_output_solution_first_error_step") from e
        if correctness not in ("correct", "wrong"):
            raise InputError(f"expected 'correct' or 'wrong', got {correctness!r}", path=p, line=line,
                             field="model_output_solution_correctness")
        # ReasonEval counts a solution as erroneous only if it is 'wrong' AND has an error step.
        label = 0 if correctness == "wrong" and first_error != -1 else 1
        if label == 1 and correctness == "wrong":
            raise InputError("'wrong' solution without a first error step", path=p, line=line,
                             field="model_output_solution_first_error_step")
        if first_error >= len(steps):
            raise InputError(f"first error step {first_error + 1} beyond the {len(steps)} steps", path=p,
                             line=line, field="model_output_solution_first_error_step")
        out.append(MrMathSolution(id=str(_field(row, "id", p, line)), label=label, first_error=first_error,
                                  substeps=tuple(len(s) for s in steps)))
    return out


def _check_ids(ids: Sequence[str], gold: Sequence[MrMathSolution], path: str) -> None:
    gold_ids = [g.id for g in gold]
    if list(ids) != gold_ids:
        missing = sorted(set(gold_ids) - set(ids))[:5]
        extra = sorted(set(ids) - set(gold_ids))[:5]
        raise InputError(f"ids do not match the gold file line by line (missing {missing}, unknown {extra})",
                         path=path)


def read_mrmath_verdicts(path: str | os.PathLike[str], gold: Sequence[MrMathSolution]) -> list[MrMathVerdict]:
    """Read an LLM evaluator's ``*_eval_results.jsonl``; its ids must match ``gold`` in order."""
    p = str(path)
    out = []
    for line, row in read_jsonl(path):
        fields = []
        for name in ("correctness_pred", "error_step_pred"):
            v = _field(row, name, p, line)
            if not isinstance(v, str):
                raise InputError(f"expected a string, got {type(v).__name__}", path=p, line=line, field=name)
            fields.append(v)
        out.append(MrMathVerdict(str(_field(row, "id", p, line)), *fields))
    _check_ids([v.id for v in out], gold, p)
    return out


def read_mrmath_scores(path: str | os.PathLike[str], gold: Sequence[MrMathSolution], *,
                       kind: ScoreKind) -> list[list[float]]:
    """Read a scoring evaluator's ``*_eval_results.jsonl`` as per-step scores (higher = more correct).

    ``kind`` says how ``scores`` is laid out: ``reasoneval`` (a ``[p_neg, p_neu, p_pos]``
    triple per sub-step; score ``p_neu + p_pos``), ``math-shepherd`` (a float per sub-step)
    or ``roscoe`` (one float per solution, returned as a one-element list). Sub-step scores
    are reduced to step scores by their minimum, using the gold file's step layout.
    """
    p = str(path)
    out: list[list[float]] = []
    ids = []
    gold_by_pos = list(gold)
    for line, row in read_jsonl(path):
        raw = _field(row, "scores", p, line)
        ids.append(str(_field(row, "id", p, line)))
        try:
            if kind == "roscoe":
                out.append([float(raw)])
                continue
            if kind == "reasoneval":
                sub = [float(t[2]) + float(t[1]) for t in raw]
            else:
                sub = [float(x) for x in raw]
        except (TypeError, ValueError, IndexError) as e:
            raise InputError(f"not a {kind} score list: {e}", path=p, line=line, field="scores") from e
        pos = len(out)
        if pos >= len(gold_by_pos):
            raise InputError(f"more rows than the {len(gold_by_pos)} gold solutions", path=p, line=line)
        layout = gold_by_pos[pos].substeps
        if len(sub) != sum(layout):
            raise InputError(f"{len(sub)} sub-step scores, the gold solution has {sum(layout)} sub-steps",
                             path=p, line=line, field="scores")
        steps, start = [], 0
        for k in layout:
            steps.append(min(sub[start:start + k]))
            start += k
        out.append(steps)
    _check_ids(ids, gold, p)
    return out
