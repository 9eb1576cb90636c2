"""Gold answers, normalised into the same value forms the extractor produces.

A gold answer is written by a benchmark author, not a model: it is read whole and strictly,
and anything that is not a value of its type raises ValueError naming the problem (the
loaders add file and line).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from extractors.choice import LETTERS, option_letters
from extractors.clock import parse_time
from extractors.currency import parse_currency
from extractors.duration import parse_duration
from extractors.markup import MARKUP_RE, clean_value, fold_text
from extractors.numeric import read_number
from extractors.percent import parse_percent
from extractors.types import ANSWER_TYPES, AnswerType, AnswerValue, Parsed

_LETTER = re.compile(r"^[(\[]?\s*([A-Za-z])\s*[)\]]?\.?$")
_LIST_SEP = re.compile(r"\s*(?:,|，|、|;|→|->|⟶|>|\band\b|\s)\s*", re.IGNORECASE)
_REST_OK = re.compile(r"[\s.。]*$")
# What may follow a gold number: a unit of at most two words ("145°", "1000 ml", "5 m/s",
# "12 years", "10 cm^2", "个"), nothing else: "twelve apples and a pear" is not a number.
_UNIT_TAIL = re.compile(
    r"\s*(?:[°%％]|[A-Za-zµμΩ][A-Za-z/²³·\^\d\-]{0,11}(?:\s[A-Za-z][A-Za-z/²³\^\d\-]{0,11})?"
    r"|[\u4e00-\u9fff]{1,4})?\s*[.。]?$"
)


@dataclass(frozen=True, slots=True)
class Gold:
    """A normalised gold answer and what was written around its value."""

    value: AnswerValue
    unit: str | None = None
    decimals: int | None = None     # digits after the decimal point, for numeric golds
    magnitude: str | None = None


def normalise_gold(gold: str | list[str] | int | float, answer_type: AnswerType, *,
                   choices: Sequence[str] | None = None) -> AnswerValue:
    """Return ``gold`` normalised as ``answer_type`` (a letter, letters, number, time, ...).

    Raises ValueError naming the problem when the gold cannot be read as that type.

    >>> normalise_gold("145°", "choice", choices=["135°", "140°", "145°", "150°"])
    'C'
    >>> normalise_gold("$1,234.50", "currency")
    1234.5
    """
    return read_gold(gold, answer_type, choices=choices).value


def read_gold(gold: str | list[str] | int | float, answer_type: str, *,
              choices: Sequence[str] | None = None) -> Gold:
    """Like :func:`normalise_gold`, keeping the unit, decimals and magnitude written with it."""
    if answer_type not in ANSWER_TYPES:
        raise ValueError(f"unknown answer type {answer_type!r}; expected one of {', '.join(ANSWER_TYPES)}")
    if gold is None or (isinstance(gold, str) and not gold.strip()):
        raise ValueError("gold answer is empty")
    if isinstance(gold, bool):
        if answer_type != "yes_no":
            raise ValueError(f"gold {gold!r} is a boolean, not a {answer_type} answer")
        return Gold("yes" if gold else "no")
    if answer_type == "choice":
        return Gold(_gold_letter(gold, choices))
    if answer_type in ("multi_choice", "ordering"):
        return Gold(_gold_letters(gold, choices, ordered=answer_type == "ordering"))
    if isinstance(gold, list):
        raise ValueError(f"gold is a list, but a {answer_type} answer is one value")
    if isinstance(gold, (int, float)):
        if answer_type in ("integer", "float", "currency", "percent", "duration"):
            if answer_type == "integer" and not float(gold).is_integer():
                raise ValueError(f"integer gold {gold!r} is not a whole number")
            return Gold(int(gold) if answer_type == "integer" else gold, decimals=_decimals_of_float(gold))
        gold = str(gold)
    s = str(gold).strip()
    if answer_type in ("integer", "float"):
        return _gold_number(s, answer_type)
    if answer_type == "currency":
        got = parse_currency(s, 0, len(s))
        return _whole(got, s, "an amount of money", keep_unit=True)
    if answer_type == "percent":
        got = parse_percent(s, 0, len(s))
        return _whole(got, s, "a percentage", keep_unit=True)
    if answer_type == "time":
        got = parse_time(s, 0, len(s))
        return _whole(got, s, "a clock time")
    if answer_type == "duration":
        got = parse_duration(s, 0, len(s))
        return _whole(got, s, "a duration")
    if answer_type == "yes_no":
        f = fold_text(s)
        if f in ("yes", "true", "是", "对", "正确", "y"):
            return Gold("yes")
        if f in ("no", "false", "否", "不是", "错", "错误", "n"):
            return Gold("no")
        raise ValueError(f"gold {s!r} is not yes or no")
    value = clean_value(s)
    if not value:
        raise ValueError(f"gold {s!r} is empty after removing markup")
    return Gold(value)


def _decimals_of_float(x: int | float) -> int:
    if isinstance(x, int) or float(x).is_integer():
        return 0
    return len(repr(float(x)).split(".")[1].rstrip("0"))


def _whole(got: object, s: str, what: str, *, keep_unit: bool = False) -> Gold:
    if not isinstance(got, Parsed):
        raise ValueError(f"gold {s!r} is not {what}")
    if not _REST_OK.match(s, got.end):
        raise ValueError(f"gold {s!r} is not {what}: unexpected {s[got.end:].strip()!r}")
    decimals = None
    if isinstance(got.value, (int, float)):
        m = re.search(r"\d+(?:[.,](\d+))?", s[got.start:got.end])
        decimals = len(m.group(1)) if m and m.group(1) and "." in m.group() else 0
    return Gold(got.value, unit=got.unit if keep_unit else None, decimals=decimals, magnitude=got.magnitude)


def _gold_number(s: str, answer_type: str) -> Gold:
    pos = MARKUP_RE.match(s, 0).end()
    num = read_number(s, pos)
    if num is None:
        raise ValueError(f"gold {s!r} is not a number")
    if not _UNIT_TAIL.match(s, num.end):
        raise ValueError(f"gold {s!r} is not a number: unexpected {s[num.end:].strip()!r}")
    value = num.value
    if answer_type == "integer":
        if isinstance(value, float):
            if not value.is_integer():
                raise ValueError(f"integer gold {s!r} is not a whole number")
            value = int(value)
    return Gold(value, decimals=num.decimals, magnitude=num.magnitude)


def _gold_letter(gold: object, choices: Sequence[str] | None) -> str:
    if isinstance(gold, list):
        if len(gold) != 1:
            raise ValueError(f"gold {gold!r} has {len(gold)} letters; a single-choice answer has one")
        gold = gold[0]
    s = str(gold).strip()
    letters = option_letters(choices)
    # A letter is a letter, even when option texts are letters too (MMMU-Pro has options
    # ['B', 'D', 'E', 'A', 'C'] with gold 'C' meaning the fifth option): golds are letters
    # unless they are not, and only then option texts.
    m = _LETTER.match(s)
    if m and m.group(1).upper() in letters:
        return m.group(1).upper()
    if choices:
        key = fold_text(s)
        hits = [LETTERS[i] for i, c in enumerate(choices) if fold_text(str(c)) == key]
        if hits:
            # Duplicate option texts (MathVista has ['9', '12', '18', '18']) are equally
            # right; the scorer compares option texts, so the first letter stands for both.
            return hits[0]
    if choices:
        raise ValueError(f"gold {s!r} is neither an option letter ({letters[0]}-{letters[-1]}) "
                         f"nor one of the {len(choices)} option texts")
    raise ValueError(f"gold {s!r} is not an option letter")


def _gold_letters(gold: object, choices: Sequence[str] | None, *, ordered: bool) -> list[str]:
    letters = option_letters(choices)
    if isinstance(gold, str):
        s = gold.strip().strip("[](){}")
        if re.fullmatch(r"[A-Za-z]+", s) and len(s) > 1:
            parts = list(s)
        else:
            parts = [p for p in _LIST_SEP.split(s) if p]
    elif isinstance(gold, list):
        parts = [str(p) for p in gold]
    else:
        raise ValueError(f"gold {gold!r} is not a list of option letters")
    out = []
    for p in parts:
        m = _LETTER.match(p.strip().strip("'\""))
        if not m or m.group(1).upper() not in letters:
            raise ValueError(f"gold {gold!r}: {p!r} is not an option letter ({letters[0]}-{letters[-1]})")
        out.append(m.group(1).upper())
    if not out:
        raise ValueError(f"gold {gold!r} holds no option letter")
    return out if ordered else sorted(set(out))
