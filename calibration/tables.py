"""Score tables: who gave which score to which item, read from long-format files and adapters.

The long format is one row per (item, rater) score, JSONL or CSV (or TSV / XLSX / a JSON list):

    {"item": "doc17__M8__coherence", "group": "doc17", "rater": "e0", "score": 4}

- ``item`` (required): the id of the thing that was scored; the same id in the human file and
  the judge file means the same thing.
- ``rater`` (required unless the file holds one rater; then the file's stem names it).
- ``score`` (required): a number (an ordinal 1-5 or 1-10 rating, 0/1, a probability), or a
  pairwise preference ``A`` / ``B`` / ``tie`` (also ``model_a`` / ``model_b`` /
  ``tie (bothbad)``), or for ``scale="steps"`` a 0-based first-error index (-1 = no error).
  A row whose ``score`` is empty/null and whose ``error`` field is set is a failed judgement:
  the item is kept out of that rater's metrics and counted, never scored.
- any other field (``group``, ``dimension``, ``n_steps``, ...) is item metadata: pass its name
  as ``group_by`` (documents or prompts, the unit the bootstrap resamples) or ``split_by``
  (one report per value, e.g. the SummEval dimension).

Adapters read the layouts of ``../shared/data/judging/``: the Alternative Annotator Test JSON
(``{rater: {item: score}}``; item ids may carry fields joined by ``__``), the MR-MATH gold and
LLM-verdict files (``calibration.reasoneval``), and ProcessBench's labelled JSON.

Every bad input raises ``judge.errors.InputError`` naming the file, the line and the field.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np

from judge.errors import InputError
from judge.io import read_json, read_records

__all__ = [
    "Scale",
    "Ratings",
    "Panel",
    "PAIRWISE_CODES",
    "read_long",
    "read_alttest",
    "read_processbench",
    "read_mrmath",
    "make_panel",
    "join_panels",
    "load_panel",
    "InputFormat",
    "TableFormat",
    "read_table",
]

Scale = Literal["numeric", "pairwise", "steps"]

#: Pairwise preferences as numbers on an A-to-B axis, so that "tie" sits between.
PAIRWISE_TIE = 0.5
PAIRWISE_CODES: Mapping[str, float] = {
    "a": 0.0, "model_a": 0.0,
    "tie": PAIRWISE_TIE, "tie (bothbad)": PAIRWISE_TIE,
    "b": 1.0, "model_b": 1.0,
}


@dataclass(frozen=True)
class Ratings:
    """Scores of several raters on one item set: ``scores[i, r]`` is rater ``r`` on item ``i`` (NaN = none).

    ``fields`` holds per-item metadata (one string per item, ``""`` when absent);
    ``failed[i, r]`` is true where the row said the judgement failed (``error``, no score).
    ``where[i]`` is ``(path, line)`` of the first row of item ``i``, for error messages.
    """

    items: tuple[str, ...]
    raters: tuple[str, ...]
    scores: np.ndarray
    scale: Scale
    fields: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    failed: np.ndarray | None = None
    where: tuple[tuple[str, int], ...] = ()
    source: str = ""

    def select(self, raters: Sequence[str]) -> Ratings:
        """Keep only ``raters`` (an unknown name is an ``InputError`` naming the file)."""
        unknown = [r for r in raters if r not in self.raters]
        if unknown:
            raise InputError(f"unknown rater(s) {unknown}; the file has {list(self.raters)}", path=self.source)
        idx = [self.raters.index(r) for r in raters]
        failed = None if self.failed is None else self.failed[:, idx]
        return Ratings(self.items, tuple(raters), self.scores[:, idx], self.scale, self.fields, failed,
                       self.where, self.source)

    def location(self, i: int) -> tuple[str, int | None]:
        """Return ``(path, line)`` of item ``i``'s first row; the line is None when not recorded."""
        return self.where[i] if self.where else (self.source, None)


@dataclass(frozen=True)
class Panel:
    """Humans and judges aligned on the same items, with the item metadata both files gave."""

    items: tuple[str, ...]
    humans: tuple[str, ...]
    judges: tuple[str, ...]
    human_scores: np.ndarray  # (n_items, n_humans)
    judge_scores: np.ndarray  # (n_items, n_judges)
    scale: Scale
    fields: Mapping[str, tuple[str, ...]]
    judge_failed: Mapping[str, int]

    def field_values(self, name: str) -> tuple[str, ...]:
        if name not in self.fields:
            raise InputError(f"no item field '{name}'; available: {sorted(self.fields)}")
        return self.fields[name]


