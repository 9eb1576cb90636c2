"""``reasonjudge agree`` and ``reasonjudge calibrate fit/apply`` end to end, in-process."""

from __future__ import annotations

import json

import numpy as np
import pytest

from judge.cli import main


def _write(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture()
def files(tmp_path):
    rng = np.random.default_rng(5)
    humans, judges = [], []
    for i in range(120):
        truth = int(rng.integers(1, 6))
        doc = f"doc{i // 4}"
        for h in ("ann", "bob", "cy"):
            humans.append({"item": f"s{i}", "group": doc, "rater": h,
                           "score": int(np.clip(truth + rng.integers(-1, 2), 1, 5))})
        judges.append({"item": f"s{i}", "rater": "judge-a", "score": int(np.clip(2 * truth + rng.integers(-2, 3), 1, 10))})
        judges.append({"item": f"s{i}", "rater": "judge-b", "score": int(np.clip(truth + rng.integers(-2, 3), 1, 5))})
    return _write(tmp_path / "human.jsonl", humans), _write(tmp_path / "judge.jsonl", judges), tmp_path


def test_agree_prints_table_and_writes_json(files, capsys):
    h, j, tmp = files
    out = tmp / "report"
    assert main(["agree", "--human", str(h), "--judge", str(j), "--group-by", "group", "--bootstrap", "100",
                 "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "== judge-a | all (120 items, 30 groups)" in text
    assert "Pearson r (per group)" in text and "95% CI" in text and "ceiling" in text
    rep = json.loads((out / "agreement.json").read_text())
    assert rep["inputs"]["human"] == str(h)
    assert rep["judges"] == ["judge-a", "judge-b"] and rep["n_groups"] == 30
    row = next(r for r in rep["sections"][0]["judges"]["judge-b"]["metrics"] if r["metric"] == "kappa_quadratic")
    assert row["ci"][0] <= row["value"] <= row["ci"][1]
    assert set(row["baselines"]) == {"constant", "majority", "random"} and row["ceiling"] is not None


def test_agree_selects_judges(files, capsys):
    h, j, _ = files
    assert main(["agree", "--human", str(h), "--judge", str(j), "--judge-rater", "judge-b", "--bootstrap", "0",
                 "--quiet"]) == 0
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize(("extra", "message"), [
    pytest.param(["--judge-rater", "gpt-5"], "unknown judge rater(s) ['gpt-5']", id="unknown-judge"),
    pytest.param(["--group-by", "document"], "no item field 'document'", id="unknown-field"),
    pytest.param(["--confidence", "1.5"], "bad option", id="bad-confidence"),
])
def test_agree_user_errors_exit_2(files, capsys, extra, message):
    h, j, tmp = files
    assert main(["agree", "--human", str(h), "--judge", str(j), "-o", str(tmp / "r"), *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("reasonjudge: error: ") and message in err
    assert not (tmp / "r").exists()  # nothing written when the input is bad


def test_agree_mismatched_items_names_file_and_line(files, capsys):
    h, _, tmp = files
    j = _write(tmp / "short.jsonl", [{"item": "s0", "rater": "x", "score": 3}])
    assert main(["agree", "--human", str(h), "--judge", str(j)]) == 2
    assert f"{h}:4: item 's1' has no judge score" in capsys.readouterr().err


def test_calibrate_fit_apply_then_agree(files, capsys):
    h, j, tmp = files
    m = tmp / "maps.json"
    assert main(["calibrate", "fit", "--human", str(h), "--judge", str(j), "--judge-rater", "judge-a",
                 "--group-by", "group", "-o", str(m)]) == 0
    table = capsys.readouterr().out
    assert "judge-a" in table and "MAE after" in table
    saved = json.loads(m.read_text())
    assert saved["format"] == "reasonjudge-calibration-map" and saved["group_by"] == "group"
    fitted = saved["maps"]["judge-a"]["all"]
    assert fitted["mae_after"] < fitted["mae_before"]  # a 1-10 judge brought onto the 1-5 scale

    out = tmp / "cal.jsonl"
    assert main(["calibrate", "apply", "--map", str(m), "--judge", str(j), "--judge-rater", "judge-a",
                 "-o", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 120 and all(1 <= r["score"] <= 5 for r in rows)
    x, y = np.array(fitted["x_thresholds"]), np.array(fitted["y_thresholds"])
    assert all(r["score"] == pytest.approx(np.interp(r["raw_score"], x, y)) for r in rows)

    capsys.readouterr()
    assert main(["agree", "--human", str(h), "--judge", str(out), "--bootstrap", "0", "-o", str(tmp / "r2")]) == 0
    rep = json.loads((tmp / "r2" / "agreement.json").read_text())
    mae = next(r for r in rep["sections"][0]["judges"]["judge-a"]["metrics"] if r["metric"] == "mae")
    assert mae["value"] < fitted["mae_before"]


def test_calibrate_apply_needs_a_map_for_each_judge(files, capsys):
    h, j, tmp = files
    m = tmp / "maps.json"
    assert main(["calibrate", "fit", "--human", str(h), "--judge", str(j), "--judge-rater", "judge-a",
                 "-o", str(m)]) == 0
    assert main(["calibrate", "apply", "--map", str(m), "--judge", str(j), "-o", str(tmp / "c.jsonl")]) == 2
    assert "no map for judge 'judge-b'" in capsys.readouterr().err
    assert main(["calibrate", "apply", "--map", str(j), "--judge", str(j), "-o", str(tmp / "c.jsonl")]) == 2
    assert "not a calibration map" in capsys.readouterr().err  # a score file is not a map


def test_calibrate_apply_rejects_a_non_map(files, capsys, tmp_path):
    h, j, _ = files
    bogus = tmp_path / "bogus.json"
    bogus.write_text('{"maps": 3}')
    assert main(["calibrate", "apply", "--map", str(bogus), "--judge", str(j), "-o", str(tmp_path / "c.jsonl")]) == 2
    assert "not a calibration map" in capsys.readouterr().err
    assert not (tmp_path / "c.jsonl").exists()


def test_agree_on_summeval_as_documented(shared_data, tmp_path, capsys):
    d = shared_data / "judging" / "alttest_summeval"
    assert main(["agree", "--format", "alttest", "--human", str(d / "human_annotations.json"),
                 "--judge", str(d / "llm_annotations.json"), "--judge-rater", "gpt-4o",
                 "--id-fields", "doc,system,dimension", "--group-by", "doc", "--split-by", "dimension",
                 "--bootstrap", "200", "-o", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "alt-test: fails (winning rate 0.00, advantage 0.48" in text
    rep = json.loads((tmp_path / "agreement.json").read_text())
    assert [s["name"] for s in rep["sections"]] == ["all", "dimension=coherence", "dimension=consistency",
                                                    "dimension=fluency", "dimension=relevance"]


def test_agree_on_mrmath_and_processbench(shared_data, tmp_path, capsys):
    d = shared_data / "judging" / "reasoneval_mrmath"
    assert main(["agree", "--format", "mrmath", "--human", str(d / "mr-math_invalid_errors.jsonl"),
                 "--judge", str(d / "invalid__gpt4_eval_results.jsonl"),
                 "--judge", str(d / "invalid__gpt3_5_turbo_eval_results.jsonl"), "--bootstrap", "50",
                 "-o", str(tmp_path)]) == 0
    rep = json.loads((tmp_path / "agreement.json").read_text())
    step = {j: next(r["value"] for r in rep["sections"][0]["judges"][j]["metrics"] if r["metric"] == "step_macro_f1")
            for j in ("gpt4", "gpt3_5_turbo")}
    assert {j: f"{v:.3f}" for j, v in step.items()} == {"gpt4": "0.610", "gpt3_5_turbo": "0.532"}

    # ProcessBench labels vs a long-format predictor that always says "the last step is wrong"
    rows = json.loads((shared_data / "judging" / "processbench" / "gsm8k.json").read_text())
    preds = _write(tmp_path / "pred.jsonl", [{"item": r["id"], "rater": "last-step", "score": len(r["steps"]) - 1}
                                             for r in rows])
    capsys.readouterr()
    assert main(["agree", "--format", "processbench", "--human",
                 str(shared_data / "judging" / "processbench" / "gsm8k.json"), "--judge", str(preds),
                 "--bootstrap", "0"]) == 0
    assert "ProcessBench F1" in capsys.readouterr().out


def test_alttest_humans_with_long_format_judge(tmp_path, capsys):
    humans = {h: {f"d{k // 4}__s{k % 4}": int(1 + (k + off) % 5) for k in range(60)}
              for h, off in (("e0", 0), ("e1", 1), ("e2", 0))}
    (tmp_path / "h.json").write_text(json.dumps(humans, indent=4))
    j = _write(tmp_path / "j.jsonl", [{"item": f"d{k // 4}__s{k % 4}", "rater": "cal", "score": 1 + k % 5}
                                      for k in range(60)])
    assert main(["agree", "--format", "alttest", "--judge-format", "long", "--human", str(tmp_path / "h.json"),
                 "--judge", str(j), "--id-fields", "doc,sys", "--group-by", "doc", "--bootstrap", "20"]) == 0
    assert "== cal | all (60 items, 15 groups)" in capsys.readouterr().out
    # without --judge-format the long file is read as the alt-test layout and refused with its place
    assert main(["agree", "--format", "alttest", "--human", str(tmp_path / "h.json"), "--judge", str(j)]) == 2
    assert "j.jsonl" in capsys.readouterr().err
