"""Structured output on the light HTTP path: request fields per mode, parsing, re-asks.

The four modes mirror instructor's OpenAI modes, so that a model behaves the same on
both paths:

- ``json``: ``response_format={"type": "json_object"}`` and the JSON schema in the system
  message; the content must be the JSON object.
- ``md_json``: the schema in the system message and a request for a ```json block; no
  ``response_format`` (works with any chat model).
- ``json_schema``: ``response_format={"type": "json_schema", ...}`` (vLLM, llama.cpp and
  LM Studio constrain decoding with it).
- ``tools``: one forced function call whose arguments are the JSON object. Plain
  OpenAI-compatible servers ignore ``tool_choice`` and answer in the content; that is
  an invalid output here, as it is for instructor.

Parsing is deliberately the same for every mode (a fenced ```json block or the first
JSON object of the text, then pydantic with ``context``), so a reply cached by either
path re-validates on read.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ValidationError

from judge.llm.modes import ConcreteMode

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL | re.IGNORECASE)


class OutputInvalid(Exception):
    """The reply cannot be turned into the response model; the message says why."""


class OutputTruncated(OutputInvalid):
    """The reply stopped at the token limit (``finish_reason == "length"``)."""


@lru_cache(maxsize=256)
def schema_json(model: type[BaseModel]) -> str:
    """Return the model's JSON schema as canonical JSON (computed once per model)."""
    return json.dumps(model.model_json_schema(), sort_keys=True, ensure_ascii=False)


@lru_cache(maxsize=256)
def _schema(model: type[BaseModel]) -> dict[str, Any]:
    # Parsed once per model, not per request; requests only serialise it, never change it.
    return json.loads(schema_json(model))


@lru_cache(maxsize=256)
def _instruction(model: type[BaseModel], fenced: bool) -> str:
    schema = json.dumps(model.model_json_schema(), indent=2, ensure_ascii=False)
    where = "in a ```json code block" if fenced else "as a single JSON object and nothing else"
    return (f"Answer {where}, an instance that matches this JSON schema "
            f"(return the instance, not the schema):\n\n{schema}")


def _with_system(messages: list[dict[str, Any]], text: str) -> list[dict[str, Any]]:
    if messages and messages[0].get("role") == "system":
        first = dict(messages[0])
        content = first.get("content")
        if isinstance(content, list):
            first["content"] = [*content, {"type": "text", "text": text}]
        else:
            first["content"] = f"{content}\n\n{text}" if content else text
        return [first, *messages[1:]]
    return [{"role": "system", "content": text}, *messages]


def request_fields(mode: ConcreteMode, model: type[BaseModel], messages: list[dict[str, Any]]
                   ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Return the messages and the extra body fields that ask for ``model`` in ``mode``."""
    if mode == "json":
        return _with_system(messages, _instruction(model, False)), {"response_format": {"type": "json_object"}}
    if mode == "md_json":
        return _with_system(messages, _instruction(model, True)), {}
    if mode == "json_schema":
        fmt = {"type": "json_schema",
               "json_schema": {"name": model.__name__, "schema": _schema(model)}}
        return messages, {"response_format": fmt}
    fn = {"name": model.__name__, "description": (model.__doc__ or model.__name__).strip(),
          "parameters": _schema(model)}
    return messages, {"tools": [{"type": "function", "function": fn}],
                      "tool_choice": {"type": "function", "function": {"name": model.__name__}}}


def reply_text(message: dict[str, Any], mode: ConcreteMode) -> str:
    """Return the text that carries the answer: the tool-call arguments or the content."""
    if mode == "tools":
        calls = message.get("tool_calls") or []
        if not calls:
            raise OutputInvalid("the reply has no tool call; answer by calling the function")
        args = calls[0].get("function", {}).get("arguments")
        return args if isinstance(args, str) else json.dumps(args)
    return message.get("content") or ""


def extract_json(text: str) -> str:
    """Return the JSON object in ``text``: a fenced block, else from the first '{' on.

    The search only strips what surrounds the object (fences, prose before it); the
    object itself goes to pydantic unchanged, so a truncated object stays invalid.
    """
    m = _FENCE.search(text)
    if m:
        return m.group(1).strip()
    start = text.find("{")
    if start == -1:
        return text.strip()
    end = text.rfind("}")
    return text[start:end + 1] if end > start else text[start:]


def parse(text: str, model: type[BaseModel], *, context: dict[str, Any] | None = None) -> BaseModel:
    """Validate ``text`` into ``model`` (lax mode, ``info.context = context``).

    Raises ``OutputInvalid`` with pydantic's message, which is what a re-ask sends back.
    """
    try:
        return model.model_validate_json(extract_json(text), context=context)
    except ValidationError as e:
        raise OutputInvalid(str(e)) from e


def reask_messages(message: dict[str, Any], mode: ConcreteMode, error: Exception) -> list[dict[str, Any]]:
    """Return the turns to append for a re-ask: the model's reply, then the error."""
    if mode == "tools" and message.get("tool_calls"):
        call = message["tool_calls"][0]
        return [{"role": "assistant", "content": None, "tool_calls": [call]},
                {"role": "tool", "tool_call_id": call.get("id", "call"),
                 "content": f"Validation error:\n{error}\nCall the function again with the errors fixed."}]
    return [{"role": "assistant", "content": message.get("content") or ""},
            {"role": "user", "content": f"Correct your JSON-only response; it failed validation:\n{error}"}]
