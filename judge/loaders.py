"""Load benchmark files (with or without model responses) into ``BenchmarkItem``.

Three formats:

- ``ocr-reasoning``: VLMEvalKit's native columns (``index, question, answer,
  answer_option, choices, question_type, answer_type, task, reasoning, language,
  format`` and the model output ``prediction``) as ``.tsv``, ``.xlsx`` or ``.jsonl``;
- ``map``: OmniMapBench-style map questions (``id, image, question, choices, answer,
  question_type: single_choice | multiple_choice | ordering, level: L1-L3,
  category`` (one of the nine), ``language``, optional ``response``);
- ``generic``: our own JSONL (``id, question, choices, gold | answer, answer_type,
  response, reference, ...``), the same rows ``reasonjudge extract/score`` read.

Every record is validated before any work starts; a bad one raises ``InputError``
naming the file, the line and the field. Gold answers are normalised once here
(``extractors.normalise_gold``), so an unusable gold fails now, not after an hour of
LLM calls.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from extractors import normalise_gold
from extractors.types import ANSWER_TYPES
from judge.errors import InputError
from judge.io import read_records
from judge.items import MAP_CATEGORIES, BenchmarkItem, PredictedItem
from judge.ocr_reasoning import ability_of_task, answer_type_from_format, canonical_ability, parse_choices

Benchmark = Literal["ocr-reasoning", "map", "generic"]
BENCHMARKS: tuple[str, ...] = ("ocr-reasoning", "map", "generic")

_MAP_QTYPES = {
    "single_choice": "choice", "single": "choice", "choice": "choice",
    "multiple_choice": "multi_choice", "multi_choice": "multi_choice", "multiple": "multi_choice",
    "ordering": "ordering", "order": "ordering", "sequence": "ordering",
}
_CATEGORY_KEYS = {re.sub(r"[^a-z]", "", c.casefold()): c for c in MAP_CATEGORIES}


def _blank(v: Any) -> bool:
    return v is None or (isinstance(v, float) and v != v) or (isinstance(v, str) and not v.strip())


def _text(v: Any) -> str | None:
    if _blank(v):
        return None
    if isinstance(v, float) and v.is_integer():
        v = int(v)  # a spreadsheet turns id 17 into 17.0
    return str(v)


class _Record:
    """One raw record with its location, for error messages."""

    def __init__(self, path: Path, line: int, data: dict[str, Any]) -> None:
        self.path, self.line, self.data = path, line, data

    def error(self, field: str | None, problem: str) -> InputError:
        return InputError(problem, path=str(self.path), line=self.line, field=field)

    def get(self, *names: str) -> Any:
        for n in names:
            if n in self.data and not _blank(self.data[n]):
                return self.data[n]
        return None

    def require(self, *names: str) -> Any:
        v = self.get(*names)
        if v is None:
            raise self.error(names[0], "required")
        return v

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"

    def choices(self, raw: Any) -> list[str] | None:
        """Parse a ``choices`` value of this record (None when empty)."""
        try:
            return parse_choices(raw)
        except ValueError as e:
            raise self.error("choices", str(e)) from e

    def extra(self, known: set[str]) -> dict[str, Any]:
        """The record's other non-blank fields, kept on the item so that nothing is lost."""
        return {k: v for k, v in self.data.items() if k not in known and not _blank(v)}


def _letters(raw: Any) -> list[str]:
    """Split a gold letter list: ["A","C"], "A,C", "[B,D,C]", "A C", "ACD"."""
    if isinstance(raw, (list, tuple)):
        parts = [str(x) for x in raw]
    else:
        s = str(raw).strip().strip("[]()")
        parts = re.split(r"[\s,;，、]+", s) if re.search(r"[\s,;，、]", s) else list(s)
    letters = [p.strip().strip("'\"").upper() for p in parts if p.strip().strip("'\"")]
    for x in letters:
        if not re.fullmatch(r"[A-Z]", x):
            raise ValueError(f"{x!r} is not an option letter")
    return letters


