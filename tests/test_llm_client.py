"""The LLM client through real code against the fake server, on both paths.

Every fault runs through the light HTTP path and through litellm + instructor
(``backend`` fixture): retries, re-asks and their separate counts, timeouts,
truncation, refusals, validation with context, structured-output modes.
"""

from __future__ import annotations

import json
import sys

import pytest

from judge.llm import Job, make_client
from tests.fakes.calls import API_KEY, GOOD, Quoted, Verdict, one, settings, spec
from tests.fakes.openai_server import Reply

pytestmark = pytest.mark.usefixtures("openai_key")


def test_plain_text_call(fake_llm, backend):
    fake_llm.queue(Reply(content="The answer is B.", prompt_tokens=11, completion_tokens=5))
    r = one(make_client(settings(fake_llm, backend)), spec(max_tokens=50, seed=3))
    assert r.ok and r.text == "The answer is B." and r.value is None and r.finish_reason == "stop"
    assert (r.usage.prompt_tokens, r.usage.completion_tokens) == (11, 5)
    assert r.usage.cost_usd is None  # a self-hosted model has no price: unknown, not 0
    seen = fake_llm.requests[0]
    assert seen.json["model"] == "fake-model" and seen.json["max_tokens"] == 50 and seen.json["seed"] == 3
    assert seen.json["temperature"] == 0.0
    assert seen.headers["authorization"] == f"Bearer {API_KEY}"


def test_structured_json_mode(fake_llm, backend):
    fake_llm.queue(GOOD)
    client = make_client(settings(fake_llm, backend, structured_mode="json"))
    r = one(client, spec(), Verdict)
    assert r.ok and r.value == Verdict(answer="B", score=7) and (r.reasks, r.transport_retries) == (0, 0)
    body = fake_llm.requests[0].json
    assert body["response_format"] == {"type": "json_object"}
    assert body["messages"][0]["role"] == "system" and '"score"' in body["messages"][0]["content"]


def test_rate_limit_honours_retry_after(fake_llm, backend):
    fake_llm.queue(Reply.rate_limited(retry_after=0.4), GOOD)
    r = one(make_client(settings(fake_llm, backend)), spec(), Verdict)
    assert r.ok and r.transport_retries == 1 and r.reasks == 0
    first, second = fake_llm.requests
    assert second.at - first.at >= 0.38  # the backoff alone would be ~0.01 s


def test_retry_after_ms(fake_llm, backend):
    fake_llm.queue(Reply.rate_limited(retry_after=None, retry_after_ms=300), "ok")
    r = one(make_client(settings(fake_llm, backend)), spec())
    assert r.ok and r.transport_retries == 1
    assert fake_llm.requests[1].at - fake_llm.requests[0].at >= 0.28


def test_server_error_retried_then_gives_up(fake_llm, backend):
    fake_llm.queue(Reply.server_error(), "ok")
    client = make_client(settings(fake_llm, backend, max_transport_retries=2))
    assert one(client, spec("a")).transport_retries == 1
    fake_llm.script = lambda req: Reply.server_error()
    r = one(client, spec("b"))
    assert r.error_kind == "transport" and "500" in r.error and r.transport_retries == 2
    assert fake_llm.request_count == 2 + 3
    assert client.stats.failures == 1 and client.stats.transport_retries == 3 and client.stats.reasks == 0


def test_hang_past_timeout(fake_llm, backend):
    fake_llm.queue(Reply.hung(), "ok")
    client = make_client(settings(fake_llm, backend, timeout_s=0.3))
    r = one(client, spec("a"))
    assert r.ok and r.text == "ok" and r.transport_retries == 1
    fake_llm.script = lambda req: Reply.hung()
    r = one(make_client(settings(fake_llm, backend, timeout_s=0.3, max_transport_retries=0)), spec("b"))
    assert r.error_kind == "transport" and "timeout" in r.error.lower()


def test_torn_http_body_is_a_transport_error(fake_llm, backend):
    fake_llm.queue(Reply(raw_body='{"id": "x", "choices": [{"mess'), GOOD)
    r = one(make_client(settings(fake_llm, backend)), spec(), Verdict)
    assert r.ok and r.transport_retries == 1 and r.reasks == 0


