"""The LLM client every command uses: cache, budget, concurrency, accounting, progress.

``make_client(settings)`` returns an ``LLMClient``. ``await client.acomplete(spec, Model,
validation_context=...)`` makes one call; ``client.run(jobs, desc=...)`` makes many with
bounded concurrency and a progress bar, results in input order. Failures never raise:
they come back as ``CallResult(error=..., error_kind=...)``.

One call, in order: the disk cache (a hit is re-validated with the current model and
context, and costs nothing; a request identical to one in flight waits for that one and
reads its reply from the cache); the dry-run and budget guards (no row for those); then
the backend, which owns transport retries and re-asks (``judge.llm.openai_http`` for
OpenAI-compatible servers, ``judge.llm.via_litellm`` for everything else); then the
cache write, committed before the result is returned, so a killed run never repeats a
finished call.

A command's use of it::

    from judge.llm import CallSpec, Job, make_client
    from judge.llm.options import settings_from_args

    settings = settings_from_args(args, default_cache=out_dir / "llm_cache.sqlite")
    with make_client(settings) as client:
        jobs = [Job(CallSpec(messages=..., prompt_version="judge-3"), Verdict, {"response": text}) ...]
        for i, r in enumerate(client.run(jobs, desc="judging")):
            if r.not_run:
                continue                        # no row: a rerun continues from here
            row = {"error": r.error} if r.error else {"score": r.value.score, "tokens": r.usage, ...}
        print(client.stats.summary(), file=sys.stderr)
"""

from __future__ import annotations

import asyncio
import sys
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple, Protocol

from pydantic import BaseModel

from judge.errors import ConfigError
from judge.llm.cache import CachedReply, CallCache, cache_key
from judge.llm.providers import Route, resolve_route
from judge.llm.retry import CallState, RequestRefused, TransportError
from judge.llm.structured import OutputInvalid, OutputTruncated, parse, schema_json
from judge.llm.types import CallResult, CallSpec, LLMSettings


class Job(NamedTuple):
    """One call of a batch: a spec, optionally a response model and its validation context."""

    spec: CallSpec
    response_model: type[BaseModel] | None = None
    validation_context: dict[str, Any] | None = None


class LLMStats(BaseModel):
    """What a client has done so far.

    ``calls`` are calls sent to the model (cache misses); ``requests`` counts every HTTP
    request, transport retries and re-asks included. ``cost_usd`` is what this run spent
    (cache hits are free); it is None as soon as one call's cost was unknown.
    """

    calls: int = 0
    requests: int = 0
    cache_hits: int = 0
    transport_retries: int = 0
    reasks: int = 0
    failures: int = 0
    budget_stops: int = 0
    dry_run_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = 0.0

    def summary(self) -> str:
        """One line for the end of a command's output."""
        cost = "unknown" if self.cost_usd is None else f"${self.cost_usd:.4f}"
        parts = [f"{self.calls} calls ({self.cache_hits} from cache)", f"{self.transport_retries} transport retries",
                 f"{self.reasks} re-asks", f"{self.failures} failed",
                 f"{self.prompt_tokens} prompt + {self.completion_tokens} completion tokens", f"cost {cost}"]
        if self.budget_stops:
            parts.append(f"{self.budget_stops} not made (budget)")
        if self.dry_run_calls:
            parts.append(f"{self.dry_run_calls} would be made (dry run)")
        return "LLM: " + ", ".join(parts)


class _Backend(Protocol):
    price_known: bool

    async def complete(self, spec: CallSpec, response_model: type[BaseModel] | None,
                       context: dict[str, Any] | None, state: CallState) -> tuple[BaseModel | None, CachedReply]: ...

    async def aclose(self) -> None: ...