def _build(rec: _Record, kwargs: dict[str, Any]) -> BenchmarkItem:
    """Check that the gold answer normalises, then validate the item."""
    gold = kwargs.get("gold")
    if gold is not None:
        try:
            normalise_gold(gold, kwargs["answer_type"], choices=kwargs.get("choices"))
        except ValueError as e:
            raise rec.error("answer" if "answer" in rec.data else "gold", f"cannot normalise gold answer: {e}") from e
    try:
        return BenchmarkItem(source=rec.where, **kwargs)
    except ValidationError as e:
        err = e.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or None
        raise rec.error(field, err["msg"]) from e


def _ocr_item(rec: _Record) -> BenchmarkItem:
    item_id = _text(rec.require("index", "id"))
    qtype = _text(rec.get("question_type")) or "free_form"
    if qtype not in ("multi_choice", "free_form"):
        raise rec.error("question_type", f"must be multi_choice or free_form, got {qtype!r}")
    choices = rec.choices(rec.get("choices"))
    fmt = _text(rec.get("format"))
    answer = _text(rec.get("answer"))
    if qtype == "multi_choice":
        gold = _text(rec.get("answer_option")) or answer
        if gold is None:
            raise rec.error("answer_option", "required for a multi_choice question")
        if not choices:
            raise rec.error("choices", "required for a multi_choice question")
        gold = gold.strip().strip("()").upper()
    else:
        gold = answer
        if gold is None:
            raise rec.error("answer", "required")
    native_type = _text(rec.get("answer_type"))
    answer_type = answer_type_from_format(fmt, native_type, question_type=qtype, answer=answer)
    task = _text(rec.get("task"))
    ability = canonical_ability(_text(rec.get("ability"))) or ability_of_task(task)
    kwargs = dict(
        id=item_id, question=_text(rec.get("question")) or "", choices=choices, gold=gold,
        answer_type=answer_type, question_type=qtype, format_hint=fmt,
        reference=_text(rec.get("reasoning")), ability=ability, task=task,
        language=_text(rec.get("language")), image=_text(rec.get("image_path")),
        extra={**rec.extra(_OCR_FIELDS),
               # the checker of the official evaluation branches on this column; keep it for --mode official
               **({"native_answer_type": native_type} if native_type in ("integer", "float", "other") else {})},
    )
    return _build(rec, kwargs)


_OCR_FIELDS = {"index", "id", "question", "answer", "answer_option", "choices", "question_type",
               "answer_type", "task", "reasoning", "language", "format", "prediction", "response",
               "ability", "image_path", "image"}


def _map_item(rec: _Record) -> BenchmarkItem:
    item_id = _text(rec.require("id", "index"))
    raw_type = str(rec.require("question_type")).strip().lower()
    answer_type = _MAP_QTYPES.get(raw_type)
    if answer_type is None:
        raise rec.error("question_type", f"must be single_choice, multiple_choice or ordering, got {raw_type!r}")
    choices = rec.choices(rec.require("choices"))
    if not choices:
        raise rec.error("choices", "required: map questions are answered with option letters")
    raw_gold = rec.require("answer", "gold")
    try:
        letters = _letters(raw_gold)
    except ValueError as e:
        raise rec.error("answer", str(e)) from e
    if answer_type == "choice":
        if len(letters) != 1:
            raise rec.error("answer", f"a single_choice answer is one letter, got {raw_gold!r}")
        gold: str | list[str] = letters[0]
    else:
        gold = letters
    level = _text(rec.get("level"))
    if level is not None:
        level = level.upper()
        if level in {"1", "2", "3"}:
            level = "L" + level
        if level not in {"L1", "L2", "L3"}:
            raise rec.error("level", f"must be L1, L2 or L3, got {level!r}")
    category = _text(rec.get("category"))
    if category is not None:
        canon = _CATEGORY_KEYS.get(re.sub(r"[^a-z]", "", category.casefold()))
        if canon is None:
            raise rec.error("category", f"{category!r} is not one of the nine map categories: {', '.join(MAP_CATEGORIES)}")
        category = canon
    image = _text(rec.get("image"))
    if image is not None and not Path(image).is_absolute():
        image = str((rec.path.parent / image).resolve())
    kwargs = dict(
        id=item_id, question=str(rec.require("question")), choices=choices, gold=gold,
        answer_type=answer_type, question_type="multi_choice", level=level, category=category,
        language=_text(rec.get("language")), image=image,
        extra=rec.extra(_MAP_FIELDS),
    )
    return _build(rec, kwargs)


