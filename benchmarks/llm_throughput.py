"""Throughput of the LLM client against the fake server, side by side with plain litellm.

1,000 calls, 100 ms server latency, 64 in flight, against the fake OpenAI-compatible
server running in its own process (so it does not take the client's core). For each
client it prints the wall time over the ideal N*L/C and the client's CPU time per call
(``time.process_time`` of this process, which runs only the client):

- ``ours``: ``LLMClient.run`` with a structured response model (pydantic) and the disk
  cache on, i.e. what ``reasonjudge`` commands do (light HTTP path: ``openai/...`` +
  ``--api-base``);
- ``ours_litellm``: the same through litellm + instructor (``--llm-backend litellm``),
  the path every non-OpenAI-compatible provider takes;
- ``litellm``: plain ``litellm.acompletion`` under an ``asyncio.Semaphore(64)``;
- ``rerun``: the finished job again with a new client on the same cache: rows per
  second and how many requests reached the server (must be 0).

The machine is shared, so absolute times are noisy; the ratios within one run are the
result. The last line is ``name=value`` pairs.

    python benchmarks/llm_throughput.py [--calls 1000] [--latency 0.1] [--concurrency 64]
    python benchmarks/llm_throughput.py --profile-litellm   # where litellm's CPU goes (cProfile)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
# A local server needs no key, and a real one must not be sent to the fake server.
os.environ.pop("OPENAI_API_KEY", None)

from judge.llm import CallSpec, Job, LLMSettings, make_client  # noqa: E402
from judge.llm.providers import PLACEHOLDER_KEY  # noqa: E402
from tests.fakes.calls import GOOD, Verdict  # noqa: E402
from tests.fakes.openai_server import ServerProcess  # noqa: E402


def jobs(n: int, tag: str) -> list[Job]:
    return [Job(CallSpec(messages=[{"role": "user", "content": f"[{tag}] Question {i}: which option is right?"}],
                         prompt_version="bench-1"), Verdict) for i in range(n)]


def measure(fn) -> tuple[float, float, object]:
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return time.perf_counter() - t0, time.process_time() - c0, out


def run_ours(base_url: str, n: int, conc: int, cache: Path, backend: str, tag: str) -> tuple[float, float, int]:
    settings = LLMSettings(model="openai/fake", api_base=base_url, concurrency=conc, cache_path=cache,
                           progress=False, backend=backend, timeout_s=60)
    warm = make_client(settings.model_copy(update={"cache_path": None}))
    warm.run(jobs(conc, f"warm-{tag}"), desc="warm-up")
    client = make_client(settings)
    wall, cpu, results = measure(lambda: client.run(jobs(n, tag), desc=tag))
    failed = sum(1 for r in results if not r.ok)
    client.close()
    return wall, cpu, failed


def run_litellm(base_url: str, n: int, conc: int, *, profile: bool = False) -> tuple[float, float, int]:
    import litellm

    litellm.suppress_debug_info = True

    async def batch(k: int, tag: str) -> int:
        sem = asyncio.Semaphore(conc)

        async def one(i: int) -> bool:
            async with sem:
                try:
                    # api_key: the openai SDK will not send a request without one.
                    await litellm.acompletion(model="openai/fake", api_base=base_url, api_key=PLACEHOLDER_KEY,
                                              max_retries=0,
                                              messages=[{"role": "user", "content": f"[{tag}] Question {i}"}])
                    return True
                except Exception:
                    return False

        return sum(not ok for ok in await asyncio.gather(*(one(i) for i in range(k))))

    async def main() -> tuple[float, float, int]:
        await batch(conc, "warm")  # in the same loop: litellm keeps its HTTP client per loop
        if profile:
            import cProfile
            import pstats

            prof = cProfile.Profile()
            prof.enable()
            await batch(min(n, 300), "profile")
            prof.disable()
            print("litellm.acompletion, cumulative CPU by function (cProfile, 300 calls):")
            pstats.Stats(prof).sort_stats("cumulative").print_stats(r"litellm|openai|httpx", 25)
        t0, c0 = time.perf_counter(), time.process_time()
        failed = await batch(n, "litellm")
        return time.perf_counter() - t0, time.process_time() - c0, failed

    return asyncio.run(main())


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--calls", type=int, default=1000)
    p.add_argument("--latency", type=float, default=0.1)
    p.add_argument("--concurrency", type=int, default=64)
    p.add_argument("--skip-litellm", action="store_true", help="only our light path and the rerun")
    p.add_argument("--profile-litellm", action="store_true", help="print a cProfile of plain litellm calls first")
    args = p.parse_args(argv)
    n, lat, conc = args.calls, args.latency, args.concurrency
    ideal = n * lat / conc
    figures: dict[str, float | int] = {}
    with tempfile.TemporaryDirectory() as tmp, ServerProcess(latency=lat, content=GOOD) as server:
        cache = Path(tmp) / "calls.sqlite"
        wall, cpu, failed = run_ours(server.base_url, n, conc, cache, "auto", "ours")
        print(f"ours (light path, structured, cached): wall {wall:.2f}s = {wall / ideal:.2f}x ideal {ideal:.2f}s, "
              f"client CPU {1000 * cpu / n:.2f} ms/call, failed {failed}")
        figures.update(wall_over_ideal=wall / ideal, client_cpu_ms_per_call=1000 * cpu / n)

        before = server.request_count()
        rerun_client = make_client(LLMSettings(model="openai/fake", api_base=server.base_url, concurrency=conc,
                                               cache_path=cache, progress=False))
        wall_r, cpu_r, results = measure(lambda: rerun_client.run(jobs(n, "ours"), desc="rerun"))
        rerun_calls = server.request_count() - before
        cached = sum(r.cached for r in results)
        print(f"rerun from cache: {n / wall_r:.0f} rows/s, {cached}/{n} from cache, {rerun_calls} requests to the server")
        figures.update(rerun_rows_per_s=n / wall_r)

        if not args.skip_litellm:
            wall, cpu, failed = run_litellm(server.base_url, n, conc, profile=args.profile_litellm)
            print(f"plain litellm.acompletion: wall {wall:.2f}s = {wall / ideal:.2f}x ideal, "
                  f"client CPU {1000 * cpu / n:.2f} ms/call, failed {failed}")
            figures.update(litellm_wall_over_ideal=wall / ideal, litellm_client_cpu_ms_per_call=1000 * cpu / n)
            wall, cpu, failed = run_ours(server.base_url, n, conc, Path(tmp) / "calls-litellm.sqlite", "litellm",
                                         "ours-litellm")
            print(f"ours via litellm + instructor (structured, cached): wall {wall:.2f}s = {wall / ideal:.2f}x ideal, "
                  f"client CPU {1000 * cpu / n:.2f} ms/call, failed {failed}")
            figures.update(ours_litellm_wall_over_ideal=wall / ideal, ours_litellm_client_cpu_ms_per_call=1000 * cpu / n)
        figures["rerun_calls"] = rerun_calls
    print(" ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in figures.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
