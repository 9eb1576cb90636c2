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

from judge.commands._common import existing_file


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("extract", help="extract and normalise final answers from responses",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", type=existing_file, metavar="IN.jsonl")
    p.add_argument("-o", "--output", metavar="OUT.jsonl", help="output file (default: standard output)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from judge.grading import extraction_fields
    from judge.io import dumps_row, write_jsonl_atomic
    from judge.loaders import load_rows

    rows = load_rows(args.input, "generic")
    out = []
    for raw, pi in rows:
        out.append({**raw, **extraction_fields(pi)})
    if args.output:
        write_jsonl_atomic(args.output, out)
        found = sum(r["answer"] is not None for r in out)
        print(f"extracted {found} of {len(out)} answers -> {args.output}", file=sys.stderr)
    else:
        sys.stdout.write("".join(dumps_row(r) + "\n" for r in out))
    return 0
