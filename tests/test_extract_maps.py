"""OmniMapBench-style chains of thought: single choice, multiple choice (sets) and orderings.

The questions are modelled on the paper's Figure 2 (evacuation exits, Paris metro routes,
explorers' routes, the equator's climate zones, companies sorted by monthly visitors, a
river's landforms) and on ``examples/maps``; the responses are written the way CoT models
answer them: they weigh options, correct themselves, give option text instead of letters,
and answer in English or Chinese.
"""

from __future__ import annotations

import pytest

from extractors import extract_answer, score_answer

EXITS = ["EXIT A", "EXIT H", "EXIT S", "EXIT G", "EXIT F", "EXIT J", "EXIT N"]
EXIT3 = ["Exit A", "Exit B", "Exit C"]
EXPLORERS = ["Cabral", "Vasco da Gama", "Lopez de Sequeira", "Magellan and Elcano", "Albuquerque", "Frobisher",
             "Vespucci"]
ROUTES = [
    "Start from Bastille and transfer directly to the orange line to the destination Gare de Lyon",
    "Start from Bastille to Reuilly Diderot and then transfer directly to the orange line to the destination "
    "Gare de Lyon",
    "Start from Bastille directly to the destination Gare de Lyon",
]
EYE = ["The grand temple in the center", "A blue-roofed house in the village at the bottom-left",
       "The tower on the mountaintop at the northernmost", "The building next to the graveyard on the east side"]
STORES = ["Between store 225 and Cinemark Theatre", "Between store 440 and store 425",
          "Between store 522 and store 512", "Between Dick's Sporting Goods and Old Navy",
          "Between store 300 and store 305"]
TRANSFERS_ZH = ["0 次", "1 次", "2 次", "3 次"]
PARK_ZH = ["喷泉", "湖", "玫瑰园", "游乐场"]
STATIONS = ["Market", "Harbor", "Old Town", "Central"]
FACILITIES = ["Office 101", "Office 102", "Kitchen", "Storage", "Lobby"]
DISTRICTS = ["Kingsbridge", "Elmstead", "Riverton", "Ashford", "Oakhurst"]
RIVER = ["Alluvial plain", "Steep eroded slope", "Alluvial fan", "Ice sculpted bedrock surface"]
COMPANIES = ["MYNTRA.COM", "ALIBABA", "OTTO GROUP", "AMAZON", "NOVA PONTOCOM", "CDISCOUNT.COM"]
ZONES = ["EQUATORIAL ZONE", "SUBPOLAR ZONE", "TROPICAL ZONE", "SUBEQUATORIAL ZONE", "SUBTROPICAL ZONE", "POLAR ZONE"]
ZONES_ZH = ["赤道带", "副极地带", "热带", "副赤道带", "副热带", "极地带"]
INTERCHANGES = ["Central", "Library", "Harbor", "Museum", "Market"]
FIVE = list("ABCDE")

