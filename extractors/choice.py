"""Option letters in answer spans: one letter, a set of letters, a sequence of letters.

A span is read from its start (after markup and filler such as "option"): the letter must
open the span. So "The answer is B" gives B (the marker found the span "B"), never the
"T" of "The"; and prose after a marker ("the answer is a bit unclear", "A large share")
is not a letter, while a lone "A" is. When the span holds option text instead of a letter,
it is matched against the options: exactly after folding, numerically for numeric options,
or by a near-exact rapidfuzz ratio (>= 95) for long options. Nothing is ever snapped to
the nearest option: text that matches no option is not an answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from extractors.markup import MARKUP_RE, fold_text, unwrap_latex
from extractors.numeric import number_complete, read_number
from extractors.types import NoValue, Parsed

_FILLER = re.compile(
    r"(?:(?:the\s+)?(?:correct\s+|right\s+|best\s+|final\s+)?(?:option|choice|letter|answer)(?:\s+is)?\b\s*[:：]?"
    r"|it\s+is\b|it's\b|is\b|that\b|to\s+be\b|选项|选择|选|为|是)[\s*_$:：]*",
    re.IGNORECASE,
)
# A letter in brackets may be lower case: "(c)". A bare letter must be upper case.
_BRACKETED = re.compile(r"[(\[（【]\s*(?P<l>[A-Za-z])\s*[)\]）】]")
_BARE = re.compile(r"(?P<l>[A-Z])(?:\)|(?=[\s.,;:!?\]}*$'\"\\。，、：；）]|$))")
_LOWER_ALONE = re.compile(r"(?P<l>[a-z])[\s.*)}$\\]*$")
# Words that may follow a bare letter when it is an answer ("B because ...", "C (145°)");
# any other lower-case word means the capital was an article or an initial: "A large ...".
_AFTER_LETTER_OK = frozenset(
    "because since as which is was with from for and or in on at given based according this that the "
    "here there if to due so then would option choice also only seems appears corresponds matches".split()
)
_NEXT_WORD = re.compile(r"\s+([a-z]+)")
_HEDGE = re.compile(
    r"\s*(?:,|/|&|、|，|\bor\b|\band\b|或者?|和|与|及)\s*(?:(?:option|choice)\s+)?[(\[]?(?P<l>[A-Z])[)\]]?(?![A-Za-z])"
)
_EITHER = re.compile(r"either\b\s*", re.IGNORECASE)
_OR_WORD = re.compile(r"\s*(?:\bor\b|或者?|/)", re.IGNORECASE)
_CLAUSE_END = re.compile(
    r"\n|(?<!\d)[.。!?！？;；](?!\d)|\s+(?:because|since|which|as\s+it|as\s+this|due\s+to|given|based)\b|,\s+(?:which|as|because|since)\b",
    re.IGNORECASE,
)
_WORD_BOUNDARY = re.compile(r"(?<=\S)(?=[\s,;:.。，；：!?)\]])")
_SEQ_SEP = re.compile(r"\s*(?:,|，|、|;|→|->|-->|⟶|⇒|=>|>|-|–|—|\bthen\b|\s)\s*", re.IGNORECASE)
_SET_SEP = re.compile(r"\s*(?:,|，|、|;|&|\+|/|\band\b|和|与|及|\s)\s*(?:and\s+)?", re.IGNORECASE)
_RUN = re.compile(r"[A-Z]{2,}(?![A-Za-z])")
_PARTS = re.compile(r"\s*(?:,|，|、|;|；|\band\b|→|->|⟶|和|与)\s*", re.IGNORECASE)

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def option_letters(choices: Sequence[str] | None) -> str:
    """Return the valid letters for ``choices`` (A, B, ... in order), or A-Z when unknown."""
    return LETTERS[: len(choices)] if choices else LETTERS


def _skip(text: str, pos: int, end: int) -> int:
    pos = MARKUP_RE.match(text, pos, end).end()
    for _ in range(4):
        m = _FILLER.match(text, pos, end)
        if not m or m.end() == pos:
            break
        pos = MARKUP_RE.match(text, m.end(), end).end()
    return pos


def _option_follows(text: str, pos: int, end: int, letter: str, choices: Sequence[str] | None) -> bool:
    """Whether the letter's own option text follows it: "C. lizard", "D tokyo"."""
    i = ord(letter) - 65
    if not choices or i >= len(choices):
        return False
    option = fold_text(str(choices[i]))
    after = fold_text(text[pos:min(end, pos + len(str(choices[i])) + 8)])
    return bool(option) and after.startswith(option)


