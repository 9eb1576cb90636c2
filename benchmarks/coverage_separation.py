"""How well does the no-LLM reference-coverage scorer separate correct from flawed chains?

Data: ``../shared/data/judging/`` -- MR-MATH invalid-error set (159 solutions, every final
answer correct, 83 with a human-labelled first error) and ProcessBench GSM8K / MATH
(expert first-error labels). None of these files carries a reference trajectory, which
the scorer needs, so references are built two ways, both stated in the output:

- ``sibling``: for a solution whose problem has OTHER solutions labelled fully correct by
  the annotators, those solutions are the references (leave-one-out; the solution's own
  label is never used); the score is the best coverage over them. Only those solutions
  are scored, so n is small.
- ``answer``: the reference is the gold final answer alone ("The final answer is: X";
  MR-MATH only, ProcessBench has no gold answer). On MR-MATH every final answer is
  correct, so this shows what an answer check can do there: nothing.

Metric: solution-level ROC AUC (``calibration.steps.solution_auc_score``; 1 = correct
chain is the positive class; 0.5 is chance) with a 95 % bootstrap interval
(``scipy.stats.bootstrap``, 2,000 paired resamples, seed 0). Printed beside ROSCOE-SA/SS
as published on the full MR-MATH set (0.575 / 0.496) and, recomputed in this run from
ReasonEval's files, on the very same subset.

Run: ``python benchmarks/coverage_separation.py [--data ../shared/data]``. The last line
prints ``name=value`` pairs.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import warnings
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from calibration.reasoneval import read_mrmath_gold, read_mrmath_scores  # noqa: E402
from calibration.steps import solution_auc_score  # noqa: E402
from judge.coverage import reference_coverage  # noqa: E402

PUBLISHED_ROSCOE = {"roscoe-sa": 0.575, "roscoe-ss": 0.496}


def auc_ci(labels: list[int], scores: list[float]) -> tuple[float, float, float]:
    """AUC and a 95 % percentile bootstrap interval (NaN when undefined)."""
    from scipy.stats import bootstrap

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        auc = solution_auc_score(labels, scores)
        if math.isnan(auc) or min(sum(labels), len(labels) - sum(labels)) < 2:
            return auc, math.nan, math.nan

        def stat(y, s):
            v = solution_auc_score(y, s)
            return 0.5 if math.isnan(v) else v  # a one-class resample carries no ranking

        res = bootstrap((np.asarray(labels), np.asarray(scores)), stat, paired=True, vectorized=False,
                        n_resamples=2000, method="percentile", random_state=np.random.default_rng(0))
    return auc, float(res.confidence_interval.low), float(res.confidence_interval.high)


def sibling_scores(texts: list[str], problems: list[str], labels: list[int]) -> list[tuple[int, float]]:
    """``(index, best coverage over other correct solutions of the same problem)``."""
    by_problem: dict[str, list[int]] = defaultdict(list)
    for i, p in enumerate(problems):
        by_problem[p].append(i)
    out = []
    for i, p in enumerate(problems):
        refs = [j for j in by_problem[p] if j != i and labels[j] == 1]
        if not refs:
            continue
        scores = [reference_coverage(texts[i], texts[j]).score for j in refs]
        known = [s for s in scores if s is not None]
        if known:
            out.append((i, max(known)))
    return out


def fmt(x: float) -> str:
    return "nan" if math.isnan(x) else f"{x:.3f}"


def line(name: str, labels: list[int], scores: list[float]) -> tuple[str, float]:
    auc, lo, hi = auc_ci(labels, scores)
    n1 = sum(labels)
    print(f"  {name:<44} n={len(labels):>4} (correct {n1:>3}, flawed {len(labels) - n1:>3})  "
          f"AUC {fmt(auc)}  95% CI [{fmt(lo)}, {fmt(hi)}]")
    return name, auc


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    args = ap.parse_args()
    judging = args.data / "judging"
    results: dict[str, float | int] = {}

    # -- MR-MATH ---------------------------------------------------------------------
    mr = judging / "reasoneval_mrmath"
    gold = read_mrmath_gold(mr / "mr-math_invalid_errors.jsonl")
    raw = [json.loads(x) for x in (mr / "mr-math_invalid_errors.jsonl").read_text(encoding="utf-8").splitlines()]
    labels = [g.label for g in gold]
    texts = [r["model_output"] for r in raw]
    roscoe = {k: [s[0] for s in read_mrmath_scores(mr / f"invalid__{k}_eval_results.jsonl", gold, kind="roscoe")]
              for k in PUBLISHED_ROSCOE}
    print("MR-MATH invalid errors (ReasonEval): every final answer is correct; 83/159 chains are flawed")
    for k, v in PUBLISHED_ROSCOE.items():
        _, auc = line(f"{k} (published {v})", labels, roscoe[k])
        results[f"{k.replace('-', '_')}_auc_full"] = round(auc, 3)

    answer_scores = [reference_coverage(t, f"The final answer is: {r['ground_truth_answer']}").score for t, r in zip(texts, raw)]
    keep = [i for i, s in enumerate(answer_scores) if s is not None]
    _, auc = line("coverage, reference = gold answer only", [labels[i] for i in keep], [answer_scores[i] for i in keep])
    results["mrmath_answer_auc"] = round(auc, 3)
    results["mrmath_answer_n"] = len(keep)

    sib = sibling_scores(texts, [r["question"] for r in raw], labels)
    idx = [i for i, _ in sib]
    y = [labels[i] for i in idx]
    _, auc = line("coverage, reference = sibling correct solution", y, [s for _, s in sib])
    results["mrmath_sibling_auc"] = round(auc, 3)
    results["mrmath_sibling_n"] = len(idx)
    for k in PUBLISHED_ROSCOE:
        _, a = line(f"{k} on the same sibling subset", y, [roscoe[k][i] for i in idx])
        results[f"{k.replace('-', '_')}_auc_sibling_subset"] = round(a, 3)

    # -- ProcessBench ----------------------------------------------------------------
    for split in ("gsm8k", "math"):
        data = json.loads((judging / "processbench" / f"{split}.json").read_text(encoding="utf-8"))
        lab = [1 if d["label"] == -1 else 0 for d in data]
        txt = ["\n\n".join(d["steps"]) for d in data]
        print(f"ProcessBench {split}: {len(data)} solutions, {sum(lab)} correct; "
              f"{sum(1 for d in data if d['label'] != -1 and d['final_answer_correct'])} flawed with a correct answer")
        sib = sibling_scores(txt, [d["problem"] for d in data], lab)
        y = [lab[i] for i, _ in sib]
        _, auc = line("coverage, reference = sibling correct solution", y, [s for _, s in sib])
        results[f"processbench_{split}_sibling_auc"] = round(auc, 3) if not math.isnan(auc) else float("nan")
        results[f"processbench_{split}_sibling_n"] = len(y)
        results[f"processbench_{split}_sibling_correct"] = sum(y)

    print()
    print(" ".join(f"{k}={v}" for k, v in results.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
