"""Step-level verifier metrics: ProcessBench F1 and the MR-MATH numbers ReasonEval published."""

from __future__ import annotations

import doctest
import json
import math

import pytest

import calibration.reasoneval as reasoneval
import calibration.steps as steps
from calibration.steps import (
    processbench_accuracy,
    processbench_f1_score,
    solution_auc_score,
    solution_macro_f1_score,
    solution_score,
    step_labels,
    step_macro_f1_score,
    threshold_predictions,
)
from calibration.undefined import UndefinedMetricWarning
from judge.errors import InputError


@pytest.mark.parametrize("module", [steps, reasoneval], ids=["steps", "reasoneval"])
def test_docstring_examples_run(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_step_labels_stop_at_the_first_error():
    assert step_labels(0, 3) == [0, None, None]
    assert step_labels(2, 3) == [1, 1, 0]
    assert step_labels(-1, 2) == [1, 1]
    with pytest.raises(ValueError, match="outside"):
        step_labels(3, 3)
    with pytest.raises(ValueError, match="outside"):
        step_labels(-2, 3)


def test_solution_macro_f1_matches_sklearn_by_hand():
    # class 1: TP=3 FP=0 FN=1 -> 6/7; class 0: TP=2 FP=1 FN=0 -> 4/5; mean = 0.828571...
    assert solution_macro_f1_score([0, 1, 1, 0, 1, 1], [0, 1, 0, 0, 1, 1]) == pytest.approx((6 / 7 + 4 / 5) / 2)


def test_missing_verdict_is_a_miss_whatever_the_gold():
    # None on a gold 1 behaves as a predicted 0, on a gold 0 as a predicted 1.
    assert solution_macro_f1_score([1, 0, 1, 0], [None, None, 1, 0]) == solution_macro_f1_score(
        [1, 0, 1, 0], [0, 1, 1, 0])
    assert solution_macro_f1_score([1, 0], [None, None]) == 0.0


def test_solution_macro_f1_single_class_is_nan_with_reason():
    with pytest.warns(UndefinedMetricWarning, match="only class"):
        assert math.isnan(solution_macro_f1_score([1, 1, 1], [1, 0, 1]))


def test_solution_macro_f1_rejects_non_binary_predictions():
    with pytest.raises(ValueError, match="expected 0, 1 or None"):
        solution_macro_f1_score([1, 0], [1, 2])


def test_step_macro_f1_counts_steps_after_predicted_error_as_misses():
    # gold 1 1 0 | 1 1 ; pred 1 0 - | 1 1
    # class 1: TP=3 FN=1 FP=1 (the gold 0 under '-' is a miss) -> 6/8; class 0: TP=0 -> 0
    assert step_macro_f1_score([2, -1], [1, -1], [3, 2]) == pytest.approx(_f1_by_hand(
        tp1=3, fp1=1, fn1=1, tp0=0, fp0=1, fn0=1)) == pytest.approx(0.375)
    assert step_macro_f1_score([2, -1, 0], [2, -1, 0], [3, 2, 4]) == 1.0


def test_step_macro_f1_none_misses_every_scored_step():
    # gold 1 0 | 1 ; pred (none) | 1 -> class 1: TP=1 FN=1 FP=1; class 0: TP=0 FP=1 FN=1
    assert step_macro_f1_score([1, -1], [None, -1], [2, 1]) == pytest.approx(_f1_by_hand(
        tp1=1, fp1=1, fn1=1, tp0=0, fp0=1, fn0=1)) == pytest.approx(0.25)


def _f1_by_hand(*, tp1, fp1, fn1, tp0, fp0, fn0):
    return (2 * tp1 / (2 * tp1 + fp1 + fn1) + 2 * tp0 / (2 * tp0 + fp0 + fn0)) / 2


def test_step_macro_f1_rejects_out_of_range_prediction():
    with pytest.raises(ValueError, match="prediction 0"):
        step_macro_f1_score([1], [5], [3])


def test_processbench_f1_is_harmonic_mean_of_two_accuracies():
    y_true = [1, 3, 0, -1, -1, -1]
    y_pred = [1, 2, 0, -1, 2, None]
    a = processbench_accuracy(y_true, y_pred, subset="erroneous")
    b = processbench_accuracy(y_true, y_pred, subset="correct")
    assert (a, b) == (pytest.approx(2 / 3), pytest.approx(1 / 3))
    assert processbench_f1_score(y_true, y_pred) == pytest.approx(2 * a * b / (a + b))
    assert processbench_f1_score([1, -1], [0, 1]) == 0.0
    with pytest.warns(UndefinedMetricWarning, match="no correct solutions"):
        assert math.isnan(processbench_f1_score([1, 2], [1, 2]))


def test_auc_matches_sklearn_roc_curve_doc_example():
    # sklearn.metrics.roc_curve docstring: y=[1,1,2,2], scores=[0.1,0.4,0.35,0.8], pos_label=2 -> AUC 0.75
    assert solution_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]) == 0.75
    with pytest.warns(UndefinedMetricWarning, match="one class"):
        assert math.isnan(solution_auc_score([1, 1], [0.2, 0.3]))


