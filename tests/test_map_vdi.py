"""The VDI protocol through the real LLM client and the fake OpenAI-compatible server.

The server plays the demo responder of ``examples/maps/demo_server.py`` on the bundled
sample; the tests assert on what the server received (leaks, budgets), on what was
written (k_actual from usage, resumable rows) and on calls made (a rerun makes none).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from judge.items import BenchmarkItem
from judge.llm import LLMSettings, make_client
from judge.llm.types import CallResult, CallSpec, Usage
from judge.loaders import load_items
from judge.maps import prompts
from judge.maps.images import encode_image
from judge.maps.run import MapRunConfig, run_full
from judge.maps.vdi import run_vdi
from tests.fakes.openai_server import Reply, message_text

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = ROOT / "examples" / "maps" / "questions.jsonl"


def _demo():
    spec = importlib.util.spec_from_file_location("demo_server", ROOT / "examples" / "maps" / "demo_server.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


DEMO = _demo()


def _client(server, cache: Path):
    return make_client(LLMSettings(model="openai/demo", api_base=server.base_url, cache_path=cache, progress=False))


def _config(**kw: Any) -> MapRunConfig:
    return MapRunConfig(model="openai/demo", progress=False, **kw)


def _texts(body: dict[str, Any]) -> str:
    return "\n".join(message_text(m) for m in body.get("messages", []))


def _has_image(body: dict[str, Any]) -> bool:
    parts = [p for m in body.get("messages", []) if isinstance(m.get("content"), list) for p in m["content"]]
    return any(p.get("type") == "image_url" for p in parts) or "data:image" in json.dumps(body)


def _without_images(body: dict[str, Any]) -> str:
    """The request as JSON with image payloads blanked (base64 can contain any short word)."""
    b = json.loads(json.dumps(body))
    for m in b.get("messages", []):
        if isinstance(m.get("content"), list):
            for p in m["content"]:
                if p.get("type") == "image_url":
                    p["image_url"]["url"] = "<image>"
    return json.dumps(b, ensure_ascii=False)


def _is_describe(body: dict[str, Any]) -> bool:
    return _texts(body).lstrip().startswith(DEMO.DESCRIBE_OPENING)


def test_protocol_leaks_nothing_honours_budgets_and_reruns_for_free(fake_llm, tmp_path):
    fake_llm.script = DEMO.make_script(QUESTIONS)
    items = load_items(QUESTIONS, "map")
    budgets = [32, 64, 128]
    client = _client(fake_llm, tmp_path / "cache.sqlite")
    out = run_vdi(items, client, out_dir=tmp_path / "run", config=_config(), budgets=budgets)
    client.close()
    assert out.report is not None
    first_requests = fake_llm.request_count

    bodies = [r.json for r in fake_llm.requests]
    describe = [b for b in bodies if _is_describe(b)]
    answering = [b for b in bodies if not _is_describe(b)]
    # One description per distinct image and budget, however many questions share the image.
    assert len(describe) == 4 * len(budgets)
    # Leak test: no describer request carries a question or an option text.
    secrets = [it.question for it in items] + [c for it in items for c in it.choices]
    for b in describe:
        seen = _without_images(b)
        leaked = [s for s in secrets if s in seen]
        assert not leaked, f"describer request contains {leaked}"
        assert _texts(b).strip() in {prompts.describe_prompt(k) for k in budgets}
    # Budgets: each description request carries its own k as output limit and in the prompt.
    assert sorted(b["max_tokens"] for b in describe) == sorted(budgets * 4)
    for b in describe:
        assert f"No more than {b['max_tokens']} tokens." in _texts(b)
    # No text-only or blind request contains an image; every full request does.
    text_only = [b for b in answering if "<image_description>" in _texts(b)]
    full = [b for b in answering if _has_image(b)]
    blind = [b for b in answering if b not in text_only and b not in full]
    assert len(full) == 20 and len(blind) == 20
    assert all(not _has_image(b) for b in text_only + blind)
    # A text-only request carries the question, the options and a description, nothing more.
    assert all("Options:" in _texts(b) for b in text_only)

    # k_actual is the usage the server reported for that description (the demo reports exact counts).
    for k in budgets:
        rows = [json.loads(x) for x in (tmp_path / "run" / f"descriptions_k{k}.jsonl").read_text().splitlines()]
        assert len(rows) == 4
        for d in rows:
            assert d["k_actual_source"] == "usage" and d["k_actual"] == d["usage"]["completion_tokens"] <= k
    report = json.loads((tmp_path / "run" / "vdi.json").read_text())
    assert report["budgets"] == budgets and report["n_items"] == 20
    assert report["overall"]["acc_full"] == pytest.approx(18 / 20)  # the demo errs on two questions

    # Rerun: nothing to do, no request reaches the server, the same report.
    client = _client(fake_llm, tmp_path / "cache.sqlite")
    again = run_vdi(items, client, out_dir=tmp_path / "run", config=_config(), budgets=budgets)
    client.close()
    assert fake_llm.request_count == first_requests
    assert again.stats.calls_sent == 0
    assert again.report.model_dump() == out.report.model_dump()


def test_descriptions_are_reused_across_question_sets(fake_llm, tmp_path):
    fake_llm.script = DEMO.make_script(QUESTIONS)
    items = load_items(QUESTIONS, "map")
    cache = tmp_path / "cache.sqlite"
    client = _client(fake_llm, cache)
    run_vdi(items[:6], client, out_dir=tmp_path / "a", config=_config(), budgets=[64], blind=False)
    client.close()
    before = len(fake_llm.requests)
    # Another question set on the same metro map: new questions, same image.
    other = [it.model_copy(update={"id": f"other-{it.id}", "question": "Second set: " + it.question}) for it in items[:6]]
    fake_llm.script = lambda body: Reply(content="Answer: A")
    client = _client(fake_llm, cache)
    out = run_vdi(other, client, out_dir=tmp_path / "b", config=_config(), budgets=[64], blind=False)
    client.close()
    new = [r.json for r in fake_llm.requests[before:]]
    assert new and not any(_is_describe(b) for b in new)
    assert out.stats.cached.get("describe") == 1 and "describe" not in out.stats.sent


def test_k_actual_comes_from_reported_usage(fake_llm, tmp_path):
    demo = DEMO.make_script(QUESTIONS)

    def script(body):
        if _is_describe(body):  # a long text, but the provider says it used k - 5 tokens
            return Reply(content="word " * 400, completion_tokens=body["max_tokens"] - 5, finish_reason="length")
        return demo(body)

    fake_llm.script = script
    items = load_items(QUESTIONS, "map")[:4]
    client = _client(fake_llm, tmp_path / "cache.sqlite")
    out = run_vdi(items, client, out_dir=tmp_path / "run", config=_config(), budgets=[64, 128], blind=False)
    client.close()
    b64, b128 = out.report.overall.budgets
    assert b64.k_actual_mean == 59 and b128.k_actual_mean == 123
    assert b64.dsi == pytest.approx(59 / 64) and b128.dsi == pytest.approx(123 / 128)
    assert out.report.k_actual_source == {"64": "usage", "128": "usage"}


def test_acc_full_taken_from_a_given_results_file(fake_llm, tmp_path):
    fake_llm.script = DEMO.make_script(QUESTIONS)
    items = load_items(QUESTIONS, "map")[:5]
    client = _client(fake_llm, tmp_path / "c1.sqlite")
    full = run_full(items, client, results_path=tmp_path / "full.jsonl", config=_config())
    client.close()
    assert full.stats["sent"] == {"full": 5}
    before = len(fake_llm.requests)
    client = _client(fake_llm, tmp_path / "c2.sqlite")  # a fresh cache: nothing to reuse by accident
    out = run_vdi(items, client, out_dir=tmp_path / "run", config=_config(), budgets=[64],
                  full_results=tmp_path / "full.jsonl", blind=False)
    client.close()
    assert not any(_has_image(r.json) and not _is_describe(r.json) for r in fake_llm.requests[before:])
    assert "full" not in out.stats.sent
    assert out.report.overall.acc_full == pytest.approx(sum(r["correct"] is True for r in full.rows) / 5)
    assert not (tmp_path / "run" / "full.jsonl").exists()


class ScriptedLLM:
    """A StructuredLLM without HTTP: scripted results, every spec recorded."""

    def __init__(self, respond):
        self.respond = respond
        self.specs: list[CallSpec] = []

    async def acomplete(self, spec, response_model=None, *, validation_context=None):
        self.specs.append(spec)
        return self.respond(spec)


ITEMS_DIR = ROOT / "examples" / "maps" / "images"


def _items() -> list[BenchmarkItem]:
    return [
        BenchmarkItem(id="m1", question="What colour serves Old Town?", choices=["Red", "Green"], gold="B",
                      answer_type="choice", question_type="multi_choice", level="L1", category="Transportation",
                      image=str(ITEMS_DIR / "metro.png")),
        BenchmarkItem(id="p1", question="Order of icons?", choices=["Cafe", "Restroom"], gold=["A", "B", "A"],
                      answer_type="ordering", question_type="multi_choice", level="L3", category="Tourism",
                      image=str(ITEMS_DIR / "park.png")),
    ]


def _right(spec: CallSpec) -> CallResult:
    text = _texts({"messages": spec.messages})
    answer = "Answer: B" if "Old Town" in text else "Answer: [A, B, A]"
    return CallResult(text=answer, usage=Usage(completion_tokens=5))


def test_without_reported_usage_k_actual_is_counted_with_a_named_tokenizer(tmp_path):
    def respond(spec):
        if spec.tag == "describe":
            return CallResult(text="A metro map with three lines.", usage=Usage())  # no usage reported
        return _right(spec)

    out = run_vdi(_items(), ScriptedLLM(respond), out_dir=tmp_path, config=_config(), budgets=[64], blind=False)
    d = [json.loads(x) for x in (tmp_path / "descriptions_k64.jsonl").read_text().splitlines()]
    assert {r["k_actual_source"] for r in d} == {"tiktoken:o200k_base"}
    assert all(r["k_actual"] == 7 for r in d)  # "A metro map with three lines." in o200k_base
    assert out.report.k_actual_source == {"64": "tiktoken:o200k_base"}
    assert out.report.overall.budgets[0].vdi == 0.0  # both paths right on both items


def test_a_failed_description_is_a_row_with_error_and_is_excluded(tmp_path):
    park = encode_image(ITEMS_DIR / "park.png").data_url

    def respond(spec):
        if spec.tag == "describe":  # the park map's description fails, the metro map's succeeds
            if park in json.dumps(spec.messages):
                return CallResult(error="transport: 500 after 5 retries", error_kind="transport")
            return CallResult(text="A metro map.", usage=Usage(completion_tokens=4))
        return _right(spec)

    llm = ScriptedLLM(respond)
    out = run_vdi(_items(), llm, out_dir=tmp_path, config=_config(), budgets=[64], blind=False)
    rows = {json.loads(x)["id"]: json.loads(x) for x in (tmp_path / "text_k64.jsonl").read_text().splitlines()}
    failed = [r for r in rows.values() if r["error"]]
    assert len(failed) == 1 and failed[0]["error"].startswith("description failed: transport")
    assert failed[0]["correct"] is None
    assert out.report.n_items == 1 and out.report.excluded == {"text k=64: error": 1}
    # No text-only call was made for the item whose description failed.
    assert sum(1 for s in llm.specs if s.tag == "text") == 1


def test_budget_stop_writes_no_rows_and_a_rerun_continues(tmp_path):
    stopped = ScriptedLLM(lambda spec: CallResult(error="budget: --max-calls 0 reached", error_kind="budget")
                          if spec.tag == "describe" else _right(spec))
    out = run_vdi(_items(), stopped, out_dir=tmp_path, config=_config(), budgets=[64])
    assert out.report is None and out.missing == 2  # the two text-only rows
    assert not (tmp_path / "descriptions_k64.jsonl").exists()  # no row for a call that was not made
    assert not (tmp_path / "vdi.json").exists()
    good = ScriptedLLM(lambda spec: CallResult(text="A map.", usage=Usage(completion_tokens=3))
                       if spec.tag == "describe" else _right(spec))
    done = run_vdi(_items(), good, out_dir=tmp_path, config=_config(), budgets=[64])
    assert done.report is not None and (tmp_path / "vdi.json").exists()
    # The full and blind rows of the first run were kept: only descriptions and text answers are new.
    assert sorted({s.tag for s in good.specs}) == ["describe", "text"]


def test_protocol_through_the_litellm_path(fake_llm, tmp_path, monkeypatch):
    """The same calls through litellm (how hosted vision models are reached): images pass, usage comes back."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake-for-the-local-server")
    fake_llm.script = DEMO.make_script(QUESTIONS)
    items = [it for it in load_items(QUESTIONS, "map") if it.id in ("metro-01", "park-02")]
    client = make_client(LLMSettings(model="openai/demo", api_base=fake_llm.base_url, backend="litellm",
                                     cache_path=tmp_path / "cache.sqlite", progress=False))
    out = run_vdi(items, client, out_dir=tmp_path, config=_config(), budgets=[64], blind=True)
    client.close()
    assert out.report is not None and out.report.n_items == 2
    describe = [r.json for r in fake_llm.requests if _is_describe(r.json)]
    assert len(describe) == 2 and all(b["max_tokens"] == 64 and _has_image(b) for b in describe)
    assert all(not _has_image(r.json) for r in fake_llm.requests
               if not _is_describe(r.json) and "Look at the map image" not in _texts(r.json))
    assert out.report.k_actual_source == {"64": "usage"}
    assert out.report.overall.acc_full == 1.0
