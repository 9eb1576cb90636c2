"""The ``reasonjudge`` command: a thin dispatcher over ``judge.commands``.

Each subcommand lives in its own module under ``judge/commands/`` and exposes
``register(subparsers)``, which adds its parser and sets ``func`` to a function
``run(args) -> int``. Command modules import heavy libraries (litellm, sklearn, ...)
inside ``run`` only, so ``reasonjudge --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from judge import __version__
from judge.errors import ReasonJudgeError

#: Subcommand modules, in the order ``--help`` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "judge.commands.extract",
    "judge.commands.score",
    "judge.commands.grade",
    "judge.commands.judge_cmd",
    "judge.commands.rubrics_cmd",
    "judge.commands.agree",
    "judge.commands.calibrate",
    "judge.commands.map_cmd",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reasonjudge",
        description="Grade LLM outputs on reasoning benchmarks: extract and score final answers, "
        "judge reasoning against a reference trajectory, measure judge-human agreement.",
    )
    parser.add_argument("--version", action="version", version=f"reasonjudge {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return the exit status (2 for user errors, as argparse does)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except ReasonJudgeError as e:
        print(f"reasonjudge: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("reasonjudge: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # Output piped into `head` and closed early: not an error of ours. Point stdout
        # at devnull so the interpreter's final flush does not raise again.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
