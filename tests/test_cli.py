"""The CLI contract: extract / score / grade on real files, errors to stderr with status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from judge.cli import main

ROOT = Path(__file__).resolve().parents[1]
OCR_SAMPLE = ROOT / "examples" / "ocr_reasoning" / "sample.jsonl"


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


ROWS = [
    {"id": "mc", "response": "A looks tempting, but B fails the test. So B. Wait, actually C.", "answer_type": "choice",
     "choices": ["red", "green", "blue", "black"], "gold": "C", "note": "kept"},
    {"id": "money", "response": "Total: 6.25 + 6.99 + 4.75 = 17.99; 17.99 - 14.75.\nThe final answer is: $3.24",
     "answer_type": "currency", "gold": "3.24"},
    {"id": "refusal", "response": "I'm sorry, I cannot read the image.", "answer_type": "integer", "gold": "3"},
    {"id": "wrong", "response": "So the answer is 12.", "answer_type": "integer", "gold": "10"},
]


@pytest.fixture()
def rows_file(tmp_path: Path) -> Path:
    p = tmp_path / "in.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    return p


def test_extract_writes_each_row_back(rows_file, tmp_path):
    out = tmp_path / "out.jsonl"
    assert main(["extract", str(rows_file), "-o", str(out)]) == 0
    rows = {r["id"]: r for r in read_jsonl(out)}
    assert rows["mc"]["answer"] == "C" and rows["mc"]["note"] == "kept"  # input fields are kept
    assert rows["mc"]["method"]
    assert rows["money"]["answer"] == pytest.approx(3.24)
    assert rows["refusal"]["answer"] is None and rows["refusal"]["reason"]


def test_score_counts_unscorable_apart_from_wrong(rows_file, tmp_path, capsys):
    out = tmp_path / "out.jsonl"
    assert main(["score", str(rows_file), "-o", str(out)]) == 0
    rows = {r["id"]: r for r in read_jsonl(out)}
    assert rows["mc"]["correct"] is True
    assert rows["money"]["correct"] is True  # "$3.24" against gold "3.24": the official script says wrong
    assert rows["refusal"]["correct"] is None
    assert rows["wrong"]["correct"] is False
    err = capsys.readouterr().err
    assert "accuracy 50.0% (2/4), wrong 1, unscorable 1" in err


def test_grade_ocr_sample(tmp_path, capsys):
    out_dir = tmp_path / "run"
    assert main(["grade", str(OCR_SAMPLE), "--benchmark", "ocr-reasoning", "-o", str(out_dir)]) == 0
    rows = read_jsonl(out_dir / "results.jsonl")
    summary = json.loads((out_dir / "summary.json").read_text())
    assert len(rows) == 18 and summary["n_items"] == 18
    by_id = {r["id"]: r for r in rows}
    assert by_id["1"]["correct"] is True  # $3.24 vs 3.24
    assert by_id["10"]["correct"] is True  # 四百亿元 vs 400亿元
    assert by_id["12"]["answer"] == "B"  # option text instead of the letter
    assert by_id["13"]["answer"] is None  # hedges between B and C
    assert by_id["15"]["answer"] is None and by_id["15"]["correct"] is None  # refusal
    assert by_id["14"]["correct"] is False  # 12 vs 10
    assert all(r["extractor"] == "rules" and r["mode"] == "strict" for r in rows)
    assert set(summary["by_ability"]) == {
        "Spatial Reasoning", "Numerical Analysis Reasoning", "Mathematical Reasoning",
        "Enumerative Reasoning", "Logical Reasoning", "Multidisciplinary Knowledge Reasoning"}
    overall = summary["overall"]
    assert overall["correct"] + overall["wrong"] + overall["unscorable"] == 18
    assert overall["unscorable"] >= 2
    printed = capsys.readouterr().out
    assert "by ability" in printed and "Numerical Analysis Reasoning" in printed


def test_official_mode_reproduces_the_dollar_defect(tmp_path):
    out_dir = tmp_path / "run"
    assert main(["grade", str(OCR_SAMPLE), "--benchmark", "ocr-reasoning", "--mode", "official",
                 "-o", str(out_dir)]) == 0
    rows = {r["id"]: r for r in read_jsonl(out_dir / "results.jsonl")}
    summary = json.loads((out_dir / "summary.json").read_text())
    assert summary["mode"] == "official"
    strict_dir = tmp_path / "strict"
    main(["grade", str(OCR_SAMPLE), "--benchmark", "ocr-reasoning", "-o", str(strict_dir)])
    strict = json.loads((strict_dir / "summary.json").read_text())
    # Our strict mode is never below the official semantics on this sample: it only removes false negatives.
    assert strict["overall"]["correct"] >= summary["overall"]["correct"]
    assert all(r["mode"] == "official" for r in rows.values())
    # The official checker calls float() on the answer as written: "$3.24" fails against "3.24" ...
    assert rows["1"]["correct"] is False
    # ... while a string column ("other") compares "25%" with "25%" as strings, and passes.
    assert rows["9"]["correct"] is True


def test_bad_input_exits_2_and_writes_nothing(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "response": "B", "answer_type": "choice", "choices": ["x", "y"]}\n'
                   '{"id": "b", "response": "B", "answer_type": "choise"}\n', encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["extract", str(bad), "-o", str(out)]) == 2
    assert not out.exists()
    err = capsys.readouterr().err
    assert f"reasonjudge: error: {bad}:2: field 'answer_type'" in err


def test_score_requires_gold(tmp_path, capsys):
    p = tmp_path / "in.jsonl"
    p.write_text('{"id": "a", "response": "The answer is 3.", "answer_type": "integer"}\n', encoding="utf-8")
    assert main(["score", str(p), "-o", str(tmp_path / "o.jsonl")]) == 2
    assert f"{p}:1: field 'gold': required" in capsys.readouterr().err


def test_help_does_not_import_litellm():
    code = ("import sys; from judge.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "assert 'litellm' not in sys.modules and 'instructor' not in sys.modules, 'heavy import'\n")
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
