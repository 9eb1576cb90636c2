"""Percentages: ``12.5%``, ``12.5 ％``, ``12.5\\%``, ``12.5 percent``, ``百分之十五``.

The value is in percent units (``12.5%`` -> 12.5, unit ``%``). A bare number is read too,
with no unit: whether ``0.125`` means 12.5 % is the scorer's question, not the reader's.
"""

from __future__ import annotations

import re

from extractors.numeric import ends_clause, read_final_number, read_number, skip_number_filler
from extractors.types import NoValue, Parsed

_SIGN = re.compile(r"\s?(?:\\?%|％|percent\b|per\s?cent\b|pct\b|个百分点|percentage\s+points?\b)", re.IGNORECASE)
_ZH = re.compile(r"百分之")


def parse_percent(text: str, start: int, end: int, *, tight: bool = False) -> Parsed | NoValue | None:
    """Read a percentage (or a bare number) opening ``text[start:end]``."""
    pos = skip_number_filler(text, start, end)
    zh = _ZH.match(text, pos, end)
    if zh:
        num = read_number(text, zh.end(), end)
        if num is None:
            return None
        return Parsed(num.value, pos, num.end, unit="%")
    num, reason = read_final_number(text, start, end, tight=False)
    if reason:
        return NoValue(reason)
    if num is None:
        return None
    sm = _SIGN.match(text, num.end, end)
    stop = sm.end() if sm else num.end
    if tight and not ends_clause(text, stop, end):
        return None
    return Parsed(num.value, num.start, stop, unit="%" if sm else None, magnitude=num.magnitude)