def test_refused_request_is_not_retried(fake_llm, backend):
    fake_llm.queue(Reply(status=400, error_message="context length exceeded"))
    r = one(make_client(settings(fake_llm, backend)), spec())
    assert r.error_kind == "refused" and "400" in r.error and fake_llm.request_count == 1


def test_truncated_json_is_reasked_with_the_error(fake_llm, backend):
    fake_llm.queue('{"answer": "B", "sco', GOOD)
    r = one(make_client(settings(fake_llm, backend)), spec(), Verdict)
    assert r.ok and r.value.score == 7 and r.reasks == 1 and r.transport_retries == 0
    reask = fake_llm.requests[1].json["messages"]
    assert reask[-2] == {"role": "assistant", "content": '{"answer": "B", "sco'} or reask[-2]["content"] == '{"answer": "B", "sco'
    assert "json" in reask[-1]["content"].lower() and reask[-1]["role"] == "user"


def test_finish_reason_length(fake_llm, backend):
    fake_llm.queue(Reply(content='{"answer": "B", "score": 7}', finish_reason="length"))
    client = make_client(settings(fake_llm, backend))
    r = one(client, spec(max_tokens=8), Verdict)
    # Not re-asked (as instructor does): the same max_tokens would cut it again.
    assert r.error_kind == "invalid_output" and "max_tokens=8" in r.error and fake_llm.request_count == 1
    # Plain text cut at the limit is a normal reply (a description under a token budget).
    fake_llm.queue(Reply(content="A map of the", finish_reason="length"))
    r = one(client, spec("describe", max_tokens=4))
    assert r.ok and r.finish_reason == "length" and r.text == "A map of the"


def test_validation_failure_reasked_then_error(fake_llm, backend):
    fake_llm.default = Reply(content='{"answer": "B", "score": 11}')
    client = make_client(settings(fake_llm, backend, max_reasks=2))
    r = one(client, spec(), Verdict)
    assert r.error_kind == "invalid_output" and "between 1 and 10" in r.error
    assert r.reasks == 2 and r.transport_retries == 0 and fake_llm.request_count == 3
    assert "between 1 and 10" in fake_llm.requests[1].messages[-1]["content"]
    assert client.stats.reasks == 2 and client.stats.failures == 1
    assert r.usage.completion_tokens is not None and r.usage.completion_tokens > 0  # spent, even though it failed


def test_evidence_quote_checked_against_context(fake_llm, backend):
    response = "Adding the two rows gives 42, so the answer is 42."
    fake_llm.queue('{"answer": "42", "evidence": "the answer is 41"}',
                   '{"answer": "42", "evidence": "so the answer is 42"}')
    client = make_client(settings(fake_llm, backend))
    r = one(client, spec(), Quoted, {"response": response})
    assert r.ok and r.value.evidence == "so the answer is 42" and r.reasks == 1
    assert "does not occur in the response" in fake_llm.requests[1].messages[-1]["content"]
    fake_llm.script = lambda req: '{"answer": "7", "evidence": "seven"}'
    r = one(client, spec("other"), Quoted, {"response": response})
    assert r.value is None and r.error_kind == "invalid_output" and "does not occur" in r.error


def test_transport_retries_and_reasks_counted_separately(fake_llm, backend):
    fake_llm.queue(Reply.rate_limited(retry_after=0), '{"answer": "B"}', Reply.server_error(), GOOD)
    client = make_client(settings(fake_llm, backend))
    r = one(client, spec(), Verdict)
    assert r.ok and r.transport_retries == 2 and r.reasks == 1
    assert client.stats.requests == 4 and client.stats.calls == 1


def test_tools_mode_needs_a_server_that_calls_tools(fake_llm, fake_llm_tools, backend):
    for server in (fake_llm, fake_llm_tools):
        server.default = Reply(content=GOOD)
    r = one(make_client(settings(fake_llm_tools, backend, structured_mode="tools")), spec(), Verdict)
    assert r.ok and r.value.score == 7
    body = fake_llm_tools.requests[0].json
    assert body["tool_choice"] == {"type": "function", "function": {"name": "Verdict"}}
    # A plain OpenAI-compatible server answers in the content: no tool call, no value.
    r = one(make_client(settings(fake_llm, backend, structured_mode="tools", max_reasks=1)), spec(), Verdict)
    assert r.error_kind == "invalid_output" and fake_llm.request_count == 2
    # The same server works in the JSON modes, which auto picks for it.
    r = one(make_client(settings(fake_llm, backend)), spec(), Verdict)
    assert r.ok and r.value.score == 7


