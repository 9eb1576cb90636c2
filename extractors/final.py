"""Where a response states its final answer: the spans that follow answer markers.

A *marker* is a phrase after which a response states its answer: ``\\boxed{...}``,
``<answer>...</answer>``, an ``Answer:`` / ``Final answer:`` label (bold or not), "the
(correct|final|best) answer/option/choice is", a self-correction ("Wait, actually"),
"I choose", "option C is correct", and the Chinese 答案是 / 答案为 / 正确答案是 / 故选.

:func:`strong_candidates` yields the span after each marker, **last first**: a response's
final statement is its answer, so a later marker overrides an earlier one (that is how a
self-correction wins), and a span that holds no value of the asked type is skipped for the
one before it. The type parsers decide whether a span holds a value; this module only
says where to look. Weaker evidence (a bare last line, a concluding sentence, a leading
letter) lives in :mod:`extractors.extract` and is used only when no marker yields a value.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

# How far from the end the first, cheap scan looks. Final answers sit at the end of
# almost every response, so most responses never need a scan of their beginning.
TAIL = 700
_SPAN_MAX = 240

_LETTER = r"(?-i:[A-Z])"

_STRONG = re.compile(
    "|".join([
        # \boxed{...} / \fbox{...}: the span is the brace-balanced content.
        r"(?P<boxed>\\(?:boxed|fbox)\s*\{)",
        r"(?P<tag><answer>)",
        # "Answer:", "**Answer:**", "Final Answer:", "Answer (A-J):", "答案：".
        r"(?P<label>\b(?:final\s+answer|correct\s+answer|final\s+choice|correct\s+option|correct\s+choice"
        r"|answer)\b(?-i:[ \t]*\([^)\n]{0,30}\))?[ \t*_]*[:：])",
        # "the (correct|final|...) answer/option/choice (to the question) is (therefore):"
        r"(?P<is>\b(?:(?:final|correct|right|best|only|most\s+(?:likely|appropriate|suitable|accurate"
        r"|reasonable|plausible))\s+)?(?:answer|option|choice|order|ordering|sequence)(?:\s+(?:to|for)\s+(?:the|this)\s+"
        r"(?:question|problem))?\s+(?:is|would\s+be|should\s+be|will\s+be|must\s+be|seems\s+to\s+be"
        r"|appears\s+to\s+be|=)(?:\s+(?:therefore|thus|then|clearly|indeed|likely|probably))?"
        r"(?:\s+(?:option|choice))?\b[ \t*_]*[:：]?)",
        # A self-correction restates the answer: "..., so B. Wait, actually C."
        r"(?P<fix>\b(?:wait|actually|correction|on\s+second\s+thought|on\s+reflection)\b"
        r"[\s,:;—–-]*(?:(?:no|actually|wait|sorry)\b[\s,:;—–-]*)*"
        r"(?:(?:it\s+is|it's|it\s+should\s+be|the\s+answer\s+is|i\s+mean)\s+)?)",
        # "I choose B", "I would go with option C", "we select option D".
        r"(?P<pick>\b(?:i|we)\s+(?:would\s+|will\s+|'d\s+|should\s+)?(?:choose|select|pick|go\s+with)"
        r"\s+(?:option\s+|choice\s+|answer\s+)?)",
        # "option C is correct", "C is the correct answer": the letter is inside the marker.
        r"(?P<optis>\b(?:option|choice)\s*\(?(?P<L1>" + _LETTER + r")\)?\s+(?:is|would\s+be|seems\s+to\s+be"
        r"|appears\s+to\s+be)\s+(?:the\s+)?(?:correct|right|best|most\s+(?:likely|appropriate|suitable|accurate)))",
        r"(?P<isans>(?<![\w(])\(?(?P<L2>" + _LETTER + r")\)?\s+is\s+(?:the\s+)?(?:correct|right|best)\s+"
        r"(?:answer|option|choice))",
        # Chinese: 正确答案是 C, 答案为, 最终答案：, 故选 C, 所以选择 B.
        r"(?P<zh>(?:最终|正确|最后的)?答案(?:应该|应当|应|就)?(?:是|为|選|选|:|：)[:：]?"
        r"|(?:故|所以|因此|因而|则|应|应该)选(?:择|项)?[:：]?)",
    ]),
    re.IGNORECASE,
)

_METHODS = {
    "boxed": "boxed", "tag": "answer_tag", "label": "answer_label", "is": "answer_is",
    "fix": "self_correction", "pick": "i_choose", "optis": "option_is_correct",
    "isans": "option_is_correct", "zh": "answer_zh",
}
# Markers after which the answer token must end its clause: "Actually, A is smaller"
# does not state A as the answer, "Wait, actually C." does.
TIGHT = frozenset({"self_correction", "i_choose"})

_BLANK_REST = re.compile(r"[\s*_$:：\\\[\](){}]*(?:\\text\{|\\boxed\{)?[\s*_$]*$")


@dataclass(frozen=True, slots=True)
class Candidate:
    """The span after one marker: ``text[start:end]`` should open with the answer."""

    start: int
    end: int
    method: str
    marker_start: int
    letter: str | None = None   # set when the marker itself names the option

    @property
    def tight(self) -> bool:
        return self.method in TIGHT


def strong_candidates(text: str) -> Iterator[Candidate]:
    """Yield the span after every answer marker in ``text``, the last one first."""
    n = len(text)
    cut = max(0, n - TAIL)
    tail = list(_STRONG.finditer(text, cut))
    for m in reversed(tail):
        yield _candidate(text, m)
    if cut:
        # Matches that begin before the cut (the tail scan cannot see their start).
        head = [m for m in _STRONG.finditer(text, 0, min(n, cut + 80)) if m.start() < cut]
        for m in reversed(head):
            yield _candidate(text, m)


def _candidate(text: str, m: re.Match[str]) -> Candidate:
    kind = m.lastgroup
    if kind in ("L1", "L2"):  # lastgroup reports the inner group for letter markers
        kind = "optis" if m.group("optis") else "isans"
    method = _METHODS[kind]
    start = m.end()
    if kind == "boxed":
        return Candidate(start, _brace_end(text, start), method, m.start())
    if kind == "tag":
        close = text.find("</answer>", start)
        return Candidate(start, close if close >= 0 else min(len(text), start + _SPAN_MAX), method, m.start())
    if kind in ("optis", "isans"):
        g = "L1" if kind == "optis" else "L2"
        return Candidate(m.start(g), m.end(g), method, m.start(), letter=m.group(g))
    return Candidate(start, span_end(text, start), method, m.start())


def _brace_end(text: str, start: int) -> int:
    depth = 1
    i = start
    n = min(len(text), start + 4 * _SPAN_MAX)
    while i < n:
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
        elif c == "\\" and i + 1 < n:
            i += 1  # \{ and \} are literal braces
        i += 1
    return n


def span_end(text: str, start: int) -> int:
    """Return where the answer span opened at ``start`` ends: the end of its line.

    When the rest of the line is empty or only markup ("The answer is:" then the answer
    on the next line, or ``\\[`` then ``\\text{Answer: J}``), the span runs on to the end
    of the next non-empty line.
    """
    n = len(text)
    nl = text.find("\n", start, start + _SPAN_MAX)
    if nl < 0:
        return min(n, start + _SPAN_MAX)
    if not _BLANK_REST.match(text, start, nl):
        return nl
    # Answer on a following line: take up to two more non-empty lines.
    pos = nl
    for _ in range(3):
        nxt = text.find("\n", pos + 1, pos + 1 + _SPAN_MAX)
        line_end = n if nxt < 0 else nxt
        if text[pos + 1:line_end].strip() and not _BLANK_REST.match(text, pos + 1, line_end):
            return line_end
        if nxt < 0:
            return n
        pos = nxt
    return pos
