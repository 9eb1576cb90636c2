"""How far a judge's scores are from the human reference, on the human scale: MAE and RMSE.

Both are scikit-learn's (``mean_absolute_error``, ``root_mean_squared_error``); missing
scores (NaN) are dropped pairwise. They only make sense when the judge scores on the human
scale -- compare a 1-10 judge with 1-5 humans after ``calibration.calmap``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from calibration.paired import paired
from calibration.undefined import undefined

__all__ = ["mae_score", "rmse_score"]


def _deviation(error: Callable[[np.ndarray, np.ndarray], float], y_true: Sequence[float],
               y_pred: Sequence[float], name: str) -> float:
    """Return ``error(y_true, y_pred)`` over the paired items, or NaN with a warning when there are none."""
    a, b = paired(y_true, y_pred, name=name)
    if a.size == 0:
        return undefined(f"{name}: no item scored by both", depth=2)
    return float(error(a, b))


def mae_score(y_true: Sequence[float], y_pred: Sequence[float]) -> float:
    """Return the mean absolute error ``mean(|y_true - y_pred|)``, >= 0; NaN with a warning when empty.

    >>> mae_score([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])  # scikit-learn's docstring example
    0.5
    """
    from sklearn.metrics import mean_absolute_error

    return _deviation(mean_absolute_error, y_true, y_pred, "mae_score")


def rmse_score(y_true: Sequence[float], y_pred: Sequence[float]) -> float:
    """Return the root mean squared error ``sqrt(mean((y_true - y_pred)**2))``; NaN with a warning when empty.

    >>> round(rmse_score([3, -0.5, 2, 7], [2.5, 0.0, 2, 8]), 3)  # scikit-learn's docstring example
    0.612
    """
    from sklearn.metrics import root_mean_squared_error

    return _deviation(root_mean_squared_error, y_true, y_pred, "rmse_score")
