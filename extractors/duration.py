"""Durations: amounts of time, possibly mixed, normalised to seconds.

Reads ``1 hour and 30 minutes``, ``1h30m``, ``1 h 30 min``, ``1.5 hours``, ``90 mins``,
``20 days``, ``2 weeks``, ``half an hour``, ``an hour and a half``, ``two hours``,
``2 小时 30 分钟``, ``2小时30分``, ``3天``, ``半小时``, ``1:30`` (hours:minutes) and
``1:30:15``. The value is the total in **seconds** (an int when whole), unit ``s``; a
month counts 30 days and a year 365 days, the usual convention of word problems.

dateparser is not used: it turns "20 days" into a date.
"""

from __future__ import annotations

import re

from extractors.markup import MARKUP_RE
from extractors.numeric import _as_number, ends_clause, read_number, skip_number_filler
from extractors.types import NoValue, Parsed

_UNIT = re.compile(
    r"\s*(?P<u>years?|yrs?|months?|weeks?|wks?|days?|hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s"
    r"|个?小时|小時|钟头|個?小時|分钟|分鐘|分|秒钟|秒|天|日|周|星期|个月|個月|月|年)(?![A-Za-z])",
    re.IGNORECASE,
)
_SECONDS = {
    "year": 365 * 86400, "yr": 365 * 86400, "month": 30 * 86400, "week": 7 * 86400, "wk": 7 * 86400,
    "day": 86400, "hour": 3600, "hr": 3600, "h": 3600, "minute": 60, "min": 60, "m": 60,
    "second": 1, "sec": 1, "s": 1,
    "小时": 3600, "个小时": 3600, "小時": 3600, "個小時": 3600, "钟头": 3600, "分钟": 60, "分鐘": 60, "分": 60,
    "秒钟": 1, "秒": 1, "天": 86400, "日": 86400, "周": 7 * 86400, "星期": 7 * 86400, "个月": 30 * 86400,
    "個月": 30 * 86400, "月": 30 * 86400, "年": 365 * 86400,
}
_JOIN = re.compile(r"\s*(?:,|and|plus|又|零)?\s*", re.IGNORECASE)
_HALF = re.compile(r"(?:half\s+an?\s+(?P<u1>hour|minute|day)|an?\s+(?P<u2>hour|minute|day)\s+and\s+a\s+half"
                   r"|半个?(?P<u3>小时|钟头|天|分钟))", re.IGNORECASE)
_AN = re.compile(r"an?\s+(?=hour|minute|day|week|month|year|second)", re.IGNORECASE)
_AND_HALF = re.compile(r"\s*(?:and\s+a\s+half|半)", re.IGNORECASE)
_CLOCK = re.compile(r"(?P<h>\d{1,3}):(?P<m>\d{2})(?::(?P<s>\d{2}))?(?!\d)")


def _unit_seconds(u: str) -> int:
    key = u.lower()
    if key in _SECONDS:
        return _SECONDS[key]
    key = key.rstrip("s") if key.isascii() else key
    return _SECONDS[key]


def parse_duration(text: str, start: int, end: int, *, tight: bool = False) -> Parsed | NoValue | None:
    """Read a duration opening ``text[start:end]``; the value is in seconds."""
    pos = skip_number_filler(text, start, end)
    half = _HALF.match(text, pos, end)
    if half:
        u = half.group("u1") or half.group("u2") or half.group("u3")
        base = _unit_seconds(u)
        total = base * 1.5 if half.group("u2") else base * 0.5
        return Parsed(_as_number(total), half.start(), half.end(), unit="s")
    clock = _CLOCK.match(text, pos, end)
    if clock and not _UNIT.match(text, clock.end(), end):
        secs = int(clock.group("h")) * 3600 + int(clock.group("m")) * 60 + int(clock.group("s") or 0)
        if int(clock.group("m")) >= 60:
            return None
        return Parsed(secs, clock.start(), clock.end(), unit="s")
    total = 0.0
    first = pos
    last = pos
    parts = 0
    while True:
        an = _AN.match(text, pos, end)
        if an:
            num_value, num_end = 1, an.end()
        else:
            num = read_number(text, pos, end)
            if num is None or num.value < 0:
                break
            num_value, num_end = num.value, num.end
        um = _UNIT.match(text, num_end, end)
        if um is None:
            break
        seconds = _unit_seconds(um.group("u"))
        # A lone "m"/"s"/"h" is read as minutes/seconds/hours after any number ("5 m" is 300 s):
        # the answer type already says the value is a duration.
        total += num_value * seconds
        last = um.end()
        parts += 1
        ah = _AND_HALF.match(text, last, end)
        if ah:
            total += 0.5 * seconds
            last = ah.end()
        j = _JOIN.match(text, last, end)
        pos = MARKUP_RE.match(text, j.end(), end).end() if j else last
    if parts == 0:
        return None
    if tight and not ends_clause(text, last, end):
        return None
    return Parsed(_as_number(round(total, 6)), first, last, unit="s")


def parse_duration_value(s: str) -> int | float | None:
    """Return the duration written in ``s`` (whole string) in seconds, or None."""
    got = parse_duration(s, 0, len(s))
    if not isinstance(got, Parsed):
        return None
    if s[got.end:].strip(" .。"):
        return None
    return got.value  # type: ignore[return-value]
