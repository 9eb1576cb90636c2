"""The extractor's headline guarantees on real model outputs (``../shared/data/extraction``).

Skipped when the data folder is absent. Nothing here is timed: speed is measured by
``benchmarks/extraction_real.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.extraction_real import (
    load_mathvista,
    load_mmmu_pro,
    mathvista_nonanswers,
    mmmu_stated,
    run_source,
)


@pytest.fixture(scope="module")
def extraction_data(shared_data: Path) -> Path:
    return shared_data / "extraction"


@pytest.fixture(scope="module")
def gpt4(extraction_data: Path):
    return load_mathvista(extraction_data / "mathvista" / "output_gpt4_2shot_solution.json", "mathvista/gpt4")


@pytest.fixture(scope="module")
def claude(extraction_data: Path):
    return load_mathvista(extraction_data / "mathvista" / "output_claude_2shot_solution.json", "mathvista/claude")


def test_mathvista_gpt4_official_figures_recomputed(gpt4) -> None:
    # The figures: 292 items scored correct, 122 of them multiple-choice items whose
    # official extraction was a refusal or not an option.
    assert sum(it.official_correct for it in gpt4) == 292
    assert mathvista_nonanswers(gpt4)["official_nonoptions_scored_correct"] == 122


@pytest.mark.parametrize("dump", ["gpt4", "claude"])
def test_mathvista_no_nonanswer_scored_correct(dump, request) -> None:
    items = request.getfixturevalue(dump)
    res = mathvista_nonanswers(items)
    assert res["nonanswers"] > 0
    assert res["nonanswers_ours_scored_correct"] == 0, res["nonanswers_ours_scored_correct_ids"]


def test_mathvista_refusals_are_unscorable_not_wrong(gpt4) -> None:
    res = run_source(gpt4)
    # GPT-4 without the image declines often; those rows must be kept apart from wrong ones.
    assert res["unscorable_reasons"].get("refusal", 0) > 300
    assert res["ours_correct"] + res["ours_unscorable"] <= res["n"]


def test_mmmu_pro_agrees_with_stated_answers(extraction_data: Path) -> None:
    res = mmmu_stated(load_mmmu_pro(extraction_data / "mmmu_pro" / "gpt-4o_standard10opts_cot.jsonl"))
    assert res["stating_one"] > 1650  # the definition must cover nearly all responses
    assert res["ours_agreement"] >= 0.995, res["ours_misses"]
    # The rule matcher we replace resolves far fewer of the same stated answers.
    assert res["can_infer_agreement"] < 0.6


def test_ocr_reasoning_reference_final_answers(shared_data: Path) -> None:
    # The benchmark's own reference reasoning ends "The final answer is: X" after steps that
    # discuss options ("so A is incorrect"); each must come out as its gold answer.
    import json

    from extractors import extract_answer, score_answer

    types = {"multi_choice": "choice", "float": "float", "integer": "integer", "text": "text"}
    rows = [json.loads(line) for line in
            (shared_data / "ocr_reasoning" / "examples.transcribed.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 6
    for r in rows:
        answer_type = types["multi_choice" if r["question_type_guess"] == "multi_choice" else r["answer_type_guess"]]
        choices = list("ABCD") if answer_type == "choice" else None
        ext = extract_answer(r["reasoning"], answer_type, choices=choices)  # type: ignore[arg-type]
        assert score_answer(ext, r["answer"], answer_type, choices=choices) is True, (r["example_id"], ext)  # type: ignore[arg-type]
        assert score_answer(ext, r["answer"], answer_type, choices=choices, mode="official",  # type: ignore[arg-type]
                            benchmark="ocr-reasoning") is True, (r["example_id"], ext)
