"""The LLM layer: one client for every model call (see ``judge.llm.client``).

Importing this package is cheap: the client is loaded on first use of its names, and
litellm and instructor only when a client first calls a model through them
(``judge.llm.via_litellm``), so ``reasonjudge --help`` and the argument parsers of the
commands (``judge.llm.options``) pay for neither.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from judge.llm.types import (Backend, CallResult, CallSpec, ErrorKind, LLMSettings, StructuredLLM, StructuredMode,
                             Usage)

if TYPE_CHECKING:
    from judge.llm.client import Job, LLMClient, LLMStats, make_client

_LAZY = {"Job", "LLMClient", "LLMStats", "make_client"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from judge.llm import client

        return getattr(client, name)
    raise AttributeError(f"module 'judge.llm' has no attribute {name!r}")


__all__ = [
    "Backend",
    "CallResult",
    "CallSpec",
    "ErrorKind",
    "Job",
    "LLMClient",
    "LLMSettings",
    "LLMStats",
    "StructuredLLM",
    "StructuredMode",
    "Usage",
    "make_client",
]
