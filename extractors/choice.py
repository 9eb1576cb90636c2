"""Option letters in answer spans: one letter, a set of letters, a sequence of letters.

A span is read from its start (after markup and filler such as "option"): the letter must
open the span. So "The answer is B" gives B (the marker found the span "B"), never the
"T" of "The"; and prose after a marker ("the answer is a bit unclear", "A large share")
is not a letter, while a lone "A" is. When the span holds option text instead of a letter,
it is matched against the options: exactly after folding, numerically for numeric options,
or by a near-exact rapidfuzz ratio (>= 95) for long options. Nothing is ever snapped to
the nearest option: text that matches no option is not an answer.

Sets and sequences are read the same way, item after item, with the separators chains of
thought use: commas, 、, "and", arrows (``→``, ``->``, ``>``), dashes, "then"; and when
the items are option texts ("Harbor, then Old Town, then Market", "Central (A), Harbor (C)"),
each item must be exactly one option (a letter written beside it must be that option's).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from extractors.markup import MARKUP_RE, fold_text, skip_filler, unwrap_latex
from extractors.numeric import number_complete, read_number
from extractors.types import NoValue, Parsed

_FILLER = re.compile(
    r"(?:(?:the\s+)?(?:correct\s+|right\s+|best\s+|final\s+)?(?:option|choice|letter|answer)(?:\s+is)?\b\s*[:：]?"
    r"|it\s+is\b|it's\b|is\b|that\b|to\s+be\b|选项|选择|选|为|是)[\s*_$:：]*",
    re.IGNORECASE,
)
# A letter in brackets may be lower case: "(c)". A bare letter must be upper case.
_BRACKETED = re.compile(r"[(\[（【]\s*(?P<l>[A-Za-z])\s*[)\]）】]")
# A Chinese character may follow a bare letter: no Chinese word starts with a Latin capital
# ("A或C", "A和C", "C正确").
_BARE = re.compile(r"(?P<l>[A-Z])(?:\)|(?=[\s.,;:!?\]}*$'\"\\。，、：；）\u4e00-\u9fff]|$))")
_ANY_LETTER = re.compile(r"[A-Z]")
_AND = re.compile(r"\band\b|和|与|及", re.IGNORECASE)
_VERB_AFTER = re.compile(r"\s+(?:is|was|are|were|has|does|did|can|cannot|can't|should|would|will|must|isn't|doesn't)\b",
                         re.IGNORECASE)
_LOWER_ALONE = re.compile(r"(?P<l>[a-z])[\s.*)}$\\]*$")
# Words that may follow a bare letter when it is an answer ("B because ...", "C (145°)");
# any other lower-case word means the capital was an article or an initial: "A large ...".
_AFTER_LETTER_OK = frozenset(
    "because since as which is was with from for and or in on at given based according this that the "
    "here there if to due so then would option choice also only seems appears corresponds matches".split()
)
_NEXT_WORD = re.compile(r"\s+([a-z]+)")
# The Chinese counterpart: a letter followed by a verdict against it is not an answer
# ("所以选项D错误", "B项不正确").
_ZH_REJECTED = re.compile(r"\s*(?:项|选项)?\s*(?:是|也|都|均)?(?:错误|错的|错|不对|不正确|不符|不是|不可能|不能|被排除|排除)")
_HEDGE = re.compile(
    r"\s*(?:,?\s*\bor\s+(?:possibly|perhaps|maybe)\b|,?\s*(?:but|though|although)\s+(?:it\s+)?(?:could|might|may)"
    r"\s+also\s+be\b|,?\s*\bor\b|,|/|&|、|，|\band\b|或者?|还是|和|与|及)\s*(?:(?:option|choice)\s+)?[(\[]?(?P<l>[A-Z])[)\]]?"
    r"(?![A-Za-z])"
)
_EITHER = re.compile(r"either\b\s*", re.IGNORECASE)
_OR_WORD = re.compile(r"\s*[,，]?\s*(?:\bor\b|或者?|还是|/)", re.IGNORECASE)
# An ordering may open with "first": "First B, then C, and finally A".
_FIRST = re.compile(r"(?:first(?:ly)?|starting\s+with|首先|先)[,，:：]?\s*", re.IGNORECASE)
_CLAUSE_END = re.compile(
    r"\n|(?<!\d)[.。!?！？;；](?!\d)|\s+(?:because|since|which|as\s+it|as\s+this|due\s+to|given|based)\b|,\s+(?:which|as|because|since)\b",
    re.IGNORECASE,
)
_WORD_BOUNDARY = re.compile(r"(?<=\S)(?=[\s,;:.。，；：!?)\]])")
_ARROW = r"(?:-+>|=+>|→|⟶|⇒|⇨|➔|➜|➝|➞|⟹|↦|▶|►|>)"
# Words between the items of a list of letters or of option texts.
_THEN = r"(?:and\s+)?then\b|followed\s+by\b|and\s+finally\b|finally\b|and\b"
# Between two items of a sequence: "B → D", "B->D", "B > D", "B-D", "B, D", "B, then D",
# "C and A" (the last item), "B 然后 D". Tried in this order, so "-->" is one arrow.
_SEQ_SEP = re.compile(
    r"\s*(?:[,，、;；]\s*)?(?:" + _ARROW + "|" + _THEN + r"|然后|接着|再到|再|最后|到)\s*"
    r"|\s*(?:" + _ARROW + r"|[-–—]|[,，、;；]|\s)\s*",
    re.IGNORECASE,
)
_SET_SEP = re.compile(r"\s*(?:,|，|、|;|&|\+|/|\band\b|和|与|及|以及|\s)\s*(?:and\s+)?", re.IGNORECASE)
_RUN = re.compile(r"[A-Z]{2,}(?![A-Za-z])")
# Between two option texts of a set or a sequence.
_ITEM_SEP = re.compile(
    r"\s*(?:[,，、;；]\s*)?(?:" + _ARROW + "|" + _THEN + r"|以及|然后|接着|再到|和|与|及)\s*"
    r"|\s*(?:" + _ARROW + r"|[,，、;；])\s*",
    re.IGNORECASE,
)
_ITEM_ARTICLE = re.compile(r"(?:the\s+)?", re.IGNORECASE)
# A letter written beside an option text: "Harbor (B)", "(B) Harbor", "B. Harbor".
_TAG_AFTER = re.compile(r"\s*[(（]\s*(?P<l>[A-Z])\s*[)）]")
_TAG_BEFORE = re.compile(r"(?:[(（]\s*(?P<p>[A-Z])\s*[)）]|(?P<d>[A-Z])[.:：])\s*")
# An option text ends at a word boundary: "Market" is not the start of "Marketplace".
_WORD_END = re.compile(r"(?![A-Za-z0-9])")
_ITEMS_END = re.compile(r"[\s*_`'\"“”’.,;:!?。，；：！？)\]}）】$]*$")

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def option_letters(choices: Sequence[str] | None) -> str:
    """Return the valid letters for ``choices`` (A, B, ... in order), or A-Z when unknown."""
    return LETTERS[: len(choices)] if choices else LETTERS


def _option_follows(text: str, pos: int, end: int, letter: str, choices: Sequence[str] | None) -> bool:
    """Whether the letter's own option text follows it: "C. lizard", "D tokyo"."""
    i = ord(letter) - 65
    if not choices or i >= len(choices):
        return False
    option = _options(choices).folded[i]
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
        if _ZH_REJECTED.match(text, m.end(), end):
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
    pos = skip_filler(text, either.end() if either else p1, end, _FILLER)
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
    options = _options(choices)
    # Longest prefix of the clause, cut at word boundaries, that equals an option.
    cuts = [m.end() for m in _WORD_BOUNDARY.finditer(text, start, stop)]
    if not cuts or cuts[-1] != stop:
        cuts.append(stop)
    for cut in reversed(cuts[:16]):
        key = fold_text(text[start:cut])
        hit = options.letters_of.get(key)
        if hit is not None and key and not number_complete(text, cut, stop) and key[0].isdigit():
            continue  # "50 + 25(4-\pi)" starts with the option "50" but states something else
        if hit is not None and key:
            return Parsed(hit, start, cut) if len(hit) == 1 else NoValue("several_final_answers")
    num = read_number(text, MARKUP_RE.match(text, start, stop).end(), stop)
    if num is not None and not number_complete(text, num.end, stop):
        num = None  # "50 + 25(4-\pi)" is not the option "50"
    values = options.numbers
    if num is not None and all(v is not None for v in values):
        same = [LETTERS[i] for i, v in enumerate(values) if abs(v - num.value) <= 1e-9 * max(1, abs(v))]
        if len(same) == 1:
            return Parsed(same[0], start, num.end)
        return NoValue("not_an_option") if not same else None
    return _fuzzy_option(text, start, stop, choices)


