"""The rule path: find a response's final stated answer and normalise it to its type.

Order of evidence, strongest first; the first that yields a value wins:

1. **Markers**, last first (:mod:`extractors.final`): ``\\boxed{}``, ``Answer:``, "the answer
   is", a self-correction, 答案是 ... . A marker whose span hedges ("B or C"), names a
   non-option or refuses ends the search with that reason: the final statement is not an
   answer, and an earlier one is not resurrected.
2. **A refusal** near the end ("cannot be determined", "none of the options") -> no value.
3. **The whole response** when it is nothing but an answer ("C", "42", "7 pm").
4. **The last line** when it is nothing but an answer ("**B**", "C. 145°").
5. **A concluding sentence** ("Therefore, the total is 1000 ml.") in the last paragraph:
   the value after its last copula that is not negated ("cannot be option B" states
   nothing); for a single choice, an option named at the very end after a comma ("...
   leads to EXIT B, option B.", "……，选项A。"); for an ordering, a letter sequence written
   with arrows ("The equator crosses A → D → A → D → A from west to east.").
6. **A leading answer** for choices and yes/no ("B. The reason is ...", "No, because ...").
7. **A bold letter** in the last paragraph ("... so we pick **C**").
8. **A hedge** in the last paragraph ("it could be B or C") -> ``several_final_answers``.

A self-correction whose span does not open with the answer ("Wait, the orange line does
not stop there ... So the correct route is option B.") is read by the rules of 5 on its
last "so ..." clause; when that fails too, the earlier marker stands.

Otherwise no value, with reason ``no_answer`` (or ``unparsable_*`` when the response
stated a final answer that is not a value of the asked type). Nothing is guessed.

Letter lists are not checked against the number of options: an ordering that names
three of four options is extracted as stated and scored wrong by the scorer (sequence
equality), not dropped as unanswered.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from extractors.choice import LETTERS, letter_sequence, option_letters, parse_choice, parse_letter_set
from extractors.clock import parse_time
from extractors.currency import parse_currency
from extractors.duration import parse_duration
from extractors.final import Candidate, span_end, strong_candidates
from extractors.numeric import read_final_number
from extractors.percent import parse_percent
from extractors.refusal import refusal_reason
from extractors.text import parse_text
from extractors.types import ANSWER_TYPES, AnswerType, Extraction, NoValue, Parsed
from extractors.yesno import parse_yes_no

Parser = Callable[..., "Parsed | NoValue | None"]

_LAST_PARAGRAPH = 600
_TRAILING_OK = re.compile(r"[\s*_$`'\"“”‘’.,;:!。，；：！)\]}\\]*(?:\\\)|\\\]|\$)*[\s*_$`.)\]}。]*$")
_CONNECTIVE = re.compile(
    r"(?:^|(?<=[.!?。！？\n])\s*)(?:\*\*)?(?:(?:therefore|thus|so|hence|in\s+conclusion|in\s+summary|finally|overall"
    r"|as\s+a\s+result|consequently|in\s+total|altogether|this\s+means)\b|所以|因此|故|综上所述?|总之|由此可知)"
    r"[,，:：]?\s*",
    re.IGNORECASE,
)
# "so it's C, B, A" inside a self-correction: after a comma too, not only a sentence start.
_SO_CLAUSE = re.compile(
    r"(?:^|(?<=[.!?。！？\n,，;；:：—])\s*)(?:\*\*)?(?:and\s+)?(?:(?:so|therefore|thus|hence|which\s+means)\b"
    r"|所以|因此|故)[,，:：]?\s*",
    re.IGNORECASE,
)
# Chinese 是/为 are copulas except inside 但是, 还是 ("or"), 于是, 要是, 可是, 或是, 只是, 不是,
# 是否, 因为, 作为, 认为, 以为, 为了.
_COPULA = re.compile(
    r"(?:\s(?:is|are|was|were|equals|equal\s+to|be|of|would\s+be|will\s+be)\s|\s?[=≈]\s?"
    r"|(?<![A-Za-z])(?:it|that|this)['’]s\s|(?<![但还于总要可若凡或只不])是(?!否)|(?<![因作认以行])为(?!了)|等于)",
    re.IGNORECASE,
)
# For letter answers "i.e." and 即 also introduce the answer: "..., Kitchen 和 Lobby，即 B、C、E。"
_LETTER_COPULA = re.compile(r"\bi\.\s?e\.,?\s|\bnamely\s|\bthat\s+is,\s|即|也就是", re.IGNORECASE)
_LETTER_TYPES = frozenset({"choice", "multi_choice", "ordering"})
_ONLY_BEFORE = re.compile(r"\bonly\s+$", re.IGNORECASE)
# A copula right after a negation states what the answer is not ("cannot be option B");
# after "so" / "neither" / "nor" it extends a verdict to another option ("A is wrong, and
# so is option B").
_NEGATED = re.compile(r"(?:\bnot|n['’]t|\bnever|\bcannot|\bno\s+longer|\bso|\bneither|\bnor)\s*$", re.IGNORECASE)
_SENTENCE_STOP = re.compile(r"(?<!\d)[.!?](?=\s|$)|[。！？]|\n\s*\n")
# A single-choice conclusion that names the option at its very end, after a comma, a colon,
# a dash, "i.e." or an opening bracket: "... leads to EXIT B, option B.", "……，选项A。".
_TAIL_OPTION = re.compile(
    r"(?:[,，:：;；—–(（]|\b(?i:i\.\s?e\.|that\s+is|namely|which\s+is))[,\s]*(?:\*\*|__)?\s*"
    r"(?:(?i:(?:the\s+)?(?:option|choice|answer))\s*|选项|选择|选)[(\[（]?\s*(?P<l>[A-Z])\s*[)\]）]?"
    r"\s*(?:\*\*|__)?[\s.。!！)）]*$"
)
_OPTION_MENTION = re.compile(r"(?i:option|choice)s?\s*[(\[]?[A-Z](?![A-Za-z])|[(\[][A-Z][)\]]|选项\s*[A-Z]")
# Words that make a sentence's trailing option a remark rather than the answer.
_NEGATION_WORD = re.compile(r"\b(?:not|never|cannot|no|isn't|wrong|incorrect|impossible|eliminat\w*|rule[sd]?\s+out"
                            r"|except|unlike)\b|不|错误|排除|除了", re.IGNORECASE)
_LEAD = re.compile(r"\s*(?:\*\*)?\s*(?:[(\[]\s*(?P<p>[A-Za-z])\s*[)\]]|(?P<u>[A-Z])(?=\s*(?:[.):：]|\*\*|\n|$)))")
_BOLD = re.compile(r"\*\*\s*(?:option\s+|choice\s+)?[(\[]?(?P<l>[A-Z])[)\]]?\.?\s*\*\*")
_HEDGE = re.compile(
    r"\b(?:either\s+)?(?:option\s+)?\(?(?P<a>(?-i:[A-Z]))\)?\s+or\s+(?:option\s+)?\(?(?P<b>(?-i:[A-Z]))\)?"
    r"(?![A-Za-z])(?=[^.\n]{0,80}(?:could|might|may|possibl|likely|either|both|depend|unclear))"
    r"|\b(?:could|might|may)\s+be\s+(?:either\s+)?(?:option\s+)?\(?(?-i:[A-Z])\)?\s+or\s+(?:option\s+)?\(?(?-i:[A-Z])\)?",
    re.IGNORECASE,
)
# "It's C, but it could also be D", "B, or possibly C": a second letter offered as an alternative.
_HEDGE_ALSO = re.compile(
    r"(?<![A-Za-z])(?P<a>(?-i:[A-Z]))\)?(?![A-Za-z])[^.\n?!]{0,60}?"
    r"\b(?:(?:could|might|may)\s+(?:also|just\s+as\s+well)\s+be|or\s+(?:possibly|perhaps|maybe))"
    r"\s+(?:option\s+)?\(?(?P<b>(?-i:[A-Z]))(?![A-Za-z])",
    re.IGNORECASE,
)
_CONTINUATION = re.compile(r"\n[ \t]*(?:\*\*)?(?:Question|Human|User|问题|题目)\s*\d*\s*(?:\*\*)?[:：]")
# A number token: not inside a word, an exponent, a clock time, or a function argument "f(0)".
_NUMBER_TOKEN = re.compile(r"(?<![A-Za-z0-9.^_:：{])(?<![A-Za-z]\()[-−]?\$?\d[\d,]*(?:\.\d+)?(?![\d^_])")
_FINAL_FORMS = frozenset({"boxed", "answer_tag"})
_UNPARSABLE = {
    "integer": "unparsable_number", "float": "unparsable_number", "currency": "unparsable_number",
    "percent": "unparsable_number", "time": "unparsable_time", "duration": "unparsable_duration",
}
_SCALAR = frozenset(_UNPARSABLE)  # the types whose value starts at a number token


def _parse_number(text: str, start: int, end: int, *, tight: bool = False) -> Parsed | NoValue | None:
    num, reason = read_final_number(text, start, end, tight=tight)
    if reason:
        return NoValue(reason)
    if num is None:
        return None
    return Parsed(num.value, num.start, num.end, magnitude=num.magnitude)


_PARSERS: dict[str, Parser] = {
    "integer": _parse_number,
    "float": _parse_number,
    "currency": parse_currency,
    "percent": parse_percent,
    "time": parse_time,
    "duration": parse_duration,
    "yes_no": parse_yes_no,
}


def _parse(answer_type: str, text: str, start: int, end: int, choices: Sequence[str] | None, *,
           tight: bool, whole: bool = False) -> Parsed | NoValue | None:
    if answer_type == "choice":
        return parse_choice(text, start, end, choices, tight=tight)
    if answer_type == "multi_choice":
        return parse_letter_set(text, start, end, choices, ordered=False, tight=tight)
    if answer_type == "ordering":
        return parse_letter_set(text, start, end, choices, ordered=True, tight=tight)
    if answer_type == "text":
        return parse_text(text, start, end, whole=whole, tight=tight)
    return _PARSERS[answer_type](text, start, end, tight=tight)


def extract_answer(text: str, answer_type: AnswerType, *, choices: Sequence[str] | None = None,
                   question: str | None = None, format_hint: str | None = None) -> Extraction:
    """Find the final answer stated in ``text`` and normalise it as ``answer_type``.

    ``choices`` are the option texts, lettered A, B, ... in order; ``question``, when given,
    is skipped if the response opens by restating it; ``format_hint`` (OCR-Reasoning's
    ``format``, e.g. "$ + Integer") makes a whole-number float an int when it asks for an
    integer. Returns an :class:`~extractors.types.Extraction`; never raises on odd text.

    >>> extract_answer("Option A fails. So B. Wait, actually C.", "choice", choices=list("abcd")).value
    'C'
    """
    if answer_type not in ANSWER_TYPES:
        raise ValueError(f"unknown answer type {answer_type!r}; expected one of {', '.join(ANSWER_TYPES)}")
    if choices is not None and len(choices) > len(LETTERS):
        raise ValueError(f"{len(choices)} choices; at most {len(LETTERS)} can be lettered")
    if not text or not text.strip():
        return Extraction(reason="empty_response")
    cut = _CONTINUATION.search(text, 20)
    if cut is not None and text[:cut.start()].strip():
        # A model that keeps writing the few-shot pattern ("\n\nQuestion: ...") answers
        # questions nobody asked; its answer to this one is before the first of them.
        text = text[:cut.start()]
    got = _extract(text, answer_type, choices, question)
    if got.value is not None and format_hint and answer_type in ("float", "currency", "percent"):
        if "integer" in format_hint.lower() and isinstance(got.value, float) and got.value.is_integer():
            got = got.model_copy(update={"value": int(got.value)})
    return got


def _found(text: str, p: Parsed, method: str) -> Extraction:
    return Extraction(value=p.value, method=method, evidence=text[p.start:p.end], unit=p.unit,
                      magnitude=p.magnitude)


def _extract(text: str, answer_type: str, choices: Sequence[str] | None, question: str | None) -> Extraction:
    saw_marker = False
    stop_at: tuple[int, Extraction] | None = None  # a failed \boxed{}: its line may still answer
    for cand in strong_candidates(text, answer_type):
        if stop_at is not None and text.rfind("\n", cand.marker_start, stop_at[0]) >= 0:
            return stop_at[1]
        if answer_type == "choice" and cand.letter is not None:
            if cand.letter in option_letters(choices):
                return Extraction(value=cand.letter, method=cand.method,
                                  evidence=text[cand.start:cand.end])
            continue
        if cand.letter is not None:
            if answer_type == "multi_choice" and _ONLY_BEFORE.search(text, max(0, cand.marker_start - 12),
                                                                     cand.marker_start):
                # "Only option C is correct." states the whole set; a bare "Option C is
                # correct." is one verdict among several and is not.
                return Extraction(value=[cand.letter], method=cand.method, evidence=text[cand.start:cand.end])
            continue
        res = _parse(answer_type, text, cand.start, cand.end, choices, tight=cand.tight,
                     whole=cand.method in ("boxed", "answer_tag"))
        if isinstance(res, Parsed):
            return _found(text, res, cand.method)
        if cand.method == "self_correction":
            restated = _restated(text, cand, answer_type, choices)
            if restated is not None:
                return restated
        if cand.tight:
            continue
        if cand.end > cand.start and text[cand.start:cand.end].strip():
            saw_marker = True
        if isinstance(res, NoValue):
            return Extraction(reason=res.reason, method=cand.method, evidence=_clip(text, cand))
        span_refusal = refusal_reason(text, cand.start, cand.end) if cand.method == "answer_label" else None
        if span_refusal:
            return Extraction(reason=span_refusal, method=cand.method, evidence=_clip(text, cand))
        if cand.method in _FINAL_FORMS and text[cand.start:cand.end].strip():
            # A boxed or labelled final answer that is not a value of the type ends the
            # search: "\boxed{5\sqrt{5}-10}" against options in another form is not an
            # invitation to read some earlier number as the answer.
            # Unless the same line states the answer before it: "the correct answer is (D).
            # $\boxed{P_1}$ and $\boxed{P_2}$ have the same perimeter."
            reason = "not_an_option" if answer_type in _LETTER_TYPES else _UNPARSABLE.get(answer_type, "no_answer")
            if stop_at is None:
                stop_at = (cand.marker_start, Extraction(reason=reason, method=cand.method,
                                                          evidence=_clip(text, cand)))
    if stop_at is not None:
        return stop_at[1]

    n = len(text)
    reason = refusal_reason(text)
    if reason:
        return Extraction(reason=reason, method="refusal")

    begin = _after_question(text, question)
    tail = max(begin, n - _LAST_PARAGRAPH)
    if answer_type in ("choice", "multi_choice"):
        also = _HEDGE_ALSO.search(text, tail, n)
        if also is not None and also.group("a") != also.group("b"):
            return Extraction(reason="several_final_answers", method="hedge")
    weak = _weak(text, answer_type, choices, begin, tail, n)
    if weak is not None:
        return weak

    if answer_type in ("choice", "multi_choice") and _HEDGE.search(text, tail, n):
        return Extraction(reason="several_final_answers", method="hedge")
    if saw_marker:
        return Extraction(reason=_UNPARSABLE.get(answer_type, "no_answer"))
    return Extraction(reason="no_answer")


def _clip(text: str, cand: Candidate) -> str:
    return text[cand.start:min(cand.end, cand.start + 200)].strip()


def _after_question(text: str, question: str | None) -> int:
    if question:
        q = question.strip()
        s = text.lstrip()
        if len(q) > 10 and s.startswith(q):
            return len(text) - len(s) + len(q)
    return 0


def _complete(text: str, p: Parsed, end: int, answer_type: str) -> bool:
    """Whether nothing but markup follows the value up to ``end``."""
    if _TRAILING_OK.match(text, p.end, end):
        return True
    if answer_type == "choice":  # "C. 145°", "(C) 145°": the letter opens an option line
        return text[p.end:p.end + 1] in (".", ")", ":", "：") or text[p.start] in "(["
    return False


def _weak(text: str, answer_type: str, choices: Sequence[str] | None, begin: int, tail: int,
          n: int) -> Extraction | None:
    # The whole response is the answer.
    if n - begin <= 80:
        res = _parse(answer_type, text, begin, n, choices, tight=False, whole=True)
        if isinstance(res, Parsed) and _complete(text, res, n, answer_type):
            return _found(text, res, "whole_response")
    # The last non-empty line is the answer.
    stripped_end = len(text.rstrip())
    line_start = text.rfind("\n", begin, stripped_end) + 1
    line_start = max(line_start, begin)
    if stripped_end - line_start <= 120:
        res = _parse(answer_type, text, line_start, stripped_end, choices, tight=False, whole=True)
        if isinstance(res, Parsed) and _complete(text, res, stripped_end, answer_type):
            return _found(text, res, "last_line")
    # A concluding sentence in the last paragraph.
    got = _conclusion(text, answer_type, choices, tail, n)
    if got is not None:
        return got
    if answer_type == "choice":
        lead = _LEAD.match(text, begin, min(n, begin + 40))
        if lead:
            letter = (lead.group("p") or lead.group("u")).upper()
            if letter in option_letters(choices):
                return Extraction(value=letter, method="leading_answer", evidence=lead.group().strip())
        bolds = list(_BOLD.finditer(text, tail, n))
        if bolds and len({b.group("l") for b in bolds}) == 1 and bolds[-1].group("l") in option_letters(choices):
            b = bolds[-1]
            return Extraction(value=b.group("l"), method="bold", evidence=b.group())
    if answer_type == "yes_no":
        res = parse_yes_no(text, begin, min(n, begin + 40))
        if isinstance(res, Parsed):
            return _found(text, res, "leading_answer")
    return None


def _conclusion(text: str, answer_type: str, choices: Sequence[str] | None, tail: int, n: int) -> Extraction | None:
    """Read the answer from the last sentence, or from a "Therefore, ..." sentence near the end."""
    if answer_type == "text":
        return None  # a free-text clause after "Therefore, X is" is too often not the answer
    sentences = [_last_sentence(text, tail, n)]
    for m in reversed(list(_CONNECTIVE.finditer(text, tail, n))[-2:]):
        stop_m = _SENTENCE_STOP.search(text, m.end(), n)
        stop = stop_m.start() if stop_m else span_end(text, m.end())
        if (m.end(), stop) != sentences[0]:
            sentences.append((m.end(), stop))
    for a, b in sentences:
        got = _read_sentence(text, a, b, answer_type, choices, "conclusion")
        if got is not None:
            return got
    return None


def _restated(text: str, cand: Candidate, answer_type: str, choices: Sequence[str] | None) -> Extraction | None:
    """Read a self-correction's last "so ..." clause: "Wait, ... line 1 first. So the route is option B."."""
    if answer_type == "text":
        return None
    clauses = list(_SO_CLAUSE.finditer(text, cand.start, cand.end))
    if not clauses:
        return None
    a = clauses[-1].end()
    stop = _SENTENCE_STOP.search(text, a, cand.end)
    b = stop.start() if stop else cand.end
    while b > a and text[b - 1] in ".。!！*_ \n":
        b -= 1
    # A restated hedge ("so it's A or C") replaces the earlier answer as well.
    return _read_sentence(text, a, b, answer_type, choices, "self_correction")