SINGLE = [
    pytest.param(
        "The red dot labelled YOU ARE HERE is in the corridor outside Office 3. The solid green arrow runs east "
        "along the corridor and ends at the door in the east wall.\n\nTherefore the primary route leads to EXIT B, "
        "option B.", EXIT3, "B", id="en-conclusion-ends-option-letter"),
    pytest.param(
        "If the office entrance is blocked, the solid arrow cannot be used. The dashed arrow turns south past the "
        "storage room and ends at the stairwell door on the south wall, which the legend marks as EXIT S.\n\n"
        "So the designated secondary exit is the stairwell door, choice (C).", EXITS, "C",
        id="en-conclusion-ends-choice-paren"),
    pytest.param(
        "The dashed line leaves the office, turns left at the copier and reaches the door labelled EXIT G.\n\n"
        "So the secondary exit is EXIT G, i.e. **option D**.", EXITS, "D", id="en-ie-bold-option"),
    pytest.param(
        "Vasco da Gama's route (the dashed red line) rounds the Cape of Good Hope and reaches Calicut in India. "
        "Cabral's route bends west towards Brazil first, and Lopez de Sequeira never rounds the Cape.\n\n"
        "The answer is Vasco da Gama.", EXPLORERS, "B", id="en-option-text-instead-of-letter"),
    pytest.param(
        "Taking the orange line from Bastille goes straight to Gare de Lyon, so the answer is A.\n\n"
        "Wait, the orange line does not stop at Bastille on this map; you first ride line 1 to Reuilly Diderot "
        "and change there. So the correct route is option B.", ROUTES, "B", id="en-self-correction-later-sentence"),
    pytest.param(
        "The eye symbol sits above the door of the tower on the northern mountaintop, so the answer is C.\n\n"
        "Hmm, actually, looking more carefully, that symbol is a lantern; the eye is carved above the grand "
        "temple's entrance in the centre. So A.", EYE, "A", id="en-self-correction-so-letter"),
    pytest.param(
        "Option A: store 225 is next to Cinemark, but the icon between them is an ATM.\n"
        "Option B: between 440 and 425 there is only a restroom sign.\n"
        "Option C: the red Coca-Cola icon is between 522 and 512.\n"
        "Option D: nothing between Dick's and Old Navy.\n\nThe correct option is C.", STORES, "C",
        id="en-weighs-every-option-then-concludes"),
    pytest.param(
        "Scanning the lower concourse, the Coca-Cola machine stands in the gap between the two stores.\n\n"
        "**Answer: (D) Between Dick's Sporting Goods and Old Navy**", STORES, "D", id="en-bold-letter-and-text"),
    pytest.param(
        "Reading the captions from Paul's Da Burger Joint towards the MoMA workshop, the next caption along "
        "the path is the one about the Chrysler Building.\n\nThe answer is: Stand and stare at the foot of the "
        "CHRYSLER BUILDING", ["Find pizza perfection in LITTLE ITALY",
                              "Lose your train of thought at GRAND CENTRAL TERMINAL",
                              "Stand and stare at the foot of the CHRYSLER BUILDING",
                              "Try one of New York's finest inventions at a HOT DOG CART"],
        "C", id="en-long-option-text-answer"),
    pytest.param(
        "First I assumed the dashed route ends at EXIT H, so B. Wait, no — the dashed arrow continues past the "
        "lifts to EXIT F. It's E.", EXITS, "E", id="en-wait-no-its-letter"),
    pytest.param(
        "所以次要出口在西侧走廊尽头，选项A。", EXIT3, "A", id="zh-conclusion-ends-xuanxiang"),
    pytest.param(
        "实线箭头向东，通往东墙上的出口。虚线箭头向西。\n\n综上，选B。", EXIT3, "B", id="zh-zongshang-xuan"),
    pytest.param(
        "主疏散路线是实线箭头，它向南穿过大厅，到达 EXIT C。\n\n因此答案选 C。", EXIT3, "C", id="zh-answer-xuan"),
    pytest.param(
        "一开始我以为虚线指向 EXIT A。等等，我再看一下图例：虚线其实指向南侧的 EXIT C，而不是 EXIT A。"
        "所以正确答案应为 C。", EXIT3, "C", id="zh-self-correction-answer-wei"),
    pytest.param(
        "地图中央有一个圆形水池，标注为喷泉，位于环形步道之内。湖在东北角，玫瑰园在西北角。\n\n所以答案是喷泉。",
        PARK_ZH, "A", id="zh-option-text-answer"),
    pytest.param(
        "North Hill 在蓝线北端，East Park 在红线东端，在 Central 换乘一次即可。\n\n正确答案：(B) 1 次",
        TRANSFERS_ZH, "B", id="zh-letter-with-option-text"),
    pytest.param(
        "从 South Bay 出发，蓝线向北到 Market，换乘绿线到 Harbor，所以选A。不对，再仔细看，Harbor 在红线上，"
        "到 West Gate 还要再换乘一次，所以应该选 B。", ["0 次", "1 次", "2 次", "3 次"], "B",
        id="zh-self-correction-buduei"),
]


