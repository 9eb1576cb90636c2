"""The standard map run: image + question + options + chain of thought, then exact match.

``reasonjudge map run BENCH --model M`` sends each item's map (a base64 data URL under
the chosen resolution policy) with the question block of ``prompts/full.txt``, extracts
the final answer from the response with the rule extractor and scores it by strict
exact match (sets for multiple choice, sequences for ordering). Rows are appended to an
append-only results file as calls finish, so an interrupted run resumes where it stopped
and a finished one makes no calls.

The result row (``full``, ``text`` and ``blind`` rows share it; ``reasonjudge map
vdi-compute`` reads it)::

    id, mode (full | text | blind), budget (text rows: k), level, category,
    question_type (single_choice | multiple_choice | ordering), answer_type, language,
    gold, answer, reason, method, evidence, correct (true | false | null: unparseable),
    scoring, response, model, prompt_version, image_policy, image_sha256, image_size,
    sent_size, max_tokens, temperature, usage {prompt_tokens, completion_tokens,
    cost_usd}, cached, finish_reason, transport_retries, error, error_kind
    (+ text rows: k_actual, k_actual_source, describer_prompt_version,
    description_cached)
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from judge.errors import InputError, located
from judge.grading import Mode, extraction_fields, score_fields
from judge.io import ResultsLog, write_json_atomic
from judge.items import BenchmarkItem, PredictedItem
from judge.llm.types import CallResult, CallSpec, StructuredLLM
from judge.maps import prompts
from judge.maps.breakdown import QUESTION_TYPE_NAMES, breakdown, breakdown_json
from judge.calls import CallStats, Job, run_jobs, run_sync
from judge.maps.images import EncodedImage, encode_image, image_message, policy_label

PathMode = Literal["full", "text", "blind"]


class MapRunConfig(BaseModel):
    """How the map runs call the model. Frozen: one per run."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str
    #: None sends images at native resolution; N downscales the longer side to N pixels.
    max_side: int | None = Field(default=None, ge=1)
    #: Output limit of the answering calls (None: the provider's default).
    max_tokens: int | None = Field(default=None, ge=1)
    temperature: float = 0.0
    scoring: Mode = "strict"
    concurrency: int = Field(default=16, ge=1)
    progress: bool = True

    @property
    def image_policy(self) -> str:
        return policy_label(self.max_side)


def check_items(items: Sequence[BenchmarkItem], *, max_side: int | None = None) -> dict[str, EncodedImage]:
    """Validate items before any call: map answer types, a gold, a readable image.

    Returns each item's image encoded under the run's policy (``max_side``), by id, so
    an image is read once for both purposes. Raises ``InputError`` naming the item's
    source line.
    """
    images: dict[str, EncodedImage] = {}
    for it in items:
        if it.answer_type not in ("choice", "multi_choice", "ordering"):
            raise located(it.source, "question_type",
                          f"a map question is single_choice, multiple_choice or ordering, not {it.answer_type}")
        if it.gold is None:
            raise located(it.source, "answer", "required")
        if not it.image:
            raise located(it.source, "image", "required: the map runs send the image")
        try:
            images[it.id] = encode_image(it.image, max_side=max_side)
        except InputError as e:
            raise located(it.source, "image", e.problem) from e
    return images


def grade_response(item: BenchmarkItem, text: str | None, *, scoring: Mode) -> dict[str, Any]:
    """Extract the final answer from ``text`` and score it: answer, reason, method, evidence, correct."""
    pi = PredictedItem(item=item, response=text)
    fields = extraction_fields(pi)
    fields["correct"] = score_fields(pi, fields, mode=scoring, benchmark="map")["correct"]
    return fields


def base_row(item: BenchmarkItem, *, mode: PathMode, config: MapRunConfig, budget: int | None = None) -> dict[str, Any]:
    """The identity part of a result row: the item's labels and the run's settings."""
    return {
        "id": item.id, "mode": mode, "budget": budget, "level": item.level, "category": item.category,
        "question_type": QUESTION_TYPE_NAMES.get(item.answer_type), "answer_type": item.answer_type,
        "language": item.language, "gold": item.gold, "model": config.model,
        "image_policy": config.image_policy if mode != "blind" else None,
    }


