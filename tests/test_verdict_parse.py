"""Legacy verdict parsing: a table of real judge phrasings; the last verdict wins."""

from __future__ import annotations

import pytest

from judge.verdict_parse import parse_judgement, parse_rating


@pytest.mark.parametrize(
    ("text", "value", "reason"),
    [
        pytest.param("The response is mostly right.\n\nRating: [[7]]", 7.0, None, id="mt-bench-brackets"),
        pytest.param("Rating: 7/10", 7.0, None, id="rating-slash-ten"),
        pytest.param("**Rating:** 8", 8.0, None, id="markdown-rating"),
        pytest.param("I would give it a score of 6 out of 10.", 6.0, None, id="score-of-out-of"),
        pytest.param("评分：9", 9.0, None, id="chinese-rating"),
        pytest.param("Rating: [[7.5]]", 7.5, None, id="decimal-rating"),
        pytest.param(
            'Please rate strictly in the format "[[rating]]", for example: "Rating: [[5]]".\n'
            "The assistant's steps are right but the conclusion is wrong.\nRating: [[3]]",
            3.0, None, id="quoted-example-before-real-rating"),
        pytest.param("Rating: [[4]]\nOn reflection the final step is fine after all. Revised rating: [[6]]",
                     6.0, None, id="self-revision-last-wins"),
        pytest.param("Example: [[5]]. Final: [[11]]", None, "out_of_range", id="eleven-rejected-not-earlier"),
        pytest.param("Rating: [[0]]", None, "out_of_range", id="zero-rejected"),
        pytest.param("Rating: 4/5", None, "other_scale", id="five-point-scale"),
        pytest.param("The answer seems reasonable but I cannot decide.", None, "no_verdict", id="no-rating"),
        pytest.param("", None, "no_verdict", id="empty"),
        pytest.param("Step 3 computes 3/10 of 40 = 12, correct.\nRating: [[9]]", 9.0, None,
                     id="fraction-in-text-is-not-a-rating"),
    ],
)
def test_parse_rating(text, value, reason):
    v = parse_rating(text)
    assert v.value == value
    assert v.reason == reason


def test_rating_evidence_is_the_span():
    v = parse_rating("blah\nRating: [[7]]\n")
    assert v.evidence == "[[7]]" or v.evidence == "Rating: [[7]]"
    assert v.evidence in "blah\nRating: [[7]]\n"


def test_rating_scale_is_a_parameter():
    assert parse_rating("Score: 5", lo=1, hi=5).value == 5.0
    assert parse_rating("Score: 6", lo=1, hi=5).reason == "out_of_range"


@pytest.mark.parametrize(
    ("text", "label", "raw_label", "steps"),
    [
        # Real GPT-4 / GPT-3.5 texts from ReasonEval's MR-MATH eval_results (tails quoted).
        pytest.param("...They then concluded with the correct answer.\nFinal Judgement: correct\nFirst Error Step: N/A",
                     "correct", "correct", [], id="gpt4-correct-na"),
        pytest.param("...instead of adding as indicated in the original problem.\nFinal Judgement: Wrong\n"
                     "First Error Step: Step 4", "wrong", "Wrong", [4], id="gpt4-wrong-step-word"),
        pytest.param("...The correct substitution would be g(7 - 1) = 6 + 1 = 7.\nFinal Judgement: Wrong.\n"
                     "First Error Step: 3.", "wrong", "Wrong.", [3], id="gpt4-trailing-periods"),
        pytest.param("9. The student correctly provides the final solution.\n\nFinal Judgement: **Correct**\n\n"
                     "First Error Step: N/A", "correct", "**Correct**", [], id="gpt35-bold"),
        pytest.param("4. The student concludes that the remainder of 54 (mod 6) is 0.\n\nFinal Judgement: Incorrect\n"
                     "First Error Step: Step 3", "wrong", "Incorrect", [3], id="gpt35-incorrect"),
        pytest.param("Step 5: The student correctly states the final answer as k = 1.\n\nFinal Judgement: Correct",
                     "correct", "Correct", [], id="gpt35-no-step-line"),
        pytest.param("Final Judgement: Wrong\nFirst Error Step: Step 3, Case 2", "wrong", "Wrong", [3, 2],
                     id="gpt35-step-with-case"),
        pytest.param("...wraps the solution effectively.\nFinal Judgment: Absent\nNeutral Steps Identified: N/A",
                     "absent", "Absent", [], id="redundant-absent"),
        pytest.param("\n\nFinal Judgment: Present\n\nNeutral Steps Identified: 1, 2, 3, 4, 9, 10",
                     "present", "Present", [1, 2, 3, 4, 9, 10], id="redundant-list"),
        pytest.param("Format:\nFinal Judgement: correct/wrong\nFirst Error Step: the step\n\nEvaluation...\n"
                     "Final Judgement: wrong\nFirst Error Step: 2", "wrong", "wrong", [2], id="format-echo-last-wins"),
        pytest.param("The solution looks fine to me.", None, None, [], id="no-verdict"),
    ],
)
def test_parse_judgement(text, label, raw_label, steps):
    v = parse_judgement(text)
    assert (v.label, v.raw_label, v.steps) == (label, raw_label, steps)
    assert v.first_error_step == (steps[0] if steps else None)


def test_judgement_step_out_of_range_is_rejected():
    v = parse_judgement("Final Judgement: Wrong\nFirst Error Step: 11", n_steps=10)
    assert v.label == "wrong" and v.steps == [] and v.reason == "step_out_of_range"
    v0 = parse_judgement("Final Judgement: Wrong\nFirst Error Step: 0")
    assert v0.steps == [] and v0.reason == "step_out_of_range"


def test_unknown_label_keeps_raw_text():
    v = parse_judgement("Final Judgement: Partially correct")
    assert v.label is None and v.raw_label == "Partially correct" and v.reason == "unknown_label"