@pytest.mark.parametrize(("response", "choices", "expected"), SINGLE)
def test_map_single_choice(response: str, choices: list[str], expected: str) -> None:
    got = extract_answer(response, "choice", choices=choices)
    assert got.value == expected, got
    assert got.evidence and got.evidence in response


MULTI = [
    pytest.param(
        "Checking each option:\n- A. Central: large white ring where Red and Blue cross — yes.\n"
        "- B. Library: small dot on the Blue line only — no.\n- C. Harbor: ring, Red meets Green — yes.\n"
        "- D. Museum: small dot — no.\n- E. Market: ring, Blue meets Green — yes.\n\n"
        "So the interchange stations are A, C and E.", FIVE, ["A", "C", "E"], id="en-checks-each-then-list"),
    pytest.param(
        "Kingsbridge and Riverton are drawn in the darkest shade (> 1000 per km²); Elmstead and Ashford are one "
        "class lighter.\n\nOptions A and C are correct.", DISTRICTS, ["A", "C"], id="en-options-are-correct"),
    pytest.param(
        "Both districts in the darkest class touch the river.\n\nA and C are both correct.", DISTRICTS, ["A", "C"],
        id="en-letters-are-both-correct"),
    pytest.param(
        "Rose Garden is top-left and Lake is top-right, both above the fountain; the playground and the entrance "
        "are below it.\n\n**A, B**", ["Rose Garden", "Lake", "Playground", "Entrance"], ["A", "B"],
        id="en-bold-letters-last-line"),
    pytest.param(
        "The small red squares are extinguishers: one inside Office 102, one by the Kitchen door, one in the "
        "Lobby. Office 101 and Storage have none.\n\nTherefore, the correct choices are Office 102, Kitchen and "
        "Lobby.", FACILITIES, ["B", "C", "E"], id="en-option-texts-instead-of-letters"),
    pytest.param(
        "So the interchange stations are Central (A), Harbor (C) and Market (E).", INTERCHANGES, ["A", "C", "E"],
        id="en-option-texts-with-letters"),
    pytest.param(
        "The darkest shade covers Kingsbridge and Riverton, so the answer is A, C.\n\nWait, Ashford is also in "
        "the darkest class — I misread the legend. So the answer is A, C, D.", DISTRICTS, ["A", "C", "D"],
        id="en-self-correction-adds-option"),
    pytest.param(
        "The features north of the fountain are the Rose Garden (A), the Lake (B) and the Cafe (D).\n\n"
        "Answer: A, B, and D", FIVE, ["A", "B", "D"], id="en-oxford-comma"),
    pytest.param(
        "逐项分析：\nA. Kingsbridge 颜色最深，正确。\nB. Elmstead 浅一级，错误。\nC. Riverton 颜色最深，正确。\n"
        "D. Ashford 浅一级，错误。\n\n综上，正确选项为AC。", DISTRICTS, ["A", "C"], id="zh-each-option-then-run"),
    pytest.param(
        "喷泉以北的是玫瑰园和湖，游乐场和入口都在南侧。因此应选 A、B。", ["玫瑰园", "湖", "游乐场", "入口"],
        ["A", "B"], id="zh-ying-xuan-dunhao"),
    pytest.param(
        "灭火器在 Office 102、Kitchen 和 Lobby。\n\n所以答案是 B、C 和 E。", FACILITIES, ["B", "C", "E"],
        id="zh-answer-dunhao-he"),
    pytest.param(
        "颜色最深的区域是玫瑰园和湖。\n\n所以答案是玫瑰园、湖。", ["玫瑰园", "湖", "游乐场", "入口"], ["A", "B"],
        id="zh-option-texts"),
]


@pytest.mark.parametrize(("response", "choices", "expected"), MULTI)
def test_map_multi_choice(response: str, choices: list[str], expected: list[str]) -> None:
    got = extract_answer(response, "multi_choice", choices=choices)
    assert got.value == expected, got
    assert got.evidence and got.evidence in response


