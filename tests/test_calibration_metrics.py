"""Agreement, correlation and deviation metrics: documented library examples and degenerate inputs."""

from __future__ import annotations

import doctest
import math
import warnings

import numpy as np
import pytest

import calibration.agreement as agreement
import calibration.alttest as alttest_mod
import calibration.baselines as baselines
import calibration.bootstrap as bootstrap
import calibration.calmap as calmap
import calibration.correlation as correlation
import calibration.deviation as deviation
from calibration.agreement import cohen_kappa_score, krippendorff_alpha_score, percent_agreement_score
from calibration.correlation import group_correlation_score, kendall_score, pearson_score, spearman_score
from calibration.deviation import mae_score, rmse_score
from calibration.undefined import UndefinedMetricWarning, capture_undefined


@pytest.mark.parametrize("module", [agreement, correlation, deviation, alttest_mod, baselines, bootstrap, calmap],
                         ids=lambda m: m.__name__)
def test_docstring_examples_run(module):
    assert doctest.testmod(module).failed == 0


# --- documented examples of the libraries we wrap --------------------------------------------

def test_kappa_sklearn_doc_example():
    # sklearn.metrics.cohen_kappa_score: negative/positive/neutral -> 0.6875 (labels coded 0/2/1)
    code = {"negative": 0, "neutral": 1, "positive": 2}
    y1 = [code[v] for v in ["negative", "positive", "negative", "neutral", "positive"]]
    y2 = [code[v] for v in ["negative", "positive", "negative", "neutral", "negative"]]
    assert cohen_kappa_score(y1, y2) == 0.6875


def test_kappa_weights_use_the_given_scale():
    # with labels = the full 1..5 scale, the unused 3 and 4 count in the distance 2 -> 5
    y1, y2 = [1, 5, 2, 5], [1, 2, 2, 5]
    default = cohen_kappa_score(y1, y2, weights="linear")
    full = cohen_kappa_score(y1, y2, weights="linear", labels=[1, 2, 3, 4, 5])
    assert default != full
    from sklearn.metrics import cohen_kappa_score as sk

    assert full == pytest.approx(sk(y1, y2, weights="linear", labels=[1, 2, 3, 4, 5]))


KRIPP_DATA = [[np.nan, np.nan, np.nan, np.nan, np.nan, 3, 4, 1, 2, 1, 1, 3, 3, np.nan, 3],
              [1, np.nan, 2, 1, 3, 3, 4, 3, np.nan, np.nan, np.nan, np.nan, np.nan, np.nan, np.nan],
              [np.nan, np.nan, 2, 1, 3, 4, 4, np.nan, 2, 1, 1, 3, 3, np.nan, 4]]
KRIPP_ORDINAL = [[1, 2, 3, 3, 2, 1, 4, 1, 2, np.nan, np.nan, np.nan],
                 [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, np.nan, 3],
                 [np.nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, np.nan],
                 [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, np.nan]]


@pytest.mark.parametrize(("data", "level", "expected", "digits"), [
    pytest.param(KRIPP_DATA, "nominal", 0.691358, 6, id="nominal"),
    pytest.param(KRIPP_DATA, "interval", 0.810845, 6, id="interval"),
    pytest.param(KRIPP_ORDINAL, "ordinal", 0.815, 3, id="ordinal-krippendorff-2011-p8"),
])
def test_alpha_krippendorff_package_doc_examples(data, level, expected, digits):
    assert round(krippendorff_alpha_score(data, level=level), digits) == expected


def test_correlations_scipy_doc_examples():
    assert pearson_score([1, 2, 3, 4, 5, 6, 7], [10, 9, 2.5, 6, 4, 3, 2]) == pytest.approx(-0.828503883588428)
    assert spearman_score([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]) == pytest.approx(0.8207826816681233)
    assert kendall_score([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]) == pytest.approx(-0.47140452079103173)


