"""API keys: a self-hosted server needs none on either path; a provider's missing key stops
the run before any call, naming the variable.

The regression behind these: through litellm with OPENAI_API_KEY unset, a map VDI batch
against a local server had its full and blind calls refused while its describe and text
calls "went through". Those had made no call at all: their rows were already written
by an earlier run. Every call that had to reach the server was refused per item, by a
key check that ignored the API base (and without it the openai SDK refuses to send a
request with no key, which litellm reports as a 500).
"""

from __future__ import annotations

import base64
import importlib.util
import json
from pathlib import Path

import pytest

from judge.cli import main
from judge.errors import ConfigError
from judge.llm import CallSpec, Job, LLMSettings, make_client
from judge.llm.providers import PLACEHOLDER_KEY
from tests.fakes.calls import GOOD, Verdict, settings, spec
from tests.fakes.openai_server import Reply

ROOT = Path(__file__).resolve().parents[1]
MAPS = ROOT / "examples" / "maps"
#: Keys a test must not find in any request to a self-hosted server.
OTHER_SECRETS = {"ANTHROPIC_API_KEY": "sk-ant-secret-for-keys-test", "GEMINI_API_KEY": "gem-secret-for-keys-test"}
PROVIDER_KEYS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "GEMINI_API_KEY", "GOOGLE_API_KEY",
                 "HOSTED_VLLM_API_KEY", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")


@pytest.fixture
def no_keys(monkeypatch):
    """No provider key in the environment (whatever the machine running the tests has)."""
    for name in PROVIDER_KEYS:
        monkeypatch.delenv(name, raising=False)


