"""The disk cache: a rerun makes no calls, keys ignore the URL, values are re-validated."""

from __future__ import annotations

import sqlite3

import pytest
from pydantic import BaseModel

from judge.llm import CallSpec, Job, make_client
from judge.llm.cache import CallCache, cache_key
from tests.fakes.calls import API_KEY, GOOD, Quoted, Verdict, jobs, settings
from tests.fakes.openai_server import FakeOpenAIServer, Reply

pytestmark = pytest.mark.usefixtures("openai_key")


def test_second_run_makes_no_calls(fake_llm, backend, tmp_path):
    fake_llm.default = Reply(content=GOOD, prompt_tokens=20, completion_tokens=6)
    cache = tmp_path / "calls.sqlite"
    first = make_client(settings(fake_llm, backend, cache_path=cache)).run(jobs(5), desc="t")
    assert fake_llm.request_count == 5 and not any(r.cached for r in first)
    client = make_client(settings(fake_llm, backend, cache_path=cache))
    again = client.run(jobs(5), desc="t")
    assert fake_llm.request_count == 5  # nothing new reached the server
    assert all(r.cached for r in again) and [r.value for r in again] == [r.value for r in first]
    assert again[0].usage.completion_tokens == 6  # the usage of the call that filled the cache
    assert client.stats.cache_hits == 5 and client.stats.calls == 0 and client.stats.cost_usd == 0.0


def test_key_ignores_api_base_but_not_prompt_or_schema(fake_llm, tmp_path):
    fake_llm.default = GOOD
    cache = tmp_path / "calls.sqlite"
    make_client(settings(fake_llm, "http", cache_path=cache)).run(jobs(2), desc="t")
    with FakeOpenAIServer(default=GOOD) as other:  # the same model behind another URL
        make_client(settings(other, "http", cache_path=cache)).run(jobs(2), desc="t")
        assert other.request_count == 0

    class Other(BaseModel):
        answer: str

    client = make_client(settings(fake_llm, "http", cache_path=cache))
    client.run(jobs(2, version="v2"), desc="t")  # new prompt version
    client.run(jobs(2, model=Other), desc="t")  # new output schema
    client.run([Job(CallSpec(messages=[{"role": "user", "content": "item 0"}], prompt_version="v1",
                             sample_index=1), Verdict)], desc="t")  # another sample
    client.run([Job(CallSpec(messages=[{"role": "user", "content": "item 0"}], prompt_version="v1",
                             temperature=0.7), Verdict)], desc="t")  # other parameters
    assert fake_llm.request_count == 2 + 2 + 2 + 1 + 1


def test_cache_never_stores_the_api_key(fake_llm, backend, tmp_path):
    fake_llm.default = GOOD
    cache = tmp_path / "calls.sqlite"
    make_client(settings(fake_llm, backend, cache_path=cache)).run(jobs(3), desc="t")
    assert fake_llm.requests[0].headers["authorization"] == f"Bearer {API_KEY}"
    for f in tmp_path.iterdir():  # the database and its WAL
        assert API_KEY.encode() not in f.read_bytes()
        assert fake_llm.base_url.encode() not in f.read_bytes()
    rows = sqlite3.connect(cache).execute("SELECT COUNT(*) FROM calls").fetchone()[0]
    assert rows == 3


def test_cached_value_is_revalidated_with_the_current_context(fake_llm, tmp_path):
    fake_llm.default = '{"answer": "42", "evidence": "the answer is 42"}'
    cache = tmp_path / "calls.sqlite"
    job = Job(CallSpec(messages=[{"role": "user", "content": "extract"}], prompt_version="v1"), Quoted,
              {"response": "so the answer is 42."})
    assert make_client(settings(fake_llm, "http", cache_path=cache)).run([job], desc="t")[0].ok
    hit = make_client(settings(fake_llm, "http", cache_path=cache)).run([job], desc="t")[0]
    assert hit.cached and hit.value.evidence == "the answer is 42" and fake_llm.request_count == 1
    # Same request, but the quote is no longer in the text it must come from: ask again.
    stale = job._replace(validation_context={"response": "the answer is 41"})
    r = make_client(settings(fake_llm, "http", cache_path=cache, max_reasks=0)).run([stale], desc="t")[0]
    assert not r.cached and r.error_kind == "invalid_output" and fake_llm.request_count == 2


