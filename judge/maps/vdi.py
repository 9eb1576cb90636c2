"""The Visual Dependency Index protocol (OmniMapBench, section 4 and Algorithm 1).

``run_vdi`` does, for one reference model:

1. ``Acc_full``: the standard run (``full.jsonl``), resumed from its results file and the
   client's cache, or read from a given results file;
2. for each budget k, one description per distinct image (``descriptions_k<k>.jsonl``):
   the image and the describer prompt, which states k and never contains the question
   or the options; the call's output limit is k; ``k_actual`` is the provider-reported
   completion tokens (or a named tokenizer count when it reports none);
3. for each budget k, the text-only answer of each item (``text_k<k>.jsonl``): the
   question block and the description, no image;
4. the blind control (``blind.jsonl``): the question block alone;
5. VDI(k) and DSI(k) overall and per level and category (``vdi.json``, written
   atomically), see ``judge.maps.indices``.

A describer request depends only on the image bytes, the budget and the describer
prompt's version, so the client's cache (keyed on model, messages and parameters) reuses
a description across question sets that share an image, and within a run each image is
described once per budget however many questions it has.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from judge.errors import InputError
from judge.io import ResultsLog, read_jsonl, write_json_atomic
from judge.items import BenchmarkItem
from judge.llm.types import CallResult, CallSpec, StructuredLLM
from judge.maps import prompts
from judge.calls import CallStats, Job, run_jobs, run_sync
from judge.maps.images import EncodedImage, image_message, text_message
from judge.maps.indices import VDIReport, compute_indices
from judge.maps.run import MapRunConfig, answered_row, base_row, call_fields, check_items, full_jobs
from judge.maps.tokens import DEFAULT_ENCODING, k_actual_of

#: The paper's budgets (Table 2, Figure 4).
PAPER_BUDGETS: tuple[int, ...] = (64, 128, 256, 512, 1024)


def describe_spec(image: EncodedImage, budget: int, config: MapRunConfig) -> CallSpec:
    """The describer's call: the image and the budget-stating prompt; output limit k."""
    return CallSpec(messages=image_message(prompts.describe_prompt(budget), image),
                    prompt_version=prompts.prompt_version("describe"), max_tokens=budget,
                    temperature=config.temperature, tag="describe")


def text_spec(item: BenchmarkItem, description: str, config: MapRunConfig) -> CallSpec:
    """The text-only answer: question block plus description, no image part."""
    return CallSpec(messages=text_message(prompts.text_only_prompt(item, description)),
                    prompt_version=prompts.prompt_version("text_only"), max_tokens=config.max_tokens,
                    temperature=config.temperature, tag="text")


def blind_spec(item: BenchmarkItem, config: MapRunConfig) -> CallSpec:
    """The blind control: question block only."""
    return CallSpec(messages=text_message(prompts.blind_prompt(item)),
                    prompt_version=prompts.prompt_version("blind"), max_tokens=config.max_tokens,
                    temperature=config.temperature, tag="blind")


def description_row(image: EncodedImage, budget: int, result: CallResult[Any], spec: CallSpec, *,
                    config: MapRunConfig, encoding: str) -> dict[str, Any]:
    """The record of one description: text, k_actual and where it came from, the call's details."""
    k_actual, source = (None, None) if result.error else k_actual_of(
        result.text, result.usage.completion_tokens, encoding=encoding)
    return {
        "image_sha256": image.sha256, "image": image.path, "budget": budget, "model": config.model,
        "image_policy": image.policy, "image_size": list(image.size), "sent_size": list(image.sent_size),
        "description": result.text, "k_actual": k_actual, "k_actual_source": source, **call_fields(result, spec),
    }


def read_full_results(path: str | Path, items: Sequence[BenchmarkItem]) -> list[dict[str, Any]]:
    """Read a given standard-run results file; labels missing from its rows come from the items.

    Each row needs ``id`` and ``correct`` (true, false or null) unless it carries ``error``.
    Rows of items not in the benchmark are ignored; items without a row are reported by
    ``compute_indices`` as excluded.
    """
    by_id = {it.id: it for it in items}
    rows: dict[str, dict[str, Any]] = {}
    for line, row in _result_rows(path, mode="full"):
        item = by_id.get(str(row["id"]))
        if item is None:
            continue
        row = dict(row)
        for key in ("level", "category"):
            if row.get(key) is None:
                row[key] = getattr(item, key)
        if str(row["id"]) in rows:
            raise InputError(f"duplicate id {row['id']!r}", path=str(path), line=line, field="id")
        rows[str(row["id"])] = row
    return [rows[it.id] for it in items if it.id in rows]


