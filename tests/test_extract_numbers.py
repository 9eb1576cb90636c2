"""Numbers, money and percentages out of real chains of thought."""

from __future__ import annotations

import pytest

from extractors import extract_answer


@pytest.mark.parametrize(
    ("response", "answer_type", "expected"),
    [
        pytest.param("The pattern subtracts ten each time. Therefore, the answer is \\boxed{60}.", "integer", 60,
                     id="boxed-integer"),
        pytest.param("There are $\\boxed{15}$ different barcodes possible.The answer is: 15", "integer", 15,
                     id="internlm-answer-is-colon"),
        pytest.param("5", "integer", 5, id="whole-response-number"),
        pytest.param("The image shows the ages as 25 and 35.\n\n35 - 25 = 10\n\nThe age gap between these two "
                     "people is 10 years.", "integer", 10, id="last-sentence-copula"),
        pytest.param("So, the spring is compressed by 1.3 cm.", "float", 1.3, id="last-sentence-only-number"),
        pytest.param("So the total is 3 + 4 = 7.\nThe answer is: 3 + 4 = 7", "integer", 7, id="arithmetic-chain"),
        pytest.param("The answer is twenty-five.", "integer", 25, id="number-words"),
        pytest.param("Final answer: one hundred and five", "integer", 105, id="number-words-and"),
        pytest.param("The population is 1,234,567. Answer: 1,234,567", "integer", 1234567, id="thousands-commas"),
        pytest.param("Answer: 1 234", "integer", 1234, id="thousands-space"),
        pytest.param("The answer is 3.5万", "integer", 35000, id="zh-wan"),
        pytest.param("答案是1.2亿", "float", 120000000, id="zh-yi"),
        pytest.param("答案是四百亿", "integer", 40000000000, id="zh-numerals"),
        pytest.param("答案为一百二十三点五", "float", 123.5, id="zh-numerals-decimal"),
        pytest.param("The answer is -2.5", "float", -2.5, id="negative"),
        pytest.param("The answer is −3", "integer", -3, id="unicode-minus"),
        pytest.param("The answer is 1.2e5", "float", 120000, id="exponent-e"),
        pytest.param("Answer: $1.5 \\times 10^{3}$", "float", 1500, id="exponent-latex"),
        pytest.param("the final answer is \\(\\frac{3}{4}\\)", "float", 0.75, id="latex-frac"),
        pytest.param("The answer is approximately 3.14.", "float", 3.14, id="approximately"),
        pytest.param("Thus, \\(x = 5\\). The answer is \\(x = 5\\).", "integer", 5, id="variable-assignment"),
        pytest.param("The answer is $1.2 million", "float", 1200000, id="million"),
        # A Chinese character right before the number does not hide it.
        pytest.param("两市人口差距每年缩小1万。所以需要26年。", "integer", 26, id="zh-last-sentence-only-number"),
        pytest.param("所以，他一共走了3.5千米。", "float", 3.5, id="zh-conclusion-only-number"),
        pytest.param("这个数是120，而不是150。", "integer", 120, id="zh-er-bu-shi-is-not-a-copula"),
        pytest.param("所以∠EAC=∠DEA+∠ABC=20°+60°=80°。", "integer", 80, id="zh-degree-chain"),
    ],
)
def test_numbers(response: str, answer_type: str, expected: float) -> None:
    got = extract_answer(response, answer_type, choices=None)  # type: ignore[arg-type]
    assert got.value == pytest.approx(expected), got
    assert got.evidence and got.evidence in response


@pytest.mark.parametrize(
    ("response", "reason"),
    [
        pytest.param("The answer is 5 or 6 depending on rounding.", "several_final_answers", id="hedge"),
        pytest.param("The information provided is insufficient to answer the question.", "refusal", id="refusal"),
        pytest.param("The answer is: it depends on the season.", "unparsable_number", id="stated-but-not-a-number"),
        pytest.param("The graph rises and then falls.", "no_answer", id="nothing"),
        pytest.param("The answer is 19:00.", "unparsable_number", id="time-is-not-an-integer"),
    ],
)
def test_numbers_not_found(response: str, reason: str) -> None:
    got = extract_answer(response, "integer")
    assert got.value is None
    assert got.reason == reason