def _parse_score(raw: Any, scale: Scale | None, *, path: str, line: int, field_name: str) -> tuple[float, Scale]:
    """Return ``(value, scale)`` for one raw score; ``scale=None`` means "infer from this value"."""
    if isinstance(raw, bool):
        raw = int(raw)
    if isinstance(raw, (int, float)) and not isinstance(raw, bool):
        value = float(raw)
        kind: Scale = "numeric"
    elif isinstance(raw, str):
        text = raw.strip()
        try:
            value = float(text)
            kind = "numeric"
        except ValueError:
            code = PAIRWISE_CODES.get(text.lower())
            if code is None:
                expect = "a number" if scale in (None, "numeric", "steps") else "A, B or tie"
                raise InputError(f"expected {expect}, got {raw!r}", path=path, line=line, field=field_name) from None
            value, kind = code, "pairwise"
    else:
        raise InputError(f"expected a number or A/B/tie, got {type(raw).__name__}", path=path, line=line,
                         field=field_name)
    if not math.isfinite(value):
        raise InputError(f"score must be finite, got {raw!r}", path=path, line=line, field=field_name)
    if scale == "steps":
        if kind != "numeric" or value != int(value) or value < -1:
            raise InputError(f"expected a first-error index (an integer >= -1), got {raw!r}", path=path,
                             line=line, field=field_name)
        return value, "steps"
    if scale is not None and kind != scale:
        want = "a number" if scale == "numeric" else "A, B or tie"
        raise InputError(f"expected {want} like the rows before, got {raw!r}", path=path, line=line,
                         field=field_name)
    return value, kind


class _Builder:
    """Collects (item, rater, score) rows, checking duplicates and metadata as they come."""

    def __init__(self, path: str, scale: Scale | None) -> None:
        self.path = path
        self.scale = scale
        self.item_index: dict[str, int] = {}
        self.where: list[tuple[str, int]] = []
        self.raters: dict[str, int] = {}
        self.cells: dict[tuple[int, int], tuple[float, int]] = {}
        self.fields: dict[str, dict[int, str]] = {}
        self.failed: set[tuple[int, int]] = set()

    def add(self, item: str, rater: str, raw: Any, meta: Mapping[str, Any], *, line: int,
            score_field: str, error: Any = None) -> None:
        i = self.item_index.setdefault(item, len(self.item_index))
        if i == len(self.where):
            self.where.append((self.path, line))
        r = self.raters.setdefault(rater, len(self.raters))
        if (i, r) in self.cells:
            first = self.cells[(i, r)][1]
            raise InputError(f"second score for item {item!r} by rater {rater!r} (first at line {first})",
                             path=self.path, line=line, field=score_field)
        for name, value in meta.items():
            text = "" if value is None else str(value)
            seen = self.fields.setdefault(name, {})
            if i in seen and seen[i] != text:
                raise InputError(f"item {item!r} has {name}={seen[i]!r} on an earlier row, {text!r} here",
                                 path=self.path, line=line, field=name)
            seen[i] = text
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            if error:
                self.failed.add((i, r))
                self.cells[(i, r)] = (math.nan, line)
                return
            raise InputError("required (a row without a score must say why in 'error')", path=self.path,
                             line=line, field=score_field)
        value, kind = _parse_score(raw, self.scale, path=self.path, line=line, field_name=score_field)
        if self.scale is None:
            self.scale = kind
        self.cells[(i, r)] = (value, line)

    def build(self) -> Ratings:
        if not self.item_index:
            raise InputError("no scores in the file", path=self.path)
        n, m = len(self.item_index), len(self.raters)
        scores = np.full((n, m), np.nan)
        for (i, r), (v, _) in self.cells.items():
            scores[i, r] = v
        failed = np.zeros((n, m), dtype=bool)
        for i, r in self.failed:
            failed[i, r] = True
        fields = {name: tuple(vals.get(i, "") for i in range(n)) for name, vals in self.fields.items()}
        return Ratings(tuple(self.item_index), tuple(self.raters), scores, self.scale or "numeric", fields,
                       failed, tuple(self.where), self.path)


