"""Score an extracted answer against the gold: ``strict`` (ours) or ``official`` (published).

``strict`` (the default):

- choice: the letter equals the gold letter (a gold given as option text is mapped to its
  letter first); multi_choice: set equality (``"B"`` vs ``["B", "C"]`` is wrong); ordering:
  sequence equality, repeats included.
- integer: exact. float, currency, percent: equal within half a unit of the last decimal
  of the precision, taken from (in order) the ``precision`` argument, the format hint
  ("Float, two decimal places", "保留两位小数", "Integer") or the decimals the gold is
  written with; a gold with no decimals and no hint must be met exactly. So with gold
  ``3.24``, 3.2449 is right and 3.25 wrong.
- currency: symbols and codes are ignored when the gold has none; when both name a
  currency they must agree. percent: when only one side carries ``%`` the other may be a
  fraction (``0.125`` vs ``12.5%``). A magnitude word on one side only (``3.5万`` vs
  ``3.5``) is accepted either scaled or as written, because questions state such units
  in the question ("in 万元").
- time: equal canonical times (``19:00`` = ``19:00:00``); duration: equal seconds.
- yes_no: equal; text: equal after :func:`~extractors.markup.fold_text` (case, whitespace,
  punctuation, LaTeX markup), or numerically equal when both sides are numbers.

``official`` reproduces a benchmark's published semantics, so numbers compare with papers:

- ``benchmark="ocr-reasoning"``: OCR-Reasoning's ``post_check`` in VLMEvalKit (see
  :mod:`extractors.official`) applied to the answer *as the response wrote it* (the
  extraction's ``evidence``; pass the :class:`Extraction` to score it): ``can_infer`` for
  choices, ``int()``/``float()`` then ``==`` for integer/float answers, so ``$3.24`` or
  ``45%`` is a miss; space-stripped, case-sensitive string equality otherwise. Integer
  path when the answer type is integer or the format hint says "Integer"; float path for
  float, currency and percent; string path for the rest.
- ``benchmark="map"``: OmniMapBench's strict exact match of the letter, the letter set or
  the letter sequence, no partial credit (paper, section 4).
- ``benchmark="generic"``: exact equality of the normalised values: no numeric tolerance,
  no case or punctuation folding, units must agree when both are stated.

Both modes return None when there is no extracted value (unscorable, counted apart from
wrong by the callers).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Literal

from extractors.choice import LETTERS
from extractors.gold import Gold, read_gold
from extractors.markup import clean_value, fold_text
from extractors.numeric import MAGNITUDES, read_number
from extractors.official import ocr_reasoning_post_check
from extractors.types import AnswerType, AnswerValue, Extraction

Mode = Literal["strict", "official"]
Benchmark = Literal["generic", "ocr-reasoning", "map"]

_WORD_DECIMALS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "一": 1, "两": 2, "二": 2, "三": 3, "四": 4}
_HINT_DECIMALS = re.compile(
    r"(?P<n>\d+|one|two|three|four|five)\s+decimal|(?:保留|精确到)\s*(?P<z>\d+|[一两二三四])\s*位小数"
    r"|(?P<int>\binteger\b|整数)",
    re.IGNORECASE,
)


def hint_decimals(format_hint: str | None) -> int | None:
    """Return the decimals a format hint asks for ("Float, two decimal places" -> 2), or None."""
    if not format_hint:
        return None
    m = _HINT_DECIMALS.search(format_hint)
    if m is None:
        return None
    if m.group("int"):
        return 0
    word = (m.group("n") or m.group("z")).lower()
    return int(word) if word.isdigit() else _WORD_DECIMALS[word]


def score_answer(value: AnswerValue | Extraction, gold: str | list[str] | int | float, answer_type: AnswerType, *,
                 mode: Mode = "strict", benchmark: Benchmark = "generic",
                 choices: Sequence[str] | None = None, format_hint: str | None = None,
                 precision: int | None = None,
                 official_answer_type: Literal["integer", "float", "other"] | None = None) -> bool | None:
    """Return whether the extracted ``value`` matches ``gold``; None when there is no value.

    ``official_answer_type`` is the benchmark file's own ``answer_type`` column
    (OCR-Reasoning: ``integer | float | other``); official OCR-Reasoning scoring uses it
    as its checker did, and guesses it from ``answer_type`` and ``format_hint`` only
    when it is not given.

    ``value`` is an extraction's value, or the :class:`Extraction` itself (then its unit,
    magnitude and evidence are used too). Raises ValueError when the gold cannot be read.

    >>> score_answer(3.25, "3.24", "float")
    False
    >>> score_answer(["B"], ["B", "C"], "multi_choice")
    False
    """
    ext = value if isinstance(value, Extraction) else None
    v = ext.value if ext is not None else value
    if v is None:
        return None
    if mode not in ("strict", "official"):
        raise ValueError(f"unknown mode {mode!r}; expected 'strict' or 'official'")
    if benchmark not in ("generic", "ocr-reasoning", "map"):
        raise ValueError(f"unknown benchmark {benchmark!r}")
    if mode == "official" and benchmark == "ocr-reasoning":
        return _official_ocr_reasoning(ext, v, gold, answer_type, choices, format_hint, official_answer_type)
    g = read_gold(gold, answer_type, choices=choices)
    unit = ext.unit if ext is not None else None
    magnitude = ext.magnitude if ext is not None else None
    if answer_type in ("choice", "multi_choice", "ordering"):
        if _letters_equal(v, g.value, answer_type):
            return True
        return answer_type == "choice" and mode == "strict" and _same_option_text(v, g.value, choices)
    if mode == "official":
        return _exact(v, g, answer_type, unit)
    return _strict(v, g, answer_type, unit, magnitude, format_hint, precision)


def _letters_equal(v: AnswerValue, g: AnswerValue, answer_type: str) -> bool:
    if answer_type == "choice":
        if isinstance(v, list):
            return len(v) == 1 and str(v[0]).upper() == g
        return str(v).strip().upper() == g
    vs = [v] if isinstance(v, str) else list(v)  # type: ignore[arg-type]
    vs = [str(x).strip().upper() for x in vs]
    if answer_type == "multi_choice":
        return sorted(set(vs)) == g
    return vs == g


def _same_option_text(v: AnswerValue, g: AnswerValue, choices: Sequence[str] | None) -> bool:
    """Two letters whose options read the same (duplicated options) are the same answer."""
    if not choices or not isinstance(v, str) or not isinstance(g, str) or len(v) != 1:
        return False
    i, j = ord(v.upper()) - 65, ord(g) - 65
    return 0 <= i < len(choices) and 0 <= j < len(choices) and fold_text(str(choices[i])) == fold_text(str(choices[j]))


def _exact(v: AnswerValue, g: Gold, answer_type: str, unit: str | None) -> bool:
    if answer_type in ("integer", "float", "currency", "percent", "duration"):
        if not isinstance(v, (int, float)):
            return False
        if unit and g.unit and unit != g.unit:
            return False
        return float(v) == float(g.value)  # type: ignore[arg-type]
    if answer_type == "time":
        return _time_key(str(v)) == _time_key(str(g.value))
    if answer_type == "text":
        return clean_value(str(v)) == g.value
    return v == g.value


def _strict(v: AnswerValue, g: Gold, answer_type: str, unit: str | None, magnitude: str | None,
            format_hint: str | None, precision: int | None) -> bool:
    if answer_type in ("integer", "float", "currency", "percent"):
        if not isinstance(v, (int, float)):
            v = _number_of(str(v))
            if v is None:
                return False
        gv = float(g.value)  # type: ignore[arg-type]
        if answer_type == "currency" and unit and g.unit and unit != g.unit:
            return False
        decimals = _decimals(answer_type, g, format_hint, precision)
        candidates = [float(v)]
        if answer_type == "percent":
            if g.unit == "%" and unit != "%":
                candidates.append(float(v) * 100)
            elif unit == "%" and g.unit != "%":
                candidates.append(float(v) / 100)
        if magnitude and not g.magnitude and magnitude in MAGNITUDES:
            candidates.append(float(v) / MAGNITUDES[magnitude])
        if g.magnitude and not magnitude and g.magnitude in MAGNITUDES:
            candidates.append(float(v) * MAGNITUDES[g.magnitude])
        return any(_close(c, gv, decimals) for c in candidates)
    if answer_type == "duration":
        return isinstance(v, (int, float)) and math.isclose(float(v), float(g.value), rel_tol=1e-9, abs_tol=1e-9)  # type: ignore[arg-type]
    if answer_type == "time":
        return _time_key(str(v)) == _time_key(str(g.value))
    if answer_type == "yes_no":
        return str(v).strip().lower() == g.value
    return _text_equal(str(v), str(g.value), precision)


def _decimals(answer_type: str, g: Gold, format_hint: str | None, precision: int | None) -> int | None:
    if answer_type == "integer":
        return None
    if precision is not None:
        return precision
    hinted = hint_decimals(format_hint)
    if hinted is not None:
        return hinted
    return g.decimals or None


def _close(v: float, g: float, decimals: int | None) -> bool:
    scale = max(1.0, abs(g))
    if decimals is None:
        return abs(v - g) <= 1e-9 * scale
    return abs(v - g) <= 0.5 * 10.0 ** (-decimals) + 1e-9 * scale


def _time_key(t: str) -> str:
    return t if t.count(":") == 2 else f"{t}:00"


def _number_of(s: str) -> float | None:
    s = fold_text(s)
    n = read_number(s, 0)
    if n is None or s[n.end:].strip("°%"):
        return None
    return float(n.value)


def _text_equal(v: str, g: str, precision: int | None) -> bool:
    if fold_text(v) == fold_text(g):
        return True
    nv, ng = _number_of(v), _number_of(g)
    if nv is not None and ng is not None:
        return _close(nv, ng, precision) if precision is not None else math.isclose(nv, ng, rel_tol=1e-9, abs_tol=1e-12)
    return False


def _official_answer_type(answer_type: str, format_hint: str | None) -> str:
    if answer_type == "integer" or (answer_type in ("float", "currency", "percent") and hint_decimals(format_hint) == 0):
        return "integer"
    if answer_type in ("float", "currency", "percent"):
        return "float"
    return "other"


def _official_ocr_reasoning(ext: Extraction | None, v: AnswerValue, gold: str | list[str] | int | float,
                            answer_type: str, choices: Sequence[str] | None, format_hint: str | None,
                            official_answer_type: str | None = None) -> bool:
    raw = ext.evidence if ext is not None and ext.evidence else (
        "".join(v) if isinstance(v, list) else str(v))
    if answer_type in ("choice", "multi_choice", "ordering"):
        if answer_type != "choice":
            # OCR-Reasoning has single-answer multiple choice only; sets and sequences
            # have no official semantics there, so compare them exactly.
            return _letters_equal(v, read_gold(gold, answer_type, choices=choices).value, answer_type)
        g = read_gold(gold, "choice", choices=choices).value
        return ocr_reasoning_post_check(raw, g, question_type="multi_choice", answer_type="other",
                                        choices=choices if choices else list(_letters_upto(str(g))))
    official_type = official_answer_type or _official_answer_type(answer_type, format_hint)
    gold_s = gold if not isinstance(gold, list) else "".join(gold)
    return ocr_reasoning_post_check(raw.strip(), gold_s, question_type="free_form", answer_type=official_type)


def _letters_upto(letter: str) -> str:
    return LETTERS[: max(4, ord(letter) - 64)]
