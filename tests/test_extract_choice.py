"""Option letters, letter sets and letter sequences out of real chains of thought."""

from __future__ import annotations

import pytest

from extractors import extract_answer

FOUR = ["135°", "140°", "145°", "150°"]
CITIES = ["hong kong", "osaka", "shanghai", "tokyo"]
TEN = [f"option {i}" for i in range(10)]


@pytest.mark.parametrize(
    ("response", "choices", "expected"),
    [
        pytest.param("Thus, the answer is C (145°).", FOUR, "C", id="answer-is-letter-then-text"),
        pytest.param("The answer is B", FOUR, "B", id="not-first-capital-T"),
        pytest.param("A", FOUR, "A", id="lone-A-is-a-letter"),
        pytest.param("(A)", FOUR, "A", id="lone-bracketed-A"),
        pytest.param("**Answer: B**", TEN, "B", id="bold-answer-line"),
        pytest.param("**Answer:** D", TEN, "D", id="bold-label-only"),
        pytest.param("Answer: \\( \\text{I} \\)", TEN, "I", id="latex-text-letter"),
        pytest.param("Thus, the closest match is:\n\\[\n\\text{Answer: G}\n\\]", TEN, "G", id="latex-display-answer"),
        pytest.param("so the final answer is $\\boxed{E}$.", TEN, "E", id="boxed"),
        pytest.param("the most expensive bike is \\boxed{C}.", list("ABCDE"), "C", id="boxed-qwen-mathv"),
        pytest.param("Answer: I. 2.70 m²\n\nPlease correct the given answer if appropriate.", TEN, "I",
                     id="letter-then-option-text-then-prose"),
        pytest.param("正确答案是 C", FOUR, "C", id="zh-correct-answer-is"),
        pytest.param("所以∠3=55°\n\n答案:A", FOUR, "A", id="zh-answer-colon"),
        pytest.param("因此∠E的度数是22°\n\n所以答案为A", FOUR, "A", id="zh-answer-wei"),
        pytest.param("由此可知故选B。", FOUR, "B", id="zh-gu-xuan"),
        pytest.param("The correct option is: \n\nB\n", ["Yes", "No"], "B", id="answer-on-next-line"),
        pytest.param(
            "**A. Political instability**: plausible.\n**B. The spread of pathogens**: could contribute.\n"
            "**C. New trade routes**: growth, not decline.\n\n3. **Conclusion**: political factors.\n\nAnswer: A",
            TEN, "A", id="discusses-several-options-then-concludes"),
        pytest.param("Option A is wrong since the rate rises. So B. Wait, actually C.", FOUR, "C",
                     id="self-correction-wait-actually"),
        pytest.param("The answer is B. Wait, checking again, the answer is C.", FOUR, "C",
                     id="self-correction-restated"),
        pytest.param("Comparing the two readings, B. Wait, no — C.", FOUR, "C", id="self-correction-wait-no"),
        pytest.param("I initially thought A, but actually it's C.", FOUR, "C", id="self-correction-actually-its"),
        pytest.param("So the answer is D. Actually, A is the smallest angle here.", FOUR, "D",
                     id="actually-in-prose-is-not-a-correction"),
        pytest.param("B. The reason is that option A ignores friction and C double counts it.", FOUR, "B",
                     id="answer-first-then-explanation"),
        pytest.param("(B) Because the angles are supplementary, A and D are impossible.", FOUR, "B",
                     id="bracketed-answer-first"),
        pytest.param("Thus, the answer is D (tokyo).", CITIES, "D", id="mathvista-letter-with-text"),
        pytest.param("Among the Japanese cities, Tokyo is the largest city. The answer is Tokyo.", CITIES, "D",
                     id="option-text-instead-of-letter"),
        pytest.param("Therefore, the measure of angle BOC is 145°.", FOUR, "C", id="option-text-in-conclusion"),
        pytest.param("The answer is 145", FOUR, "C", id="numeric-option-without-unit"),
        pytest.param("Option C is correct because the reading is 145°.", FOUR, "C", id="option-c-is-correct"),
        pytest.param("After checking each, C is the correct answer.", FOUR, "C", id="c-is-the-correct-answer"),
        pytest.param("I would go with option D.", FOUR, "D", id="i-would-go-with"),
        pytest.param("Answer: c", FOUR, "C", id="lower-case-lone-letter"),
        pytest.param("The hottest months are July and August.\n\nThe answer is B.\n\nQuestion: How many legs does a "
                     "spider have?\nAnswer: D", ["Dec-Feb", "July and August", "March and April", "May"], "B",
                     id="fewshot-continuation-ignored"),
        pytest.param("... so we pick **C**.", FOUR, "C", id="bold-letter-in-last-paragraph"),
    ],
)
def test_choice_found(response: str, choices: list[str], expected: str) -> None:
    got = extract_answer(response, "choice", choices=choices)
    assert got.value == expected, got
    assert got.reason is None
    assert got.evidence and got.evidence in response  # evidence is verbatim


