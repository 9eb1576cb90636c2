"""OCR-Reasoning's vocabulary: its taxonomy, its format hints, its native record.

The benchmark's evaluation code is a fork of VLMEvalKit
(``vlmeval/dataset/utils/ocr_reasoning.py``); its prediction files carry the columns
``index, question, answer, answer_option, choices, question_type (multi_choice |
free_form), answer_type (integer | float | other), task, reasoning, language, format``
and the model output ``prediction``. ``OcrR_acc`` breaks results down by ``task``.
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

from extractors.types import ANSWER_TYPES, AnswerType

#: Abilities and their tasks, from the benchmark's taxonomy figure (paper Fig. 4,
#: repository assets/ocr_reasoning.png); shares are of the 1,069 questions.
OCR_TAXONOMY: dict[str, tuple[str, ...]] = {
    "Spatial Reasoning": ("Route Reasoning", "Layout Reasoning", "Relation Extraction"),
    "Numerical Analysis Reasoning": (
        "Quantitative Analysis", "Financial Analysis", "Candlestick Analysis",
        "Schedule Analysis", "Statistical Analysis",
    ),
    "Mathematical Reasoning": ("Function Problems", "Geometry Problems", "Mathematical Statistics Problems"),
    "Enumerative Reasoning": ("Text Counting", "Conditional Counting"),
    "Logical Reasoning": ("IQ Test", "Game-theoretic Logic", "Commonsense Reasoning"),
    "Multidisciplinary Knowledge Reasoning": ("Physics Problems", "Chemistry Problems"),
}

_TASK_TO_ABILITY = {t.casefold(): a for a, tasks in OCR_TAXONOMY.items() for t in tasks}


def _key(name: str) -> str:
    return re.sub(r"[^a-z]", "", name.casefold())


# "Numerical Analysis", "numerical_analysis", "Numerical Analysis Reasoning" all name one ability.
_ABILITY_KEYS = {}
for _a in OCR_TAXONOMY:
    _ABILITY_KEYS[_key(_a)] = _a
    _ABILITY_KEYS[_key(_a.removesuffix(" Reasoning"))] = _a


def canonical_ability(name: str | None) -> str | None:
    """Return the canonical ability name for an ability spelling, or None if unknown."""
    if not name:
        return None
    return _ABILITY_KEYS.get(_key(name))


def ability_of_task(task: str | None) -> str | None:
    """Return the ability a task belongs to (a task column may also hold an ability)."""
    if not task:
        return None
    return _TASK_TO_ABILITY.get(task.strip().casefold()) or canonical_ability(task)


def parse_choices(raw: Any) -> list[str] | None:
    """Parse a ``choices`` field: a list, a JSON list, or a Python-literal list string.

    Never ``eval``: Python literals go through ``ast.literal_eval``, which evaluates
    literals only. Empty values give None. Raises ValueError naming the problem.
    """
    if raw is None:
        return None
    if isinstance(raw, float) and raw != raw:  # NaN from a spreadsheet cell
        return None
    if isinstance(raw, (list, tuple)):
        return [str(c) for c in raw]
    if not isinstance(raw, str):
        raise ValueError(f"expected a list of option texts, got {type(raw).__name__}")
    text = raw.strip()
    if not text or text.lower() in {"nan", "none", "null", "[]"}:
        return None
    for parse in (json.loads, ast.literal_eval):
        try:
            value = parse(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        if isinstance(value, (list, tuple)) and all(isinstance(v, (str, int, float)) for v in value):
            return [str(v) for v in value]
        if isinstance(value, dict):  # {"A": "...", "B": "..."} as VLMEvalKit MCQ files have
            return [str(value[k]) for k in sorted(value)]
    raise ValueError(f"cannot parse as a list of options: {text[:80]!r}")


_DURATION_UNITS = re.compile(
    r"\b(day|days|hour|hours|minute|minutes|min|mins|second|seconds|week|weeks|month|months|year|years)\b"
    r"|天|小时|分钟|秒|周|月|年",
    re.IGNORECASE,
)
_TIME_HINT = re.compile(r"\bhh\s*:\s*mm|\btime\b|\bclock\b|时刻|时间点|\d{1,2}:\d{2}", re.IGNORECASE)
_CURRENCY_HINT = re.compile(r"[$€£¥₹]|\b(usd|eur|gbp|rmb|cny|jpy|dollars?|yuan)\b|元", re.IGNORECASE)
_PERCENT_HINT = re.compile(r"%|percent|percentage|百分", re.IGNORECASE)


def answer_type_from_format(fmt: str | None, native: str | None, *, question_type: str | None,
                            answer: str | None = None) -> AnswerType:
    """Choose our answer type from OCR-Reasoning's ``answer_type`` and ``format`` hint.

    The native ``answer_type`` is only ``integer | float | other``; the format hint
    ("$ + Integer", "Integer + %", "HH:MM", "Integer + days") says what the number is.
    A value that is already one of our answer types is taken as it is.
    """
    if native in ANSWER_TYPES and native not in ("integer", "float", "text"):
        return native  # type: ignore[return-value]
    if question_type == "multi_choice":
        return "choice"
    f = fmt or ""
    if f:
        if _PERCENT_HINT.search(f):
            return "percent"
        if _CURRENCY_HINT.search(f):
            return "currency"
        if _TIME_HINT.search(f):
            return "time"
        if _DURATION_UNITS.search(f):
            return "duration"
    if native == "integer":
        return "integer"
    if native == "float":
        return "float"
    if native in ("text", "other", None, ""):
        gold = (answer or "").strip().casefold()
        if gold in {"yes", "no", "是", "否"}:
            return "yes_no"
        if "integer" in f.casefold() or "整数" in f:
            return "integer"
        if "float" in f.casefold() or "decimal" in f.casefold() or "小数" in f:
            return "float"
    return "text"
