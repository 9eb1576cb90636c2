"""The LLM layer: one client for every model call (see ``judge.llm.client``).

Importing this package is cheap: litellm and instructor are imported by
``judge.llm.via_litellm`` only when a client first calls a model through them.
"""

from judge.llm.client import Job, LLMClient, LLMStats, make_client
from judge.llm.types import (Backend, CallResult, CallSpec, ErrorKind, LLMSettings, StructuredLLM, StructuredMode,
                             Usage)

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