class LLMClient:
    """Calls one model (``settings.model``); satisfies ``judge.llm.types.StructuredLLM``."""

    def __init__(self, settings: LLMSettings) -> None:
        self.settings = settings
        self.route: Route = resolve_route(settings)
        if self.route.backend == "litellm" and not settings.dry_run:
            # A missing key fails the run here, before any call, rather than every item
            # that misses the cache (litellm would report it as a 500 and be retried).
            # A dry run sends nothing and keeps litellm unimported.
            from judge.llm.via_litellm import missing_key_message

            problem = missing_key_message(settings, self.route)
            if problem is not None:
                raise ConfigError(problem)
        self.stats = LLMStats()
        self._cache = CallCache(settings.cache_path) if settings.cache_path is not None else None
        # Cache keys of calls in flight: an identical request waits for the one already
        # sent and reads its reply from the cache, instead of paying for it twice.
        self._inflight: dict[str, asyncio.Future[None]] = {}
        self._backend: _Backend | None = None
        self._semaphores: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
            weakref.WeakKeyDictionary())

    @property
    def backend(self) -> _Backend:
        """The transport, built on first use (the litellm path imports litellm then)."""
        if self._backend is None:
            if self.route.backend == "http":
                from judge.llm.openai_http import OpenAIHTTPBackend

                self._backend = OpenAIHTTPBackend(self.settings, self.route)
            else:
                from judge.llm.via_litellm import LiteLLMBackend

                self._backend = LiteLLMBackend(self.settings, self.route)
        return self._backend

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        sem = self._semaphores.get(loop)
        if sem is None:
            sem = self._semaphores[loop] = asyncio.Semaphore(self.settings.concurrency)
        return sem

    def _budget_refusal(self) -> str | None:
        s = self.settings
        if s.max_calls is not None and self.stats.calls >= s.max_calls:
            return f"budget: --max-calls {s.max_calls} reached"
        if s.max_cost is not None:
            if not self.backend.price_known:
                return f"budget: the price of {s.model} is unknown, so --max-cost cannot be enforced"
            if self.stats.cost_usd is None:
                return "budget: a call's cost was unknown, so --max-cost cannot be enforced"
            if self.stats.cost_usd >= s.max_cost:
                return f"budget: --max-cost ${s.max_cost:g} reached (${self.stats.cost_usd:.4f} spent)"
        return None

    def _from_cache(self, key: str, response_model: type[BaseModel] | None,
                    context: dict[str, Any] | None) -> CallResult[Any] | None:
        assert self._cache is not None
        hit = self._cache.get(key)
        if hit is None:
            return None
        value = None
        if response_model is not None:
            try:
                value = parse(hit.text or "", response_model, context=context)
            except OutputInvalid:
                return None  # the model or the context changed since: ask again
        self.stats.cache_hits += 1
        return _result(hit, value, cached=True, model=self.settings.model)

    async def acomplete(self, spec: CallSpec | Mapping[str, Any], response_model: type[BaseModel] | None = None, *,
                        validation_context: dict[str, Any] | None = None) -> CallResult[Any]:
        """Complete ``spec``, into ``response_model`` if given; never raises for a failed call.

        ``spec`` may be a mapping of CallSpec fields (for callers that must not import
        ``judge``, such as the extraction fallback); it is validated into a CallSpec.
        """
        if not isinstance(spec, CallSpec):
            spec = CallSpec.model_validate(spec)
        if self._cache is None:
            return await self._call(spec, response_model, validation_context, None)
        key = cache_key(self.settings.model, spec, schema_json(response_model) if response_model else None)
        while True:
            cached = self._from_cache(key, response_model, validation_context)
            if cached is not None:
                return cached
            leader = self._inflight.get(key)
            if leader is None:
                break
            # The same request is in flight: wait for it, then read its reply from the
            # cache. If it failed there is nothing cached, and this call goes out itself.
            await asyncio.shield(leader)
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._inflight[key] = done
        try:
            return await self._call(spec, response_model, validation_context, key)
        finally:
            del self._inflight[key]
            done.set_result(None)

    async def _call(self, spec: CallSpec, response_model: type[BaseModel] | None,
                    validation_context: dict[str, Any] | None, key: str | None) -> CallResult[Any]:
        """Make one call (after its cache miss): budget, retries, accounting, cache write."""
        if self.settings.dry_run:
            self.stats.dry_run_calls += 1
            return CallResult(error="dry run: call not made", error_kind="dry_run", model=self.settings.model)
        refusal = self._budget_refusal()
        if refusal is not None:
            self.stats.budget_stops += 1
            return CallResult(error=refusal, error_kind="budget", model=self.settings.model)

        self.stats.calls += 1
        state = CallState()
        value: BaseModel | None = None
        reply: CachedReply | None = None
        error: str | None = None
        kind = None
        async with self._semaphore():
            try:
                value, reply = await self.backend.complete(spec, response_model, validation_context, state)
            except OutputTruncated as e:
                error, kind = f"invalid output: {e}", "invalid_output"
            except OutputInvalid as e:
                error, kind = f"invalid output after {state.reasks} re-asks: {e}", "invalid_output"
            except TransportError as e:
                error, kind = f"transport: {e} (after {state.transport_retries} retries)", "transport"
            except RequestRefused as e:
                error, kind = f"refused: {e}", "refused"
            except Exception as e:  # a failure must come back as a result, not end the run
                error, kind = f"transport: unexpected {type(e).__name__}: {e}", "transport"
        self._account(state, failed=error is not None)
        if reply is not None and key is not None and self._cache is not None:
            await self._cache.aput(key, reply, model=self.settings.model, tag=spec.tag)
        common = {"transport_retries": state.transport_retries, "reasks": state.reasks, "model": self.settings.model}
        if reply is None:
            return CallResult(error=error, error_kind=kind, usage=state.usage(), **common)
        return _result(reply, value, **common)

    def _account(self, state: CallState, *, failed: bool) -> None:
        st = self.stats
        st.requests += state.requests
        st.transport_retries += state.transport_retries
        st.reasks += state.reasks
        st.failures += int(failed)
        st.prompt_tokens += state.prompt_tokens or 0
        st.completion_tokens += state.completion_tokens or 0
        if state.replies:
            st.cost_usd = None if (st.cost_usd is None or state.cost_usd is None) else st.cost_usd + state.cost_usd

    async def arun(self, jobs: Iterable[Job | Sequence[Any]], *, desc: str,
                   on_result: Callable[[int, CallResult[Any]], None] | None = None) -> list[CallResult[Any]]:
        """Run ``jobs`` with ``settings.concurrency`` in flight; results in input order.

        ``on_result(index, result)`` is called as each finishes (write its row there, so
        a killed run keeps it); if it raises, the remaining jobs are cancelled.
        """
        from tqdm import tqdm

        todo = [j if isinstance(j, Job) else Job(*j) for j in jobs]
        results: list[CallResult[Any] | None] = [None] * len(todo)
        pending = iter(enumerate(todo))
        # disable=None: only on a terminal, so that batch-job logs do not fill with bars.
        bar = tqdm(total=len(todo), desc=desc, unit="call", file=sys.stderr,
                   disable=None if self.settings.progress else True, dynamic_ncols=True, mininterval=0.5)

        async def worker() -> None:
            for i, job in pending:  # one shared iterator: each job is taken once
                r = await self.acomplete(job.spec, job.response_model, validation_context=job.validation_context)
                results[i] = r
                bar.update(1)
                if on_result is not None:
                    on_result(i, r)

        tasks = [asyncio.create_task(worker()) for _ in range(min(len(todo), self.settings.concurrency))]
        try:
            await asyncio.gather(*tasks)
        except BaseException:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            raise
        finally:
            bar.close()
        return [r for r in results if r is not None]

    def run(self, jobs: Iterable[Job | Sequence[Any]], *, desc: str,
            on_result: Callable[[int, CallResult[Any]], None] | None = None) -> list[CallResult[Any]]:
        """Synchronous ``arun`` for commands (not from inside a running event loop)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            pass
        else:
            raise RuntimeError("LLMClient.run() called inside an event loop: use 'await client.arun(...)'")

        async def main() -> list[CallResult[Any]]:
            try:
                return await self.arun(jobs, desc=desc, on_result=on_result)
            finally:
                await self.aclose()

        return asyncio.run(main())

    async def aclose(self) -> None:
        """Release the HTTP session bound to the running event loop."""
        if self._backend is not None:
            await self._backend.aclose()

    def close(self) -> None:
        """Close the cache file (after its pending writes)."""
        if self._cache is not None:
            self._cache.close()
            self._cache = None

    async def __aenter__(self) -> LLMClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
        self.close()

    def __enter__(self) -> LLMClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _result(reply: CachedReply, value: BaseModel | None, **fields: Any) -> CallResult[Any]:
    """Return the result that carries ``reply`` (fresh or from the cache)."""
    return CallResult(value=value, text=reply.text, finish_reason=reply.finish_reason, usage=reply.usage,
                      logprobs=reply.logprobs, **fields)


def make_client(settings: LLMSettings) -> LLMClient:
    """Return a client for ``settings``.

    Raises ConfigError when the model cannot be reached as set: a route that does not
    exist, or a provider's API key missing from the environment (checked before any call,
    cache hits included, except in a dry run).
    """
    return LLMClient(settings)
