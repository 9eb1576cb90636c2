"""Responses that decline to answer, or say that no option is right.

Checked only where no marker yields an answer (or on the final answer span itself), so a
response that hedges at the start and then answers ("I can't be sure, but the answer is
B") keeps its answer. Phrasings are from real dumps: MathVista GPT-4 ("The question does
not provide enough information to determine ..."), MathVista Claude, MMMU-Pro.
"""

from __future__ import annotations

import re

_REFUSAL = re.compile(
    r"\b(?:can ?not|can't|cannot|could ?not|couldn't|unable\s+to|impossible\s+to|not\s+possible\s+to"
    r"|no\s+way\s+to|don't|do\s+not|does\s+not|doesn't)\s+(?:be\s+)?(?:accurately\s+|definitively\s+|reliably\s+"
    r"|directly\s+|precisely\s+|exactly\s+)?"
    r"(?:determined?|answer(?:ed)?|provide[ds]?|solved?|calculated?|computed?|identif(?:y|ied)|tell|say|know"
    r"|see|view|access|read|process|help|assist|give|find|found|state|figure\s+out|conclude|infer)\b"
    r"|\b(?:insufficient|not\s+enough|not\s+sufficient)\s+to\s+(?:answer|determine|solve|tell|calculate)\b"
    r"|\bthe\s+question\s+is\s+not\s+(?:valid|answerable|clear)\b"
    r"|\b(?:not|insufficient|lack\s+of|without)\s+(?:enough\s+|sufficient\s+|the\s+(?:necessary\s+)?|more\s+|any\s+"
    r"|specific\s+)*(?:information|context|data|details?|image|diagram|figure|graph|picture|visual)\b"
    r"|\bi'?m\s+sorry\b|\bi\s+apologi[sz]e\b|\bas\s+an\s+ai\b|\bn/a\b|\bnot\s+applicable\b"
    r"|\b(?:cannot|can't)\s+be\s+(?:determined|answered|calculated|found)\b"
    r"|\bthe\s+question\s+is\s+(?:unanswerable|ambiguous|unclear)\b"
    r"|无法(?:确定|回答|判断|计算|得出|看到|识别)|不能确定|信息不足|没有足够的信息|抱歉",
    re.IGNORECASE,
)

_NONE_OF = re.compile(
    r"\b(?:none\s+of\s+(?:the\s+)?(?:given\s+|provided\s+|above\s+|listed\s+)?(?:options|choices|answers|above)"
    r"|no\s+(?:correct\s+|valid\s+|matching\s+)?(?:option|choice|answer)\s+(?:is|matches|fits|corresponds)"
    r"|no\s+matches?\s+(?:exist|found))\b|都不(?:对|正确)|没有正确(?:答案|选项)",
    re.IGNORECASE,
)

# Refusals are looked for near the end only: a long response that declines at its start
# and then works the problem is not a refusal.
_REFUSAL_WINDOW = 500


def refusal_reason(text: str, start: int = 0, end: int | None = None) -> str | None:
    """Return ``none_of_the_options`` or ``refusal`` when the text declines, else None."""
    end = len(text) if end is None else end
    start = max(start, end - _REFUSAL_WINDOW)
    if _NONE_OF.search(text, start, end):
        return "none_of_the_options"
    if _REFUSAL.search(text, start, end):
        return "refusal"
    return None
