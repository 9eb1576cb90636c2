"""A fake OpenAI-compatible chat server on 127.0.0.1, for offline tests and benchmarks.

It serves ``POST /v1/chat/completions`` (and ``/chat/completions``) on a random free
port, answers with scripted replies after a configurable latency, reports usage in
every reply, can return logprobs and tool calls, injects faults, and records every
request it received (JSON body and headers) so a test can assert on what it saw.

In a test, use the ``fake_llm`` fixture (``tests/fakes/fixtures.py``, registered in
``tests/conftest.py``): the server runs in a thread with its own event loop::

    from tests.fakes.openai_server import Reply

    def test_something(fake_llm):
        fake_llm.queue(Reply.rate_limited(retry_after=0.2), '{"answer": "B"}')
        fake_llm.script = lambda req: Reply(content="A", completion_tokens=7)  # after the queue
        settings = LLMSettings(model="openai/fake", api_base=fake_llm.base_url)
        ...
        assert fake_llm.request_count == 2
        assert fake_llm.requests[0].json["model"] == "fake"

Replies come from, in order: the queue (``queue(...)``, first in first out), then
``script(request_json)``, then ``default``. A reply is a ``Reply``, a ``str`` (the
message content) or a ``dict`` of ``Reply`` fields. Faults::

    Reply.rate_limited(retry_after=1)       # 429 with Retry-After (seconds)
    Reply.rate_limited(retry_after_ms=150)  # 429 with retry-after-ms (OpenAI's header)
    Reply.server_error()                     # 500
    Reply.hung()                             # never answers (the client must time out)
    Reply(content='{"answer": "B", "evi')    # truncated JSON content
    Reply(content="...", finish_reason="length")
    Reply(raw_body='{"id": "x", "choi')      # a torn HTTP body

Tool calls: with ``tools="call"`` the server behaves like OpenAI and, when the request
carries ``tools``, returns the content as the arguments of a call to the requested
function; with ``tools="plain"`` (default) it behaves like a plain OpenAI-compatible
server (llama.cpp, many vLLM setups) and puts the JSON in the message content.

For a benchmark, run it as a separate process so that it does not share the client's
core: ``with ServerProcess(latency=0.1) as srv: srv.base_url ...``; ``srv.request_count()``
asks the process how many requests it has seen (``GET /_fake/stats``). From a shell::

    python -m tests.fakes.openai_server --latency 0.1 --content '{"answer": "A"}'
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import itertools
import json
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from aiohttp import web

Script = Callable[[dict[str, Any]], Any]


@dataclass(frozen=True)
class Reply:
    """One scripted answer of the fake server.

    ``prompt_tokens`` / ``completion_tokens`` left as None are estimated (4 characters
    per token). ``logprobs`` left as None is generated from the content when the request
    asks for logprobs. ``delay`` overrides the server's latency for this reply.
    """

    content: str | None = "ok"
    status: int = 200
    finish_reason: str = "stop"
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    logprobs: list[dict[str, Any]] | None = None
    #: None follows the server's ``tools`` setting; True/False forces it for this reply.
    tool_call: bool | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float | None = None
    hang: bool = False
    raw_body: str | None = None
    error_message: str = "fake error"

    @classmethod
    def rate_limited(cls, *, retry_after: float | None = 1, retry_after_ms: int | None = None) -> Reply:
        headers = {}
        if retry_after is not None:
            headers["Retry-After"] = f"{retry_after:g}"
        if retry_after_ms is not None:
            headers["retry-after-ms"] = str(retry_after_ms)
        return cls(status=429, headers=headers, error_message="Rate limit reached (fake)")

    @classmethod
    def server_error(cls, status: int = 500) -> Reply:
        return cls(status=status, error_message="The server had an error (fake)")

    @classmethod
    def hung(cls) -> Reply:
        return cls(hang=True)


@dataclass(frozen=True)
class RecordedRequest:
    """What the server saw: path, headers (lower-case names), JSON body, arrival time."""

    path: str
    headers: dict[str, str]
    json: dict[str, Any]
    at: float

    @property
    def messages(self) -> list[dict[str, Any]]:
        return self.json.get("messages", [])

    @property
    def last_user_text(self) -> str:
        """The text of the last user message (text parts joined), for scripts."""
        for m in reversed(self.messages):
            if m.get("role") == "user":
                return message_text(m)
        return ""


def message_text(message: dict[str, Any]) -> str:
    """Join the text parts of an OpenAI chat message."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text")
    return ""


def _as_reply(obj: Any) -> Reply:
    if isinstance(obj, Reply):
        return obj
    if isinstance(obj, str):
        return Reply(content=obj)
    if isinstance(obj, dict):
        return Reply(**obj)
    raise TypeError(f"a scripted reply must be a Reply, str or dict, not {type(obj).__name__}")