def read_long(path: str | os.PathLike[str], *, scale: Scale | None = None, item_field: str = "item",
              rater_field: str = "rater", score_field: str = "score",
              keep_fields: Iterable[str] | None = None) -> Ratings:
    """Read a long-format score file (``.jsonl``, ``.csv``, ``.tsv``, ``.xlsx`` or a ``.json`` list).

    ``scale=None`` infers numeric or pairwise from the first score and then holds every row to
    it. Fields other than item, rater, score and ``error`` are kept as item metadata
    (all of them, or only ``keep_fields``). Without a rater field the file's stem is the rater.
    """
    p = str(path)
    b = _Builder(p, scale)
    skip = {item_field, rater_field, score_field, "error"}
    keep = None if keep_fields is None else set(keep_fields)
    for line, row in read_records(path):
        if item_field not in row or row[item_field] in (None, ""):
            raise InputError("required", path=p, line=line, field=item_field)
        if score_field not in row:
            raise InputError("required", path=p, line=line, field=score_field)
        rater = row.get(rater_field)
        rater = Path(p).stem if rater in (None, "") else str(rater)
        meta = {k: v for k, v in row.items() if k not in skip and (keep is None or k in keep)
                and not isinstance(v, (dict, list))}
        b.add(str(row[item_field]), rater, row[score_field], meta, line=line, score_field=score_field,
              error=row.get("error"))
    return b.build()


_JSON_KEY = re.compile(r'\s*"((?:[^"\\]|\\.)*)"\s*:')


def _json_lines(text: str) -> dict[str, int]:
    """Map each ``"key":`` at the start of a line to its (first) line number, for error messages."""
    out: dict[str, int] = {}
    for n, line in enumerate(text.splitlines(), start=1):
        m = _JSON_KEY.match(line)
        if m:
            out.setdefault(m.group(1), n)
    return out


def read_alttest(path: str | os.PathLike[str], *, scale: Scale | None = None,
                 id_fields: Sequence[str] = (), id_sep: str = "__") -> Ratings:
    """Read the Alternative Annotator Test layout: ``{rater: {item: score}}`` (``human_annotations.json``).

    ``id_fields`` names the parts of item ids split on ``id_sep``: SummEval's
    ``"<doc>__<system>__<dimension>"`` with ``id_fields=("doc", "system", "dimension")`` gives
    each item the fields ``doc`` (group the bootstrap by it) and ``dimension`` (split by it).
    """
    p = str(path)
    text, data = read_json(p)
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise InputError("expected {rater: {item: score}} (the alt-test layout)", path=p, line=1)
    lines = _json_lines(text)
    b = _Builder(p, scale)
    for rater, scores in data.items():
        for item, raw in scores.items():
            line = lines.get(item, lines.get(rater, 1))
            meta: dict[str, str] = {}
            if id_fields:
                parts = item.split(id_sep)
                if len(parts) != len(id_fields):
                    raise InputError(f"item id {item!r} has {len(parts)} parts separated by {id_sep!r}, "
                                     f"expected {len(id_fields)} ({', '.join(id_fields)})", path=p, line=line)
                meta = dict(zip(id_fields, parts))
            b.add(item, str(rater), raw, meta, line=line, score_field=f"{rater}.{item}")
    return b.build()


def read_processbench(path: str | os.PathLike[str], *, rater: str = "expert") -> Ratings:
    """Read ProcessBench's ``{gsm8k,math}.json``: the expert ``label`` (first-error index) per ``id``.

    Items get the fields ``n_steps`` (from ``steps``) and ``generator``.
    """
    p = str(path)
    b = _Builder(p, "steps")
    for line, row in read_records(path):
        for name in ("id", "label", "steps"):
            if name not in row:
                raise InputError("required", path=p, line=line, field=name)
        steps = row["steps"]
        if isinstance(steps, str):
            raise InputError("expected a list of steps", path=p, line=line, field="steps")
        value, _ = _parse_score(row["label"], "steps", path=p, line=line, field_name="label")
        if value >= len(steps):
            raise InputError(f"first-error index {int(value)} beyond the {len(steps)} steps", path=p, line=line,
                             field="label")
        b.add(str(row["id"]), rater, row["label"], {"n_steps": len(steps), "generator": row.get("generator", "")},
              line=line, score_field="label")
    return b.build()


