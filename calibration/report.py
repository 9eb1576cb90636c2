"""The judge-human agreement report: each metric with its bootstrap interval, the human ceiling and baselines.

How each number is built (the same way for the judge, for every baseline, and for a human,
so that they can be compared on one row):

- **vs each human** (agreement, kappa, ProcessBench F1, ...): the rater against one human
  at a time, averaged over the humans. The *ceiling* is the same metric for every ordered
  pair of different humans, averaged.
- **vs the other humans' mean** (Pearson, Spearman, Kendall, MAE, RMSE): leave one human
  ``h`` out; on the items ``h`` rated, compare the rater with the mean of the remaining
  humans; average over ``h``. The *ceiling* compares ``h`` itself with that same mean, so
  the judge and the humans face identical references. With one human there is no ceiling
  and the reference is that human.
- **group level**: the same, but the correlation is computed within each group (document)
  and averaged over the groups where it is defined (G-Eval's summary-level correlation).
- **Krippendorff's alpha**: the humans plus the rater as one more coder; the *ceiling* is
  alpha of the humans alone.
- **alt-test**: winning rate and advantage probability (``calibration.alttest``); the
  baselines take the test too.

Intervals are percentile intervals of a grouped bootstrap (``calibration.bootstrap``):
groups are drawn with replacement, ``n_resamples`` times from ``seed``; each resample's
statistics come from ``calibration.batched``. A metric undefined on the data (a constant
rater has no correlation) is NaN with the reason, never 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from calibration import batched as K
from calibration.agreement import cohen_kappa_score, krippendorff_alpha_score, percent_agreement_score
from calibration.alttest import alt_test
from calibration.baselines import BASELINES, baseline_predictions
from calibration.bootstrap import (
    draw_groups,
    group_codes,
    naive_bootstrap,
    percentile_interval,
    weights_from_draws,
)
from calibration.correlation import group_correlation_score, kendall_score, pearson_score, spearman_score
from calibration.deviation import mae_score, rmse_score
from calibration.steps import processbench_f1_score, solution_macro_f1_score, step_macro_f1_score
from calibration.tables import PAIRWISE_TIE, Panel, Scale
from calibration.undefined import capture_undefined

__all__ = ["ReportSettings", "MetricRow", "agreement_report", "render_report"]

#: Categorical metrics (agreement, kappa, nominal / ordinal alpha) need a discrete scale;
#: above this many distinct values they are reported as not applicable, with the reason.
MAX_CATEGORIES = 256
#: Above this many cells per group (both sides near-continuous) a contingency table is not
#: worth it: those metrics fall back to one library call per resample.
MAX_TABLE_CELLS = 1_000_000

Family = Literal["pair", "loo", "group", "alpha", "steps", "alt"]


class ReportSettings(BaseModel):
    """Options of the agreement report (frozen; keyword-only by construction)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    n_resamples: int = Field(2000, ge=0, description="bootstrap resamples; 0 = no intervals")
    seed: int = 0
    confidence: float = Field(0.95, gt=0, lt=1)
    group_by: str | None = None
    split_by: str | None = None
    epsilon: float = Field(0.2, ge=0, le=1, description="alt-test cost-benefit allowance")
    q_fdr: float = Field(0.05, gt=0, lt=1)
    min_instances_per_human: int = Field(30, ge=1)


@dataclass(frozen=True)
class _Metric:
    id: str
    label: str
    family: Family
    kernel: Callable[..., Any] | None  # batched kernel
    library: Callable[..., float] | None  # reference implementation, used for reasons and fallbacks
    reference: str


def _kappa(weights: Literal["none", "linear", "quadratic"]) -> tuple[Callable, Callable]:
    return (lambda t, vx, vy: K.kappa(t, weights=weights),
            lambda a, b, labels=None: cohen_kappa_score(a, b, weights=weights, labels=labels))


_EACH = "each human"
_LOO = "mean of the other humans"


