"""The general path: litellm for transport to any provider, instructor for structure.

This is the only module that imports litellm and instructor, and only when a client
first needs it (``import_litellm``): the import costs seconds of CPU that
``reasonjudge --help``, rule-only runs and the light HTTP path never pay.

Retries have one owner. litellm is called with ``max_retries=0`` and ``num_retries=0``
(otherwise it retries 429/5xx/timeouts itself, under ours); the completion function
handed to instructor is ``_acompletion``, which wraps one litellm call in our transport
retries, so instructor's own loop sees only replies and counts only re-asks after an
invalid output (``max_retries`` there = our ``max_reasks``).
"""

from __future__ import annotations

import contextvars
import json
import logging
import os
import warnings
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ValidationError
from tenacity import AsyncRetrying, retry_if_exception_type, stop_after_attempt

from judge.llm.cache import CachedReply, logprob_rows
from judge.llm.modes import ConcreteMode
from judge.llm.providers import OPENAI_COMPATIBLE, Route
from judge.llm.retry import (CallState, RequestRefused, TransportError, is_retryable_status, retry_after_seconds,
                             with_transport_retries)
from judge.llm.structured import OutputInvalid, OutputTruncated
from judge.llm.types import CallSpec, LLMSettings

#: The CallState of the call running in this task, for the wrapped completion function.
_STATE: contextvars.ContextVar[CallState] = contextvars.ContextVar("reasonjudge_llm_call_state")


@lru_cache(maxsize=1)
def import_litellm() -> Any:
    """Import and configure litellm once: offline price map, quiet, no callbacks."""
    # Before the import: litellm otherwise downloads its price map at import time.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("LITELLM_TELEMETRY", "False")
    # litellm's types make pydantic warn (at import and on first calls) about a
    # qualifier it does not enforce; a user of reasonjudge can do nothing about it.
    warnings.filterwarnings("ignore", message=r".*using the `ReadOnly` qualifier", category=UserWarning)
    import litellm

    # Otherwise litellm prints a "Give Feedback / Get Help" banner to stdout on every error.
    litellm.suppress_debug_info = True
    litellm.telemetry = False
    # Nothing of ours listens to litellm's logging callbacks; they cost CPU per call.
    litellm.callbacks = []
    litellm.success_callback = []
    litellm.failure_callback = []
    litellm.turn_off_message_logging = True
    litellm.disable_streaming_logging = True
    # instructor logs every failed attempt at ERROR; with no handler configured Python
    # would print them to stderr. Our results carry the error instead.
    logging.getLogger("instructor").addHandler(logging.NullHandler())
    logging.getLogger("LiteLLM").setLevel(logging.CRITICAL)
    return litellm


def missing_key_message(settings: LLMSettings, route: Route) -> str | None:
    """Say which environment variable the model's provider needs and lacks, or None.

    A self-hosted OpenAI-compatible server needs no key (``Route.self_hosted``). For
    any other model litellm says which variables its provider reads; only API keys
    (``*_API_KEY``) are required here, since cloud credentials (AWS, Vertex) may come
    from a profile or a role that litellm cannot see in the environment.
    """
    if route.self_hosted:
        return None
    litellm = import_litellm()
    try:
        missing = litellm.validate_environment(model=settings.model).get("missing_keys") or []
    except Exception:  # a model litellm cannot place: its first call will say why
        return None
    keys = [k for k in missing if k.endswith("_API_KEY")]
    if not keys:
        return None
    message = f"no API key for {settings.model}: set {' or '.join(keys)} in the environment"
    if route.provider in OPENAI_COMPATIBLE and not settings.api_base:
        message += " (or give --api-base for a self-hosted OpenAI-compatible server, which needs none)"
    return message


def _classify(e: Exception, *, refusal_hint: str = "") -> Exception:
    """Map a litellm / openai exception to TransportError (retried) or RequestRefused."""
    litellm = import_litellm()
    name = type(e).__name__
    msg = str(e).splitlines()[0][:300] if str(e) else name
    if isinstance(e, litellm.Timeout):
        return TransportError(f"timeout: {msg}", status=408)
    if isinstance(e, litellm.APIConnectionError):
        return TransportError(f"connection error: {msg}")
    status = getattr(e, "status_code", None)
    if isinstance(status, int):
        if is_retryable_status(status):
            response = getattr(e, "response", None)
            headers = getattr(response, "headers", None) or getattr(e, "litellm_response_headers", None)
            return TransportError(f"HTTP {status}: {msg}", status=status, retry_after=retry_after_seconds(headers))
        hint = refusal_hint if status in (401, 403) else ""
        return RequestRefused(f"HTTP {status}: {msg}{hint}", status=status)
    # An exception litellm did not map (a torn body, an SDK error): treat it as transit trouble.
    return TransportError(f"{name}: {msg}")


def _as_user_model(value: Any, response_model: type[BaseModel]) -> Any:
    """Return ``value`` as an instance of ``response_model`` itself.

    instructor validates into a subclass of the response model (with its schema mixin)
    and hangs ``_raw_response`` on it; values from this path would then not compare equal
    to the same values from the light path or the cache. The value is already validated
    (with the context), so it is copied field by field, not validated again.
    """
    if type(value) is response_model or not isinstance(value, response_model):
        return value
    fields = {name: getattr(value, name) for name in type(value).model_fields}
    return response_model.model_construct(_fields_set=set(value.model_fields_set), **fields)


def _reply_text(completion: Any) -> str | None:
    message = completion.choices[0].message
    calls = getattr(message, "tool_calls", None)
    if calls:
        args = calls[0].function.arguments
        return args if isinstance(args, str) else json.dumps(args)
    return message.content


