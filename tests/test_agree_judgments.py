"""The loop a user runs: judge responses, then measure the judge against human scores."""

from __future__ import annotations

import json
from pathlib import Path

from judge.cli import main

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "examples" / "ocr_reasoning" / "sample.jsonl"


def test_agree_reads_the_judgments_that_judge_writes(tmp_path, capsys):
    run = tmp_path / "run"
    assert main(["judge", str(SAMPLE), "--benchmark", "ocr-reasoning", "-o", str(run)]) == 0
    judged = [json.loads(x) for x in (run / "judgments.jsonl").read_text().splitlines()]
    # Two human raters who score each response 0-1: one tracks the judge, one disagrees on two items.
    humans = []
    for k, row in enumerate(judged):
        humans.append({"item": row["id"], "rater": "h1", "score": row["score"]})
        humans.append({"item": row["id"], "rater": "h2", "score": 1.0 - row["score"] if k in (2, 5) else row["score"]})
    human_file = tmp_path / "human.jsonl"
    human_file.write_text("".join(json.dumps(h) + "\n" for h in humans), encoding="utf-8")
    out = tmp_path / "agree"
    assert main(["agree", "--human", str(human_file), "--judge", str(run / "judgments.jsonl"),
                 "--judge-format", "judgments", "--bootstrap", "200", "-o", str(out)]) == 0
    report = json.loads((out / "agreement.json").read_text())
    judges = report["sections"][0]["judges"]
    assert list(judges) == ["reference-coverage"]  # the judge is named by the rows' own `judge` field
    metrics = {m["metric"]: m for m in judges["reference-coverage"]["metrics"]}
    # exact agreement is averaged over the humans: 18/18 with h1, 16/18 with h2
    assert metrics["agreement"]["value"] == 34 / 36
    assert judges["reference-coverage"]["n_scored"] == len(judged)
    printed = capsys.readouterr().out
    assert "reference-coverage" in printed and "MAE" in printed
