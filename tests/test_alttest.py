"""The Alternative Annotator Test: the published SummEval figures, the passing constant, the BY procedure."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.alttest import alt_test, benjamini_yekutieli
from calibration.baselines import baseline_predictions
from calibration.tables import make_panel, read_alttest

# Calderon, Reichart and Dror (ACL 2025), SummEval, scoring neg-RMSE, epsilon 0.2 (alt_test_example.ipynb).
PUBLISHED = {"gemini_flash": 0.46, "gemini_pro": 0.44, "gpt-4o": 0.48, "llama-31": 0.58, "gpt-4o-mini": 0.54,
             "mistral-v03": 0.62}


@pytest.fixture(scope="module")
def summeval_panel(shared_data):
    d = shared_data / "judging" / "alttest_summeval"
    fields = ("doc", "system", "dimension")
    return make_panel(read_alttest(d / "human_annotations.json", id_fields=fields),
                      read_alttest(d / "llm_annotations.json", id_fields=fields))


@pytest.mark.parametrize(("judge", "advantage"), list(PUBLISHED.items()))
def test_summeval_published_advantage_and_winning_rate(summeval_panel, judge, advantage):
    x = summeval_panel.judge_scores[:, summeval_panel.judges.index(judge)]
    r = alt_test(x, summeval_panel.human_scores, raters=summeval_panel.humans, scoring="neg_rmse", epsilon=0.2)
    assert f"{r.advantage_probability:.2f}" == f"{advantage:.2f}"
    assert f"{r.winning_rate:.2f}" == "0.00"
    assert not r.passed
    assert [a.rater for a in r.annotators] == ["e0", "e1", "e2"]


def test_summeval_constant_predictor_passes(summeval_panel):
    # the humans' most frequent score within each dimension (coherence 3, consistency 5, fluency 5,
    # relevance 4): a constant per dimension, blind to the summary, beats all three experts
    _, strata = np.unique(np.asarray(summeval_panel.fields["dimension"]), return_inverse=True)
    x = baseline_predictions(summeval_panel.human_scores, kind="majority", scale="numeric", strata=strata)
    by_dim = {d: x[np.asarray(summeval_panel.fields["dimension"]) == d][0] for d in set(summeval_panel.fields["dimension"])}
    assert by_dim == {"coherence": 3.0, "consistency": 5.0, "fluency": 5.0, "relevance": 4.0}
    r = alt_test(x, summeval_panel.human_scores, raters=summeval_panel.humans, scoring="neg_rmse", epsilon=0.2)
    assert r.winning_rate == 1.0 and r.passed
    assert all(a.rejected for a in r.annotators)
    # one constant for all dimensions (5, the overall mode) does not pass: the per-dimension fit matters
    five = np.full(len(summeval_panel.items), 5.0)
    assert alt_test(five, summeval_panel.human_scores, scoring="neg_rmse", epsilon=0.2).winning_rate == pytest.approx(1 / 3)


def _by_reference(p_values, q):
    """The step-up loop of the authors' notebook (``by_procedure``), for comparison."""
    p = np.array(p_values, dtype=float)
    m = len(p)
    order = np.argsort(p)
    h_m = np.sum(1.0 / np.arange(1, m + 1))
    thresholds = (np.arange(1, m + 1) / m) * (q / h_m)
    max_i = -1
    for i in range(m):
        if p[order][i] <= thresholds[i]:
            max_i = i
    out = np.zeros(m, dtype=bool)
    out[order[:max_i + 1]] = True
    return out


@pytest.mark.parametrize("seed", range(20))
def test_benjamini_yekutieli_matches_the_reference_step_up(seed):
    rng = np.random.default_rng(seed)
    m = int(rng.integers(1, 12))
    p = np.where(rng.random(m) < 0.5, rng.random(m) * 0.02, rng.random(m))
    assert benjamini_yekutieli(p, q=0.05).tolist() == _by_reference(p, 0.05).tolist()


def test_undefined_p_value_is_never_rejected():
    assert benjamini_yekutieli([float("nan"), 1e-9], q=0.05).tolist() == [False, True]


def test_epsilon_decides_a_close_call():
    # the judge matches the other humans as often as the left-out human, minus a little
    rng = np.random.default_rng(0)
    humans = rng.integers(1, 4, size=(200, 3)).astype(float)
    judge = humans[:, 0].copy()
    flip = rng.random(200) < 0.1
    judge[flip] = 4 - judge[flip]
    strict = alt_test(judge, humans, scoring="accuracy", epsilon=0.0)
    generous = alt_test(judge, humans, scoring="accuracy", epsilon=0.3)
    assert generous.winning_rate >= strict.winning_rate
    assert generous.winning_rate == 1.0


def test_humans_with_too_few_items_are_skipped():
    humans = np.full((40, 3), np.nan)
    humans[:, 0] = 1
    humans[:, 1] = 2
    humans[:10, 2] = 3
    r = alt_test(np.ones(40), humans, raters=["a", "b", "c"], scoring="accuracy")
    assert r.skipped == ("c",)
    assert [a.rater for a in r.annotators] == ["a", "b"]
    with pytest.raises(ValueError, match="no human has"):
        alt_test(np.ones(40), humans, min_instances_per_human=100)


def test_failed_judge_items_are_left_out():
    humans = np.tile(np.array([[1.0, 1.0, 2.0]]), (40, 1))
    judge = np.ones(40)
    judge[:5] = np.nan
    r = alt_test(judge, humans, scoring="accuracy")
    assert {a.n_items for a in r.annotators} == {35}
