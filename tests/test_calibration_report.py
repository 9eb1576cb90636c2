"""The agreement report: every number recomputed from its definition with the library-backed metrics."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from calibration.agreement import cohen_kappa_score, krippendorff_alpha_score, percent_agreement_score
from calibration.baselines import baseline_predictions
from calibration.bootstrap import draw_groups, naive_bootstrap, percentile_interval
from calibration.correlation import group_correlation_score, kendall_score, pearson_score, spearman_score
from calibration.deviation import mae_score
from calibration.report import ReportSettings, agreement_report, render_report
from calibration.steps import processbench_f1_score
from calibration.tables import Panel, load_panel
from calibration.undefined import UndefinedMetricWarning

N_GROUPS = 30


@pytest.fixture(scope="module")
def panel():
    """Three humans on a 1-5 scale, a noisy judge, a constant judge; 180 items in 30 documents."""
    rng = np.random.default_rng(42)
    n = 180
    truth = rng.integers(1, 6, n)
    humans = np.column_stack([np.clip(truth + rng.integers(-1, 2, n), 1, 5) for _ in range(3)]).astype(float)
    humans[rng.random(n) < 0.1, 2] = np.nan  # the third human skipped some items
    judge = np.clip(truth + rng.integers(-2, 3, n), 1, 5).astype(float)
    const = np.full(n, 4.0)
    docs = tuple(f"d{k % N_GROUPS}" for k in range(n))
    dims = tuple("coherence" if k % 2 else "fluency" for k in range(n))
    return Panel(tuple(f"i{k}" for k in range(n)), ("h0", "h1", "h2"), ("judge", "const"), humans,
                 np.column_stack([judge, const]), "numeric", {"doc": docs, "dim": dims}, {"judge": 0, "const": 0})


def _rows(report, judge, section="all"):
    sec = next(s for s in report["sections"] if s["name"] == section)
    return {r["metric"]: r for r in sec["judges"][judge]["metrics"]}


def _loo_refs(h):
    refs = []
    for k in range(h.shape[1]):
        others = np.delete(h, k, axis=1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            ref = np.nanmean(others, axis=1)
        refs.append(np.where(np.isnan(h[:, k]), np.nan, ref))
    return refs


@pytest.fixture(scope="module")
def report(panel):
    return agreement_report(panel, ReportSettings(n_resamples=200, seed=3, group_by="doc"))


def test_pairwise_family_is_mean_over_humans(panel, report):
    x, h = panel.judge_scores[:, 0], panel.human_scores
    rows = _rows(report, "judge")
    both_levels = [np.union1d(x[~np.isnan(h[:, k])], h[~np.isnan(h[:, k]), k]) for k in range(3)]
    assert rows["agreement"]["value"] == pytest.approx(np.mean([percent_agreement_score(x, h[:, k]) for k in range(3)]))
    assert rows["kappa_quadratic"]["value"] == pytest.approx(np.mean(
        [cohen_kappa_score(x, h[:, k], weights="quadratic", labels=both_levels[k]) for k in range(3)]))
    pairs = [(a, b) for a in range(3) for b in range(3) if a != b]
    assert rows["agreement"]["ceiling"] == pytest.approx(
        np.mean([percent_agreement_score(h[:, a], h[:, b]) for a, b in pairs]))


def test_loo_family_compares_judge_and_humans_with_the_same_references(panel, report):
    x, h = panel.judge_scores[:, 0], panel.human_scores
    refs = _loo_refs(h)
    rows = _rows(report, "judge")
    for metric, fn in [("pearson", pearson_score), ("spearman", spearman_score), ("kendall", kendall_score)]:
        assert rows[metric]["value"] == pytest.approx(np.mean([fn(x, r) for r in refs]), abs=1e-12)
        assert rows[metric]["ceiling"] == pytest.approx(np.mean([fn(h[:, k], r) for k, r in enumerate(refs)]),
                                                        abs=1e-12)
    assert rows["mae"]["value"] == pytest.approx(np.mean([mae_score(r, x) for r in refs]), abs=1e-12)
    docs = np.asarray(panel.fields["doc"])
    assert rows["kendall_group"]["value"] == pytest.approx(
        np.mean([group_correlation_score(x, r, docs, method="kendall") for r in refs]), abs=1e-12)


def test_alpha_adds_the_judge_as_one_more_coder(panel, report):
    x, h = panel.judge_scores[:, 0], panel.human_scores
    rows = _rows(report, "judge")
    for level in ("nominal", "ordinal", "interval"):
        assert rows[f"alpha_{level}"]["value"] == pytest.approx(
            krippendorff_alpha_score(np.column_stack([h, x]).T, level=level), abs=1e-12)
        assert rows[f"alpha_{level}"]["ceiling"] == pytest.approx(krippendorff_alpha_score(h.T, level=level),
                                                                  abs=1e-12)


def test_interval_is_the_grouped_bootstrap_replayed_naively(panel, report):
    x, h = panel.judge_scores[:, 0], panel.human_scores
    refs = _loo_refs(h)
    docs = np.unique(np.asarray(panel.fields["doc"]), return_inverse=True)[1]
    draws = draw_groups(N_GROUPS, 200, seed=3)

    def mean_spearman(xx, *rr):
        return np.mean([spearman_score(xx, r) for r in rr])

    boot = naive_bootstrap(mean_spearman, [x, *refs], docs, draws)
    lo, hi = percentile_interval(boot)
    assert _rows(report, "judge")["spearman"]["ci"] == [pytest.approx(lo, abs=1e-12), pytest.approx(hi, abs=1e-12)]


def test_constant_judge_has_no_correlation_and_says_why(report):
    rows = _rows(report, "const")
    for metric in ("pearson", "spearman", "kendall", "pearson_group"):
        assert rows[metric]["value"] is None
        assert "constant" in rows[metric]["undefined_reason"]
        assert rows[metric]["ci"] is None and rows[metric]["ci_undefined_resamples"] == 200
    assert rows["mae"]["value"] is not None  # a constant has an error, just no correlation


def test_baselines_run_through_every_metric(panel, report):
    rows = _rows(report, "judge")
    h = panel.human_scores
    majority = baseline_predictions(h, kind="majority", scale="numeric")
    assert rows["agreement"]["baselines"]["majority"] == pytest.approx(
        np.mean([percent_agreement_score(majority, h[:, k]) for k in range(3)]))
    assert set(rows["pearson"]["baselines"]) == {"constant", "majority", "random"}
    assert rows["pearson"]["baselines"]["majority"] is None  # constant -> undefined, not 0
    assert rows["pearson"]["baselines"]["random"] is not None


def test_seed_fixes_the_intervals(panel):
    a = agreement_report(panel, ReportSettings(n_resamples=50, seed=1, group_by="doc"), judges=["judge"])
    b = agreement_report(panel, ReportSettings(n_resamples=50, seed=1, group_by="doc"), judges=["judge"])
    c = agreement_report(panel, ReportSettings(n_resamples=50, seed=2, group_by="doc"), judges=["judge"])
    assert _rows(a, "judge")["kappa"]["ci"] == _rows(b, "judge")["kappa"]["ci"]
    assert _rows(a, "judge")["kappa"]["ci"] != _rows(c, "judge")["kappa"]["ci"]


def test_split_sections_and_rendering(panel):
    rep = agreement_report(panel, ReportSettings(n_resamples=0, group_by="doc", split_by="dim"), judges=["judge"])
    assert [s["name"] for s in rep["sections"]] == ["all", "dim=coherence", "dim=fluency"]
    assert rep["sections"][1]["n_items"] == 90
    assert _rows(rep, "judge", "dim=fluency")["kappa"]["ci"] is None  # no resamples asked
    text = render_report(rep)
    assert "== judge | dim=coherence (90 items" in text
    assert "Krippendorff alpha, ordinal" in text and "alt-test:" in text


def test_one_human_has_no_ceiling(panel):
    one = Panel(panel.items, ("h0",), ("judge",), panel.human_scores[:, :1], panel.judge_scores[:, :1],
                "numeric", panel.fields, {})
    rep = agreement_report(one, ReportSettings(n_resamples=0))
    rows = _rows(rep, "judge")
    assert rows["pearson"]["ceiling"] is None
    assert "one human" in rows["pearson"]["ceiling_undefined_reason"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        assert rows["pearson"]["value"] == pytest.approx(pearson_score(one.judge_scores[:, 0], one.human_scores[:, 0]))
    assert "two humans" in rows["alt_test_winning_rate"]["undefined_reason"]


def test_pairwise_scale_reports_agreement_with_and_without_ties():
    h = np.array([[0, 0], [0.5, 0.5], [1, 1], [1, 0.5], [0, 1]] * 8, dtype=float)
    j = np.array([0, 0.5, 1, 1, 1] * 8, dtype=float)
    p = Panel(tuple(f"m{k}" for k in range(40)), ("a", "b"), ("gpt",), h, j[:, None], "pairwise", {}, {})
    rows = _rows(agreement_report(p, ReportSettings(n_resamples=20)), "gpt")
    assert set(rows) == {"agreement", "agreement_no_ties", "kappa", "alpha_nominal", "alt_test_winning_rate",
                         "alt_test_advantage"}
    assert rows["agreement"]["value"] == pytest.approx(np.mean([percent_agreement_score(j, h[:, k]) for k in (0, 1)]))
    assert rows["agreement_no_ties"]["value"] == pytest.approx(
        np.mean([percent_agreement_score(j, h[:, k], ties="exclude") for k in (0, 1)]))
    assert rows["agreement_no_ties"]["baselines"]["constant"] is None  # always "tie": nothing left


def test_mrmath_step_metrics_through_the_report(shared_data):
    d = shared_data / "judging" / "reasoneval_mrmath"
    panel = load_panel(d / "mr-math_invalid_errors.jsonl", [d / "invalid__gpt4_eval_results.jsonl"],
                       format="mrmath")
    rows = _rows(agreement_report(panel, ReportSettings(n_resamples=100)), "gpt4")
    assert f"{rows['step_macro_f1']['value']:.3f}" == "0.610"  # ReasonEval's published step-level figure
    gold = panel.human_scores[:, 0].astype(int)
    pred = panel.judge_scores[:, 0].astype(int)
    assert rows["processbench_f1"]["value"] == pytest.approx(processbench_f1_score(gold, pred))
    assert rows["step_macro_f1"]["ceiling"] is None  # one annotator
    lo, hi = rows["step_macro_f1"]["ci"]
    assert lo < rows["step_macro_f1"]["value"] < hi


def test_summeval_report_matches_published_alt_test(shared_data):
    d = shared_data / "judging" / "alttest_summeval"
    panel = load_panel(d / "human_annotations.json", [d / "llm_annotations.json"], format="alttest",
                       id_fields=("doc", "system", "dimension"), judge_raters=["mistral-v03"])
    rep = agreement_report(panel, ReportSettings(n_resamples=100, group_by="doc", split_by="dimension"))
    rows = _rows(rep, "mistral-v03")
    assert f"{rows['alt_test_advantage']['value']:.2f}" == "0.62"
    assert rows["alt_test_winning_rate"]["value"] == 0.0
    # the per-dimension majority constant passes the same test in the same report
    assert rows["alt_test_winning_rate"]["baselines"]["majority"] == 1.0
    assert rep["sections"][0]["baselines_alt_test"]["majority"]["passed"] is True
    assert not math.isnan(rows["spearman_group"]["value"])


def test_near_continuous_judge_gets_reasons_not_a_crash(panel, monkeypatch):
    x = panel.judge_scores[:, 0] + np.random.default_rng(0).normal(0, 0.2, len(panel.items))  # 180 distinct
    p = Panel(panel.items, panel.humans, ("cont",), panel.human_scores, x[:, None], "numeric", panel.fields, {})
    from calibration import report as report_mod

    rows = _rows(agreement_report(p, ReportSettings(n_resamples=30, group_by="doc")), "cont")
    assert rows["spearman"]["ci"] is not None and rows["alpha_interval"]["value"] is not None
    assert rows["alpha_interval"]["value"] == pytest.approx(
        krippendorff_alpha_score(np.column_stack([panel.human_scores, x]).T, level="interval"), abs=1e-12)
    # categorical metrics need a discrete scale: fewer categories allowed than values here
    monkeypatch.setattr(report_mod, "MAX_CATEGORIES", 100)
    rows = _rows(agreement_report(p, ReportSettings(n_resamples=0, group_by="doc")), "cont")
    for metric in ("agreement", "kappa_linear", "alpha_ordinal"):
        assert rows[metric]["value"] is None
        assert "distinct values" in rows[metric]["undefined_reason"]
