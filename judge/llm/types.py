"""What callers of the LLM layer see: a call spec, a call result, usage, settings.

This module imports neither litellm nor instructor: the reasoning judge, the map
protocol and the extraction fallback are written against these types (and the
``StructuredLLM`` protocol), and tests can pass a scripted fake in place of the client.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Generic, Literal, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from judge.llm.modes import Backend, StructuredMode

T = TypeVar("T", bound=BaseModel)

#: Why a call has no value. ``transport``: 429/5xx/timeouts/connection errors outlived
#: the retries; ``refused``: the provider rejected the request (4xx: key, model, context
#: length); ``invalid_output``: the structured output stayed invalid after the re-asks,
#: or was truncated. These are real failures: the item gets a row with ``error``.
#: ``budget`` (--max-calls/--max-cost reached) and ``dry_run`` are not: write no row, so
#: that a rerun with a larger budget continues where this one stopped.
ErrorKind = Literal["transport", "refused", "invalid_output", "budget", "dry_run"]


class LLMSettings(BaseModel):
    """How to reach a model and how hard to try. Frozen: one per run."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str
    api_base: str | None = None
    concurrency: int = Field(default=16, ge=1)
    timeout_s: float = Field(default=120.0, gt=0)
    #: Transport failures (429, 5xx, timeouts, connection errors) retried per call.
    max_transport_retries: int = Field(default=5, ge=0)
    #: Re-asks after malformed or invalid structured output, per call.
    max_reasks: int = Field(default=2, ge=0)
    structured_mode: StructuredMode = "auto"
    cache_path: Path | None = None
    #: Stop after this many calls sent to the model (cache hits are free; re-asks and
    #: transport retries of a call are part of that call).
    max_calls: int | None = Field(default=None, ge=0)
    #: Stop starting calls once this much (USD) is spent; calls in flight may finish.
    max_cost: float | None = Field(default=None, ge=0)
    dry_run: bool = False
    progress: bool = True
    backend: Backend = "auto"
    #: Exponential backoff with jitter between transport retries: first wait, cap.
    retry_backoff_s: float = Field(default=1.0, ge=0)
    retry_backoff_max_s: float = Field(default=30.0, ge=0)
    #: A server's Retry-After is honoured up to this many seconds.
    max_retry_after_s: float = Field(default=60.0, ge=0)


class CallSpec(BaseModel):
    """One request: messages in OpenAI chat format (text and ``image_url`` parts).

    Everything here goes into the cache key, together with the model and the output
    schema; ``prompt_version`` changes whenever a prompt template changes.
    ``sample_index`` tells apart k samples of the same prompt at temperature > 0.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    messages: list[dict[str, Any]]
    prompt_version: str
    temperature: float = 0.0
    max_tokens: int | None = None
    top_logprobs: int | None = None
    seed: int | None = None
    sample_index: int = 0
    #: A label for accounting and progress ("judge", "describe", "extract", ...).
    tag: str = "call"

    def sampling_params(self) -> dict[str, Any]:
        """Return the OpenAI chat parameters this spec sets (both paths send the same ones)."""
        params: dict[str, Any] = {"temperature": self.temperature}
        if self.max_tokens is not None:
            params["max_tokens"] = self.max_tokens
        if self.seed is not None:
            params["seed"] = self.seed
        if self.top_logprobs is not None:
            params["logprobs"] = True
            if self.top_logprobs > 0:
                params["top_logprobs"] = self.top_logprobs
        return params


class Usage(BaseModel):
    """Tokens always (when the provider reports them); cost only when it is known.

    ``cost_usd`` is None when litellm does not know the model's price: unknown is
    never reported as 0.
    """

    model_config = ConfigDict(extra="forbid")

    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cost_usd: float | None = None


class CallResult(BaseModel, Generic[T]):
    """The outcome of one call after all retries. ``error`` set means no value.

    ``usage`` sums every request the call made (re-asks included); for a cached result it
    is the usage of the call that filled the cache. ``error_kind`` says whether the
    failure is real (write a row with ``error``) or a budget stop / dry run (write none).
    """

    model_config = ConfigDict(extra="forbid")

    value: T | None = None
    text: str | None = None
    finish_reason: str | None = None
    usage: Usage = Field(default_factory=Usage)
    #: Per generated token: {"token": str, "logprob": float, "top": [{"token","logprob"}...]}
    logprobs: list[dict[str, Any]] | None = None
    cached: bool = False
    error: str | None = None
    error_kind: ErrorKind | None = None
    transport_retries: int = 0
    reasks: int = 0
    model: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def not_run(self) -> bool:
        """True when the call was skipped (budget reached, dry run), not failed: it gets no
        row, so a rerun with a larger budget continues from it."""
        return self.error_kind in ("budget", "dry_run")


class StructuredLLM(Protocol):
    """The one capability consumers need: complete a spec, optionally into a model.

    ``validation_context`` is passed to pydantic validation (``info.context``), so a
    response model can check, for example, that an evidence quote occurs in the text
    being graded; a validation failure is re-asked within the re-ask budget.
    Failures never raise: they come back as ``CallResult(error=...)``.
    """

    async def acomplete(
        self,
        spec: CallSpec,
        response_model: type[T] | None = None,
        *,
        validation_context: dict[str, Any] | None = None,
    ) -> CallResult[T]: ...
