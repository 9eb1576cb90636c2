"""Parse the free-text verdicts that other tools' judges wrote.

Our own judge returns a validated pydantic verdict; this module is for judge texts that
already exist: MT-Bench / OCR-Reasoning style ratings (``[[7]]``, ``Rating: 7/10``) and
MR-MATH style judgements (``Final Judgement: Wrong`` / ``First Error Step: 3``).

Rules, and why:

- **The last verdict wins.** Judges quote the format before using it ("answer in the
  form [[5]]") and revise themselves; OCR-Reasoning's scorer takes the first ``[[N]]``,
  so a quoted example rating wins there. Here the verdict that closes the text counts.
- **Out of range is rejected, not clipped**, and an earlier in-range rating is *not*
  used instead: a final ``[[11]]`` on a 1-10 scale gives no rating (reason
  ``out_of_range``), because the earlier number may be a quoted example.
- A rating on another scale (``Rating: 4/5`` when the scale is 1-10) is rejected with
  reason ``other_scale`` rather than rescaled.
- No verdict gives ``value=None`` with reason ``no_verdict``; nothing here raises on
  judge text.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict

RatingReason = Literal["no_verdict", "out_of_range", "other_scale"]

_NUM = r"(\d+(?:\.\d+)?)"
_RATING_PATTERNS = (
    # [[7]] (MT-Bench / OCR-Reasoning)
    re.compile(r"\[\[\s*" + _NUM + r"\s*\]\]"),
    # Rating: 7/10, **Score:** 8, "rating of 7", 评分：7
    re.compile(
        r"(?:\b(?:rating|score|grade)\b|评分|得分)\**\s*(?:is|of|=|:|：)?\s*\**\s*"
        + _NUM + r"(?:\s*(?:/|out of)\s*(\d+))?(?![\d.]*\s*\]\])",
        re.IGNORECASE,
    ),
)


class RatingVerdict(BaseModel):
    """A numeric rating found in a judge's text, or why none was accepted."""

    model_config = ConfigDict(frozen=True)

    value: float | None
    reason: RatingReason | None = None
    #: The verbatim span the verdict was read from (also for rejected ones).
    evidence: str | None = None


def parse_rating(text: str | None, *, lo: float = 1, hi: float = 10) -> RatingVerdict:
    """Return the last rating stated in ``text`` if it lies in ``[lo, hi]``.

    >>> parse_rating("Format: [[5]]. ... My verdict: Rating: [[8]]").value
    8.0
    >>> parse_rating("[[11]]").reason
    'out_of_range'
    """
    best: re.Match[str] | None = None
    for pat in _RATING_PATTERNS:
        for m in pat.finditer(text or ""):
            if best is None or m.start() > best.start():
                best = m
    if best is None:
        return RatingVerdict(value=None, reason="no_verdict")
    value = float(best.group(1))
    denom = best.group(2) if best.re.groups >= 2 else None
    if denom is not None and float(denom) != hi:
        return RatingVerdict(value=None, reason="other_scale", evidence=best.group(0))
    if not lo <= value <= hi:
        return RatingVerdict(value=None, reason="out_of_range", evidence=best.group(0))
    return RatingVerdict(value=value, evidence=best.group(0))


JudgementReason = Literal["no_verdict", "unknown_label", "step_out_of_range"]

_JUDGEMENT = re.compile(r"final\s+judge?ment\s*[:：]\s*(.*)", re.IGNORECASE)
_STEPS_LINE = re.compile(r"(?:first\s+error\s+step|neutral\s+steps\s+identified)\s*[:：]\s*(.*)", re.IGNORECASE)
_LABELS = {
    "correct": "correct", "right": "correct", "true": "correct",
    "wrong": "wrong", "incorrect": "wrong", "false": "wrong",
    "present": "present", "absent": "absent",
}
_NONE_STEP = re.compile(r"^\W*(?:n/?a|none|no error|-1)\W*$", re.IGNORECASE)


class JudgementVerdict(BaseModel):
    """An MR-MATH style judgement: a label and the step numbers it names.

    ``raw_label`` and ``raw_steps`` are the verbatim texts after ``Final Judgement:``
    and after ``First Error Step:`` / ``Neutral Steps Identified:`` (stripped), the fields
    ReasonEval stored as ``correctness_pred`` and ``error_step_pred``. ``label`` is the
    normalised label (``correct``, ``wrong``, ``present``, ``absent``) with markdown and
    punctuation removed and ``incorrect`` read as ``wrong``; ``steps`` every step number
    named, in order; ``first_error_step`` the first of them (None for ``N/A``).
    """

    model_config = ConfigDict(frozen=True)

    label: str | None
    raw_label: str | None = None
    steps: list[int] = []
    raw_steps: str | None = None
    reason: JudgementReason | None = None

    @property
    def first_error_step(self) -> int | None:
        return self.steps[0] if self.steps else None


def parse_judgement(text: str | None, *, n_steps: int | None = None) -> JudgementVerdict:
    """Read the last ``Final Judgement:`` line and the step line after it.

    With ``n_steps``, a step number outside ``1..n_steps`` is rejected (reason
    ``step_out_of_range``; the label is kept, the steps dropped).

    >>> v = parse_judgement("Step-by-step Evaluation: ...\\nFinal Judgement: Wrong.\\nFirst Error Step: 3.")
    >>> (v.label, v.raw_label, v.first_error_step)
    ('wrong', 'Wrong.', 3)
    """
    text = text or ""
    judged = list(_JUDGEMENT.finditer(text))
    if not judged:
        return JudgementVerdict(label=None, reason="no_verdict")
    last = judged[-1]
    raw_label = last.group(1).strip()
    word = re.sub(r"[^a-z]+", " ", raw_label.lower()).split()
    label = _LABELS.get(word[0]) if word else None
    step_lines = [m for m in _STEPS_LINE.finditer(text) if m.start() > last.start()]
    raw_steps = step_lines[0].group(1).strip() if step_lines else None
    steps: list[int] = []
    reason: JudgementReason | None = None if label else "unknown_label"
    if raw_steps is not None and not _NONE_STEP.match(raw_steps):
        steps = [int(s) for s in re.findall(r"\d+", raw_steps)]
        if steps and any(s < 1 or (n_steps is not None and s > n_steps) for s in steps):
            steps, reason = [], reason or "step_out_of_range"
    return JudgementVerdict(label=label, raw_label=raw_label, steps=steps, raw_steps=raw_steps, reason=reason)
