"""Final answers out of verbose text: extract, normalise, match against gold.

Pure functions, no network. The LLM fallback receives its LLM as an argument, so this
package never imports ``judge``.

The three calls::

    extract_answer(text, answer_type, *, choices=None, question=None, format_hint=None) -> Extraction
    normalise_gold(gold, answer_type, *, choices=None) -> AnswerValue          # ValueError if unreadable
    score_answer(value_or_extraction, gold, answer_type, *, mode="strict", benchmark="generic",
                 choices=None, format_hint=None, precision=None) -> bool | None  # None = unscorable

Value forms (``Extraction.value``, and what :func:`normalise_gold` returns):

==============  ===========================================================================
answer type     value
==============  ===========================================================================
choice          one upper-case option letter, ``"C"``; options are lettered A, B, ... in order
multi_choice    sorted list of distinct letters, ``["A", "C"]``
ordering        list of letters in the stated order, repeats kept, ``["A", "D", "A"]``; its
                length is not checked against the options: a sequence that is too short
                or too long is extracted as stated and the scorer marks it wrong
integer         ``int`` (a stated non-whole number stays a ``float`` and scores wrong)
float           ``float``, or ``int`` when written without decimals
currency        the amount as a number; ``unit`` holds the ISO code (``USD``, ``CNY``, ``EUR``)
percent         the number in percent units (``12.5%`` -> ``12.5``, ``unit="%"``); a bare
                number is kept with ``unit=None``
time            canonical 24-hour ``"HH:MM"``, or ``"HH:MM:SS"`` when seconds are stated
duration        total seconds (``int`` when whole), ``unit="s"``; 1 month = 30 days, 1 year = 365 days
yes_no          ``"yes"`` or ``"no"``
text            the answer clause with markup stripped (case kept; the scorer folds it)
==============  ===========================================================================

Numbers scaled by a magnitude word carry it in ``magnitude`` (``3.5万`` -> value 35000,
``magnitude="万"``). When ``value`` is None, ``reason`` says why: ``empty_response``,
``no_answer``, ``refusal``, ``several_final_answers``, ``not_an_option``,
``none_of_the_options``, ``unparsable_number``, ``unparsable_time``, ``unparsable_duration``.
``method`` names the rule that fired and ``evidence`` is the verbatim span of the response
the value was read from. Methods, strongest first (see :mod:`extractors.extract`):
``boxed``, ``answer_tag``, ``answer_label`` ("Answer:", "Correct options:"), ``answer_is``,
``self_correction`` ("Wait, actually C", 等等), ``i_choose``, ``option_is_correct``,
``answer_zh`` (答案是, 故选, 正确选项为), ``order_is`` ("the order is", letter types only),
``order_label`` ("Order:", 顺序为, 依次经过, orderings only), ``options_are_correct`` ("Options A
and C are correct", multiple choice only); then, only when no marker yields a value,
``whole_response``, ``last_line``, ``conclusion``, ``conclusion_value``, ``leading_answer``,
``bold``; ``refusal`` and ``hedge`` name the rule behind a reason.

Pass the :class:`Extraction` itself to :func:`score_answer` (not only its value): strict
scoring then sees the stated currency and magnitude, and official OCR-Reasoning scoring
sees the answer as written (``$3.24``), which is what its checker saw.
"""

from extractors.extract import extract_answer
from extractors.gold import normalise_gold
from extractors.match import score_answer
from extractors.types import ANSWER_TYPES, REASONS, AnswerType, AnswerValue, Extraction

__all__ = [
    "ANSWER_TYPES",
    "REASONS",
    "AnswerType",
    "AnswerValue",
    "Extraction",
    "extract_answer",
    "normalise_gold",
    "score_answer",
]