_MAP_FIELDS = {"id", "index", "question_type", "choices", "answer", "gold", "level", "category",
               "language", "image", "question", "response", "prediction", "model"}


def _generic_item(rec: _Record) -> BenchmarkItem:
    item_id = _text(rec.require("id"))
    answer_type = _text(rec.get("answer_type")) or "text"
    if answer_type not in ANSWER_TYPES:
        raise rec.error("answer_type", f"must be one of {', '.join(ANSWER_TYPES)}, got {answer_type!r}")
    choices = rec.choices(rec.get("choices"))
    if answer_type in ("choice", "multi_choice", "ordering") and not choices:
        raise rec.error("choices", f"required for answer_type {answer_type}")
    raw_gold = rec.get("gold", "answer")
    gold: str | list[str] | None
    if raw_gold is None:
        gold = None
    elif answer_type in ("multi_choice", "ordering"):
        try:
            gold = _letters(raw_gold)
        except ValueError as e:
            raise rec.error("gold", str(e)) from e
    elif isinstance(raw_gold, (list, dict)):
        raise rec.error("gold", f"must be a string for answer_type {answer_type}")
    else:
        gold = _text(raw_gold)
    level = _text(rec.get("level"))
    kwargs = dict(
        id=item_id, question=_text(rec.get("question")) or "", choices=choices, gold=gold,
        answer_type=answer_type,
        question_type="multi_choice" if answer_type in ("choice", "multi_choice", "ordering") else "free_form",
        format_hint=_text(rec.get("format_hint", "format")), reference=_text(rec.get("reference", "reasoning")),
        ability=_text(rec.get("ability")), task=_text(rec.get("task")),
        level=level.upper() if level else None, category=_text(rec.get("category")),
        language=_text(rec.get("language")), image=_text(rec.get("image")),
        extra=rec.extra(_GENERIC_FIELDS),
    )
    return _build(rec, kwargs)


_GENERIC_FIELDS = {"id", "answer_type", "choices", "gold", "answer", "question", "format_hint", "format",
                   "reference", "reasoning", "ability", "task", "level", "category", "language", "image",
                   "response", "prediction", "model"}

_PARSERS = {"ocr-reasoning": _ocr_item, "map": _map_item, "generic": _generic_item}


def _records(path: str | Path) -> Iterable[_Record]:
    p = Path(path)
    for line, data in read_records(p):
        yield _Record(p, line, data)


def load_rows(path: str | Path, benchmark: Benchmark, *,
              require_response: bool = True) -> list[tuple[dict[str, Any], PredictedItem]]:
    """Load a benchmark file: each raw record with its validated ``PredictedItem``.

    The response is read from ``prediction`` (VLMEvalKit) or ``response``. Ids must be
    unique. With ``require_response`` a record without a response is an input error.
    The raw record is returned too, so commands can write each row back with what
    they add, losing nothing.
    """
    if benchmark not in _PARSERS:
        raise InputError(f"unknown benchmark {benchmark!r} (use one of {', '.join(BENCHMARKS)})")
    parse = _PARSERS[benchmark]
    out: list[tuple[dict[str, Any], PredictedItem]] = []
    seen: dict[str, str] = {}
    for rec in _records(path):
        item = parse(rec)
        if item.id in seen:
            raise rec.error("index" if benchmark == "ocr-reasoning" else "id",
                            f"duplicate id {item.id!r} (first at {seen[item.id]})")
        seen[item.id] = rec.where
        response = rec.get("prediction", "response")
        if response is None and require_response:
            raise rec.error("prediction" if benchmark == "ocr-reasoning" else "response", "required")
        out.append((rec.data, PredictedItem(item=item, response=None if response is None else str(response),
                                            model=_text(rec.get("model")))))
    if not out:
        raise InputError("no records", path=str(path))
    return out


def load_predicted_items(path: str | Path, benchmark: Benchmark, *,
                         require_response: bool = True) -> list[PredictedItem]:
    """Load a benchmark file whose records carry the model's output (see ``load_rows``)."""
    return [p for _, p in load_rows(path, benchmark, require_response=require_response)]


def load_items(path: str | Path, benchmark: Benchmark) -> list[BenchmarkItem]:
    """Load benchmark items; any response fields are ignored."""
    return [p.item for p in load_predicted_items(path, benchmark, require_response=False)]
