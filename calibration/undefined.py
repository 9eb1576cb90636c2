"""The one way a metric says "undefined here": a NaN plus a warning that gives the reason.

This is scikit-learn's convention (``UndefinedMetricWarning``): a constant rater has no
correlation, a sample with one class has no AUC. The value is ``nan`` -- never a silent 0,
never a crash -- and the reason travels in the warning so that a report can record it
(``capture_undefined``) next to the missing number.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any


class UndefinedMetricWarning(UserWarning):
    """A metric is undefined for this input; the value returned is NaN."""


def undefined(reason: str, *, depth: int = 1) -> float:
    """Warn with ``reason`` and return NaN (the value of an undefined metric).

    The warning points at the caller of the public metric: ``depth`` is how many frames
    below it ``undefined`` is called from (1 = from the metric itself, 2 = from its helper).
    """
    warnings.warn(reason, UndefinedMetricWarning, stacklevel=2 + depth)
    return math.nan


def capture_undefined(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, str | None]:
    """Call ``fn`` and return ``(value, reason)``; ``reason`` is the undefined-metric warning, if any.

    Warnings other than undefined-metric ones (ours or scikit-learn's / scipy's
    constant-input warnings) pass through unchanged.
    """
    from scipy.stats import ConstantInputWarning, NearConstantInputWarning
    from sklearn.exceptions import UndefinedMetricWarning as SklearnUndefined

    caught_types = (UndefinedMetricWarning, SklearnUndefined, ConstantInputWarning, NearConstantInputWarning)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = fn(*args, **kwargs)
    reason = None
    for w in caught:
        if issubclass(w.category, caught_types):
            if reason is None:
                reason = str(w.message)
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return value, reason
