"""Metrics computed from additive per-group statistics, for thousands of bootstrap resamples at once.

Why this module exists: a grouped bootstrap redraws whole groups (documents), and every
metric of the agreement report is a function of a *sum over items* of a small fixed-size
statistic -- the contingency table of two raters' values (agreement, kappa, Pearson,
Spearman, Kendall, MAE, RMSE, ProcessBench F1), Krippendorff's coincidence matrix (alpha),
or four step counts (step-level macro-F1). So the per-group sums are computed once, and a
resample is a count-weighted sum of them: one matrix product gives the statistics of all
resamples, and each metric is evaluated on the whole batch with array operations. Calling
scikit-learn / scipy once per resample does the same work thousands of times over
(``benchmarks/agreement_speed.py`` measures the ratio).

Every kernel takes arrays whose last axes are the statistic and any leading batch axes
(resamples, groups), and returns NaN -- silently; the caller asks the library-backed
functions in ``agreement`` / ``correlation`` / ``deviation`` / ``steps`` for the reason --
where the metric is undefined. ``tests/test_calibration_batched.py`` checks every kernel
against those functions on real and random data, resample by resample.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

__all__ = [
    "GroupStats",
    "per_group",
    "per_resample",
    "resample",
    "group_sum",
    "interval_moments",
    "interval_alpha",
    "pair_tables",
    "coincidences",
    "step_counts",
    "agreement",
    "kappa",
    "pearson",
    "spearman",
    "kendall",
    "mae",
    "rmse",
    "processbench_f1",
    "solution_macro_f1",
    "step_macro_f1",
    "alpha",
    "weighted_group_mean",
    "levels_of",
]


# --- per-group statistics, stored sparse ---------------------------------------------------------

#: Upper bound on the floats of one dense block (a chunk of resamples or of groups), ~32 MB.
MAX_BLOCK = 4_000_000


@dataclass(frozen=True)
class GroupStats:
    """Per-group sums of a fixed-shape statistic, as a sparse ``(G, prod(shape))`` matrix.

    Sparse because an item touches one cell of a table, so even a table with thousands of
    cells per group (near-continuous scores) or one group per item stays small; dense
    blocks are only made a bounded chunk at a time.
    """

    matrix: Any  # scipy.sparse.csr_matrix
    shape: tuple[int, ...]

    @property
    def n_groups(self) -> int:
        return int(self.matrix.shape[0])

    def total(self) -> np.ndarray:
        """Return the statistic summed over all groups (the full sample)."""
        return np.asarray(self.matrix.sum(axis=0)).reshape(self.shape)

    def _block_rows(self) -> int:
        """Return how many statistics (groups or resamples) fit in one dense block of ``MAX_BLOCK`` floats."""
        return max(1, MAX_BLOCK // max(1, int(np.prod(self.shape))))

    def groups_dense(self) -> Iterator[np.ndarray]:
        """Yield the per-group statistics in dense blocks ``(g, *shape)``, in group order."""
        step = self._block_rows()
        for start in range(0, self.n_groups, step):
            block = self.matrix[start:start + step].toarray()
            yield block.reshape((block.shape[0],) + self.shape)

    def resampled(self, weights: np.ndarray) -> Iterator[np.ndarray]:
        """Yield the statistic of each resample (group counts ``weights (B, G)``) in blocks ``(b, *shape)``."""
        step = self._block_rows()
        transposed = self.matrix.T.tocsr()
        for start in range(0, weights.shape[0], step):
            w = weights[start:start + step].astype(float)
            block = np.asarray(transposed @ w.T).T  # (b, cells)
            yield block.reshape((block.shape[0],) + self.shape)


def per_group(stats: GroupStats, fn: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """Evaluate a kernel on every group's own statistic: ``(G,)``."""
    return np.concatenate([np.asarray(fn(block), dtype=float) for block in stats.groups_dense()])


