"""Extract and score each item's final answer; summarise accuracy per benchmark.

This is the rule path of ``reasonjudge extract / score / grade``: pure, no network.
Every row says how its answer was obtained (``method``: the rule that fired, or why
none did in ``reason``) and which scoring mode decided ``correct``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from extractors import Extraction, extract_answer, score_answer
from extractors.match import Mode
from judge import __version__
from judge.items import PredictedItem
from judge.summary import breakdown

#: The breakdowns each benchmark reports (OCR-Reasoning: per ability, as the paper's
#: Table 2; OmniMapBench: per level and category, Table 4, plus type and language).
BREAKDOWNS: dict[str, tuple[str, ...]] = {
    "ocr-reasoning": ("ability", "task", "answer_type", "language"),
    "map": ("level", "category", "answer_type", "language"),
    "generic": ("ability", "task", "level", "category", "answer_type", "language"),
}

#: The tables ``grade`` prints (summary.json has every breakdown).
PRINTED: dict[str, tuple[str, ...]] = {
    "ocr-reasoning": ("ability", "answer_type"),
    "map": ("level", "category", "answer_type", "language"),
    "generic": BREAKDOWNS["generic"],
}

GRADER = f"reasonjudge {__version__}"


def extraction_fields(pi: PredictedItem) -> dict[str, Any]:
    """Run the rule extractor on one item's response; return the row fields it adds."""
    item = pi.item
    if pi.response is None:
        return {"answer": None, "reason": "no_response", "method": None, "evidence": None}
    ex = extract_answer(pi.response, item.answer_type, choices=item.choices, question=item.question or None,
                        format_hint=item.format_hint)
    fields = {"answer": ex.value, "reason": ex.reason, "method": ex.method, "evidence": ex.evidence}
    if ex.unit is not None:
        fields["unit"] = ex.unit
    if ex.magnitude is not None:
        fields["magnitude"] = ex.magnitude
    return fields


def _as_extraction(extracted: Mapping[str, Any]) -> Extraction:
    return Extraction(value=extracted.get("answer"), reason=extracted.get("reason"), method=extracted.get("method"),
                      evidence=extracted.get("evidence"), unit=extracted.get("unit"),
                      magnitude=extracted.get("magnitude"))


def score_fields(pi: PredictedItem, extracted: Mapping[str, Any], *, mode: Mode, benchmark: str) -> dict[str, Any]:
    """Score extracted fields (as ``extraction_fields`` returns them) against the item's gold.

    The whole extraction is scored, not only its value: strict scoring needs the stated
    currency and magnitude, and official OCR-Reasoning scoring needs the answer as the
    response wrote it (``$3.24``), which is what that benchmark's checker saw.
    ``correct`` is None when unscorable: no gold, or an extraction that failed with an
    ``error`` (an LLM fallback call), which is never scored as wrong.
    """
    item = pi.item
    if item.gold is None or extracted.get("error"):
        return {"correct": None, "mode": mode}
    precision = item.extra.get("precision")
    correct = score_answer(
        _as_extraction(extracted), item.gold, item.answer_type, mode=mode,
        benchmark=benchmark if benchmark in ("ocr-reasoning", "map") else "generic",
        choices=item.choices, format_hint=item.format_hint,
        precision=int(precision) if isinstance(precision, (int, float)) else None,
        official_answer_type=item.extra.get("native_answer_type"),
    )
    return {"correct": correct, "mode": mode}


def grade_item(pi: PredictedItem, *, mode: Mode, benchmark: str,
               extracted: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Return the result row of one item: its labels, gold, extraction and verdict.

    ``extracted`` is the item's extraction fields when they were computed already (for
    example completed by the LLM fallback); otherwise the rules run here.
    """
    item = pi.item
    row: dict[str, Any] = {
        "id": item.id,
        "benchmark": benchmark,
        "answer_type": item.answer_type,
        "question_type": item.question_type,
        "ability": item.ability,
        "task": item.task,
        "level": item.level,
        "category": item.category,
        "language": item.language,
        "gold": item.gold,
    }
    row.update(extraction_fields(pi) if extracted is None else extracted)
    row.update(score_fields(pi, row, mode=mode, benchmark=benchmark))
    row.setdefault("error", None)
    row.update({"extractor": "llm" if row.get("method") == "llm" else "rules", "grader": GRADER,
                "response_model": pi.model})
    return {k: v for k, v in row.items() if v is not None or k in _ALWAYS}


_ALWAYS = {"answer", "reason", "method", "correct", "error", "gold"}


def summarise(rows: Sequence[dict[str, Any]], *, benchmark: str, mode: Mode, source: str) -> dict[str, Any]:
    """Build ``summary.json``: overall accuracy and the benchmark's breakdowns."""
    return {
        "benchmark": benchmark,
        "mode": mode,
        "source": source,
        "grader": GRADER,
        "n_items": len(rows),
        **breakdown(rows, BREAKDOWNS.get(benchmark, BREAKDOWNS["generic"])),
    }