ORDERING = [
    pytest.param(
        "From West Gate the Red line runs east to Harbor, where I change to the Green line south to Old Town "
        "and then east to Market.\n\nStations in order: B → C → A", STATIONS, ["B", "C", "A"],
        id="en-in-order-arrows"),
    pytest.param(
        "Tracing the river downstream from the 1180 m point: it leaves the ice-sculpted bedrock surface, drops "
        "over the steep eroded slope, spreads into the alluvial fan and then crosses the alluvial plain.\n\n"
        "D->B->C->A", RIVER, ["D", "B", "C", "A"], id="en-ascii-arrows-last-line"),
    pytest.param(
        "Upstream the river starts on bare rock, so the sequence is D, then B, then C, then A.", RIVER,
        ["D", "B", "C", "A"], id="en-then-list"),
    pytest.param(
        "Alibaba has the most monthly visitors, then Amazon, Otto Group, Nova Pontocom, Cdiscount and Myntra.\n\n"
        "Putting it together, the order is **[B, D, C, E, F, A]**.", COMPANIES, ["B", "D", "C", "E", "F", "A"],
        id="en-bold-bracket-list"),
    pytest.param(
        "Going west to east along the equator: South America is equatorial, the Atlantic coast of Africa is "
        "subequatorial, the Congo basin equatorial again, East Africa subequatorial and Indonesia equatorial.\n\n"
        "So the sequence is A → D → A → D → A.", ZONES, ["A", "D", "A", "D", "A"], id="en-repeated-letters"),
    pytest.param(
        "The equator crosses A → D → A → D → A from west to east.", ZONES, ["A", "D", "A", "D", "A"],
        id="en-arrow-list-in-sentence"),
    pytest.param(
        "Sorting the bars by height gives the descending order B > D > C > E > F > A.", COMPANIES,
        ["B", "D", "C", "E", "F", "A"], id="en-greater-than"),
    pytest.param(
        "Comparing the bar lengths, the correct order is B, D, C, E, F and A.", COMPANIES,
        ["B", "D", "C", "E", "F", "A"], id="en-comma-and-last"),
    pytest.param(
        "So the stations passed, in order, are Harbor, then Old Town, then Market.", STATIONS, ["B", "C", "A"],
        id="en-option-texts-then"),
    pytest.param(
        "So the route is Harbor (B) → Old Town (C) → Market (A).", STATIONS, ["B", "C", "A"],
        id="en-option-texts-with-letters"),
    pytest.param(
        "So the order is B, C, A. Wait, actually Old Town comes before Harbor on the Green line, so it's C, B, A.",
        STATIONS, ["C", "B", "A"], id="en-self-correction-so-its"),
    pytest.param(
        "The answer is [B, D, C, E, F, A].\n\nOn second thought, Amazon's bar is longer than Alibaba's. "
        "The correct order is D, B, C, E, F, A.", COMPANIES, ["D", "B", "C", "E", "F", "A"],
        id="en-second-thought-reorders"),
    pytest.param(
        "河流发源于冰蚀基岩面，随后经过陡峭侵蚀坡、冲积扇，最后进入冲积平原。\n\n顺序为 D-B-C-A", RIVER,
        ["D", "B", "C", "A"], id="zh-shunxu-wei-dashes"),
    pytest.param(
        "Harbor 在红线上，换乘绿线后向南经过 Old Town，再向东到 Market。\n\n依次是：Harbor、Old Town、Market",
        STATIONS, ["B", "C", "A"], id="zh-yici-option-texts"),
    pytest.param(
        "按月访问量从高到低排列，阿里巴巴最多，亚马逊第二。\n\n所以正确的排序是 B、D、C、E、F、A。", COMPANIES,
        ["B", "D", "C", "E", "F", "A"], id="zh-paixu-shi"),
    pytest.param(
        "赤道自西向东依次经过：赤道带、副赤道带、赤道带、副赤道带、赤道带。", ZONES_ZH, ["A", "D", "A", "D", "A"],
        id="zh-yici-jingguo-repeats"),
    pytest.param(
        "从高到低依次为：B > D > C > E > F > A", COMPANIES, ["B", "D", "C", "E", "F", "A"],
        id="zh-yici-wei-greater-than"),
]