@pytest.mark.parametrize(
    ("response", "choices", "reason"),
    [
        pytest.param("The question does not provide enough information to determine which object has the best "
                     "PSNR score.", ["Lego", "Mats", "Mic", "Ship"], "refusal", id="refusal-mathvista-gpt4"),
        pytest.param("The solution cannot be provided without the function details.", ["Yes", "No"], "refusal",
                     id="refusal-cannot-be-provided"),
        pytest.param("I'm sorry, but I can't see the image.", FOUR, "refusal", id="refusal-sorry"),
        pytest.param("Therefore, none of the options (A, B, C, D) are correct.", FOUR, "none_of_the_options",
                     id="none-of-the-options"),
        pytest.param("The answer is either B or C.", FOUR, "several_final_answers", id="hedge-either-or"),
        pytest.param("Answer: B or C", FOUR, "several_final_answers", id="hedge-answer-line"),
        pytest.param("I think it's C, but it could also be D.", FOUR, "several_final_answers", id="hedge-could-also-be"),
        pytest.param("The answer is B, or possibly C.", FOUR, "several_final_answers", id="hedge-or-possibly"),
        pytest.param("Answer: B, but it could also be C given the blur.", FOUR, "several_final_answers",
                     id="hedge-answer-line-could-also"),
        pytest.param("It could be B or C, depending on the friction.", FOUR, "several_final_answers",
                     id="hedge-could-be"),
        pytest.param("Thus, the answer is E.", FOUR, "not_an_option", id="letter-beyond-options"),
        pytest.param("The answer is 34.", ["30", "32", "36", "38"], "not_an_option", id="number-not-an-option"),
        pytest.param("A large part of the figure is shaded, so the area grows.", FOUR, "no_answer",
                     id="article-A-is-not-a-letter"),
        pytest.param("The graph shows a steady rise over the decade.", FOUR, "no_answer", id="nothing-stated"),
        pytest.param("   ", FOUR, "empty_response", id="empty"),
    ],
)
def test_choice_not_found(response: str, choices: list[str], reason: str) -> None:
    got = extract_answer(response, "choice", choices=choices)
    assert got.value is None
    assert got.reason == reason


def test_option_text_is_never_snapped_to_nearest() -> None:
    # "Tokio" is one edit from "tokyo": MathVista's normaliser would snap it; we do not.
    got = extract_answer("The answer is Tokio.", "choice", choices=CITIES)
    assert got.value is None


def test_long_option_text_near_exact_match() -> None:
    opts = ["The spread of pathogens across the Silk Road", "Development of new trade routes"]
    got = extract_answer("The answer is the spread of pathogens across the silk road", "choice", choices=opts)
    assert got.value == "A"


def test_duplicate_option_texts_are_ambiguous_not_guessed() -> None:
    got = extract_answer("The answer is 18.", "choice", choices=["9", "12", "18", "18"])
    assert got.value is None


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        pytest.param("Answer: A, C and D", ["A", "C", "D"], id="comma-and"),
        pytest.param("The correct options are: [C, A]", ["A", "C"], id="brackets-sorted"),
        pytest.param("Final answer: ACD", ["A", "C", "D"], id="run-of-letters"),
        pytest.param("答案是A和C", ["A", "C"], id="zh-he"),
        pytest.param("The answer is B", ["B"], id="single-letter-set"),
        pytest.param("**Answer:** (B), (E)", ["B", "E"], id="bracketed-letters"),
    ],
)
def test_multi_choice(response: str, expected: list[str]) -> None:
    got = extract_answer(response, "multi_choice", choices=list("abcde"))
    assert got.value == expected, got


def test_multi_choice_hedge() -> None:
    got = extract_answer("The answer is A or C.", "multi_choice", choices=list("abcd"))
    assert got.value is None and got.reason == "several_final_answers"


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        pytest.param("So the route is B → D → C → E → F → A.\nFinal answer: [B,D,C,E,F,A]",
                     ["B", "D", "C", "E", "F", "A"], id="bracket-list"),
        pytest.param("The correct order is B, D, C, E, F, A.", ["B", "D", "C", "E", "F", "A"], id="comma-list"),
        pytest.param("Answer: [A,D,A,D,A]", ["A", "D", "A", "D", "A"], id="repeats-kept"),
        pytest.param("The sequence is B-D-C-E-F-A", ["B", "D", "C", "E", "F", "A"], id="dash-list"),
        pytest.param("答案：BDCEFA", ["B", "D", "C", "E", "F", "A"], id="zh-run"),
    ],
)
def test_ordering(response: str, expected: list[str]) -> None:
    got = extract_answer(response, "ordering", choices=list("abcdef"))
    assert got.value == expected, got


