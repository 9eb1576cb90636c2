"""``reasonjudge grade PREDICTIONS --benchmark ocr-reasoning|map|generic [-o DIR] [--judge]``.

Loads a benchmark file that carries the model's responses, extracts and scores every
final answer, and writes ``DIR/results.jsonl`` (one row per item, saying how it was
obtained) and ``DIR/summary.json``; prints the accuracy breakdown (per ability for
OCR-Reasoning, per level / category / type for map questions). With ``--judge`` it also
judges the reasoning in the same pass (``reasonjudge judge``'s options and outputs).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from judge.commands._common import existing_file


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("grade", help="extract, score and summarise a benchmark prediction file",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("predictions", type=existing_file, metavar="PREDICTIONS",
                   help=".jsonl, .tsv or .xlsx (VLMEvalKit prediction files for ocr-reasoning)")
    p.add_argument("--benchmark", required=True, choices=("ocr-reasoning", "map", "generic"))
    p.add_argument("--mode", choices=("strict", "official"), default="strict")
    p.add_argument("-o", "--output-dir", metavar="DIR", type=Path, default=None,
                   help="where results.jsonl and summary.json go (default: runs/<file stem>)")
    # --judge: grade the reasoning in the same pass (options as in `reasonjudge judge`).
    from judge.commands.judge_cmd import add_judge_arguments
    from judge.llm.options import add_llm_arguments

    p.add_argument("--judge", action="store_true",
                   help="also judge the reasoning (rubric judge with --model, else the reference-coverage scorer); "
                        "writes judgments.jsonl and judge_summary.json beside the results")
    add_judge_arguments(p)
    add_llm_arguments(p)
    p.set_defaults(func=run)


def print_summary(summary: dict, *, file=None) -> None:
    from judge.summary import ACCURACY_HEADERS, accuracy_rows, format_table

    file = file or sys.stdout  # looked up per call: a default bound at import outlives a redirected stdout

    overall = summary["overall"]
    print(f"{summary['benchmark']} · mode {summary['mode']} · {summary['n_items']} items · "
          f"accuracy {overall['accuracy']:.1f}% (unscorable {overall['unscorable']})", file=file)
    for key, table in summary.items():
        if key.startswith("by_"):
            print(file=file)
            print(format_table(ACCURACY_HEADERS, accuracy_rows(table), title=f"by {key[3:]}"), file=file)


def run(args: argparse.Namespace) -> int:
    from judge.grading import grade_item, summarise
    from judge.io import write_json_atomic, write_jsonl_atomic
    from judge.loaders import load_predicted_items

    if getattr(args, "model", None) and not args.judge:
        from judge.errors import ConfigError

        raise ConfigError("--model is used by --judge here; add --judge (or use `reasonjudge judge`)")
    items = load_predicted_items(args.predictions, args.benchmark)
    out_dir = args.output_dir or Path("runs") / args.predictions.stem
    rows = [grade_item(pi, mode=args.mode, benchmark=args.benchmark) for pi in items]
    summary = summarise(rows, benchmark=args.benchmark, mode=args.mode, source=str(args.predictions))
    write_jsonl_atomic(out_dir / "results.jsonl", rows)
    write_json_atomic(out_dir / "summary.json", summary)
    print_summary(summary)
    print(f"\nwrote {out_dir / 'results.jsonl'} and {out_dir / 'summary.json'}", file=sys.stderr)
    if args.judge:
        from judge.commands.judge_cmd import judge_into
        from judge.judging_summary import format_summary

        judged = judge_into(items, out_dir, args, source=str(args.predictions))
        if judged is not None:
            print()
            print(format_summary(judged))
            print(f"\nwrote {out_dir / 'judgments.jsonl'} and {out_dir / 'judge_summary.json'}", file=sys.stderr)
    return 0