def test_deviation_sklearn_doc_examples():
    assert mae_score([3, -0.5, 2, 7], [2.5, 0.0, 2, 8]) == 0.5
    assert rmse_score([3, -0.5, 2, 7], [2.5, 0.0, 2, 8]) == pytest.approx(0.6123724356957945)


def test_kappa_accepts_half_point_scores():
    # the mean of two humans is a half-point score; scikit-learn alone calls that "continuous"
    assert cohen_kappa_score([1.5, 2, 2.5, 2], [1.5, 2, 2.5, 2.5]) == pytest.approx(
        cohen_kappa_score([1, 2, 3, 2], [1, 2, 3, 3]))
    with pytest.raises(ValueError, match="not among the labels"):
        cohen_kappa_score([1, 2], [1, 3], labels=[1, 2])


# --- agreement with and without ties ------------------------------------------------------------

def test_percent_agreement_with_and_without_ties():
    a = [0, 0.5, 1, 1, 0.5, 0]   # A, tie, B, B, tie, A
    b = [0, 0.5, 0, 1, 1, 0.5]
    assert percent_agreement_score(a, b) == pytest.approx(3 / 6)
    # without ties: items 0, 2, 3 remain -> 2 of 3 agree
    assert percent_agreement_score(a, b, ties="exclude") == pytest.approx(2 / 3)


def test_missing_scores_are_dropped_pairwise():
    assert percent_agreement_score([1, np.nan, 3], [1, 2, 4]) == 0.5
    assert mae_score([1, np.nan, 3], [1, 2, 4]) == 0.5


# --- degenerate inputs: NaN with a reason, never a crash or a silent 0 ---------------------------

@pytest.mark.parametrize(("fn", "args", "reason"), [
    pytest.param(pearson_score, ([3, 3, 3], [1, 2, 3]), "x is constant", id="pearson-constant-judge"),
    pytest.param(spearman_score, ([1, 2, 3], [4, 4, 4]), "y is constant", id="spearman-constant-human"),
    pytest.param(kendall_score, ([1], [2]), "fewer than two", id="kendall-one-item"),
    pytest.param(cohen_kappa_score, ([2, 2], [2, 2]), "only", id="kappa-one-value"),
    pytest.param(krippendorff_alpha_score, ([[1, 1], [1, 1]],), "fewer than two distinct", id="alpha-one-value"),
    pytest.param(krippendorff_alpha_score, ([[1, np.nan], [np.nan, 2]],), "no item has two", id="alpha-no-pairs"),
    pytest.param(mae_score, ([np.nan], [1]), "no item", id="mae-empty"),
    pytest.param(group_correlation_score, ([1, 1, 2, 2], [1, 2, 3, 4], ["a", "a", "b", "b"]),
                 "every group", id="group-all-constant"),
])
def test_undefined_metrics_return_nan_with_reason(fn, args, reason):
    value, why = capture_undefined(fn, *args)
    assert math.isnan(value)
    assert why is not None and reason in why


def test_undefined_warning_is_the_sklearn_style_category():
    with pytest.warns(UndefinedMetricWarning):
        pearson_score([1, 1], [1, 2])


def test_agreement_without_ties_on_only_ties_is_nan():
    with pytest.warns(UndefinedMetricWarning, match="no item"):
        assert math.isnan(percent_agreement_score([0.5, 0.5], [0.5, 1], ties="exclude"))


def test_group_correlation_skips_undefined_groups_like_g_eval_does():
    # group a: constant judge (skipped); group b: perfect -> mean over defined groups = 1
    x = [2, 2, 2, 1, 2, 3]
    y = [1, 2, 3, 1, 2, 3]
    g = ["a"] * 3 + ["b"] * 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # skipping is by design: no warning leaks out
        assert group_correlation_score(x, y, g, method="pearson") == pytest.approx(1.0)


def test_capture_undefined_passes_other_warnings_through():
    def noisy(a):
        warnings.warn("unrelated", RuntimeWarning)
        return a

    with pytest.warns(RuntimeWarning, match="unrelated"):
        assert capture_undefined(noisy, 3) == (3, None)
