"""Time the agreement report on SummEval against a naive per-resample loop, on one core.

The report: 6,400 items (100 documents x 16 systems x 4 dimensions), 3 expert humans,
6 LLM judges, 2,000 grouped bootstrap resamples (documents), sections "all" + one per
dimension, every metric with its interval, the human ceiling, three baselines and the
alt-test. The naive loop computes the same bootstrap the obvious way: for each resample,
gather the drawn documents' items and call the library-backed metric functions
(scikit-learn, scipy, krippendorff) once per metric, human and section. It is run for
``--naive-resamples`` resamples and its per-resample time scaled to the report's
resample count; the speedup compares that with the *whole* per-judge report time
(point estimates, ceiling, baselines and alt-test included), so it understates the
pure bootstrap ratio.

Run from the project root:  python benchmarks/agreement_speed.py
Last line: name=value pairs, at least seconds_per_judge and speedup_vs_naive.
"""

from __future__ import annotations

import os

# One core, honestly: no BLAS / OpenMP threads, and pinned to one CPU (like taskset -c 0).
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from calibration.agreement import cohen_kappa_score, krippendorff_alpha_score, percent_agreement_score  # noqa: E402
from calibration.bootstrap import draw_groups, group_codes, resample_index  # noqa: E402
from calibration.correlation import (  # noqa: E402
    group_correlation_score,
    kendall_score,
    pearson_score,
    spearman_score,
)
from calibration.deviation import mae_score, rmse_score  # noqa: E402
from calibration.report import ReportSettings, agreement_report  # noqa: E402
from calibration.tables import load_panel  # noqa: E402


def pin_one_core() -> str:
    try:
        cpus = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpus[0]})
        return f"pinned to CPU {cpus[0]}"
    except (AttributeError, OSError):
        return "could not pin (no sched_setaffinity)"


def naive_resample_metrics(x: np.ndarray, h: np.ndarray, docs: np.ndarray, *, group_level: bool = True) -> int:
    """Compute all bootstrapped metrics of one section for one resample, one library call each; returns #calls."""
    calls = 0
    m = h.shape[1]
    for k in range(m):
        y = h[:, k]
        both = ~(np.isnan(x) | np.isnan(y))
        labels = np.union1d(x[both], y[both])
        percent_agreement_score(x, y)
        for w in ("none", "linear", "quadratic"):
            cohen_kappa_score(x, y, weights=w, labels=labels)
        calls += 4
    for k in range(m):
        others = np.delete(h, k, axis=1)
        ref = np.where(np.isnan(h[:, k]), np.nan, np.nanmean(others, axis=1))
        for fn in (pearson_score, spearman_score, kendall_score):
            fn(x, ref)
        mae_score(ref, x)
        rmse_score(ref, x)
        if group_level:
            for method in ("pearson", "spearman", "kendall"):
                group_correlation_score(x, ref, docs, method=method)
        calls += 8 if group_level else 5
    data = np.column_stack([h, x]).T
    for level in ("nominal", "ordinal", "interval"):
        krippendorff_alpha_score(data, level=level)
    return calls + 3


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "judging" / "alttest_summeval"))
    ap.add_argument("--resamples", type=int, default=2000)
    ap.add_argument("--naive-resamples", type=int, default=10)
    args = ap.parse_args()
    print(pin_one_core())
    d = Path(args.data)
    panel = load_panel(d / "human_annotations.json", [d / "llm_annotations.json"], format="alttest",
                       id_fields=("doc", "system", "dimension"))
    n_judges = len(panel.judges)
    print(f"SummEval: {len(panel.items)} items, {len(panel.humans)} humans, {n_judges} judges, "
          f"{args.resamples} grouped bootstrap resamples over documents")
    settings = ReportSettings(n_resamples=args.resamples, seed=0, group_by="doc", split_by="dimension")

    # warm-up (imports, first calls) outside the timed region
    agreement_report(panel, ReportSettings(n_resamples=5, group_by="doc", split_by="dimension"),
                     judges=panel.judges[:1])
    t0 = time.perf_counter()
    report = agreement_report(panel, settings)
    fast_total = time.perf_counter() - t0
    per_judge = fast_total / n_judges
    sections = [s["name"] for s in report["sections"]]
    print(f"batched report: {fast_total:.2f} s for {n_judges} judges x {len(sections)} sections "
          f"({', '.join(sections)}) -> {per_judge:.3f} s per judge")

    # the naive loop, same draws, one judge, all sections
    doc_codes, n_docs = group_codes(panel.fields["doc"], len(panel.items))
    dims = np.asarray(panel.fields["dimension"])
    masks = [np.ones(len(panel.items), dtype=bool)] + [dims == v for v in sorted(set(dims.tolist()))]
    draws = draw_groups(n_docs, args.naive_resamples, seed=0)
    x_all = panel.judge_scores[:, panel.judges.index("gpt-4o")]
    def naive_loop(group_level: bool) -> tuple[float, int]:
        calls = 0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t0 = time.perf_counter()
            for draw in draws:
                idx = resample_index(draw, doc_codes, n_docs)
                for mask in masks:
                    sel = idx[mask[idx]]
                    calls += naive_resample_metrics(x_all[sel], panel.human_scores[sel], doc_codes[sel],
                                                    group_level=group_level)
            return time.perf_counter() - t0, calls

    naive, calls = naive_loop(True)
    naive_per_resample = naive / args.naive_resamples
    naive_per_judge = naive_per_resample * args.resamples
    speedup = naive_per_judge / per_judge
    print(f"naive loop, all metrics: {naive:.2f} s for {args.naive_resamples} resamples ({calls} metric calls) "
          f"-> {naive_per_resample:.3f} s per resample, {naive_per_judge:.1f} s per judge at {args.resamples} "
          f"resamples (bootstrap only)")
    item_only, item_calls = naive_loop(False)
    item_per_judge = item_only / args.naive_resamples * args.resamples
    speedup_items = item_per_judge / per_judge
    print(f"naive loop without the per-document correlations: {item_only:.2f} s ({item_calls} calls) -> "
          f"{item_per_judge:.1f} s per judge")
    print(f"speedup of the whole batched report (all metrics, per judge) over the naive bootstrap alone: "
          f"{speedup:.0f}x; over the naive bootstrap of the item-level metrics only: {speedup_items:.0f}x")
    print(f"seconds_per_judge={per_judge:.3f} speedup_vs_naive={speedup:.1f} "
          f"speedup_vs_naive_item_level={speedup_items:.1f} naive_seconds_per_resample={naive_per_resample:.4f} "
          f"resamples={args.resamples} judges={n_judges} sections={len(sections)} items={len(panel.items)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