@dataclass(frozen=True, slots=True)
class _Options:
    """What the matchers compare a span with, derived once per list of option texts."""

    texts: tuple[str, ...]
    folded: tuple[str, ...]              # fold_text of each option
    letters_of: dict[str, str]           # folded text -> the letters of the options that read so

    @property
    def numbers(self) -> tuple[float | None, ...]:
        """Each option's numeric value, None when it is not a number."""
        return _option_numbers(self.texts)


def _options(choices: Sequence[str]) -> _Options:
    return _options_of(tuple(map(str, choices)))


# Cached: one response tries many spans against the same options.
@lru_cache(maxsize=256)
def _options_of(choices: tuple[str, ...]) -> _Options:
    folded = tuple(fold_text(c) for c in choices)
    letters_of: dict[str, str] = {}
    for i, key in enumerate(folded):
        letters_of[key] = letters_of.get(key, "") + LETTERS[i]
    return _Options(choices, folded, letters_of)


@lru_cache(maxsize=256)
def _option_numbers(choices: tuple[str, ...]) -> tuple[float | None, ...]:
    return tuple(_option_number(c) for c in choices)


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
    scores = [fuzz.ratio(clause, f) if len(str(c)) >= 8 else 0.0 for c, f in zip(choices, _options(choices).folded)]
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
    pos = skip_filler(text, start, end, _FILLER)
    either = _EITHER.match(text, pos, end) or (_FIRST.match(text, pos, end) if ordered else None)
    if either:  # "either A or C": the hedge is found after the first letter
        pos = MARKUP_RE.match(text, either.end(), end).end()
    if pos < end and text[pos] in "[(（【{":
        pos = MARKUP_RE.match(text, pos + 1, end).end()
    run = _RUN.match(text, pos, end)
    if run and all(c in letters for c in run.group()):
        got = list(run.group())
        if (tight and not _tight_end(text, run.end(), end)) or _ZH_REJECTED.match(text, run.end(), end):
            return None
        return _letters_value(got, ordered, pos, run.end())
    sep = _SEQ_SEP if ordered else _SET_SEP
    got: list[str] = []
    a = pos
    b = pos
    joined_by_and = False
    while True:
        hit = _letter_at(text, pos, end, tight=False) or _letter_in_seq(text, pos, end)
        if hit is None:
            raw = _BRACKETED.match(text, pos, end) or _ANY_LETTER.match(text, pos, end)
            if raw and _ZH_REJECTED.match(text, raw.end(), end):
                return None  # "A、C错误": the list is what the response rules out
            break
        if got and joined_by_and and _VERB_AFTER.match(text, hit[2], end):
            break  # "B, C, A and D is excluded": "and" opens a new clause about D
        got.append(hit[0])
        b = hit[2]
        if _OR_WORD.match(text, b, end) and _HEDGE.match(text, b, end):
            return NoValue("several_final_answers")
        m = sep.match(text, b, end)
        if not m:
            break
        joined_by_and = _AND.search(m.group()) is not None
        pos = MARKUP_RE.match(text, m.end(), end).end()
    if got:
        if any(c not in letters for c in got):
            return None if tight else NoValue("not_an_option")
        if tight and not _tight_end(text, b, end):
            return None  # "Wait, actually A is also shaded": a remark, not a restated answer
        return _letters_value(got, ordered, a, b)
    if choices and not tight:
        return option_text_items(text, a, end, choices, ordered=ordered)
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


