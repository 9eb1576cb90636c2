"""How far a judge's scores are from the human reference, on the human scale: MAE and RMSE.

Both are scikit-learn's (``mean_absolute_error``, ``root_mean_squared_error``); missing
scores (NaN) are dropped pairwise. They only make sense when the judge scores on the human
scale -- compare a 1-10 judge with 1-5 humans after ``calibration.calmap``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from calibration.undefined import undefined

__all__ = ["mae_score", "rmse_score"]


def _pair(y_true: Sequence[float], y_pred: Sequence[float], name: str) -> tuple[np.ndarray, np.ndarray] | None:
    a = np.asarray(y_true, dtype=float)
    b = np.asarray(y_pred, dtype=float)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"{name}: inputs must be 1-D and of equal length, got {a.shape} and {b.shape}")
    keep = ~(np.isnan(a) | np.isnan(b))
    if not keep.any():
        return None
    return a[keep], b[keep]


def mae_score(y_true: Sequence[float], y_pred: Sequence[float]) -> float:
    """Return the mean absolute error ``mean(|y_true - y_pred|)``, >= 0; NaN with a warning when empty.

    >>> mae_score([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])  # scikit-learn's docstring example
    0.5
    """
    from sklearn.metrics import mean_absolute_error

    pair = _pair(y_true, y_pred, "mae_score")
    if pair is None:
        return undefined("mae_score: no item scored by both")
    return float(mean_absolute_error(*pair))


def rmse_score(y_true: Sequence[float], y_pred: Sequence[float]) -> float:
    """Return the root mean squared error ``sqrt(mean((y_true - y_pred)**2))``; NaN with a warning when empty.

    >>> round(rmse_score([3, -0.5, 2, 7], [2.5, 0.0, 2, 8]), 3)  # scikit-learn's docstring example
    0.612
    """
    from sklearn.metrics import root_mean_squared_error

    pair = _pair(y_true, y_pred, "rmse_score")
    if pair is None:
        return undefined("rmse_score: no item scored by both")
    return float(root_mean_squared_error(*pair))
