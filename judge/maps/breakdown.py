"""Exact-match tables for map questions: by level, category, question type and language.

OmniMapBench reports strict exact match (no partial credit) overall, per capability level
(its Table 4) and per map category (its Figure 7). Here every group also counts, apart,
the answers that were wrong, the responses from which no answer could be read
(``unparseable``: ``correct`` is None, no ``error``) and the items whose call failed
(``errors``: ``error`` set), all counted by ``judge.summary.count_verdicts``. Accuracy
is ``correct / (n - errors)``: an unparseable answer is not a match, as in the paper,
but a failed call is not an answer at all and is never scored (``grade`` divides by
``n`` instead: there an error is a failed extraction of a response that exists).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from judge.items import MAP_CATEGORIES
from judge.summary import NONE_GROUP, count_verdicts, format_table, group_by

GroupField = Literal["level", "category", "question_type", "language"]
GROUP_FIELDS: tuple[GroupField, ...] = ("level", "category", "question_type", "language")

#: The map formats by the names the benchmark uses (rows carry our answer types).
QUESTION_TYPE_NAMES: dict[str, str] = {
    "choice": "single_choice", "multi_choice": "multiple_choice", "ordering": "ordering",
}
_ORDER: dict[str, tuple[str, ...]] = {
    "level": ("L1", "L2", "L3"),
    "category": MAP_CATEGORIES,
    "question_type": ("single_choice", "multiple_choice", "ordering"),
    "language": ("en", "zh"),
}


class GroupCounts(BaseModel):
    """Counts and exact-match accuracy of one group of rows."""

    model_config = ConfigDict(frozen=True)

    group: str
    n: int
    correct: int
    wrong: int
    unparseable: int
    errors: int

    @property
    def answered(self) -> int:
        """Items that got a response: ``n - errors``."""
        return self.n - self.errors

    @property
    def accuracy(self) -> float | None:
        """``correct / (n - errors)`` in [0, 1]; None when no item got a response."""
        return self.correct / self.answered if self.answered else None


def question_type_of(row: Mapping[str, Any]) -> str | None:
    """Return the benchmark's name of a row's format (``single_choice``, ...), if known."""
    qt = row.get("question_type")
    if qt in _ORDER["question_type"]:
        return str(qt)
    at = row.get("answer_type")
    return QUESTION_TYPE_NAMES.get(str(at)) if at is not None else None


def count_group(rows: Iterable[Mapping[str, Any]], *, group: str = "overall") -> GroupCounts:
    """Count correct, wrong, unparseable and failed rows (``judge.summary.count_verdicts``)."""
    return GroupCounts(group=group, **count_verdicts(rows))


def group_rows(rows: Sequence[Mapping[str, Any]], field: str) -> dict[str, list[Mapping[str, Any]]]:
    """Split rows by ``field``, groups in the benchmark's order (L1..L3, the nine categories, ...)."""
    groups = group_by(rows, question_type_of if field == "question_type" else field)
    order = _ORDER.get(field, ())
    rank = {g: i for i, g in enumerate(order)}
    return dict(sorted(groups.items(), key=lambda kv: (rank.get(kv[0], len(order)), kv[0] == NONE_GROUP, kv[0])))


def breakdown(rows: Sequence[Mapping[str, Any]], *,
              by: Sequence[GroupField] = GROUP_FIELDS) -> dict[str, list[GroupCounts]]:
    """Return ``{"overall": [...], "level": [...], ...}``: one list of group counts per field.

    A field that no row carries is left out.

    >>> rows = [{"level": "L1", "correct": True}, {"level": "L2", "correct": None}]
    >>> [(g.group, g.accuracy) for g in breakdown(rows, by=("level",))["level"]]
    [('L1', 1.0), ('L2', 0.0)]
    """
    out: dict[str, list[GroupCounts]] = {"overall": [count_group(rows)]}
    for field in by:
        groups = group_rows(rows, field)
        if set(groups) == {NONE_GROUP}:
            continue
        out[field] = [count_group(g, group=k) for k, g in groups.items()]
    return out


def breakdown_json(table: Mapping[str, Sequence[GroupCounts]]) -> dict[str, Any]:
    """Return the breakdown as plain JSON (accuracy included), for ``summary.json``."""
    return {field: [{**g.model_dump(), "accuracy": g.accuracy} for g in groups] for field, groups in table.items()}


def format_breakdown(table: Mapping[str, Sequence[GroupCounts]], *, title: str | None = None) -> str:
    """Render the breakdown as one aligned text table (accuracy in %)."""
    rows: list[list[Any]] = []
    for field, groups in table.items():
        for g in groups:
            label = g.group if field == "overall" else f"{field}: {g.group}"
            acc = None if g.accuracy is None else 100.0 * g.accuracy
            rows.append([label, g.n, acc, g.correct, g.wrong, g.unparseable, g.errors])
    return format_table(("group", "n", "acc%", "correct", "wrong", "unparseable", "errors"), rows, title=title)
