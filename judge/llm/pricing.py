"""Token prices for the light HTTP path, from litellm's own price map, without litellm.

Importing litellm costs seconds of CPU, which the light path exists to avoid; its price
map is a JSON file inside the package, read here directly (``find_spec`` locates the
package without executing it). A model has a price only when the map lists it for that
provider: ``openai/gpt-4.1-mini`` has one; a model served by your own vLLM
(``hosted_vllm/...``) has none, so its cost is unknown (None), never 0.

Only the flat per-token input and output prices are applied; tiered prices (above
200k-token prompts) and cached-prompt discounts are not, which the litellm path does.
"""

from __future__ import annotations

import importlib.util
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

_PRICE_FILE = "model_prices_and_context_window_backup.json"


@lru_cache(maxsize=1)
def _price_map() -> dict[str, Any]:
    spec = importlib.util.find_spec("litellm")
    if spec is None or not spec.submodule_search_locations:
        return {}
    path = Path(next(iter(spec.submodule_search_locations))) / _PRICE_FILE
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return {}


@lru_cache(maxsize=64)
def token_prices(provider: str, name: str) -> tuple[float, float] | None:
    """Return (USD per prompt token, USD per completion token), or None when unknown."""
    table = _price_map()
    for key in (f"{provider}/{name}", name):
        entry = table.get(key)
        if not isinstance(entry, dict) or entry.get("litellm_provider") != provider:
            continue
        inp, out = entry.get("input_cost_per_token"), entry.get("output_cost_per_token")
        if isinstance(inp, (int, float)) and isinstance(out, (int, float)):
            return float(inp), float(out)
    return None


def call_cost(provider: str, name: str, prompt_tokens: int | None, completion_tokens: int | None) -> float | None:
    """Return the USD cost of one request, or None when the price or the usage is unknown."""
    prices = token_prices(provider, name)
    if prices is None or prompt_tokens is None or completion_tokens is None:
        return None
    return prompt_tokens * prices[0] + completion_tokens * prices[1]
