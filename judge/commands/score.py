"""``reasonjudge score IN.jsonl -o OUT.jsonl [--mode strict|official]``: extract, then score against gold.

Input rows are those of ``reasonjudge extract`` plus ``gold`` (a string, or a list of
letters for multi_choice / ordering). Each row is written back with the extraction
fields and ``correct`` (true, false, or null when unscorable); the accuracy and the
number of unscorable rows are printed.

"""

from __future__ import annotations

import argparse
import sys

from judge.commands._common import LLM_FALLBACK_HELP, add_rows_arguments, extract_rows, write_rows
from judge.errors import located


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("score", help="extract final answers and score them against gold",
                       description=__doc__ + "\n" + LLM_FALLBACK_HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_rows_arguments(p)
    p.add_argument("--mode", choices=("strict", "official"), default="strict",
                   help="strict (default): tolerant numbers, units, case folding; "
                        "official: the benchmark's published semantics")
    p.add_argument("--benchmark", choices=("generic", "ocr-reasoning", "map"), default="generic",
                   help="whose official semantics --mode official applies (default: generic)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from judge.grading import score_fields
    from judge.loaders import load_rows
    from judge.summary import accuracy_table

    rows = load_rows(args.input, "generic")
    for _, pi in rows:  # fail before any work if a row cannot be scored at all
        if pi.item.gold is None:
            raise located(pi.item.source, "gold", "required")
    extracted = extract_rows(rows, args)
    if extracted is None:  # dry run
        return 0
    # A row whose LLM fallback call failed is unscorable, not wrong (score_fields says so).
    out = [{**raw, **fields, **score_fields(pi, fields, mode=args.mode, benchmark=args.benchmark)}
           for (raw, pi), fields in zip(rows, extracted)]
    write_rows(out, args.output)
    t = accuracy_table(out)["Overall"]
    print(f"accuracy {t['accuracy']:.1f}% ({t['correct']}/{t['n']}), wrong {t['wrong']}, "
          f"unscorable {t['unscorable']} [mode: {args.mode}]", file=sys.stderr)
    return 0