@pytest.mark.parametrize(("response", "choices", "expected"), ORDERING)
def test_map_ordering(response: str, choices: list[str], expected: list[str]) -> None:
    got = extract_answer(response, "ordering", choices=choices)
    assert got.value == expected, got
    assert got.evidence and got.evidence in response


LONG_EXIT = (
    "### Step 1: Locate the starting point\n"
    "The red dot labelled **YOU ARE HERE** is in the corridor just outside the office entrance, on the north "
    "side of the floor plan.\n\n"
    "### Step 2: Identify the primary route\n"
    "The solid green arrow leaves the dot, goes through the office entrance and heads east to EXIT H. Since "
    "the question says the office entrance is blocked, this route (option B) is unusable.\n\n"
    "### Step 3: Follow the secondary route\n"
    "The dashed green arrow goes west along the corridor, turns south at the copy room and ends at the "
    "stairwell on the south wall. The sign there reads EXIT S. EXIT A is on the west wall but no arrow leads "
    "to it, and EXIT G is only reachable through the office.\n\n"
    "### Conclusion\n"
    "The designated secondary exit is **EXIT S** (option C)."
)
LONG_RIVER_ZH = (
    "首先找到地图(b)东北角海拔1180的位置，河流从这里发源。\n\n"
    "1. 源头附近是灰白色的区域，图例显示为“冰蚀基岩面”（D）。\n"
    "2. 向西南流出后，等高线非常密集，对应“陡峭侵蚀坡”（B）。\n"
    "3. 出山口后河道展开成扇形，是“冲积扇”（C）。\n"
    "4. 最后进入地势平坦的“冲积平原”（A），并在那里汇入主河。\n\n"
    "一开始我以为第2步是冲积扇，但扇形出现在坡的下方，所以顺序不变。\n\n"
    "**答案：D → B → C → A**"
)
LONG_ZONES = (
    "Let me trace the EQUATOR line from the west edge of the map to the east edge.\n\n"
    "- Over South America (Amazon basin) the band is dark green: EQUATORIAL ZONE (A).\n"
    "- Crossing the Atlantic to the Gulf of Guinea coast the colour is lighter green: SUBEQUATORIAL ZONE (D).\n"
    "- Over the Congo basin it is dark green again: EQUATORIAL ZONE (A).\n"
    "- East Africa (Kenya) is light green: SUBEQUATORIAL ZONE (D).\n"
    "- Over Indonesia it is dark green: EQUATORIAL ZONE (A).\n\n"
    "Wait, I should check whether the Indian Ocean segment counts. It has no colour band (ocean), so it does "
    "not add a zone.\n\n"
    "So the sequence is EQUATORIAL ZONE → SUBEQUATORIAL ZONE → EQUATORIAL ZONE → SUBEQUATORIAL ZONE → "
    "EQUATORIAL ZONE, i.e. [A, D, A, D, A]."
)
LONG_MULTI = (
    "| Option | Station | Symbol on the map | Interchange? |\n"
    "|---|---|---|---|\n"
    "| A | Central | large white ring | yes |\n"
    "| B | Library | small dot | no |\n"
    "| C | Harbor | large white ring | yes |\n"
    "| D | Museum | small dot | no |\n"
    "| E | Market | large white ring | yes |\n\n"
    "From the table, the interchange stations are Central, Harbor and Market.\n\n"
    "**Final answer: A, C, E**"
)


@pytest.mark.parametrize(
    ("response", "answer_type", "choices", "expected"),
    [
        pytest.param(LONG_EXIT, "choice", EXITS, "C", id="en-markdown-steps-option-text-and-letter"),
        pytest.param(LONG_RIVER_ZH, "ordering", RIVER, ["D", "B", "C", "A"], id="zh-numbered-walk-bold-arrows"),
        pytest.param(LONG_ZONES, "ordering", ZONES, ["A", "D", "A", "D", "A"], id="en-option-text-arrows-ie-list"),
        pytest.param(LONG_MULTI, "multi_choice", INTERCHANGES, ["A", "C", "E"], id="en-table-then-bold-label"),
    ],
)
def test_map_long_chains_of_thought(response: str, answer_type, choices: list[str], expected) -> None:
    got = extract_answer(response, answer_type, choices=choices)
    assert got.value == expected, got


