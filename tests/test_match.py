"""Scoring against gold, both modes, and the gold normaliser's errors."""

from __future__ import annotations

import pytest

from extractors import Extraction, extract_answer, normalise_gold, score_answer
from extractors.match import hint_decimals
from extractors.official import can_infer, ocr_reasoning_post_check

FOUR = ["135°", "140°", "145°", "150°"]


@pytest.mark.parametrize(
    ("value", "gold", "answer_type", "kwargs", "expected"),
    [
        pytest.param("C", "C", "choice", {}, True, id="choice-letter"),
        pytest.param("C", "145°", "choice", {"choices": FOUR}, True, id="choice-gold-as-option-text"),
        pytest.param("B", "145°", "choice", {"choices": FOUR}, False, id="choice-wrong"),
        pytest.param("D", "18", "choice", {"choices": ["9", "12", "18", "18"]}, True, id="duplicate-option-text"),
        pytest.param(["A", "C"], ["C", "A"], "multi_choice", {}, True, id="set-equality"),
        pytest.param("B", ["B", "C"], "multi_choice", {}, False, id="single-vs-set-wrong"),
        pytest.param(["B"], ["B", "C"], "multi_choice", {}, False, id="subset-wrong"),
        pytest.param(["A", "D", "A"], "[A,D,A]", "ordering", {}, True, id="sequence-with-repeats"),
        pytest.param(["A", "A", "D"], ["A", "D", "A"], "ordering", {}, False, id="sequence-order-matters"),
        pytest.param(3.24, "3.24", "float", {}, True, id="float-equal"),
        pytest.param(3.2449, "3.24", "float", {}, True, id="float-within-half-unit"),
        pytest.param(3.25, "3.24", "float", {}, False, id="float-3.25-vs-3.24-wrong"),
        pytest.param(1.24, "1.2", "float", {}, True, id="gold-one-decimal"),
        pytest.param(1.3, "1.2", "float", {}, False, id="gold-one-decimal-wrong"),
        pytest.param(3.1416, "3.14159", "float", {"precision": 2}, True, id="explicit-precision"),
        pytest.param(2.457, "2.46", "float", {"format_hint": "Float, two decimal places"}, True, id="hint-decimals"),
        pytest.param(12.4, "12", "float", {}, False, id="float-gold-no-decimals-exact"),
        pytest.param(12.0, "12", "integer", {}, True, id="integer-from-float"),
        pytest.param(12.5, "12", "integer", {}, False, id="integer-not-rounded"),
        pytest.param(1000, "1,000", "integer", {}, True, id="gold-thousands"),
        pytest.param(145, "145°", "integer", {}, True, id="gold-with-unit"),
        pytest.param(Extraction(value=3.24, unit="USD"), "3.24", "currency", {}, True, id="currency-stripped"),
        pytest.param(Extraction(value=3.24, unit="EUR"), "$3.24", "currency", {}, False, id="currency-mismatch"),
        pytest.param(Extraction(value=3.24, unit="USD"), "$3.24", "currency", {}, True, id="currency-same"),
        pytest.param(Extraction(value=13, unit="USD"), "13", "currency", {"format_hint": "$ + Integer"}, True,
                     id="currency-integer-hint"),
        pytest.param(Extraction(value=12.5, unit="%"), "12.5%", "percent", {}, True, id="percent"),
        pytest.param(Extraction(value=0.125), "12.5%", "percent", {}, True, id="percent-as-fraction"),
        pytest.param(Extraction(value=12.5, unit="%"), "0.125", "percent", {}, True, id="gold-fraction"),
        pytest.param(Extraction(value=13.5, unit="%"), "12.5%", "percent", {}, False, id="percent-wrong"),
        pytest.param(Extraction(value=35000, magnitude="万"), "3.5", "float", {}, True, id="wan-unit-in-question"),
        pytest.param(35000, "3.5万", "integer", {}, True, id="gold-wan"),
        pytest.param(Extraction(value=4e10, unit="CNY", magnitude="亿"), "400亿元", "currency", {}, True,
                     id="gold-yi-yuan"),
        pytest.param("19:00", "7 pm", "time", {}, True, id="time-12-24"),
        pytest.param("19:00", "19:00:00", "time", {}, True, id="time-seconds-padding"),
        pytest.param("19:05", "19:00", "time", {}, False, id="time-wrong"),
        pytest.param(5400, "1 hour and 30 minutes", "duration", {}, True, id="duration-seconds"),
        pytest.param(5400, "1h 29m", "duration", {}, False, id="duration-wrong"),
        pytest.param("yes", "Yes", "yes_no", {}, True, id="yes"),
        pytest.param("no", "Yes", "yes_no", {}, False, id="yes-no-wrong"),
        pytest.param("The Red Cube", "the red cube.", "text", {}, True, id="text-folded"),
        pytest.param("\\frac{1}{2}", "\\dfrac{1}{2}", "text", {}, True, id="text-latex-alias"),
        pytest.param("0.5", "0.50", "text", {}, True, id="text-numeric"),
        pytest.param("\\frac{1}{23}", "\\frac{12}{3}", "text", {}, False, id="text-frac-not-merged"),
        pytest.param("x-2", "x+2", "text", {}, False, id="text-sign-kept"),
    ],
)
def test_strict(value, gold, answer_type, kwargs, expected) -> None:
    assert score_answer(value, gold, answer_type, **kwargs) is expected


