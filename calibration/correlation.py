"""Correlation of a judge with a human reference, at item level and at group level.

Item level: one correlation over all items. Group level: one correlation per group
(per document, as G-Eval does for SummEval's summaries of one article), averaged over the
groups where it is defined. Pearson, Spearman (average ranks for ties) and Kendall's tau-b
are scipy's. A constant input has no correlation: NaN with an ``UndefinedMetricWarning``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

import numpy as np

from calibration.paired import paired
from calibration.undefined import capture_undefined, undefined

__all__ = ["pearson_score", "spearman_score", "kendall_score", "group_correlation_score", "Method"]

Method = Literal["pearson", "spearman", "kendall"]


def _degenerate(a: np.ndarray, b: np.ndarray, name: str) -> str | None:
    if a.size < 2:
        return f"{name}: fewer than two items"
    if np.all(a == a[0]):
        return f"{name}: x is constant; correlation is undefined"
    if np.all(b == b[0]):
        return f"{name}: y is constant; correlation is undefined"
    return None


def _correlation(statistic: Callable[[np.ndarray, np.ndarray], Any], x: Sequence[float], y: Sequence[float],
                 name: str) -> float:
    """Return ``statistic(x, y).statistic`` over the paired items, or NaN with the reason it is undefined."""
    a, b = paired(x, y, name=name)
    reason = _degenerate(a, b, name)
    if reason:
        return undefined(reason, depth=2)
    return float(statistic(a, b).statistic)


def pearson_score(x: Sequence[float], y: Sequence[float]) -> float:
    """Return Pearson's r (scipy.stats.pearsonr), in [-1, 1]; NaN with a warning for a constant input.

    >>> round(pearson_score([1, 2, 3, 4, 5, 6, 7], [10, 9, 2.5, 6, 4, 3, 2]), 12)  # scipy.stats.pearsonr's example
    -0.828503883588
    """
    from scipy.stats import pearsonr

    return _correlation(pearsonr, x, y, "pearson_score")


def spearman_score(x: Sequence[float], y: Sequence[float]) -> float:
    """Return Spearman's rho (scipy.stats.spearmanr; ties get average ranks); NaN for a constant input.

    >>> spearman_score([1, 2, 3, 4, 5], [5, 6, 7, 8, 7])  # scipy.stats.spearmanr's example
    0.8207826816681233
    """
    from scipy.stats import spearmanr

    return _correlation(spearmanr, x, y, "spearman_score")


def kendall_score(x: Sequence[float], y: Sequence[float]) -> float:
    """Return Kendall's tau-b (scipy.stats.kendalltau), which corrects for ties; NaN for a constant input.

    ``tau_b = (C - D) / sqrt((n0 - n1)(n0 - n2))``: concordant minus discordant pairs over the
    pairs not tied in x, times those not tied in y.

    >>> round(kendall_score([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]), 12)  # scipy.stats.kendalltau's example
    -0.471404520791
    """
    from scipy.stats import kendalltau

    return _correlation(kendalltau, x, y, "kendall_score")


_METHODS = {"pearson": pearson_score, "spearman": spearman_score, "kendall": kendall_score}


def group_correlation_score(x: Sequence[float], y: Sequence[float], groups: Sequence[object], *,
                            method: Method = "spearman") -> float:
    """Return the mean over groups of the within-group correlation (G-Eval's "summary level").

    Groups where the correlation is undefined (fewer than two items, or a constant rater
    inside the group) are left out of the mean, as G-Eval's evaluation does; NaN with a
    warning when no group has a defined correlation.

    >>> group_correlation_score([1, 2, 3, 3, 2, 1], [1, 2, 3, 1, 2, 3], ["a", "a", "a", "b", "b", "b"],
    ...                         method="pearson")
    0.0
    """
    g = np.asarray(groups, dtype=object)
    a = np.asarray(x, dtype=float)
    b = np.asarray(y, dtype=float)
    if not (a.shape == b.shape == g.shape):
        raise ValueError("group_correlation_score: x, y and groups must have equal length")
    fn = _METHODS[method]
    values = []
    first_reason = None
    for key in dict.fromkeys(g.tolist()):
        m = g == key
        v, reason = capture_undefined(fn, a[m], b[m])  # undefined groups are skipped by design
        if np.isnan(v):
            first_reason = first_reason or f"group {key!r}: {reason}"
        else:
            values.append(v)
    if not values:
        return undefined(f"group_correlation_score: the {method} correlation is undefined in every group "
                         f"(e.g. {first_reason})")
    return float(np.mean(values))
