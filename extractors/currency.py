"""Money amounts: a number with a currency symbol, code or word before or after it.

Reads ``$3.24``, ``US$ 15``, ``USD 15``, ``15 USD``, ``¥20``, ``15元``, ``四百亿元``,
``3.5万元``, ``€4,50`` (a comma before exactly two digits is a decimal comma),
``€1.234,56``, ``$1.2 million``, ``75 cents`` (0.75 USD), ``-$5``. The value is the amount
as a number; the unit is an ISO code. ``¥``/``￥`` are read as CNY (the currency of the
Chinese-language benchmarks this tool grades); write ``円``, ``yen`` or ``JPY`` for yen.

Not used: price-parser, which reads "19:00" as 19 and has no notion of a span start.
"""

from __future__ import annotations

import re

from extractors.numeric import Number, ends_clause, read_final_number, read_number, skip_number_filler
from extractors.types import NoValue, Parsed

_PREFIX = re.compile(
    r"(?P<sign>[-−–]\s?)?(?P<sym>US\$|HK\$|A\$|C\$|S\$|NT\$|R\$|\$|USD|EUR|GBP|CNY|RMB|JPY|HKD|INR|KRW|AUD|CAD"
    r"|€|£|¥|￥|₹|₩|Rs\.?)\s?"
)
_SUFFIX = re.compile(
    r"\s?(?P<sym>USD|EUR|GBP|CNY|RMB|JPY|HKD|INR|KRW|AUD|CAD|dollars?|bucks|euros?|pounds?(?:\s+sterling)?"
    r"|yuan|renminbi|yen|rupees?|won|cents?|€|£|元人民币|人民币|美元|欧元|英镑|日元|港元|港币|韩元|元|块钱|块|円)"
    r"(?![A-Za-z])",
    re.IGNORECASE,
)
_CODES = {
    "$": "USD", "us$": "USD", "usd": "USD", "dollar": "USD", "dollars": "USD", "bucks": "USD", "美元": "USD",
    "cent": "USD", "cents": "USD",
    "hk$": "HKD", "hkd": "HKD", "港元": "HKD", "港币": "HKD",
    "a$": "AUD", "aud": "AUD", "c$": "CAD", "cad": "CAD", "s$": "SGD", "nt$": "TWD", "r$": "BRL",
    "€": "EUR", "eur": "EUR", "euro": "EUR", "euros": "EUR", "欧元": "EUR",
    "£": "GBP", "gbp": "GBP", "pound": "GBP", "pounds": "GBP", "pound sterling": "GBP",
    "pounds sterling": "GBP", "英镑": "GBP",
    "¥": "CNY", "￥": "CNY", "cny": "CNY", "rmb": "CNY", "yuan": "CNY", "renminbi": "CNY", "元": "CNY",
    "人民币": "CNY", "元人民币": "CNY", "块": "CNY", "块钱": "CNY",
    "jpy": "JPY", "yen": "JPY", "円": "JPY", "日元": "JPY",
    "₹": "INR", "inr": "INR", "rs": "INR", "rs.": "INR", "rupee": "INR", "rupees": "INR",
    "₩": "KRW", "krw": "KRW", "won": "KRW", "韩元": "KRW",
}
_CLOCK_AFTER = re.compile(r"[:：]\d\d")
_DECIMAL_COMMA = re.compile(r",(\d{1,2})(?!\d)")
_EURO_GROUPS = re.compile(r"(?P<sign>[-−–]\s?)?(?P<int>\d{1,3}(?:\.\d{3})+),(?P<frac>\d{1,2})(?!\d)")


def code_of(symbol: str) -> str:
    """Return the ISO code for a currency symbol, code or word."""
    return _CODES.get(symbol.lower(), _CODES.get(symbol, symbol.upper()))


def parse_currency(text: str, start: int, end: int, *, tight: bool = False) -> Parsed | NoValue | None:
    """Read an amount of money opening ``text[start:end]``; the currency is optional."""
    pos = skip_number_filler(text, start, end, keep_dollar=True)
    code = None
    negative = False
    pm = _PREFIX.match(text, pos, end)
    if pm:
        code = code_of(pm.group("sym").rstrip())
        negative = bool(pm.group("sign"))
        pos = pm.end()
    num, amount_end = _read_amount(text, pos, end)
    if num is None:
        if pm is None:
            got, reason = read_final_number(text, pos, end, tight=tight, keep_dollar=True)
            if reason:
                return NoValue(reason)
            if got is None:
                return None
            num, amount_end = got, got.end
        else:
            return None
    if _CLOCK_AFTER.match(text, amount_end, end):
        return None  # "19:00" is a clock time, not 19 of anything
    value: float | int = num.value
    stop = amount_end
    sm = _SUFFIX.match(text, stop, end)
    if sm:
        word = sm.group("sym")
        if word.lower() in ("cent", "cents") and code is None:
            value = round(value / 100, 10)
        code = code or code_of(word)
        stop = sm.end()
    if negative:
        value = -value
    if tight and not ends_clause(text, stop, end):
        return None
    return Parsed(value, pm.start() if pm else num.start, stop, unit=code, magnitude=num.magnitude)


def _read_amount(text: str, pos: int, end: int) -> tuple[Number | None, int]:
    eu = _EURO_GROUPS.match(text, pos, end)
    if eu:
        whole = int(eu.group("int").replace(".", ""))
        value = whole + int(eu.group("frac")) / 10 ** len(eu.group("frac"))
        return Number(value, pos, eu.end(), decimals=len(eu.group("frac")), integral_form=False), eu.end()
    num = read_number(text, pos, end)
    if num is None:
        return None, pos
    if num.integral_form and num.magnitude is None and "," not in text[num.start:num.end]:
        dc = _DECIMAL_COMMA.match(text, num.end, end)
        if dc:
            frac = dc.group(1)
            value = num.value + int(frac) / 10 ** len(frac)
            return Number(value, num.start, dc.end(), decimals=len(frac), integral_form=False), dc.end()
    return num, num.end
