"""Summaries of judged rows: mean item score x 100 per ability, per task and overall.

The mean is over the items that were scored; unscored items (a verdict could not be
obtained, no response, ...) are counted beside it and never averaged in as 0. The
summary carries the judge's identity (model or ``reference-coverage``, rubric, versions,
sampling) so that it cannot be mistaken for another judge's figures.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from judge.summary import OVERALL, fields_present, format_table, group_by

SUMMARY_HEADERS = ("group", "n", "scored", "unscored", "score x100", "expected x100")


def _group(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    scored = [r["score"] for r in rows if r.get("score") is not None]
    expected = [r["expected_score"] for r in rows if r.get("expected_score") is not None]
    return {
        "n": len(rows),
        "n_scored": len(scored),
        "n_unscored": len(rows) - len(scored),
        "mean_score_x100": 100 * statistics.fmean(scored) if scored else None,
        "mean_expected_score_x100": 100 * statistics.fmean(expected) if expected else None,
    }


def summarise_judgments(rows: Sequence[Mapping[str, Any]], *, source: str | None = None,
                        fields: Sequence[str] = ("ability", "task")) -> dict[str, Any]:
    """Build ``judge_summary.json`` from judged rows (all from one judge setup)."""
    first = rows[0] if rows else {}
    out: dict[str, Any] = {
        "source": source,
        "judge": first.get("judge"),
        "judge_kind": first.get("judge_kind"),
        "rubric": first.get("rubric"),
        "rubric_version": first.get("rubric_version"),
        "prompt_version": first.get("prompt_version"),
        "sampling": first.get("sampling"),
        "n_items": len(rows),
        "tokens": {
            "prompt": sum((r.get("tokens") or {}).get("prompt") or 0 for r in rows),
            "completion": sum((r.get("tokens") or {}).get("completion") or 0 for r in rows),
        },
        "cost_usd": None if any(r.get("cost_usd") is None for r in rows) else sum(r["cost_usd"] for r in rows),
        "overall": _group(rows),
    }
    if first.get("note"):
        out["note"] = first["note"]
    for f in fields_present(rows, fields):
        out[f"by_{f}"] = {k: _group(g) for k, g in group_by(rows, f).items()}
    return out


def format_summary(summary: Mapping[str, Any]) -> str:
    """A plain-text report of a judge summary."""
    o = summary["overall"]
    who = summary["judge"]
    if summary["judge_kind"] == "reference-coverage":
        who = "reference-coverage (deterministic, NOT an LLM judge)"
    head = (f"judge {who} · rubric {summary['rubric']} v{summary['rubric_version']} · "
            f"{summary['n_items']} items · score x100 {_fmt(o['mean_score_x100'])} "
            f"(scored {o['n_scored']}, unscored {o['n_unscored']})")
    lines = [head]

    def rows(table: Mapping[str, Mapping[str, Any]]) -> list[list[Any]]:
        return [[k, g["n"], g["n_scored"], g["n_unscored"], g["mean_score_x100"], g["mean_expected_score_x100"]]
                for k, g in table.items()]

    lines += ["", format_table(SUMMARY_HEADERS, rows({OVERALL: o}))]
    for key, table in summary.items():
        if key.startswith("by_"):
            lines += ["", format_table(SUMMARY_HEADERS, rows(table), title=f"by {key[3:]}")]
    return "\n".join(lines)


def _fmt(v: float | None) -> str:
    return "-" if v is None else f"{v:.1f}"