def read_mrmath(gold_path: str | os.PathLike[str],
                verdict_paths: Sequence[str | os.PathLike[str]] = ()) -> tuple[Ratings, Ratings | None]:
    """Read MR-MATH: the human first-error labels, and LLM verdict files as first-error predictions.

    The gold file gives the rater ``annotator``; each verdict file a rater named after its stem
    (``invalid__gpt4_eval_results`` -> ``gpt4``), converted by ReasonEval's own rules
    (``calibration.reasoneval.verdict_first_error``). Items carry ``n_steps`` and ``generator``.
    """
    from calibration import reasoneval

    gold = reasoneval.read_mrmath_gold(gold_path)
    gp = str(gold_path)
    hb = _Builder(gp, "steps")
    for n, g in enumerate(gold, start=1):
        hb.add(g.id, "annotator", g.first_error, {"n_steps": g.n_steps}, line=n, score_field="first_error")
    humans = hb.build()
    if not verdict_paths:
        return humans, None
    jb = _Builder(str(verdict_paths[0]), "steps")
    for vp in verdict_paths:
        jb.path = str(vp)
        name = re.sub(r"_eval_results$", "", Path(vp).stem)
        name = name.split("__", 1)[-1]
        for n, (v, g) in enumerate(zip(reasoneval.read_mrmath_verdicts(vp, gold), gold), start=1):
            fe = reasoneval.verdict_first_error(v.correctness_pred, v.error_step_pred, g.n_steps)
            jb.add(v.id, name, fe, {}, line=n, score_field="error_step_pred")
    return humans, jb.build()


def make_panel(humans: Ratings, judges: Ratings) -> Panel:
    """Align judges to humans item by item; any item in one file and not the other is an ``InputError``.

    An item must have at least one human score; every judge must have a row (a score or a
    failed judgement) for every item. Metadata fields from both files are merged and must agree.
    """
    if humans.scale != judges.scale:
        raise InputError(f"the judge scores are {judges.scale}, the human scores {humans.scale}",
                         path=judges.source)
    overlap = set(humans.raters) & set(judges.raters)
    if overlap:
        raise InputError(f"rater(s) {sorted(overlap)} appear as both human and judge", path=judges.source)
    for have, lack, whose in ((humans, judges, "judge"), (judges, humans, "human")):
        known = set(lack.items)
        for k, it in enumerate(have.items):
            if it not in known:
                path, line = have.location(k)
                raise InputError(f"item {it!r} has no {whose} score in {lack.source}", path=path, line=line)
    j_index = {it: k for k, it in enumerate(judges.items)}
    order = np.array([j_index[it] for it in humans.items], dtype=int)
    jscores = judges.scores[order]
    jfailed = (judges.failed if judges.failed is not None else np.zeros(judges.scores.shape, bool))[order]
    for r, rater in enumerate(judges.raters):
        absent = np.flatnonzero(np.isnan(jscores[:, r]) & ~jfailed[:, r])
        if absent.size:
            first = int(absent[0])
            path, line = humans.location(first)
            raise InputError(f"item {humans.items[first]!r} is not scored by judge {rater!r} "
                             f"({absent.size} such items in {judges.source})", path=path, line=line)
    unrated = np.flatnonzero(np.isnan(humans.scores).all(axis=1))
    if unrated.size:
        k = int(unrated[0])
        path, line = humans.location(k)
        raise InputError(f"item {humans.items[k]!r} has no human score (only failed rows)", path=path, line=line)
    fields = dict(humans.fields)
    for name, values in judges.fields.items():
        aligned = tuple(values[j] for j in order)
        if name in fields:
            for k, (a, b) in enumerate(zip(fields[name], aligned)):
                if a and b and a != b:
                    path, line = judges.location(order[k])
                    raise InputError(f"item {humans.items[k]!r} has {name}={b!r} here but {a!r} in "
                                     f"{humans.source}", path=path, line=line, field=name)
            fields[name] = tuple(a or b for a, b in zip(fields[name], aligned))
        else:
            fields[name] = aligned
    return Panel(humans.items, humans.raters, judges.raters, humans.scores, jscores, humans.scale, fields,
                 {rater: int(jfailed[:, r].sum()) for r, rater in enumerate(judges.raters)})


