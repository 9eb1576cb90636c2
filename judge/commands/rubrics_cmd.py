"""``reasonjudge rubrics [NAME]``: list the shipped rubrics, or show one in full."""

from __future__ import annotations

import argparse
import textwrap

_COMBINE_TEXT = {
    "weighted_mean": "weighted mean of the parts normalised to [0, 1] "
    "(scale: (s - lo) / (hi - lo); first error at step k of n: (k - 1) / n; none: 1)",
    "rating_over_max": "rating / {hi}",
    "no_error": "1 when no step is wrong, else 0",
}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rubrics", help="list the rubrics, or show one", description=__doc__)
    p.add_argument("name", nargs="?", help="a shipped rubric name or a path to a .toml rubric file")
    p.set_defaults(func=run)


def _show(name: str) -> str:
    from rubrics import load_rubric, rubric_path

    r = load_rubric(name)
    out = [f"{r.name} (version {r.version})  [{rubric_path(name)}]", textwrap.fill(r.description, 88), ""]
    if r.instructions.strip():
        out += [textwrap.fill(" ".join(r.instructions.split()), 88), ""]
    out.append(f"reference trajectory: {'shown to the judge' if r.uses_reference else 'not used'}")
    for c in r.criteria:
        out += ["", f"- {c.id} ({c.kind}): {c.question}"]
        if c.kind == "scale":
            out += [f"    {k}: {c.levels[k]}" for k in range(c.lo, c.hi + 1)]
        else:
            out += [f"    {c.none}", f"    {c.error}"]
    how = _COMBINE_TEXT[r.combine.method].format(hi=r.criteria[0].hi)
    out += ["", f"item score ({r.combine.method}): {how}"]
    if r.combine.weights:
        out.append("  weights: " + ", ".join(f"{k}={v:g}" for k, v in r.combine.weights.items()))
    return "\n".join(out)


def run(args: argparse.Namespace) -> int:
    from rubrics import list_rubrics, load_rubric

    if args.name:
        print(_show(args.name))
        return 0
    for name in list_rubrics():
        r = load_rubric(name)
        print(f"{name:<22} v{r.version}  {r.description}")
    return 0