def _letter_at(text: str, pos: int, end: int, *, tight: bool,
               choices: Sequence[str] | None = None) -> tuple[str, int, int] | None:
    """Return (letter, start, end) of an option letter opening ``text[pos:end]``."""
    m = _BRACKETED.match(text, pos, end)
    if m:
        return m.group("l").upper(), m.start(), m.end()
    m = _BARE.match(text, pos, end)
    if m:
        nxt = _NEXT_WORD.match(text, m.end(), end)
        if (nxt and nxt.group(1) not in _AFTER_LETTER_OK and text[m.end() - 1] != ")"
                and not _option_follows(text, m.end(), end, m.group("l"), choices)):
            return None  # "A large part of ..." / "I think": an article or a pronoun
        if tight and not _tight_end(text, m.end(), end):
            return None
        return m.group("l"), m.start(), m.end()
    m = _LOWER_ALONE.match(text, pos, end)
    if m:  # "Answer: c" — a lone lower-case letter that is the whole span
        return m.group("l").upper(), m.start(), m.start() + 1
    return None


def _tight_end(text: str, pos: int, end: int) -> bool:
    """After a self-correction the letter must end its clause: "actually C." not "actually A is"."""
    rest = text[pos:min(end, pos + 3)]
    return not rest.strip() or rest.lstrip()[0] in ".,;!)]}*$\n(。，"


def parse_choice(text: str, start: int, end: int, choices: Sequence[str] | None, *,
                 tight: bool = False) -> Parsed | NoValue | None:
    """Read one option letter (or one option's text) opening ``text[start:end]``."""
    letters = option_letters(choices)
    p1 = MARKUP_RE.match(text, start, end).end()
    either = _EITHER.match(text, p1, end)
    pos = _skip(text, either.end() if either else p1, end)
    hit = _letter_at(text, pos, end, tight=tight, choices=choices)
    if hit is not None:
        letter, a, b = hit
        h = _HEDGE.match(text, b, end)
        if h and h.group("l") != letter and (h.group("l") in letters or not tight):
            return NoValue("several_final_answers")
        if either and _OR_WORD.match(text, b, end):
            return NoValue("several_final_answers")
        if letter not in letters:
            return None if tight else NoValue("not_an_option")
        return Parsed(letter, a, b)
    if tight or not choices:
        return None
    return match_option_text(text, p1, end, choices)


def match_option_text(text: str, start: int, end: int, choices: Sequence[str]) -> Parsed | NoValue | None:
    """Match the clause opening ``text[start:end]`` against the option texts; never the nearest."""
    ce = _CLAUSE_END.search(text, start, end)
    stop = ce.start() if ce else end
    if stop <= start:
        return None
    eq = text.rfind("=", start, stop)
    if eq > start:
        # "\frac{12}{6}=\frac{7}{2}": the value after the last "=" is the one stated.
        after = match_option_text(text, eq + 1, stop, choices)
        if isinstance(after, Parsed):
            return after
    folded = {}
    for i, c in enumerate(choices):
        folded.setdefault(fold_text(str(c)), set()).add(LETTERS[i])
    # Longest prefix of the clause, cut at word boundaries, that equals an option.
    cuts = [m.end() for m in _WORD_BOUNDARY.finditer(text, start, stop)]
    if not cuts or cuts[-1] != stop:
        cuts.append(stop)
    for cut in reversed(cuts[:16]):
        key = fold_text(text[start:cut])
        hit = folded.get(key)
        if hit is not None and key and not number_complete(text, cut, stop) and key[0].isdigit():
            continue  # "50 + 25(4-\pi)" starts with the option "50" but states something else
        if hit is not None and key:
            return Parsed(min(hit), start, cut) if len(hit) == 1 else NoValue("several_final_answers")
    num = read_number(text, MARKUP_RE.match(text, start, stop).end(), stop)
    if num is not None and not number_complete(text, num.end, stop):
        num = None  # "50 + 25(4-\pi)" is not the option "50"
    values = [_option_number(c) for c in choices]
    if num is not None and all(v is not None for v in values):
        same = [LETTERS[i] for i, v in enumerate(values) if abs(v - num.value) <= 1e-9 * max(1, abs(v))]
        if len(same) == 1:
            return Parsed(same[0], start, num.end)
        return NoValue("not_an_option") if not same else None
    return _fuzzy_option(text, start, stop, choices)


