"""The LLM layer: one client for every model call (see ``judge.llm.client``).

Importing this package is cheap: its names are loaded on first use, and litellm and
instructor only when a client first calls a model through them
(``judge.llm.via_litellm``), so ``reasonjudge --help`` and the argument parsers of the
commands (``judge.llm.options``) pay for neither, nor for pydantic.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from judge.llm.modes import Backend, StructuredMode

if TYPE_CHECKING:
    from judge.llm.client import Job, LLMClient, LLMStats, make_client
    from judge.llm.types import CallResult, CallSpec, ErrorKind, LLMSettings, StructuredLLM, Usage

#: Where each lazily loaded name lives.
_LAZY = {
    **dict.fromkeys(("CallResult", "CallSpec", "ErrorKind", "LLMSettings", "StructuredLLM", "Usage"), "judge.llm.types"),
    **dict.fromkeys(("Job", "LLMClient", "LLMStats", "make_client"), "judge.llm.client"),
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'judge.llm' has no attribute {name!r}")
    value = globals()[name] = getattr(importlib.import_module(module), name)
    return value


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
