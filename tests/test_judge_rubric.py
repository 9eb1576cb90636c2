"""The rubric judge with a scripted fake LLM: verdicts, validation, unscored rows, k samples, logprobs."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from pydantic import ValidationError

from judge.errors import InputError
from judge.items import BenchmarkItem, PredictedItem
from judge.judging_verdict import expected_from_logprobs, verdict_model
from judge.llm.types import CallResult, CallSpec, Usage
from judge.rubric_judge import judge_items
from rubrics import load_rubric

REFERENCE = ("step1: The prices are: Large Soft Drink $6.25, Large Popcorn $6.99, Medium Candy $4.75.\n"
             "step2: Separately: 6.25+6.99+4.75=17.99. Package One costs $14.75.\n"
             "step3: Savings: 17.99 - 14.75 = 3.24.\nThe final answer is: 3.24")
RESPONSE = ("Step 1: Read the prices: 6.25, 6.99 and 4.75.\nStep 2: Add them: 17.99.\n"
            "Step 3: Package One is 14.75, so it saves 17.99 - 14.75 = 3.24.\nAnswer: 3.24")


def item(i: str = "q1", *, response: str | None = RESPONSE, reference: str | None = REFERENCE,
         ability: str = "Numerical Analysis Reasoning", task: str = "Financial Analysis") -> PredictedItem:
    return PredictedItem(item=BenchmarkItem(id=i, question="How much cheaper is Package One?", gold="3.24",
                                            reference=reference, ability=ability, task=task, source=f"preds.jsonl:{i[-1]}"),
                         response=response)


class ScriptedLLM:
    """Implements ``acomplete``: validates scripted verdicts like the client would, records specs.

    ``script(spec) -> dict | str``: a dict is validated into the response model (with the
    validation context); a validation failure becomes ``CallResult(error=...)``, as the
    real client returns after its re-asks. A str is a transport-style error.
    """

    def __init__(self, script, *, logprobs=None, cost=0.001):
        self.script = script
        self.specs: list[CallSpec] = []
        self.contexts: list[dict[str, Any] | None] = []
        self.logprobs = logprobs
        self.cost = cost

    async def acomplete(self, spec, response_model=None, *, validation_context=None):
        self.specs.append(spec)
        self.contexts.append(validation_context)
        out = self.script(spec)
        usage = Usage(prompt_tokens=100, completion_tokens=20, cost_usd=self.cost)
        if isinstance(out, str):
            return CallResult(error=out, usage=usage)
        try:
            value = response_model.model_validate(out, context=validation_context)
        except ValidationError as e:
            return CallResult(error=f"invalid output after re-asks: {e.errors()[0]['msg']}", usage=usage)
        lp = self.logprobs(spec) if self.logprobs else None
        return CallResult(value=value, text=json.dumps(out), usage=usage, logprobs=lp)


def trajectory(sv=5, rc=5, fe=-1, ac=3) -> dict[str, Any]:
    return {"step_validity_rationale": "all steps check out", "step_validity": sv,
            "reference_coverage_rationale": "17.99, 14.75 and 3.24 all established", "reference_coverage": rc,
            "first_error_rationale": "none", "first_error": fe,
            "answer_consistency_rationale": "3.24 follows", "answer_consistency": ac}


def test_verdict_model_orders_rationale_before_score_and_limits_levels():
    model = verdict_model(load_rubric("reasoning-trajectory"))
    names = list(model.model_fields)
    assert names.index("step_validity_rationale") < names.index("step_validity")
    schema = model.model_json_schema()
    assert schema["properties"]["step_validity"]["enum"] == [1, 2, 3, 4, 5]
    with pytest.raises(ValidationError, match="step_validity"):
        model.model_validate(trajectory(sv=6), context={"n_steps": 3})
    with pytest.raises(ValidationError, match="step number from 1 to 3"):
        model.model_validate(trajectory(fe=4), context={"n_steps": 3})
    with pytest.raises(ValidationError):
        model.model_validate(trajectory(fe=0), context={"n_steps": 3})
    assert model.model_validate(trajectory(fe=3), context={"n_steps": 3}).first_error == 3


def test_one_verdict_gives_a_full_row():
    llm = ScriptedLLM(lambda spec: trajectory(sv=4, rc=5, fe=-1, ac=3))
    [row] = judge_items([item()], load_rubric("reasoning-trajectory"), llm=llm, judge_name="openai/fake")
    assert row["error"] is None
    assert row["scores"] == {"step_validity": 4, "reference_coverage": 5, "first_error": -1, "answer_consistency": 3}
    assert row["score"] == pytest.approx(0.3 * 0.75 + 0.3 + 0.2 + 0.2)
    assert row["first_error_step"] == -1
    assert row["rationale"]["reference_coverage"].startswith("17.99")
    assert (row["judge"], row["judge_kind"], row["rubric"], row["rubric_version"]) == (
        "openai/fake", "llm", "reasoning-trajectory", 1)
    assert row["prompt_version"].startswith("reasoning-trajectory-v1/")
    assert row["sampling"] == {"samples": 1, "temperature": 0.0, "aggregate": "mean", "top_logprobs": None}
    assert row["tokens"] == {"prompt": 100, "completion": 20} and row["cost_usd"] == pytest.approx(0.001)
    assert row["n_steps"] == 3 and row["ability"] == "Numerical Analysis Reasoning"
    assert llm.contexts == [{"n_steps": 3}]
    assert llm.specs[0].temperature == 0.0 and llm.specs[0].sample_index == 0


def test_invalid_verdict_leaves_the_item_unscored_never_zero():
    llm = ScriptedLLM(lambda spec: trajectory(fe=9))  # step 9 of a 3-step response
    [row] = judge_items([item()], load_rubric("reasoning-trajectory"), llm=llm, judge_name="m")
    assert row["score"] is None and row["scores"] is None
    assert "no valid verdict" in row["error"] and "step number from 1 to 3" in row["error"]
    assert row["tokens"]["prompt"] == 100  # spent tokens are still reported


def test_transport_failure_and_missing_response_are_rows_with_error():
    llm = ScriptedLLM(lambda spec: "transport: 500 after 5 retries")
    rows = judge_items([item("q1"), item("q2", response="   ")], load_rubric("ocr-reasoning"), llm=llm, judge_name="m")
    assert [r["error"] for r in rows] == ["no valid verdict: transport: 500 after 5 retries", "no response to judge"]
    assert all(r["score"] is None for r in rows)
    assert len(llm.specs) == 1  # no call for an empty response


def test_unknown_cost_stays_unknown():
    llm = ScriptedLLM(lambda spec: {"rating_rationale": "ok", "rating": 7}, cost=None)
    [row] = judge_items([item()], load_rubric("ocr-reasoning"), llm=llm, judge_name="m")
    assert row["score"] == pytest.approx(0.7) and row["cost_usd"] is None


def test_k_samples_are_told_apart_aggregated_and_spread_reported():
    ratings = {0: 6, 1: 8, 2: 9}
    llm = ScriptedLLM(lambda spec: {"rating_rationale": f"sample {spec.sample_index}", "rating": ratings[spec.sample_index]})
    [row] = judge_items([item()], load_rubric("ocr-reasoning"), llm=llm, judge_name="m", samples=3)
    assert sorted(s.sample_index for s in llm.specs) == [0, 1, 2]
    assert all(s.temperature > 0 for s in llm.specs)
    assert len({json.dumps(s.messages) for s in llm.specs}) == 1  # same prompt, different samples
    assert row["scores"]["rating"] == pytest.approx(23 / 3)
    assert row["score"] == pytest.approx(23 / 30)
    sp = row["spread"]["rating"]
    assert (sp["min"], sp["max"]) == (6, 9) and sp["std"] == pytest.approx(math.sqrt(((6 - 23/3)**2 + (8 - 23/3)**2 + (9 - 23/3)**2) / 3))
    assert row["spread"]["score"]["max"] == pytest.approx(0.9)
    assert row["samples_ok"] == 3 and row["sampling"]["samples"] == 3
    assert row["tokens"] == {"prompt": 300, "completion": 60}


def test_median_aggregation_and_majority_first_error():
    fes = {0: 2, 1: 2, 2: -1}
    svs = {0: 1, 1: 4, 2: 5}
    llm = ScriptedLLM(lambda spec: trajectory(sv=svs[spec.sample_index], fe=fes[spec.sample_index]))
    [row] = judge_items([item()], load_rubric("reasoning-trajectory"), llm=llm, judge_name="m",
                        samples=3, aggregate="median", temperature=1.0)
    assert row["scores"]["step_validity"] == 4.0
    assert row["first_error_step"] == 2
    assert row["spread"]["first_error"]["agreement"] == pytest.approx(2 / 3)
    assert all(s.temperature == 1.0 for s in llm.specs)


def test_partial_sample_failure_aggregates_the_valid_ones():
    llm = ScriptedLLM(lambda spec: {"rating_rationale": "x", "rating": 11 if spec.sample_index == 1 else 8})
    [row] = judge_items([item()], load_rubric("ocr-reasoning"), llm=llm, judge_name="m", samples=3)
    assert row["samples_ok"] == 2 and row["scores"]["rating"] == 8.0 and row["error"] is None
    assert len(row["sample_errors"]) == 1


def _json_tokens(verdict: dict[str, Any], key: str, alts: list[tuple[str, float]]) -> list[dict[str, Any]]:
    """Tokenise a JSON verdict crudely, giving the value token of ``key`` the alternatives ``alts``."""
    text = json.dumps(verdict)
    marker = f'"{key}": '
    at = text.index(marker) + len(marker)
    value = str(verdict[key])
    toks = [text[:at], value, text[at + len(value):]]
    out = [{"token": t, "logprob": 0.0, "top": []} for t in toks]
    out[1]["top"] = [{"token": t, "logprob": lp} for t, lp in alts]
    return out


def test_logprob_weighted_expected_score():
    verdict = {"rating_rationale": "mostly right", "rating": 8}
    alts = [("8", math.log(0.6)), ("7", math.log(0.3)), ("9", math.log(0.05)), ("x", math.log(0.05))]
    llm = ScriptedLLM(lambda spec: verdict, logprobs=lambda spec: _json_tokens(verdict, "rating", alts))
    [row] = judge_items([item()], load_rubric("ocr-reasoning"), llm=llm, judge_name="m", logprobs=True)
    expected = (0.6 * 8 + 0.3 * 7 + 0.05 * 9) / 0.95  # "x" is not a level: dropped, rest renormalised
    assert row["expected_scores"]["rating"] == pytest.approx(expected)
    assert row["expected_score"] == pytest.approx(expected / 10)
    assert row["scores"]["rating"] == 8 and llm.specs[0].top_logprobs == 10


def test_expected_scores_skip_multi_token_numbers():
    r = load_rubric("ocr-reasoning")
    toks = [{"token": '{"rating_rationale": "x", "rating": ', "logprob": 0.0},
            {"token": "1", "logprob": -0.1, "top": [{"token": "1", "logprob": -0.1}, {"token": "9", "logprob": -2}]},
            {"token": "0}", "logprob": -0.01}]
    assert expected_from_logprobs(toks, r) == {}
    assert expected_from_logprobs(None, r) == {}


def test_budget_and_dry_run_write_no_row():
    class Stopped(ScriptedLLM):
        async def acomplete(self, spec, response_model=None, *, validation_context=None):
            self.specs.append(spec)
            return CallResult(error="budget reached", error_kind="budget")

    rows_seen = []
    rows = judge_items([item("q1"), item("q2")], load_rubric("ocr-reasoning"), llm=Stopped(None),
                       judge_name="m", on_row=rows_seen.append)
    assert rows == [] and rows_seen == []


def test_missing_reference_fails_before_any_call():
    llm = ScriptedLLM(lambda spec: trajectory())
    with pytest.raises(InputError, match=r"preds.jsonl:2: field 'reference': required by rubric 'reasoning-trajectory'"):
        judge_items([item("q1"), item("q2", reference=None)], load_rubric("reasoning-trajectory"), llm=llm, judge_name="m")
    assert llm.specs == []
    # first-error needs no reference
    llm2 = ScriptedLLM(lambda spec: {"first_error_rationale": "step 2 adds wrong", "first_error": 2})
    [row] = judge_items([item("q2", reference=None)], load_rubric("first-error"), llm=llm2, judge_name="m")
    assert row["score"] == 0.0 and row["first_error_step"] == 2
    assert "<reference-" not in llm2.specs[0].messages[1]["content"]


def test_without_llm_rows_are_reference_coverage_and_say_so():
    rows = judge_items([item("q1"), item("q2", response="I do not know.")], load_rubric("reasoning-trajectory"))
    assert all(r["judge"] == "reference-coverage" and r["judge_kind"] == "reference-coverage" for r in rows)
    assert all("not an LLM judge" in r["note"] for r in rows)
    # Reference step 1 names the items (Large Soft Drink, Popcorn, ...), the response only
    # their prices: 3 of 9 facts, under half, so step 1 is not covered; steps 2 and 3 are.
    assert rows[0]["score"] == pytest.approx(2 / 3) and rows[1]["score"] == 0.0
    assert rows[0]["rationale"]["reference_coverage"].startswith("reference step 1 not covered in order")
    assert rows[0]["first_uncovered_reference_step"] == 1
    assert rows[0]["rubric"] == "reference-coverage" and rows[0]["prompt_version"] is None