def _image_spec(text: str) -> CallSpec:
    png = base64.b64encode((MAPS / "images" / "metro.png").read_bytes()).decode()
    content = [{"type": "text", "text": text},
               {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{png}"}}]
    return CallSpec(messages=[{"role": "user", "content": content}], prompt_version="k1", tag="describe")


def _mixed_batch(n: int) -> list[Job]:
    """Describe-like image calls, plain text calls and structured calls, as a VDI batch mixes them."""
    out = []
    for i in range(n):
        out += [Job(_image_spec(f"describe {i}")), Job(spec(f"text {i}", tag="text")),
                Job(spec(f"full {i}", tag="full"), Verdict)]
    return out


def _sent_authorization(server) -> set[str | None]:
    return {r.headers.get("authorization") for r in server.requests}


@pytest.mark.parametrize("model", ["openai/fake-model", "hosted_vllm/fake-model"])
def test_self_hosted_server_needs_no_key_on_either_path(fake_llm, backend, model, no_keys, monkeypatch):
    for name, value in OTHER_SECRETS.items():
        monkeypatch.setenv(name, value)
    fake_llm.script = lambda body: GOOD if "full" in json.dumps(body["messages"]) else "A metro map."
    client = make_client(settings(fake_llm, backend, model=model))
    results = client.run(_mixed_batch(2), desc="t")
    assert [r.error for r in results] == [None] * 6 and fake_llm.request_count == 6
    assert results[2].value == Verdict(answer="B", score=7)
    # The light path sends no key; litellm's openai SDK insists on one and gets the placeholder.
    expected = f"Bearer {PLACEHOLDER_KEY}" if backend == "litellm" else None
    assert _sent_authorization(fake_llm) == {expected}
    seen = json.dumps([{"headers": dict(r.headers), "body": r.json} for r in fake_llm.requests])
    assert not any(secret in seen for secret in OTHER_SECRETS.values())


def test_key_of_a_self_hosted_server_is_sent_when_set(fake_llm, backend, no_keys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-server-started-with-this-key")
    fake_llm.default = GOOD
    assert make_client(settings(fake_llm, backend)).run([Job(spec(), Verdict)], desc="t")[0].ok
    assert _sent_authorization(fake_llm) == {"Bearer sk-server-started-with-this-key"}


def test_rows_written_before_do_not_hide_refused_calls(fake_llm, no_keys, tmp_path):
    """The reported batch: half of it cached by a keyless run on the light path, then all of it through litellm."""
    fake_llm.script = lambda body: GOOD if "full" in json.dumps(body["messages"]) else "A metro map."
    cache = tmp_path / "calls.sqlite"
    batch = _mixed_batch(2)
    first = make_client(settings(fake_llm, "http", cache_path=cache)).run(batch[:3], desc="t")
    assert all(r.ok for r in first) and fake_llm.request_count == 3
    client = make_client(settings(fake_llm, "litellm", cache_path=cache))
    again = client.run(batch, desc="t")
    assert [r.error for r in again] == [None] * 6
    assert [r.cached for r in again] == [True] * 3 + [False] * 3 and fake_llm.request_count == 6
    assert client.stats.failures == 0


@pytest.mark.parametrize("model, variable", [
    pytest.param("openai/gpt-4.1-mini", "OPENAI_API_KEY", id="openai"),
    pytest.param("gpt-4.1-mini", "OPENAI_API_KEY", id="openai-unprefixed"),
    pytest.param("anthropic/claude-sonnet-4-5", "ANTHROPIC_API_KEY", id="anthropic"),
    pytest.param("gemini/gemini-2.0-flash", "GEMINI_API_KEY", id="gemini"),
])
def test_missing_key_of_a_provider_fails_before_any_call(model, variable, no_keys, monkeypatch, tmp_path):
    settings_ = LLMSettings(model=model, cache_path=tmp_path / "c.sqlite", progress=False)
    with pytest.raises(ConfigError, match=rf"no API key for {model}: set .*{variable}.* in the environment"):
        make_client(settings_)
    assert not (tmp_path / "c.sqlite").exists()  # not even the cache was opened
    monkeypatch.setenv(variable, "sk-anything")
    assert make_client(settings_).route.backend == "litellm"


def test_missing_openai_key_points_at_api_base(no_keys):
    with pytest.raises(ConfigError, match="OPENAI_API_KEY.*--api-base for a self-hosted"):
        make_client(LLMSettings(model="openai/gpt-4.1-mini"))
    with pytest.raises(ConfigError) as e:
        make_client(LLMSettings(model="anthropic/claude-sonnet-4-5"))
    assert "--api-base" not in str(e.value)


def test_cloud_credentials_and_dry_runs_are_not_checked_up_front(no_keys):
    # AWS credentials may come from a profile or a role that the environment does not show.
    assert make_client(LLMSettings(model="bedrock/anthropic.claude-3-sonnet-20240229-v1:0")).route.backend == "litellm"
    # A dry run sends nothing, so it needs no key (and says how many calls a real run would make).
    client = make_client(LLMSettings(model="anthropic/claude-sonnet-4-5", dry_run=True, progress=False))
    [r] = client.run([Job(spec())], desc="t")
    assert r.error_kind == "dry_run" and client.stats.dry_run_calls == 1


def test_refusal_by_a_self_hosted_server_hints_at_the_key(fake_llm, backend, no_keys, monkeypatch):
    fake_llm.default = Reply(status=401, error_message="invalid api key")
    r = make_client(settings(fake_llm, backend)).run([Job(spec())], desc="t")[0]
    assert r.error_kind == "refused" and "401" in r.error
    assert "set OPENAI_API_KEY if this server needs one" in r.error and fake_llm.request_count == 1
    monkeypatch.setenv("OPENAI_API_KEY", "sk-wrong")
    r = make_client(settings(fake_llm, backend)).run([Job(spec("again"))], desc="t")[0]
    assert r.error_kind == "refused" and "401" in r.error and "set OPENAI_API_KEY" not in r.error


def _demo_script():
    module_spec = importlib.util.spec_from_file_location("demo_server_keys", MAPS / "demo_server.py")
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module.make_script(MAPS / "questions.jsonl")


def _one_question_per_map(tmp_path: Path) -> Path:
    rows, maps = [], set()
    for line in (MAPS / "questions.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["image"] not in maps:
            maps.add(row["image"])
            rows.append({**row, "image": str(MAPS / row["image"])})
    path = tmp_path / "questions.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_map_vdi_through_litellm_without_a_key(fake_llm, no_keys, tmp_path, capsys):
    """The reported command, end to end: every call of every phase reaches the server and is answered."""
    fake_llm.script = _demo_script()
    bench, out = _one_question_per_map(tmp_path), tmp_path / "vdi"
    argv = ["map", "vdi", str(bench), "--model", "openai/demo", "--api-base", fake_llm.base_url,
            "--llm-backend", "litellm", "--budgets", "64", "--no-progress", "-o", str(out)]
    assert main(argv) == 0, capsys.readouterr().err
    rows = {f.name: [json.loads(line) for line in f.read_text().splitlines()] for f in out.glob("*.jsonl")}
    assert set(rows) == {"full.jsonl", "blind.jsonl", "descriptions_k64.jsonl", "text_k64.jsonl"}
    assert all(len(r) == 4 and all(row["error"] is None for row in r) for r in rows.values())
    assert fake_llm.request_count == 16 and _sent_authorization(fake_llm) == {f"Bearer {PLACEHOLDER_KEY}"}


def test_map_vdi_with_a_missing_key_writes_nothing(no_keys, tmp_path, capsys):
    out = tmp_path / "vdi"
    argv = ["map", "vdi", str(_one_question_per_map(tmp_path)), "--model", "anthropic/claude-sonnet-4-5",
            "--no-progress", "-o", str(out)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "no API key for anthropic/claude-sonnet-4-5: set ANTHROPIC_API_KEY in the environment" in err
    assert not out.exists()
