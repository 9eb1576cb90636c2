"""``reasonjudge extract IN.jsonl -o OUT.jsonl``: pull the final answer out of each response.

Input rows: ``id``, ``response``, ``answer_type`` (one of ``choice, multi_choice,
ordering, integer, float, currency, percent, time, duration, yes_no, text``),
optional ``choices`` (option texts, lettered A, B, ... in order) and ``question``.
Each row is written back with ``answer`` (normalised, or null), ``reason`` (why null),
``method`` (the rule that fired) and ``evidence`` (the span it came from).

"""

from __future__ import annotations

import argparse
import sys

from judge.commands._common import LLM_FALLBACK_HELP, add_rows_arguments, extract_rows, write_rows


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("extract", help="extract and normalise final answers from responses",
                       description=__doc__ + "\n" + LLM_FALLBACK_HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_rows_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from judge.loaders import load_rows

    rows = load_rows(args.input, "generic")
    fields = extract_rows(rows, args)
    if fields is None:  # dry run
        return 0
    out = [{**raw, **f} for (raw, _), f in zip(rows, fields)]
    write_rows(out, args.output)
    if args.output:
        found = sum(r["answer"] is not None for r in out)
        print(f"extracted {found} of {len(out)} answers -> {args.output}", file=sys.stderr)
    return 0
