"""The items two raters both scored: the first step of every two-rater metric."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["paired"]


def paired(x: Sequence[float], y: Sequence[float], *, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Return ``x`` and ``y`` as float arrays without the items where either is NaN (missing).

    ``name`` (the calling metric) opens the ``ValueError`` raised when they are not 1-D
    and of equal length.

    >>> paired([1, np.nan, 3], [4, 5, np.nan], name="demo")
    (array([1.]), array([4.]))
    """
    a = np.asarray(x, dtype=float)
    b = np.asarray(y, dtype=float)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"{name}: inputs must be 1-D and of equal length, got {a.shape} and {b.shape}")
    keep = ~(np.isnan(a) | np.isnan(b))
    return a[keep], b[keep]