@pytest.mark.parametrize("mode", ["md_json", "json_schema"])
def test_other_json_modes(fake_llm, backend, mode):
    fake_llm.queue(f"Here it is:\n```json\n{GOOD}\n```" if mode == "md_json" else GOOD)
    r = one(make_client(settings(fake_llm, backend, structured_mode=mode)), spec(), Verdict)
    assert r.ok and r.value.answer == "B"
    body = fake_llm.requests[0].json
    if mode == "json_schema":
        assert body["response_format"]["type"] == "json_schema"
        assert body["response_format"]["json_schema"]["schema"]["properties"]["score"]["type"] == "integer"
    else:
        assert "response_format" not in body and "```json" in json.dumps(body["messages"])


def test_logprobs(fake_llm, backend):
    fake_llm.queue("B is right")
    r = one(make_client(settings(fake_llm, backend)), spec(top_logprobs=2))
    body = fake_llm.requests[0].json
    assert body["logprobs"] is True and body["top_logprobs"] == 2
    assert [t["token"] for t in r.logprobs] == ["B", "is", "right"]
    assert len(r.logprobs[0]["top"]) == 2 and r.logprobs[0]["logprob"] == pytest.approx(-0.01)


def test_concurrency_is_bounded_and_order_kept(fake_llm, backend):
    fake_llm.latency = 0.15
    fake_llm.script = lambda req: Reply(content=req["messages"][-1]["content"].upper())
    client = make_client(settings(fake_llm, backend, concurrency=3))
    seen = []
    results = client.run([Job(spec(f"item {i}")) for i in range(9)], desc="t",
                         on_result=lambda i, r: seen.append(i))
    assert [r.text for r in results] == [f"ITEM {i}" for i in range(9)]
    assert sorted(seen) == list(range(9)) and fake_llm.max_in_flight == 3


def test_progress_bar_goes_to_stderr_on_a_terminal(fake_llm, capsys, monkeypatch):
    client = make_client(settings(fake_llm, "http", progress=True))
    client.run([Job(spec(f"q{i}")) for i in range(3)], desc="grading")
    assert capsys.readouterr().err == ""  # not a terminal: no bar in the log
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    client.run([Job(spec(f"r{i}")) for i in range(3)], desc="grading")
    out, err = capsys.readouterr()
    assert "grading" in err and "3/3" in err and out == ""


def test_acomplete_in_callers_loop(fake_llm):
    """Consumers already in a loop (the judge) call ``acomplete`` / ``arun`` directly."""
    import asyncio

    fake_llm.queue(GOOD)
    client = make_client(settings(fake_llm, "http"))

    async def main():
        try:
            r = await client.acomplete(spec(), Verdict)
            assert r.value.score == 7
            rs = await client.arun([Job(spec("x")), Job(spec("y"))], desc="t")
            assert [x.text for x in rs] == ["ok", "ok"]
            with pytest.raises(RuntimeError, match="arun"):
                client.run([Job(spec("z"))], desc="t")
        finally:
            await client.aclose()

    asyncio.run(main())


@pytest.mark.parametrize("headers,expected", [
    ({"Retry-After": "2"}, 2.0),
    ({"retry-after-ms": "1500"}, 1.5),
    ({"Retry-After": "soon, please"}, None),  # unreadable: our own backoff, never a crash
    ({}, None),
], ids=["seconds", "ms", "garbage", "absent"])
def test_retry_after_header_is_read_or_ignored(headers, expected):
    from judge.llm.retry import retry_after_seconds

    assert retry_after_seconds(headers) == expected


def test_unreadable_retry_after_is_retried(fake_llm, tmp_path):
    fake_llm.queue(Reply(status=429, error_message="slow down", headers={"Retry-After": "soon, please"}), GOOD)
    r = one(make_client(settings(fake_llm, "http")), spec(), Verdict)
    assert r.ok and r.transport_retries == 1
