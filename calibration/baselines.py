"""Judges that know nothing about the items: the floor every agreement number must be read against.

Each baseline sees only the humans' scores *as a distribution* -- never which item got which --
and is fitted separately within each stratum (e.g. each SummEval dimension) when strata are
given, so that it is the strongest item-blind predictor:

- ``constant``: the humans' mean score (the best single value under squared error); for
  pairwise preferences ``tie``, for step labels ``-1`` ("no error anywhere").
- ``majority``: the humans' most frequent score (ties broken towards the smaller value).
- ``random``: a seeded draw from the humans' score distribution for every item; for step
  labels, "has an error" with the humans' rate and then a uniform step of that solution.

A constant rater has no correlation (the report shows NaN with the reason); on percent
agreement, MAE or the alt-test it can look strong -- which is the point of showing it.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from calibration.tables import PAIRWISE_TIE, Scale

__all__ = ["BASELINES", "Baseline", "baseline_predictions"]

Baseline = Literal["constant", "majority", "random"]
BASELINES: tuple[Baseline, ...] = ("constant", "majority", "random")


def _mode(values: np.ndarray) -> float:
    levels, counts = np.unique(values, return_counts=True)
    return float(levels[np.argmax(counts)])  # argmax takes the first, i.e. the smallest level


def baseline_predictions(human_scores: np.ndarray, *, kind: Baseline, scale: Scale,
                         strata: np.ndarray | None = None, n_steps: np.ndarray | None = None,
                         seed: int = 0) -> np.ndarray:
    """Return one baseline score per item, fitted on the humans' scores within each stratum.

    ``human_scores`` is items x humans (NaN = not rated); ``strata`` an integer code per item
    (default: one stratum); ``n_steps`` is needed for the ``random`` step-label baseline.

    >>> h = np.array([[1, 2], [2, 2], [5, 4], [2, 3]], dtype=float)
    >>> baseline_predictions(h, kind="majority", scale="numeric").tolist()
    [2.0, 2.0, 2.0, 2.0]
    >>> baseline_predictions(h, kind="constant", scale="numeric").tolist()
    [2.625, 2.625, 2.625, 2.625]
    """
    h = np.asarray(human_scores, dtype=float)
    n = h.shape[0]
    codes = np.zeros(n, dtype=int) if strata is None else np.asarray(strata, dtype=int)
    rng = np.random.default_rng(seed)
    out = np.full(n, np.nan)
    for s in np.unique(codes):
        rows = np.flatnonzero(codes == s)
        pool = h[rows].ravel()
        pool = pool[~np.isnan(pool)]
        if pool.size == 0:
            continue
        if kind == "majority":
            out[rows] = _mode(pool)
        elif kind == "constant":
            out[rows] = {"numeric": float(pool.mean()), "pairwise": PAIRWISE_TIE, "steps": -1.0}[scale]
        elif scale == "steps":
            if n_steps is None:
                raise ValueError("the random step-label baseline needs n_steps per item")
            error_rate = float(np.mean(pool != -1))
            has_error = rng.random(rows.size) < error_rate
            step = np.floor(rng.random(rows.size) * n_steps[rows]).astype(int)
            out[rows] = np.where(has_error, step, -1)
        else:
            out[rows] = rng.choice(pool, size=rows.size, replace=True)
    return out
