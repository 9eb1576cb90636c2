"""Command-line options, provider routing, and what gets imported when."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from judge.errors import ConfigError
from judge.llm import LLMSettings
from judge.llm.options import add_llm_arguments, settings_from_args
from judge.llm.providers import resolve_route

ROOT = Path(__file__).resolve().parents[1]


def parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    add_llm_arguments(p)
    return p.parse_args(argv)


def test_no_model_means_no_settings():
    assert settings_from_args(parse([]), default_cache=Path("out/cache.sqlite")) is None


def test_all_flags_reach_the_settings(tmp_path):
    args = parse(["--model", "hosted_vllm/qwen", "--api-base", "http://h:8000/v1", "--concurrency", "8",
                  "--timeout", "30", "--max-retries", "1", "--max-reasks", "0", "--max-calls", "100",
                  "--max-cost", "2.5", "--dry-run", "--cache", str(tmp_path / "c.sqlite"),
                  "--structured-mode", "md_json", "--llm-backend", "litellm", "--no-progress"])
    s = settings_from_args(args, default_cache=tmp_path / "default.sqlite")
    assert s == LLMSettings(model="hosted_vllm/qwen", api_base="http://h:8000/v1", concurrency=8, timeout_s=30,
                            max_transport_retries=1, max_reasks=0, max_calls=100, max_cost=2.5, dry_run=True,
                            cache_path=tmp_path / "c.sqlite", structured_mode="md_json", backend="litellm",
                            progress=False)


def test_cache_default_and_no_cache(tmp_path):
    d = tmp_path / "default.sqlite"
    assert settings_from_args(parse(["--model", "openai/m"]), default_cache=d).cache_path == d
    assert settings_from_args(parse(["--model", "openai/m", "--no-cache"]), default_cache=d).cache_path is None


@pytest.mark.parametrize("argv, message", [
    pytest.param(["--dry-run"], "--dry-run given without --model", id="dry-run-alone"),
    pytest.param(["--api-base", "http://x"], "--api-base given without --model", id="api-base-alone"),
    pytest.param(["--model", "openai/m", "--concurrency", "0"], "--concurrency must be >= 1", id="concurrency"),
    pytest.param(["--model", "openai/m", "--timeout", "0"], "--timeout must be a positive", id="timeout"),
    pytest.param(["--model", "openai/m", "--max-cost", "nan"], "--max-cost must be a positive", id="nan-cost"),
])
def test_bad_options_are_errors(argv, message):
    with pytest.raises(ConfigError, match=message):
        settings_from_args(parse(argv), default_cache=None)


@pytest.mark.parametrize("model, api_base, backend, expected", [
    pytest.param("openai/qwen", "http://localhost:8080/v1", "auto", ("http", "qwen", "json"), id="llama.cpp"),
    pytest.param("hosted_vllm/meta-llama/Llama-3-8B", "http://h:8000/v1", "auto",
                 ("http", "meta-llama/Llama-3-8B", "json"), id="vllm"),
    pytest.param("lm_studio/qwen", None, "auto", ("http", "qwen", "json_schema"), id="lm-studio-default-url"),
    pytest.param("openai/gpt-4.1-mini", None, "auto", ("litellm", "gpt-4.1-mini", "auto"), id="api.openai.com"),
    pytest.param("anthropic/claude-sonnet-4-5", None, "auto", ("litellm", "claude-sonnet-4-5", "auto"), id="anthropic"),
    pytest.param("ollama/llama3", None, "auto", ("litellm", "llama3", "auto"), id="ollama"),
    pytest.param("openai/qwen", "http://localhost:8080/v1", "litellm", ("litellm", "qwen", "auto"), id="forced"),
])
def test_routing(model, api_base, backend, expected, monkeypatch):
    monkeypatch.delenv("LM_STUDIO_API_BASE", raising=False)
    route = resolve_route(LLMSettings(model=model, api_base=api_base, backend=backend))
    assert (route.backend, route.name, route.mode) == expected


def test_routing_errors():
    with pytest.raises(ConfigError, match="needs --api-base"):
        resolve_route(LLMSettings(model="hosted_vllm/x"))
    with pytest.raises(ConfigError, match="--llm-backend http needs an OpenAI-compatible model"):
        resolve_route(LLMSettings(model="anthropic/claude-sonnet-4-5", backend="http"))


def test_auto_mode_on_litellm_follows_capabilities():
    from judge.llm.via_litellm import LiteLLMBackend

    def mode(model: str, api_base: str | None = None) -> str:
        s = LLMSettings(model=model, api_base=api_base, backend="litellm")
        return LiteLLMBackend(s, resolve_route(s)).mode

    assert mode("openai/gpt-4.1-mini") == "tools"
    assert mode("ollama/llama3") == "json"
    assert mode("openai/local", "http://localhost:8080/v1") == "json"


def _modules_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys; print(' '.join(sorted(sys.modules)))"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return set(out.stdout.splitlines()[-1].split())


def test_help_does_not_import_litellm():
    mods = _modules_after("from judge.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass")
    assert "judge.cli" in mods
    assert "litellm" not in mods and "instructor" not in mods and "openai" not in mods


def test_light_path_call_does_not_import_litellm():
    code = (
        "from tests.fakes.openai_server import FakeOpenAIServer\n"
        "from judge.llm import CallSpec, LLMSettings, make_client\n"
        "with FakeOpenAIServer(default='hi') as s:\n"
        "    c = make_client(LLMSettings(model='hosted_vllm/m', api_base=s.base_url, progress=False))\n"
        "    r = c.run([(CallSpec(messages=[{'role': 'user', 'content': 'x'}], prompt_version='1'),)], desc='d')\n"
        "    assert r[0].text == 'hi', r\n"
    )
    mods = _modules_after(code)
    assert "judge.llm.openai_http" in mods and "litellm" not in mods and "instructor" not in mods
