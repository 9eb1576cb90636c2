"""``reasonjudge map run | vdi | vdi-compute``: map questions and the Visual Dependency Index.

- ``map run BENCH --model M [-o DIR]``: the standard run (image + question + chain of
  thought), strict exact match by level, category, question type and language
  (``DIR/results.jsonl``, ``DIR/summary.json``).
- ``map vdi BENCH --model M --budgets 64,128,256,512,1024 [-o DIR] [--full RESULTS]``:
  OmniMapBench's protocol: question-agnostic descriptions under each budget, text-only
  answers from them, a blind control; VDI and DSI in ``DIR/vdi.json`` and a table.
- ``map vdi-compute FULL.jsonl TEXT_k.jsonl... [--blind BLIND.jsonl]``: the indices from
  result files that already exist (rows as ``map run`` / ``map vdi`` write them).

BENCH is a map-question JSONL file (``id, image, question, choices, answer,
question_type, level, category, language``). Every call goes through the LLM client:
bounded concurrency, retries, a disk cache (a rerun of a finished job makes no calls)
and cost accounting.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from judge.commands._common import existing_file
from judge.errors import ConfigError


def _budgets(value: str) -> list[int]:
    try:
        ks = [int(v) for v in value.replace(" ", "").split(",") if v]
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"budgets are comma-separated token counts, got {value!r}") from e
    if not ks or any(k < 1 for k in ks):
        raise argparse.ArgumentTypeError(f"budgets must be positive token counts, got {value!r}")
    return ks


def _common_run_options(p: argparse.ArgumentParser) -> None:
    from judge.llm.options import add_llm_arguments

    p.add_argument("bench", type=existing_file, metavar="BENCH", help="map-question JSONL file")
    p.add_argument("-o", "--output-dir", type=Path, metavar="DIR", default=None,
                   help="results folder (default: runs/map-<BENCH stem>)")
    p.add_argument("--max-side", type=int, metavar="PX", default=None,
                   help="downscale images whose longer side exceeds PX pixels (default: native resolution)")
    p.add_argument("--max-tokens", type=int, metavar="N", default=None,
                   help="output limit of the answering calls (default: the provider's)")
    p.add_argument("--temperature", type=float, default=0.0, help="sampling temperature (default: 0)")
    p.add_argument("--mode", choices=("strict", "official"), default="strict", help="scoring mode (default: strict)")
    add_llm_arguments(p, required=True)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("map", help="map questions: standard run, Visual Dependency Index",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    msub = p.add_subparsers(dest="map_command", metavar="MAP_COMMAND")
    msub.required = True

    r = msub.add_parser("run", help="standard run: image + question, exact match by level and category")
    _common_run_options(r)
    r.set_defaults(func=run_standard)

    v = msub.add_parser("vdi", help="the VDI protocol: describe, answer from text, blind control, indices",
                        description="OmniMapBench's Visual Dependency Index protocol (see 'reasonjudge map --help').")
    _common_run_options(v)
    v.add_argument("--budgets", type=_budgets, default=[64, 128, 256, 512, 1024], metavar="K,K,...",
                   help="description budgets in tokens (default: 64,128,256,512,1024)")
    v.add_argument("--full", type=existing_file, metavar="RESULTS", default=None,
                   help="take Acc_full from this standard-run results file instead of running it")
    v.add_argument("--no-blind", action="store_true", help="skip the blind control")
    v.add_argument("--tokenizer", default="o200k_base", metavar="ENCODING",
                   help="tiktoken encoding counting a description when the provider reports no usage "
                        "(default: o200k_base)")
    v.set_defaults(func=run_vdi)

    c = msub.add_parser("vdi-compute", help="VDI and DSI from existing result files")
    c.add_argument("full", type=existing_file, metavar="FULL.jsonl", help="standard-run results")
    c.add_argument("text", type=existing_file, nargs="+", metavar="TEXT_k.jsonl",
                   help="text-only results (rows carry budget and k_actual)")
    c.add_argument("--blind", type=existing_file, metavar="BLIND.jsonl", default=None, help="blind-control results")
    c.add_argument("-o", "--output", type=Path, metavar="FILE", default=None,
                   help="where to write the report (default: vdi.json beside FULL.jsonl)")
    c.set_defaults(func=run_vdi_compute)


def _setup(args: argparse.Namespace):  # noqa: ANN202 - (items, out_dir, client, config)
    from judge.llm import make_client
    from judge.llm.options import settings_from_args
    from judge.loaders import load_items
    from judge.maps.run import MapRunConfig, check_items

    if args.max_side is not None and args.max_side < 1:
        raise ConfigError(f"--max-side must be a positive number of pixels, got {args.max_side}")
    if args.max_tokens is not None and args.max_tokens < 1:
        raise ConfigError(f"--max-tokens must be positive, got {args.max_tokens}")
    items = load_items(args.bench, "map")
    check_items(items, max_side=args.max_side)  # every image readable before any client or cache exists
    out_dir = args.output_dir or Path("runs") / f"map-{args.bench.stem}"
    settings = settings_from_args(args, default_cache=out_dir / "llm_cache.sqlite")
    config = MapRunConfig(model=settings.model, max_side=args.max_side, max_tokens=args.max_tokens,
                          temperature=args.temperature, scoring=args.mode, concurrency=settings.concurrency,
                          progress=settings.progress)
    return items, out_dir, make_client(settings), config


def _calls_line(stats: dict, client) -> str:  # noqa: ANN001
    by_tag = ", ".join(f"{t} {n}" for t, n in stats["sent"].items()) or "none"
    return f"calls made: {stats['calls_sent']} ({by_tag}); from cache: {sum(stats['cached'].values())}\n" + \
        client.stats.summary()


def run_standard(args: argparse.Namespace) -> int:
    from judge.maps.breakdown import breakdown, format_breakdown
    from judge.maps.run import run_full, write_summary

    items, out_dir, client, config = _setup(args)
    try:
        outcome = run_full(items, client, results_path=out_dir / "results.jsonl", config=config)
    finally:
        client.close()
    if outcome.missing:
        print(_calls_line(outcome.stats, client), file=sys.stderr)
        print(f"{outcome.missing} of {len(items)} items were not run (dry run or --max-calls/--max-cost); "
              "rerun to continue", file=sys.stderr)
        return 0 if client.settings.dry_run else 1
    write_summary(out_dir / "summary.json", outcome.rows, config=config, stats=outcome.stats, source=str(args.bench))
    title = f"map · model {config.model} · images {config.image_policy} · scoring {config.scoring}"
    print(format_breakdown(breakdown(outcome.rows), title=title))
    print()
    print(_calls_line(outcome.stats, client))
    print(f"\nwrote {out_dir / 'results.jsonl'} and {out_dir / 'summary.json'}", file=sys.stderr)
    return 0


def run_vdi(args: argparse.Namespace) -> int:
    from judge.maps.indices import format_report
    from judge.maps.vdi import run_vdi as protocol

    items, out_dir, client, config = _setup(args)
    try:
        outcome = protocol(items, client, out_dir=out_dir, config=config, budgets=args.budgets,
                           full_results=args.full, blind=not args.no_blind, encoding=args.tokenizer)
    finally:
        client.close()
    if outcome.report is None:
        print(_calls_line(outcome.stats.as_dict(), client), file=sys.stderr)
        if client.settings.dry_run:
            print(f"dry run: the describer and answering calls above are counted; the text-only answers "
                  f"(up to {len(items) * len(args.budgets)}) come after the descriptions", file=sys.stderr)
            return 0
        print(f"{sum(outcome.stats.not_run.values())} calls were not made (--max-calls/--max-cost) and "
              f"{outcome.missing} result rows are missing; rerun to continue", file=sys.stderr)
        return 1
    print(format_report(outcome.report))
    print()
    print(_calls_line(outcome.stats.as_dict(), client))
    print(f"\nwrote {out_dir / 'vdi.json'}", file=sys.stderr)
    return 0


def run_vdi_compute(args: argparse.Namespace) -> int:
    from judge.errors import InputError
    from judge.io import write_json_atomic
    from judge.maps.indices import compute_indices, format_report
    from judge.maps.vdi import read_rows, read_text_results

    full = read_rows(args.full, mode="full")
    text = read_text_results(args.text)
    blind = read_rows(args.blind, mode="blind") if args.blind else None
    models = sorted({str(r["model"]) for r in full if r.get("model")})
    try:
        report = compute_indices(full, text, blind_rows=blind, reference_model=", ".join(models) or None)
    except ValueError as e:
        raise InputError(str(e)) from e
    out = args.output or args.full.parent / "vdi.json"
    write_json_atomic(out, {**report.model_dump(), "full_results": str(args.full),
                            "text_results": [str(p) for p in args.text],
                            "blind_results": str(args.blind) if args.blind else None})
    print(format_report(report))
    print(f"\nwrote {out}", file=sys.stderr)
    return 0