_RATIO = re.compile(r"(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)")
_OPTION_UNIT = re.compile(r"~?(?:[a-zµμ]{1,4}(?:\^\{?[23]\}?|[²³])?|°|%)$")


def _option_number(option: str) -> float | None:
    # Light cleaning only: fold_text would drop the colon of a ratio.
    s = _OPTION_UNIT.sub("", unwrap_latex(str(option)).replace(" ", "").casefold())  # "$8 \mathrm{~kg}$" -> "8"
    ratio = _RATIO.fullmatch(s)
    if ratio:  # "5:19" is the fraction 5/19
        return float(ratio.group(1)) / float(ratio.group(2)) if float(ratio.group(2)) else None
    n = read_number(s, 0)
    if n is None or n.end != len(s):
        return None
    return float(n.value)


def _fuzzy_option(text: str, start: int, stop: int, choices: Sequence[str]) -> Parsed | None:
    from rapidfuzz import fuzz

    clause = fold_text(text[start:stop])
    if len(clause) < 8:
        return None
    scores = [fuzz.ratio(clause, fold_text(str(c))) if len(str(c)) >= 8 else 0.0 for c in choices]
    good = [i for i, s in enumerate(scores) if s >= 95]
    if len(good) == 1:
        return Parsed(LETTERS[good[0]], start, stop)
    return None


def parse_letter_set(text: str, start: int, end: int, choices: Sequence[str] | None, *,
                     ordered: bool, tight: bool = False) -> Parsed | NoValue | None:
    """Read a set (``ordered=False``) or a sequence of letters opening the span.

    Sets: ``A, C and D``, ``[A, C]``, ``ACD``, ``A和C``; sequences: ``[B,D,C,E,F,A]``,
    ``B → D → C``, ``B-D-C``, ``BDC``. Letters may repeat in a sequence. "A or C" is a hedge.
    """
    letters = option_letters(choices)
    pos = _skip(text, start, end)
    if pos < end and text[pos] in "[(（【{":
        pos = MARKUP_RE.match(text, pos + 1, end).end()
    run = _RUN.match(text, pos, end)
    if run and all(c in letters for c in run.group()):
        got = list(run.group())
        return _letters_value(got, ordered, pos, run.end())
    sep = _SEQ_SEP if ordered else _SET_SEP
    got: list[str] = []
    a = pos
    b = pos
    while True:
        hit = _letter_at(text, pos, end, tight=False) or _letter_in_seq(text, pos, end)
        if hit is None:
            break
        got.append(hit[0])
        b = hit[2]
        if _OR_WORD.match(text, b, end) and _HEDGE.match(text, b, end):
            return NoValue("several_final_answers")
        m = sep.match(text, b, end)
        if not m:
            break
        pos = MARKUP_RE.match(text, m.end(), end).end()
    if got:
        if any(c not in letters for c in got):
            return None if tight else NoValue("not_an_option")
        return _letters_value(got, ordered, a, b)
    if choices and not tight:
        return _option_texts(text, a, end, choices, ordered)
    return None


def _letter_in_seq(text: str, pos: int, end: int) -> tuple[str, int, int] | None:
    # Inside a list a letter is followed by a separator, not necessarily by a boundary.
    if pos < end and text[pos] in LETTERS and (pos + 1 == end or not text[pos + 1].isalpha()):
        return text[pos], pos, pos + 1
    return None


def _letters_value(got: list[str], ordered: bool, a: int, b: int) -> Parsed | None:
    if ordered:
        return Parsed(got, a, b) if len(got) >= 2 else None
    return Parsed(sorted(set(got)), a, b)


def _option_texts(text: str, start: int, end: int, choices: Sequence[str], ordered: bool) -> Parsed | None:
    ce = _CLAUSE_END.search(text, start, end)
    stop = ce.start() if ce else end
    folded = {fold_text(str(c)): LETTERS[i] for i, c in enumerate(choices)}
    parts = [p for p in _PARTS.split(text[start:stop]) if p.strip()]
    if len(parts) < 2:
        return None
    got = [folded.get(fold_text(p)) for p in parts]
    if any(g is None for g in got):
        return None
    return _letters_value(got, ordered, start, stop)  # type: ignore[arg-type]
