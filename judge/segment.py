"""Split a response or a reference trajectory into numbered steps.

The judge and the report refer to steps by number, so both sides must agree on what
"step 3" is: the prompt shows the steps as this module numbers them. Strategies, tried in
order, the first that finds at least two steps wins (or one marker that opens the text):

1. ``marked``: explicit step markers at the start of a line -- ``step1:``, ``Step 2.``,
   ``**Step 3:**``, ``### Step 4``, ``步骤5：``, ``第6步`` (OCR-Reasoning's references use
   ``step1: ... stepN: ...``);
2. ``numbered``: a numbered list at line starts (``1.``, ``2)``, ``(3)``), keeping only
   the markers that continue the sequence 1, 2, 3, ..., so a nested list that restarts at
   1 stays inside its parent step;
3. ``paragraphs``: blocks separated by blank lines;
4. ``lines``: non-blank lines;
5. ``sentences``: sentence ends (``. ! ? 。 ！ ？``) followed by white space (``. ! ?``)
   or by anything (the full-width marks), so the point of ``3.24`` never splits.

Text before the first marker (a preamble such as "Let's solve it step by step.") is kept
in step 1, so no text is lost. A text with no split point is one step; an empty text has
none.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, ConfigDict

SegmentMethod = Literal["marked", "numbered", "paragraphs", "lines", "sentences", "single", "empty"]

_MARKED = re.compile(
    r"^[ \t>*#_\-]*(?:(?:step|步骤)\s*(\d{1,3})|第\s*(\d{1,3})\s*步)\s*(?:[:：.)\]\-–—]|\*\*|$|\s)",
    re.IGNORECASE | re.MULTILINE,
)
_NUMBERED = re.compile(r"^[ \t>]*(?:\*\*)?(?:(\d{1,3})[.)](?!\d)|\((\d{1,3})\))[ \t]*(?=\S)", re.MULTILINE)
_PARAGRAPH = re.compile(r"\n[ \t]*\n\s*")
_LINE = re.compile(r"\n\s*")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)|(?<=[。！？])\s*(?=\S)")


class Step(BaseModel):
    """One step: its number (1-based), its text, and where it sits in the source text."""

    model_config = ConfigDict(frozen=True)

    number: int
    text: str
    start: int
    end: int


class Segmentation(BaseModel):
    """The steps of a text and the strategy that found them."""

    model_config = ConfigDict(frozen=True)

    steps: list[Step]
    method: SegmentMethod

    def __len__(self) -> int:
        return len(self.steps)


def _from_starts(text: str, starts: list[int]) -> list[Step]:
    bounds = [0, *starts[1:], len(text)]  # the preamble joins step 1
    steps = []
    for i in range(len(bounds) - 1):
        a, b = bounds[i], bounds[i + 1]
        chunk = text[a:b]
        lead = len(chunk) - len(chunk.lstrip())
        stripped = chunk.strip()
        if stripped:
            steps.append(Step(number=len(steps) + 1, text=stripped, start=a + lead, end=a + lead + len(stripped)))
    return steps


def _sequential_starts(pattern: re.Pattern[str], text: str) -> list[int]:
    starts: list[int] = []
    expected = None
    for m in pattern.finditer(text):
        n = int(next(g for g in m.groups() if g is not None))
        if expected is None:
            if n not in (0, 1):
                continue
            expected = n
        if n == expected:
            starts.append(m.start())
            expected += 1
    return starts


def _marked_starts(text: str) -> list[int]:
    return [m.start() for m in _MARKED.finditer(text)]


def _split_starts(pattern: re.Pattern[str], text: str) -> list[int]:
    return [0, *(m.end() for m in pattern.finditer(text))]


def segment_steps(text: str | None) -> Segmentation:
    """Split ``text`` into numbered steps with the first strategy that finds two or more.

    >>> [s.text for s in segment_steps("step1: read 6.25.\\nstep2: add 6.99.").steps]
    ['step1: read 6.25.', 'step2: add 6.99.']
    """
    text = text or ""
    stripped = text.strip()
    if not stripped:
        return Segmentation(steps=[], method="empty")
    marks = _marked_starts(text)
    if len(marks) == 1 and not text[: marks[0]].strip():
        # One annotated step ("step1: ... The final answer is: 20") is one step, not lines.
        return Segmentation(steps=_from_starts(text, marks), method="marked")
    offset = len(text) - len(text.lstrip())
    # Each strategy's split points are computed only when the ones before it found no steps.
    strategies: tuple[tuple[SegmentMethod, str, Callable[[], list[int]]], ...] = (
        ("marked", text, lambda: marks),
        ("numbered", text, lambda: _sequential_starts(_NUMBERED, text)),
        ("paragraphs", text, lambda: _split_starts(_PARAGRAPH, text)),
        ("lines", stripped, lambda: _split_starts(_LINE, stripped)),
        ("sentences", stripped, lambda: _split_starts(_SENTENCE_END, stripped)),
    )
    for method, src, split_points in strategies:
        starts = split_points()
        if len(starts) < 2:
            continue
        steps = _from_starts(src, starts)
        if len(steps) >= 2:
            if src is stripped and offset:
                steps = [s.model_copy(update={"start": s.start + offset, "end": s.end + offset}) for s in steps]
            return Segmentation(steps=steps, method=method)
    return Segmentation(steps=[Step(number=1, text=stripped, start=offset, end=offset + len(stripped))], method="single")