def _read_sentence(text: str, a: int, b: int, answer_type: str, choices: Sequence[str] | None,
                   method: str) -> Extraction | None:
    """Read a concluding sentence ``text[a:b]``: the value after its last live copula, then its tail."""
    if b <= a:
        return None
    copulas = list(_COPULA.finditer(text, a, b))
    if answer_type in _LETTER_TYPES:
        copulas = sorted(copulas + list(_LETTER_COPULA.finditer(text, a, b)), key=lambda c: c.start())
    live = [c for c in copulas if not _NEGATED.search(text, max(a, c.start() - 12), c.start())]
    if copulas and not live:
        return None  # "Therefore the route cannot be option B."
    starts = [c.end() for c in reversed(live)][:2] or [a]
    for s in starts:
        res = _parse(answer_type, text, s, b, choices, tight=False)
        if isinstance(res, Parsed):
            return _found(text, res, method)
        if isinstance(res, NoValue) and res.reason == "several_final_answers":
            return Extraction(reason=res.reason, method=method)
    if answer_type == "choice":
        m = _TAIL_OPTION.search(text, a, b)
        if (m and m.group("l") in option_letters(choices) and not _NEGATION_WORD.search(text, a, m.start())
                and not _OPTION_MENTION.search(text, a, m.start())):  # "consider each: option A, option B"
            return Extraction(value=m.group("l"), method=method, evidence=text[m.start("l"):m.end("l")])
    if answer_type == "ordering":
        res = letter_sequence(text, a, b, choices)
        # Inside the sentence a short "A → B" may be a remark ("the path A → B is blocked");
        # three letters or more, or a sequence ending the sentence, states an order.
        if (isinstance(res, Parsed) and not _NEGATION_WORD.search(text, a, b)
                and (len(res.value) >= 3 or _TRAILING_OK.match(text, res.end, b))):  # type: ignore[arg-type]
            return _found(text, res, method)
    if answer_type in _SCALAR:
        # "So, the spring is compressed by 1.3 cm.": the sentence's only value.
        only = _only_value(text, answer_type, starts[-1] if live else a, b)
        if only is not None:
            return _found(text, only, "conclusion_value" if method == "conclusion" else method)
    return None


def _only_value(text: str, answer_type: str, a: int, b: int) -> Parsed | None:
    """Return the one value of the type in ``text[a:b]``; None when there are none or several."""
    found: list[Parsed] = []
    pos = a
    while pos < b:
        m = _NUMBER_TOKEN.search(text, pos, b)
        if m is None:
            break
        res = _parse(answer_type, text, m.start(), b, None, tight=False)
        if isinstance(res, Parsed):
            found.append(res)
            pos = max(res.end, m.end())
        else:
            pos = m.end()
        if len({repr(f.value) for f in found}) > 1:
            return None
    return found[-1] if found else None


def _last_sentence(text: str, tail: int, n: int) -> tuple[int, int]:
    end = len(text.rstrip())
    while end > tail and text[end - 1] in ".。!！*_ \n":
        end -= 1
    starts = [m.end() for m in _SENTENCE_STOP.finditer(text, tail, end)]
    return (starts[-1] if starts else tail, end)