def call_fields(result: CallResult[Any], spec: CallSpec) -> dict[str, Any]:
    """How a call went: prompt version, limits, usage and cost, cache, retries, error."""
    return {
        "prompt_version": spec.prompt_version, "max_tokens": spec.max_tokens, "temperature": spec.temperature,
        "usage": result.usage.model_dump(), "cached": result.cached, "finish_reason": result.finish_reason,
        "transport_retries": result.transport_retries, "error": result.error, "error_kind": result.error_kind,
    }


def answered_row(item: BenchmarkItem, result: CallResult[Any], spec: CallSpec, *, mode: PathMode,
                 config: MapRunConfig, budget: int | None = None, image: EncodedImage | None = None,
                 extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """Build the result row of one answering call (graded when the call succeeded)."""
    row = base_row(item, mode=mode, config=config, budget=budget)
    if image is not None:
        row.update(image_sha256=image.sha256, image_size=list(image.size), sent_size=list(image.sent_size))
    row["response"] = result.text
    if result.error is None:
        row.update(grade_response(item, result.text, scoring=config.scoring))
    else:
        row.update(answer=None, reason="call_failed", method=None, evidence=None, correct=None)
    row["scoring"] = config.scoring
    row.update(call_fields(result, spec))
    row.update(extra or {})
    return row


def full_spec(item: BenchmarkItem, image: EncodedImage, config: MapRunConfig) -> CallSpec:
    """The standard run's call for one item: the image and the question block."""
    return CallSpec(messages=image_message(prompts.full_prompt(item), image),
                    prompt_version=prompts.prompt_version("full"), max_tokens=config.max_tokens,
                    temperature=config.temperature, tag="full")


def full_jobs(items: Sequence[BenchmarkItem], images: dict[str, EncodedImage], log: ResultsLog,
              config: MapRunConfig) -> list[Job]:
    """Jobs for the items of the standard run that have no row yet."""
    jobs = []
    for it in items:
        if it.id in log.done:
            continue
        spec = full_spec(it, images[it.id], config)

        def done(result: CallResult[Any], it: BenchmarkItem = it, spec: CallSpec = spec) -> None:
            if not result.not_run:
                log.append(answered_row(it, result, spec, mode="full", config=config, image=images[it.id]))

        jobs.append(Job(spec, done))
    return jobs


class RunOutcome(BaseModel):
    """What a run produced: the rows of the benchmark's items and the call accounting."""

    rows: list[dict[str, Any]]
    stats: dict[str, Any]
    missing: int


async def arun_full(items: Sequence[BenchmarkItem], llm: StructuredLLM, *, results_path: str | Path,
                    config: MapRunConfig) -> RunOutcome:
    """Run (or resume) the standard run into ``results_path``; see the module docstring."""
    images = check_items(items, max_side=config.max_side)
    stats = CallStats()
    with ResultsLog(results_path) as log:
        await run_jobs(llm, full_jobs(items, images, log, config), concurrency=config.concurrency,
                       stats=stats, desc="map full", progress=config.progress)
        rows = [log.rows[it.id] for it in items if it.id in log.rows]
    return RunOutcome(rows=rows, stats=stats.as_dict(), missing=len(items) - len(rows))


def run_full(items: Sequence[BenchmarkItem], llm: StructuredLLM, *, results_path: str | Path,
             config: MapRunConfig) -> RunOutcome:
    """Synchronous ``arun_full`` (closes the client's session for this event loop at the end)."""
    return run_sync(llm, lambda: arun_full(items, llm, results_path=results_path, config=config))


def write_summary(path: str | Path, rows: Sequence[dict[str, Any]], *, config: MapRunConfig,
                  stats: dict[str, Any], source: str) -> dict[str, Any]:
    """Write ``summary.json``: exact match by level, category, question type and language."""
    summary = {
        "benchmark": "map", "source": source, "model": config.model, "image_policy": config.image_policy,
        "scoring": config.scoring, "prompt_version": prompts.prompt_version("full"), "n_items": len(rows),
        "calls": stats, **breakdown_json(breakdown(rows)),
    }
    write_json_atomic(path, summary)
    return summary
