"""``reasonjudge calibrate fit | apply``: map judge scores onto the human scale.

``fit`` learns, for each judge (and each ``--split-by`` value), a monotone (isotonic) map
from the judge's score to the humans' mean score, reports its MAE before and after -- the
"after" out of sample, by grouped cross-fitting over ``--group-by`` groups -- and saves
the maps to a JSON file. ``apply`` reads judge scores and writes them mapped, as long-format
rows (``item``, ``rater``, ``score``, ``raw_score`` and the item fields) that ``reasonjudge
agree --judge-format long`` reads back.

Example (SummEval, from the project root):
  reasonjudge calibrate fit --format alttest \\
      --human ../shared/data/judging/alttest_summeval/human_annotations.json \\
      --judge ../shared/data/judging/alttest_summeval/llm_annotations.json \\
      --judge-rater gpt-4o --id-fields doc,system,dimension \\
      --group-by doc --split-by dimension -o out/gpt-4o.map.json
  reasonjudge calibrate apply --map out/gpt-4o.map.json --format alttest \\
      --judge ../shared/data/judging/alttest_summeval/llm_annotations.json \\
      --judge-rater gpt-4o --id-fields doc,system,dimension -o out/gpt-4o.calibrated.jsonl
"""

from __future__ import annotations

import argparse
import math
import sys


def register(sub: argparse._SubParsersAction) -> None:
    from judge.commands.agree import add_input_options, add_layout_options

    p = sub.add_parser("calibrate", help="fit / apply a calibration map from judge scores to the human scale",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    steps = p.add_subparsers(dest="calibrate_command", metavar="STEP")
    steps.required = True

    fit = steps.add_parser("fit", help="fit isotonic maps (judge -> human mean) with grouped cross-fitting",
                           description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_input_options(fit)
    fit.add_argument("--folds", type=int, default=5, help="GroupKFold folds for the out-of-sample MAE (default: 5)")
    fit.add_argument("--direction", choices=("increasing", "decreasing", "auto"), default="increasing",
                     help="monotone direction of the map (default: increasing)")
    fit.add_argument("-o", "--output", required=True, metavar="MAP.json", help="where to save the maps")
    fit.set_defaults(func=run_fit)

    app = steps.add_parser("apply", help="apply saved maps to judge scores",
                           description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    app.add_argument("--map", required=True, metavar="MAP.json")
    app.add_argument("--judge", required=True, metavar="J", help="judge scores to map")
    app.add_argument("--format", choices=("long", "alttest"), default="long", help="layout of J (default: long)")
    app.add_argument("--judge-rater", action="append", metavar="NAME", help="only these raters (repeatable)")
    app.add_argument("--as-judge", metavar="NAME",
                     help="apply this judge's map to every rater (default: each rater's own map)")
    add_layout_options(app)
    app.add_argument("-o", "--output", required=True, metavar="OUT.jsonl")
    app.set_defaults(func=run_apply)


def run_fit(args: argparse.Namespace) -> int:
    from calibration.calmap import fit_map_file
    from judge.commands.agree import load_inputs
    from judge.errors import InputError
    from judge.io import write_json_atomic

    panel = load_inputs(args)
    direction = {"increasing": True, "decreasing": False, "auto": "auto"}[args.direction]
    try:
        maps = fit_map_file(panel, group_by=args.group_by, split_by=args.split_by, n_folds=args.folds,
                            increasing=direction)
    except ValueError as e:
        raise InputError(str(e), path=args.human) from e
    write_json_atomic(args.output, maps.model_dump(mode="json"))

    def f(v: float | None) -> str:
        return "n/a" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.3f}"

    print(f"{'judge':<16} {'split':<20} {'items':>6} {'groups':>6}  {'MAE before':>10} {'MAE after':>10}  "
          f"{'RMSE before':>11} {'RMSE after':>10}")
    for judge, per in maps.maps.items():
        for split, m in per.items():
            print(f"{judge:<16} {split:<20} {m.n_items:>6} {m.n_groups:>6}  {f(m.mae_before):>10} "
                  f"{f(m.mae_after):>10}  {f(m.rmse_before):>11} {f(m.rmse_after):>10}")
    print(f"('after' is out of sample: {args.folds}-fold GroupKFold over "
          f"{args.group_by or 'items'}); wrote {args.output}", file=sys.stderr)
    return 0


def run_apply(args: argparse.Namespace) -> int:
    from pathlib import Path

    import numpy as np
    from pydantic import ValidationError

    from calibration.calmap import MapFile
    from calibration.tables import read_table
    from judge.errors import InputError
    from judge.io import write_jsonl_atomic

    try:
        maps = MapFile.model_validate_json(Path(args.map).read_text(encoding="utf-8"))
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror}", path=args.map) from e
    except ValidationError as e:  # also raised for text that is not JSON
        raise InputError(f"not a calibration map written by 'calibrate fit': {e}", path=args.map) from e
    ratings = read_table(args.judge, format=args.format, scale="numeric", id_fields=args.id_fields,
                         id_sep=args.id_sep, item_field=args.item_field, rater_field=args.rater_field,
                         score_field=args.score_field)
    if args.judge_rater:
        ratings = ratings.select(list(dict.fromkeys(args.judge_rater)))
    splits = np.full(len(ratings.items), "all", dtype=object)
    if maps.split_by:
        if maps.split_by not in ratings.fields:
            raise InputError(f"the maps are per '{maps.split_by}', which these items lack "
                             f"(fields: {sorted(ratings.fields) or 'none'})", path=args.judge)
        splits = np.array(ratings.fields[maps.split_by], dtype=object)
    rows = []
    for r, rater in enumerate(ratings.raters):
        key = args.as_judge or rater
        if key not in maps.maps:
            raise InputError(f"no map for judge {key!r} in {args.map} (it has {sorted(maps.maps)}); "
                             "use --as-judge", path=args.judge)
        per = maps.maps[key]
        raw = ratings.scores[:, r]
        mapped = np.full(raw.shape, np.nan)
        for value in sorted(set(splits.tolist())):
            if value not in per:
                k = int(np.flatnonzero(splits == value)[0])
                path, line = ratings.location(k)
                raise InputError(f"no map for {maps.split_by}={value!r} of judge {key!r}", path=path, line=line)
            mask = splits == value
            mapped[mask] = per[value].apply(raw[mask])
        for i, item in enumerate(ratings.items):
            row = {"item": item, "rater": rater}
            row.update({k: v[i] for k, v in ratings.fields.items() if v[i] != ""})
            if math.isnan(raw[i]):
                row.update({"score": None, "raw_score": None, "error": "no judge score to calibrate"})
            else:
                row.update({"score": float(mapped[i]), "raw_score": float(raw[i])})
            row["calibration_map"] = args.map
            rows.append(row)
    write_jsonl_atomic(args.output, rows)
    print(f"wrote {len(rows)} calibrated scores to {args.output}", file=sys.stderr)
    return 0