_ROWS_OF = {"full": "standard-run rows (mode 'full')", "text": "text-only rows (mode 'text')",
            "blind": "blind-control rows (mode 'blind')"}


def _result_rows(path: str | Path, *, mode: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line, row)`` of a results file, each row checked: ``id``, ``correct`` (unless ``error``), ``mode``."""
    where = str(path)
    for line, row in read_jsonl(path):
        if "id" not in row or row["id"] in (None, ""):
            raise InputError("required", path=where, line=line, field="id")
        if not row.get("error"):
            if "correct" not in row:
                raise InputError("required (true, false or null)", path=where, line=line, field="correct")
            if row["correct"] not in (True, False, None):
                raise InputError(f"must be true, false or null, got {row['correct']!r}", path=where, line=line,
                                 field="correct")
        if row.get("mode") not in (None, mode):
            raise InputError(f"expected {_ROWS_OF[mode]}, got mode {row['mode']!r}", path=where, line=line,
                             field="mode")
        yield line, row


class VDIOutcome:
    """A protocol run's report (None while rows are missing), its call accounting, the missing rows."""

    def __init__(self, report: VDIReport | None, stats: CallStats, missing: int) -> None:
        self.report, self.stats, self.missing = report, stats, missing


async def arun_vdi(items: Sequence[BenchmarkItem], llm: StructuredLLM, *, out_dir: str | Path,
                   config: MapRunConfig, budgets: Sequence[int] = PAPER_BUDGETS,
                   full_results: str | Path | None = None, blind: bool = True,
                   encoding: str = DEFAULT_ENCODING) -> VDIOutcome:
    """Run (or resume) the protocol into ``out_dir`` and write ``out_dir/vdi.json``.

    With ``full_results`` the standard run is read from that file instead of being run.
    Returns the report (None when some calls were not run: budget reached or dry run, so
    the indices would be computed on a partial set; the report is then not written).
    """
    if not budgets or any(k < 1 for k in budgets):
        raise InputError(f"budgets must be positive token counts, got {list(budgets)}")
    budgets = sorted(set(int(k) for k in budgets))
    images = check_items(items, max_side=config.max_side)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    stats = CallStats()
    run = dict(concurrency=config.concurrency, stats=stats, progress=config.progress)

    logs: list[ResultsLog] = []
    try:
        # Phase 1: everything that needs no description: the full run, the descriptions, the blind control.
        jobs: list[Job] = []
        full_log = None
        if full_results is None:
            full_log = ResultsLog(out / "full.jsonl")
            logs.append(full_log)
            jobs += full_jobs(items, images, full_log, config)
        desc_logs: dict[int, ResultsLog] = {}
        distinct = {img.sha256: img for img in images.values()}  # one description per image, not per question
        for k in budgets:
            dlog = desc_logs[k] = ResultsLog(out / f"descriptions_k{k}.jsonl", key="image_sha256")
            logs.append(dlog)
            for sha, img in distinct.items():
                if sha in dlog.done:
                    continue
                spec = describe_spec(img, k, config)

                def described(result: CallResult[Any], img: EncodedImage = img, k: int = k,
                              spec: CallSpec = spec, dlog: ResultsLog = dlog) -> None:
                    if not result.not_run:
                        dlog.append(description_row(img, k, result, spec, config=config, encoding=encoding))

                jobs.append(Job(spec, described))
        blind_log = None
        if blind:
            blind_log = ResultsLog(out / "blind.jsonl")
            logs.append(blind_log)
            for it in items:
                if it.id in blind_log.done:
                    continue
                spec = blind_spec(it, config)

                def answered_blind(result: CallResult[Any], it: BenchmarkItem = it, spec: CallSpec = spec) -> None:
                    if not result.not_run:
                        blind_log.append(answered_row(it, result, spec, mode="blind", config=config))

                jobs.append(Job(spec, answered_blind))
        await run_jobs(llm, jobs, desc="map vdi: full, describe, blind", **run)

        # Phase 2: the text-only answers, from the descriptions.
        jobs = []
        text_logs: dict[int, ResultsLog] = {}
        for k in budgets:
            tlog = text_logs[k] = ResultsLog(out / f"text_k{k}.jsonl")
            logs.append(tlog)
            for it in items:
                if it.id in tlog.done:
                    continue
                img = images[it.id]
                d = desc_logs[k].rows.get(img.sha256)
                if d is None:
                    continue  # its description was not run (budget or dry run): no row either
                extra = {"k_actual": d["k_actual"], "k_actual_source": d["k_actual_source"],
                         "describer_prompt_version": d["prompt_version"], "description_cached": d["cached"],
                         "image_sha256": img.sha256}
                if d.get("error"):
                    row = base_row(it, mode="text", config=config, budget=k)
                    row.update(extra, answer=None, reason="description_failed", correct=None,
                               error=f"description failed: {d['error']}", error_kind=d.get("error_kind"))
                    tlog.append(row)
                    continue
                spec = text_spec(it, d["description"] or "", config)

                def answered_text(result: CallResult[Any], it: BenchmarkItem = it, spec: CallSpec = spec,
                                  k: int = k, extra: dict[str, Any] = extra, tlog: ResultsLog = tlog) -> None:
                    if not result.not_run:
                        tlog.append(answered_row(it, result, spec, mode="text", config=config, budget=k,
                                                 extra=extra))

                jobs.append(Job(spec, answered_text))
        await run_jobs(llm, jobs, desc="map vdi: text-only", **run)

        full_rows = (read_full_results(full_results, items) if full_results is not None
                     else [full_log.rows[it.id] for it in items if it.id in full_log.rows])
        text_rows = {k: [text_logs[k].rows[it.id] for it in items if it.id in text_logs[k].rows] for k in budgets}
        blind_rows = [blind_log.rows[it.id] for it in items if it.id in blind_log.rows] if blind_log else None
    finally:
        for log in logs:
            log.close()

    missing = sum(len(items) - len(rows) for rows in text_rows.values())
    missing += len(items) - len(blind_rows) if blind_rows is not None else 0
    missing += len(items) - len(full_rows) if full_results is None else 0
    if sum(stats.not_run.values()) or missing:
        return VDIOutcome(None, stats, missing)
    report = compute_indices(full_rows, text_rows, blind_rows=blind_rows, reference_model=config.model)
    write_json_atomic(out / "vdi.json", {**report.model_dump(), "calls": stats.as_dict(),
                                         "image_policy": config.image_policy, "scoring": config.scoring,
                                         "prompt_versions": {n: prompts.prompt_version(n) for n in prompts.PROMPT_NAMES},
                                         "full_results": str(full_results) if full_results else str(out / "full.jsonl")})
    return VDIOutcome(report, stats, 0)