def test_unscorable_is_none_in_both_modes() -> None:
    ext = extract_answer("I cannot determine the answer.", "choice", choices=FOUR)
    assert ext.value is None
    assert score_answer(ext, "C", "choice", choices=FOUR) is None
    assert score_answer(ext, "C", "choice", choices=FOUR, mode="official", benchmark="ocr-reasoning") is None
    assert score_answer(None, "3", "integer") is None


@pytest.mark.parametrize(
    ("response", "gold", "answer_type", "kwargs", "strict", "official"),
    [
        # The OCR-Reasoning checker float()s the extracted string, which keeps "$".
        pytest.param("The answer is $3.24.", "3.24", "currency", {}, True, False, id="dollar-kept-by-official"),
        pytest.param("The answer is 45%.", "45", "percent", {}, True, False, id="percent-kept-by-official"),
        pytest.param("The answer is 3.24.", "3.24", "float", {}, True, True, id="plain-float-both"),
        pytest.param("The answer is 3.2449.", "3.24", "float", {}, True, False, id="official-float-equality"),
        pytest.param("The answer is 1,234.", "1234", "integer", {}, True, False, id="official-int-of-comma"),
        pytest.param("The answer is 13.", "13", "currency", {"format_hint": "$ + Integer"}, True, True,
                     id="official-integer-path"),
        pytest.param("The answer is Paris.", "paris", "text", {}, True, False, id="official-case-sensitive"),
        pytest.param("The answer is New York.", "NewYork", "text", {}, True, True, id="official-spaces-removed"),
        pytest.param("The answer is new york.", "New York", "text", {}, True, False, id="official-case-kept"),
        pytest.param("Thus, the answer is C (145°).", "C", "choice", {"choices": FOUR}, True, True, id="choice-both"),
    ],
)
def test_official_ocr_reasoning(response, gold, answer_type, kwargs, strict, official) -> None:
    ext = extract_answer(response, answer_type, choices=kwargs.get("choices"), format_hint=kwargs.get("format_hint"))
    assert score_answer(ext, gold, answer_type, **kwargs) is strict
    assert score_answer(ext, gold, answer_type, mode="official", benchmark="ocr-reasoning", **kwargs) is official


@pytest.mark.parametrize(
    ("value", "gold", "answer_type", "expected"),
    [
        pytest.param("B", "B", "choice", True, id="letter"),
        pytest.param(["A", "C"], ["A", "C"], "multi_choice", True, id="set"),
        pytest.param(["A"], ["A", "C"], "multi_choice", False, id="no-partial-credit"),
        pytest.param(["B", "D", "C"], "[B,D,C]", "ordering", True, id="sequence"),
        pytest.param(["B", "C", "D"], "[B,D,C]", "ordering", False, id="sequence-wrong"),
    ],
)
def test_official_map(value, gold, answer_type, expected) -> None:
    assert score_answer(value, gold, answer_type, mode="official", benchmark="map") is expected


def test_official_generic_is_exact() -> None:
    assert score_answer(3.2449, "3.24", "float", mode="official") is False
    assert score_answer(3.24, "3.24", "float", mode="official") is True
    assert score_answer("paris", "Paris", "text", mode="official") is False
    assert score_answer("Paris", "Paris", "text", mode="official") is True


