"""Pytest fixtures for the fake OpenAI-compatible server (registered in tests/conftest.py).

``fake_llm`` is a fresh server per test (own thread, own event loop, random port on
127.0.0.1); ``fake_llm_tools`` is the same but answers ``tools`` requests with tool calls,
as OpenAI does. Both record every request: ``fake_llm.requests``, ``fake_llm.request_count``.

For the LLM-client tests: ``backend`` runs a test once per path to the server (the light
HTTP client and litellm + instructor), and ``openai_key`` sets ``OPENAI_API_KEY`` to
``tests.fakes.calls.API_KEY`` for the test (a module opts in with
``pytestmark = pytest.mark.usefixtures("openai_key")``).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakes.calls import API_KEY
from tests.fakes.openai_server import FakeOpenAIServer


@pytest.fixture
def fake_llm() -> Iterator[FakeOpenAIServer]:
    """A plain OpenAI-compatible server: JSON comes back in the message content."""
    with FakeOpenAIServer() as server:
        yield server


@pytest.fixture
def fake_llm_tools() -> Iterator[FakeOpenAIServer]:
    """An OpenAI-like server that answers ``tools`` requests with a tool call."""
    with FakeOpenAIServer(tools="call") as server:
        yield server


@pytest.fixture(params=["http", "litellm"])
def backend(request: pytest.FixtureRequest) -> str:
    """The client's path to the server: ``http`` (light) or ``litellm`` (+ instructor)."""
    return request.param


@pytest.fixture
def openai_key(monkeypatch: pytest.MonkeyPatch) -> str:
    """Set OPENAI_API_KEY to the test key for this test; return it."""
    monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
    return API_KEY
