"""Yes/no answers: ``Yes``, ``No``, ``yes.``, ``**No**``, ``True``/``False``, 是/否/对/错/正确/错误.

The value is ``"yes"`` or ``"no"``. "Yes or no" and "not necessarily" are not answers.
"""

from __future__ import annotations

import re

from extractors.markup import skip_filler
from extractors.types import NoValue, Parsed

_YN = re.compile(
    r"(?P<v>yes|no|true|false|correct|incorrect|right|wrong)\b(?!-)"
    r"|(?P<z>不是|不对|不正确|错误|是的|正确|否|是|对|错|不)",
    re.IGNORECASE,
)
_OR = re.compile(r"\s*(?:or|/|或)\s*(?:yes|no|是|否)\b", re.IGNORECASE)
_YES = frozenset({"yes", "true", "correct", "right", "是的", "正确", "是", "对"})
_FILLER = re.compile(r"(?:the\s+answer\s+is|it\s+is|is|that)\b\s*", re.IGNORECASE)


def parse_yes_no(text: str, start: int, end: int, *, tight: bool = False) -> Parsed | NoValue | None:
    """Read a yes/no answer opening ``text[start:end]``."""
    pos = skip_filler(text, start, end, _FILLER, times=1)
    m = _YN.match(text, pos, end)
    if m is None:
        return None
    if _OR.match(text, m.end(), end):
        return NoValue("several_final_answers")
    word = (m.group("v") or m.group("z")).lower()
    return Parsed("yes" if word in _YES else "no", m.start(), m.end())