def test_can_infer_port_keeps_published_defects() -> None:
    choices = {"A": "red", "B": "green", "C": "blue", "D": "white"}
    # Two letters mentioned -> the rule gives up, though the response states C at the end.
    assert can_infer("Option B is tempting, but the answer is C", choices) is False
    # The article "A" is read as an option letter.
    assert can_infer("A cube is shown; its colour is blue", choices) == "A"
    assert can_infer("The answer is (C).", choices) == "C"
    assert can_infer("It is green.", choices) == "B"  # option text found in the response


def test_post_check_float_keeps_dollar() -> None:
    assert ocr_reasoning_post_check("$3.24", "3.24", question_type="free_form", answer_type="float") is False
    assert ocr_reasoning_post_check("3.24", "3.24", question_type="free_form", answer_type="float") is True
    assert ocr_reasoning_post_check("400亿元", "400 亿元", question_type="free_form", answer_type="other") is True


@pytest.mark.parametrize(
    ("gold", "answer_type", "kwargs", "expected"),
    [
        pytest.param("145°", "choice", {"choices": FOUR}, "C", id="option-text"),
        pytest.param("(c)", "choice", {"choices": FOUR}, "C", id="bracketed-lower"),
        pytest.param("A,C", "multi_choice", {}, ["A", "C"], id="comma-string"),
        pytest.param("CA", "multi_choice", {}, ["A", "C"], id="run-sorted"),
        pytest.param(["A", "D", "A", "D", "A"], "ordering", {}, ["A", "D", "A", "D", "A"], id="ordering-repeats"),
        pytest.param("[B,D,C,E,F,A]", "ordering", {}, ["B", "D", "C", "E", "F", "A"], id="ordering-string"),
        pytest.param("1,234", "integer", {}, 1234, id="integer"),
        pytest.param(7, "integer", {}, 7, id="integer-int"),
        pytest.param("$1,234.50", "currency", {}, 1234.5, id="currency"),
        pytest.param("四百亿元", "currency", {}, 40000000000, id="zh-currency"),
        pytest.param("12.5%", "percent", {}, 12.5, id="percent"),
        pytest.param("7 pm", "time", {}, "19:00", id="time"),
        pytest.param("2 小时 30 分钟", "duration", {}, 9000, id="duration"),
        pytest.param("True", "yes_no", {}, "yes", id="yes-no"),
        pytest.param("**Paris**", "text", {}, "Paris", id="text"),
    ],
)
def test_normalise_gold(gold, answer_type, kwargs, expected) -> None:
    assert normalise_gold(gold, answer_type, **kwargs) == expected


@pytest.mark.parametrize(
    ("gold", "answer_type", "kwargs", "message"),
    [
        pytest.param("Lyon", "choice", {"choices": ["Paris", "Rome"]}, "neither an option letter", id="not-an-option"),
        pytest.param("E", "choice", {"choices": FOUR}, "neither an option letter", id="letter-out-of-range"),
        pytest.param("A,X", "multi_choice", {"choices": FOUR}, "'X' is not an option letter", id="bad-letter"),
        pytest.param("twelve apples and a pear", "integer", {}, "not a number", id="not-a-number"),
        pytest.param("2.5", "integer", {}, "not a whole number", id="integer-not-whole"),
        pytest.param("abc", "currency", {}, "not an amount of money", id="not-money"),
        pytest.param("soon", "time", {}, "not a clock time", id="not-a-time"),
        pytest.param("quickly", "duration", {}, "not a duration", id="not-a-duration"),
        pytest.param("maybe", "yes_no", {}, "not yes or no", id="not-yes-no"),
        pytest.param("", "text", {}, "empty", id="empty"),
        pytest.param("1", "fraction", {}, "unknown answer type", id="bad-type"),
    ],
)
def test_normalise_gold_errors(gold, answer_type, kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        normalise_gold(gold, answer_type, **kwargs)


def test_score_raises_on_bad_gold() -> None:
    with pytest.raises(ValueError, match="not a number"):
        score_answer(3, "three-ish", "integer")


@pytest.mark.parametrize(
    ("hint", "decimals"),
    [("Float, two decimal places", 2), ("$ + Integer", 0), ("保留两位小数", 2), ("Float (1 decimal place)", 1),
     ("String", None), (None, None)],
)
def test_hint_decimals(hint, decimals) -> None:
    assert hint_decimals(hint) == decimals


def test_docstring_examples_hold() -> None:
    import doctest

    import extractors.extract
    import extractors.gold
    import extractors.match

    for module in (extractors.extract, extractors.gold, extractors.match):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__