def _catalogue(scale: Scale, *, has_groups: bool, has_steps: bool) -> list[_Metric]:
    if scale == "steps":
        out = [
            _Metric("processbench_f1", "ProcessBench F1", "pair", K.processbench_f1,
                    lambda p, g: processbench_f1_score(g.astype(int), p.astype(int)), _EACH),
            _Metric("first_error_agreement", "first-error agreement", "pair", K.agreement,
                    percent_agreement_score, _EACH),
            _Metric("solution_macro_f1", "solution macro-F1", "pair", K.solution_macro_f1,
                    lambda p, g: solution_macro_f1_score((g == -1).astype(int), (p == -1).astype(int).tolist()),
                    _EACH),
        ]
        if has_steps:
            out.append(_Metric("step_macro_f1", "step macro-F1", "steps", K.step_macro_f1, None, _EACH))
        return out + _alt_rows()
    if scale == "pairwise":
        return [
            _Metric("agreement", "agreement (with ties)", "pair", K.agreement, percent_agreement_score, _EACH),
            _Metric("agreement_no_ties", "agreement (without ties)", "pair",
                    lambda t, vx, vy: K.agreement(t, vx, vy, exclude=PAIRWISE_TIE),
                    lambda a, b: percent_agreement_score(a, b, ties="exclude"), _EACH),
            _Metric("kappa", "Cohen's kappa", "pair", *_kappa("none"), _EACH),
            _Metric("alpha_nominal", "Krippendorff alpha, nominal", "alpha", None, None, "humans + rater"),
        ] + _alt_rows()
    out = [
        _Metric("agreement", "exact agreement", "pair", K.agreement, percent_agreement_score, _EACH),
        _Metric("kappa", "Cohen's kappa", "pair", *_kappa("none"), _EACH),
        _Metric("kappa_linear", "kappa, linear weights", "pair", *_kappa("linear"), _EACH),
        _Metric("kappa_quadratic", "kappa, quadratic weights", "pair", *_kappa("quadratic"), _EACH),
        _Metric("alpha_nominal", "Krippendorff alpha, nominal", "alpha", None, None, "humans + rater"),
        _Metric("alpha_ordinal", "Krippendorff alpha, ordinal", "alpha", None, None, "humans + rater"),
        _Metric("alpha_interval", "Krippendorff alpha, interval", "alpha", None, None, "humans + rater"),
        _Metric("pearson", "Pearson r (items)", "loo", K.pearson, pearson_score, _LOO),
        _Metric("spearman", "Spearman rho (items)", "loo", K.spearman, spearman_score, _LOO),
        _Metric("kendall", "Kendall tau-b (items)", "loo", K.kendall, kendall_score, _LOO),
    ]
    if has_groups:
        out += [
            _Metric("pearson_group", "Pearson r (per group)", "group", K.pearson, pearson_score, _LOO),
            _Metric("spearman_group", "Spearman rho (per group)", "group", K.spearman, spearman_score, _LOO),
            _Metric("kendall_group", "Kendall tau-b (per group)", "group", K.kendall, kendall_score, _LOO),
        ]
    out += [
        _Metric("mae", "MAE", "loo", K.mae, lambda a, b: mae_score(b, a), _LOO),
        _Metric("rmse", "RMSE", "loo", K.rmse, lambda a, b: rmse_score(b, a), _LOO),
    ]
    return out + _alt_rows()


def _alt_rows() -> list[_Metric]:
    return [
        _Metric("alt_test_winning_rate", "alt-test winning rate", "alt", None, None, "leave-one-human-out"),
        _Metric("alt_test_advantage", "alt-test advantage prob.", "alt", None, None, "leave-one-human-out"),
    ]


@dataclass
class MetricRow:
    """One line of the report: the judge's value and interval, the ceiling, the baselines."""

    id: str
    label: str
    reference: str
    value: float
    reason: str | None = None
    ci: tuple[float, float] | None = None
    ci_undefined: int = 0
    ceiling: float | None = None
    ceiling_reason: str | None = None
    baselines: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "metric": self.id, "label": self.label, "reference": self.reference,
            "value": _clean(self.value), "undefined_reason": self.reason,
            "ci": None if self.ci is None else [self.ci[0], self.ci[1]],
            "ci_undefined_resamples": self.ci_undefined,
            "ceiling": _clean(self.ceiling), "ceiling_undefined_reason": self.ceiling_reason,
            "baselines": {k: _clean(v) for k, v in self.baselines.items()},
        }


def _clean(v: float | None) -> float | None:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    return float(v)


@dataclass
class _Estimate:
    value: float
    boot: np.ndarray | None = None
    reason: str | None = None


def _mean_strict(values: Sequence[float]) -> float:
    """Average the leave-one-out comparisons; undefined if any one is (no silent dropping)."""
    if not values or any(math.isnan(v) for v in values):
        return math.nan
    return float(np.mean(values))


