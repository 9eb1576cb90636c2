"""Metrics for step-level verifiers: ProcessBench F1 and the MR-MATH (ReasonEval) metrics.

Conventions shared by every function here (they are the ones the reasoning judge must
produce to be scored):

- **Solution label**: ``1`` = the solution is correct (no erroneous step), ``0`` = it has an
  error. A *predicted* solution label may also be ``None``: the judge gave no usable
  verdict. ``None`` is counted as a miss whatever the gold label -- exactly what
  ReasonEval's ``mr-math_eval.py`` does with a verdict it cannot read ("Wrong." or
  "**Correct**" match neither of its strings).
- **First-error index**: the 0-based index of the earliest erroneous step, ``-1`` when there
  is none (ProcessBench's ``label``). ReasonEval's files number steps from 1 and write
  ``"N/A"`` for none; ``calibration.reasoneval`` converts them.
- **Step labels** derived from a first-error index ``e`` over ``n`` steps: steps before ``e``
  are ``1`` (correct), step ``e`` is ``0`` (erroneous), steps after ``e`` are unlabelled
  (``None``) because an annotator stops at the first error. With ``e = -1`` all ``n`` steps
  are ``1``.

The macro-F1 used by ReasonEval is the mean of the F1 of the "correct" class and the F1 of
the "erroneous" class, each ``2 TP / (2 TP + FP + FN)``; it equals scikit-learn's
``f1_score(average="macro")`` once every missed prediction is replaced by the opposite of
the gold label, which is how it is computed here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

import numpy as np

from calibration.undefined import undefined

__all__ = [
    "step_labels",
    "processbench_accuracy",
    "processbench_f1_score",
    "solution_macro_f1_score",
    "step_macro_f1_score",
    "solution_auc_score",
    "threshold_predictions",
    "solution_score",
]


def step_labels(first_error: int, n_steps: int) -> list[int | None]:
    """Return the per-step labels implied by a 0-based first-error index (-1 = no error).

    >>> step_labels(2, 5)
    [1, 1, 0, None, None]
    >>> step_labels(-1, 3)
    [1, 1, 1]
    """
    _check_first_error(first_error, n_steps)
    if first_error == -1:
        return [1] * n_steps
    return [1] * first_error + [0] + [None] * (n_steps - first_error - 1)


def _check_first_error(first_error: int, n_steps: int) -> None:
    if n_steps < 1:
        raise ValueError(f"a solution needs at least one step, got n_steps={n_steps}")
    if not (-1 <= first_error < n_steps):
        raise ValueError(f"first-error index {first_error} outside [-1, {n_steps - 1}] for {n_steps} steps")


def processbench_accuracy(y_true: Sequence[int], y_pred: Sequence[int | None], *,
                          subset: Literal["erroneous", "correct"]) -> float:
    """Return the fraction of solutions in ``subset`` whose first-error index is predicted exactly.

    ``erroneous`` = solutions with ``y_true != -1`` (the predicted index must equal the gold
    one); ``correct`` = solutions with ``y_true == -1`` (the prediction must be ``-1``).
    A ``None`` prediction is never right. Range [0, 1]; NaN (with a warning) when the
    subset is empty.

    >>> processbench_accuracy([2, -1, 0], [2, -1, 1], subset="erroneous")
    0.5
    """
    t = np.asarray(y_true, dtype=int)
    p = np.array([-2 if v is None else int(v) for v in y_pred], dtype=int)  # -2 never matches
    if t.shape != p.shape:
        raise ValueError(f"y_true has {t.size} solutions, y_pred {p.size}")
    mask = t != -1 if subset == "erroneous" else t == -1
    if not mask.any():
        return undefined(f"no {subset} solutions in y_true: accuracy on them is undefined")
    return float(np.mean(t[mask] == p[mask]))


def processbench_f1_score(y_true: Sequence[int], y_pred: Sequence[int | None]) -> float:
    """Return ProcessBench's F1: the harmonic mean of the accuracies on erroneous and on correct solutions.

    ``y_true`` and ``y_pred`` are 0-based first-error indices (-1 = no error); ``None`` in
    ``y_pred`` is a missing prediction and counts as wrong. With ``a`` the accuracy on
    erroneous solutions and ``b`` on correct ones, ``F1 = 2ab / (a + b)``, in [0, 1]
    (ProcessBench prints it x100). ``0`` when both accuracies are 0; NaN (with a warning)
    when either subset is empty.

    >>> round(processbench_f1_score([1, 3, -1, -1], [1, 2, -1, 0]), 4)
    0.5
    """
    a = processbench_accuracy(y_true, y_pred, subset="erroneous")
    b = processbench_accuracy(y_true, y_pred, subset="correct")
    if math.isnan(a) or math.isnan(b):
        return math.nan
    if a + b == 0:
        return 0.0
    return 2 * a * b / (a + b)


def _fill_misses(y_true: np.ndarray, y_pred: Sequence[int | None]) -> np.ndarray:
    """Replace each ``None`` prediction by the opposite of its gold label (a miss either way)."""
    out = np.empty(len(y_pred), dtype=int)
    for i, (t, v) in enumerate(zip(y_true, y_pred)):
        if v is None:
            out[i] = 1 - t
        elif v in (0, 1):
            out[i] = int(v)
        else:
            raise ValueError(f"prediction {i}: expected 0, 1 or None, got {v!r}")
    return out


def _binary_macro_f1(t: np.ndarray, p: np.ndarray, what: str) -> float:
    from sklearn.metrics import f1_score

    present = set(np.unique(t).tolist())
    if present != {0, 1}:
        return undefined(f"{what}: y_true holds only class {sorted(present)}; "
                         "the F1 of the absent class is undefined", depth=2)
    return float(f1_score(t, p, labels=[0, 1], average="macro"))


def solution_macro_f1_score(y_true: Sequence[int], y_pred: Sequence[int | None]) -> float:
    """Return the solution-level macro-F1 of correct (1) / erroneous (0) verdicts.

    ``y_true`` holds gold labels (1 = correct solution, 0 = has an error); ``y_pred`` the
    judge's verdicts, ``None`` for an unusable one (a miss whatever the gold). Macro-F1 is
    the mean over the two classes of ``2 TP / (2 TP + FP + FN)``, in [0, 1]. NaN (with a
    warning) when ``y_true`` has only one class.

    This is ReasonEval's "solution level macro f1 score" (GPT-4 0.732 on MR-MATH invalid
    errors) and scikit-learn's ``f1_score(average="macro")``:

    >>> solution_macro_f1_score([0, 1, 1, 0, 1, 1], [0, 1, 0, 0, 1, 1])
    0.8285714285714285
    """
    t = np.asarray(y_true, dtype=int)
    if t.size != len(y_pred):
        raise ValueError(f"y_true has {t.size} solutions, y_pred {len(y_pred)}")
    return _binary_macro_f1(t, _fill_misses(t, y_pred), "solution_macro_f1_score")


def step_macro_f1_score(y_true: Sequence[int], y_pred: Sequence[int | None],
                        n_steps: Sequence[int]) -> float:
    """Return the step-level macro-F1 from gold and predicted first-error indices.

    Each solution ``i`` has ``n_steps[i]`` steps; ``y_true[i]`` and ``y_pred[i]`` are 0-based
    first-error indices (-1 = no error). Gold step labels are ``step_labels(y_true[i], n)``:
    only steps up to and including the gold first error are scored. A predicted index ``e``
    labels steps before ``e`` correct and step ``e`` erroneous, and says nothing about steps
    after ``e``: a scored gold step there is a miss (ReasonEval pads with ``'N/A'``, which
    equals neither label). ``None`` = no usable prediction: every scored step is a miss.
    The pooled step labels then go through ``solution_macro_f1_score``'s formula.

    >>> step_macro_f1_score([2, -1], [1, -1], [3, 2])  # steps: 1 1 0 | 1 1  vs  1 0 - | 1 1
    0.375
    """
    if not (len(y_true) == len(y_pred) == len(n_steps)):
        raise ValueError(f"lengths differ: y_true {len(y_true)}, y_pred {len(y_pred)}, n_steps {len(n_steps)}")
    gold: list[int] = []
    pred: list[int | None] = []
    for i, (t, p, n) in enumerate(zip(y_true, y_pred, n_steps)):
        g = step_labels(int(t), int(n))
        if p is None:
            q: list[int | None] = [None] * n
        else:
            try:
                q = step_labels(int(p), int(n))
            except ValueError as e:
                raise ValueError(f"prediction {i}: {e}") from e
        for gl, pl in zip(g, q):
            if gl is not None:
                gold.append(gl)
                pred.append(pl)
    t_arr = np.asarray(gold, dtype=int)
    return _binary_macro_f1(t_arr, _fill_misses(t_arr, pred), "step_macro_f1_score")


def solution_auc_score(y_true: Sequence[int], y_score: Sequence[float]) -> float:
    """Return the ROC AUC of solution scores against correct (1) / erroneous (0) labels.

    A higher score must mean "more likely correct". This is scikit-learn's
    ``roc_auc_score`` (ties count one half), in [0, 1], 0.5 for chance; NaN (with a
    warning) when ``y_true`` has one class only.

    >>> solution_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    """
    from sklearn.metrics import roc_auc_score

    t = np.asarray(y_true, dtype=int)
    s = np.asarray(y_score, dtype=float)
    if t.shape != s.shape:
        raise ValueError(f"y_true has {t.size} solutions, y_score {s.size}")
    if np.unique(t).size < 2:
        return undefined("solution_auc_score: y_true holds one class only; ROC AUC is undefined")
    return float(roc_auc_score(t, s))


def threshold_predictions(y_score: Sequence[float], threshold: float) -> list[int | None]:
    """Turn scores into verdicts: ``1`` above ``threshold``, ``0`` below, ``None`` on it.

    A score exactly on the threshold is neither (ReasonEval tests ``> t`` for correct and
    ``< t`` for erroneous), so it counts as a miss in ``solution_macro_f1_score``.

    >>> threshold_predictions([0.7, 0.2, 0.5], 0.5)
    [1, 0, None]
    """
    return [1 if s > threshold else 0 if s < threshold else None for s in y_score]


def solution_score(step_scores: Sequence[float], *, aggregate: Literal["min", "mean", "last"] = "min") -> float:
    """Reduce per-step scores to one solution score (``min``: a chain is as good as its worst step).

    ReasonEval and Math-Shepherd use ``min``.

    >>> solution_score([0.9, 0.3, 0.8])
    0.3
    """
    if len(step_scores) == 0:
        raise ValueError("no step scores to aggregate")
    if aggregate == "min":
        return float(min(step_scores))
    if aggregate == "mean":
        return float(np.mean(step_scores))
    return float(step_scores[-1])
