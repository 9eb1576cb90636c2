"""Rubric files: every shipped rubric loads; typos and missing levels fail with file and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.cli import main
from judge.errors import ConfigError
from rubrics import NO_ERROR, list_rubrics, load_rubric
from rubrics.loader import RUBRIC_DIR


def test_the_three_required_rubrics_ship():
    assert {"reasoning-trajectory", "ocr-reasoning", "first-error"} <= set(list_rubrics())


@pytest.mark.parametrize("name", list_rubrics())
def test_every_shipped_rubric_loads(name):
    r = load_rubric(name)
    assert r.name == name and r.version >= 1
    for c in r.criteria:
        if c.kind == "scale":
            assert sorted(c.levels) == list(range(c.lo, c.hi + 1))


def test_reasoning_trajectory_has_the_four_parts_and_combines_them():
    r = load_rubric("reasoning-trajectory")
    assert [c.id for c in r.criteria] == ["step_validity", "reference_coverage", "first_error", "answer_consistency"]
    best = {"step_validity": 5, "reference_coverage": 5, "first_error": NO_ERROR, "answer_consistency": 3}
    worst = {"step_validity": 1, "reference_coverage": 1, "first_error": 1, "answer_consistency": 1}
    assert r.item_score(best, n_steps=4) == 1.0
    assert r.item_score(worst, n_steps=4) == 0.0
    # 0.3*(2/4) + 0.3*(3/4) + 0.2*((3-1)/4) + 0.2*(1/2) = 0.15 + 0.225 + 0.1 + 0.1
    mid = {"step_validity": 3, "reference_coverage": 4, "first_error": 3, "answer_consistency": 2}
    assert r.item_score(mid, n_steps=4) == pytest.approx(0.575)


def test_ocr_reasoning_is_rating_over_ten():
    r = load_rubric("ocr-reasoning")
    assert r.criteria[0].scale == (1, 10)
    assert r.item_score({"rating": 7}, n_steps=3) == pytest.approx(0.7)
    assert r.item_score({"rating": 10}, n_steps=3) == 1.0


def test_first_error_scores_one_only_without_error():
    r = load_rubric("first-error")
    assert not r.uses_reference
    assert r.item_score({"first_error": NO_ERROR}, n_steps=5) == 1.0
    assert r.item_score({"first_error": 5}, n_steps=5) == 0.0


def _variant(tmp_path: Path, name: str, old: str, new: str, *, count: int = 1) -> Path:
    text = (RUBRIC_DIR / f"{name}.toml").read_text(encoding="utf-8")
    assert old in text, old
    p = tmp_path / f"{name}-variant.toml"
    p.write_text(text.replace(old, new, count), encoding="utf-8")
    return p


def test_misspelt_key_names_file_criterion_and_suggestion(tmp_path):
    p = _variant(tmp_path, "reasoning-trajectory", 'levels.4 = "Most key', 'levles.4 = "Most key')
    with pytest.raises(ConfigError) as e:
        load_rubric(p)
    msg = str(e.value)
    assert str(p) in msg
    assert "criteria[1] (id 'reference_coverage').levles: unknown key (did you mean 'levels'?)" in msg


def test_misspelt_top_level_key(tmp_path):
    p = _variant(tmp_path, "first-error", "version = 1", "verison = 1")
    with pytest.raises(ConfigError, match=r"verison: unknown key \(did you mean 'version'\?\)"):
        load_rubric(p)


def test_missing_level_is_named(tmp_path):
    p = _variant(tmp_path, "ocr-reasoning", 'levels.7 = "Correct approach and most steps right; a minor error or an unjustified step."\n', "")
    with pytest.raises(ConfigError, match=r"criteria\[0\] \(id 'rating'\): levels: missing description for level\(s\) 7"):
        load_rubric(p)


def test_weights_must_name_every_criterion(tmp_path):
    p = _variant(tmp_path, "reasoning-trajectory", "answer_consistency = 0.2 }", "answer_consistenc = 0.2 }")
    with pytest.raises(ConfigError, match="unknown criterion id"):
        load_rubric(p)


def test_bad_toml_and_unknown_name():
    with pytest.raises(ConfigError, match=r"unknown rubric 'reasoning-trajectry' \(did you mean 'reasoning-trajectory'\?\)"):
        load_rubric("reasoning-trajectry")


def test_invalid_toml_syntax(tmp_path):
    p = tmp_path / "broken.toml"
    p.write_text('name = "x"\nversion = \n', encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_rubric(p)


def test_cli_lists_and_shows(capsys):
    assert main(["rubrics"]) == 0
    out = capsys.readouterr().out
    for name in ("reasoning-trajectory", "ocr-reasoning", "first-error"):
        assert name in out
    assert main(["rubrics", "ocr-reasoning"]) == 0
    out = capsys.readouterr().out
    assert "rating / 10" in out or "rating_over_max" in out
    assert "10: Fully correct" in out


def test_cli_unknown_rubric_is_a_user_error(capsys):
    assert main(["rubrics", "nope"]) == 2
    assert "unknown rubric 'nope'" in capsys.readouterr().err