class _Subset:
    """All the data of one report section (all items, or one split value), humans fixed."""

    def __init__(self, humans: np.ndarray, rater_names: Sequence[str], groups: np.ndarray, n_groups: int,
                 scale: Scale, metrics: list[_Metric], n_steps: np.ndarray | None, draws: np.ndarray | None,
                 weights: np.ndarray | None, settings: ReportSettings) -> None:
        self.h = humans
        self.names = list(rater_names)
        self.groups = groups
        self.n_groups = n_groups
        self.scale = scale
        self.metrics = metrics
        self.families: dict[Family, list[_Metric]] = {}
        for mt in metrics:
            self.families.setdefault(mt.family, []).append(mt)
        self.n_steps = n_steps
        self.draws = draws
        self.w = weights
        self.settings = settings
        m = humans.shape[1]
        self.refs: list[np.ndarray] = []
        if m >= 2:
            for k in range(m):
                others = np.delete(humans, k, axis=1)
                count = (~np.isnan(others)).sum(axis=1)
                with np.errstate(invalid="ignore", divide="ignore"):
                    mean = np.nansum(others, axis=1) / count
                self.refs.append(np.where((count > 0) & ~np.isnan(humans[:, k]), mean, np.nan))
        else:
            self.refs.append(humans[:, 0].copy())

    # -- families -------------------------------------------------------------------------

    def _tables(self, a: np.ndarray, b: np.ndarray, *,
                square: bool) -> tuple[Any, np.ndarray, np.ndarray] | str | None:
        """Return ``(tables, x_levels, y_levels)``; None to fall back to the library; a string: why not applicable."""
        both = ~(np.isnan(a) | np.isnan(b))
        if square:
            lx = ly = K.levels_of(a[both], b[both])
            if len(lx) > MAX_CATEGORIES:
                return (f"the scores take {len(lx)} distinct values; this metric needs a discrete scale "
                        f"(at most {MAX_CATEGORIES} values: round or calibrate first)")
        else:
            lx, ly = K.levels_of(a[both]), K.levels_of(b[both])
        if len(lx) == 0 or len(ly) == 0:
            return None
        if len(lx) * len(ly) > MAX_TABLE_CELLS:
            return None
        return K.pair_tables(a, b, self.groups, self.n_groups, x_levels=lx, y_levels=ly), lx, ly

    def _family(self, pairs: list[tuple[np.ndarray, np.ndarray]], metrics: list[_Metric], *, square: bool,
                bootstrap: bool) -> dict[str, _Estimate]:
        values: dict[str, list[float]] = {mt.id: [] for mt in metrics}
        boots: dict[str, list[np.ndarray]] = {mt.id: [] for mt in metrics}
        not_applicable: str | None = None
        boot_on = bootstrap and self.w is not None
        for a, b in pairs:
            tabs = self._tables(a, b, square=square)
            if isinstance(tabs, str):
                not_applicable = tabs
                break
            for mt in metrics:
                if tabs is None:
                    v, bt = self._fallback(mt, a, b, bootstrap=bootstrap)
                else:
                    t, lx, ly = tabs

                    def kernel(block: np.ndarray, mt: _Metric = mt, lx: np.ndarray = lx,
                               ly: np.ndarray = ly) -> np.ndarray:
                        return mt.kernel(block, lx, ly)

                    if mt.family == "group":
                        per_group = K.per_group(t, kernel)
                        v = K.weighted_group_mean(per_group, None)
                        bt = K.weighted_group_mean(per_group, self.w) if boot_on else None
                    else:
                        v = float(kernel(t.total()))
                        bt = K.per_resample(t, self.w, kernel) if boot_on else None
                values[mt.id].append(float(v))
                if bt is not None:
                    boots[mt.id].append(np.asarray(bt, dtype=float))
        out = {}
        for mt in metrics:
            if not_applicable is not None:
                out[mt.id] = _Estimate(math.nan, None, not_applicable)
                continue
            value = _mean_strict(values[mt.id])
            boot = np.mean(boots[mt.id], axis=0) if boots[mt.id] else None
            reason = self._reason(mt, pairs[0]) if math.isnan(value) else None
            out[mt.id] = _Estimate(value, boot, reason)
        return out

    def _fallback(self, mt: _Metric, a: np.ndarray, b: np.ndarray, *, bootstrap: bool) -> tuple[float, np.ndarray | None]:
        fn = self._library_fn(mt)
        both = ~(np.isnan(a) | np.isnan(b))
        value, _ = capture_undefined(fn, a[both], b[both], self.groups[both])
        boot = None
        if bootstrap and self.draws is not None:
            def quiet(x, y, g):
                return capture_undefined(fn, x, y, g)[0]
            boot = naive_bootstrap(quiet, [a[both], b[both], self.groups[both]], self.groups[both], self.draws,
                                   n_groups=self.n_groups)
        return float(value), boot

    def _library_fn(self, mt: _Metric) -> Callable[[np.ndarray, np.ndarray, np.ndarray], float]:
        lib = mt.library
        assert lib is not None
        if mt.family == "group":
            method = mt.id.split("_")[0]
            return lambda a, b, g: group_correlation_score(a, b, g, method=method)  # type: ignore[arg-type]
        return lambda a, b, g: lib(a, b)

    def _reason(self, mt: _Metric, pair: tuple[np.ndarray, np.ndarray]) -> str | None:
        if mt.library is None:
            return "undefined on these data"
        a, b = pair
        both = ~(np.isnan(a) | np.isnan(b))
        if not both.any():
            return "no item rated by both"
        _, reason = capture_undefined(self._library_fn(mt), a[both], b[both], self.groups[both])
        return reason or "undefined on these data"

    def _alpha(self, x: np.ndarray | None, metrics: list[_Metric], *, bootstrap: bool) -> dict[str, _Estimate]:
        data = self.h if x is None else np.column_stack([self.h, x])
        levels = K.levels_of(data)
        boot_on = bootstrap and self.w is not None
        out = {}
        co = None
        for mt in metrics:
            level = mt.id.split("_")[1]
            if level == "interval":
                # moments, not a K x K table: exact for any number of distinct values
                stats = K.interval_moments(data, self.groups, self.n_groups)
                v = float(K.interval_alpha(stats.total()))
                bt = K.per_resample(stats, self.w, K.interval_alpha) if boot_on else None
            elif len(levels) > MAX_CATEGORIES:
                out[mt.id] = _Estimate(math.nan, None, f"the scores take {len(levels)} distinct values; {level} "
                                       f"alpha needs a discrete scale (at most {MAX_CATEGORIES} values)")
                continue
            else:
                if co is None:
                    co = K.coincidences(data, self.groups, self.n_groups, levels=levels)

                def kernel(block: np.ndarray, level: str = level) -> np.ndarray:
                    return K.alpha(block, levels, level=level)  # type: ignore[arg-type]

                v = float(kernel(co.total()))
                bt = K.per_resample(co, self.w, kernel) if boot_on else None
            reason = capture_undefined(krippendorff_alpha_score, data.T, level=level)[1] if math.isnan(v) else None
            out[mt.id] = _Estimate(v, bt, reason)
        return out

    def _step_f1(self, pairs: list[tuple[np.ndarray, np.ndarray]], *, bootstrap: bool) -> _Estimate:
        values, boots = [], []
        for pred, gold in pairs:
            counts = K.step_counts(pred, gold, self.n_steps, self.groups, self.n_groups)
            values.append(float(K.step_macro_f1(counts.total())))
            if bootstrap and self.w is not None:
                boots.append(K.per_resample(counts, self.w, K.step_macro_f1))
        value = _mean_strict(values)
        reason = None
        if math.isnan(value):
            pred, gold = pairs[0]
            ok = ~(np.isnan(pred) | np.isnan(gold))
            reason = capture_undefined(step_macro_f1_score, gold[ok].astype(int).tolist(),
                                       pred[ok].astype(int).tolist(), self.n_steps[ok].astype(int).tolist())[1]
        return _Estimate(value, np.mean(boots, axis=0) if boots else None, reason)

    def _alt(self, x: np.ndarray) -> tuple[dict[str, _Estimate], dict[str, Any] | None]:
        if self.h.shape[1] < 2:
            reason = "the alt-test needs at least two humans"
            return {"alt_test_winning_rate": _Estimate(math.nan, reason=reason),
                    "alt_test_advantage": _Estimate(math.nan, reason=reason)}, None
        scoring = "neg_rmse" if self.scale == "numeric" else "accuracy"
        try:
            res = alt_test(x, self.h, raters=self.names, scoring=scoring, epsilon=self.settings.epsilon,
                           q_fdr=self.settings.q_fdr, min_instances_per_human=self.settings.min_instances_per_human)
        except ValueError as e:
            return {"alt_test_winning_rate": _Estimate(math.nan, reason=str(e)),
                    "alt_test_advantage": _Estimate(math.nan, reason=str(e))}, None
        return {"alt_test_winning_rate": _Estimate(res.winning_rate),
                "alt_test_advantage": _Estimate(res.advantage_probability)}, res.as_dict()

    # -- raters ---------------------------------------------------------------------------

    def _estimates(self, each: list[tuple[np.ndarray, np.ndarray]], loo: list[tuple[np.ndarray, np.ndarray]],
                   extra_coder: np.ndarray | None, *, bootstrap: bool) -> dict[str, _Estimate]:
        """Compute every metric but the alt-test from the rater-vs-human pairs ``each`` and ``loo``.

        ``each`` pairs a rater with one human at a time, ``loo`` with a leave-one-out mean;
        ``extra_coder`` joins the humans as one more coder for alpha (None: the humans alone).
        """
        fam = self.families
        out: dict[str, _Estimate] = {}
        if "pair" in fam:
            out.update(self._family(each, fam["pair"], square=True, bootstrap=bootstrap))
        loo_metrics = fam.get("loo", []) + fam.get("group", [])
        if loo_metrics:
            out.update(self._family(loo, loo_metrics, square=False, bootstrap=bootstrap))
        if "alpha" in fam:
            out.update(self._alpha(extra_coder, fam["alpha"], bootstrap=bootstrap))
        if "steps" in fam:
            out["step_macro_f1"] = self._step_f1(each, bootstrap=bootstrap)
        return out

    def evaluate(self, x: np.ndarray, *, bootstrap: bool) -> tuple[dict[str, _Estimate], dict[str, Any] | None]:
        """Compute every metric for rater ``x`` (a judge or a baseline) against the humans."""
        m = self.h.shape[1]
        out = self._estimates([(x, self.h[:, k]) for k in range(m)], [(x, r) for r in self.refs], x,
                              bootstrap=bootstrap)
        alt_detail = None
        if "alt" in self.families:
            rows, alt_detail = self._alt(x)
            out.update(rows)
        return out, alt_detail

    def ceiling(self) -> dict[str, _Estimate]:
        """Compute every metric for the humans against each other (leave-one-annotator-out)."""
        m = self.h.shape[1]
        if m < 2:
            return {mt.id: _Estimate(math.nan, reason="one human: no human-human ceiling") for mt in self.metrics}
        out = self._estimates([(self.h[:, a], self.h[:, b]) for a in range(m) for b in range(m) if a != b],
                              [(self.h[:, k], r) for k, r in enumerate(self.refs)], None, bootstrap=False)
        for mt in self.families.get("alt", []):
            out[mt.id] = _Estimate(math.nan, reason="the alt-test is itself a comparison with the humans")
        return out


