"""Providers that are not OpenAI-compatible go through litellm + instructor; tested with
litellm's own ``mock_response`` / ``mock_tool_calls`` (no server, no network)."""

from __future__ import annotations

import pytest

from judge.llm import CallSpec, Job, LLMSettings, make_client
from judge.llm.via_litellm import LiteLLMBackend, import_litellm
from tests.fakes.calls import Verdict

MODEL = "anthropic/claude-sonnet-4-5"


@pytest.fixture
def mocked(monkeypatch):
    """Inject litellm mock parameters into every call the backend makes."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    mock: dict = {}
    original = LiteLLMBackend._kwargs
    monkeypatch.setattr(LiteLLMBackend, "_kwargs", lambda self, spec: {**original(self, spec), **mock})
    return mock


def client(**kw):
    return make_client(LLMSettings(model=MODEL, progress=False, retry_backoff_s=0.001, retry_backoff_max_s=0.002,
                                   **kw))


def job(text="Which?"):
    return Job(CallSpec(messages=[{"role": "user", "content": text}], prompt_version="1"), Verdict)


def test_routes_to_litellm_in_tools_mode(mocked):
    c = client()
    assert c.route.backend == "litellm" and c.backend.mode == "tools"
    mocked["mock_tool_calls"] = [{"id": "call_1", "type": "function",
                                  "function": {"name": "Verdict", "arguments": '{"answer": "B", "score": 7}'}}]
    r = c.run([job()], desc="t")[0]
    assert r.ok and r.value == Verdict(answer="B", score=7) and type(r.value) is Verdict
    assert r.usage.prompt_tokens and r.usage.completion_tokens
    # The price is known for this model: the cost is litellm's own figure, never a guess.
    litellm = import_litellm()
    p, q = litellm.cost_per_token(model=MODEL, prompt_tokens=r.usage.prompt_tokens,
                                  completion_tokens=r.usage.completion_tokens)
    assert r.usage.cost_usd == pytest.approx(p + q) and r.usage.cost_usd > 0


def test_mocked_rate_limit_is_retried_then_reported(mocked):
    mocked["mock_response"] = "litellm.RateLimitError"
    c = client(max_transport_retries=3)
    r = c.run([job()], desc="t")[0]
    assert r.error_kind == "transport" and "429" in r.error and r.transport_retries == 3 and r.reasks == 0
    assert c.stats.requests == 4


def test_mocked_context_window_error_is_refused_without_retry(mocked):
    mocked["mock_response"] = "litellm.ContextWindowExceededError"
    c = client()
    r = c.run([job()], desc="t")[0]
    assert r.error_kind == "refused" and r.transport_retries == 0 and c.stats.requests == 1


def test_mocked_invalid_output_is_reasked(mocked):
    mocked["mock_tool_calls"] = [{"id": "call_1", "type": "function",
                                  "function": {"name": "Verdict", "arguments": '{"answer": "B", "score": 0}'}}]
    c = client(max_reasks=2)
    r = c.run([job()], desc="t")[0]
    assert r.error_kind == "invalid_output" and r.reasks == 2 and "between 1 and 10" in r.error
    assert c.stats.requests == 3 and c.stats.transport_retries == 0