def per_resample(stats: GroupStats, weights: np.ndarray, fn: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """Evaluate a kernel on every resample's statistic, block by block: ``(B,)``."""
    return np.concatenate([np.asarray(fn(block), dtype=float) for block in stats.resampled(weights)])


def resample(stats: GroupStats, weights: np.ndarray) -> np.ndarray:
    """Return all resamples' statistics at once, ``(B, *shape)`` (for small statistics and tests)."""
    return np.concatenate(list(stats.resampled(weights)))


def _sparse(rows: np.ndarray, cols: np.ndarray, values: np.ndarray, n_groups: int,
            shape: tuple[int, ...]) -> GroupStats:
    from scipy.sparse import coo_matrix

    m = coo_matrix((values.astype(float), (rows, cols)), shape=(n_groups, int(np.prod(shape))))
    return GroupStats(m.tocsr(), shape)  # tocsr sums duplicate entries


def group_sum(values: np.ndarray, groups: np.ndarray, n_groups: int) -> GroupStats:
    """Sum per-item statistics ``(n, ...)`` into per-group ones."""
    n = values.shape[0]
    shape = values.shape[1:]
    flat = values.reshape(n, -1).astype(float)
    rows = np.repeat(groups, flat.shape[1])
    cols = np.tile(np.arange(flat.shape[1]), n)
    return _sparse(rows, cols, flat.ravel(), n_groups, shape)


def _level_index(values: np.ndarray, levels: np.ndarray) -> np.ndarray:
    idx = np.searchsorted(levels, values)
    idx = np.clip(idx, 0, len(levels) - 1)
    if not np.array_equal(levels[idx], values):
        raise ValueError("a value is not among the given levels")
    return idx


def pair_tables(x: np.ndarray, y: np.ndarray, groups: np.ndarray, n_groups: int, *,
                x_levels: np.ndarray, y_levels: np.ndarray) -> GroupStats:
    """Count, per group, the items where ``x`` takes level ``i`` and ``y`` level ``j``: shape ``(Kx, Ky)``.

    Items where either is NaN are left out. ``x_levels`` / ``y_levels`` must be sorted and
    hold every value that occurs.
    """
    keep = ~(np.isnan(x) | np.isnan(y))
    ix = _level_index(x[keep], x_levels)
    iy = _level_index(y[keep], y_levels)
    return _sparse(groups[keep], ix * len(y_levels) + iy, np.ones(int(keep.sum())), n_groups,
                   (len(x_levels), len(y_levels)))


def coincidences(ratings: np.ndarray, groups: np.ndarray, n_groups: int, *, levels: np.ndarray) -> GroupStats:
    """Build Krippendorff's coincidence matrix per group, shape ``(K, K)``, from items x raters data (NaN = none).

    Item ``u`` with ``m_u >= 2`` values adds ``(n_u n_u^T - diag(n_u)) / (m_u - 1)``, where
    ``n_u[c]`` counts its raters who chose level ``c`` (the ``krippendorff`` package's formula),
    i.e. ``1 / (m_u - 1)`` for every ordered pair of two different raters of the item.
    """
    k = len(levels)
    m = (~np.isnan(ratings)).sum(axis=1)
    rows, cols, vals = [], [], []
    n_raters = ratings.shape[1]
    for a in range(n_raters):
        for b in range(n_raters):
            if a == b:
                continue
            ok = ~(np.isnan(ratings[:, a]) | np.isnan(ratings[:, b])) & (m >= 2)
            ia = _level_index(ratings[ok, a], levels)
            ib = _level_index(ratings[ok, b], levels)
            rows.append(groups[ok])
            cols.append(ia * k + ib)
            vals.append(1.0 / (m[ok] - 1))
    if not rows:
        return _sparse(np.zeros(0, int), np.zeros(0, int), np.zeros(0), n_groups, (k, k))
    return _sparse(np.concatenate(rows), np.concatenate(cols), np.concatenate(vals), n_groups, (k, k))


def interval_moments(ratings: np.ndarray, groups: np.ndarray, n_groups: int) -> GroupStats:
    """Per-group sums ``(4,)`` that give Krippendorff's interval alpha for any number of distinct values.

    For the items with ``m_u >= 2`` values: ``W = sum_u (2 m_u S2_u - 2 S1_u^2) / (m_u - 1)``
    (the within-item squared differences over ordered pairs, weighted as in the coincidence
    matrix), ``n = sum_u m_u``, ``T1 = sum_u S1_u``, ``T2 = sum_u S2_u``; see ``interval_alpha``.
    """
    present = ~np.isnan(ratings)
    m = present.sum(axis=1)
    vals = np.where(present, ratings, 0.0)
    s1 = vals.sum(axis=1)
    s2 = (vals ** 2).sum(axis=1)
    ok = m >= 2
    within = np.where(ok, (2 * m * s2 - 2 * s1 ** 2) / np.maximum(m - 1, 1), 0.0)
    per_item = np.column_stack([within, np.where(ok, m, 0), np.where(ok, s1, 0.0), np.where(ok, s2, 0.0)])
    return group_sum(per_item, groups, n_groups)


def step_counts(y_pred: np.ndarray, y_true: np.ndarray, n_steps: np.ndarray, groups: np.ndarray,
                n_groups: int) -> GroupStats:
    """Count, per group, TP1, FN1, TP0, FN0 of ``steps.step_macro_f1_score``: shape ``(G, 4)``.

    Class 1 = correct step, 0 = the first erroneous step. Gold labels cover the steps up to
    the gold first error; a predicted first error ``p`` labels steps before ``p`` correct,
    ``p`` erroneous and the rest nothing (a miss). FP1 = FN0 and FP0 = FN1 by construction.
    """
    keep = ~(np.isnan(y_pred) | np.isnan(y_true))
    p, t, n = y_pred[keep].astype(int), y_true[keep].astype(int), n_steps[keep].astype(int)
    g1 = np.where(t >= 0, t, n)  # gold-correct steps: 0 .. g1-1
    tp1 = np.where(p == -1, g1, np.minimum(np.maximum(p, 0), g1))
    fn1 = g1 - tp1
    has0 = t >= 0
    tp0 = (has0 & (p == t)).astype(int)
    fn0 = (has0 & (p != t)).astype(int)
    per_item = np.stack([tp1, fn1, tp0, fn0], axis=1)
    return group_sum(per_item, groups[keep], n_groups)


# --- kernels on contingency tables (..., Kx, Ky) ------------------------------------------------

def _margins(t: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    nx = t.sum(axis=-1)
    ny = t.sum(axis=-2)
    return nx, ny, nx.sum(axis=-1)


def _nan_where(cond: np.ndarray, value: np.ndarray) -> np.ndarray:
    out = np.asarray(value, dtype=float)
    return np.where(cond, np.nan, out)


def agreement(t: np.ndarray, vx: np.ndarray, vy: np.ndarray, *, exclude: float | None = None) -> np.ndarray:
    """Return the share of items with equal values (``agreement.percent_agreement_score``); ``exclude`` drops a value (ties)."""
    same = vx[:, None] == vy[None, :]
    keep = np.ones_like(same)
    if exclude is not None:
        keep = (vx[:, None] != exclude) & (vy[None, :] != exclude)
    n = (t * keep).sum(axis=(-2, -1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return _nan_where(n == 0, (t * (same & keep)).sum(axis=(-2, -1)) / n)


def kappa(t: np.ndarray, *, weights: Literal["none", "linear", "quadratic"] = "none") -> np.ndarray:
    """Return Cohen's kappa from square tables over one label list (scikit-learn's formula, index distances)."""
    k = t.shape[-1]
    i = np.arange(k)
    if weights == "none":
        w = (i[:, None] != i[None, :]).astype(float)
    elif weights == "linear":
        w = np.abs(i[:, None] - i[None, :]).astype(float)
    else:
        w = ((i[:, None] - i[None, :]) ** 2).astype(float)
    nx, ny, n = _margins(t)
    expected = ny[..., :, None] * nx[..., None, :] / np.where(n == 0, 1, n)[..., None, None]
    num = (w * t).sum(axis=(-2, -1))
    den = (w * expected).sum(axis=(-2, -1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return _nan_where((den == 0) | (n == 0), 1 - num / den)


def _pearson_from(t: np.ndarray, ax: np.ndarray, ay: np.ndarray) -> np.ndarray:
    """Return Pearson's r of value arrays ``ax (..., Kx)``, ``ay (..., Ky)`` weighted by table ``t``."""
    nx, ny, n = _margins(t)
    safe_n = np.where(n == 0, 1, n)
    mx = (nx * ax).sum(axis=-1) / safe_n
    my = (ny * ay).sum(axis=-1) / safe_n
    dx = ax - mx[..., None]
    dy = ay - my[..., None]
    sxy = (t * dx[..., :, None] * dy[..., None, :]).sum(axis=(-2, -1))
    sxx = (nx * dx ** 2).sum(axis=-1)
    syy = (ny * dy ** 2).sum(axis=-1)
    constant = ((nx > 0).sum(axis=-1) < 2) | ((ny > 0).sum(axis=-1) < 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = sxy / np.sqrt(sxx * syy)
    return _nan_where(constant, np.clip(r, -1.0, 1.0))


def pearson(t: np.ndarray, vx: np.ndarray, vy: np.ndarray) -> np.ndarray:
    """Return Pearson's r from tables (``correlation.pearson_score``); NaN when either side is constant."""
    return _pearson_from(t, np.broadcast_to(vx, t.shape[:-1]), np.broadcast_to(vy, t.shape[:-2] + t.shape[-1:]))


def _midranks(counts: np.ndarray) -> np.ndarray:
    """Return the average rank of each level given its count (ties share the mean of their ranks)."""
    before = np.cumsum(counts, axis=-1) - counts
    return before + (counts + 1) / 2


def spearman(t: np.ndarray, vx: np.ndarray, vy: np.ndarray) -> np.ndarray:
    """Return Spearman's rho from tables (``correlation.spearman_score``): Pearson of the average ranks."""
    nx, ny, _ = _margins(t)
    return _pearson_from(t, _midranks(nx), _midranks(ny))


def kendall(t: np.ndarray, vx: np.ndarray, vy: np.ndarray) -> np.ndarray:
    """Return Kendall's tau-b from tables (``correlation.kendall_score``): ``(C - D) / sqrt((n0 - n1)(n0 - n2))``."""
    # strictly greater in both: suffix sums shifted by one cell
    ge = t[..., ::-1, ::-1].cumsum(axis=-2).cumsum(axis=-1)[..., ::-1, ::-1]
    gt = np.zeros_like(t)
    gt[..., :-1, :-1] = ge[..., 1:, 1:]
    # greater in x, smaller in y
    ge_le = t[..., ::-1, :].cumsum(axis=-2)[..., ::-1, :].cumsum(axis=-1)
    gl = np.zeros_like(t)
    gl[..., :-1, 1:] = ge_le[..., 1:, :-1]
    concordant = (t * gt).sum(axis=(-2, -1))
    discordant = (t * gl).sum(axis=(-2, -1))
    nx, ny, n = _margins(t)
    n0 = n * (n - 1) / 2
    n1 = (nx * (nx - 1) / 2).sum(axis=-1)
    n2 = (ny * (ny - 1) / 2).sum(axis=-1)
    constant = ((nx > 0).sum(axis=-1) < 2) | ((ny > 0).sum(axis=-1) < 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = (concordant - discordant) / np.sqrt((n0 - n1) * (n0 - n2))
    return _nan_where(constant, np.clip(tau, -1.0, 1.0))


def mae(t: np.ndarray, vx: np.ndarray, vy: np.ndarray) -> np.ndarray:
    """Return the mean absolute difference from tables (``deviation.mae_score``)."""
    n = t.sum(axis=(-2, -1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return _nan_where(n == 0, (t * np.abs(vx[:, None] - vy[None, :])).sum(axis=(-2, -1)) / n)


def rmse(t: np.ndarray, vx: np.ndarray, vy: np.ndarray) -> np.ndarray:
    """Return the root mean squared difference from tables (``deviation.rmse_score``)."""
    n = t.sum(axis=(-2, -1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return _nan_where(n == 0, np.sqrt((t * (vx[:, None] - vy[None, :]) ** 2).sum(axis=(-2, -1)) / n))


def processbench_f1(t: np.ndarray, vx: np.ndarray, vy: np.ndarray) -> np.ndarray:
    """Return ProcessBench F1 from tables of predicted (x) and gold (y) first-error indices (``steps``)."""
    same = vx[:, None] == vy[None, :]
    err = vy != -1
    n_err = t[..., :, err].sum(axis=(-2, -1))
    n_ok = t[..., :, ~err].sum(axis=(-2, -1))
    with np.errstate(invalid="ignore", divide="ignore"):
        a = (t * (same & err[None, :])).sum(axis=(-2, -1)) / n_err
        b = (t * (same & ~err[None, :])).sum(axis=(-2, -1)) / n_ok
        f1 = np.where(a + b == 0, 0.0, 2 * a * b / (a + b))
    return _nan_where((n_err == 0) | (n_ok == 0), f1)


def _macro_f1(tp1: np.ndarray, fn1: np.ndarray, tp0: np.ndarray, fn0: np.ndarray) -> np.ndarray:
    fp1, fp0 = fn0, fn1
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = 2 * tp1 / (2 * tp1 + fp1 + fn1)
        f0 = 2 * tp0 / (2 * tp0 + fp0 + fn0)
    return _nan_where((tp1 + fn1 == 0) | (tp0 + fn0 == 0), (f1 + f0) / 2)


def solution_macro_f1(t: np.ndarray, vx: np.ndarray, vy: np.ndarray) -> np.ndarray:
    """Return the solution-level macro-F1 (``steps.solution_macro_f1_score``) from first-error tables: -1 = correct."""
    px, gy = vx == -1, vy == -1
    tp1 = t[..., px, :][..., :, gy].sum(axis=(-2, -1))
    fn1 = t[..., ~px, :][..., :, gy].sum(axis=(-2, -1))
    tp0 = t[..., ~px, :][..., :, ~gy].sum(axis=(-2, -1))
    fn0 = t[..., px, :][..., :, ~gy].sum(axis=(-2, -1))
    return _macro_f1(tp1, fn1, tp0, fn0)


def step_macro_f1(counts: np.ndarray) -> np.ndarray:
    """Return the step-level macro-F1 (``steps.step_macro_f1_score``) from ``step_counts`` sums ``(..., 4)``."""
    return _macro_f1(counts[..., 0], counts[..., 1], counts[..., 2], counts[..., 3])


# --- Krippendorff's alpha from coincidences (..., K, K) ------------------------------------------

def alpha(o: np.ndarray, levels: np.ndarray, *, level: Literal["nominal", "ordinal", "interval"]) -> np.ndarray:
    """Return Krippendorff's alpha from coincidence matrices (the ``krippendorff`` package's formulas)."""
    k = len(levels)
    n_v = o.sum(axis=-2)
    n = n_v.sum(axis=-1)
    if level == "nominal":
        d = np.broadcast_to((np.arange(k)[:, None] != np.arange(k)[None, :]).astype(float), o.shape)
    elif level == "interval":
        d = np.broadcast_to((levels[:, None] - levels[None, :]) ** 2, o.shape)
    else:
        cum = np.cumsum(n_v, axis=-1)
        lo = np.minimum(np.arange(k)[:, None], np.arange(k)[None, :])
        hi = np.maximum(np.arange(k)[:, None], np.arange(k)[None, :])
        between = cum[..., hi] - cum[..., lo] + n_v[..., lo]
        d = (between - (n_v[..., :, None] + n_v[..., None, :]) / 2) ** 2
    e = n_v[..., :, None] * n_v[..., None, :]
    e = e - n_v[..., :, None] * np.eye(k)
    with np.errstate(invalid="ignore", divide="ignore"):
        e = e / (n - 1)[..., None, None]
        num = (o * d).sum(axis=(-2, -1))
        den = (e * d).sum(axis=(-2, -1))
        value = 1 - num / den
    return _nan_where(((n_v > 0).sum(axis=-1) < 2) | (den == 0), value)


def interval_alpha(stats: np.ndarray) -> np.ndarray:
    """Return Krippendorff's interval alpha from ``interval_moments`` sums ``(..., 4)``.

    ``alpha = 1 - (n - 1) W / (2 n T2 - 2 T1^2)``: observed over expected squared differences,
    the expected ones taken over all pairs of pairable values.
    """
    w, n, t1, t2 = (stats[..., i] for i in range(4))
    den = 2 * n * t2 - 2 * t1 ** 2
    with np.errstate(invalid="ignore", divide="ignore"):
        value = 1 - (n - 1) * w / den
    return _nan_where(np.isclose(den, 0, atol=1e-9 * np.maximum(1.0, np.abs(2 * n * t2))), value)


# --- group-level averages ---------------------------------------------------------------------

def weighted_group_mean(values: np.ndarray, weights: np.ndarray | None) -> np.ndarray | float:
    """Average per-group values over the groups where defined; under resample weights ``(B, G)`` if given."""
    defined = ~np.isnan(values)
    v = np.where(defined, values, 0.0)
    if weights is None:
        return float(v.sum() / defined.sum()) if defined.any() else float("nan")
    w = weights.astype(float)
    num = w @ v
    den = w @ defined.astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den == 0, np.nan, num / den)


def levels_of(*arrays: Sequence[float] | np.ndarray) -> np.ndarray:
    """Return the sorted distinct non-NaN values across arrays."""
    vals = np.concatenate([np.asarray(a, dtype=float).ravel() for a in arrays])
    return np.unique(vals[~np.isnan(vals)])