def test_failures_are_not_cached(fake_llm, tmp_path):
    fake_llm.queue(Reply.server_error())
    cache = tmp_path / "calls.sqlite"
    r = make_client(settings(fake_llm, "http", cache_path=cache, max_transport_retries=0)).run(jobs(1), desc="t")[0]
    assert r.error_kind == "transport"
    fake_llm.default = GOOD
    r = make_client(settings(fake_llm, "http", cache_path=cache)).run(jobs(1), desc="t")[0]
    assert r.ok and not r.cached and fake_llm.request_count == 2


def test_cache_key_is_stable_and_sensitive():
    spec = CallSpec(messages=[{"role": "user", "content": [{"type": "text", "text": "hi"}]}], prompt_version="1")
    k = cache_key("openai/m", spec, None)
    assert k == cache_key("openai/m", CallSpec(**spec.model_dump()), None) and len(k) == 64
    assert k != cache_key("openai/other", spec, None)
    assert k != cache_key("openai/m", spec, '{"type": "object"}')
    assert k != cache_key("openai/m", spec.model_copy(update={"max_tokens": 10}), None)
    assert k != cache_key("openai/m", spec.model_copy(update={"seed": 1}), None)


def test_cache_put_from_threads_and_loop(tmp_path):
    import asyncio
    import threading

    from judge.llm.cache import CachedReply

    cache = CallCache(tmp_path / "c.sqlite")
    reply = CachedReply(text="x")

    def writer(n: int) -> None:
        for i in range(50):
            cache.put(f"t{n}-{i}", reply, model="m", tag="t")

    async def loop_writes() -> None:
        await asyncio.gather(*(cache.aput(f"a{i}", reply, model="m", tag="t") for i in range(200)))

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    asyncio.run(loop_writes())
    for t in threads:
        t.join()
    assert len(cache) == 400 and cache.get("a199").text == "x" and cache.get("nope") is None
    cache.close()


def test_identical_calls_in_flight_are_sent_once(fake_llm, backend, tmp_path):
    # The VDI protocol asks the same text-only question once per budget; when the descriptions
    # stop growing, those requests are identical and run concurrently. Pay for one.
    fake_llm.latency = 0.2
    fake_llm.default = Reply(content=GOOD, completion_tokens=6)
    client = make_client(settings(fake_llm, backend, cache_path=tmp_path / "calls.sqlite", concurrency=8))
    same = [Job(CallSpec(messages=[{"role": "user", "content": "item 0"}], prompt_version="v1"), Verdict)] * 5
    results = client.run(same + jobs(2)[1:], desc="t")
    assert fake_llm.request_count == 2  # "item 0" once, "item 1" once
    assert all(r.ok and r.value == Verdict(answer="B", score=7) for r in results)
    assert sum(r.cached for r in results[:5]) == 4
    assert client.stats.calls == 2 and client.stats.cache_hits == 4


def test_a_failed_call_in_flight_does_not_fail_its_twins_silently(fake_llm, tmp_path):
    fake_llm.latency = 0.1
    fake_llm.queue(Reply.server_error(400), GOOD)  # the first request is refused, the next one answers
    client = make_client(settings(fake_llm, "http", cache_path=tmp_path / "calls.sqlite", concurrency=4,
                                  max_transport_retries=0))
    same = [Job(CallSpec(messages=[{"role": "user", "content": "item 0"}], prompt_version="v1"), Verdict)] * 2
    first, second = client.run(same, desc="t")
    assert not first.ok  # the leader's own failure is reported on its row ...
    assert second.ok and second.value.answer == "B"  # ... and its twin, finding nothing cached, asks itself
    assert fake_llm.request_count == 2
