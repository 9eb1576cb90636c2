"""Judge-human agreement, confidence intervals, baselines and calibration maps (pure)."""
