"""``reasonjudge extract IN.jsonl -o OUT.jsonl``: pull the final answer out of each response.

Input rows: ``id``, ``response``, ``answer_type`` (one of ``choice, multi_choice,
ordering, integer, float, currency, percent, time, duration, yes_no, text``),
optional ``choices`` (option texts, lettered A, B, ... in order) and ``question``.
Each row is written back with ``answer`` (normalised, or null), ``reason`` (why null),
``method`` (the rule that fired) and ``evidence`` (the span it came from).

With ``--model M`` the rows the rules leave without an answer (reason ``no_answer`` or
``unparsable_*``; never refusals or hedges) go to an LLM, which must return a value of
the row's answer type and a verbatim quote of the response; those rows get
``method: llm``, ``llm_model`` and the quote as ``evidence`` (see ``extractors/llm_fallback.py``).
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
    from judge.llm.options import add_llm_arguments

    add_llm_arguments(p)  # --model M: an LLM reads the rows the rules found no answer in
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from judge.grading import extraction_fields
    from judge.io import dumps_row, write_jsonl_atomic
    from judge.llm.options import default_cache_path, settings_from_args
    from judge.loaders import load_rows

    settings = settings_from_args(args, default_cache=default_cache_path(args.output))
    rows = load_rows(args.input, "generic")
    fields = [extraction_fields(pi) for _, pi in rows]
    if settings is not None:
        from judge.llm.extract_fallback import apply_llm_fallback

        report = apply_llm_fallback([pi for _, pi in rows], fields, settings)
        print("\n".join(report.lines()), file=sys.stderr)
        if settings.dry_run:
            return 0
    out = [{**raw, **f} for (raw, _), f in zip(rows, fields)]
    if args.output:
        write_jsonl_atomic(args.output, out)
        found = sum(r["answer"] is not None for r in out)
        print(f"extracted {found} of {len(out)} answers -> {args.output}", file=sys.stderr)
    else:
        sys.stdout.write("".join(dumps_row(r) + "\n" for r in out))
    return 0
