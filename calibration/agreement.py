"""Agreement between raters: percent agreement, Cohen's kappa, Krippendorff's alpha.

Each function follows scikit-learn's conventions: the data positional, options keyword-only,
a float back, and NaN with an ``UndefinedMetricWarning`` (never a crash, never a silent 0)
when the metric is undefined for the input. Missing scores are NaN and are dropped pairwise.
The computations are scikit-learn's (``cohen_kappa_score``) and the ``krippendorff``
package's; ``calibration.batched`` recomputes the same formulas for thousands of bootstrap
resamples at once and is tested against these.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np

from calibration.paired import paired
from calibration.tables import PAIRWISE_TIE
from calibration.undefined import undefined

__all__ = ["percent_agreement_score", "cohen_kappa_score", "krippendorff_alpha_score"]

def percent_agreement_score(y1: Sequence[float], y2: Sequence[float], *,
                            ties: Literal["include", "exclude"] = "include", tie: float = PAIRWISE_TIE) -> float:
    """Return the share of items on which two raters give the same score.

    ``agreement = #{i : y1[i] == y2[i]} / n`` over items both rated, in [0, 1]. With
    ``ties="exclude"`` the items where either rater said ``tie`` are left out first --
    FastChat's "agreement without ties" for pairwise preferences (A / B / tie coded
    0 / 0.5 / 1). NaN (with a warning) when no item is left.

    >>> percent_agreement_score([0, 1, 0.5, 1], [0, 1, 1, 0])
    0.5
    >>> percent_agreement_score([0, 1, 0.5, 1], [0, 1, 1, 0], ties="exclude")
    0.6666666666666666
    """
    a, b = paired(y1, y2, name="percent_agreement_score")
    if ties == "exclude":
        keep = (a != tie) & (b != tie)
        a, b = a[keep], b[keep]
    if a.size == 0:
        return undefined("percent_agreement_score: no item rated by both (after excluding ties)")
    return float(np.mean(a == b))


def cohen_kappa_score(y1: Sequence[float], y2: Sequence[float], *,
                      weights: Literal["none", "linear", "quadratic"] = "none",
                      labels: Sequence[float] | None = None) -> float:
    """Return Cohen's kappa, chance-corrected agreement of two raters (scikit-learn's).

    ``kappa = 1 - sum(w * O) / sum(w * E)`` with ``O`` the confusion matrix, ``E`` the
    outer product of its margins over ``n``, and ``w`` 0/1 off the diagonal (``none``),
    ``|i - j|`` (``linear``) or ``(i - j)**2`` (``quadratic``), where ``i, j`` index
    ``labels`` -- by default the sorted values either rater used; pass the whole scale
    (e.g. ``[1, 2, 3, 4, 5]``) to weight by scale distance when a value is unused.
    Range [-1, 1], 0 for chance. NaN (with a warning) when both raters use one and the
    same single value.

    >>> cohen_kappa_score([1, 2, 3, 3], [1, 2, 3, 2])
    0.6363636363636364
    """
    from sklearn.metrics import cohen_kappa_score as sk_kappa

    a, b = paired(y1, y2, name="cohen_kappa_score")
    if a.size == 0:
        return undefined("cohen_kappa_score: no item rated by both")
    used = np.union1d(a, b) if labels is None else np.unique(np.asarray(labels, dtype=float))
    if used.size < 2:
        return undefined(f"cohen_kappa_score: both raters gave only {used.tolist()}; kappa is undefined")
    if not (np.isin(a, used).all() and np.isin(b, used).all()):
        raise ValueError("cohen_kappa_score: a score is not among the labels")
    # Scores are categories here: pass their positions in ``used``, so that scikit-learn
    # accepts non-integer scores (3.5) instead of calling them "continuous" targets.
    codes = np.arange(used.size)
    return float(sk_kappa(np.searchsorted(used, a), np.searchsorted(used, b),
                          weights=None if weights == "none" else weights, labels=codes))


def krippendorff_alpha_score(reliability_data: np.ndarray | Sequence[Sequence[float]], *,
                             level: Literal["nominal", "ordinal", "interval"] = "interval",
                             value_domain: Sequence[float] | None = None) -> float:
    """Return Krippendorff's alpha for raters x items data (NaN = not rated), via the ``krippendorff`` package.

    ``alpha = 1 - D_o / D_e``: observed disagreement within items over the disagreement
    expected from all pairable values, with the distance of ``level``. 1 is perfect
    agreement, 0 chance, negative systematic disagreement. NaN (with a warning) when fewer
    than two distinct values occur or no item has two ratings.

    >>> data = [[np.nan, np.nan, np.nan, np.nan, np.nan, 3, 4, 1, 2, 1, 1, 3, 3, np.nan, 3],
    ...         [1, np.nan, 2, 1, 3, 3, 4, 3, np.nan, np.nan, np.nan, np.nan, np.nan, np.nan, np.nan],
    ...         [np.nan, np.nan, 2, 1, 3, 4, 4, np.nan, 2, 1, 1, 3, 3, np.nan, 4]]
    >>> round(krippendorff_alpha_score(data, level="nominal"), 6)
    0.691358
    """
    import krippendorff

    data = np.asarray(reliability_data, dtype=float)
    if data.ndim != 2:
        raise ValueError(f"krippendorff_alpha_score: expected raters x items, got shape {data.shape}")
    present = data[~np.isnan(data)]
    if np.unique(present).size < 2:
        return undefined("krippendorff_alpha_score: fewer than two distinct values; alpha is undefined")
    if not ((~np.isnan(data)).sum(axis=0) >= 2).any():
        return undefined("krippendorff_alpha_score: no item has two ratings")
    return float(krippendorff.alpha(reliability_data=data, level_of_measurement=level,
                                    value_domain=None if value_domain is None else np.asarray(value_domain)))