def test_threshold_ties_are_neither_class():
    assert threshold_predictions([0.025, 0.03, 0.01], 0.025) == [None, 1, 0]
    assert solution_score([0.4, 0.1, 0.9]) == 0.1
    assert solution_score([0.4, 0.2], aggregate="mean") == pytest.approx(0.3)
    assert solution_score([0.4, 0.2], aggregate="last") == 0.2


# --- ReasonEval's conversions ------------------------------------------------------------

@pytest.mark.parametrize(("pred", "expected"), [
    pytest.param("Correct", 1, id="Correct"),
    pytest.param("wrong", 0, id="wrong"),
    pytest.param("Wrong.", None, id="trailing-dot-is-a-miss"),
    pytest.param("**Correct**", None, id="markdown-bold-is-a-miss"),
    pytest.param("Incorrect", None, id="synonym-is-a-miss"),
])
def test_verdict_solution_label_is_exact_string_match(pred, expected):
    assert reasoneval.verdict_solution_label(pred) == expected


@pytest.mark.parametrize(("correctness", "step", "n", "expected"), [
    pytest.param("Correct", "Step 2", 5, -1, id="correct-wins-over-step"),
    pytest.param("Wrong", "Step 3", 5, 2, id="step-word"),
    pytest.param("Wrong", "3.", 5, 2, id="trailing-dot"),
    pytest.param("Wrong", "Step 3, Case 2", 5, 2, id="first-number"),
    pytest.param("Wrong", "N/A", 5, -1, id="no-number-means-no-error"),
    pytest.param("Wrong", "13", 5, -1, id="beyond-last-step-means-no-error"),
    pytest.param("**Correct**", "N/A", 5, -1, id="unread-verdict-without-step"),
])
def test_verdict_first_error(correctness, step, n, expected):
    assert reasoneval.verdict_first_error(correctness, step, n) == expected


def test_gold_first_error_is_converted_to_zero_based():
    assert reasoneval.gold_first_error("N/A") == -1
    assert reasoneval.gold_first_error(3) == 2
    with pytest.raises(ValueError):
        reasoneval.gold_first_error(0)


def test_reader_names_file_line_and_field(tmp_path):
    p = tmp_path / "gold.jsonl"
    good = {"id": 0, "model_output_solution_correctness": "correct", "model_output_step_format": [["a"]],
            "model_output_solution_first_error_step": "N/A"}
    bad = dict(good, id=1, model_output_solution_correctness="wrong", model_output_solution_first_error_step="x")
    p.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    with pytest.raises(InputError, match=r"gold\.jsonl:2: field 'model_output_solution_first_error_step'"):
        reasoneval.read_mrmath_gold(p)


def test_verdict_ids_must_match_gold(tmp_path):
    gold = [reasoneval.MrMathSolution("0", 1, -1, (1,)), reasoneval.MrMathSolution("1", 1, -1, (1,))]
    p = tmp_path / "v.jsonl"
    p.write_text(json.dumps({"id": 0, "correctness_pred": "Correct", "error_step_pred": "N/A"}) + "\n"
                 + json.dumps({"id": 7, "correctness_pred": "Correct", "error_step_pred": "N/A"}) + "\n")
    with pytest.raises(InputError, match=r"missing \['1'\], unknown \['7'\]"):
        reasoneval.read_mrmath_verdicts(p, gold)


