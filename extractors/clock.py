"""Clock times of day: 12- and 24-hour forms, in English and Chinese.

Reads ``19:00``, ``7:05``, ``7 pm``, ``7:05 a.m.``, ``7.05pm``, ``12 am`` (midnight),
``7:05:30 PM``, ``noon``, ``midnight``, ``7 o'clock``, ``下午3点``, ``下午3点30分``, ``晚上8点半``,
``15时20分``. The value is canonical ``HH:MM`` (``HH:MM:SS`` when seconds are stated).

A bare number ("7") is not a time: the response must show a colon, am/pm, o'clock or 点/时.
dateparser is not used: it turns "20 days" into a date and invents today's date for times.
"""

from __future__ import annotations

import re

from extractors.markup import skip_filler
from extractors.numeric import read_number
from extractors.types import NoValue, Parsed

_EN = re.compile(
    r"(?P<h>\d{1,2})(?:\s*[:：.](?P<m>\d{2})(?:\s*[:：](?P<s>\d{2}))?)?"
    r"(?:\s*(?P<ampm>[ap]\.?\s?m\.?(?![a-z])|o'?clock\b|h(?:rs)?\b(?=\s*$)))?",
    re.IGNORECASE,
)
_WORDS = re.compile(r"(?P<w>noon|midday|midnight)\b", re.IGNORECASE)
_ZH = re.compile(
    r"(?P<part>凌晨|早上|早晨|上午|中午|下午|傍晚|晚上|夜里|夜间)?\s*(?P<h>\d{1,2}|[零〇一二两三四五六七八九十]{1,3})\s*[点點时時]"
    r"\s*(?:(?P<half>半)|(?P<m>\d{1,2}|[零〇一二三四五六七八九十]{1,3})\s*分?(?:\s*(?P<s>\d{1,2})\s*秒)?)?"
)
_FILLER = re.compile(r"(?:at|is|was|around|about|approximately|exactly|be|the\s+time\s+is|在|是|为|约)\b\s*", re.IGNORECASE)
_AFTERNOON = frozenset({"下午", "傍晚", "晚上", "夜里", "夜间"})


def canonical_time(h: int, m: int, s: int | None) -> str | None:
    """Return ``HH:MM`` or ``HH:MM:SS``; None when out of range."""
    if not (0 <= h <= 24 and 0 <= m < 60 and (s is None or 0 <= s < 60)) or (h == 24 and (m or s)):
        return None
    h %= 24
    return f"{h:02d}:{m:02d}" if s is None else f"{h:02d}:{m:02d}:{s:02d}"


def parse_time(text: str, start: int, end: int, *, tight: bool = False) -> Parsed | NoValue | None:
    """Read a clock time opening ``text[start:end]``."""
    pos = skip_filler(text, start, end, _FILLER, times=3)
    w = _WORDS.match(text, pos, end)
    if w:
        return Parsed("00:00" if w.group("w").lower() == "midnight" else "12:00", w.start(), w.end())
    z = _ZH.match(text, pos, end)
    if z:
        return _zh_time(z)
    m = _EN.match(text, pos, end)
    if m is None or (m.group("m") is None and m.group("ampm") is None):
        return None
    h, mi = int(m.group("h")), int(m.group("m") or 0)
    s = int(m.group("s")) if m.group("s") else None
    ampm = (m.group("ampm") or "").lower().replace(".", "").replace(" ", "")
    if ampm in ("am", "pm"):
        if not 1 <= h <= 12:
            return NoValue("unparsable_time")
        h = h % 12 + (12 if ampm == "pm" else 0)
    elif m.group("m") is not None and "." in text[m.start("h"):m.start("m")] and not ampm:
        return None  # "7.05" without am/pm is a decimal number, not a time
    value = canonical_time(h, mi, s)
    if value is None:
        return NoValue("unparsable_time")
    return Parsed(value, m.start(), m.end())


def _zh_num(s: str | None) -> int:
    if not s:
        return 0
    if s.isdigit():
        return int(s)
    n = read_number(s, 0)
    return int(n.value) if n is not None else 0


def _zh_time(z: re.Match[str]) -> Parsed | NoValue:
    h = _zh_num(z.group("h"))
    mi = 30 if z.group("half") else _zh_num(z.group("m"))
    s = int(z.group("s")) if z.group("s") else None
    part = z.group("part")
    if part in _AFTERNOON and h < 12:
        h += 12
    elif part == "中午" and h < 11:
        h += 12
    elif part == "凌晨" and h == 12:
        h = 0
    value = canonical_time(h, mi, s)
    if value is None:
        return NoValue("unparsable_time")
    return Parsed(value, z.start(), z.end())
