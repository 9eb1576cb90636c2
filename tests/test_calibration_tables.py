"""Reading score tables: the long format, the adapters, and errors that name file, line and field."""

from __future__ import annotations

import json

import numpy as np
import pytest

from calibration.tables import load_panel, make_panel, read_alttest, read_long, read_mrmath, read_processbench
from judge.errors import InputError


def _jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_long_jsonl_wide_matrix_and_fields(tmp_path):
    p = _jsonl(tmp_path / "h.jsonl", [
        {"item": "q1", "group": "d1", "rater": "ann", "score": 4},
        {"item": "q1", "group": "d1", "rater": "bob", "score": "5"},
        {"item": "q2", "group": "d2", "rater": "ann", "score": 2.5},
    ])
    r = read_long(p)
    assert r.items == ("q1", "q2") and r.raters == ("ann", "bob")
    assert r.scale == "numeric"
    np.testing.assert_array_equal(r.scores, [[4, 5], [2.5, np.nan]])
    assert r.fields["group"] == ("d1", "d2")
    assert r.where[1] == (str(p), 3)


def test_long_csv_with_pairwise_preferences(tmp_path):
    p = tmp_path / "votes.csv"
    p.write_text("item,rater,score\nm1,h1,A\nm1,h2,tie\nm2,h1,model_b\nm2,h2,B\n", encoding="utf-8")
    r = read_long(p)
    assert r.scale == "pairwise"
    np.testing.assert_array_equal(r.scores, [[0, 0.5], [1, 1]])


def test_non_numeric_score_names_file_line_field(tmp_path):
    p = _jsonl(tmp_path / "judge.jsonl", [
        {"item": "q1", "rater": "j", "score": 3},
        {"item": "q2", "rater": "j", "score": "excellent"},
    ])
    with pytest.raises(InputError, match=r"judge\.jsonl:2: field 'score': expected a number"):
        read_long(p)