def join_panels(panels: Sequence[Panel]) -> Panel:
    """Put the judges of several panels (same humans, same items) side by side."""
    first = panels[0]
    judges: list[str] = []
    for p in panels:
        for j in p.judges:
            if j in judges:
                raise InputError(f"judge {j!r} appears in two judge files")
            judges.append(j)
    fields = dict(first.fields)
    failed: dict[str, int] = {}
    for p in panels:
        for name, values in p.fields.items():
            fields.setdefault(name, values)
        failed.update(p.judge_failed)
    return Panel(first.items, first.humans, tuple(judges), first.human_scores,
                 np.column_stack([p.judge_scores for p in panels]), first.scale, fields, failed)


InputFormat = Literal["long", "alttest", "mrmath", "processbench"]
TableFormat = Literal["long", "alttest", "judgments"]


def read_table(path: str | os.PathLike[str], *, format: TableFormat, scale: Scale | None = None,
               id_fields: Sequence[str] = (), id_sep: str = "__", item_field: str = "item",
               rater_field: str = "rater", score_field: str = "score") -> Ratings:
    """Read one score file in ``format``: ``long`` / ``judgments`` rows (``read_long``) or ``alttest`` JSON.

    ``judgments`` is the ``judgments.jsonl`` that ``reasonjudge judge`` writes: item = ``id``,
    rater = ``judge``, score = ``score_field``.
    """
    if format == "alttest":
        return read_alttest(path, scale=scale, id_fields=id_fields, id_sep=id_sep)
    if format == "judgments":
        item_field, rater_field = "id", "judge"
    return read_long(path, scale=scale, item_field=item_field, rater_field=rater_field, score_field=score_field)


def load_panel(human: str | os.PathLike[str], judges: Sequence[str | os.PathLike[str]], *,
               format: InputFormat = "long", scale: Scale | None = None, id_fields: Sequence[str] = (),
               id_sep: str = "__", item_field: str = "item", rater_field: str = "rater",
               score_field: str = "score", human_raters: Sequence[str] | None = None,
               judge_raters: Sequence[str] | None = None,
               judge_format: TableFormat | None = None) -> Panel:
    """Read the human file and the judge file(s) in ``format`` and align them (see the module docstring).

    ``long``: both long format. ``alttest``: both ``{rater: {item: score}}``. ``mrmath``: the
    MR-MATH gold file and LLM verdict files. ``processbench``: ProcessBench's labelled JSON and
    long-format predictions (first-error indices). ``human_raters`` / ``judge_raters`` keep only
    those raters; a name not in the files is an ``InputError``. ``judge_format`` reads the
    judge files in another layout than the human file (e.g. alt-test humans, long-format judge
    scores written by ``reasonjudge calibrate apply``); ``judgments`` reads the
    ``judgments.jsonl`` that ``reasonjudge judge`` writes (item = ``id``, rater = ``judge``,
    score = ``score`` or ``score_field``; a row with ``error`` is a failed judgement).
    """
    if not judges:
        raise InputError("no judge file given")
    if format == "mrmath":
        humans, mr_judges = read_mrmath(human, judges)
        judge_files = [mr_judges] if mr_judges is not None else []
    else:
        def read(path: str | os.PathLike[str], fmt: TableFormat, file_scale: Scale | None) -> Ratings:
            return read_table(path, format=fmt, scale=file_scale, id_fields=id_fields, id_sep=id_sep,
                              item_field=item_field, rater_field=rater_field, score_field=score_field)

        humans = read_processbench(human) if format == "processbench" else read(human, format, scale)
        jf = judge_format or ("alttest" if format == "alttest" else "long")
        judge_files = [read(j, jf, humans.scale) for j in judges]
    if human_raters:
        humans = humans.select(list(dict.fromkeys(human_raters)))
    if judge_raters:
        wanted = list(dict.fromkeys(judge_raters))
        known = {r for j in judge_files for r in j.raters}
        unknown = [w for w in wanted if w not in known]
        if unknown:
            raise InputError(f"unknown judge rater(s) {unknown}; the judge file(s) have {sorted(known)}",
                             path=", ".join(os.fspath(j) for j in judges))
        judge_files = [j.select([r for r in wanted if r in j.raters]) for j in judge_files]
        judge_files = [j for j in judge_files if j.raters]
    return join_panels([make_panel(humans, j) for j in judge_files])