@pytest.mark.parametrize(
    ("response", "amount", "unit"),
    [
        pytest.param("The total price of all dishes with chicken is $103.00.", 103.0, "USD", id="dollar-sign"),
        pytest.param("The answer is $3.24.", 3.24, "USD", id="dollar-cents"),
        pytest.param("Answer: USD 15", 15, "USD", id="code-before"),
        pytest.param("Answer: 15 USD", 15, "USD", id="code-after"),
        pytest.param("Answer: ¥20", 20, "CNY", id="yuan-sign"),
        pytest.param("答案：15元", 15, "CNY", id="yuan-character"),
        pytest.param("答案是四百亿元", 40000000000, "CNY", id="zh-numeral-yuan"),
        pytest.param("答案是3.5万元", 35000, "CNY", id="wan-yuan"),
        pytest.param("The answer is €4,50", 4.5, "EUR", id="euro-decimal-comma"),
        pytest.param("The answer is €1.234,56", 1234.56, "EUR", id="euro-groups"),
        pytest.param("The answer is £7.", 7, "GBP", id="pound"),
        pytest.param("The answer is 75 cents.", 0.75, "USD", id="cents"),
        pytest.param("The answer is $4,840", 4840, "USD", id="thousands"),
        pytest.param("The answer is 12 dollars", 12, "USD", id="dollars-word"),
        pytest.param("The answer is 42", 42, None, id="bare-number"),
    ],
)
def test_currency(response: str, amount: float, unit: str | None) -> None:
    got = extract_answer(response, "currency")
    assert got.value == pytest.approx(amount), got
    assert got.unit == unit


def test_currency_does_not_read_clock_time() -> None:
    # price-parser reads "19:00" as 19; a clock time is not an amount.
    got = extract_answer("The answer is 19:00", "currency")
    assert got.value is None


@pytest.mark.parametrize(
    ("response", "value", "unit"),
    [
        pytest.param("The answer is 45%.", 45, "%", id="percent-sign"),
        pytest.param("Answer: 12.5 ％", 12.5, "%", id="fullwidth"),
        pytest.param("the final answer is $41.60\\%$", 41.6, "%", id="latex-percent"),
        pytest.param("The answer is 30 percent", 30, "%", id="word"),
        pytest.param("答案是百分之十五", 15, "%", id="zh-baifenzhi"),
        pytest.param("The answer is 0.125", 0.125, None, id="bare-fraction"),
    ],
)
def test_percent(response: str, value: float, unit: str | None) -> None:
    got = extract_answer(response, "percent")
    assert got.value == pytest.approx(value), got
    assert got.unit == unit


def test_format_hint_integer_makes_int() -> None:
    got = extract_answer("The answer is $13.00", "currency", format_hint="$ + Integer")
    assert got.value == 13 and isinstance(got.value, int)


def test_magnitude_recorded() -> None:
    got = extract_answer("答案是3.5万", "float")
    assert got.value == 35000 and got.magnitude == "万"


@pytest.mark.parametrize(
    "response",
    [
        pytest.param("so $y=\\boxed{6\\sqrt{6}}$.\nThe answer is: 6\\sqrt{6}", id="sqrt"),
        pytest.param("the total area is $\\boxed{100\\pi}$ square cm.", id="pi"),
        pytest.param("there are $2002 \\times 2003 = \\boxed{2002^2}$ white squares.", id="power"),
        pytest.param("The answer is 4b", id="variable"),
        pytest.param("the perimeter is $\\boxed{22 + 4\\sqrt{3}}$ inches.", id="sum"),
    ],
)
def test_expressions_are_not_their_leading_number(response: str) -> None:
    got = extract_answer(response, "integer")
    assert got.value is None and got.reason == "unparsable_number", got


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        pytest.param("So the size of the angle is $\\boxed{60^{\\circ}}$.", 60, id="degrees-latex"),
        pytest.param("The answer is 145°.", 145, id="degrees-sign"),
        pytest.param("$\\boxed{S_{\\triangle ABC}=8}$", 8, id="boxed-equation"),
        pytest.param("The answer is 5 m.", 5, id="unit-after-space"),
    ],
)
def test_numbers_with_units_and_equations(response: str, expected: int) -> None:
    assert extract_answer(response, "integer").value == expected
