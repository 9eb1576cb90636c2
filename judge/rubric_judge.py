"""The rubric-based reasoning judge: one row per item, from an LLM or, without one, from
the deterministic reference-coverage scorer.

``judge_items(items, rubric, llm=...)`` segments each response (and reference) into steps,
asks the LLM for ``samples`` verdicts through the structured-output client, validates them
(levels, step range), aggregates them and computes the item score from the parts as the
rubric says. A verdict that cannot be obtained leaves the item unscored with the reason
in ``error``; it is never scored 0 and never crashes the run. With ``llm=None`` the rows
come from ``judge.coverage`` and say so (``judge: "reference-coverage"``).

Every row has: ``id, ability, task, judge, judge_kind, rubric, rubric_version,
prompt_version, sampling, scores, score, expected_scores, expected_score, spread,
first_error_step, rationale, n_steps, samples_ok, tokens, cost_usd, error``.
``score`` is in [0, 1]; summaries report it x 100. ``first_error_step`` is a step number
(1-based), -1 when the judge found no wrong step, null when not assessed.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
from collections.abc import Callable, Sequence
from typing import Any

from judge.errors import located
from judge.items import PredictedItem
from judge.judging_prompt import build_messages, prompt_version
from judge.judging_verdict import Aggregate, aggregate_parts, expected_from_logprobs, spread, verdict_model
from judge.llm.types import CallResult, CallSpec, StructuredLLM
from judge.calls import run_sync
from judge.segment import segment_steps
from rubrics import Rubric

#: Temperature of k > 1 samples unless the caller sets one.
DEFAULT_SAMPLE_TEMPERATURE = 0.7
#: Top alternatives asked per token when logprobs are requested (OpenAI allows up to 20).
DEFAULT_TOP_LOGPROBS = 10

RowCallback = Callable[[dict[str, Any]], None]


def check_items(items: Sequence[PredictedItem], rubric: Rubric) -> None:
    """Fail before any call if the rubric needs a reference an item lacks."""
    if not rubric.uses_reference:
        return
    for pi in items:
        if not (pi.item.reference or "").strip():
            raise located(pi.item.source or f"item {pi.item.id}", "reference",
                          f"required by rubric '{rubric.name}' (item {pi.item.id} has no reference reasoning); "
                          "use --rubric first-error, which needs none")


def judge_setup(rubric: Rubric, *, judge: str, samples: int = 1, temperature: float | None = None,
                aggregate: Aggregate = "mean", logprobs: bool = False) -> dict[str, Any]:
    """Return the setup every LLM-judged row records: judge, rubric, versions, sampling.

    The temperature is ``DEFAULT_SAMPLE_TEMPERATURE`` for k > 1 samples and 0 for one,
    unless given. A results file holds rows of one setup only.
    """
    temp = temperature if temperature is not None else (DEFAULT_SAMPLE_TEMPERATURE if samples > 1 else 0.0)
    return {
        "judge": judge,
        "rubric": rubric.name,
        "rubric_version": rubric.version,
        "prompt_version": prompt_version(rubric, verdict_model(rubric).model_json_schema()),
        "sampling": {"samples": samples, "temperature": temp, "aggregate": aggregate,
                     "top_logprobs": DEFAULT_TOP_LOGPROBS if logprobs else None},
    }


def _base_row(pi: PredictedItem, setup: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": pi.item.id,
        "ability": pi.item.ability,
        "task": pi.item.task,
        "judge": setup["judge"],
        "judge_kind": "llm",
        "rubric": setup["rubric"],
        "rubric_version": setup["rubric_version"],
        "prompt_version": setup["prompt_version"],
        "sampling": setup["sampling"],
        "scores": None,
        "score": None,
        "expected_scores": None,
        "expected_score": None,
        "spread": None,
        "first_error_step": None,
        "rationale": None,
        "n_steps": None,
        "samples_ok": 0,
        "tokens": {"prompt": None, "completion": None},
        "cost_usd": None,
        "error": None,
    }


def _sum_or_none(values: list[int | float | None]) -> int | float | None:
    known = [v for v in values if v is not None]
    return sum(known) if known else None


def _fill_from_results(row: dict[str, Any], results: list[CallResult[Any]], rubric: Rubric, *,
                       n_steps: int, how: Aggregate) -> None:
    row["tokens"] = {
        "prompt": _sum_or_none([r.usage.prompt_tokens for r in results]),
        "completion": _sum_or_none([r.usage.completion_tokens for r in results]),
    }
    costs = [r.usage.cost_usd for r in results]
    # Unknown is never 0: one call of unknown price makes the total unknown.
    row["cost_usd"] = None if any(c is None for c in costs) else sum(costs)  # type: ignore[arg-type]
    ok = [r for r in results if r.error is None and r.value is not None]
    row["samples_ok"] = len(ok)
    failed = [r.error or "no verdict" for r in results if r not in ok]
    if not ok:
        row["error"] = "no valid verdict: " + "; ".join(dict.fromkeys(failed))
        return
    parts = [r.value.parts() for r in ok]
    agg = aggregate_parts(parts, rubric, how=how)
    row["scores"] = agg
    row["score"] = rubric.item_score(agg, n_steps=n_steps)
    row["rationale"] = ok[0].value.rationales()
    fe = rubric.first_error_criterion
    if fe is not None:
        row["first_error_step"] = int(agg[fe.id])
    per_sample_scores = [rubric.item_score(p, n_steps=n_steps) for p in parts]
    if len(results) > 1:
        sp = {c.id: spread([float(p[c.id]) for p in parts]) for c in rubric.criteria if c.kind == "scale"}
        sp["score"] = spread(per_sample_scores)
        if fe is not None:
            sp[fe.id] = {"agreement": sum(p[fe.id] == agg[fe.id] for p in parts) / len(parts)}
        row["spread"] = sp
        if failed:
            row["sample_errors"] = failed
    expected = [expected_from_logprobs(r.logprobs, rubric, r.text) for r in ok]
    if any(expected):
        exp: dict[str, float] = {}
        for c in rubric.criteria:
            vals = [e[c.id] for e in expected if c.id in e]
            if vals:
                exp[c.id] = statistics.fmean(vals)
        row["expected_scores"] = exp
        if all(c.id in exp or c.kind == "first_error" for c in rubric.criteria):
            row["expected_score"] = rubric.item_score({**agg, **exp}, n_steps=n_steps)


async def ajudge_items(
    items: Sequence[PredictedItem],
    rubric: Rubric,
    *,
    llm: StructuredLLM | None = None,
    judge_name: str | None = None,
    samples: int = 1,
    temperature: float | None = None,
    aggregate: Aggregate = "mean",
    logprobs: bool = False,
    max_tokens: int | None = None,
    concurrency: int = 16,
    on_row: RowCallback | None = None,
    progress: bool = False,
) -> list[dict[str, Any]]:
    """Judge the reasoning of every item against ``rubric``; return the rows in input order.

    ``llm=None`` uses the deterministic reference-coverage scorer (labelled as such).
    ``samples=k`` asks k verdicts (temperature ``DEFAULT_SAMPLE_TEMPERATURE`` unless
    given; 0 for one sample), aggregated by ``aggregate`` with their spread reported.
    ``logprobs=True`` asks the top alternatives of every token and adds logprob-weighted
    expected scores when the provider returns them. Items whose call was stopped by a
    budget or a dry run get no row (a rerun continues them). ``on_row`` is called with
    each row as soon as it is final (for an append-only results log).
    """
    if llm is None:
        from judge.coverage import coverage_rows

        rows = coverage_rows(items)
        for r in rows:
            if on_row:
                on_row(r)
        return rows
    if samples < 1:
        raise ValueError("samples must be >= 1")
    check_items(items, rubric)
    model = verdict_model(rubric)
    name = judge_name or getattr(getattr(llm, "settings", None), "model", None) or "unknown-model"
    setup = judge_setup(rubric, judge=name, samples=samples, temperature=temperature, aggregate=aggregate,
                        logprobs=logprobs)
    version, temp = setup["prompt_version"], setup["sampling"]["temperature"]
    top = setup["sampling"]["top_logprobs"]
    sem = asyncio.Semaphore(concurrency)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(items), desc="judge", unit="item", file=sys.stderr)

    async def one(pi: PredictedItem) -> dict[str, Any] | None:
        row = _base_row(pi, setup)
        response = segment_steps(pi.response)
        row["n_steps"] = len(response)
        if not response.steps:
            row["error"] = "no response to judge"
            return row
        reference = segment_steps(pi.item.reference) if rubric.uses_reference else None
        messages = build_messages(rubric, question=pi.item.question, response_steps=response.steps,
                                  reference_steps=reference.steps if reference else None)
        ctx = {"n_steps": len(response)}

        async def call(i: int) -> CallResult[Any]:
            spec = CallSpec(messages=messages, prompt_version=version, temperature=temp, max_tokens=max_tokens,
                            top_logprobs=top, sample_index=i, tag="judge")
            async with sem:
                return await llm.acomplete(spec, model, validation_context=ctx)

        results = list(await asyncio.gather(*(call(i) for i in range(samples))))
        if any(r.not_run for r in results):
            return None  # stopped by a budget or a dry run: no row, so a rerun judges the item
        _fill_from_results(row, results, rubric, n_steps=len(response), how=aggregate)
        return row

    async def tracked(pi: PredictedItem) -> dict[str, Any] | None:
        try:
            row = await one(pi)
        except Exception as e:  # a bug or an unexpected client failure: record it, go on
            row = _base_row(pi, setup)
            row["error"] = f"judge failed: {type(e).__name__}: {e}"
        if row is not None and on_row:
            on_row(row)
        if bar is not None:
            bar.update(1)
        return row

    try:
        rows = await asyncio.gather(*(tracked(pi) for pi in items))
    finally:
        if bar is not None:
            bar.close()
    return [r for r in rows if r is not None]


def judge_items(items: Sequence[PredictedItem], rubric: Rubric, **options: Any) -> list[dict[str, Any]]:
    """Run ``ajudge_items`` (same options) to completion; return one row per item.

    The client's HTTP session belongs to this call's event loop and is released at the end.
    """
    return run_sync(options.get("llm"), lambda: ajudge_items(items, rubric, **options))
