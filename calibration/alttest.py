"""The Alternative Annotator Test (Calderon, Reichart and Dror, ACL 2025): can the judge replace a human?

The procedure, as in the authors' reference code (``nitaytech/AltTest``, ``alt_test``):

1. Keep the items rated by at least ``min_humans_per_instance`` humans (and by the judge).
2. For each human ``h`` with at least ``min_instances_per_human`` of those items, leave ``h``
   out. On each item ``h`` rated, score the judge and ``h`` against the *other* humans'
   scores on that item: ``accuracy`` (share of them matched exactly) or ``neg_rmse``
   (minus the root mean squared difference). The judge "wins" the item when its score is
   >= the human's, the human when the human's is >= the judge's (a tie is a win for both).
3. ``d_i = human_wins_i - judge_wins_i``; a one-sided one-sample t-test of
   ``H0: mean(d) >= epsilon`` against ``H1: mean(d) < epsilon`` gives ``p_h``
   (``scipy.stats.ttest_1samp(d, epsilon, alternative="less")``). ``epsilon`` is the
   cost-benefit allowance the judge gets (0.2 for expert annotators, 0.15 skilled, 0.1 crowd).
4. The Benjamini-Yekutieli procedure at ``q_fdr`` (0.05) over the ``p_h`` decides which
   humans the judge beats; the **winning rate** is the share beaten, and the judge passes
   when it is >= 0.5. The **advantage probability** is the mean over humans of the share
   of items the judge wins -- the measure the paper uses to compare judges.

A judge score that failed (NaN) leaves that item out of the test for that judge.

Note: a constant predictor can pass. On SummEval (``../shared/data/judging/alttest_summeval``)
predicting the humans' most frequent score for each dimension wins against all three
experts, while every published LLM judge fails: run the baselines through the test too.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

__all__ = ["AltTestResult", "AnnotatorResult", "alt_test", "benjamini_yekutieli"]

Scoring = Literal["accuracy", "neg_rmse"]


@dataclass(frozen=True)
class AnnotatorResult:
    """The comparison with one left-out human."""

    rater: str
    n_items: int
    p_value: float
    rejected: bool  # H0 rejected after Benjamini-Yekutieli: the judge beats this human
    advantage_probability: float


@dataclass(frozen=True)
class AltTestResult:
    """Winning rate, advantage probability, pass/fail and the per-human tests."""

    winning_rate: float
    advantage_probability: float
    passed: bool
    epsilon: float
    q_fdr: float
    scoring: Scoring
    annotators: tuple[AnnotatorResult, ...]
    skipped: tuple[str, ...]  # humans with fewer than min_instances_per_human items

    def as_dict(self) -> dict:
        return {
            "winning_rate": self.winning_rate,
            "advantage_probability": self.advantage_probability,
            "passed": self.passed,
            "epsilon": self.epsilon,
            "q_fdr": self.q_fdr,
            "scoring": self.scoring,
            "annotators": [a.__dict__ for a in self.annotators],
            "skipped": list(self.skipped),
        }


def benjamini_yekutieli(p_values: Sequence[float], *, q: float = 0.05) -> np.ndarray:
    """Return which hypotheses the Benjamini-Yekutieli step-up procedure rejects at FDR ``q``.

    Rejects ``p_(1..k)`` for the largest ``k`` with ``p_(k) <= k q / (m H_m)``, ``H_m`` the
    m-th harmonic number; computed as ``scipy.stats.false_discovery_control(method="by") <= q``.

    >>> benjamini_yekutieli([0.001, 0.04, 0.5]).tolist()
    [True, False, False]
    """
    from scipy.stats import false_discovery_control

    p = np.asarray(p_values, dtype=float)
    if p.size == 0:
        return np.zeros(0, dtype=bool)
    # An undefined p-value (a t statistic of 0/0) is never rejected; as 1.0 it sorts last and
    # keeps m, exactly as the reference code's NaN comparisons do.
    return false_discovery_control(np.where(np.isnan(p), 1.0, p), method="by") <= q


def _scores_against(pred: np.ndarray, others: np.ndarray, scoring: Scoring) -> np.ndarray:
    """Score each item's prediction against the other humans' values (NaN = absent).

    ``neg_rmse`` is compared through the mean squared difference (the same order, and exact
    for integer scales where a square root could round two equal values apart).
    """
    present = ~np.isnan(others)
    m = present.sum(axis=1)
    if scoring == "accuracy":
        hits = np.where(present, others == pred[:, None], False).sum(axis=1)
        return hits / m
    sq = np.where(present, (others - pred[:, None]) ** 2, 0.0).sum(axis=1)
    return -(sq / m)


def alt_test(judge: Sequence[float], humans: np.ndarray, *, raters: Sequence[str] | None = None,
             scoring: Scoring = "accuracy", epsilon: float = 0.2, q_fdr: float = 0.05,
             min_humans_per_instance: int = 2, min_instances_per_human: int = 30) -> AltTestResult:
    """Run the alt-test for one judge against items x humans scores (NaN = not rated).

    Returns winning rate, advantage probability and per-human p-values. With SummEval's
    experts, ``scoring="neg_rmse"`` and ``epsilon=0.2`` it reproduces the paper's numbers
    (e.g. gpt-4o: winning rate 0.00, advantage probability 0.48).

    >>> h = np.array([[1, 1, 1], [2, 2, 1], [3, 3, 3], [1, 2, 1]] * 10, dtype=float)
    >>> r = alt_test(h[:, 0], h, scoring="accuracy", epsilon=0.2)
    >>> r.winning_rate, round(r.advantage_probability, 3)  # a copy of one human beats them all
    (1.0, 1.0)
    """
    from scipy.stats import ttest_1samp

    x = np.asarray(judge, dtype=float)
    h = np.asarray(humans, dtype=float)
    if h.ndim != 2 or h.shape[0] != x.shape[0]:
        raise ValueError(f"alt_test: humans must be items x raters with {x.shape[0]} rows, got {h.shape}")
    names = list(raters) if raters is not None else [f"h{k}" for k in range(h.shape[1])]
    keep = ((~np.isnan(h)).sum(axis=1) >= min_humans_per_instance) & ~np.isnan(x)
    x, h = x[keep], h[keep]
    p_values, advantages, results, skipped = [], [], [], []
    for k, name in enumerate(names):
        mine = ~np.isnan(h[:, k])
        if mine.sum() < min_instances_per_human:
            skipped.append(name)
            continue
        others = np.delete(h[mine], k, axis=1)
        human_score = _scores_against(h[mine, k], others, scoring)
        judge_score = _scores_against(x[mine], others, scoring)
        judge_wins = (judge_score >= human_score).astype(float)
        human_wins = (human_score >= judge_score).astype(float)
        d = human_wins - judge_wins
        with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
            # identical differences on every item (e.g. a copy of a human) make scipy warn about
            # precision; the t statistic is then +-inf and the p-value 0 or 1, which is right
            warnings.filterwarnings("ignore", "Precision loss", RuntimeWarning)
            p = float(ttest_1samp(d, epsilon, alternative="less").pvalue)
        p_values.append(p)
        advantages.append(float(judge_wins.mean()))
        results.append((name, int(mine.sum()), p, float(judge_wins.mean())))
    if not results:
        raise ValueError(f"alt_test: no human has {min_instances_per_human} items shared with the judge "
                         "and another human")
    rejected = benjamini_yekutieli(p_values, q=q_fdr)
    annotators = tuple(AnnotatorResult(n, m, p, bool(rj), a) for (n, m, p, a), rj in zip(results, rejected))
    winning_rate = float(rejected.sum() / len(results))
    return AltTestResult(winning_rate, float(np.mean(advantages)), winning_rate >= 0.5, epsilon, q_fdr, scoring,
                         annotators, tuple(skipped))