def test_ordering_letter_outside_options() -> None:
    got = extract_answer("Answer: [A,D,G]", "ordering", choices=list("abcd"))
    assert got.value is None and got.reason == "not_an_option"


@pytest.mark.parametrize(
    ("response", "choices", "expected", "reason"),
    [
        pytest.param("The answer is B.\n\nSo $s=\\boxed{5\\sqrt{5}-10}$.", ["1", "1.2", "$2(\\sqrt{5}-2)$"], None,
                     "not_an_option", id="final-boxed-non-option-not-replaced-by-earlier-answer"),
        pytest.param("Therefore, the correct answer is (D). $\\boxed{P_1}$ and $\\boxed{P_2}$ have the same "
                     "perimeter.", list("abcde"), "D", None, id="boxed-as-formatting-on-answer-line"),
        pytest.param("The answer is: \\frac{1}{4}", ["$1:2$", "$1:3$", "$1:4$"], "C", None, id="ratio-option"),
        pytest.param("so the perimeter is $\\boxed{16 \\mathrm{~m}}$.", ["$12 \\mathrm{~m}$", "$16 \\mathrm{~m}$"],
                     "B", None, id="option-with-latex-unit"),
        pytest.param("so the perimeter is $\\boxed{4 \\mathrm{~m}}$.", ["$12 \\mathrm{~m}$", "$16 \\mathrm{~m}$"],
                     None, "not_an_option", id="number-with-unit-not-an-option"),
        pytest.param("\\boxed{50 + 25(4-\\pi)}", ["40", "45", "50"], None, "not_an_option",
                     id="expression-starting-with-an-option-is-not-it"),
        pytest.param("the organism most likely to decrease is C) lizard.", ["plant", "human", "lizard", "snake"],
                     "C", None, id="letter-paren-then-option-text"),
        pytest.param("which gives us the word \\boxed{(E) MATH}.", list("ABCDE"), "E", None, id="boxed-letter-and-text"),
    ],
)
def test_choice_final_forms(response, choices, expected, reason) -> None:
    got = extract_answer(response, "choice", choices=choices)
    assert (got.value, got.reason) == (expected, reason), got


def test_question_echo_is_skipped() -> None:
    text = "Is the line longer than the bar? No, it is shorter."
    assert extract_answer(text, "yes_no").value is None
    got = extract_answer(text, "yes_no", question="Is the line longer than the bar?")
    assert got.value == "no" and got.method == "leading_answer"


EXITS = ["Exit A", "Exit B", "Exit C"]


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        pytest.param("Therefore the primary route leads to EXIT B, option B.", "B", id="comma-option-letter"),
        pytest.param("So the secondary exit is the stairwell door, choice (B).", "B", id="comma-choice-bracketed"),
        pytest.param("Thus the route ends at the east wall: **option B**.", "B", id="colon-bold-option"),
        pytest.param("Therefore the primary route leads to EXIT B (option B).", "B", id="bracketed-option-at-end"),
        pytest.param("所以主路线通向东侧出口，选项B。", "B", id="zh-comma-xuanxiang"),
        pytest.param("实线箭头指向东墙。综上，选B。", "B", id="zh-zongshang-xuan"),
        pytest.param("That leaves just one possibility: option B.", "B", id="colon-only-possibility"),
    ],
)
def test_option_named_at_end_of_conclusion(response: str, expected: str) -> None:
    got = extract_answer(response, "choice", choices=EXITS)
    assert got.value == expected, got
    assert got.method == "conclusion"


@pytest.mark.parametrize(
    ("response", "answer_type", "reason"),
    [
        pytest.param("Let's consider each: option A, option B.", "choice", "no_answer",
                     id="listing-options-is-not-answer"),
        pytest.param("Therefore the route cannot be option B.", "choice", "no_answer", id="negated-copula"),
        pytest.param("Therefore, we can eliminate option B.", "choice", "no_answer", id="eliminated-option"),
        pytest.param("Option A is wrong, and so is option B.", "choice", "no_answer", id="and-so-is"),
        pytest.param("既不是A也不是B。", "choice", "no_answer", id="zh-neither-nor"),
        pytest.param("所以选项D错误。", "choice", "no_answer", id="zh-option-ruled-out"),
        pytest.param("所以A、C错误，B、D正确。", "multi_choice", "no_answer", id="zh-set-ruled-out-first"),
        pytest.param("Options A and C are right next to each other.", "multi_choice", "no_answer",
                     id="are-right-next-to"),
        pytest.param("The path A → B is blocked, so we go around.", "ordering", "no_answer", id="arrow-remark"),
        pytest.param("答案是A还是C，无法确定。", "choice", "several_final_answers", id="zh-haishi-hedge"),
    ],
)
def test_option_remarks_are_not_answers(response: str, answer_type, reason: str) -> None:
    got = extract_answer(response, answer_type, choices=list("ABCD"))
    assert (got.value, got.reason) == (None, reason), got


