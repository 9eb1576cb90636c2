"""``reasonjudge judge PREDICTIONS --benchmark B [--rubric NAME] [--model M] [-o DIR]``.

Grades the reasoning of every response against a rubric and writes
``DIR/judgments.jsonl`` (one row per item: scores per criterion, item score, first-error
step, rationale, rubric name and version, judge model, prompt version, sampling, tokens,
cost, error) and ``DIR/judge_summary.json`` (mean item score x 100 per ability, per task
and overall, with the counts scored and unscored), and prints the summary.

With ``--model`` an LLM judges through the rubric (``--samples k`` for k verdicts at
temperature > 0, aggregated, with their spread; ``--logprobs`` for logprob-weighted
expected scores). Without ``--model`` the deterministic reference-coverage scorer runs
instead, and every row and the summary say so: it is not an LLM judge.

The results file is append-only: a rerun skips items already judged and makes no calls
for them; calls are cached in ``DIR/llm_cache.sqlite`` (``--cache`` to move it).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from judge.commands._common import add_predictions_arguments, output_dir

RESULTS = "judgments.jsonl"
SUMMARY = "judge_summary.json"


def add_judge_arguments(p: argparse.ArgumentParser) -> None:
    """The judge's own options (shared with ``reasonjudge grade --judge``)."""
    g = p.add_argument_group("reasoning judge")
    g.add_argument("--rubric", default=None, metavar="NAME",
                   help="a shipped rubric (see `reasonjudge rubrics`) or a .toml file "
                        "(default: reasoning-trajectory; ignored by the no-model scorer)")
    g.add_argument("--samples", type=int, default=1, metavar="K",
                   help="verdicts per item at temperature > 0, aggregated (default: 1, at temperature 0)")
    g.add_argument("--temperature", type=float, default=None, metavar="T",
                   help="sampling temperature (default: 0 for one sample, 0.7 for several)")
    g.add_argument("--aggregate", choices=("mean", "median"), default="mean",
                   help="how k samples' scale scores combine (default: mean)")
    g.add_argument("--logprobs", action="store_true",
                   help="ask for token logprobs and report logprob-weighted expected scores")
    g.add_argument("--max-tokens", type=int, default=None, metavar="N",
                   help="cap on the judge's output tokens (default: the provider's)")


def register(sub: argparse._SubParsersAction) -> None:
    from judge.llm.options import add_llm_arguments

    p = sub.add_parser("judge", help="grade the reasoning of responses against a rubric",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_predictions_arguments(p, input_help=".jsonl, .tsv or .xlsx with responses (and reference reasoning)",
                              outputs=f"{RESULTS} and {SUMMARY}")
    add_judge_arguments(p)
    add_llm_arguments(p)
    p.set_defaults(func=run)


def check_judge_options(args: argparse.Namespace, *, has_model: bool) -> None:
    """Refuse options that mean nothing for the chosen judge, before any work."""
    from judge.errors import ConfigError

    if args.samples < 1:
        raise ConfigError(f"--samples must be >= 1, got {args.samples}")
    if args.temperature is not None and not 0 <= args.temperature <= 2:
        raise ConfigError(f"--temperature must be within [0, 2], got {args.temperature}")
    if args.samples > 1 and args.temperature == 0:
        raise ConfigError("--samples > 1 needs --temperature > 0 (k identical samples tell nothing)")
    if not has_model:
        given = [flag for flag, on in (("--samples", args.samples != 1), ("--temperature", args.temperature is not None),
                                       ("--logprobs", args.logprobs), ("--max-tokens", args.max_tokens is not None),
                                       ("--aggregate", args.aggregate != "mean")) if on]
        if given:
            raise ConfigError(f"{', '.join(given)} given without --model (the reference-coverage scorer makes no calls)")


def judge_into(items, out_dir: Path, args: argparse.Namespace, *, source: str) -> dict | None:
    """Judge ``items`` into ``out_dir`` (append-only, resumable); return the summary (None if no row yet)."""
    from judge.io import ResultsLog, write_json_atomic
    from judge.judging_summary import summarise_judgments
    from judge.llm.options import settings_from_args
    from judge.rubric_judge import judge_items
    from rubrics import DEFAULT_RUBRIC, load_rubric

    settings = settings_from_args(args, default_cache=out_dir / "llm_cache.sqlite")
    check_judge_options(args, has_model=settings is not None)
    rubric = load_rubric(args.rubric or DEFAULT_RUBRIC)
    if settings is None and args.rubric:
        print(f"note: no --model, so the deterministic reference-coverage scorer runs; "
              f"rubric '{rubric.name}' is not used", file=sys.stderr)
    if settings is not None:
        from judge.rubric_judge import check_items

        check_items(items, rubric)  # a missing reference fails before any call

    log = ResultsLog(out_dir / RESULTS)
    pending = [pi for pi in items if pi.item.id not in log.done]
    client = None
    try:
        if settings is not None:
            from judge.llm import make_client

            client = make_client(settings)
        _check_same_setup(log, items, rubric, args, client)
        judge_items(pending, rubric, llm=client, samples=args.samples, temperature=args.temperature,
                    aggregate=args.aggregate, logprobs=args.logprobs, max_tokens=args.max_tokens,
                    concurrency=settings.concurrency if settings else 16, on_row=log.append,
                    progress=bool(settings and settings.progress))
    finally:
        log.close()
        if client is not None:
            print(client.stats.summary(), file=sys.stderr)
            client.close()
    ids = [pi.item.id for pi in items]
    rows = [log.rows[i] for i in ids if i in log.rows]
    missing = len(ids) - len(rows)
    if not rows:
        return None  # dry run, or a budget that allowed no call: nothing to summarise yet
    summary = summarise_judgments(rows, source=source)
    summary["n_not_judged"] = missing
    write_json_atomic(out_dir / SUMMARY, summary)
    return summary


def _check_same_setup(log, items, rubric, args, client) -> None:
    """A results file holds one judge setup: refuse to append rows of another one."""
    from judge.coverage import REFERENCE_COVERAGE
    from judge.errors import ConfigError
    from judge.rubric_judge import judge_setup

    if not log.rows:
        return
    if client is None:
        want = {"judge": REFERENCE_COVERAGE, "rubric": REFERENCE_COVERAGE}
    else:
        want = judge_setup(rubric, judge=client.settings.model, samples=args.samples, temperature=args.temperature,
                           aggregate=args.aggregate, logprobs=args.logprobs)
    old = next(iter(log.rows.values()))
    diff = [k for k, v in want.items() if old.get(k) != v]
    if diff:
        raise ConfigError(
            f"{log.path} holds results of another judge setup ({', '.join(f'{k}: {old.get(k)!r}' for k in diff)}); "
            "use another --output-dir")


def run(args: argparse.Namespace) -> int:
    from judge.judging_summary import format_summary
    from judge.loaders import load_predicted_items

    items = load_predicted_items(args.predictions, args.benchmark)
    out_dir = output_dir(args)
    summary = judge_into(items, out_dir, args, source=str(args.predictions))
    if summary is None:
        print(f"no item judged yet (dry run or budget): nothing written to {out_dir}", file=sys.stderr)
        return 0
    print(format_summary(summary))
    if summary["n_not_judged"]:
        print(f"\n{summary['n_not_judged']} item(s) not judged (dry run or budget): rerun to continue",
              file=sys.stderr)
    print(f"\nwrote {out_dir / RESULTS} and {out_dir / SUMMARY}", file=sys.stderr)
    return 0
