"""The LLM command-line options, identical in every command that calls a model.

``add_llm_arguments(parser)`` adds them; ``settings_from_args(args, default_cache=...)``
turns them into ``LLMSettings`` (None when no ``--model`` was given). Neither imports
litellm; importing this module imports no pydantic either (``reasonjudge --help``).
"""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path
from typing import TYPE_CHECKING, get_args

from judge.errors import ConfigError
from judge.llm.modes import Backend, StructuredMode

if TYPE_CHECKING:
    from judge.llm.types import LLMSettings

#: Options that mean nothing without --model (an error rather than silently ignored).
_NEED_MODEL = ("api_base", "max_calls", "max_cost", "dry_run")


def add_llm_arguments(parser: argparse.ArgumentParser, *, required: bool = False) -> None:
    """Add ``--model`` and the options of the LLM client to ``parser``."""
    g = parser.add_argument_group("LLM")
    g.add_argument("--model", required=required, metavar="M",
                   help="any model litellm can reach: openai/gpt-4.1-mini, anthropic/..., ollama/..., "
                        "hosted_vllm/NAME or openai/NAME with --api-base for your own server")
    g.add_argument("--api-base", metavar="URL", help="base URL of an OpenAI-compatible server, e.g. http://localhost:8000/v1")
    g.add_argument("--concurrency", type=int, default=16, metavar="N", help="calls in flight (default: 16)")
    g.add_argument("--timeout", type=float, default=120.0, metavar="S", help="per-request timeout in seconds (default: 120)")
    g.add_argument("--max-retries", type=int, default=5, metavar="N",
                   help="transport retries per call on 429/5xx/timeouts, with backoff (default: 5)")
    g.add_argument("--max-reasks", type=int, default=2, metavar="N",
                   help="re-asks per call after an invalid structured output (default: 2)")
    g.add_argument("--max-calls", type=int, metavar="N", help="stop cleanly after N calls to the model (cache hits are free)")
    g.add_argument("--max-cost", type=float, metavar="USD", help="stop cleanly once this much is spent")
    g.add_argument("--dry-run", action="store_true", help="count the calls a run would make; make none")
    g.add_argument("--cache", type=Path, metavar="PATH", help="sqlite call cache (default: in the output folder)")
    g.add_argument("--no-cache", action="store_true", help="do not read or write the call cache")
    g.add_argument("--structured-mode", choices=get_args(StructuredMode), default="auto",
                   help="how structured output is requested (default: auto, chosen per provider)")
    g.add_argument("--llm-backend", choices=get_args(Backend), default="auto",
                   help="auto: a light HTTP client for OpenAI-compatible servers, litellm otherwise")
    g.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def default_cache_path(output: str | Path | None) -> Path:
    """The cache a command uses without ``--cache``: beside its output, else the user cache folder."""
    if output:
        return Path(output).parent / "llm_cache.sqlite"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "reasonjudge" / "llm_cache.sqlite"


def settings_from_args(args: argparse.Namespace, *, default_cache: Path | None) -> LLMSettings | None:
    """Return the settings the options describe, or None when no ``--model`` was given."""
    if not getattr(args, "model", None):
        given = [f"--{name.replace('_', '-')}" for name in _NEED_MODEL if getattr(args, name, None)]
        if given:
            raise ConfigError(f"{', '.join(given)} given without --model")
        return None
    for name, low in (("concurrency", 1), ("max_retries", 0), ("max_reasks", 0), ("max_calls", 0)):
        value = getattr(args, name)
        if value is not None and value < low:
            raise ConfigError(f"--{name.replace('_', '-')} must be >= {low}, got {value}")
    for name in ("timeout", "max_cost"):
        value = getattr(args, name)
        if value is not None and (not math.isfinite(value) or value < 0 or (name == "timeout" and value == 0)):
            raise ConfigError(f"--{name.replace('_', '-')} must be a positive number, got {value}")
    from judge.llm.types import LLMSettings  # pydantic: not for --help

    cache = None if args.no_cache else (args.cache or default_cache)
    return LLMSettings(
        model=args.model,
        api_base=args.api_base,
        concurrency=args.concurrency,
        timeout_s=args.timeout,
        max_transport_retries=args.max_retries,
        max_reasks=args.max_reasks,
        structured_mode=args.structured_mode,
        backend=args.llm_backend,
        cache_path=cache,
        max_calls=args.max_calls,
        max_cost=args.max_cost,
        dry_run=args.dry_run,
        progress=not args.no_progress,
    )