@pytest.mark.parametrize(
    ("response", "choices", "expected"),
    [
        pytest.param("The stations follow the line east.\n\nStations in order: C → B → D → A", FOUR,
                     ["C", "B", "D", "A"], id="in-order-unicode-arrows"),
        pytest.param("C->B->D->A", FOUR, ["C", "B", "D", "A"], id="ascii-arrows"),
        pytest.param("沿河向下游，顺序为 C-B-D-A", FOUR, ["C", "B", "D", "A"], id="zh-shunxu-wei-dashes"),
        pytest.param("Tracing downstream, the sequence is C, then B, then D, then A.", FOUR, ["C", "B", "D", "A"],
                     id="then-list"),
        pytest.param("First C, then B, then D, and finally A.", FOUR, ["C", "B", "D", "A"], id="first-then-finally"),
        pytest.param("Putting it together, the final ordering is **[C, B, D, A]**.", FOUR, ["C", "B", "D", "A"],
                     id="bold-brackets-in-sentence"),
        pytest.param("按时间先后，依次是：丙、乙、丁、甲", ["甲", "乙", "丙", "丁"], ["C", "B", "D", "A"],
                     id="zh-yici-option-texts"),
        pytest.param("The equator crosses A → D → A → D → A.", list("ABCDEF"), ["A", "D", "A", "D", "A"],
                     id="repeated-letters-arrows"),
        pytest.param("The correct order is C, B, D and A.", FOUR, ["C", "B", "D", "A"], id="and-before-last"),
        pytest.param("The order is C, B, A and D is excluded.", FOUR, ["C", "B", "A"], id="and-opens-new-clause"),
        pytest.param("The correct sequence: C-B-D-A", FOUR, ["C", "B", "D", "A"], id="sequence-label"),
    ],
)
def test_ordering_written_forms(response: str, choices: list[str], expected: list[str]) -> None:
    got = extract_answer(response, "ordering", choices=choices)
    assert got.value == expected, got


def test_ordering_of_wrong_length_is_not_rejected() -> None:
    # Documented in extractors.extract: the extractor reports the stated sequence; the
    # scorer's sequence equality marks it wrong. Dropping it would make it unscorable.
    got = extract_answer("Final answer: [C, B, D]", "ordering", choices=FOUR)
    assert got.value == ["C", "B", "D"]


def test_sequence_marker_is_not_a_number_marker() -> None:
    got = extract_answer("The sequence is 2, 4, 8, so the next is 16.", "integer")
    assert got.value == 16, got


@pytest.mark.parametrize(
    ("response", "expected", "reason"),
    [
        pytest.param("A and C", ["A", "C"], None, id="and"),
        pytest.param("Both shaded regions touch the river, so the answer is A, C and D.", ["A", "C", "D"], None,
                     id="comma-and-in-conclusion"),
        pytest.param("北侧的是玫瑰园和湖，所以选 A、C", ["A", "C"], None, id="zh-xuan-dunhao"),
        pytest.param("逐项分析后，正确选项为AC", ["A", "C"], None, id="zh-correct-options-run"),
        pytest.param("Kingsbridge and Riverton are darkest.\n\nOptions A and C are correct.", ["A", "C"], None,
                     id="options-are-correct"),
        pytest.param("A, C and D are all correct.", ["A", "C", "D"], None, id="letters-are-all-correct"),
        pytest.param("Statements A and B are correct.", ["A", "B"], None, id="statements-are-correct"),
        pytest.param("A和C都正确。", ["A", "C"], None, id="zh-dou-zhengque"),
        pytest.param("Checking each option above.\n\n**A, C**", ["A", "C"], None, id="bold-last-line"),
        pytest.param("Wait, actually A is also shaded.", None, "no_answer", id="correction-remark-not-a-set"),
        pytest.param("So the answer is A or C.", None, "several_final_answers", id="hedge-or"),
        pytest.param("It is A, B, or C.", None, "several_final_answers", id="hedge-oxford-or"),
        pytest.param("So it is either A or C.", None, "several_final_answers", id="hedge-either"),
        pytest.param("可能是A或C。", None, "several_final_answers", id="zh-hedge-huo"),
    ],
)
def test_multi_choice_sets(response: str, expected, reason) -> None:
    got = extract_answer(response, "multi_choice", choices=list("ABCDE"))
    assert (got.value, got.reason) == (expected, reason), got
