"""Apply the LLM extraction fallback to the rows of ``reasonjudge extract`` / ``score``.

The rules run first (``judge.grading.extraction_fields``); this asks the model only
for the rows ``extractors.llm_fallback.needs_llm`` selects, all in one batch through
the LLM client (concurrency, cache, budget, progress), and rewrites those rows'
extraction fields. A row the model answered gets ``method: "llm"``, ``llm_model`` and
the verbatim ``evidence``; ``rule_reason`` keeps why the rules found nothing. A row
whose call failed (transport, refused) gets ``error`` and no answer; a row not asked
because of the budget or a dry run keeps the rules' result.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from extractors.llm_fallback import LLMFallbackError, build_request, needs_llm, read_result
from extractors.types import Extraction
from judge.items import PredictedItem
from judge.llm.types import CallSpec, LLMSettings


@dataclass(frozen=True)
class FallbackReport:
    """What the fallback did, for the command's last lines."""

    asked: int
    outcomes: dict[str, int]
    not_asked: int
    dry_run: bool
    stats_line: str

    def lines(self) -> list[str]:
        if self.dry_run:
            return [f"dry run: the LLM fallback would make {self.not_asked} calls "
                    f"({self.asked - self.not_asked} rows already cached); no output written", self.stats_line]
        parts = ", ".join(f"{n} {k}" for k, n in sorted(self.outcomes.items()))
        out = [f"LLM fallback: asked for {self.asked} rows: {parts or 'none'}", self.stats_line]
        if self.not_asked:
            out.append(f"{self.not_asked} rows not asked (budget reached): rerun with a larger budget to continue")
        return out


def apply_llm_fallback(items: Sequence[PredictedItem], fields: list[dict[str, Any]], settings: LLMSettings,
                       *, desc: str = "LLM extraction") -> FallbackReport:
    """Ask the model for the rows the rules left without an answer; update ``fields`` in place."""
    from judge.llm.client import Job, make_client

    todo = []
    for k, (pi, f) in enumerate(zip(items, fields)):
        if pi.response is None or f.get("answer") is not None:
            continue
        if not needs_llm(Extraction(value=None, reason=f.get("reason"))):
            continue
        item = pi.item
        req = build_request(pi.response, item.answer_type, choices=item.choices, question=item.question or None)
        todo.append((k, req))
    with make_client(settings) as client:
        results = client.run([Job(CallSpec(**req.spec), req.response_model, req.validation_context) for _, req in todo],
                             desc=desc)
    outcomes: Counter[str] = Counter()
    not_asked = 0
    for (k, req), result in zip(todo, results):
        row = fields[k]
        try:
            ex = read_result(req, result)
        except LLMFallbackError as e:
            row.update(answer=None, error=f"LLM extraction failed: {e}", llm_model=settings.model)
            outcomes["failed"] += 1
            continue
        if ex is None:
            not_asked += 1
            continue
        rule_reason = row.get("reason")
        row.update(answer=ex.value, reason=ex.reason, method="llm", evidence=ex.evidence, llm_model=result.model,
                   rule_reason=rule_reason)
        if ex.unit is not None:
            row["unit"] = ex.unit
        outcomes["answered" if ex.value is not None else ex.reason or "no answer"] += 1
    return FallbackReport(asked=len(todo), outcomes=dict(outcomes), not_asked=not_asked, dry_run=settings.dry_run,
                          stats_line=client.stats.summary())