class LiteLLMBackend:
    """Complete calls through litellm (transport) and instructor (structure)."""

    def __init__(self, settings: LLMSettings, route: Route) -> None:
        self.litellm = import_litellm()
        import instructor

        self.settings = settings
        self.route = route
        self.mode: ConcreteMode = route.mode if route.mode != "auto" else self._auto_mode()
        self._instructor = instructor.from_litellm(self._acompletion, mode=instructor.Mode[self.mode.upper()])
        from instructor.v2.core.errors import IncompleteOutputException, InstructorRetryException
        from instructor.v2.core.retry import _RETRYABLE_PARSE_ERRORS

        self._incomplete = IncompleteOutputException
        self._retry_exhausted = InstructorRetryException
        self._parse_errors = _RETRYABLE_PARSE_ERRORS
        self.price_known = self._price_known()
        # Read once, as the light path reads its key: the placeholder for a keyless self-hosted server.
        self._api_key = route.sdk_key()

    def _auto_mode(self) -> ConcreteMode:
        if self.route.provider in ("ollama", "ollama_chat"):
            return "json"
        if self.route.provider in OPENAI_COMPATIBLE and self.settings.api_base:
            return "json"  # a self-hosted OpenAI-compatible server, forced onto litellm
        try:
            if self.litellm.supports_function_calling(self.settings.model):
                return "tools"
        except Exception:  # litellm raises for models it does not know
            pass
        return "md_json"

    def _price_known(self) -> bool:
        try:
            info = self.litellm.get_model_info(self.settings.model)
        except Exception:  # unknown model: litellm raises
            return False
        return info.get("input_cost_per_token") is not None and info.get("output_cost_per_token") is not None

    def _cost(self, completion: Any) -> float | None:
        if not self.price_known:
            return None  # litellm may answer 0.0 for an unpriced model: unknown is not free
        # litellm already priced the reply while building it; pricing it again costs ~2 ms.
        hidden = getattr(completion, "_hidden_params", None) or {}
        cost = hidden.get("response_cost") if isinstance(hidden, dict) else getattr(hidden, "response_cost", None)
        if isinstance(cost, (int, float)):
            return float(cost)
        try:
            return float(self.litellm.completion_cost(completion_response=completion, model=self.settings.model))
        except Exception:
            return None

    async def aclose(self) -> None:
        """Nothing to close: litellm owns its HTTP clients."""

    async def _acompletion(self, **kwargs: Any) -> Any:
        """One litellm call under our transport retries; what instructor calls."""
        state = _STATE.get()

        async def send() -> Any:
            try:
                # max_retries/num_retries=0: retries belong to with_transport_retries, not litellm.
                return await self.litellm.acompletion(**kwargs, max_retries=0, num_retries=0)
            except Exception as e:
                raise _classify(e, refusal_hint=self.route.unset_key_hint()) from e

        try:
            completion = await with_transport_retries(send, self.settings, state)
        except (TransportError, RequestRefused) as e:
            state.gave_up = e
            raise
        usage = getattr(completion, "usage", None)
        pt = getattr(usage, "prompt_tokens", None)
        ct = getattr(usage, "completion_tokens", None)
        state.add_usage(pt, ct, self._cost(completion))
        return completion

    def _kwargs(self, spec: CallSpec) -> dict[str, Any]:
        kw: dict[str, Any] = {"model": self.settings.model, "timeout": self.settings.timeout_s,
                              **spec.sampling_params()}
        if self.settings.api_base:
            kw["api_base"] = self.settings.api_base
        if self._api_key is not None:
            # The openai SDK will not send a request without a key, even to a server that
            # needs none (litellm then reports a 500): a placeholder, never a real key.
            kw["api_key"] = self._api_key
        return kw

    async def complete(self, spec: CallSpec, response_model: type[BaseModel] | None,
                       context: dict[str, Any] | None, state: CallState) -> tuple[BaseModel | None, CachedReply]:
        """Send ``spec`` (see ``OpenAIHTTPBackend.complete`` for what it raises)."""
        token = _STATE.set(state)
        try:
            if response_model is None:
                completion = await self._acompletion(messages=spec.messages, **self._kwargs(spec))
                value = None
            else:
                reasks = AsyncRetrying(stop=stop_after_attempt(self.settings.max_reasks + 1),
                                       retry=retry_if_exception_type(self._parse_errors), reraise=True)
                try:
                    value, completion = await self._instructor.create_with_completion(
                        messages=list(spec.messages), response_model=response_model, max_retries=reasks,
                        context=context, strict=False, **self._kwargs(spec))
                    value = _as_user_model(value, response_model)
                except (self._retry_exhausted, self._incomplete, AssertionError, *self._parse_errors) as e:
                    # AssertionError: instructor's way of reporting a refusal in the reply.
                    if state.gave_up is not None:
                        raise state.gave_up from e
                    raise self._output_error(e, spec) from e
        finally:
            _STATE.reset(token)
        choice = completion.choices[0]
        lp = getattr(choice, "logprobs", None)
        return value, CachedReply(text=_reply_text(completion), finish_reason=choice.finish_reason,
                                  usage=state.usage(), logprobs=logprob_rows(getattr(lp, "content", None)))

    def _output_error(self, e: Exception, spec: CallSpec) -> OutputInvalid:
        if isinstance(e, self._incomplete):
            return OutputTruncated(f"the output was cut at max_tokens={spec.max_tokens} (finish_reason=length)")
        last: BaseException = e
        if isinstance(e, self._retry_exhausted) and getattr(e, "failed_attempts", None):
            last = e.failed_attempts[-1].exception
        if isinstance(last, ValidationError):
            return OutputInvalid(str(last))
        return OutputInvalid(f"{type(last).__name__}: {last}")
