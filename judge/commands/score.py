"""``reasonjudge score IN.jsonl -o OUT.jsonl [--mode strict|official]``: extract, then score against gold.

Input rows are those of ``reasonjudge extract`` plus ``gold`` (a string, or a list of
letters for multi_choice / ordering). Each row is written back with the extraction
fields and ``correct`` (true, false, or null when unscorable); the accuracy and the
number of unscorable rows are printed.

With ``--model M`` the rows the rules leave without an answer (reason ``no_answer`` or
``unparsable_*``; never refusals or hedges) go to an LLM, which must return a value of
the row's answer type and a verbatim quote of the response; those rows get
``method: llm``, ``llm_model`` and the quote as ``evidence`` (see ``extractors/llm_fallback.py``).
"""

from __future__ import annotations

import argparse
import sys

from judge.commands._common import existing_file, located


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("score", help="extract final answers and score them against gold",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", type=existing_file, metavar="IN.jsonl")
    p.add_argument("-o", "--output", metavar="OUT.jsonl", help="output file (default: standard output)")
    p.add_argument("--mode", choices=("strict", "official"), default="strict",
                   help="strict (default): tolerant numbers, units, case folding; "
                        "official: the benchmark's published semantics")
    p.add_argument("--benchmark", choices=("generic", "ocr-reasoning", "map"), default="generic",
                   help="whose official semantics --mode official applies (default: generic)")
    from judge.llm.options import add_llm_arguments

    add_llm_arguments(p)  # --model M: an LLM reads the rows the rules found no answer in
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from judge.grading import extraction_fields, score_fields
    from judge.io import dumps_row, write_jsonl_atomic
    from judge.loaders import load_rows
    from judge.summary import accuracy_table

    rows = load_rows(args.input, "generic")
    for _, pi in rows:  # fail before any work if a row cannot be scored at all
        if pi.item.gold is None:
            raise located(pi.item.source, "gold", "required")
    from judge.llm.options import default_cache_path, settings_from_args

    settings = settings_from_args(args, default_cache=default_cache_path(args.output))
    extracted = [extraction_fields(pi) for _, pi in rows]
    if settings is not None:
        from judge.llm.extract_fallback import apply_llm_fallback

        report = apply_llm_fallback([pi for _, pi in rows], extracted, settings)
        print("\n".join(report.lines()), file=sys.stderr)
        if settings.dry_run:
            return 0
    out = []
    for (raw, pi), fields in zip(rows, extracted):
        if fields.get("error"):  # the LLM call failed: unscorable, not wrong
            fields.update(correct=None, mode=args.mode)
        else:
            fields.update(score_fields(pi, fields, mode=args.mode, benchmark=args.benchmark))
        out.append({**raw, **fields})
    if args.output:
        write_jsonl_atomic(args.output, out)
    else:
        sys.stdout.write("".join(dumps_row(r) + "\n" for r in out))
    t = accuracy_table(out)["Overall"]
    print(f"accuracy {t['accuracy']:.1f}% ({t['correct']}/{t['n']}), wrong {t['wrong']}, "
          f"unscorable {t['unscorable']} [mode: {args.mode}]", file=sys.stderr)
    return 0