def run_vdi(items: Sequence[BenchmarkItem], llm: StructuredLLM, **kwargs: Any) -> VDIOutcome:
    """Synchronous ``arun_vdi`` (closes the client's session for this event loop at the end)."""
    return run_sync(llm, lambda: arun_vdi(items, llm, **kwargs))


def read_text_results(paths: Sequence[str | Path]) -> dict[int, list[dict[str, Any]]]:
    """Read text-only result files (``map run``/``map vdi`` rows) grouped by their ``budget``."""
    by_budget: dict[int, dict[str, dict[str, Any]]] = {}
    for path in paths:
        for line, row in _result_rows(path, mode="text"):
            k = row.get("budget")
            if not isinstance(k, int) or isinstance(k, bool) or k < 1:
                raise InputError(f"must be a positive integer (the description budget k), got {k!r}",
                                 path=str(path), line=line, field="budget")
            if not row.get("error") and not isinstance(row.get("k_actual"), int):
                raise InputError("required: the tokens the description used (an integer)",
                                 path=str(path), line=line, field="k_actual")
            seen = by_budget.setdefault(k, {})
            if str(row["id"]) in seen:
                raise InputError(f"duplicate id {row['id']!r} for budget {k}", path=str(path), line=line, field="id")
            seen[str(row["id"])] = row
    return {k: list(rows.values()) for k, rows in sorted(by_budget.items())}


def read_rows(path: str | Path, *, mode: str) -> list[dict[str, Any]]:
    """Read a full or blind results file, checking each row's ``id``, ``correct`` and ``mode``."""
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for line, row in _result_rows(path, mode=mode):
        if str(row["id"]) in seen:
            raise InputError(f"duplicate id {row['id']!r}", path=str(path), line=line, field="id")
        seen.add(str(row["id"]))
        rows.append(row)
    return rows
