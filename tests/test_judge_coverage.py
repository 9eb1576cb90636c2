"""The reference-coverage scorer: facts, order, and its limits."""

from __future__ import annotations

import pytest

from judge.coverage import reference_coverage

REF = ("step1: The prices are Large Soft Drink $6.25, Large Popcorn $6.99 and Medium Candy $4.75.\n"
       "step2: Separately they cost 6.25+6.99+4.75=17.99. Package One costs $14.75.\n"
       "step3: The saving is 17.99 - 14.75 = 3.24.\nThe final answer is: 3.24")


def test_full_in_order_coverage():
    resp = ("A Large Soft Drink is $6.25, a Large Popcorn $6.99 and a Medium Candy $4.75. "
            "Together 17.99 against 14.75 for Package One, so it saves 3.24.")
    c = reference_coverage(resp, REF)
    assert c.score == 1.0 and c.first_uncovered is None


def test_numbers_match_at_the_reference_precision():
    c = reference_coverage("Large Soft Drink 6.250, Popcorn 6.99, Candy 4.75; total 17.990; Package One 14.75; saves 3.2",
                           REF)
    step3 = c.steps[2]
    assert "17.99" in step3.found and "3.24" not in step3.found


def test_order_matters_and_any_order_is_reported_apart():
    resp = "Saving 3.24 = 17.99 - 14.75. Prices: Large Soft Drink 6.25, Large Popcorn 6.99, Medium Candy 4.75."
    c = reference_coverage(resp, REF)
    assert c.coverage_any == 1.0
    assert c.score < 1.0  # steps 2 and 3 are stated before step 1's facts


def test_thousands_separators_and_names():
    c = reference_coverage("Arcadio's son is Jose Arcadio II; it cost 1234 pesos.",
                           "step1: Jose Arcadio II is the son of Arcadio; the price is 1,234 pesos.")
    assert c.score == 1.0


def test_nothing_to_look_for_is_unscored_not_zero():
    c = reference_coverage("anything", "step1: the function is odd.")
    assert c.score is None and "no numbers or names" in c.reason
    assert reference_coverage("", REF).reason == "no response to score"
    assert reference_coverage("x", None).reason == "no reference reasoning"


@pytest.mark.parametrize("share", [0.5, 1.0])
def test_min_share_is_the_threshold(share):
    resp = "Large Soft Drink 6.25 and Large Popcorn 6.99."
    c = reference_coverage(resp, "step1: Soft Drink 6.25, Popcorn 6.99, Candy 4.75, Extra 1.10", min_share=share)
    assert c.steps[0].covered is (share == 0.5)
