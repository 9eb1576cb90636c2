"""Counting graded rows, grouping them, and plain-text tables.

One counting rule serves every accuracy table (``grade``, ``score``, ``map run``, the
VDI report): ``count_verdicts`` puts each row in exactly one of ``correct``, ``wrong``,
``unparseable`` (``correct`` is None: no answer could be read) or ``errors`` (``error``
set: the call or the extraction failed; such a row is never scored, whatever its
``correct`` says). The tables differ only in the accuracy they derive from the counts:

- ``accuracy_table`` (``grade``, ``score``): ``correct / n``, as the papers report it (an
  unscorable item is not correct), with ``unscorable = unparseable + errors`` beside it
  so that a parse failure is never mistaken for a wrong answer;
- ``judge.maps.breakdown``: ``correct / (n - errors)``, see there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

OVERALL = "Overall"
NONE_GROUP = "(none)"

Row = Mapping[str, Any]


def count_verdicts(rows: Iterable[Row]) -> dict[str, int]:
    """Return ``{"n", "correct", "wrong", "unparseable", "errors"}`` (see the module docstring).

    >>> count_verdicts([{"correct": True}, {"correct": None}, {"correct": None, "error": "500"}])
    {'n': 3, 'correct': 1, 'wrong': 0, 'unparseable': 1, 'errors': 1}
    """
    c = {"n": 0, "correct": 0, "wrong": 0, "unparseable": 0, "errors": 0}
    for r in rows:
        c["n"] += 1
        if r.get("error"):
            c["errors"] += 1
        elif r.get("correct") is True:
            c["correct"] += 1
        elif r.get("correct") is False:
            c["wrong"] += 1
        else:
            c["unparseable"] += 1
    return c


def group_by(rows: Iterable[Row], key: str | Callable[[Row], Any]) -> dict[str, list[Row]]:
    """Split rows by the value of field ``key`` (or of ``key(row)``), groups in first-seen order.

    Rows without a value (None or "") fall under ``"(none)"``.
    """
    get = (lambda r: r.get(key)) if isinstance(key, str) else key
    groups: dict[str, list[Row]] = {}
    for r in rows:
        value = get(r)
        groups.setdefault(NONE_GROUP if value in (None, "") else str(value), []).append(r)
    return groups


def fields_present(rows: Sequence[Row], fields: Iterable[str]) -> list[str]:
    """Return the ``fields`` that at least one row carries a value for."""
    return [f for f in fields if any(r.get(f) not in (None, "") for r in rows)]


def accuracy_table(rows: Iterable[Row], *, by: str | None = None) -> dict[str, dict[str, Any]]:
    """Count correct / wrong / unscorable per value of ``by`` (or overall when None).

    A row is unscorable when ``correct`` is None or ``error`` is set; ``errors`` counts
    the latter apart. Groups keep first-seen order; rows without the field fall under
    ``"(none)"``. ``accuracy`` is ``100 * correct / n`` (None for an empty group), and
    ``accuracy_scorable`` is over scorable items only.
    """
    out: dict[str, dict[str, Any]] = {}
    for key, group in group_by(rows, (lambda r: OVERALL) if by is None else by).items():
        c = count_verdicts(group)
        scorable = c["correct"] + c["wrong"]
        out[key] = {
            "n": c["n"], "correct": c["correct"], "wrong": c["wrong"],
            "unscorable": c["unparseable"] + c["errors"], "errors": c["errors"],
            "accuracy": 100.0 * c["correct"] / c["n"] if c["n"] else None,
            "accuracy_scorable": 100.0 * c["correct"] / scorable if scorable else None,
        }
    return out


def breakdown(rows: Sequence[Row], fields: Sequence[str]) -> dict[str, Any]:
    """Return the overall accuracy plus one ``accuracy_table`` per field present in the rows."""
    out: dict[str, Any] = {"overall": accuracy_table(rows)[OVERALL] if rows else None}
    for f in fields_present(rows, fields):
        out[f"by_{f}"] = accuracy_table(rows, by=f)
    return out


def format_table(headers: Sequence[str], rows: Sequence[Sequence[Any]], *, title: str | None = None,
                 right: Sequence[bool] | None = None) -> str:
    """Render rows as an aligned plain-text table (floats with 1 decimal, None as ``-``).

    A column is right-aligned when ``right`` says so, or by default when it is not the
    first and holds only numbers (or None).
    """
    def cell(v: Any) -> str:
        if v is None:
            return "-"
        if isinstance(v, float):
            return f"{v:.1f}"
        return str(v)

    cells = [[cell(v) for v in r] for r in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]
    if right is None:
        right = [all(isinstance(r[i], (int, float)) or r[i] is None for r in rows) and i > 0
                 for i in range(len(headers))]

    def line(vals: Sequence[str]) -> str:
        return "  ".join(v.rjust(w) if r else v.ljust(w) for v, w, r in zip(vals, widths, right)).rstrip()

    out = [title] if title else []
    out.append(line(list(headers)))
    out.append("  ".join("-" * w for w in widths))
    out.extend(line(r) for r in cells)
    return "\n".join(out)


def accuracy_rows(table: Mapping[str, Mapping[str, Any]]) -> list[list[Any]]:
    """Turn an ``accuracy_table`` into rows for ``format_table``: group, n, acc, wrong, unscorable."""
    return [[k, v["n"], v["accuracy"], v["correct"], v["wrong"], v["unscorable"]] for k, v in table.items()]


ACCURACY_HEADERS = ("group", "n", "acc%", "correct", "wrong", "unscorable")
