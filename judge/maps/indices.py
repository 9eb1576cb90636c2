"""The Visual Dependency Index and the Descriptive Saturation Index (OmniMapBench, section 4).

For a reference model M and a description budget of k tokens (paper, eq. 3-4 and
Algorithm 1, lines 11-13)::

    VDI(k) = (Acc_full - Acc_text(k)) / Acc_full
    DSI(k) = mean over items of k_actual / k

``Acc_full`` is M's exact-match accuracy with the image; ``Acc_text(k)`` its accuracy
when it answers from a question-agnostic description of the image limited to k tokens;
``k_actual`` the tokens the description really used. VDI is not clipped: a description
path that beats the image gives a negative value. It is undefined when ``Acc_full`` is 0;
this module then returns None and says why, never 0 or NaN.

All accuracies are computed on one set of items: those graded without error in the full
run and in every budget's text run (a paired comparison; excluded items are counted and
reported). An unparseable answer (``correct`` None) is not a match and counts as wrong,
as in the paper's strict exact match; the unparseable counts are reported beside it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from judge.maps.breakdown import group_rows
from judge.summary import count_verdicts, format_table

UNDEFINED_ACC_FULL_ZERO = "Acc_full is 0: VDI divides by it and is undefined"
DEFINITIONS: dict[str, str] = {
    "VDI(k)": "(Acc_full - Acc_text(k)) / Acc_full, not clipped; null when Acc_full = 0",
    "DSI(k)": "mean over items of k_actual / k",
    "accuracy": "strict exact match over the paired items; an unparseable answer counts as not correct",
}


def vdi_score(acc_full: float, acc_text: float) -> float | None:
    """Return VDI = (acc_full - acc_text) / acc_full, unclipped; None when acc_full == 0.

    Range: (-inf, 1]; 1 means the description path answers nothing right, 0 that it
    loses nothing, a negative value that it does better than the image.

    >>> vdi_score(0.5, 0.25)
    0.5
    >>> vdi_score(0.5, 0.625)
    -0.25
    >>> vdi_score(0.0, 0.3) is None
    True
    """
    if acc_full == 0:
        return None
    return (acc_full - acc_text) / acc_full


def dsi_score(k_actual: Sequence[int | float], budget: int) -> float | None:
    """Return DSI = mean(k_actual / budget); None for no items.

    Range: [0, inf) in principle (a provider that overruns its limit, or a tokenizer count
    that differs from the provider's, can exceed 1); not clipped.

    >>> dsi_score([64, 32], 64)
    0.75
    """
    if budget <= 0:
        raise ValueError(f"budget must be positive, got {budget}")
    if not k_actual:
        return None
    return sum(k / budget for k in k_actual) / len(k_actual)


class Tally(BaseModel):
    """Exact-match counts of one path (full, text at one budget, or blind) on a group."""

    model_config = ConfigDict(frozen=True)

    n: int
    correct: int
    unparseable: int

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.n if self.n else None

    @classmethod
    def of(cls, rows: Sequence[Mapping[str, Any]]) -> Tally:
        """Tally rows graded without error (the paired set has no failed row)."""
        c = count_verdicts(rows)
        return cls(n=c["n"], correct=c["correct"], unparseable=c["unparseable"])


class BudgetIndices(BaseModel):
    """VDI and DSI of one group at one budget."""

    model_config = ConfigDict(frozen=True)

    budget: int
    acc_text: float | None
    correct: int
    unparseable: int
    vdi: float | None
    vdi_undefined: str | None = None
    dsi: float | None
    k_actual_mean: float | None


class GroupIndices(BaseModel):
    """Accuracies and indices of one group of items (overall, a level or a category)."""

    model_config = ConfigDict(frozen=True)

    group: str
    n: int
    acc_full: float | None
    correct_full: int
    unparseable_full: int
    budgets: list[BudgetIndices]
    acc_blind: float | None = None
    n_blind: int | None = None
    unparseable_blind: int | None = None


class VDIReport(BaseModel):
    """What ``DIR/vdi.json`` holds."""

    model_config = ConfigDict(frozen=True)

    reference_model: str | None
    budgets: list[int]
    n_items: int
    #: Items left out of the paired set, by cause ("full: error", "text k=64: missing", ...).
    excluded: dict[str, int]
    #: Per budget: where k_actual came from ("usage", or "tiktoken:<encoding>", or both).
    k_actual_source: dict[str, str]
    overall: GroupIndices
    by_level: list[GroupIndices]
    by_category: list[GroupIndices]
    definitions: dict[str, str] = Field(default_factory=lambda: dict(DEFINITIONS))


def _group_indices(name: str, ids: Sequence[str], full: Mapping[str, Mapping[str, Any]],
                   text: Mapping[int, Mapping[str, Mapping[str, Any]]],
                   blind: Mapping[str, Mapping[str, Any]] | None) -> GroupIndices:
    tf = Tally.of([full[i] for i in ids])
    acc_full = tf.accuracy
    budgets = []
    for k in sorted(text):
        rows = [text[k][i] for i in ids]
        tt = Tally.of(rows)
        ks = [int(r["k_actual"]) for r in rows]
        vdi = None if acc_full is None or tt.accuracy is None else vdi_score(acc_full, tt.accuracy)
        budgets.append(BudgetIndices(
            budget=k, acc_text=tt.accuracy, correct=tt.correct, unparseable=tt.unparseable, vdi=vdi,
            vdi_undefined=UNDEFINED_ACC_FULL_ZERO if acc_full == 0 else ("no items" if not ids else None),
            dsi=dsi_score(ks, k), k_actual_mean=sum(ks) / len(ks) if ks else None))
    extra: dict[str, Any] = {}
    if blind is not None:
        tb = Tally.of([blind[i] for i in ids if i in blind])
        extra = {"acc_blind": tb.accuracy, "n_blind": tb.n, "unparseable_blind": tb.unparseable}
    return GroupIndices(group=name, n=len(ids), acc_full=acc_full, correct_full=tf.correct,
                        unparseable_full=tf.unparseable, budgets=budgets, **extra)


def _index(rows: Sequence[Mapping[str, Any]], what: str) -> dict[str, Mapping[str, Any]]:
    out: dict[str, Mapping[str, Any]] = {}
    for r in rows:
        key = str(r["id"])
        if key in out:
            raise ValueError(f"{what}: id {key!r} appears twice")
        out[key] = r
    return out


def compute_indices(full_rows: Sequence[Mapping[str, Any]],
                    text_rows: Mapping[int, Sequence[Mapping[str, Any]]], *,
                    blind_rows: Sequence[Mapping[str, Any]] | None = None,
                    reference_model: str | None = None) -> VDIReport:
    """Compute VDI and DSI, overall and per level and category, from graded rows.

    ``full_rows``: one row per item of the standard run (``id``, ``correct``, ``error``,
    ``level``, ``category``). ``text_rows``: per budget k, the text-only rows, which also
    carry ``k_actual`` (and ``k_actual_source``). ``blind_rows``: the blind control, if run.
    Raises ``ValueError`` for a duplicate id (the caller names the file).
    """
    full = _index(full_rows, "full")
    text = {int(k): _index(rows, f"text k={k}") for k, rows in text_rows.items()}
    blind_all = _index(blind_rows, "blind") if blind_rows is not None else None
    excluded: dict[str, int] = {}

    def drop(cause: str) -> None:
        excluded[cause] = excluded.get(cause, 0) + 1

    kept: list[str] = []
    for i, row in full.items():
        if row.get("error"):
            drop("full: error")
            continue
        ok = True
        for k in sorted(text):
            t = text[k].get(i)
            if t is None:
                drop(f"text k={k}: missing")
                ok = False
            elif t.get("error"):
                drop(f"text k={k}: error")
                ok = False
            elif t.get("k_actual") is None:
                drop(f"text k={k}: no k_actual")
                ok = False
        if ok:
            kept.append(i)
    for k in sorted(text):
        stray = len(set(text[k]) - set(full))
        if stray:
            excluded[f"text k={k}: not in the full run"] = stray
    blind = None
    if blind_all is not None:
        blind = {i: r for i, r in blind_all.items() if not r.get("error")}
        failed = len(blind_all) - len(blind)
        if failed:
            excluded["blind: error"] = failed

    sources: dict[str, str] = {}
    for k in sorted(text):
        seen = sorted({str(text[k][i].get("k_actual_source") or "unknown") for i in kept})
        sources[str(k)] = "+".join(seen) if seen else "none"

    kept_rows = [full[i] for i in kept]
    by_level = [_group_indices(g, [str(r["id"]) for r in rows], full, text, blind)
                for g, rows in group_rows(kept_rows, "level").items()]
    by_category = [_group_indices(g, [str(r["id"]) for r in rows], full, text, blind)
                   for g, rows in group_rows(kept_rows, "category").items()]
    return VDIReport(
        reference_model=reference_model, budgets=sorted(text), n_items=len(kept), excluded=excluded,
        k_actual_source=sources, overall=_group_indices("overall", kept, full, text, blind),
        by_level=by_level, by_category=by_category,
    )


def _num(v: float | None, digits: int) -> str:
    return "-" if v is None else f"{v:.{digits}f}"


def format_report(report: VDIReport) -> str:
    """Render the report as a text table: one line per group and budget."""
    head = ["group", "n", "Acc_full", "Acc_blind", "k", "Acc_text", "VDI", "DSI", "k_actual", "unparsed"]
    lines: list[list[str]] = []
    for g in [report.overall, *report.by_level, *report.by_category]:
        name = g.group
        first = True
        for b in g.budgets or [None]:
            cells = [name, str(g.n), _num(g.acc_full, 3), _num(g.acc_blind, 3)] if first else ["", "", "", ""]
            if b is None:
                cells += ["-"] * 6
            else:
                vdi = "undef" if b.vdi is None and b.vdi_undefined else _num(b.vdi, 3)
                cells += [str(b.budget), _num(b.acc_text, 3), vdi, _num(b.dsi, 3), _num(b.k_actual_mean, 1),
                          str(b.unparseable)]
            lines.append(cells)
            first = False
    model = report.reference_model or "(not recorded)"
    out = [format_table(head, lines, right=[i > 0 for i in range(len(head))],
                        title=f"Visual Dependency Index - reference model {model}, {report.n_items} paired items")]
    out.append("k_actual from: " + ", ".join(f"k={k}: {s}" for k, s in report.k_actual_source.items()))
    if report.excluded:
        out.append("excluded: " + ", ".join(f"{c} ({n})" for c, n in report.excluded.items()))
    if report.overall.acc_full == 0:
        out.append(f"VDI undefined: {UNDEFINED_ACC_FULL_ZERO}")
    out.append(f"unparsed = text-path answers that could not be read (counted as not correct); "
               f"unparseable with the image: {report.overall.unparseable_full}")
    return "\n".join(out)
