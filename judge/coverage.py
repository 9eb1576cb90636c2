"""The reference-coverage scorer: a deterministic, no-LLM grade of a response against the
reference trajectory. It is NOT an LLM judge and every row it makes says so.

What it measures: which of the reference's steps have their key facts stated in the
response, in the reference's order.

1. The reference is split into steps (``judge.segment``); the step marker (``step2:``)
   is dropped. A step's key facts are its numbers (``6.25``, ``1,234`` -> 1234, ``15%``
   -> 15) and its names (capitalised words inside a sentence that are not common
   English words, e.g. ``Arcadio``, ``Rebeca``); each counted once per step. Steps without facts are not scored.
2. A number in the response matches a reference number when it equals it after rounding
   to the reference's decimals (``17.990`` and ``17.99`` match; ``3.2`` and ``3.24`` do
   not). A name matches as a whole word, ignoring case.
3. Steps are taken in order with a cursor in the response: a step is covered when at
   least half of its facts occur at or after the cursor; the cursor then moves to the
   earliest of those matches, so the next step's evidence must not come earlier.
4. ``score`` = covered steps / scored steps, in [0, 1]. ``coverage_any`` is the same
   share ignoring order, for comparison.

What it does not do: check that a step is valid, locate errors, or understand a route
different from the reference's. ``benchmarks/coverage_separation.py`` measures how well it
separates correct from flawed chains; read that before trusting it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from judge.items import PredictedItem
from judge.segment import segment_steps

REFERENCE_COVERAGE = "reference-coverage"
COVERAGE_VERSION = 1
NOTE = "deterministic reference-coverage scorer (numbers and names of the reference's steps found in the response, in order); not an LLM judge"

_NUMBER = re.compile(r"(?<![\w.])[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\d])")
_NAME = re.compile(r"\b[A-Z][A-Za-z'’\-]+\b")
_STEP_MARK = re.compile(r"^\s*(?:[*#>\-\s]*)(?:step\s*\d+|第\s*\d+\s*步|步骤\s*\d+|\d+[.)])\s*[:：.)\-]?\s*",
                        re.IGNORECASE)
_COMMON = frozenset("""
a about above after again against all also an and any are as at be because been before being below
between both but by can could did do does doing down during each few for from further had has have
having he her here hers him his how i if in into is it its just let lets let's me more most my no nor
not now of off on once only or other our out over own same she should so some such than that the
their them then there these they this those through to too under until up very was we were what when
where which while who whom why will with would you your yes
step steps first second third next finally final therefore thus hence answer total since note given
however because calculate calculating determine find using use we're it's that's there's here's
option options question image chart table figure graph solution result correct wrong true false
""".split())


class StepCoverage(BaseModel):
    """One reference step: its facts and which of them the response states."""

    model_config = ConfigDict(frozen=True)

    number: int
    facts: list[str]
    found: list[str]
    covered: bool


class Coverage(BaseModel):
    """The coverage of one response against one reference."""

    model_config = ConfigDict(frozen=True)

    score: float | None
    coverage_any: float | None
    steps: list[StepCoverage]
    reason: str | None = None

    @property
    def first_uncovered(self) -> int | None:
        return next((s.number for s in self.steps if not s.covered), None)


def _number_value(text: str) -> tuple[float, int]:
    t = text.replace(",", "").replace("−", "-")
    decimals = len(t.split(".")[1]) if "." in t else 0
    return float(t), decimals


def _facts(step_text: str) -> list[tuple[str, Any]]:
    body = _STEP_MARK.sub("", step_text, count=1)
    facts: list[tuple[str, Any]] = []
    seen: set[Any] = set()
    for m in _NUMBER.finditer(body):
        value, dec = _number_value(m.group(0))
        key = ("num", round(value, dec))
        if key not in seen:
            seen.add(key)
            facts.append(("num", (value, dec, m.group(0))))
    for m in _NAME.finditer(body):
        if re.search(r"(?:^|[.!?:;]\s*|\n\s*)$", body[: m.start()]):
            continue  # a capital that opens a sentence ("Define", "Evaluate") is not a name
        w = m.group(0).strip("'’-")
        key = ("name", w.casefold())
        if len(w) >= 2 and w.casefold() not in _COMMON and key not in seen:
            seen.add(key)
            facts.append(("name", w))
    return facts


class _Index:
    """Positions of every number and word of the response, for cursor searches."""

    def __init__(self, text: str) -> None:
        self.numbers = [(m.start(), *_number_value(m.group(0))) for m in _NUMBER.finditer(text)]
        self.words: dict[str, list[int]] = {}
        for m in re.finditer(r"[A-Za-z][A-Za-z'’\-]*", text):
            self.words.setdefault(m.group(0).strip("'’-").casefold(), []).append(m.start())

    def find(self, fact: tuple[str, Any], cursor: int) -> int | None:
        kind, val = fact
        if kind == "num":
            value, dec, _ = val
            target = round(value, dec)
            for pos, v, _d in self.numbers:
                if pos >= cursor and round(v, dec) == target:
                    return pos
            return None
        return next((p for p in self.words.get(val.casefold(), []) if p >= cursor), None)


def _label(fact: tuple[str, Any]) -> str:
    return fact[1][2] if fact[0] == "num" else fact[1]


def reference_coverage(response: str | None, reference: str | None, *, min_share: float = 0.5) -> Coverage:
    """Return the in-order coverage of ``reference``'s step facts by ``response``.

    >>> c = reference_coverage("Soft drink 6.25 + popcorn 6.99 + candy 4.75 = 17.99; 17.99 - 14.75 = 3.24",
    ...                        "step1: 6.25, 6.99, 4.75\\nstep2: total 17.99, package 14.75\\nstep3: 17.99 - 14.75 = 3.24")
    >>> c.score
    1.0
    """
    if not (response or "").strip():
        return Coverage(score=None, coverage_any=None, steps=[], reason="no response to score")
    ref = segment_steps(reference)
    if not ref.steps:
        return Coverage(score=None, coverage_any=None, steps=[], reason="no reference reasoning")
    idx = _Index(response or "")
    cursor = 0
    steps: list[StepCoverage] = []
    any_hits = 0
    for s in ref.steps:
        facts = _facts(s.text)
        if not facts:
            continue
        hits = [(f, idx.find(f, cursor)) for f in facts]
        found = [(f, p) for f, p in hits if p is not None]
        covered = len(found) >= min_share * len(facts)
        if covered:
            cursor = min(p for _, p in found)
        anywhere = [f for f in facts if idx.find(f, 0) is not None]
        any_hits += len(anywhere) >= min_share * len(facts)
        steps.append(StepCoverage(number=s.number, facts=[_label(f) for f in facts],
                                  found=[_label(f) for f, _ in found], covered=covered))
    if not steps:
        return Coverage(score=None, coverage_any=None, steps=[],
                        reason="the reference states no numbers or names to look for")
    score = sum(s.covered for s in steps) / len(steps)
    return Coverage(score=score, coverage_any=any_hits / len(steps), steps=steps)


def _rationale(c: Coverage) -> str:
    parts = []
    for s in c.steps:
        if s.covered:
            parts.append(f"reference step {s.number} covered ({len(s.found)}/{len(s.facts)} facts)")
        else:
            missing = [f for f in s.facts if f not in s.found]
            parts.append(f"reference step {s.number} not covered in order (missing: {', '.join(missing[:6])})")
    return "; ".join(parts)


def coverage_rows(items: Sequence[PredictedItem]) -> list[dict[str, Any]]:
    """One results row per item, labelled as the reference-coverage scorer's."""
    rows = []
    for pi in items:
        c = reference_coverage(pi.response, pi.item.reference)
        rows.append({
            "id": pi.item.id,
            "ability": pi.item.ability,
            "task": pi.item.task,
            "judge": REFERENCE_COVERAGE,
            "judge_kind": REFERENCE_COVERAGE,
            "note": NOTE,
            "rubric": REFERENCE_COVERAGE,
            "rubric_version": COVERAGE_VERSION,
            "prompt_version": None,
            "sampling": None,
            "scores": None if c.score is None else {"reference_coverage": c.score, "coverage_any_order": c.coverage_any},
            "score": c.score,
            "expected_scores": None,
            "expected_score": None,
            "spread": None,
            "first_error_step": None,
            "first_uncovered_reference_step": c.first_uncovered,
            "rationale": None if c.score is None else {"reference_coverage": _rationale(c)},
            "n_steps": len(segment_steps(pi.response)),
            "samples_ok": None,
            "tokens": {"prompt": 0, "completion": 0},
            "cost_usd": 0.0,
            "error": c.reason,
        })
    return rows
