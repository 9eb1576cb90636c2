"""Count a description's tokens when the provider does not report them.

DSI needs ``k_actual``, the tokens a description really used. The provider's reported
``usage.completion_tokens`` is the measure (it is what the output limit k counted);
when a provider reports none, the text is counted with a named tiktoken encoding and
every row and report says which (``tiktoken:o200k_base``): a count from another
tokenizer is an approximation, and the output must not hide it.
"""

from __future__ import annotations

import importlib.util
import os
from functools import cache
from pathlib import Path

#: The encoding of the GPT-4o / GPT-4.1 family (the paper's reference model is gpt-4.1).
DEFAULT_ENCODING = "o200k_base"


def _use_bundled_encodings() -> None:
    # tiktoken downloads its encodings on first use; litellm ships cl100k_base, p50k_base and
    # o200k_base in its package, so point tiktoken there (offline) unless the user chose a folder.
    if os.environ.get("TIKTOKEN_CACHE_DIR"):
        return
    spec = importlib.util.find_spec("litellm")
    if spec is None or not spec.submodule_search_locations:
        return
    folder = Path(next(iter(spec.submodule_search_locations))) / "litellm_core_utils" / "tokenizers"
    if folder.is_dir():
        os.environ["TIKTOKEN_CACHE_DIR"] = str(folder)


@cache
def _encoding(name: str):  # noqa: ANN202 - tiktoken.Encoding, imported lazily
    _use_bundled_encodings()
    import tiktoken

    return tiktoken.get_encoding(name)


def count_tokens(text: str, *, encoding: str = DEFAULT_ENCODING) -> int:
    """Return the number of tokens of ``text`` under the named tiktoken encoding."""
    return len(_encoding(encoding).encode(text, disallowed_special=()))


def k_actual_of(text: str | None, completion_tokens: int | None, *,
                encoding: str = DEFAULT_ENCODING) -> tuple[int | None, str | None]:
    """Return ``(k_actual, source)``: the reported completion tokens, else a named count.

    ``source`` is ``"usage"`` or ``"tiktoken:<encoding>"``; both are None when there is no text.
    """
    if completion_tokens is not None:
        return int(completion_tokens), "usage"
    if text is None:
        return None, None
    return count_tokens(text, encoding=encoding), f"tiktoken:{encoding}"