def test_mixed_scales_rejected_at_the_line(tmp_path):
    p = tmp_path / "v.csv"
    p.write_text("item,rater,score\nm1,h,A\nm2,h,3\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"v\.csv:3: field 'score': expected A, B or tie like the rows before"):
        read_long(p)


@pytest.mark.parametrize(("row", "message"), [
    pytest.param({"rater": "j", "score": 1}, r"x\.jsonl:2: field 'item': required", id="no-item"),
    pytest.param({"item": "q2", "rater": "j"}, r"x\.jsonl:2: field 'score': required", id="no-score"),
    pytest.param({"item": "q2", "rater": "j", "score": None}, r"x\.jsonl:2: field 'score': required \(a row",
                 id="null-score-without-error"),
    pytest.param({"item": "q1", "rater": "j", "score": 2}, r"x\.jsonl:2: .*second score for item 'q1'.*line 1",
                 id="duplicate"),
    pytest.param({"item": "q2", "rater": "j", "score": float("inf")}, r"x\.jsonl:2: .*finite", id="infinite"),
    pytest.param({"item": "q1", "rater": "k", "score": 2, "group": "other"}, r"x\.jsonl:2: field 'group'",
                 id="conflicting-group"),
])
def test_bad_rows(tmp_path, row, message):
    p = tmp_path / "x.jsonl"
    p.write_text(json.dumps({"item": "q1", "rater": "j", "score": 1, "group": "g"}) + "\n"
                 + json.dumps(row, allow_nan=True) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=message):
        read_long(p)


def test_failed_judgement_is_kept_out_and_counted(tmp_path):
    h = _jsonl(tmp_path / "h.jsonl", [{"item": f"q{i}", "rater": "ann", "score": i % 3} for i in range(4)])
    j = _jsonl(tmp_path / "j.jsonl", [{"item": f"q{i}", "rater": "judge", "score": i % 3} for i in range(3)]
               + [{"item": "q3", "rater": "judge", "score": None, "error": "timeout after 3 retries"}])
    panel = make_panel(read_long(h), read_long(j))
    assert panel.judge_failed == {"judge": 1}
    assert np.isnan(panel.judge_scores[3, 0])


def test_mismatched_item_sets_name_the_file_and_line(tmp_path):
    h = _jsonl(tmp_path / "h.jsonl", [{"item": "q1", "rater": "a", "score": 1},
                                      {"item": "q2", "rater": "a", "score": 2}])
    j_missing = _jsonl(tmp_path / "j1.jsonl", [{"item": "q1", "rater": "judge", "score": 1}])
    with pytest.raises(InputError, match=r"h\.jsonl:2: item 'q2' has no judge score"):
        make_panel(read_long(h), read_long(j_missing))
    j_extra = _jsonl(tmp_path / "j2.jsonl", [{"item": "q1", "rater": "judge", "score": 1},
                                             {"item": "q2", "rater": "judge", "score": 1},
                                             {"item": "q9", "rater": "judge", "score": 1}])
    with pytest.raises(InputError, match=r"j2\.jsonl:3: item 'q9' has no human score"):
        make_panel(read_long(h), read_long(j_extra))
    # two judges in one file; one of them skipped q2
    j_partial = _jsonl(tmp_path / "j3.jsonl", [{"item": "q1", "rater": "x", "score": 1},
                                               {"item": "q2", "rater": "x", "score": 1},
                                               {"item": "q1", "rater": "y", "score": 1}])
    with pytest.raises(InputError, match=r"h\.jsonl:2: item 'q2' is not scored by judge 'y'"):
        make_panel(read_long(h), read_long(j_partial))


def test_unknown_raters(tmp_path):
    h = _jsonl(tmp_path / "h.jsonl", [{"item": "q1", "rater": "a", "score": 1}])
    j = _jsonl(tmp_path / "j.jsonl", [{"item": "q1", "rater": "gpt", "score": 1}])
    with pytest.raises(InputError, match=r"j\.jsonl: unknown judge rater\(s\) \['claude'\]"):
        load_panel(h, [j], judge_raters=["claude"])
    with pytest.raises(InputError, match=r"h\.jsonl: unknown rater\(s\) \['zed'\]"):
        load_panel(h, [j], human_raters=["zed"])
    with pytest.raises(InputError, match="both human and judge"):
        make_panel(read_long(h), read_long(h))


def test_judge_scale_must_match_human_scale(tmp_path):
    h = _jsonl(tmp_path / "h.jsonl", [{"item": "q1", "rater": "a", "score": "A"}])
    j = _jsonl(tmp_path / "j.jsonl", [{"item": "q1", "rater": "b", "score": 2}])
    with pytest.raises(InputError, match=r"j\.jsonl:1: field 'score': expected A, B or tie"):
        load_panel(h, [j])


def test_alttest_layout_error_points_at_the_line(tmp_path):
    p = tmp_path / "human_annotations.json"
    p.write_text('{\n  "e0": {\n    "d1__M0__coherence": 3,\n    "d1__M1__coherence": "high"\n  }\n}\n')
    with pytest.raises(InputError, match=r"human_annotations\.json:4: field 'e0\.d1__M1__coherence'"):
        read_alttest(p, id_fields=("doc", "system", "dimension"))
    p.write_text('{"e0": {"d1__M0": 3}}')
    with pytest.raises(InputError, match="has 2 parts"):
        read_alttest(p, id_fields=("doc", "system", "dimension"))


def test_real_summeval_layout(shared_data):
    d = shared_data / "judging" / "alttest_summeval"
    h = read_alttest(d / "human_annotations.json", id_fields=("doc", "system", "dimension"))
    assert h.raters == ("e0", "e1", "e2") and len(h.items) == 6400
    assert len(set(h.fields["doc"])) == 100 and sorted(set(h.fields["dimension"])) == [
        "coherence", "consistency", "fluency", "relevance"]
    j = read_alttest(d / "llm_annotations.json", id_fields=("doc", "system", "dimension"))
    panel = make_panel(h, j)
    assert panel.judges == ("gemini_flash", "gemini_pro", "gpt-4o", "llama-31", "gpt-4o-mini", "mistral-v03")
    assert not np.isnan(panel.judge_scores).any()


def test_real_processbench_and_mrmath(shared_data):
    pb = read_processbench(shared_data / "judging" / "processbench" / "gsm8k.json")
    assert pb.scale == "steps" and len(pb.items) == 400
    assert int((pb.scores[:, 0] == -1).sum()) == 193
    d = shared_data / "judging" / "reasoneval_mrmath"
    humans, judges = read_mrmath(d / "mr-math_invalid_errors.jsonl",
                                 [d / "invalid__gpt4_eval_results.jsonl", d / "invalid__gpt3_5_turbo_eval_results.jsonl"])
    assert judges.raters == ("gpt4", "gpt3_5_turbo")
    assert int((humans.scores[:, 0] == -1).sum()) == 76
