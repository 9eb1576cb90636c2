"""Where a response states its final answer: the spans that follow answer markers.

A *marker* is a phrase after which a response states its answer: ``\\boxed{...}``,
``<answer>...</answer>``, an ``Answer:`` / ``Final answer:`` label (bold or not), "the
(correct|final|best) answer/option/choice is", a self-correction ("Wait, actually"),
"I choose", "option C is correct", and the Chinese 答案是 / 答案为 / 正确答案是 / 故选 /
正确选项为 / 等等 (a self-correction). Some markers serve some answer types only
(:data:`ONLY_FOR`): an ordering label ("Order:", "顺序为", "依次经过：") orderings, "options A
and C are correct" multiple choice, and "the order/sequence is" letters, never a number.

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
from functools import lru_cache

_SPAN_MAX = 240

_LETTER = r"(?-i:[A-Z])"
_I = re.IGNORECASE

# Each marker is a regex anchored at a keyword. Finding the keywords is done with
# str.find on the lower-cased text (C speed); one alternation regex scanned over the
# whole text was five times slower, because most of its branches can start at any letter.
_BOXED = re.compile(r"\\(?:boxed|fbox)\s*\{")
_TAG = re.compile(r"<answer>", _I)
# "Answer:", "**Answer:**", "Answer (A-J):", "Correct option: B".
_LABEL = re.compile(r"(?<![A-Za-z])(?:answer|choice|option)(?-i:[ \t]*\([^)\n]{0,30}\))?[ \t*_]*[:：]", _I)
# "Correct options: A, C, E": a plural label only after a qualifier, since a bare "Options:"
# introduces the list of options.
_PLURAL_LABEL = re.compile(r"(?:(?<=correct )|(?<=final )|(?<=right ))(?:answers|options|choices)[ \t*_]*[:：]", _I)
# "the (correct|final|...) answer/option/choice (to the question) is (therefore):"
_IS = re.compile(
    r"(?<![A-Za-z])(?:answer|option|choice|order|ordering|sequence)s?(?:\s+(?:to|for)\s+(?:the|this)\s+"
    r"(?:question|problem))?\s+(?:is|are|would\s+be|should\s+be|will\s+be|must\s+be|seems\s+to\s+be"
    r"|appears\s+to\s+be|=)(?:\s+(?:therefore|thus|then|clearly|indeed|likely|probably))?"
    r"(?:\s+(?:option|choice))?\b[ \t*_]*[:：]?",
    _I,
)
# A self-correction restates the answer: "..., so B. Wait, actually C."
_FIX = re.compile(
    r"(?<![A-Za-z])(?:wait|actually|correction|on\s+second\s+thought|on\s+reflection)\b"
    r"[\s,:;—–-]*(?:(?:no|actually|wait|sorry)\b[\s,:;—–-]*)*"
    r"(?:(?:it\s+is|it's|it\s+should\s+be|the\s+answer\s+is|i\s+mean)\s+)?",
    _I,
)
# "I choose B", "I would go with option C", "we select option D".
_PICK = re.compile(r"(?<![A-Za-z])(?:choose|select|pick|go\s+with)\s+(?:option\s+|choice\s+|answer\s+)?", _I)
# "option C is correct", "C is the correct answer": the letter is inside the marker.
_OPTIS = re.compile(
    r"(?<![A-Za-z])(?:option|choice)\s*\(?(?P<L>" + _LETTER + r")\)?\s+(?:is|would\s+be|seems\s+to\s+be"
    r"|appears\s+to\s+be)\s+(?:the\s+)?(?:correct|right|best|most\s+(?:likely|appropriate|suitable|accurate))",
    _I,
)
_ISANS = re.compile(r"\s+is\s+(?:the\s+)?(?:correct|right|best)\s+(?:answer|option|choice)", _I)
_ISANS_LETTER = re.compile(r"(?<![\w(])\(?(" + _LETTER + r")\)?$")
# Chinese: 正确答案是 C, 答案为, 最终答案：, 故选 C, 所以选择 B, 正确选项为 AC.
_ZH_ANSWER = re.compile(r"答案(?:应该|应当|应|就)?(?:是|为|選|选|:|：)[:：]?")
_ZH_PICK = re.compile(r"(?:故|所以|因此|因而|则|应|应该)选(?:择|项)?[:：]?")
# Not "选项：", which introduces the list of options rather than the answer.
_ZH_OPTION = re.compile(r"选项(?:应该|应当|应|就)?(?:是|为)[:：]?")
# Chinese self-correction: "等等，……", "不对，应该是 B", "更正：C".
_ZH_FIX = re.compile(r"(?:等等|不对|更正|纠正一下)[\s,，:：。!！…—-]*(?:(?:应该是|应是|应为|其实是|是)\s*)?")
# An ordering stated as a label: "Order: B → C → A", "Stations in order: ...", "顺序为 C-B-D-A",
# "依次经过：赤道带、副赤道带".
_ORDER_LABEL = re.compile(r"(?<![A-Za-z])(?:order|ordering|sequence)[ \t*_]*[:：]", _I)
_ZH_ORDER = re.compile(r"(?:顺序|次序|排序|排列)(?:应该|应当|应|就)?(?:是|为|:|：)[:：]?"
                       r"|依次(?:应该|应)?(?:是|为|经过|穿过|通过|排列为)?[:：]?")
# "Options A and C are correct", "A, C and D are all correct", "A和C都正确": the letters are
# before the keyword; :data:`_LETTER_LIST_BEFORE` finds them.
_ARE_CORRECT = re.compile(
    r"\s+are\s+(?:both\s+|all\s+)?(?:the\s+)?(?:correct\b(?!\s+(?:in|to|that|about)\b)"
    r"|right(?=\s*(?:answers?|options?|choices?)\b|\s*[.,;:!。，；*)]|\s*$))|都正确|均正确|都是正确的",
    _I,
)
_LETTER_LIST_BEFORE = re.compile(
    r"(?<![A-Za-z])(?P<L>[(\[]?" + _LETTER + r"[)\]]?(?:\s*(?:,\s*and|,|，|、|\band\b|&|和|与)\s*[(\[]?"
    + _LETTER + r"[)\]]?)+)\s*$",
    _I,
)

_KEYWORDS: dict[str, tuple[tuple[str, re.Pattern[str], int], ...]] = {
    # keyword -> (method, regex, offset from the keyword where the regex is anchored)
    "\\boxed": (("boxed", _BOXED, 0),),
    "\\fbox": (("boxed", _BOXED, 0),),
    "<answer>": (("answer_tag", _TAG, 0),),
    "answer": (("answer_label", _LABEL, 0), ("answer_label", _PLURAL_LABEL, 0), ("answer_is", _IS, 0)),
    "option": (("option_is_correct", _OPTIS, 0), ("answer_label", _LABEL, 0), ("answer_label", _PLURAL_LABEL, 0),
               ("answer_is", _IS, 0)),
    "choice": (("option_is_correct", _OPTIS, 0), ("answer_label", _LABEL, 0), ("answer_label", _PLURAL_LABEL, 0),
               ("answer_is", _IS, 0)),
    "wait": (("self_correction", _FIX, 0),),
    "actually": (("self_correction", _FIX, 0),),
    "correction": (("self_correction", _FIX, 0),),
    "on second thought": (("self_correction", _FIX, 0),),
    "on reflection": (("self_correction", _FIX, 0),),
    "choose": (("i_choose", _PICK, 0),),
    "select": (("i_choose", _PICK, 0),),
    "pick": (("i_choose", _PICK, 0),),
    "go with": (("i_choose", _PICK, 0),),
    " is the correct": (("option_is_correct", _ISANS, 0),),
    " is correct": (("option_is_correct", _ISANS, 0),),
    " is the right": (("option_is_correct", _ISANS, 0),),
    " is the best": (("option_is_correct", _ISANS, 0),),
    "答案": (("answer_zh", _ZH_ANSWER, 0),),
    "选": (("answer_zh", _ZH_PICK, -2), ("answer_zh", _ZH_PICK, -1)),
    "选项": (("answer_zh", _ZH_OPTION, 0),),
    "等等": (("self_correction", _ZH_FIX, 0),),
    "不对": (("self_correction", _ZH_FIX, 0),),
    "更正": (("self_correction", _ZH_FIX, 0),),
    "纠正一下": (("self_correction", _ZH_FIX, 0),),
    "order": (("order_label", _ORDER_LABEL, 0), ("order_is", _IS, 0)),
    "sequence": (("order_label", _ORDER_LABEL, 0), ("order_is", _IS, 0)),
    "顺序": (("order_label", _ZH_ORDER, 0),),
    "次序": (("order_label", _ZH_ORDER, 0),),
    "排序": (("order_label", _ZH_ORDER, 0),),
    "排列": (("order_label", _ZH_ORDER, 0),),
    "依次": (("order_label", _ZH_ORDER, 0),),
    " are ": (("options_are_correct", _ARE_CORRECT, 0),),
    "都正确": (("options_are_correct", _ARE_CORRECT, 0),),
    "均正确": (("options_are_correct", _ARE_CORRECT, 0),),
    "都是正确的": (("options_are_correct", _ARE_CORRECT, 0),),
}

#: Markers that state an answer of one kind only; the others ignore them ("Order: first,
#: measure the angle" says nothing about a number; "A and C are correct" is two answers
#: to a single-choice question, and a remark more often than a conclusion there).
ONLY_FOR: dict[str, frozenset[str]] = {
    "order_label": frozenset({"ordering"}),
    "order_is": frozenset({"choice", "multi_choice", "ordering"}),  # not "the sequence is 2, 4, 8"
    "options_are_correct": frozenset({"multi_choice"}),
}

_CJK = re.compile(r"[\u3400-\u9fff]")
_Rules = tuple[tuple[str, tuple[tuple[str, re.Pattern[str], int], ...]], ...]


@lru_cache(maxsize=64)
def _keywords(answer_type: str, chinese: bool) -> _Rules:
    """Return the keywords and rules that can yield an answer of ``answer_type``.

    Rules of :data:`ONLY_FOR` markers are left out for the other types, and the Chinese
    keywords for text without a CJK character: fewer keywords, fewer scans of the text.
    """
    table = []
    for kw, rules in _KEYWORDS.items():
        if not chinese and not kw.isascii():
            continue
        kept = tuple(r for r in rules if r[0] not in ONLY_FOR or answer_type in ONLY_FOR[r[0]])
        if kept:
            table.append((kw, kept))
    return tuple(table)


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


def strong_candidates(text: str, answer_type: str) -> Iterator[Candidate]:
    """Yield the span after every answer marker in ``text``, the last one first.

    Markers that cannot state an answer of ``answer_type`` (:data:`ONLY_FOR`) are not looked for.
    """
    low = text.lower()
    if len(low) != len(text):  # a few characters change length when lower-cased
        low = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    hits: list[tuple[int, str, re.Pattern[str], int]] = []
    chinese = not low.isascii() and _CJK.search(low) is not None
    for kw, rules in _keywords(answer_type, chinese):
        i = low.find(kw)
        while i >= 0:
            for method, rx, offset in rules:
                hits.append((i, method, rx, offset))
            i = low.find(kw, i + 1)
    # Last first; at one position the rules keep their listed order.
    hits.sort(key=lambda h: -h[0])
    seen_end = -1
    for i, method, rx, offset in hits:
        at = i + offset
        if at < 0:
            continue
        m = rx.match(text, at)
        if m is None:
            continue
        if m.end() == seen_end:
            continue  # the same marker reached from two keywords ("answer is" inside "option ... answer is")
        seen_end = m.end()
        yield _candidate(text, m, method)


def _candidate(text: str, m: re.Match[str], method: str) -> Candidate:
    start = m.end()
    if method == "boxed":
        return Candidate(start, _brace_end(text, start), method, m.start())
    if method == "answer_tag":
        close = text.find("</answer>", start)
        return Candidate(start, close if close >= 0 else min(len(text), start + _SPAN_MAX), method, m.start())
    if method == "options_are_correct":
        before = _LETTER_LIST_BEFORE.search(text, max(0, m.start() - 80), m.start())
        if before is None:
            return Candidate(start, start, method, m.start())  # empty span: no letters before it
        return Candidate(before.start("L"), before.end("L"), method, before.start("L"))
    if method == "option_is_correct":
        if m.re is _OPTIS:
            return Candidate(m.start("L"), m.end("L"), method, m.start(), letter=m.group("L"))
        before = _ISANS_LETTER.search(text, max(0, m.start() - 4), m.start())
        if before is None:
            return Candidate(start, start, method, m.start())  # empty span: no letter before "is correct"
        return Candidate(before.start(1), before.end(1), method, before.start(), letter=before.group(1))
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
