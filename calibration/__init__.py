"""Judge-human agreement, confidence intervals, baselines and calibration maps (pure: no network, no LLM).

Modules, one concept each:

- ``tables``      score tables (long format, alt-test JSON, MR-MATH, ProcessBench) -> ``Panel``
- ``agreement``   percent agreement, Cohen's kappa, Krippendorff's alpha
- ``correlation`` Pearson, Spearman, Kendall; per-group (G-Eval "summary level") averages
- ``deviation``   MAE, RMSE
- ``steps``       ProcessBench F1, MR-MATH solution / step macro-F1, solution AUC
- ``reasoneval``  ReasonEval's MR-MATH file conventions
- ``alttest``     the Alternative Annotator Test
- ``baselines``   constant, majority and random predictors
- ``bootstrap``   grouped resampling, percentile intervals
- ``batched``     the same metrics for thousands of resamples at once
- ``report``      the ``reasonjudge agree`` report
- ``calmap``      isotonic calibration maps
- ``undefined``   NaN-with-a-reason for undefined metrics
- ``paired``      the items two raters both scored (missing ones dropped)

The names below are importable from ``calibration`` directly; modules load on first use,
so importing the package stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "percent_agreement_score": "agreement", "cohen_kappa_score": "agreement",
    "krippendorff_alpha_score": "agreement",
    "pearson_score": "correlation", "spearman_score": "correlation", "kendall_score": "correlation",
    "group_correlation_score": "correlation",
    "mae_score": "deviation", "rmse_score": "deviation",
    "processbench_f1_score": "steps", "solution_macro_f1_score": "steps", "step_macro_f1_score": "steps",
    "solution_auc_score": "steps", "step_labels": "steps", "threshold_predictions": "steps",
    "solution_score": "steps",
    "alt_test": "alttest", "AltTestResult": "alttest",
    "baseline_predictions": "baselines",
    "agreement_report": "report", "render_report": "report", "ReportSettings": "report",
    "fit_calibration_map": "calmap", "CalibrationMap": "calmap", "MapFile": "calmap",
    "load_panel": "tables", "read_long": "tables", "read_alttest": "tables", "Panel": "tables",
    "UndefinedMetricWarning": "undefined",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'calibration' has no attribute {name!r}")
    return getattr(importlib.import_module(f"calibration.{module}"), name)
