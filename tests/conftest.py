"""Shared test setup: offline LLM settings and the real-data folder.

Tests that read ``../shared/data`` use the ``shared_data`` fixture (or the
``needs_shared_data`` mark) and are skipped, not failed, when the folder is absent.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest_plugins = ["tests.fakes.fixtures"]  # the fake OpenAI-compatible server (fake_llm)

# Before anything can import litellm: never download the price map, never phone home.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("LITELLM_TELEMETRY", "False")

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("REASONJUDGE_SHARED_DATA", PROJECT_ROOT.parent / "shared" / "data"))

needs_shared_data = pytest.mark.skipif(
    not SHARED_DATA.is_dir(), reason=f"real data folder {SHARED_DATA} is absent"
)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The real-data folder; skips the test when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"real data folder {SHARED_DATA} is absent")
    return SHARED_DATA