def _subsets(panel: Panel, split_by: str | None) -> list[tuple[str, np.ndarray]]:
    n = len(panel.items)
    out = [("all", np.ones(n, dtype=bool))]
    if split_by:
        values = np.asarray(panel.field_values(split_by), dtype=object)
        for v in sorted(set(values.tolist())):
            out.append((f"{split_by}={v}", values == v))
    return out


def agreement_report(panel: Panel, settings: ReportSettings = ReportSettings(),
                     *, judges: Sequence[str] | None = None) -> dict[str, Any]:
    """Compute the full report for each judge of ``panel``; returns a JSON-ready dict.

    Sections: ``all`` items, then one per value of ``settings.split_by``. Baselines are
    fitted within each split value when ``split_by`` is given.
    """
    n = len(panel.items)
    group_labels = panel.field_values(settings.group_by) if settings.group_by else None
    groups, n_groups = group_codes(group_labels, n)
    n_steps = None
    if panel.scale == "steps" and "n_steps" in panel.fields:
        try:
            n_steps = np.array([int(v) for v in panel.fields["n_steps"]], dtype=float)
        except ValueError:
            n_steps = None
    metrics = _catalogue(panel.scale, has_groups=group_labels is not None, has_steps=n_steps is not None)
    strata = group_codes(panel.field_values(settings.split_by), n)[0] if settings.split_by else None
    base_preds = {kind: baseline_predictions(panel.human_scores, kind=kind, scale=panel.scale, strata=strata,
                                             n_steps=n_steps, seed=settings.seed) for kind in BASELINES}
    draws = weights = None
    if settings.n_resamples > 0:
        draws = draw_groups(n_groups, settings.n_resamples, seed=settings.seed)
        weights = weights_from_draws(draws, n_groups)
    judge_names = list(judges) if judges is not None else list(panel.judges)
    sections = []
    for name, mask in _subsets(panel, settings.split_by):
        sub = _Subset(panel.human_scores[mask], panel.humans, groups[mask], n_groups, panel.scale, metrics,
                      None if n_steps is None else n_steps[mask], draws, weights, settings)
        ceiling = sub.ceiling()
        base = {kind: sub.evaluate(pred[mask], bootstrap=False) for kind, pred in base_preds.items()}
        section: dict[str, Any] = {
            "name": name,
            "n_items": int(mask.sum()),
            "n_groups": int(np.unique(groups[mask]).size),
            "judges": {},
            "baselines_alt_test": {k: v[1] for k, v in base.items()},
        }
        for j in judge_names:
            x = panel.judge_scores[mask, panel.judges.index(j)]
            est, alt_detail = sub.evaluate(x, bootstrap=weights is not None)
            rows = []
            for mt in metrics:
                e = est[mt.id]
                ci, ci_undef = None, 0
                if e.boot is not None:
                    ci = percentile_interval(e.boot, confidence=settings.confidence)
                    ci_undef = int(np.isnan(e.boot).sum())
                rows.append(MetricRow(
                    mt.id, mt.label, mt.reference, e.value, e.reason, ci, ci_undef,
                    ceiling[mt.id].value, ceiling[mt.id].reason,
                    {k: base[k][0][mt.id].value for k in BASELINES}))
            section["judges"][j] = {
                "n_scored": int((~np.isnan(x)).sum()),
                "n_failed": int(panel.judge_failed.get(j, 0)) if name == "all" else None,
                "metrics": [r.as_dict() for r in rows],
                "alt_test": alt_detail,
            }
        sections.append(section)
    return {
        "scale": panel.scale,
        "humans": list(panel.humans),
        "judges": judge_names,
        "n_items": n,
        "n_groups": n_groups,
        "settings": settings.model_dump(),
        "baselines": {
            "fitted_within": settings.split_by or "all items",
            "constant": {"numeric": "the humans' mean score", "pairwise": "always 'tie'",
                         "steps": "always -1 (no error)"}[panel.scale],
            "majority": "the humans' most frequent score",
            "random": "a seeded draw from the humans' score distribution",
        },
        "sections": sections,
    }


