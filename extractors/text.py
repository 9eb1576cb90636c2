"""Free-text answers: the clause that opens an answer span, with its markup stripped.

For ``\\boxed{...}`` and ``<answer>...</answer>`` spans the whole content is the answer;
after other markers it is the clause up to the end of the line or sentence. The value is
:func:`extractors.markup.clean_value` of it (case and inner punctuation kept; the scorer
folds them).
"""

from __future__ import annotations

import re

from extractors.markup import clean_value, skip_filler
from extractors.types import Parsed

_SENTENCE_END = re.compile(r"\n|(?<![\d\s])[.。!?！？](?=\s|$)|(?<=\d)\.(?=\s|$)|[;；]")
_FILLER = re.compile(r"(?:is|are|was|be|that|it's|it\s+is|为|是)\b\s*", re.IGNORECASE)
_MAX_WORDS = 40


def parse_text(text: str, start: int, end: int, *, whole: bool = False, tight: bool = False) -> Parsed | None:
    """Read a text answer opening ``text[start:end]`` (the whole span when ``whole``)."""
    pos = skip_filler(text, start, end, _FILLER, times=0 if whole else 1)
    stop = end
    if not whole:
        se = _SENTENCE_END.search(text, pos, end)
        stop = se.start() if se else end
    raw = text[pos:stop]
    value = clean_value(raw)
    if not value or len(value.split()) > _MAX_WORDS:
        return None
    if tight and len(value.split()) > 6:
        return None
    # Evidence: the raw span, trimmed of surrounding whitespace only.
    lead = len(raw) - len(raw.lstrip())
    return Parsed(value, pos + lead, pos + len(raw.rstrip()))
