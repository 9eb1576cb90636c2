"""Clock times, durations, yes/no and free text."""

from __future__ import annotations

import pytest

from extractors import extract_answer


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        pytest.param("The train leaves at 7 pm, so the answer is 7 pm.", "19:00", id="7-pm"),
        pytest.param("Answer: 19:00", "19:00", id="24h"),
        pytest.param("The answer is 7:05 a.m.", "07:05", id="am-dots"),
        pytest.param("The answer is 7.05pm", "19:05", id="dot-separator-pm"),
        pytest.param("Answer: 12 am", "00:00", id="12-am-is-midnight"),
        pytest.param("Answer: 12:30 PM", "12:30", id="12-pm-is-noon"),
        pytest.param("The answer is 7:05:30 PM", "19:05:30", id="seconds"),
        pytest.param("The answer is noon.", "12:00", id="noon"),
        pytest.param("The answer is 7 o'clock", "07:00", id="oclock"),
        pytest.param("答案是下午3点", "15:00", id="zh-afternoon"),
        pytest.param("答案是晚上8点半", "20:30", id="zh-evening-half"),
        pytest.param("答案：15时20分", "15:20", id="zh-shi-fen"),
        pytest.param("So the meeting ends at 10:30.", "10:30", id="last-sentence"),
    ],
)
def test_time(response: str, expected: str) -> None:
    got = extract_answer(response, "time")
    assert got.value == expected, got


@pytest.mark.parametrize(
    ("response", "reason"),
    [
        pytest.param("The answer is 7.", "unparsable_time", id="bare-number-is-not-a-time"),
        pytest.param("The answer is 25:00", "unparsable_time", id="out-of-range"),
        pytest.param("The answer is 13 pm", "unparsable_time", id="13-pm"),
    ],
)
def test_time_not_found(response: str, reason: str) -> None:
    got = extract_answer(response, "time")
    assert got.value is None
    assert got.reason == reason


@pytest.mark.parametrize(
    ("response", "seconds"),
    [
        pytest.param("The answer is 1 hour and 30 minutes.", 5400, id="hour-and-minutes"),
        pytest.param("Answer: 1h30m", 5400, id="compact"),
        pytest.param("The answer is 1 h 30 min", 5400, id="abbreviated"),
        pytest.param("The answer is 1.5 hours", 5400, id="decimal-hours"),
        pytest.param("The answer is 90 mins", 5400, id="minutes"),
        pytest.param("The answer is 20 days", 20 * 86400, id="days-not-a-date"),
        pytest.param("答案是2 小时 30 分钟", 9000, id="zh-spaced"),
        pytest.param("答案是2小时30分", 9000, id="zh-compact"),
        pytest.param("答案是半小时", 1800, id="zh-half-hour"),
        pytest.param("The answer is an hour and a half.", 5400, id="hour-and-a-half"),
        pytest.param("The answer is half an hour", 1800, id="half-an-hour"),
        pytest.param("The answer is two hours", 7200, id="number-word"),
        pytest.param("The answer is 2 weeks", 14 * 86400, id="weeks"),
        pytest.param("Answer: 1:30", 5400, id="h-mm"),
        pytest.param("It takes 3 h 35 min in total. The answer is 3 h 35 min.", 3 * 3600 + 35 * 60, id="mathv-style"),
    ],
)
def test_duration(response: str, seconds: int) -> None:
    got = extract_answer(response, "duration")
    assert got.value == seconds, got
    assert got.unit == "s"


def test_duration_needs_a_unit() -> None:
    got = extract_answer("The answer is 20.", "duration")
    assert got.value is None and got.reason == "unparsable_duration"


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        pytest.param("No, the line does not intersect the circle.", "no", id="leading-no"),
        pytest.param("Yes. Both bars exceed 40.", "yes", id="leading-yes"),
        pytest.param("Comparing the two bars, the answer is **Yes**.", "yes", id="bold-after-marker"),
        pytest.param("Final answer: no", "no", id="label"),
        pytest.param("答案是否", "no", id="zh-fou"),
        pytest.param("答案：是", "yes", id="zh-shi"),
        pytest.param("The answer is True.", "yes", id="true-is-yes"),
    ],
)
def test_yes_no(response: str, expected: str) -> None:
    got = extract_answer(response, "yes_no")
    assert got.value == expected, got


def test_yes_no_hedge() -> None:
    got = extract_answer("The answer is yes or no depending on the scale.", "yes_no")
    assert got.value is None and got.reason == "several_final_answers"


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        pytest.param("The answer is: \\boxed{50(5-\\sqrt{5})}.", "50(5-\\sqrt{5})", id="boxed-latex"),
        pytest.param("The answer is $\\boxed{\\frac{1}{2}}$", "\\frac{1}{2}", id="boxed-frac"),
        pytest.param("Final answer: **Paris**.", "Paris", id="bold-text"),
        pytest.param("<answer>the red cube</answer>", "the red cube", id="answer-tag"),
        pytest.param("The answer is \"Wednesday\". It follows Tuesday.", "Wednesday", id="quoted"),
    ],
)
def test_text(response: str, expected: str) -> None:
    got = extract_answer(response, "text")
    assert got.value == expected, got


def test_unknown_answer_type_raises() -> None:
    with pytest.raises(ValueError, match="unknown answer type 'fraction'"):
        extract_answer("The answer is 1/2", "fraction")  # type: ignore[arg-type]