UNANSWERED = [
    pytest.param(
        "The dashed line could end at either EXIT A or EXIT C; the image is too blurry to tell. It might be A or "
        "C.", "choice", EXIT3, "several_final_answers", id="en-choice-hedge"),
    pytest.param(
        "Riverton is clearly dark, Elmstead less so. So the answer is A or C.", "multi_choice", DISTRICTS,
        "several_final_answers", id="en-multi-hedge-or"),
    pytest.param(
        "The shading at the border is ambiguous, so it is either A or C.", "multi_choice", DISTRICTS,
        "several_final_answers", id="en-multi-either-or"),
    pytest.param(
        "图上看不太清虚线最终指向 EXIT A 还是 EXIT C。可能是A或C。", "choice", EXIT3, "several_final_answers",
        id="zh-choice-hedge"),
    pytest.param(
        "Following the solid arrow, the answer is A. Wait, the arrow fades out near the stairwell, so it is A or C.",
        "choice", EXIT3, "several_final_answers", id="en-correction-into-hedge-drops-earlier-answer"),
    pytest.param(
        "Therefore the route cannot be option B.", "choice", EXIT3, "no_answer", id="en-negated-option-not-read"),
    pytest.param(
        "So the answer is not A.", "choice", EXIT3, "no_answer", id="en-negated-answer-not-read"),
    pytest.param(
        "Hmm, I am not fully sure whether the north-east icon is a cafe or a viewpoint, so I cannot give a "
        "definite sequence.", "ordering", ["Cafe", "Restroom", "Viewpoint"], "refusal", id="en-ordering-refusal"),
    pytest.param(
        "The route passes Harbor and then Old Town; after that I lose the line.", "ordering", STATIONS,
        "no_answer", id="en-ordering-prose-without-answer"),
]


@pytest.mark.parametrize(("response", "answer_type", "choices", "reason"), UNANSWERED)
def test_map_unanswered(response: str, answer_type, choices: list[str], reason: str) -> None:
    got = extract_answer(response, answer_type, choices=choices)
    assert got.value is None, got
    assert got.reason == reason, got


def test_ordering_of_wrong_length_is_extracted_and_scored_wrong() -> None:
    # The extractor reports the sequence the response states; the length check belongs to
    # the scorer (sequence equality), so a short answer is wrong, not unscorable.
    got = extract_answer("So the stations are passed in the order B → C.", "ordering", choices=STATIONS)
    assert got.value == ["B", "C"]
    assert score_answer(got, "[B,C,A]", "ordering", choices=STATIONS) is False
    assert score_answer(got, "[B,C,A]", "ordering", mode="official", benchmark="map") is False


@pytest.mark.parametrize(
    ("response", "answer_type", "choices", "gold", "correct"),
    [
        pytest.param("Therefore the primary route leads to EXIT B, option B.", "choice", EXIT3, "B", True,
                     id="single-right"),
        pytest.param("Options A and C are correct.", "multi_choice", DISTRICTS, ["A", "C"], True, id="set-right"),
        pytest.param("Options A and C are correct.", "multi_choice", DISTRICTS, ["A", "C", "D"], False,
                     id="subset-no-partial-credit"),
        pytest.param("The equator crosses A → D → A → D → A.", "ordering", ZONES, "[A,D,A,D,A]", True,
                     id="repeats-right"),
        pytest.param("The equator crosses A → D → A → D.", "ordering", ZONES, "[A,D,A,D,A]", False,
                     id="repeats-one-short-wrong"),
    ],
)
def test_map_official_scoring(response, answer_type, choices, gold, correct) -> None:
    got = extract_answer(response, answer_type, choices=choices)
    assert score_answer(got, gold, answer_type, mode="official", benchmark="map") is correct
    assert score_answer(got, gold, answer_type, choices=choices) is correct
