"""Which path reaches a model, and which structured-output mode it gets.

OpenAI-compatible servers go through the light HTTP path (``judge.llm.http``): about a
millisecond of client CPU per call instead of litellm's twelve or more. That covers
``hosted_vllm/...``, ``lm_studio/...`` and ``llamafile/...`` models, and ``openai/...``
when an API base is given (llama.cpp's server, vLLM, SGLang, a proxy). Everything else
(api.openai.com itself, Anthropic, Gemini, Bedrock, Ollama, ...) goes through litellm
with instructor. ``--llm-backend litellm`` forces litellm for any model.

Structured-output mode, when ``auto``: the light path uses ``json`` (JSON in the
message content, which every OpenAI-compatible server honours; tool calls are not
reliable there), LM Studio ``json_schema`` (it has no ``json_object``). On litellm, a
model that litellm's capability map says supports function calling gets ``tools``;
Ollama gets ``json``; any other model ``md_json``, which only needs the prompt.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal

from judge.errors import ConfigError
from judge.llm.structured import ConcreteMode
from judge.llm.types import LLMSettings


@dataclass(frozen=True)
class _Compat:
    key_env: str
    base_env: str | None
    default_base: str | None
    needs_explicit_base: bool = False


#: OpenAI-compatible providers (litellm's prefixes) and where their key and URL live.
OPENAI_COMPATIBLE: dict[str, _Compat] = {
    # openai/ is api.openai.com unless an API base is given explicitly.
    "openai": _Compat("OPENAI_API_KEY", None, None, needs_explicit_base=True),
    "hosted_vllm": _Compat("HOSTED_VLLM_API_KEY", "HOSTED_VLLM_API_BASE", None),
    "lm_studio": _Compat("LM_STUDIO_API_KEY", "LM_STUDIO_API_BASE", "http://localhost:1234/v1"),
    "llamafile": _Compat("LLAMAFILE_API_KEY", "LLAMAFILE_API_BASE", "http://127.0.0.1:8080/v1"),
}


@dataclass(frozen=True)
class Route:
    """How to reach the model of a run."""

    backend: Literal["litellm", "http"]
    provider: str
    #: The model name without the provider prefix (what an OpenAI-compatible server expects).
    name: str
    api_base: str | None
    #: Environment variable holding the API key (light path); litellm reads its own.
    key_env: str | None
    #: "auto" is resolved by the litellm backend, which knows the model's capabilities.
    mode: ConcreteMode | Literal["auto"]


def split_model(model: str) -> tuple[str, str]:
    """Split ``provider/name`` (``"hosted_vllm/meta-llama/X"`` -> ``("hosted_vllm", "meta-llama/X")``)."""
    provider, sep, name = model.partition("/")
    return (provider, name) if sep else ("", model)


def resolve_route(settings: LLMSettings) -> Route:
    """Choose the path and the mode for ``settings``; raise ConfigError when impossible."""
    provider, name = split_model(settings.model)
    compat = OPENAI_COMPATIBLE.get(provider)
    api_base = settings.api_base
    if compat is not None and api_base is None and not compat.needs_explicit_base:
        api_base = (os.environ.get(compat.base_env) if compat.base_env else None) or compat.default_base
    light_possible = compat is not None and api_base is not None and bool(name)
    if settings.backend == "http" and not light_possible:
        raise ConfigError(
            f"--llm-backend http needs an OpenAI-compatible model ({', '.join(p + '/...' for p in OPENAI_COMPATIBLE)}) "
            f"and an API base; got model '{settings.model}'" + ("" if api_base else " without --api-base"))
    if provider == "hosted_vllm" and api_base is None:
        raise ConfigError(f"model '{settings.model}' needs --api-base (or HOSTED_VLLM_API_BASE): the URL of your vLLM server")
    if light_possible and settings.backend != "litellm":
        assert compat is not None
        mode = settings.structured_mode
        if mode == "auto":
            mode = "json_schema" if provider == "lm_studio" else "json"
        return Route("http", provider, name, api_base, compat.key_env, mode)
    return Route("litellm", provider, name, settings.api_base, None, settings.structured_mode)
