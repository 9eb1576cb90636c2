"""Which path reaches a model, and which structured-output mode it gets.

OpenAI-compatible servers go through the light HTTP path (``judge.llm.openai_http``): about a
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

API keys, the same on both paths. A self-hosted OpenAI-compatible server (one of the
providers above with an API base) needs none: the provider's variable
(``OPENAI_API_KEY``, ``HOSTED_VLLM_API_KEY``, ...) is sent if it is set, for a server
started with a key; otherwise the light path sends none and litellm ``PLACEHOLDER_KEY``
(its openai SDK refuses to send a request without a key). Any other model needs the key litellm
says its provider needs: the client checks it when it is made, before any call
(``judge.llm.via_litellm.missing_key_message``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal

from judge.errors import ConfigError
from judge.llm.modes import ConcreteMode
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

#: The key sent to a self-hosted server when none is set and the SDK insists on one.
#: Not a secret, and shaped like no real provider's key.
PLACEHOLDER_KEY = "no-key-required"


@dataclass(frozen=True)
class Route:
    """How to reach the model of a run."""

    backend: Literal["litellm", "http"]
    provider: str
    #: The model name without the provider prefix (what an OpenAI-compatible server expects).
    name: str
    api_base: str | None
    #: Environment variable holding the API key of an OpenAI-compatible provider.
    key_env: str | None
    #: "auto" is resolved by the litellm backend, which knows the model's capabilities.
    mode: ConcreteMode | Literal["auto"]
    #: An OpenAI-compatible server with an API base: no key is needed to reach it.
    self_hosted: bool = False

    def _keyless(self) -> bool:
        """True for a self-hosted server whose provider variable holds no key."""
        return self.self_hosted and self.key_env is not None and not os.environ.get(self.key_env)

    def sdk_key(self) -> str | None:
        """The ``api_key`` to hand litellm: a placeholder for a keyless self-hosted server, else None.

        None lets litellm read the provider's variable as usual.
        """
        return PLACEHOLDER_KEY if self._keyless() else None

    def unset_key_hint(self) -> str:
        """A hint for a refusal (401/403) by a self-hosted server when no key is set, else ''."""
        return f" (no API key was set: set {self.key_env} if this server needs one)" if self._keyless() else ""


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
        return Route("http", provider, name, api_base, compat.key_env, mode, self_hosted=True)
    # litellm finds an API base given in the provider's variable (or its default) itself.
    return Route("litellm", provider, name, settings.api_base, compat.key_env if compat else None,
                 settings.structured_mode, self_hosted=light_possible)
