"""MR-MATH: recompute ReasonEval's published GPT-4 / GPT-3.5 figures from the RAW judge texts.

The ``response`` field of ``invalid__{gpt4,gpt3_5_turbo}_eval_results.jsonl`` is parsed
here with ``judge.verdict_parse``; the pre-parsed ``correctness_pred`` / ``error_step_pred``
fields are used only to check the parser, never to compute a figure. The metrics and
ReasonEval's protocol mapping come from ``calibration`` (one copy of each).

Two readings of the same parsed verdicts:

- ``official``: ReasonEval's ``mr-math_eval.py`` -- only the exact labels ``Correct`` /
  ``correct`` / ``Wrong`` / ``wrong`` count (``Wrong.``, ``**Correct**``, ``Incorrect``
  are misses). This reproduces the published numbers exactly.
- ``strict``: our normalised label (markdown and punctuation removed, ``Incorrect`` read
  as wrong; a "wrong" verdict without a step number is no step prediction). Its
  solution-level figures are slightly higher than the published ones (0.738 / 0.603).
"""

from __future__ import annotations

import json

import pytest

from calibration.reasoneval import read_mrmath_gold, verdict_first_error, verdict_solution_label
from calibration.steps import solution_macro_f1_score, step_macro_f1_score
from judge.verdict_parse import parse_judgement

PUBLISHED = {  # ReasonEval paper / README, MR-MATH invalid errors
    "gpt4": {"solution": 0.732, "step": 0.610},
    "gpt3_5_turbo": {"solution": 0.597, "step": 0.532},
}


def _load(shared_data, judge):
    folder = shared_data / "judging" / "reasoneval_mrmath"
    gold = read_mrmath_gold(folder / "mr-math_invalid_errors.jsonl")
    rows = [json.loads(x) for x in (folder / f"invalid__{judge}_eval_results.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [str(r["id"]) for r in rows] == [g.id for g in gold]
    return gold, rows


def _figures(gold, verdicts, mode):
    y_true = [g.label for g in gold]
    e_true = [g.first_error for g in gold]
    n = [g.n_steps for g in gold]
    if mode == "official":
        y_pred = [verdict_solution_label(v.raw_label or "") for v in verdicts]
        e_pred = [verdict_first_error(v.raw_label or "", v.raw_steps or "N/A", k) for v, k in zip(verdicts, n)]
    else:
        y_pred = [{"correct": 1, "wrong": 0}.get(v.label) for v in verdicts]
        e_pred = []
        for v, k in zip(verdicts, n):
            if v.label == "correct":
                e_pred.append(-1)
            elif v.label == "wrong" and v.first_error_step is not None and v.first_error_step <= k:
                e_pred.append(v.first_error_step - 1)
            else:
                e_pred.append(None)  # no usable step prediction: a miss on every scored step
    return solution_macro_f1_score(y_true, y_pred), step_macro_f1_score(e_true, e_pred, n)


@pytest.mark.parametrize("judge", ["gpt4", "gpt3_5_turbo"])
def test_parser_reads_what_reasoneval_stored(shared_data, judge):
    _, rows = _load(shared_data, judge)
    for r in rows:
        v = parse_judgement(r["response"])
        assert v.raw_label == r["correctness_pred"], r["id"]
        assert (v.raw_steps or "N/A") == r["error_step_pred"], r["id"]


@pytest.mark.parametrize("judge", ["gpt4", "gpt3_5_turbo"])
def test_published_macro_f1_recomputed_from_raw_texts(shared_data, judge):
    gold, rows = _load(shared_data, judge)
    verdicts = [parse_judgement(r["response"]) for r in rows]
    solution, step = _figures(gold, verdicts, "official")
    assert round(solution, 3) == PUBLISHED[judge]["solution"]
    assert round(step, 3) == PUBLISHED[judge]["step"]


def test_strict_reading_counts_the_punctuated_verdicts(shared_data):
    out = {}
    for judge in ("gpt4", "gpt3_5_turbo"):
        gold, rows = _load(shared_data, judge)
        verdicts = [parse_judgement(r["response"]) for r in rows]
        assert all(v.label in ("correct", "wrong") for v in verdicts)  # every text has a readable verdict
        out[judge] = _figures(gold, verdicts, "strict")
    # Solution level: "Wrong." (GPT-4) and "Incorrect"/"**Wrong**" (GPT-3.5) on erroneous
    # solutions become hits; "**Correct**" on correct solutions too.
    assert round(out["gpt4"][0], 4) == 0.7381
    assert round(out["gpt3_5_turbo"][0], 4) == 0.6032
    # Step level: official reading turns a "wrong" verdict without a step into "no error";
    # strict counts it as no prediction. GPT-4 item 131 says "wrong" with "N/A": its
    # gold steps before the error were hits under the official reading, misses here.
    assert round(out["gpt4"][1], 4) == 0.6078
    assert round(out["gpt3_5_turbo"][1], 3) == PUBLISHED["gpt3_5_turbo"]["step"]
