"""A run killed with SIGKILL resumes: every item once in the results, no finished call repeated."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from judge.llm import CallSpec
from judge.llm.cache import cache_key
from tests.fakes.openai_server import Reply

ROOT = Path(__file__).resolve().parents[1]
N = 40
MODEL = "hosted_vllm/m"

CHILD = f'''
import sys
from judge.io import ResultsLog
from judge.llm import CallSpec, Job, LLMSettings, make_client

base_url, cache, results = sys.argv[1:]
client = make_client(LLMSettings(model="{MODEL}", api_base=base_url, cache_path=cache, concurrency=4,
                                 progress=False))
with ResultsLog(results) as log:
    todo = [i for i in range({N}) if str(i) not in log.done]
    jobs = [(CallSpec(messages=[{{"role": "user", "content": f"item {{i}}"}}], prompt_version="1"),) for i in todo]

    def on_result(k, r):
        log.append({{"id": str(todo[k]), "text": r.text, "cached": r.cached, "error": r.error}})

    client.run(jobs, desc="resume-test", on_result=on_result)
print(client.stats.calls, client.stats.cache_hits)
'''


def spec(i: int) -> CallSpec:
    return CallSpec(messages=[{"role": "user", "content": f"item {i}"}], prompt_version="1")


def test_sigkill_then_rerun(fake_llm, tmp_path):
    fake_llm.latency = 0.05
    fake_llm.script = lambda req: Reply(content=req["messages"][-1]["content"].upper())
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    cache, results = tmp_path / "calls.sqlite", tmp_path / "results.jsonl"
    cmd = [sys.executable, str(script), fake_llm.base_url, str(cache), str(results)]

    child = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env())
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if results.exists() and results.read_text().count("\n") >= 12:
            break
        time.sleep(0.005)
    child.send_signal(signal.SIGKILL)
    child.wait(10)
    assert child.returncode == -signal.SIGKILL

    rows_before = results.read_text().count("\n")
    assert 12 <= rows_before < N, "the child must be killed mid-run"
    stored = {row[0] for row in sqlite3.connect(cache).execute("SELECT key FROM calls")}
    finished = {i for i in range(N) if cache_key(MODEL, spec(i), None) in stored}
    written = {int(json.loads(line)["id"]) for line in results.read_text().splitlines() if line.strip()}
    assert written <= finished  # a row is written only after its call is committed to the cache
    requests_before = fake_llm.request_count

    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=60, env=_env())
    assert done.returncode == 0, done.stderr

    ids = [json.loads(line)["id"] for line in results.read_text().splitlines() if line.strip()]
    assert sorted(ids, key=int) == [str(i) for i in range(N)]  # every item exactly once
    rerun_prompts = [r.last_user_text for r in fake_llm.requests[requests_before:]]
    assert not {f"item {i}" for i in finished} & set(rerun_prompts)  # no finished call repeated
    assert len(rerun_prompts) == N - len(finished) == len(set(rerun_prompts))
    calls, hits = map(int, done.stdout.split())
    assert (calls, hits) == (N - len(finished), len(finished - written))
    rows = [json.loads(line) for line in results.read_text().splitlines()]
    assert all(r["text"] == f"ITEM {r['id']}" and r["error"] is None for r in rows)


def _env() -> dict[str, str]:
    import os

    return {**os.environ, "PYTHONPATH": str(ROOT)}
