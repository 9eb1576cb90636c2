"""The option values of the LLM layer, as plain ``Literal`` types.

Apart from the pydantic models of ``judge.llm.types`` so that the argument parsers
(``judge.llm.options``), and with them ``reasonjudge --help``, do not import pydantic:
it was most of the CPU time of ``--help``.
"""

from __future__ import annotations

from typing import Literal

#: How structured output is requested; ``auto`` is chosen per provider (``judge.llm.providers``).
StructuredMode = Literal["auto", "json", "md_json", "json_schema", "tools"]
#: A structured-output mode once ``auto`` is resolved.
ConcreteMode = Literal["json", "md_json", "json_schema", "tools"]
#: Which code reaches the model: litellm (+ instructor) for any provider, or the light
#: async HTTP path for OpenAI-compatible servers (vLLM, llama.cpp, LM Studio, ...).
Backend = Literal["auto", "litellm", "http"]
