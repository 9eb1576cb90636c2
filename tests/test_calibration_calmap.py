"""Calibration maps: isotonic fit, out-of-sample error by grouped cross-fitting, saved thresholds."""

from __future__ import annotations

import json

import numpy as np
import pytest

from calibration.calmap import CalibrationMap, MapFile, apply_map, fit_calibration_map, fit_map_file
from calibration.tables import load_panel


def _miscalibrated(seed=0, n=400, n_groups=40):
    """A 1-10 judge that tracks a 1-5 human mean through a non-linear, monotone distortion."""
    rng = np.random.default_rng(seed)
    human = rng.integers(1, 6, n).astype(float)
    judge = np.clip(np.round(human ** 1.4 + rng.normal(0, 0.8, n)), 1, 10)
    groups = np.arange(n) % n_groups
    return judge, human, groups


def test_saved_thresholds_reproduce_sklearn_predict():
    from sklearn.isotonic import IsotonicRegression

    judge, human, groups = _miscalibrated()
    cmap = fit_calibration_map(judge, human, groups)
    reference = IsotonicRegression(out_of_bounds="clip").fit(judge, human)
    probe = np.array([-3, 0.5, 1, 2.5, 4, 7.2, 10, 15])
    np.testing.assert_allclose(cmap.apply(probe), reference.predict(probe), atol=1e-12)
    assert np.isnan(apply_map(cmap, [np.nan]))[0]


def test_reported_error_is_out_of_sample_by_group():
    from sklearn.isotonic import IsotonicRegression
    from sklearn.model_selection import GroupKFold

    judge, human, groups = _miscalibrated(seed=1)
    cmap = fit_calibration_map(judge, human, groups, n_folds=5)
    oof = np.empty_like(human)
    for train, test in GroupKFold(n_splits=5).split(judge, human, groups=groups.astype(str)):
        oof[test] = IsotonicRegression(out_of_bounds="clip").fit(judge[train], human[train]).predict(judge[test])
    assert cmap.mae_after == pytest.approx(np.mean(np.abs(oof - human)))
    in_sample = np.mean(np.abs(cmap.apply(judge) - human))
    assert cmap.mae_after >= in_sample  # held-out error is not flattered by the fit
    assert cmap.mae_before == pytest.approx(np.mean(np.abs(judge - human)))
    assert cmap.mae_after < cmap.mae_before
    assert cmap.n_folds == 5 and cmap.n_groups == 40


def test_single_group_has_no_out_of_sample_error():
    from calibration.undefined import UndefinedMetricWarning

    with pytest.warns(UndefinedMetricWarning, match="fewer than two groups"):
        cmap = fit_calibration_map([1, 2, 3, 4], [1, 1, 2, 2], ["d"] * 4)
    assert cmap.mae_after is None and cmap.n_folds == 0


def test_decreasing_and_auto_direction():
    x = np.arange(1, 21, dtype=float)
    y = 21 - x
    assert fit_calibration_map(x, y, increasing=False).apply([1, 20]).tolist() == [20.0, 1.0]
    assert fit_calibration_map(x, y, increasing="auto").increasing is False


def test_map_file_round_trip(tmp_path):
    judge, human, groups = _miscalibrated()
    from calibration.tables import Panel

    panel = Panel(tuple(map(str, range(len(judge)))), ("h",), ("j",), human[:, None], judge[:, None], "numeric",
                  {"doc": tuple(map(str, groups))}, {"j": 0})
    mf = fit_map_file(panel, group_by="doc")
    path = tmp_path / "m.json"
    path.write_text(json.dumps(mf.model_dump(mode="json")))
    back = MapFile.model_validate(json.loads(path.read_text()))
    assert back == mf
    np.testing.assert_array_equal(back.maps["j"]["all"].apply(judge), mf.maps["j"]["all"].apply(judge))
    with pytest.raises(ValueError):
        CalibrationMap.model_validate({**mf.maps["j"]["all"].model_dump(), "typo": 1})


def test_summeval_maps_reduce_out_of_sample_error(shared_data):
    d = shared_data / "judging" / "alttest_summeval"
    panel = load_panel(d / "human_annotations.json", [d / "llm_annotations.json"], format="alttest",
                       id_fields=("doc", "system", "dimension"), judge_raters=["gpt-4o"])
    maps = fit_map_file(panel, group_by="doc", split_by="dimension").maps["gpt-4o"]
    got = {dim: (round(m.mae_before, 3), round(m.mae_after, 3)) for dim, m in maps.items()}
    assert got == {"coherence": (0.731, 0.708), "consistency": (0.799, 0.288), "fluency": (1.287, 0.358),
                   "relevance": (1.217, 0.554)}
