"""Cost accounting, --max-calls / --max-cost guards and the dry run."""

from __future__ import annotations

import pytest

from judge.llm import make_client
from judge.llm.pricing import call_cost, token_prices
from tests.fakes.calls import GOOD, jobs, settings
from tests.fakes.openai_server import Reply

pytestmark = pytest.mark.usefixtures("openai_key")


def test_cost_of_a_priced_model_matches_litellm(fake_llm, backend):
    from judge.llm.via_litellm import import_litellm

    litellm = import_litellm()
    fake_llm.default = Reply(content=GOOD, prompt_tokens=1000, completion_tokens=500)
    client = make_client(settings(fake_llm, backend, model="openai/gpt-4.1-mini"))
    r = client.run(jobs(2), desc="t")[0]
    p, c = litellm.cost_per_token(model="openai/gpt-4.1-mini", prompt_tokens=1000, completion_tokens=500)
    assert r.usage.cost_usd == pytest.approx(p + c, rel=1e-9) and p + c > 0
    assert client.stats.cost_usd == pytest.approx(2 * (p + c), rel=1e-9)
    assert (client.stats.prompt_tokens, client.stats.completion_tokens) == (2000, 1000)


def test_unknown_price_is_none_never_zero(fake_llm, backend):
    fake_llm.default = GOOD
    client = make_client(settings(fake_llm, backend, model="openai/my-finetune"))
    r = client.run(jobs(1), desc="t")[0]
    assert r.ok and r.usage.cost_usd is None and client.stats.cost_usd is None
    assert "cost unknown" in client.stats.summary()


def test_light_path_prices_only_models_the_map_gives_that_provider():
    assert token_prices("openai", "gpt-4.1-mini") is not None
    assert token_prices("hosted_vllm", "gpt-4.1-mini") is None  # your own server: no price
    assert call_cost("openai", "no-such-model", 10, 10) is None
    assert call_cost("openai", "gpt-4.1-mini", None, 10) is None


def test_max_calls_stops_cleanly(fake_llm, backend):
    fake_llm.default = GOOD
    client = make_client(settings(fake_llm, backend, max_calls=3, concurrency=2))
    results = client.run(jobs(7), desc="t")
    assert fake_llm.request_count == 3
    assert sum(r.ok for r in results) == 3
    stopped = [r for r in results if not r.ok]
    assert len(stopped) == 4 and {r.error_kind for r in stopped} == {"budget"}
    assert "--max-calls 3" in stopped[0].error and client.stats.budget_stops == 4 and client.stats.failures == 0


def test_max_cost_stops_once_spent(fake_llm):
    fake_llm.default = Reply(content=GOOD, prompt_tokens=1000, completion_tokens=500)
    per_call = call_cost("openai", "gpt-4.1-mini", 1000, 500)
    client = make_client(settings(fake_llm, "http", model="openai/gpt-4.1-mini", concurrency=1,
                                  max_cost=2.5 * per_call))
    results = client.run(jobs(6), desc="t")
    assert fake_llm.request_count == 3  # 2 calls are under the cap, the 3rd crosses it
    assert [r.error_kind for r in results] == [None, None, None, "budget", "budget", "budget"]
    assert client.stats.cost_usd == pytest.approx(3 * per_call)


def test_max_cost_with_unknown_price_makes_no_call(fake_llm, backend):
    client = make_client(settings(fake_llm, backend, max_cost=1.0))
    results = client.run(jobs(2), desc="t")
    assert fake_llm.request_count == 0
    assert all(r.error_kind == "budget" and "cannot be enforced" in r.error for r in results)


def test_dry_run_counts_calls_and_spends_nothing(fake_llm, tmp_path):
    fake_llm.default = GOOD
    cache = tmp_path / "c.sqlite"
    make_client(settings(fake_llm, "http", cache_path=cache)).run(jobs(2), desc="t")
    client = make_client(settings(fake_llm, "http", cache_path=cache, dry_run=True))
    results = client.run(jobs(5), desc="t")
    assert fake_llm.request_count == 2  # only the first, real run
    assert [r.cached for r in results[:2]] == [True, True] and results[0].ok
    assert [r.error_kind for r in results[2:]] == ["dry_run"] * 3
    assert client.stats.dry_run_calls == 3 and client.stats.cache_hits == 2
    assert "3 would be made (dry run)" in client.stats.summary()


def test_dry_run_on_litellm_route_does_not_import_it(tmp_path):
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from judge.llm import CallSpec, LLMSettings, make_client\n"
        "c = make_client(LLMSettings(model='anthropic/claude-sonnet-4-5', dry_run=True, progress=False))\n"
        "r = c.run([(CallSpec(messages=[{'role': 'user', 'content': 'x'}], prompt_version='1'),)], desc='d')\n"
        "assert r[0].error_kind == 'dry_run', r\n"
        "print(c.route.backend, 'litellm' in sys.modules, 'instructor' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         cwd=str(__import__("pathlib").Path(__file__).resolve().parents[1]))
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["litellm", "False", "False"]
