"""The grouped bootstrap: draw groups with replacement, seeded; percentile intervals; the per-resample loop.

Items nested in groups (summaries of one document, answers to one prompt) are not
independent, so a resample draws *groups* -- G of them with replacement -- and takes all
their items. ``draw_groups`` fixes the draws from a seed; ``weights_from_draws`` turns them
into counts for ``calibration.batched``; ``naive_bootstrap`` replays the same draws one by
one through any metric function (the reference the batched path is tested and timed against).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

__all__ = ["group_codes", "draw_groups", "weights_from_draws", "resample_index", "naive_bootstrap",
           "percentile_interval"]


def group_codes(labels: Sequence[object] | None, n_items: int) -> tuple[np.ndarray, int]:
    """Return ``(codes, n_groups)``: an integer per item; without labels every item is its own group."""
    if labels is None:
        return np.arange(n_items), n_items
    _, codes = np.unique(np.asarray(labels, dtype=object).astype(str), return_inverse=True)
    return codes.astype(np.int64), int(codes.max()) + 1 if len(codes) else 0


def draw_groups(n_groups: int, n_resamples: int, *, seed: int) -> np.ndarray:
    """Draw ``n_resamples`` bootstrap samples of group indices (with replacement), shape ``(B, G)``.

    Seeded with ``numpy.random.default_rng(seed)``: the same seed gives the same draws.
    """
    rng = np.random.default_rng(seed)
    return rng.integers(0, n_groups, size=(n_resamples, n_groups), dtype=np.int32)


def weights_from_draws(draws: np.ndarray, n_groups: int) -> np.ndarray:
    """Count how often each group was drawn in each resample: ``W[b, g]``, shape ``(B, G)``."""
    b = draws.shape[0]
    flat = draws.astype(np.int64) + (np.arange(b, dtype=np.int64) * n_groups)[:, None]
    return np.bincount(flat.ravel(), minlength=b * n_groups).reshape(b, n_groups).astype(np.int32)


def _group_slices(groups: np.ndarray, n_groups: int) -> tuple[np.ndarray, np.ndarray]:
    """Return ``(order, starts)``: group ``g``'s items are ``order[starts[g]:starts[g + 1]]``."""
    order = np.argsort(groups, kind="stable")
    return order, np.searchsorted(groups[order], np.arange(n_groups + 1))


def _gather(draw: np.ndarray, order: np.ndarray, starts: np.ndarray) -> np.ndarray:
    return np.concatenate([order[starts[g]:starts[g + 1]] for g in draw])


def resample_index(draw: np.ndarray, groups: np.ndarray, n_groups: int) -> np.ndarray:
    """Item indices of one resample: all items of each drawn group, duplicates kept."""
    return _gather(draw, *_group_slices(groups, n_groups))


def naive_bootstrap(fn: Callable[..., float], arrays: Sequence[np.ndarray], groups: np.ndarray,
                    draws: np.ndarray, *, n_groups: int | None = None) -> np.ndarray:
    """Evaluate ``fn(*[a[idx] for a in arrays])`` on each resample, one call per resample.

    ``draws`` index groups ``0 .. n_groups-1`` (default: ``groups.max() + 1``); a drawn group
    with no item here adds nothing.
    """
    if n_groups is None:
        n_groups = int(groups.max()) + 1
    order, starts = _group_slices(groups, n_groups)  # once, not per resample
    out = np.empty(draws.shape[0])
    for b, draw in enumerate(draws):
        idx = _gather(draw, order, starts)
        out[b] = fn(*[a[idx] for a in arrays])
    return out


def percentile_interval(values: np.ndarray, *, confidence: float = 0.95) -> tuple[float, float] | None:
    """Return the percentile interval of the defined bootstrap values, or None when none is defined.

    >>> percentile_interval(np.arange(101.0), confidence=0.8)
    (10.0, 90.0)
    """
    v = np.asarray(values, dtype=float)
    v = v[~np.isnan(v)]
    if v.size == 0:
        return None
    tail = round((1 - confidence) * 50, 10)  # 2.5 for 0.95, without float residue
    lo, hi = np.percentile(v, [tail, 100 - tail])
    return float(lo), float(hi)
