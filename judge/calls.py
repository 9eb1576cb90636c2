"""Send a batch of calls through the LLM client, bounded, with progress and accounting.

The client (``judge.llm``) owns retries, caching and cost; this module only fans a
batch out under a concurrency bound, hands each result to its job's callback as soon as
it arrives (so that rows are appended as they finish and a killed run resumes), and
counts what happened: calls sent, cache hits, failures, and calls not made because a
``--max-calls`` / ``--max-cost`` budget ran out or the run is a dry run. Shared by the
map runs and the rubric judge (which also uses ``run_sync``; ``CallResult.not_run`` tells a skipped call from a failed one).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from judge.llm.types import CallResult, CallSpec, StructuredLLM

T = TypeVar("T")

@dataclass(frozen=True)
class Job:
    """One call and what to do with its result."""

    spec: CallSpec
    on_result: Callable[[CallResult[Any]], None]


@dataclass
class CallStats:
    """What a batch (or a whole run) did, by tag (``full``, ``describe``, ``text``, ``blind``)."""

    sent: dict[str, int] = field(default_factory=dict)
    cached: dict[str, int] = field(default_factory=dict)
    failed: dict[str, int] = field(default_factory=dict)
    not_run: dict[str, int] = field(default_factory=dict)

    def add(self, tag: str, result: CallResult[Any]) -> None:
        if result.not_run:
            bucket = self.not_run
        elif result.cached:
            bucket = self.cached
        else:
            bucket = self.sent
        bucket[tag] = bucket.get(tag, 0) + 1
        if result.error is not None and not result.not_run:
            self.failed[tag] = self.failed.get(tag, 0) + 1

    @property
    def calls_sent(self) -> int:
        """Requests that reached the model (not cache hits, not skipped)."""
        return sum(self.sent.values())

    def as_dict(self) -> dict[str, Any]:
        return {"calls_sent": self.calls_sent, "sent": self.sent, "cached": self.cached,
                "failed": self.failed, "not_run": self.not_run}


async def run_jobs(llm: StructuredLLM, jobs: Sequence[Job], *, concurrency: int, stats: CallStats,
                   desc: str = "calls", progress: bool = True) -> None:
    """Run every job's call, at most ``concurrency`` at a time; callbacks run as results arrive.

    A client with a batch runner (``judge.llm.LLMClient.arun``: its own concurrency bound
    and progress bar) is used through it; any other ``StructuredLLM`` (a scripted fake)
    gets a semaphore and a progress bar here.
    """
    if not jobs:
        return

    def finished(i: int, result: CallResult[Any]) -> None:
        stats.add(jobs[i].spec.tag, result)
        jobs[i].on_result(result)

    arun = getattr(llm, "arun", None)
    if arun is not None:
        await arun([(j.spec,) for j in jobs], desc=desc, on_result=finished)
        return
    gate = asyncio.Semaphore(max(1, concurrency))
    from tqdm import tqdm  # lazy: only runs that call a model need it

    bar = tqdm(total=len(jobs), desc=desc, file=sys.stderr, disable=not progress, dynamic_ncols=True)

    async def one(i: int) -> None:
        async with gate:
            result = await llm.acomplete(jobs[i].spec)
        finished(i, result)
        bar.update(1)

    try:
        await asyncio.gather(*(one(i) for i in range(len(jobs))))
    finally:
        bar.close()


async def close_llm(llm: StructuredLLM) -> None:
    """Release the client's HTTP session bound to this event loop, if it has one."""
    aclose = getattr(llm, "aclose", None)
    if aclose is not None:
        await aclose()


def run_sync(llm: StructuredLLM, start: Callable[[], Awaitable[T]]) -> T:
    """Run ``start()`` in a fresh event loop; release the client's session for that loop at the end."""
    async def main() -> T:
        try:
            return await start()
        finally:
            await close_llm(llm)

    return asyncio.run(main())