def _estimate_tokens(text: str) -> int:
    return max(1, (len(text) + 3) // 4)


def _auto_logprobs(content: str, top: int) -> list[dict[str, Any]]:
    # Deterministic fake token stream: whitespace-split words, decreasing confidence.
    out = []
    for i, tok in enumerate(content.split() or [content]):
        lp = -0.01 * (i + 1)
        alts = [{"token": tok, "logprob": lp, "bytes": None}]
        alts += [{"token": f"{tok}~{j}", "logprob": lp - 2.0 - j, "bytes": None} for j in range(1, top)]
        out.append({"token": tok, "logprob": lp, "bytes": None, "top_logprobs": alts[:top]})
    return out


class FakeOpenAIServer:
    """The fake server. ``start()`` runs it in a background thread; ``stop()`` ends it."""

    def __init__(
        self,
        *,
        latency: float = 0.0,
        script: Script | None = None,
        default: Reply | str = "ok",
        tools: Literal["plain", "call"] = "plain",
        record: bool = True,
        hang_s: float = 600.0,
    ) -> None:
        self.latency = latency
        self.script = script
        self.default = default  # the setter turns a str or dict into a Reply
        self.tools = tools
        self.record = record
        self.hang_s = hang_s
        self.requests: list[RecordedRequest] = []
        #: Requests being answered right now, and the most seen at once.
        self.in_flight = 0
        self.max_in_flight = 0
        self._count = 0
        self._queue: collections.deque[Reply] = collections.deque()
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self.port: int | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None

    # -- scripting --------------------------------------------------------------------
    def queue(self, *replies: Reply | str | dict[str, Any]) -> None:
        """Answer the next requests with these replies, in order, before the script."""
        with self._lock:
            self._queue.extend(_as_reply(r) for r in replies)

    @property
    def default(self) -> Reply:
        """The reply when neither the queue nor the script gives one (a str or dict is accepted)."""
        return self._default

    @default.setter
    def default(self, reply: Reply | str | dict[str, Any]) -> None:
        self._default = _as_reply(reply)

    @property
    def request_count(self) -> int:
        return self._count

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL (``.../v1``), what ``--api-base`` takes."""
        if self.port is None:
            raise RuntimeError("the fake server is not running")
        return f"http://127.0.0.1:{self.port}/v1"

    def _next_reply(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        if self.script is not None:
            return _as_reply(self.script(body))
        return self.default

    # -- HTTP -------------------------------------------------------------------------
    def build_app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._chat)
        app.router.add_post("/chat/completions", self._chat)
        app.router.add_get("/_fake/stats", self._stats)
        return app

    async def _stats(self, request: web.Request) -> web.Response:
        return web.json_response({"requests": self._count})

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        raw = await request.read()
        try:
            body = json.loads(raw)
        except json.JSONDecodeError:
            return web.json_response({"error": {"message": "body is not JSON", "type": "invalid_request_error"}},
                                     status=400)
        with self._lock:
            self._count += 1
            if self.record:
                self.requests.append(RecordedRequest(request.path, {k.lower(): v for k, v in request.headers.items()},
                                                     body, time.monotonic()))
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            return await self._answer(body)
        finally:
            self.in_flight -= 1

    async def _answer(self, body: dict[str, Any]) -> web.StreamResponse:
        try:
            reply = self._next_reply(body)
        except Exception as e:  # a broken script is a test bug: say so in the reply
            return web.json_response({"error": {"message": f"fake server script failed: {e!r}"}}, status=500)

        if reply.hang:
            await asyncio.sleep(self.hang_s)
        delay = self.latency if reply.delay is None else reply.delay
        if delay > 0:
            await asyncio.sleep(delay)
        if reply.raw_body is not None:
            return web.Response(text=reply.raw_body, status=reply.status, content_type="application/json",
                                headers=reply.headers)
        if reply.status != 200:
            err = {"error": {"message": reply.error_message, "type": "fake_error", "code": str(reply.status)}}
            return web.json_response(err, status=reply.status, headers=reply.headers)
        return web.json_response(self._completion(body, reply), headers=reply.headers)

    def _completion(self, body: dict[str, Any], reply: Reply) -> dict[str, Any]:
        content = reply.content if reply.content is not None else ""
        message: dict[str, Any] = {"role": "assistant", "content": reply.content}
        finish = reply.finish_reason
        use_tool = reply.tool_call if reply.tool_call is not None else (self.tools == "call" and bool(body.get("tools")))
        if use_tool:
            name = _requested_function(body)
            message = {"role": "assistant", "content": None, "tool_calls": [{
                "id": f"call_{next(self._ids)}", "type": "function",
                "function": {"name": name, "arguments": content}}]}
            if finish == "stop":
                finish = "tool_calls"
        choice: dict[str, Any] = {"index": 0, "message": message, "finish_reason": finish, "logprobs": None}
        if body.get("logprobs"):
            lp = reply.logprobs if reply.logprobs is not None else _auto_logprobs(content, int(body.get("top_logprobs") or 0))
            choice["logprobs"] = {"content": lp}
        prompt_text = "".join(message_text(m) for m in body.get("messages", []))
        pt = reply.prompt_tokens if reply.prompt_tokens is not None else _estimate_tokens(prompt_text)
        ct = reply.completion_tokens if reply.completion_tokens is not None else _estimate_tokens(content)
        return {
            "id": f"chatcmpl-fake-{next(self._ids)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "fake"),
            "system_fingerprint": "fake",
            "choices": [choice],
            "usage": {"prompt_tokens": pt, "completion_tokens": ct, "total_tokens": pt + ct},
        }

    # -- lifecycle --------------------------------------------------------------------
    async def _astart(self, port: int = 0) -> None:
        # handler_cancellation: a hung reply ends when the client gives up or at stop().
        self._runner = web.AppRunner(self.build_app(), handler_cancellation=True, access_log=None,
                                     shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port, backlog=1024)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def _astop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def start(self) -> FakeOpenAIServer:
        """Run the server in a daemon thread with its own event loop; return self."""
        ready = threading.Event()
        failure: list[BaseException] = []

        def serve() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(self._astart())
            except BaseException as e:  # reported to the starting thread
                failure.append(e)
                ready.set()
                return
            ready.set()
            loop.run_forever()
            loop.run_until_complete(self._astop())
            loop.close()

        self._thread = threading.Thread(target=serve, name="fake-openai-server", daemon=True)
        self._thread.start()
        ready.wait(10)
        if failure:
            raise RuntimeError("fake server failed to start") from failure[0]
        return self

    def stop(self) -> None:
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
        self._loop = None
        self._thread = None
        self.port = None

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _requested_function(body: dict[str, Any]) -> str:
    choice = body.get("tool_choice")
    if isinstance(choice, dict):
        return choice.get("function", {}).get("name", "fn")
    tools = body.get("tools") or []
    if tools:
        return tools[0].get("function", {}).get("name", "fn")
    return "fn"


class ServerProcess:
    """The fake server in a child process (for benchmarks: it gets its own core).

    It answers every request with ``content`` after ``latency`` seconds and does not
    keep request bodies; ``request_count()`` asks it how many requests it has served.
    """

    def __init__(self, *, latency: float = 0.0, content: str = "ok", completion_tokens: int | None = None) -> None:
        self.latency = latency
        self.content = content
        self.completion_tokens = completion_tokens
        self.proc: subprocess.Popen[str] | None = None
        self.port: int | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def request_count(self) -> int:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/_fake/stats", timeout=10) as r:
            return int(json.load(r)["requests"])

    def __enter__(self) -> ServerProcess:
        root = Path(__file__).resolve().parents[2]
        cmd = [sys.executable, "-m", "tests.fakes.openai_server", "--latency", str(self.latency),
               "--content", self.content, "--no-record", "--exit-on-stdin-eof"]
        if self.completion_tokens is not None:
            cmd += ["--completion-tokens", str(self.completion_tokens)]
        self.proc = subprocess.Popen(cmd, cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line.startswith("PORT "):
            self.proc.kill()
            raise RuntimeError(f"fake server process did not start: {line!r}")
        self.port = int(line.split()[1])
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            self.proc = None


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    """Serve until interrupted (or, with --exit-on-stdin-eof, until stdin closes); print ``PORT n`` first."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--latency", type=float, default=0.0)
    p.add_argument("--content", default="ok")
    p.add_argument("--completion-tokens", type=int, default=None)
    p.add_argument("--tools", choices=["plain", "call"], default="plain")
    p.add_argument("--no-record", action="store_true", help="do not keep request bodies (long runs)")
    p.add_argument("--exit-on-stdin-eof", action="store_true",
                   help="stop when stdin closes (a parent that dies, even by SIGKILL, takes the server with it)")
    args = p.parse_args(argv)
    server = FakeOpenAIServer(latency=args.latency, tools=args.tools, record=not args.no_record,
                              default=Reply(content=args.content, completion_tokens=args.completion_tokens))

    async def serve() -> None:
        await server._astart(args.port)
        print(f"PORT {server.port}", flush=True)
        loop = asyncio.get_running_loop()
        try:
            if args.exit_on_stdin_eof:
                await loop.run_in_executor(None, sys.stdin.read)
            else:
                await asyncio.Event().wait()
        finally:
            await server._astop()

    signal.signal(signal.SIGTERM, _interrupt)  # `kill PID` stops it as Ctrl-C does
    try:
        asyncio.run(serve())
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
