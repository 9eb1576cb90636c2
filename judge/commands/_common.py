"""Small helpers shared by the command modules."""

from __future__ import annotations

import argparse
from pathlib import Path

#: The paragraph extract and score share in their --help.
LLM_FALLBACK_HELP = """\
With ``--model M`` the rows the rules leave without an answer (reason ``no_answer`` or
``unparsable_*``; never refusals or hedges) go to an LLM, which must return a value of
the row's answer type and a verbatim quote of the response; those rows get
``method: llm``, ``llm_model`` and the quote as ``evidence`` (see ``extractors/llm_fallback.py``).
"""


def existing_file(value: str) -> Path:
    """argparse type: a path that must exist (checked before any work)."""
    p = Path(value)
    if not p.is_file():
        raise argparse.ArgumentTypeError(f"{value}: no such file")
    return p


def add_predictions_arguments(p: argparse.ArgumentParser, *, input_help: str, outputs: str) -> None:
    """The PREDICTIONS / --benchmark / -o DIR arguments of ``grade`` and ``judge``."""
    p.add_argument("predictions", type=existing_file, metavar="PREDICTIONS", help=input_help)
    p.add_argument("--benchmark", required=True, choices=("ocr-reasoning", "map", "generic"))
    p.add_argument("-o", "--output-dir", metavar="DIR", type=Path, default=None,
                   help=f"where {outputs} go (default: runs/<file stem>)")


def output_dir(args: argparse.Namespace) -> Path:
    """The folder ``grade`` and ``judge`` write to: ``-o DIR``, else ``runs/<PREDICTIONS stem>``."""
    return args.output_dir or Path("runs") / args.predictions.stem


def add_rows_arguments(p: argparse.ArgumentParser) -> None:
    """The input / output / --model arguments of ``extract`` and ``score``."""
    from judge.llm.options import add_llm_arguments

    p.add_argument("input", type=existing_file, metavar="IN.jsonl")
    p.add_argument("-o", "--output", metavar="OUT.jsonl", help="output file (default: standard output)")
    add_llm_arguments(p)  # --model M: an LLM reads the rows the rules found no answer in


def extract_rows(pairs: list, args: argparse.Namespace) -> list[dict] | None:
    """Run the rules on every row, then the LLM fallback when ``--model`` is given.

    Returns one dict of extraction fields per row, or None after a dry run (which
    reports the calls it would make and writes nothing).
    """
    import sys

    from judge.grading import extraction_fields
    from judge.llm.options import default_cache_path, settings_from_args

    settings = settings_from_args(args, default_cache=default_cache_path(args.output))
    fields = [extraction_fields(pi) for _, pi in pairs]
    if settings is not None:
        from judge.llm.extract_fallback import apply_llm_fallback

        report = apply_llm_fallback([pi for _, pi in pairs], fields, settings)
        print("\n".join(report.lines()), file=sys.stderr)
        if settings.dry_run:
            return None
    return fields


def write_rows(rows: list[dict], output: str | None) -> None:
    """Write rows to ``output`` atomically, or to standard output when it is None."""
    import sys

    from judge.io import dumps_row, write_jsonl_atomic

    if output:
        write_jsonl_atomic(output, rows)
    else:
        sys.stdout.write("".join(dumps_row(r) + "\n" for r in rows))
