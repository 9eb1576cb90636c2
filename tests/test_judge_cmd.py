"""``reasonjudge judge`` end to end: no-model scorer, the fake server, resume, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.cli import main
from tests.fakes.openai_server import Reply

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "examples" / "ocr_reasoning" / "sample.jsonl"


def read_rows(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


@pytest.fixture(autouse=True)
def _fake_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake-for-tests")


def test_without_model_runs_the_reference_coverage_scorer_and_says_so(tmp_path, capsys):
    assert main(["judge", str(SAMPLE), "--benchmark", "ocr-reasoning", "-o", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "reference-coverage (deterministic, NOT an LLM judge)" in out
    rows = read_rows(tmp_path / "judgments.jsonl")
    n = len(read_rows(SAMPLE))
    assert len(rows) == n and len({r["id"] for r in rows}) == n
    assert {r["judge"] for r in rows} == {"reference-coverage"}
    summary = json.loads((tmp_path / "judge_summary.json").read_text(encoding="utf-8"))
    assert summary["judge_kind"] == "reference-coverage" and "not an LLM judge" in summary["note"]
    assert summary["overall"]["n"] == n
    assert set(summary["by_ability"]) <= {
        "Spatial Reasoning", "Numerical Analysis Reasoning", "Mathematical Reasoning", "Enumerative Reasoning",
        "Logical Reasoning", "Multidisciplinary Knowledge Reasoning"}
    scored = [r["score"] for r in rows if r["score"] is not None]
    assert summary["overall"]["mean_score_x100"] == pytest.approx(100 * sum(scored) / len(scored))


def test_model_options_without_model_are_refused(tmp_path, capsys):
    assert main(["judge", str(SAMPLE), "--benchmark", "ocr-reasoning", "-o", str(tmp_path), "--samples", "3"]) == 2
    assert "--samples given without --model" in capsys.readouterr().err


def test_with_the_fake_server_end_to_end_and_rerun_makes_no_call(tmp_path, fake_llm, capsys):
    fake_llm.default = Reply(content=json.dumps({"rating_rationale": "matches the reference", "rating": 8}))
    argv = ["judge", str(SAMPLE), "--benchmark", "ocr-reasoning", "--rubric", "ocr-reasoning",
            "--model", "openai/fake-judge", "--api-base", fake_llm.base_url, "-o", str(tmp_path), "--no-progress"]
    assert main(argv) == 0
    n = len(read_rows(SAMPLE))
    assert fake_llm.request_count == n
    rows = read_rows(tmp_path / "judgments.jsonl")
    assert all(r["judge"] == "openai/fake-judge" and r["judge_kind"] == "llm" for r in rows)
    assert all(r["score"] == pytest.approx(0.8) and r["rubric"] == "ocr-reasoning" for r in rows)
    summary = json.loads((tmp_path / "judge_summary.json").read_text(encoding="utf-8"))
    assert summary["overall"]["mean_score_x100"] == pytest.approx(80.0)
    assert "score x100 80.0" in capsys.readouterr().out
    # Rerun: every item is already in the results log, so no call at all.
    assert main(argv) == 0
    assert fake_llm.request_count == n
    assert len(read_rows(tmp_path / "judgments.jsonl")) == n
    # Kill-and-resume: drop half the rows; the rerun judges only those, from the cache.
    kept = read_rows(tmp_path / "judgments.jsonl")[: n // 2]
    (tmp_path / "judgments.jsonl").write_text("".join(json.dumps(r) + "\n" for r in kept), encoding="utf-8")
    assert main(argv) == 0
    assert fake_llm.request_count == n
    assert sorted(r["id"] for r in read_rows(tmp_path / "judgments.jsonl")) == sorted(r["id"] for r in rows)


def test_appending_another_judge_setup_is_refused(tmp_path, fake_llm, capsys):
    fake_llm.default = Reply(content=json.dumps({"rating_rationale": "ok", "rating": 8}))
    base = ["judge", str(SAMPLE), "--benchmark", "ocr-reasoning", "-o", str(tmp_path)]
    assert main(base) == 0  # reference-coverage rows
    capsys.readouterr()
    assert main(base + ["--rubric", "ocr-reasoning", "--model", "openai/fake-judge", "--api-base", fake_llm.base_url]) == 2
    assert "holds results of another judge setup" in capsys.readouterr().err
    assert fake_llm.request_count == 0


def test_invalid_verdicts_give_unscored_rows_and_the_summary_counts_them(tmp_path, fake_llm, capsys):
    fake_llm.default = Reply(content=json.dumps({"rating_rationale": "great", "rating": 11}))
    argv = ["judge", str(SAMPLE), "--benchmark", "ocr-reasoning", "--rubric", "ocr-reasoning", "--max-reasks", "0",
            "--model", "openai/fake-judge", "--api-base", fake_llm.base_url, "-o", str(tmp_path), "--no-progress"]
    assert main(argv) == 0
    rows = read_rows(tmp_path / "judgments.jsonl")
    assert all(r["score"] is None and r["error"] for r in rows)
    summary = json.loads((tmp_path / "judge_summary.json").read_text(encoding="utf-8"))
    assert summary["overall"]["n_unscored"] == len(rows) and summary["overall"]["mean_score_x100"] is None


def test_missing_reference_fails_before_any_call(tmp_path, fake_llm, capsys):
    preds = tmp_path / "preds.jsonl"
    preds.write_text(json.dumps({"id": "a", "question": "q?", "answer": "1", "response": "It is 1.",
                                 "reference": "step1: 1"}) + "\n"
                     + json.dumps({"id": "b", "question": "q?", "answer": "2", "response": "It is 2."}) + "\n",
                     encoding="utf-8")
    argv = ["judge", str(preds), "--benchmark", "generic", "--model", "openai/fake-judge",
            "--api-base", fake_llm.base_url, "-o", str(tmp_path / "out")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "preds.jsonl:2: field 'reference': required by rubric 'reasoning-trajectory'" in err
    assert fake_llm.request_count == 0


def test_grade_with_judge_does_both_in_one_pass(tmp_path, fake_llm, capsys):
    fake_llm.default = Reply(content=json.dumps({"first_error_rationale": "all steps hold", "first_error": -1}))
    argv = ["grade", str(SAMPLE), "--benchmark", "ocr-reasoning", "--judge", "--rubric", "first-error",
            "--model", "openai/fake-judge", "--api-base", fake_llm.base_url, "-o", str(tmp_path), "--no-progress"]
    assert main(argv) == 0
    n = len(read_rows(SAMPLE))
    assert len(read_rows(tmp_path / "results.jsonl")) == n  # extraction + scoring rows
    judged = read_rows(tmp_path / "judgments.jsonl")
    assert len(judged) == n and all(r["first_error_step"] == -1 and r["score"] == 1.0 for r in judged)
    assert fake_llm.request_count == n
    out = capsys.readouterr().out
    assert "accuracy" in out and "judge openai/fake-judge" in out


def test_grade_model_without_judge_runs_only_the_extraction_fallback(tmp_path, fake_llm, capsys):
    rows = [
        {"id": "q1", "response": "The tallest bar is Tuesday, which matches the second choice.",
         "answer_type": "choice", "choices": ["Mon", "Tue", "Fri"], "gold": "B"},
        {"id": "q2", "response": "Counting the bars, the answer is C.", "answer_type": "choice",
         "choices": ["Mon", "Tue", "Fri"], "gold": "C"},
        {"id": "q3", "response": "I cannot see the chart.", "answer_type": "choice",
         "choices": ["Mon", "Tue", "Fri"], "gold": "A"},
    ]
    src = tmp_path / "preds.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    fake_llm.default = Reply(content=json.dumps({"answer": "B", "evidence": "matches the second choice"}))
    argv = ["grade", str(src), "--benchmark", "generic", "--model", "openai/fake", "--api-base", fake_llm.base_url,
            "-o", str(tmp_path / "run"), "--no-progress"]
    assert main(argv) == 0
    assert fake_llm.request_count == 1  # only q1: q2 is read by the rules, q3 is a refusal
    out = {r["id"]: r for r in read_rows(tmp_path / "run" / "results.jsonl")}
    assert out["q1"]["answer"] == "B" and out["q1"]["method"] == "llm" and out["q1"]["extractor"] == "llm"
    assert out["q1"]["evidence"] == "matches the second choice" and out["q1"]["correct"] is True
    assert out["q2"]["method"] != "llm" and out["q2"]["correct"] is True
    assert out["q3"]["answer"] is None and out["q3"]["correct"] is None
    assert not (tmp_path / "run" / "judgments.jsonl").exists()  # no --judge, no judging
