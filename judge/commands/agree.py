"""``reasonjudge agree --human H --judge J``: how well does the judge track the humans?

Prints, per judge (and per ``--split-by`` value), every agreement metric with its grouped
bootstrap 95% interval, the human-human ceiling and three item-blind baselines
(constant, majority, random), plus the Alternative Annotator Test; with ``-o DIR`` writes
all of it to ``DIR/agreement.json``.

Input formats (``--format``):
  long          (default) JSONL/CSV rows: item, rater, score, and any metadata field
                (e.g. group, dimension); --human and --judge are two such files
  alttest       the Alternative Annotator Test JSON, {rater: {item: score}};
                --id-fields names the parts of the item ids (split on --id-sep)
  mrmath        --human is ReasonEval's mr-math_invalid_errors.jsonl, each --judge an
                LLM verdict file (*_eval_results.jsonl); scores are first-error steps
  processbench  --human is ProcessBench's {gsm8k,math}.json; --judge long-format rows
                whose score is the predicted first-error index (-1 = no error)

Example (SummEval, from the project root):
  reasonjudge agree --format alttest \\
      --human ../shared/data/judging/alttest_summeval/human_annotations.json \\
      --judge ../shared/data/judging/alttest_summeval/llm_annotations.json \\
      --judge-rater gpt-4o --id-fields doc,system,dimension \\
      --group-by doc --split-by dimension -o out/summeval
"""

from __future__ import annotations

import argparse
import os
import sys


def _fields(text: str) -> tuple[str, ...]:
    parts = tuple(p.strip() for p in text.split(",") if p.strip())
    if not parts:
        raise argparse.ArgumentTypeError("expected comma-separated field names")
    return parts


def add_input_options(p: argparse.ArgumentParser) -> None:
    """Add the options that say where the human and judge scores are and how to read them."""
    p.add_argument("--human", required=True, metavar="H", help="human scores")
    p.add_argument("--judge", required=True, action="append", metavar="J",
                   help="judge scores (repeat for several files)")
    p.add_argument("--format", choices=("long", "alttest", "mrmath", "processbench"), default="long",
                   help="input layout (default: long)")
    p.add_argument("--judge-format", choices=("long", "alttest", "judgments"),
                   help="layout of the judge file(s) when it differs from --format: 'judgments' reads the "
                        "judgments.jsonl of 'reasonjudge judge' (item = id, rater = judge, score = score); "
                        "'long' reads e.g. the scores 'calibrate apply' writes against alttest humans")
    p.add_argument("--scale", choices=("auto", "numeric", "pairwise", "steps"), default="auto",
                   help="score type; auto tells numbers from A/B/tie (default: auto)")
    p.add_argument("--group-by", metavar="FIELD",
                   help="item field naming the unit to resample (document, prompt); default: none, "
                        "each item is its own group")
    p.add_argument("--split-by", metavar="FIELD", help="item field to report separately (e.g. dimension)")
    p.add_argument("--judge-rater", action="append", metavar="NAME",
                   help="only these judges of the judge file(s) (repeatable)")
    p.add_argument("--human-rater", action="append", metavar="NAME", help="only these humans (repeatable)")
    add_layout_options(p)


def add_layout_options(p: argparse.ArgumentParser) -> None:
    """Add the options that name the parts of an alttest item id and the fields of a long-format row."""
    p.add_argument("--id-fields", type=_fields, default=(), metavar="A,B,...",
                   help="alttest: names of the parts of each item id, e.g. doc,system,dimension")
    p.add_argument("--id-sep", default="__", help="alttest: separator of the item id parts (default: __)")
    p.add_argument("--item-field", default="item", help="long: item id field (default: item)")
    p.add_argument("--rater-field", default="rater", help="long: rater field (default: rater)")
    p.add_argument("--score-field", default="score", help="long: score field (default: score)")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("agree", help="judge-human agreement: metrics with intervals, ceiling, baselines, alt-test",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_input_options(p)
    p.add_argument("--bootstrap", type=int, default=2000, metavar="B", help="bootstrap resamples (default: 2000)")
    p.add_argument("--seed", type=int, default=0, help="bootstrap and random-baseline seed (default: 0)")
    p.add_argument("--confidence", type=float, default=0.95, help="interval level (default: 0.95)")
    p.add_argument("--epsilon", type=float, default=0.2,
                   help="alt-test epsilon: 0.2 experts, 0.15 skilled, 0.1 crowd (default: 0.2)")
    p.add_argument("--min-items-per-human", type=int, default=30,
                   help="alt-test: skip humans with fewer items (default: 30)")
    p.add_argument("-o", "--output", metavar="DIR", help="write DIR/agreement.json")
    p.add_argument("--quiet", action="store_true", help="do not print the tables")
    p.set_defaults(func=run)


def load_inputs(args: argparse.Namespace):
    """Read --human / --judge per the shared input options (also used by ``calibrate fit``)."""
    from calibration.tables import load_panel
    from judge.errors import InputError

    panel = load_panel(args.human, args.judge, format=args.format,
                       scale=None if args.scale == "auto" else args.scale, id_fields=args.id_fields,
                       id_sep=args.id_sep, item_field=args.item_field, rater_field=args.rater_field,
                       score_field=args.score_field, human_raters=args.human_rater, judge_raters=args.judge_rater,
                       judge_format=args.judge_format)
    for name in (args.group_by, args.split_by):
        if name and name not in panel.fields:
            hint = " (for the alttest format, name the id parts with --id-fields)" if args.format == "alttest" else ""
            raise InputError(f"no item field '{name}' in the inputs; they have {sorted(panel.fields) or 'none'}{hint}",
                             path=args.human)
    return panel


def run(args: argparse.Namespace) -> int:
    from calibration.report import ReportSettings, agreement_report, render_report
    from judge import __version__
    from judge.errors import InputError
    from judge.io import write_json_atomic

    panel = load_inputs(args)
    try:
        settings = ReportSettings(n_resamples=args.bootstrap, seed=args.seed, confidence=args.confidence,
                                  group_by=args.group_by, split_by=args.split_by, epsilon=args.epsilon,
                                  min_instances_per_human=args.min_items_per_human)
    except ValueError as e:
        raise InputError(f"bad option: {e}") from e
    report = agreement_report(panel, settings)
    report = {"reasonjudge_version": __version__,
              "inputs": {"human": os.fspath(args.human), "judge": [os.fspath(j) for j in args.judge],
                         "format": args.format},
              **report}
    if not args.quiet:
        print(render_report(report))
    if args.output:
        path = os.path.join(args.output, "agreement.json")
        write_json_atomic(path, report)
        print(f"wrote {path}", file=sys.stderr)
    return 0