# --- the published MR-MATH figures (ReasonEval, invalid errors), recomputed ------------

@pytest.fixture(scope="module")
def mrmath(shared_data):
    d = shared_data / "judging" / "reasoneval_mrmath"
    gold = reasoneval.read_mrmath_gold(d / "mr-math_invalid_errors.jsonl")
    return d, gold


def test_mrmath_gold_counts(mrmath):
    _, gold = mrmath
    assert len(gold) == 159
    assert sum(g.label for g in gold) == 76
    assert sum(1 for g in gold if g.first_error >= 0) == 83


@pytest.mark.parametrize(("evaluator", "solution_f1", "step_f1"), [
    pytest.param("gpt4", 0.732, 0.610, id="GPT-4"),
    pytest.param("gpt3_5_turbo", 0.597, 0.532, id="GPT-3.5"),
])
def test_mrmath_llm_macro_f1_published(mrmath, evaluator, solution_f1, step_f1):
    d, gold = mrmath
    verdicts = reasoneval.read_mrmath_verdicts(d / f"invalid__{evaluator}_eval_results.jsonl", gold)
    sol = solution_macro_f1_score([g.label for g in gold],
                                  [reasoneval.verdict_solution_label(v.correctness_pred) for v in verdicts])
    step = step_macro_f1_score(
        [g.first_error for g in gold],
        [reasoneval.verdict_first_error(v.correctness_pred, v.error_step_pred, g.n_steps)
         for v, g in zip(verdicts, gold)],
        [g.n_steps for g in gold])
    assert f"{sol:.3f}" == f"{solution_f1:.3f}"
    assert f"{step:.3f}" == f"{step_f1:.3f}"


@pytest.mark.parametrize(("evaluator", "kind", "auc"), [
    pytest.param("roscoe-sa", "roscoe", 0.575, id="ROSCOE-SA"),
    pytest.param("roscoe-ss", "roscoe", 0.496, id="ROSCOE-SS"),
    pytest.param("math-shepherd_mistral-7b", "math-shepherd", 0.773, id="Math-Shepherd"),
    pytest.param("reasoneval_llemma-34b", "reasoneval", 0.908, id="ReasonEval-34B"),
])
def test_mrmath_solution_auc_published(mrmath, evaluator, kind, auc):
    d, gold = mrmath
    scores = reasoneval.read_mrmath_scores(d / f"invalid__{evaluator}_eval_results.jsonl", gold, kind=kind)
    value = solution_auc_score([g.label for g in gold], [solution_score(s) for s in scores])
    assert f"{value:.3f}" == f"{auc:.3f}"


# --- ProcessBench labels -----------------------------------------------------------------

@pytest.mark.parametrize(("split", "n_error", "n_correct"), [("gsm8k", 207, 193), ("math", 594, 406)])
def test_processbench_counts_and_reference_predictors(shared_data, split, n_error, n_correct):
    rows = json.loads((shared_data / "judging" / "processbench" / f"{split}.json").read_text())
    labels = [int(r["label"]) for r in rows]
    assert (sum(x != -1 for x in labels), sum(x == -1 for x in labels)) == (n_error, n_correct)
    assert processbench_f1_score(labels, labels) == 1.0
    # "never an error" is right on every correct solution and wrong on every erroneous one
    assert processbench_f1_score(labels, [-1] * len(labels)) == 0.0
    # "the first step is wrong": accuracy on erroneous = share of label 0 among them
    a = processbench_accuracy(labels, [0] * len(labels), subset="erroneous")
    assert a == pytest.approx(sum(x == 0 for x in labels) / n_error)


def test_public_names_of_the_package():
    import calibration

    for name in calibration.__all__:
        assert getattr(calibration, name) is not None
    assert calibration.step_macro_f1_score is step_macro_f1_score
    with pytest.raises(AttributeError):
        calibration.no_such_metric  # noqa: B018
