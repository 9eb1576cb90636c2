"""Exact-match tables by level, category, question type and language; unparseable apart from wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.maps.breakdown import breakdown, breakdown_json, count_group, format_breakdown

ROOT = Path(__file__).resolve().parents[1]
PREDICTIONS = ROOT / "examples" / "maps" / "predictions.jsonl"


def test_counts_keep_unparseable_and_errors_apart_from_wrong():
    rows = [
        {"correct": True}, {"correct": True}, {"correct": False},
        {"correct": None, "reason": "hedged"},              # unparseable: not a match
        {"correct": None, "error": "transport: 500"},       # failed call: not scored at all
    ]
    g = count_group(rows)
    assert (g.n, g.correct, g.wrong, g.unparseable, g.errors) == (5, 2, 1, 1, 1)
    assert g.accuracy == pytest.approx(2 / 4)


def test_empty_and_all_failed_groups_have_no_accuracy():
    assert count_group([]).accuracy is None
    assert count_group([{"error": "x", "correct": None}]).accuracy is None


def test_groups_follow_the_benchmark_order_and_question_type_names():
    rows = [
        {"level": "L3", "category": "Game", "answer_type": "ordering", "language": "zh", "correct": True},
        {"level": "L1", "category": "Tourism", "answer_type": "choice", "language": "en", "correct": False},
        {"level": "L2", "category": "Indoor Navigation", "answer_type": "multi_choice", "language": "en",
         "correct": None},
    ]
    t = breakdown(rows)
    assert [g.group for g in t["level"]] == ["L1", "L2", "L3"]
    assert [g.group for g in t["category"]] == ["Indoor Navigation", "Tourism", "Game"]
    assert [g.group for g in t["question_type"]] == ["single_choice", "multiple_choice", "ordering"]
    assert [g.group for g in t["language"]] == ["en", "zh"]
    js = breakdown_json(t)
    assert js["overall"][0]["accuracy"] == pytest.approx(1 / 3)
    text = format_breakdown(t)
    assert "level: L2" in text and "unparseable" in text


def test_fields_no_row_carries_are_left_out():
    t = breakdown([{"correct": True}], by=("level", "category"))
    assert list(t) == ["overall"]


def test_breakdown_of_the_bundled_sample_predictions():
    """Grade the sample's written responses with the rule extractor and check every count."""
    from judge.loaders import load_predicted_items
    from judge.maps.run import grade_response

    items = load_predicted_items(PREDICTIONS, "map")
    rows = []
    for pi in items:
        it = pi.item
        rows.append({"id": it.id, "level": it.level, "category": it.category, "answer_type": it.answer_type,
                     "language": it.language, **grade_response(it, pi.response, scoring="strict")})
    verdict = {r["id"]: r["correct"] for r in rows}
    # Written to be wrong: a self-correction that lands on the wrong station, a wrong door
    # order, a guessed facility; written to have no final answer: a hedge, an unsure refusal.
    assert [i for i, v in verdict.items() if v is False] == ["metro-06", "evac-05", "park-04"]
    assert [i for i, v in verdict.items() if v is None] == ["evac-03", "park-02"]
    t = breakdown(rows)
    overall = t["overall"][0]
    assert (overall.n, overall.correct, overall.wrong, overall.unparseable) == (20, 15, 3, 2)
    levels = {g.group: (g.n, g.correct, g.wrong, g.unparseable) for g in t["level"]}
    assert levels == {"L1": (5, 5, 0, 0), "L2": (8, 6, 1, 1), "L3": (7, 4, 2, 1)}
    cats = {g.group: (g.n, g.correct) for g in t["category"]}
    assert cats == {"Indoor Navigation": (5, 3), "Transportation": (6, 5), "Tourism": (4, 2), "Socioeconomic": (5, 5)}
    types = {g.group: (g.n, g.correct) for g in t["question_type"]}
    assert types == {"single_choice": (11, 8), "multiple_choice": (4, 4), "ordering": (5, 3)}
    langs = {g.group: (g.n, g.correct) for g in t["language"]}
    assert langs == {"en": (14, 11), "zh": (6, 4)}
