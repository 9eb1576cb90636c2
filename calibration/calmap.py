"""Calibration maps: a monotone map from the judge's score to the human scale, with an honest error.

The map is scikit-learn's ``IsotonicRegression`` from judge score to the humans' mean score
(non-decreasing by default: a higher judge score never maps lower). Its reported error is
*out of sample*: ``GroupKFold`` splits the groups (documents) into folds, each fold is
predicted by a map fitted on the others, and the MAE of those predictions is compared with
the MAE of the raw judge scores ("before" -- only meaningful when the judge already uses the
human scale). The map saved to JSON is then refitted on all items.

The saved map is its thresholds; applying it is ``numpy.interp`` over them, clipped at both
ends -- exactly what ``IsotonicRegression(out_of_bounds="clip").predict`` does, so a map can
be applied without scikit-learn and without pickles.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict

from calibration.deviation import mae_score, rmse_score
from calibration.undefined import undefined

__all__ = ["CalibrationMap", "MapFile", "fit_calibration_map", "apply_map"]

FORMAT = "reasonjudge-calibration-map"


class CalibrationMap(BaseModel):
    """One fitted isotonic map, with the out-of-sample evaluation made when it was fitted."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    x_thresholds: tuple[float, ...]
    y_thresholds: tuple[float, ...]
    increasing: bool
    n_items: int
    n_groups: int
    n_folds: int
    mae_before: float | None
    mae_after: float | None  # out of sample (grouped cross-fitting)
    rmse_before: float | None
    rmse_after: float | None

    def apply(self, scores: Sequence[float] | np.ndarray) -> np.ndarray:
        """Map judge scores to the human scale (NaN stays NaN; outside the fitted range: clipped)."""
        return apply_map(self, scores)


class MapFile(BaseModel):
    """What ``reasonjudge calibrate fit`` writes: one map per judge and per split value."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Literal["reasonjudge-calibration-map"] = FORMAT
    version: Literal[1] = 1
    method: Literal["isotonic"] = "isotonic"
    target: str = "mean of the human scores"
    group_by: str | None = None
    split_by: str | None = None
    maps: Mapping[str, Mapping[str, CalibrationMap]]  # judge -> split value ("all" without split) -> map


def apply_map(cmap: CalibrationMap, scores: Sequence[float] | np.ndarray) -> np.ndarray:
    """Apply a saved map: linear interpolation between thresholds, clipped at the ends.

    >>> m = CalibrationMap(x_thresholds=(1, 5, 10), y_thresholds=(1, 3, 5), increasing=True, n_items=3,
    ...                    n_groups=3, n_folds=0, mae_before=None, mae_after=None, rmse_before=None,
    ...                    rmse_after=None)
    >>> apply_map(m, [0, 3, 7.5, 12, float("nan")]).tolist()
    [1.0, 2.0, 4.0, 5.0, nan]
    """
    x = np.asarray(scores, dtype=float)
    out = np.interp(x, np.asarray(cmap.x_thresholds), np.asarray(cmap.y_thresholds))
    return np.where(np.isnan(x), np.nan, out)


def fit_calibration_map(judge_scores: Sequence[float], human_reference: Sequence[float],
                        groups: Sequence[object] | None = None, *, n_folds: int = 5,
                        increasing: bool | Literal["auto"] = True) -> CalibrationMap:
    """Fit an isotonic map judge -> human scale; report its error by grouped cross-fitting.

    ``human_reference`` is the target per item (the humans' mean); items where either is NaN
    are left out. ``groups`` (default: each item alone) keep the items of one document in
    the same fold, so the out-of-sample error is not flattered by near-duplicates. With fewer
    than two groups no out-of-sample error exists: ``mae_after`` is None (with a warning).

    >>> import numpy as np
    >>> x = np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10] * 4, dtype=float)
    >>> y = np.minimum(5, np.ceil(x / 2))
    >>> m = fit_calibration_map(x, y, np.repeat(np.arange(8), 5), n_folds=4)
    >>> m.apply([2, 9]).tolist(), m.mae_after
    ([1.0, 5.0], 0.0)
    """
    from sklearn.isotonic import IsotonicRegression
    from sklearn.model_selection import GroupKFold

    x = np.asarray(judge_scores, dtype=float)
    y = np.asarray(human_reference, dtype=float)
    if x.shape != y.shape:
        raise ValueError(f"judge scores ({x.size}) and human reference ({y.size}) differ in length")
    g = np.arange(x.size) if groups is None else np.asarray(groups, dtype=object).astype(str)
    keep = ~(np.isnan(x) | np.isnan(y))
    x, y, g = x[keep], y[keep], g[keep]
    if x.size < 2:
        raise ValueError("a calibration map needs at least two items scored by the judge and the humans")
    n_groups = int(np.unique(g).size)

    def model() -> IsotonicRegression:
        return IsotonicRegression(increasing=increasing, out_of_bounds="clip")

    folds = min(n_folds, n_groups)
    mae_after = rmse_after = None
    if folds >= 2:
        oof = np.empty_like(y)
        for train, test in GroupKFold(n_splits=folds).split(x, y, groups=g):
            oof[test] = model().fit(x[train], y[train]).predict(x[test])
        mae_after, rmse_after = mae_score(y, oof), rmse_score(y, oof)
    else:
        undefined("fit_calibration_map: fewer than two groups, no out-of-sample error")
        folds = 0
    final = model().fit(x, y)
    return CalibrationMap(
        x_thresholds=tuple(float(v) for v in final.X_thresholds_),
        y_thresholds=tuple(float(v) for v in final.y_thresholds_),
        increasing=bool(final.increasing_), n_items=int(x.size), n_groups=n_groups, n_folds=folds,
        mae_before=mae_score(y, x), mae_after=mae_after, rmse_before=rmse_score(y, x), rmse_after=rmse_after)


def fit_map_file(panel: Any, *, group_by: str | None = None, split_by: str | None = None,
                 n_folds: int = 5, increasing: bool | Literal["auto"] = True) -> MapFile:
    """Fit one map per judge of a ``calibration.tables.Panel`` (and per ``split_by`` value)."""
    if panel.scale != "numeric":
        raise ValueError(f"a calibration map needs numeric scores, these are {panel.scale}")
    with np.errstate(invalid="ignore"):
        count = (~np.isnan(panel.human_scores)).sum(axis=1)
        reference = np.where(count > 0, np.nansum(panel.human_scores, axis=1) / np.maximum(count, 1), math.nan)
    groups = np.asarray(panel.field_values(group_by), dtype=object) if group_by else None
    splits = {"all": np.ones(len(panel.items), dtype=bool)}
    if split_by:
        values = np.asarray(panel.field_values(split_by), dtype=object)
        splits = {str(v): values == v for v in sorted(set(values.tolist()))}
    maps: dict[str, dict[str, CalibrationMap]] = {}
    for j, judge in enumerate(panel.judges):
        maps[judge] = {}
        for name, mask in splits.items():
            maps[judge][name] = fit_calibration_map(
                panel.judge_scores[mask, j], reference[mask], None if groups is None else groups[mask],
                n_folds=n_folds, increasing=increasing)
    return MapFile(group_by=group_by, split_by=split_by, maps=maps)