def option_text_items(text: str, start: int, end: int, choices: Sequence[str], *,
                      ordered: bool) -> Parsed | None:
    """Read a list of option texts opening the clause at ``start`` as letters.

    Items are matched longest option first, so separators inside an option ("Magellan and
    Elcano", "副赤道带" beside "赤道带") do not split it. Every item must be exactly one
    option, optionally tagged with its own letter ("Harbor (B)"); a tag naming another
    option, an item that is no option, or text after the last item (other than
    punctuation) means the clause is not such a list. Options that read alike are ambiguous.
    """
    ce = _CLAUSE_END.search(text, start, end)
    stop = ce.start() if ce else end
    compiled = _option_items(tuple(str(c) for c in choices))
    if compiled is None:
        return None
    items, letter_of = compiled
    got: list[str] = []
    pos = a = MARKUP_RE.match(text, start, stop).end()
    b = pos
    while pos < stop:
        pos = _ITEM_ARTICLE.match(text, pos, stop).end()
        tag = _TAG_BEFORE.match(text, pos, stop)
        m = items.match(text, tag.end() if tag else pos, stop)
        if m is None or not _WORD_END.match(text, m.end(), stop):
            return None
        letter = letter_of.get(fold_text(m.group()))
        if not letter:
            return None
        after = _TAG_AFTER.match(text, m.end(), stop)
        tags = {t for t in ((tag.group("p") or tag.group("d")) if tag else None,
                            after.group("l") if after else None) if t}
        if tags and tags != {letter}:
            return None
        got.append(letter)
        b = after.end() if after else m.end()
        sep = _ITEM_SEP.match(text, b, stop)
        if sep is None or sep.end() == b:
            break
        pos = MARKUP_RE.match(text, sep.end(), stop).end()
    if not got or not _ITEMS_END.match(text, b, stop):
        return None
    return _letters_value(got, ordered, a, b)



