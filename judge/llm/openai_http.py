"""The light path: OpenAI-compatible ``/chat/completions`` over one pooled aiohttp session.

litellm spends 12 ms or more of client CPU per call (measured in
``benchmarks/llm_throughput.py``), which caps a fast local server at a few dozen calls
per second on a small machine. This path sends the same request with aiohttp and
parses it with the standard library and pydantic, and keeps litellm's semantics where
they matter here: transport retries with one owner (``judge.llm.retry``), re-asks
after an invalid structured output (``judge.llm.structured``), usage and cost per call.
"""

from __future__ import annotations

import asyncio
import json
import os
import weakref
from typing import Any

import aiohttp
from aiohttp.helpers import get_env_proxy_for_url
from pydantic import BaseModel
from yarl import URL

from judge.llm import pricing
from judge.llm.cache import CachedReply, logprob_rows
from judge.llm.providers import Route
from judge.llm.retry import (CallState, RequestRefused, TransportError, is_retryable_status, retry_after_seconds,
                             with_transport_retries)
from judge.llm.structured import OutputInvalid, OutputTruncated, parse, reask_messages, reply_text, request_fields
from judge.llm.types import CallSpec, LLMSettings


def _error_detail(raw: bytes) -> str:
    try:
        err = json.loads(raw).get("error")
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])[:300]
        if isinstance(err, str):
            return err[:300]
    except (ValueError, AttributeError):
        pass
    return raw[:300].decode("utf-8", "replace")


class OpenAIHTTPBackend:
    """Complete calls against one OpenAI-compatible server."""

    def __init__(self, settings: LLMSettings, route: Route) -> None:
        assert route.api_base is not None and route.mode != "auto"
        self.settings = settings
        self.route = route
        self.mode = route.mode
        self.url = route.api_base.rstrip("/") + "/chat/completions"
        # The provider's key when it is set (a server started with one); none otherwise:
        # a self-hosted server needs none, and aiohttp does not insist as the openai SDK does.
        key = os.environ.get(route.key_env) if route.key_env else None
        self._headers = {"Content-Type": "application/json"}
        if key:
            self._headers["Authorization"] = f"Bearer {key}"
        self._refusal_hint = route.unset_key_hint()
        self._timeout = aiohttp.ClientTimeout(total=settings.timeout_s)
        # The proxy environment (HTTPS_PROXY, NO_PROXY) is read once here: aiohttp's
        # trust_env would look it up, and ~/.netrc, in a thread for every request.
        self._proxy: dict[str, Any] = {}
        try:
            proxy, proxy_auth = get_env_proxy_for_url(URL(self.url))
            self._proxy = {"proxy": proxy, "proxy_auth": proxy_auth}
        except LookupError:
            pass
        # aiohttp sessions belong to one event loop; ``run`` makes a loop per call.
        self._sessions: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, aiohttp.ClientSession] = (
            weakref.WeakKeyDictionary())

    @property
    def price_known(self) -> bool:
        return pricing.token_prices(self.route.provider, self.route.name) is not None

    def _session(self) -> aiohttp.ClientSession:
        loop = asyncio.get_running_loop()
        session = self._sessions.get(loop)
        if session is None or session.closed:
            connector = aiohttp.TCPConnector(limit=max(100, self.settings.concurrency * 2), ttl_dns_cache=300)
            session = aiohttp.ClientSession(connector=connector, timeout=self._timeout)
            self._sessions[loop] = session
        return session

    async def aclose(self) -> None:
        """Close the session of the running loop (call before the loop ends)."""
        session = self._sessions.pop(asyncio.get_running_loop(), None)
        if session is not None:
            await session.close()

    async def _post(self, body: bytes) -> dict[str, Any]:
        try:
            async with self._session().post(self.url, data=body, headers=self._headers, **self._proxy) as resp:
                raw = await resp.read()
                status = resp.status
                headers = resp.headers
        except asyncio.TimeoutError as e:
            raise TransportError(f"no reply within {self.settings.timeout_s:g}s (timeout)", status=408) from e
        except aiohttp.ClientError as e:
            raise TransportError(f"connection error: {type(e).__name__}: {e}") from e
        if status != 200:
            detail = _error_detail(raw)
            if is_retryable_status(status):
                raise TransportError(f"HTTP {status}: {detail}", status=status, retry_after=retry_after_seconds(headers))
            hint = self._refusal_hint if status in (401, 403) else ""
            raise RequestRefused(f"HTTP {status}: {detail}{hint}", status=status)
        try:
            data = json.loads(raw)
        except ValueError as e:
            raise TransportError(f"malformed response body ({len(raw)} bytes, not JSON)") from e
        if not isinstance(data, dict) or not data.get("choices"):
            raise TransportError(f"reply without choices: {_error_detail(raw)}")
        return data

    async def complete(self, spec: CallSpec, response_model: type[BaseModel] | None,
                       context: dict[str, Any] | None, state: CallState) -> tuple[BaseModel | None, CachedReply]:
        """Send ``spec``; re-ask up to ``max_reasks`` times while the output is invalid.

        Raises ``TransportError`` / ``RequestRefused`` when the transport gives up and
        ``OutputInvalid`` (``OutputTruncated``) when the output stays invalid.
        """
        messages, extra = (spec.messages, {}) if response_model is None else \
            request_fields(self.mode, response_model, spec.messages)
        body = {"model": self.route.name, "messages": messages, **spec.sampling_params(), **extra}
        for attempt in range(self.settings.max_reasks + 1):
            payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
            data = await with_transport_retries(lambda: self._post(payload), self.settings, state)
            choice = data["choices"][0]
            message = choice.get("message") or {}
            usage = data.get("usage") or {}
            pt, ct = usage.get("prompt_tokens"), usage.get("completion_tokens")
            state.add_usage(pt, ct, pricing.call_cost(self.route.provider, self.route.name, pt, ct))
            finish = choice.get("finish_reason")

            def reply(text: str | None) -> CachedReply:
                lp = choice.get("logprobs")
                return CachedReply(text=text, finish_reason=finish, usage=state.usage(),
                                   logprobs=logprob_rows(lp.get("content") if isinstance(lp, dict) else None))

            if response_model is None:
                return None, reply(message.get("content") or "")
            if finish == "length":
                # As instructor does: a re-ask under the same max_tokens would be cut again.
                raise OutputTruncated(f"the output was cut at max_tokens={spec.max_tokens} (finish_reason=length)")
            try:
                text = reply_text(message, self.mode)
                return parse(text, response_model, context=context), reply(text)
            except OutputInvalid as e:
                if attempt == self.settings.max_reasks:
                    raise
                body = {**body, "messages": [*body["messages"], *reask_messages(message, self.mode, e)]}
        raise AssertionError("unreachable")  # pragma: no cover
