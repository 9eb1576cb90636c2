"""Step segmentation of responses and reference trajectories."""

from __future__ import annotations

import json
import re

import pytest

from judge.segment import segment_steps


@pytest.mark.parametrize(
    ("text", "method", "starts"),
    [
        pytest.param("step1: read $6.25.\nstep2: add $6.99.\nstep3: 6.25+6.99=13.24.\nThe final answer is: 13.24",
                     "marked", ["step1:", "step2:", "step3:"], id="ocr-reasoning-reference"),
        pytest.param("Let's go.\n\n**Step 1:** read the chart\n**Step 2:** count the bars over 10K",
                     "marked", ["Let's go.", "**Step 2:**"], id="markdown-steps-with-preamble"),
        pytest.param("### Step 1\nRead.\n### Step 2\nAdd.", "marked", ["### Step 1", "### Step 2"], id="heading-steps"),
        pytest.param("第1步：读取数字\n第2步：相加", "marked", ["第1步", "第2步"], id="chinese-steps"),
        pytest.param("1. First\n2. Second\n   1) nested\n3. Third", "numbered", ["1. First", "2. Second", "3. Third"],
                     id="numbered-with-nested-list"),
        pytest.param("We read 3.24.\n\nThen we subtract.\n\nAnswer: 3", "paragraphs", ["We read", "Then", "Answer"],
                     id="paragraphs"),
        pytest.param("Total is 3.24 dollars. Then we add 2. Done!", "sentences", ["Total is 3.24", "Then we add 2.", "Done!"],
                     id="sentences-keep-decimals"),
    ],
)
def test_strategies(text, method, starts):
    seg = segment_steps(text)
    assert seg.method == method
    assert [s.number for s in seg.steps] == list(range(1, len(starts) + 1))
    for step, start in zip(seg.steps, starts):
        assert step.text.startswith(start)
        assert text[step.start:step.end] == step.text


def test_no_text_is_lost_between_steps():
    text = "Intro line.\nStep 1: a\nmore of a\nStep 2: b\nThe answer is b."
    seg = segment_steps(text)
    joined = " ".join(s.text for s in seg.steps).split()
    assert joined == text.split()
    assert seg.steps[-1].text.endswith("The answer is b.")


def test_single_and_empty():
    assert segment_steps("   just one   ").method == "single"
    assert segment_steps("   just one   ").steps[0].text == "just one"
    assert segment_steps("").steps == [] and segment_steps(None).method == "empty"


def test_a_step_mentioned_inside_a_line_is_not_a_marker():
    seg = segment_steps("Step 1: compute as in step 2: no.\nStep 2: done")
    assert len(seg) == 2


def test_real_references_segment_into_their_annotated_steps(shared_data):
    path = shared_data / "ocr_reasoning" / "examples.transcribed.jsonl"
    for line in path.read_text(encoding="utf-8").splitlines():
        ex = json.loads(line)
        seg = segment_steps(ex["reasoning"])
        n = len(re.findall(r"^step\d+:", ex["reasoning"], flags=re.MULTILINE))
        assert seg.method == "marked" and len(seg) == n, ex["example_id"]


def test_real_mrmath_solutions_mostly_match_annotated_steps(shared_data):
    rows = [json.loads(x) for x in (shared_data / "judging/reasoneval_mrmath/mr-math_invalid_errors.jsonl")
            .read_text(encoding="utf-8").splitlines()]
    same = sum(len(segment_steps(r["model_output"])) == len(r["model_output_step_format"]) for r in rows)
    # The 3 that differ nest a numbered list inside "Step k:" blocks, which the
    # annotators split and we keep inside the step.
    assert same == len(rows) - 3
