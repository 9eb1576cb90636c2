"""Accuracy breakdowns and plain-text tables.

``accuracy_table`` groups graded rows by one field and counts, per group, correct,
wrong and unscorable items separately; accuracy is correct / all items, as the
papers report it (an unscorable item is not correct), with the unscorable count
shown beside it so that a parse failure is never mistaken for a wrong answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

OVERALL = "Overall"


def _bucket() -> dict[str, int]:
    return {"n": 0, "correct": 0, "wrong": 0, "unscorable": 0, "errors": 0}


def accuracy_table(rows: Iterable[Mapping[str, Any]], *, by: str | None = None,
                   correct_field: str = "correct") -> dict[str, dict[str, Any]]:
    """Count correct / wrong / unscorable per value of ``by`` (or overall when None).

    A row whose ``correct_field`` is None is unscorable (no answer, or an error); a row
    with ``error`` set is counted in ``errors`` too. Groups keep first-seen order;
    rows without the field fall under ``"(none)"``. ``accuracy`` is ``100 * correct / n``
    (None for an empty group), and ``accuracy_scorable`` is over scorable items only.
    """
    groups: dict[str, dict[str, int]] = {}
    for r in rows:
        key = OVERALL if by is None else (r.get(by) if r.get(by) not in (None, "") else "(none)")
        g = groups.setdefault(str(key), _bucket())
        g["n"] += 1
        verdict = r.get(correct_field)
        if verdict is True:
            g["correct"] += 1
        elif verdict is False:
            g["wrong"] += 1
        else:
            g["unscorable"] += 1
        if r.get("error"):
            g["errors"] += 1
    out: dict[str, dict[str, Any]] = {}
    for key, g in groups.items():
        scorable = g["correct"] + g["wrong"]
        out[key] = {
            **g,
            "accuracy": 100.0 * g["correct"] / g["n"] if g["n"] else None,
            "accuracy_scorable": 100.0 * g["correct"] / scorable if scorable else None,
        }
    return out


def breakdown(rows: Sequence[Mapping[str, Any]], fields: Sequence[str], *,
              correct_field: str = "correct") -> dict[str, Any]:
    """Return the overall accuracy plus one ``accuracy_table`` per field present in the rows."""
    out: dict[str, Any] = {"overall": accuracy_table(rows, correct_field=correct_field)[OVERALL] if rows else None}
    for f in fields:
        if any(r.get(f) not in (None, "") for r in rows):
            out[f"by_{f}"] = accuracy_table(rows, by=f, correct_field=correct_field)
    return out


def format_table(headers: Sequence[str], rows: Sequence[Sequence[Any]], *, title: str | None = None) -> str:
    """Render rows as an aligned plain-text table (numbers right-aligned, 1 decimal)."""
    def cell(v: Any) -> str:
        if v is None:
            return "-"
        if isinstance(v, float):
            return f"{v:.1f}"
        return str(v)

    cells = [[cell(v) for v in r] for r in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]
    numeric = [all(isinstance(r[i], (int, float)) or r[i] is None for r in rows) and i > 0
               for i in range(len(headers))]

    def line(vals: Sequence[str]) -> str:
        return "  ".join(v.rjust(w) if num else v.ljust(w) for v, w, num in zip(vals, widths, numeric)).rstrip()

    out = [title] if title else []
    out.append(line(list(headers)))
    out.append("  ".join("-" * w for w in widths))
    out.extend(line(r) for r in cells)
    return "\n".join(out)


def accuracy_rows(table: Mapping[str, Mapping[str, Any]]) -> list[list[Any]]:
    """Turn an ``accuracy_table`` into rows for ``format_table``: group, n, acc, wrong, unscorable."""
    return [[k, v["n"], v["accuracy"], v["correct"], v["wrong"], v["unscorable"]] for k, v in table.items()]


ACCURACY_HEADERS = ("group", "n", "acc%", "correct", "wrong", "unscorable")
