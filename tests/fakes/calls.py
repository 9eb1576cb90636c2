"""What the LLM-client tests send to the fake server and expect back.

Response models (``Verdict``, ``Quoted``), the canned valid reply ``GOOD``, the test
API key, and builders for settings, specs and jobs pointed at a ``FakeOpenAIServer``.
The fixtures that go with them (``openai_key``, ``backend``) are in
``tests/fakes/fixtures.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationInfo, field_validator

from judge.llm import CallSpec, Job, LLMSettings

if TYPE_CHECKING:
    from judge.llm import CallResult, LLMClient
    from tests.fakes.openai_server import FakeOpenAIServer

#: Set as OPENAI_API_KEY by the ``openai_key`` fixture; tests check where it goes (and does not).
API_KEY = "sk-test-secret-0123456789"

#: A valid ``Verdict`` as the model would write it.
GOOD = '{"answer": "B", "score": 7}'


class Verdict(BaseModel):
    """A judge-like answer."""

    answer: str
    score: int

    @field_validator("score")
    @classmethod
    def _range(cls, v: int) -> int:
        if not 1 <= v <= 10:
            raise ValueError("score must be between 1 and 10")
        return v


class Quoted(BaseModel):
    """An answer with a quote that must occur in the graded response (validation context)."""

    answer: str
    evidence: str

    @field_validator("evidence")
    @classmethod
    def _in_response(cls, v: str, info: ValidationInfo) -> str:
        response = (info.context or {}).get("response", "")
        if v not in response:
            raise ValueError(f"evidence {v!r} does not occur in the response")
        return v


def settings(server: FakeOpenAIServer, backend: str, **kw: Any) -> LLMSettings:
    """Settings for ``openai/fake-model`` on ``server`` through ``backend``, with quick retries."""
    base = {"model": "openai/fake-model", "api_base": server.base_url, "backend": backend, "progress": False,
            "retry_backoff_s": 0.01, "retry_backoff_max_s": 0.05, "timeout_s": 10}
    return LLMSettings(**{**base, **kw})


def spec(text: str = "Which option is right?", **kw: Any) -> CallSpec:
    """A one-message spec (prompt version ``t1``)."""
    return CallSpec(messages=[{"role": "user", "content": text}], prompt_version="t1", **kw)


def jobs(n: int, model: type[BaseModel] | None = Verdict, version: str = "v1") -> list[Job]:
    """``n`` distinct structured jobs: ``item 0`` .. ``item n-1``."""
    return [Job(CallSpec(messages=[{"role": "user", "content": f"item {i}"}], prompt_version=version), model)
            for i in range(n)]


def one(client: LLMClient, s: CallSpec, model: type[BaseModel] | None = None,
        context: dict[str, Any] | None = None) -> CallResult[Any]:
    """Run one job through ``client.run`` and return its result."""
    return client.run([Job(s, model, context)], desc="test")[0]
