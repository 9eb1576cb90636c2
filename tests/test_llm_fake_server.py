"""The fake OpenAI-compatible server behaves as documented (it is what the LLM tests trust)."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.fakes.openai_server import FakeOpenAIServer, Reply, ServerProcess


def _post(server: FakeOpenAIServer, body: dict, **kw) -> httpx.Response:
    return httpx.post(f"{server.base_url}/chat/completions", json=body, timeout=kw.pop("timeout", 5), **kw)


BODY = {"model": "m", "messages": [{"role": "user", "content": "What is 2+2? Answer briefly."}]}


def test_default_reply_has_usage_and_is_recorded(fake_llm):
    r = _post(fake_llm, BODY, headers={"Authorization": "Bearer sk-test"})
    assert r.status_code == 200
    data = r.json()
    assert data["choices"][0]["message"]["content"] == "ok"
    assert data["usage"]["prompt_tokens"] > 0 and data["usage"]["completion_tokens"] >= 1
    assert fake_llm.request_count == 1
    seen = fake_llm.requests[0]
    assert seen.json == BODY and seen.headers["authorization"] == "Bearer sk-test"
    assert seen.last_user_text.startswith("What is 2+2")


def test_queue_then_script_then_default(fake_llm):
    fake_llm.queue("first", {"content": "second", "completion_tokens": 42})
    r1, r2 = _post(fake_llm, BODY).json(), _post(fake_llm, BODY).json()
    assert r1["choices"][0]["message"]["content"] == "first"
    assert r2["choices"][0]["message"]["content"] == "second" and r2["usage"]["completion_tokens"] == 42
    fake_llm.script = lambda req: Reply(content=req["model"].upper())
    assert _post(fake_llm, BODY).json()["choices"][0]["message"]["content"] == "M"
    fake_llm.script = None
    assert _post(fake_llm, BODY).json()["choices"][0]["message"]["content"] == "ok"
    assert fake_llm.request_count == 4


def test_faults(fake_llm):
    fake_llm.queue(Reply.rate_limited(retry_after=2), Reply.rate_limited(retry_after=None, retry_after_ms=150),
                   Reply.server_error(), Reply(content='{"a": "tru', finish_reason="length"),
                   Reply(raw_body='{"id": "x", "choi'), Reply.hung())
    r = _post(fake_llm, BODY)
    assert r.status_code == 429 and r.headers["retry-after"] == "2"
    r = _post(fake_llm, BODY)
    assert r.status_code == 429 and r.headers["retry-after-ms"] == "150" and "retry-after" not in r.headers
    assert _post(fake_llm, BODY).status_code == 500
    choice = _post(fake_llm, BODY).json()["choices"][0]
    assert choice["finish_reason"] == "length" and choice["message"]["content"] == '{"a": "tru'
    with pytest.raises(json.JSONDecodeError):
        json.loads(_post(fake_llm, BODY).text)
    with pytest.raises(httpx.ReadTimeout):
        _post(fake_llm, BODY, timeout=0.3)


def test_latency_and_logprobs(fake_llm):
    fake_llm.latency = 0.2
    r = _post(fake_llm, {**BODY, "logprobs": True, "top_logprobs": 3})
    assert r.elapsed.total_seconds() >= 0.19
    lp = r.json()["choices"][0]["logprobs"]["content"]
    assert lp[0]["token"] == "ok" and len(lp[0]["top_logprobs"]) == 3


def test_tool_calls_only_when_the_server_supports_them(fake_llm, fake_llm_tools):
    tools = [{"type": "function", "function": {"name": "Answer", "parameters": {"type": "object"}}}]
    body = {**BODY, "tools": tools, "tool_choice": {"type": "function", "function": {"name": "Answer"}}}
    fake_llm.default = fake_llm_tools.default = Reply(content='{"answer": "A"}')
    plain = _post(fake_llm, body).json()["choices"][0]
    assert plain["message"]["content"] == '{"answer": "A"}' and "tool_calls" not in plain["message"]
    call = _post(fake_llm_tools, body).json()["choices"][0]
    assert call["finish_reason"] == "tool_calls"
    assert call["message"]["tool_calls"][0]["function"] == {"name": "Answer", "arguments": '{"answer": "A"}'}


def test_separate_process_counts_requests():
    with ServerProcess(latency=0.0, content="hi") as srv:
        r = httpx.post(f"{srv.base_url}/chat/completions", json=BODY, timeout=5)
        assert r.json()["choices"][0]["message"]["content"] == "hi"
        assert srv.request_count() == 1