def _fmt(v: float | None, width: int = 7) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a".rjust(width)
    return f"{v:.3f}".rjust(width)


def render_report(report: Mapping[str, Any]) -> str:
    """Format the report as plain-text tables, one per judge and section."""
    lines = []
    s = report["settings"]
    pct = int(round(s["confidence"] * 100))  # int(0.57 * 100) would be 56
    lines.append(f"{report['n_items']} items, {report['n_groups']} groups"
                 f"{' (' + s['group_by'] + ')' if s['group_by'] else ''}, humans: {', '.join(report['humans'])}; "
                 f"{s['n_resamples']} grouped bootstrap resamples, seed {s['seed']}, "
                 f"{pct}% intervals; alt-test epsilon {s['epsilon']}")
    for sec in report["sections"]:
        for judge, jr in sec["judges"].items():
            lines.append("")
            failed = f", {jr['n_failed']} failed" if jr.get("n_failed") else ""
            lines.append(f"== {judge} | {sec['name']} ({sec['n_items']} items, {sec['n_groups']} groups{failed})")
            head = (f"{'metric':<28} {'value':>7}  {str(pct) + '% CI':<17} {'ceiling':>7}  "
                    f"{'const':>7} {'major':>7} {'random':>7}")
            lines.append(head)
            lines.append("-" * len(head))
            for row in jr["metrics"]:
                ci = row["ci"]
                ci_txt = f"[{ci[0]:.3f}, {ci[1]:.3f}]" if ci else ""
                b = row["baselines"]
                lines.append(f"{row['label']:<28} {_fmt(row['value'])}  {ci_txt:<17} {_fmt(row['ceiling'])}  "
                             f"{_fmt(b.get('constant'))} {_fmt(b.get('majority'))} {_fmt(b.get('random'))}")
            alt = jr.get("alt_test")
            if alt:
                verdict = "PASSES" if alt["passed"] else "fails"
                per = ", ".join(f"{a['rater']} p={a['p_value']:.3g}{'*' if a['rejected'] else ''}"
                                for a in alt["annotators"])
                lines.append(f"alt-test: {verdict} (winning rate {alt['winning_rate']:.2f}, advantage "
                             f"{alt['advantage_probability']:.2f}; {per}; * = beaten after Benjamini-Yekutieli)")
    return "\n".join(lines)