@lru_cache(maxsize=256)
def _option_items(choices: tuple[str, ...]) -> tuple[re.Pattern[str], dict[str, str]] | None:
    """Compile a regex matching any option text (longest first, case and spacing free).

    Returns it with the map from folded text to letter; a text two options share maps to
    "" (ambiguous). None when every option is empty.
    """
    letter_of: dict[str, str] = {}
    for i, c in enumerate(choices):
        key = fold_text(c)
        if key:
            letter_of[key] = "" if key in letter_of else LETTERS[i]
    texts = sorted({c.strip() for c in choices if c.strip()}, key=len, reverse=True)
    if not texts:
        return None
    alternatives = [r"\s*".join(re.escape(w) for w in t.split()) for t in texts]
    return re.compile("(?:" + "|".join(alternatives) + ")", re.IGNORECASE), letter_of


_ARROW_LIST = re.compile(
    r"(?<![A-Za-z])[(\[]?[A-Z][)\]]?(?:\s*" + _ARROW + r"\s*[(\[]?[A-Z][)\]]?)+(?![A-Za-z])"
)
_CAPITAL = re.compile(r"[A-Z]")


def letter_sequence(text: str, start: int, end: int, choices: Sequence[str] | None) -> Parsed | None:
    """Return the letter sequence written with arrows in ``text[start:end]`` ("A → D → A").

    Arrows between capitals state an order wherever they stand in the sentence ("The
    equator crosses A → D → A from west to east"). None when there is none, when two
    different sequences are written, or when a letter is not an option.
    """
    found = list(_ARROW_LIST.finditer(text, start, end))
    if not found or len({m.group().replace(" ", "") for m in found}) > 1:
        return None
    m = found[-1]
    got = _CAPITAL.findall(m.group())
    letters = option_letters(choices)
    if any(c not in letters for c in got):
        return None
    return Parsed(got, m.start(), m.end())
