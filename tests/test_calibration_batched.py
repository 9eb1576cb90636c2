"""The batched kernels equal the library-backed metrics, on the full data and resample by resample."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from calibration import batched as K
from calibration.agreement import cohen_kappa_score, krippendorff_alpha_score, percent_agreement_score
from calibration.bootstrap import (
    draw_groups,
    group_codes,
    naive_bootstrap,
    percentile_interval,
    resample_index,
    weights_from_draws,
)
from calibration.correlation import group_correlation_score, kendall_score, pearson_score, spearman_score
from calibration.deviation import mae_score, rmse_score
from calibration.steps import processbench_f1_score, solution_macro_f1_score, step_macro_f1_score
from calibration.undefined import UndefinedMetricWarning


@pytest.fixture(scope="module")
def data():
    """Two 1-5 raters with ties and some missing scores, 200 items in 25 groups."""
    rng = np.random.default_rng(7)
    n, g = 200, 25
    groups = rng.integers(0, g, n)
    x = rng.integers(1, 6, n).astype(float)
    y = np.clip(x + rng.integers(-2, 3, n), 1, 5).astype(float)
    x[rng.random(n) < 0.05] = np.nan
    third = np.clip(y + rng.integers(-1, 2, n), 1, 5).astype(float)
    third[rng.random(n) < 0.2] = np.nan
    return x, y, third, groups, g


def _quiet(fn):
    def call(*a, **k):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            return fn(*a, **k)
    return call


TABLE_METRICS = [
    pytest.param(lambda t, vx, vy: K.agreement(t, vx, vy), percent_agreement_score, id="agreement"),
    pytest.param(lambda t, vx, vy: K.kappa(t, weights="none"),
                 lambda a, b, L: cohen_kappa_score(a, b, labels=L), id="kappa"),
    pytest.param(lambda t, vx, vy: K.kappa(t, weights="linear"),
                 lambda a, b, L: cohen_kappa_score(a, b, weights="linear", labels=L), id="kappa-linear"),
    pytest.param(lambda t, vx, vy: K.kappa(t, weights="quadratic"),
                 lambda a, b, L: cohen_kappa_score(a, b, weights="quadratic", labels=L), id="kappa-quadratic"),
    pytest.param(K.pearson, pearson_score, id="pearson"),
    pytest.param(K.spearman, spearman_score, id="spearman"),
    pytest.param(K.kendall, kendall_score, id="kendall"),
    pytest.param(K.mae, lambda a, b: mae_score(b, a), id="mae"),
    pytest.param(K.rmse, lambda a, b: rmse_score(b, a), id="rmse"),
]


def _call(lib, a, b, levels):
    try:
        return lib(a, b, levels)
    except TypeError:
        return lib(a, b)


@pytest.mark.parametrize(("kernel", "lib"), TABLE_METRICS)
def test_table_kernel_equals_library_on_full_data_and_every_resample(data, kernel, lib):
    x, y, _, groups, g = data
    both = ~(np.isnan(x) | np.isnan(y))
    levels = K.levels_of(x[both], y[both])
    tables = K.pair_tables(x, y, groups, g, x_levels=levels, y_levels=levels)
    assert float(kernel(tables.total(), levels, levels)) == pytest.approx(_call(lib, x, y, levels), abs=1e-12)

    draws = draw_groups(g, 60, seed=11)
    batched = kernel(K.resample(tables, weights_from_draws(draws, g)), levels, levels)
    naive = naive_bootstrap(_quiet(lambda a, b: _call(lib, a, b, levels)), [x, y], groups, draws, n_groups=g)
    np.testing.assert_allclose(batched, naive, atol=1e-12)


def test_unequal_levels_for_loo_means(data):
    # the reference of a leave-one-out comparison is a mean of humans: half-point levels
    x, y, third, groups, g = data
    ref = np.nanmean(np.column_stack([y, third]), axis=1)
    both = ~(np.isnan(x) | np.isnan(ref))
    lx, ly = K.levels_of(x[both]), K.levels_of(ref[both])
    assert len(lx) != len(ly)
    t = K.pair_tables(x, ref, groups, g, x_levels=lx, y_levels=ly).total()
    assert K.kendall(t, lx, ly) == pytest.approx(kendall_score(x, ref), abs=1e-12)
    assert K.spearman(t, lx, ly) == pytest.approx(spearman_score(x, ref), abs=1e-12)
    assert K.pearson(t, lx, ly) == pytest.approx(pearson_score(x, ref), abs=1e-12)
    assert K.rmse(t, lx, ly) == pytest.approx(rmse_score(ref, x), abs=1e-12)


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval"])
def test_alpha_kernel_equals_krippendorff_package(data, level):
    x, y, third, groups, g = data
    ratings = np.column_stack([x, y, third])
    levels = K.levels_of(ratings)
    co = K.coincidences(ratings, groups, g, levels=levels)
    assert float(K.alpha(co.total(), levels, level=level)) == pytest.approx(
        krippendorff_alpha_score(ratings.T, level=level), abs=1e-12)
    draws = draw_groups(g, 25, seed=5)
    batched = K.alpha(K.resample(co, weights_from_draws(draws, g)), levels, level=level)
    for b, draw in enumerate(draws):
        idx = resample_index(draw, groups, g)
        assert batched[b] == pytest.approx(krippendorff_alpha_score(ratings[idx].T, level=level), abs=1e-12)


def test_group_level_kernel_equals_group_correlation(data):
    x, y, _, groups, g = data
    both = ~(np.isnan(x) | np.isnan(y))
    levels = K.levels_of(x[both], y[both])
    tables = K.pair_tables(x, y, groups, g, x_levels=levels, y_levels=levels)
    per_group = K.per_group(tables, lambda t: K.spearman(t, levels, levels))
    assert K.weighted_group_mean(per_group, None) == pytest.approx(
        group_correlation_score(x, y, groups, method="spearman"), abs=1e-12)
    draws = draw_groups(g, 30, seed=2)
    batched = K.weighted_group_mean(per_group, weights_from_draws(draws, g))
    # a resample repeats whole groups: each copy counts once in the mean over groups
    for b, draw in enumerate(draws):
        vals = [per_group[k] for k in draw if not math.isnan(per_group[k])]
        assert batched[b] == pytest.approx(np.mean(vals), abs=1e-12)


def test_step_kernels_equal_steps_module():
    rng = np.random.default_rng(3)
    n, g = 150, 15
    groups = rng.integers(0, g, n)
    n_steps = rng.integers(1, 9, n).astype(float)
    gold = np.where(rng.random(n) < 0.5, -1, np.floor(rng.random(n) * n_steps)).astype(float)
    pred = np.where(rng.random(n) < 0.4, -1, np.floor(rng.random(n) * n_steps)).astype(float)
    levels = K.levels_of(gold, pred)
    t = K.pair_tables(pred, gold, groups, g, x_levels=levels, y_levels=levels).total()
    gi, pi = gold.astype(int), pred.astype(int)
    assert K.processbench_f1(t, levels, levels) == pytest.approx(processbench_f1_score(gi, pi), abs=1e-12)
    assert K.solution_macro_f1(t, levels, levels) == pytest.approx(
        solution_macro_f1_score((gi == -1).astype(int), (pi == -1).astype(int).tolist()), abs=1e-12)
    counts = K.step_counts(pred, gold, n_steps, groups, g)
    assert K.step_macro_f1(counts.total()) == pytest.approx(
        step_macro_f1_score(gi, pi.tolist(), n_steps.astype(int).tolist()), abs=1e-12)
    draws = draw_groups(g, 20, seed=9)
    w = weights_from_draws(draws, g)
    batched = K.step_macro_f1(K.resample(counts, w))
    for b, draw in enumerate(draws):
        idx = resample_index(draw, groups, g)
        assert batched[b] == pytest.approx(
            step_macro_f1_score(gi[idx], pi[idx].tolist(), n_steps[idx].astype(int).tolist()), abs=1e-12)


def test_interval_alpha_from_moments_equals_package_for_any_number_of_values(data):
    x, y, third, groups, g = data
    rng = np.random.default_rng(1)
    ratings = np.column_stack([x, y, third]) + rng.normal(0, 0.3, (len(x), 3))  # ~500 distinct values
    stats = K.interval_moments(ratings, groups, g)
    assert float(K.interval_alpha(stats.total())) == pytest.approx(
        krippendorff_alpha_score(ratings.T, level="interval"), abs=1e-12)
    draws = draw_groups(g, 10, seed=4)
    batched = K.per_resample(stats, weights_from_draws(draws, g), K.interval_alpha)
    for b, draw in enumerate(draws):
        idx = resample_index(draw, groups, g)
        assert batched[b] == pytest.approx(krippendorff_alpha_score(ratings[idx].T, level="interval"), abs=1e-12)
    constant = np.full((20, 2), 3.0)
    assert math.isnan(K.interval_alpha(K.interval_moments(constant, np.zeros(20, int), 1).total()))


def test_large_tables_are_processed_in_bounded_blocks(data, monkeypatch):
    # near-continuous judge scores: many x levels; blocks of a few resamples keep memory bounded
    x, y, _, groups, g = data
    xc = x + np.random.default_rng(2).normal(0, 0.01, len(x))
    both = ~(np.isnan(xc) | np.isnan(y))
    lx, ly = K.levels_of(xc[both]), K.levels_of(y[both])
    stats = K.pair_tables(xc, y, groups, g, x_levels=lx, y_levels=ly)
    monkeypatch.setattr(K, "MAX_BLOCK", 3 * len(lx) * len(ly))  # three resamples / groups per block
    draws = draw_groups(g, 10, seed=8)
    batched = K.per_resample(stats, weights_from_draws(draws, g), lambda t: K.kendall(t, lx, ly))
    naive = naive_bootstrap(_quiet(kendall_score), [xc, y], groups, draws, n_groups=g)
    np.testing.assert_allclose(batched, naive, atol=1e-12)
    per_group = K.per_group(stats, lambda t: K.pearson(t, lx, ly))
    assert per_group.shape == (g,)


def test_kernels_mark_constant_tables_undefined():
    levels = np.array([1.0, 2.0, 3.0])
    t = np.zeros((3, 3))
    t[1, :] = [2, 3, 4]  # x constant at 2
    assert math.isnan(K.pearson(t, levels, levels))
    assert math.isnan(K.spearman(t, levels, levels))
    assert math.isnan(K.kendall(t, levels, levels))
    assert not math.isnan(K.mae(t, levels, levels))
    assert math.isnan(K.agreement(np.zeros((3, 3)), levels, levels))


def test_draws_are_seeded_and_weights_count_them():
    a = draw_groups(10, 5, seed=1)
    assert np.array_equal(a, draw_groups(10, 5, seed=1))
    assert not np.array_equal(a, draw_groups(10, 5, seed=2))
    w = weights_from_draws(a, 10)
    assert w.shape == (5, 10) and (w.sum(axis=1) == 10).all()
    assert all(w[b, k] == np.sum(a[b] == k) for b in range(5) for k in range(10))


def test_group_codes_and_resample_index():
    codes, n = group_codes(["d2", "d1", "d2"], 3)
    assert n == 2 and codes.tolist() == [1, 0, 1]
    assert group_codes(None, 4)[1] == 4
    assert sorted(resample_index(np.array([1, 1]), codes, 2).tolist()) == [0, 0, 2, 2]


def test_percentile_interval_ignores_undefined_resamples():
    assert percentile_interval(np.array([np.nan, 1.0, 2.0, 3.0]), confidence=0.5) == (1.5, 2.5)
    assert percentile_interval(np.array([np.nan, np.nan])) is None
