"""``reasonjudge map run | vdi | vdi-compute`` end to end against the fake server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.cli import main
from tests.test_map_vdi import DEMO, QUESTIONS


def _llm(server) -> list[str]:
    return ["--model", "openai/demo", "--api-base", server.base_url, "--no-progress"]


def test_map_vdi_prints_the_table_and_a_rerun_makes_no_calls(fake_llm, tmp_path, capsys):
    fake_llm.script = DEMO.make_script(QUESTIONS)
    argv = ["map", "vdi", str(QUESTIONS), "--budgets", "32,64", "-o", str(tmp_path), *_llm(fake_llm)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Visual Dependency Index - reference model openai/demo, 20 paired items" in out
    assert "k_actual from: k=32: usage, k=64: usage" in out
    calls = fake_llm.request_count
    # 20 full + 8 descriptions + 20 blind + at most 40 text-only (identical prompts hit the cache).
    assert 48 < calls <= 88
    assert f"calls made: {calls} " in out
    assert main(argv) == 0
    assert "calls made: 0 (none)" in capsys.readouterr().out
    assert fake_llm.request_count == calls

    # vdi-compute on the files the run wrote gives the same indices.
    report = tmp_path / "again.json"
    assert main(["map", "vdi-compute", str(tmp_path / "full.jsonl"), str(tmp_path / "text_k32.jsonl"),
                 str(tmp_path / "text_k64.jsonl"), "--blind", str(tmp_path / "blind.jsonl"), "-o", str(report)]) == 0
    a, b = json.loads((tmp_path / "vdi.json").read_text()), json.loads(report.read_text())
    for key in ("overall", "by_level", "by_category", "n_items", "budgets", "k_actual_source"):
        assert a[key] == b[key], key
    assert b["reference_model"] == "openai/demo"


def test_map_run_prints_the_breakdown(fake_llm, tmp_path, capsys):
    fake_llm.script = DEMO.make_script(QUESTIONS)
    assert main(["map", "run", str(QUESTIONS), "-o", str(tmp_path), "--max-side", "320", *_llm(fake_llm)]) == 0
    out = capsys.readouterr().out
    assert "level: L1" in out and "category: Transportation" in out and "question_type: ordering" in out
    assert "calls made: 20 (full 20)" in out
    rows = [json.loads(x) for x in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert {r["image_policy"] for r in rows} == {"max_side=320"}
    assert {tuple(r["sent_size"]) for r in rows} == {(320, 220), (320, 235)}
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["overall"][0]["n"] == 20 and summary["image_policy"] == "max_side=320"


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_vdi_compute_names_file_line_and_field_of_bad_rows(tmp_path, capsys):
    full = _write(tmp_path / "full.jsonl", [{"id": "a", "correct": True}, {"id": "b"}])
    text = _write(tmp_path / "t.jsonl", [{"id": "a", "correct": True, "budget": 64, "k_actual": 10}])
    assert main(["map", "vdi-compute", str(full), str(text)]) == 2
    assert f"{full}:2: field 'correct': required" in capsys.readouterr().err
    full = _write(tmp_path / "full.jsonl", [{"id": "a", "correct": True}])
    text = _write(tmp_path / "t.jsonl", [{"id": "a", "correct": True, "k_actual": 10}])
    assert main(["map", "vdi-compute", str(full), str(text)]) == 2
    assert f"{text}:1: field 'budget'" in capsys.readouterr().err


def test_vdi_compute_reports_undefined_vdi(tmp_path, capsys):
    full = _write(tmp_path / "full.jsonl", [{"id": "a", "correct": False, "level": "L1"}])
    text = _write(tmp_path / "t.jsonl", [{"id": "a", "correct": True, "budget": 64, "k_actual": 32}])
    assert main(["map", "vdi-compute", str(full), str(text)]) == 0
    assert "VDI undefined: Acc_full is 0" in capsys.readouterr().out
    data = json.loads((tmp_path / "vdi.json").read_text())
    assert data["overall"]["budgets"][0]["vdi"] is None and data["overall"]["budgets"][0]["dsi"] == 0.5


def test_bad_bench_fails_before_any_call(fake_llm, tmp_path, capsys):
    row = json.loads(QUESTIONS.read_text().splitlines()[0])
    row["image"] = "images/missing.png"
    bench = _write(tmp_path / "bench.jsonl", [row])
    assert main(["map", "vdi", str(bench), "-o", str(tmp_path / "o"), *_llm(fake_llm)]) == 2
    assert f"{bench}:1: field 'image': cannot read image" in capsys.readouterr().err
    assert fake_llm.request_count == 0


@pytest.mark.parametrize("budgets", ["0,64", "x", ""])
def test_bad_budgets_are_rejected(budgets, tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        main(["map", "vdi", str(QUESTIONS), "--model", "openai/demo", "--budgets", budgets])
    assert e.value.code == 2
