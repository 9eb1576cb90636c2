"""``reasonjudge grade PREDICTIONS --benchmark ocr-reasoning|map|generic [-o DIR] [--judge]``.

Loads a benchmark file that carries the model's responses, extracts and scores every
final answer, and writes ``DIR/results.jsonl`` (one row per item, saying how it was
obtained) and ``DIR/summary.json``; prints the accuracy breakdown (per ability for
OCR-Reasoning, per level / category / type for map questions). With ``--judge`` it also
judges the reasoning in the same pass (``reasonjudge judge``'s options and outputs).
With ``--model`` the rows the rules found no answer in go to the LLM extraction fallback
(as in ``reasonjudge score --model``), and, with ``--judge``, the same model judges.
"""

from __future__ import annotations

import argparse
import sys

from judge.commands._common import add_predictions_arguments, output_dir


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("grade", help="extract, score and summarise a benchmark prediction file",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_predictions_arguments(p, input_help=".jsonl, .tsv or .xlsx (VLMEvalKit prediction files for ocr-reasoning)",
                              outputs="results.jsonl and summary.json")
    p.add_argument("--mode", choices=("strict", "official"), default="strict")
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
    """Print the overall accuracy and the benchmark's main breakdowns (all are in summary.json)."""
    from judge.grading import BREAKDOWNS, PRINTED
    from judge.summary import ACCURACY_HEADERS, accuracy_rows, format_table

    file = file or sys.stdout  # looked up per call: a default bound at import outlives a redirected stdout

    overall = summary["overall"]
    print(f"{summary['benchmark']} · mode {summary['mode']} · {summary['n_items']} items · "
          f"accuracy {overall['accuracy']:.1f}% (unscorable {overall['unscorable']})", file=file)
    shown = PRINTED.get(summary["benchmark"], BREAKDOWNS["generic"])
    for field in shown:
        table = summary.get(f"by_{field}")
        if table:
            print(file=file)
            print(format_table(ACCURACY_HEADERS, accuracy_rows(table), title=f"by {field}"), file=file)
    rest = [k[3:] for k in summary if k.startswith("by_") and k[3:] not in shown]
    if rest:
        print(f"\n(also by {', '.join(rest)} in summary.json)", file=file)


def run(args: argparse.Namespace) -> int:
    from judge.grading import extraction_fields, grade_item, summarise
    from judge.io import write_json_atomic, write_jsonl_atomic
    from judge.llm.options import settings_from_args
    from judge.loaders import load_predicted_items

    items = load_predicted_items(args.predictions, args.benchmark)
    out_dir = output_dir(args)
    # --model serves both the extraction fallback (rows the rules found no answer in)
    # and, with --judge, the reasoning judge; both share DIR/llm_cache.sqlite.
    settings = settings_from_args(args, default_cache=out_dir / "llm_cache.sqlite")
    extracted = [extraction_fields(pi) for pi in items]
    if settings is not None:
        from judge.llm.extract_fallback import apply_llm_fallback

        report = apply_llm_fallback(items, extracted, settings)
        print("\n".join(report.lines()), file=sys.stderr)
    if settings is not None and settings.dry_run:
        if args.judge:
            from judge.commands.judge_cmd import judge_into

            judge_into(items, out_dir, args, source=str(args.predictions))
        return 0  # a dry run spends nothing and writes nothing
    rows = [grade_item(pi, mode=args.mode, benchmark=args.benchmark, extracted=f) for pi, f in zip(items, extracted)]
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
