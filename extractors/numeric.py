"""Numbers as responses write them: digits, separators, exponents, fractions, words, Chinese.

:func:`read_number` reads one number at a given position of a response and nowhere else:
the caller decides where the answer starts. It understands

- ``1234``, ``-5``, ``−5`` (Unicode minus), ``3.14``, ``.5``;
- thousands separators ``1,234,567`` and ``1 234`` (groups of exactly three digits, so
  ``1,2`` is never 12);
- exponents ``1.2e5``, ``1.2 × 10^5``, ``1.2 \\times 10^{5}``;
- fractions ``3/4`` and ``\\frac{3}{4}``;
- magnitude words ``1.2 million``, ``3.5万``, ``1.2亿``, ``400亿``, ``5k``;
- English number words via text2num (``twenty-five``, ``one hundred and five``);
- Chinese numerals via cn2an (``四百亿``, ``一百二十三点五``, ``两千零五``).

It deliberately does not read ``5 m`` as five million (``m`` is a unit), nor dates or
times (see :mod:`extractors.clock`), nor guess between several numbers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from extractors.markup import MARKUP_RE, skip_filler

_SPACE_GROUP = "[ \u00a0\u202f\u2009]"
_SPACE_GROUP_RE = re.compile(_SPACE_GROUP)
_DIGITS = (
    r"(?P<int>\d{1,3}(?:,\d{3})+(?![\d])|\d{1,3}(?:" + _SPACE_GROUP + r"\d{3})+(?![\d,.])|\d+)"
    r"(?:\.(?P<frac>\d+))?"
    r"|\.(?P<frac2>\d+)"
)
_NUMBER_RE = re.compile(
    r"(?P<sign>[-+−–]\s?)?(?:" + _DIGITS + r")"
    r"(?:\s*(?:[eE](?P<exp>[-+]?\d+)(?![\w])"
    r"|(?:\\times|\\cdot|×|·|\*|x)\s*10\s*\^\s*\{?\s*(?P<exp2>[-+−]?\d+)\s*\}?))?"
)
#: Magnitude words that scale the number just read. "k" only when glued to the digits.
MAGNITUDES = {
    "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12, "bn": 1e9,
    "k": 1e3, "万": 1e4, "亿": 1e8, "千": 1e3, "百万": 1e6, "千万": 1e7, "万亿": 1e12, "兆": 1e12,
}
_MAGNITUDE_RE = re.compile(
    r"(?:\s*(?P<word>thousand|million|billion|trillion|bn)\b|(?P<k>k)(?![A-Za-z])|\s*(?P<cn>万亿|千万|百万|万|亿|兆))",
    re.IGNORECASE,
)
_FRAC_RE = re.compile(
    r"\\[dt]?frac\s*(?:\{\s*(?P<n>[-−]?\d+(?:\.\d+)?)\s*\}\s*\{\s*(?P<d>\d+(?:\.\d+)?)\s*\}"
    r"|(?P<n1>\d)(?P<d1>\d)(?!\d))"  # \frac19: TeX's single-digit shorthand
)
_SLASH_RE = re.compile(r"\s*/\s*(?P<d>\d+)(?![\d.,/])")

_CN_NUM = "零〇一二两三四五六七八九十百千万亿点壹贰叁肆伍陆柒捌玖拾佰仟"
_CN_RE = re.compile(f"[{_CN_NUM}]+")
_CN_BARE = frozenset("万亿千百十点")  # a run made only of these is a word, not a number

_EN_WORDS = (
    "zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    "fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|"
    "eighty|ninety|hundred|thousand|million|billion"
)
_WORDS_RE = re.compile(rf"(?:{_EN_WORDS})(?:(?:[\s-]+(?:and[\s-]+)?)(?:{_EN_WORDS}))*\b", re.IGNORECASE)
_WORD_SPLIT = re.compile(r"[\s-]+")


@dataclass(frozen=True, slots=True)
class Number:
    """A number read from text: its value, where it was, and how it was written."""

    value: int | float
    start: int
    end: int
    decimals: int = 0          # digits after the decimal point as written (precision)
    magnitude: str | None = None
    integral_form: bool = True  # written without a fractional part


def _as_number(x: float) -> int | float:
    if isinstance(x, int):
        return x
    if x == x and x not in (float("inf"), float("-inf")) and x == int(x) and abs(x) < 1e15:
        return int(x)
    return x


def read_number(text: str, pos: int, end: int | None = None) -> Number | None:
    """Read the number that starts exactly at ``pos``; None when there is none there."""
    end = len(text) if end is None else end
    if pos >= end:
        return None
    ch = text[pos]
    if ch == "\\":
        return _read_latex_frac(text, pos, end)
    if ch.isdigit() or ch in "-+−–.":
        return _read_digits(text, pos, end)
    if ch in _CN_NUM:
        return _read_chinese(text, pos, end)
    if ch.isalpha():
        return _read_words(text, pos, end)
    return None


def _read_digits(text: str, pos: int, end: int) -> Number | None:
    m = _NUMBER_RE.match(text, pos, end)
    if m is None:
        return None
    intpart = m.group("int")
    frac = m.group("frac") or m.group("frac2") or ""
    if intpart is None and not frac:
        return None
    digits = (intpart or "0").replace(",", "")
    digits = _SPACE_GROUP_RE.sub("", digits)
    negative = bool(m.group("sign")) and m.group("sign").strip() in "-−–"
    exp = m.group("exp") or m.group("exp2")
    stop = m.end()
    if frac:
        value: int | float = float(f"{digits}.{frac}")
    else:
        value = int(digits)
    decimals = len(frac)
    if exp is not None:
        e = int(exp.replace("−", "-"))
        value = _as_number(value * (10.0 ** e)) if e >= 0 else value * (10.0 ** e)
        decimals = max(0, decimals - e)
    magnitude = None
    mm = _MAGNITUDE_RE.match(text, stop, end)
    if mm is not None:
        word = (mm.group("word") or mm.group("k") or mm.group("cn"))
        magnitude = word.lower() if word.isascii() else word
        factor = MAGNITUDES[magnitude]
        value = _as_number(round(value * factor, 6)) if decimals else value * int(factor)
        decimals = max(0, decimals - len(str(int(factor))) + 1)
        stop = mm.end()
    elif exp is None and not frac:
        sm = _SLASH_RE.match(text, stop, end)
        if sm is not None and int(sm.group("d")) != 0:
            value = value / int(sm.group("d"))
            stop = sm.end()
            return Number(-value if negative else value, pos, stop, decimals=6, integral_form=False)
    if negative:
        value = -value
    return Number(value, pos, stop, decimals=decimals, magnitude=magnitude,
                  integral_form=not frac and exp is None)


def _read_latex_frac(text: str, pos: int, end: int) -> Number | None:
    m = _FRAC_RE.match(text, pos, end)
    if m is None:
        return None
    n = float((m.group("n") or m.group("n1")).replace("−", "-"))
    d = float(m.group("d") or m.group("d1"))
    if d == 0:
        return None
    return Number(n / d, pos, m.end(), decimals=6, integral_form=False)


def _read_chinese(text: str, pos: int, end: int) -> Number | None:
    m = _CN_RE.match(text, pos, end)
    if m is None or set(m.group()) <= _CN_BARE:
        return None
    run = m.group()
    import cn2an  # imported here: it costs ~0.1 s and most responses never need it

    # Shorten the run from the right until cn2an accepts it: "三个" is not a numeral run,
    # but "三百亿元" ends before 元.
    while run:
        try:
            value = cn2an.cn2an(run, "smart")
        except (ValueError, KeyError, IndexError):
            run = run[:-1]
            continue
        value = _as_number(value)
        magnitude = next((w for w in ("万亿", "亿", "万") if run.endswith(w)), None)
        decimals = len(run.split("点", 1)[1]) if "点" in run and magnitude is None else 0
        return Number(value, pos, pos + len(run), decimals=decimals, magnitude=magnitude,
                      integral_form="点" not in run)
    return None


def _read_words(text: str, pos: int, end: int) -> Number | None:
    m = _WORDS_RE.match(text, pos, end)
    if m is None:
        return None
    from text_to_num import text2num

    words = m.group()
    while words:
        try:
            value = text2num(words.lower(), "en")
        except ValueError:
            # "five hundred and" or "one and two": drop the last word and retry.
            cut = _WORD_SPLIT.split(words)
            words = " ".join(cut[:-1]).strip()
            continue
        return Number(value, pos, pos + len(words), decimals=0)
    return None


# Words and symbols that may stand between a marker and the number it introduces.
_NUM_FILLER = re.compile(
    r"(?:(?:is|are|was|were|be|of|equals?|equal\s+to|that|it's|it\s+is|approximately|approx\.?|about"
    r"|around|roughly|nearly|exactly|almost|just|only|therefore|thus|so|hence|then|clearly|simply|indeed"
    r"|(?:a\s+)?total\s+of|the\s+(?:final\s+)?(?:answer|value|result|number|total)(?:\s+is)?)\b"
    r"|[=≈~≃]|\\approx|\\sim|约|大约|大概|为|是|等于|共|一共|总共"
    r"|[A-Za-z](?:_\{?\w{1,8}\}?)?(?:\([a-z0-9]{1,3}\))?\s*(?:=|≈|\\approx))[\s*_`:：]*",
    re.IGNORECASE,
)
_OPERATOR = re.compile(r"\s*(?:[-+×*/÷·−]|\\times|\\cdot|\\div)\s*[\d(\\]")
_LAST_EQUALS = re.compile(r"(?:=|≈|\\approx)(?!.*(?:=|≈|\\approx))")
_NUM_HEDGE = re.compile(r"\s*(?:\bor\b|或者?|/)\s*[-−]?\$?\d", re.IGNORECASE)
_TIME_LIKE = re.compile(r"[:：]\d\d")
_LINE_END = re.compile(r"\n|(?<!\d)[.。;；](?!\d)")
_MARKUP_NO_DOLLAR = re.compile(
    r"(?:\s+|\*+|_{1,2}(?=\S)|`+|[\"'“”‘’«»]|\\[(\[]|\\(?:text|textbf|mathrm|mathbf|boxed|displaystyle)\s*\{?"
    r"|\{|[:：]|\$(?=\s*\\|\s*[-−]?\s*[A-Za-z]))*"
)


# What may not follow a number that is an answer on its own: "288\sqrt{2}", "18\pi",
# "2002^2", "4b", "50 + 25(4-\pi)" are expressions, not the numbers they start with.
_NOT_COMPLETE = re.compile(
    # A unit sign may stand between the number and the operator: "20°+60°=80°".
    r"\s*(?:[°%′″]\s*(?=[+*/×·÷-]\s*[\d\\(]))?"
    r"(?:\\(?:sqrt|pi|cdot|times|div|frac|dfrac)(?![a-z])|[√π!]|\^(?!\s*\{?\s*\\circ)|[+*/×·÷](?=\s*[\d\\(a-z])"
    r"|\((?=\s*[-\d\\])|[-−](?=\s*[\d\\(]))"
    # A letter glued to the number is a variable ("4b"), except the one-letter units m g s h l.
    r"|[a-fi-kn-rt-z](?![a-zA-Z])"
)


def number_complete(text: str, pos: int, end: int) -> bool:
    """Whether the number ending at ``pos`` is a value on its own, not the head of an expression."""
    return _NOT_COMPLETE.match(text, pos, end) is None


def skip_number_filler(text: str, pos: int, end: int, *, keep_dollar: bool = False) -> int:
    """Step over markup and filler ("is approximately", "x =", "约") before a number."""
    return skip_filler(text, pos, end, _NUM_FILLER, markup=_MARKUP_NO_DOLLAR if keep_dollar else MARKUP_RE)


def read_final_number(text: str, start: int, end: int, *, tight: bool = False,
                      keep_dollar: bool = False) -> tuple[Number | None, str | None]:
    """Read the number that a span opens with; return (number, reason-if-none).

    An arithmetic chain ("3 + 4 = 7") gives the result after its last ``=``. A hedge
    ("5 or 6") gives reason ``several_final_answers``; a clock time ("19:00") is not a number.
    """
    pos = skip_number_filler(text, start, end, keep_dollar=keep_dollar)
    num = read_number(text, pos, end)
    if num is None:
        le = _LINE_END.search(text, pos, end)
        clause_end = le.start() if le else end
        eq = _LAST_EQUALS.search(text[pos:clause_end])
        if eq is None:
            return None, None
        # "S_{\triangle ABC}=8": a left-hand side too odd for the filler; read after "=".
        pos = skip_number_filler(text, pos + eq.end(), clause_end, keep_dollar=keep_dollar)
        num = read_number(text, pos, clause_end)
        if num is None:
            return None, None
    if _OPERATOR.match(text, num.end, end):
        le = _LINE_END.search(text, num.end, end)
        clause_end = le.start() if le else end
        eq = _LAST_EQUALS.search(text[num.end:clause_end])
        if eq is None:
            return None, None
        pos = skip_number_filler(text, num.end + eq.end(), clause_end, keep_dollar=keep_dollar)
        num = read_number(text, pos, clause_end)
        if num is None:
            return None, None
    if _TIME_LIKE.match(text, num.end, end):
        return None, None
    if not number_complete(text, num.end, end):
        return None, "unparsable_number"  # an expression such as 288\sqrt{2}: stated, but not a number
    if _NUM_HEDGE.match(text, num.end, end):
        return None, "several_final_answers"
    if tight and not ends_clause(text, num.end, end):
        return None, None
    return num, None


def ends_clause(text: str, pos: int, end: int) -> bool:
    """Whether only the end of a clause follows the value ending at ``pos``.

    After a self-correction, "actually 5." restates an answer; "actually 5 apples are left" does not.
    """
    rest = text[pos:min(end, pos + 2)].lstrip(" ")
    return not rest or rest[0] in ".,;!)]}*$\n。，"
