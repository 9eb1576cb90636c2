"""Markdown and LaTeX around answers: skip it at the start of a span, strip it from values.

Chains of thought wrap their answers in ``**bold**``, ``$...$``, ``\\( ... \\)``,
``\\text{...}`` and ``\\boxed{...}``; every span parser first steps over that wrapping,
and text values are compared after :func:`fold_text`.
"""

from __future__ import annotations

import re
import unicodedata

# Markup and punctuation that may precede an answer token inside a span. Words are not
# here: which filler words a parser accepts depends on the answer type.
_MARKUP = (
    r"(?:\s+|\*+|_{1,2}(?=\S)|`+|[\"'“”‘’«»「」『』]|\$+|\\[(\[]|\\{1,2}(?=\s)"
    r"|\\(?:text|textbf|textit|mathrm|mathbf|mathit|boxed|fbox|displaystyle|bf|it)\s*\{?"
    r"|\{|\[(?![A-Za-z]\s*[,\]])|[:：])"
)
MARKUP_RE = re.compile(f"{_MARKUP}*")

# LaTeX commands that change nothing of a value's meaning.
_LATEX_NOISE = re.compile(
    r"\\(?:left|right|displaystyle|,|;|!|:| |quad|qquad|limits)(?![a-zA-Z])|\\(?=%)|\$|\\[()\[\]]"
)
_LATEX_WRAP = re.compile(r"\\(?:text|textbf|textit|mathrm|mathbf|mathit|boxed|fbox|operatorname)\s*\{([^{}]*)\}")
_DEGREE = re.compile(r"\^\s*\{?\s*\\circ\s*\}?|\\degree")
_FRAC_ALIAS = re.compile(r"\\[dt]frac")
_WS = re.compile(r"\s+")
_FOLD_PUNCT = re.compile(r"[,;:!?\"'“”‘’`、，。；：！？*]|(?<!\d)\.|\.(?!\d)|^_+|_+$")


def skip_filler(text: str, pos: int, end: int, filler: re.Pattern[str], *,
                markup: re.Pattern[str] = MARKUP_RE, times: int = 4) -> int:
    """Step over markup, then over up to ``times`` filler matches each followed by markup.

    ``filler`` is the parser's own pattern of words that may stand before its value
    ("the answer is", "approximately", 约); return the position of the value.
    """
    pos = markup.match(text, pos, end).end()
    for _ in range(times):
        m = filler.match(text, pos, end)
        if not m or m.end() == pos:
            break
        pos = markup.match(text, m.end(), end).end()
    return pos


def unwrap_latex(s: str) -> str:
    """Remove LaTeX wrappers (``\\text{x}`` -> ``x``), math delimiters and spacing commands."""
    prev = None
    while prev != s:  # wrappers nest: \boxed{\text{B}}
        prev = s
        s = _LATEX_WRAP.sub(r"\1", s)
    s = _DEGREE.sub("°", s)
    s = _FRAC_ALIAS.sub(r"\\frac", s)
    return _LATEX_NOISE.sub("", s)


def clean_value(s: str) -> str:
    """Strip markup from a text answer: LaTeX wrappers, emphasis, quotes, edge punctuation.

    Steps: unwrap LaTeX (``\\text{}``, ``\\boxed{}``, ``$``, ``\\(\\)``), drop ``**``/``__``,
    collapse whitespace, strip quotes, brackets and punctuation at both ends. Inner
    punctuation is kept: it can carry meaning (``3.5``, ``(2, 4)``, ``x-2``).
    """
    s = unwrap_latex(s).replace("**", "").replace("__", "")
    s = _WS.sub(" ", s).strip()
    return _strip_edges(s)


_PAIRS = {")": "(", "]": "[", "}": "{", "）": "（", "】": "【"}


def _strip_edges(s: str) -> str:
    """Strip quotes and punctuation at the ends, and brackets only where they are unbalanced."""
    prev = None
    while prev != s:
        prev = s
        s = s.strip(" \t\n*_`\"'“”‘’«»「」『』.,;:!?。，；：！？")
        if s and s[-1] in _PAIRS and s.count(s[-1]) > s.count(_PAIRS[s[-1]]):
            s = s[:-1]
        if s and s[0] in "([{（【" and s.count(s[0]) > s.count({v: k for k, v in _PAIRS.items()}[s[0]]):
            s = s[1:]
    return s


def fold_text(s: str) -> str:
    """Fold a text answer for comparison: the form two equal answers share.

    Steps: Unicode NFKC, case folding, LaTeX unwrapping (``\\text{}``, ``$``, ``\\left``,
    spacing commands, ``\\dfrac`` -> ``\\frac``, ``^\\circ`` -> ``°``), removal of all
    whitespace, of emphasis marks, quotes, commas, colons, semicolons and sentence
    punctuation, and of dots that are not decimal points. Kept on purpose: digits,
    decimal points, brackets, braces, operators and signs, so ``\\frac{1}{23}`` and
    ``\\frac{12}{3}`` stay different and ``3.5`` does not become ``35``.
    """
    s = unicodedata.normalize("NFKC", s).casefold()
    s = unwrap_latex(s)
    s = _WS.sub("", s)
    return _FOLD_PUNCT.sub("", s)
