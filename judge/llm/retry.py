"""The transport retry policy: which failures are retried, and how long to wait.

One owner for transport retries (litellm is called with ``max_retries=0``): 429, 408,
409, 5xx, timeouts, connection errors and torn response bodies are retried with
exponential backoff and jitter, waiting at least the server's ``Retry-After`` (or
OpenAI's ``retry-after-ms``) when it sends one. Other 4xx are not retried: the
request itself is wrong (bad key, unknown model, context too long). Re-asks after an
invalid structured output are a separate budget, counted separately (``CallState``).
"""

from __future__ import annotations

import email.utils
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from tenacity import (AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt, wait_exponential,
                      wait_random)

from judge.llm.types import LLMSettings, Usage

R = TypeVar("R")

_RETRYABLE_STATUS = frozenset({408, 409, 429})


class TransportError(Exception):
    """A request failed in transit or with a retryable status; may carry Retry-After."""

    def __init__(self, message: str, *, status: int | None = None, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


class RequestRefused(Exception):
    """The provider rejected the request (4xx other than 408/409/429): not retried."""

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


def is_retryable_status(status: int) -> bool:
    return status in _RETRYABLE_STATUS or status >= 500


def retry_after_seconds(headers: Mapping[str, str] | None) -> float | None:
    """Read ``retry-after-ms`` or ``Retry-After`` (seconds or an HTTP date); None if absent."""
    if not headers:
        return None
    ms = headers.get("retry-after-ms") or headers.get("Retry-After-Ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after") or headers.get("Retry-After")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, email.utils.parsedate_to_datetime(value).timestamp() - time.time())
    except (ValueError, TypeError):
        return None  # a header we cannot read: fall back to our own backoff, still retry


@dataclass
class CallState:
    """What one logical call spent: requests, retries, re-asks, tokens, cost."""

    requests: int = 0
    transport_retries: int = 0
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    #: None once a request's cost was unknown: the total is then unknown too.
    cost_usd: float | None = 0.0
    replies: int = 0
    #: The transport failure the call gave up on (the litellm path re-raises it from
    #: under instructor, which would otherwise report it as an invalid output).
    gave_up: TransportError | RequestRefused | None = None

    @property
    def reasks(self) -> int:
        return max(0, self.replies - 1)

    def add_usage(self, prompt_tokens: int | None, completion_tokens: int | None, cost: float | None) -> None:
        self.replies += 1
        if prompt_tokens is not None:
            self.prompt_tokens = (self.prompt_tokens or 0) + prompt_tokens
        if completion_tokens is not None:
            self.completion_tokens = (self.completion_tokens or 0) + completion_tokens
        self.cost_usd = None if cost is None or self.cost_usd is None else self.cost_usd + cost

    def usage(self) -> Usage:
        """Return the usage summed over every reply (cost unknown when there was none)."""
        return Usage(prompt_tokens=self.prompt_tokens, completion_tokens=self.completion_tokens,
                     cost_usd=self.cost_usd if self.replies else None)


def _wait(settings: LLMSettings) -> Callable[[RetryCallState], float]:
    # Exponential from retry_backoff_s up to the cap, plus up to one base step of jitter.
    backoff = (wait_exponential(multiplier=settings.retry_backoff_s, max=settings.retry_backoff_max_s)
               + wait_random(0, settings.retry_backoff_s))

    def wait(rs: RetryCallState) -> float:
        exc = rs.outcome.exception() if rs.outcome is not None else None
        after = getattr(exc, "retry_after", None)
        if after is not None:
            # The server said when; waiting less gets another 429, waiting more wastes time.
            return min(after, settings.max_retry_after_s)
        return backoff(rs)

    return wait


async def with_transport_retries(send: Callable[[], Awaitable[R]], settings: LLMSettings,
                                 state: CallState) -> R:
    """Await ``send()`` until it succeeds or the transport budget is spent.

    Retries ``TransportError`` only; the last one is re-raised. Counts requests and
    retries into ``state``. The first attempt runs outside tenacity: most calls succeed
    at once, and building a retry loop per call costs measurable CPU at hundreds of
    calls per second.
    """
    state.requests += 1
    try:
        return await send()
    except TransportError as e:
        if settings.max_transport_retries == 0:
            raise
        failed: list[TransportError] = [e]

    async def attempt() -> R:
        if failed:  # tenacity's first attempt replays the failure above, then waits
            raise failed.pop()
        state.requests += 1
        return await send()

    def before_sleep(rs: RetryCallState) -> None:
        state.transport_retries += 1

    retrying = AsyncRetrying(
        stop=stop_after_attempt(settings.max_transport_retries + 1),
        retry=retry_if_exception(lambda e: isinstance(e, TransportError)),
        wait=_wait(settings),
        before_sleep=before_sleep,
        reraise=True,
    )
    return await retrying(attempt)
