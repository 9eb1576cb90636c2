"""Prompt templates: ``prompts/<name>.txt`` files beside the code that fills them.

Placeholders are ``$name`` / ``${name}`` (``string.Template``); a placeholder without a
value raises ``ConfigError`` naming it, never leaves the placeholder in the prompt.
"""

from __future__ import annotations

import string
from functools import cache
from importlib import resources
from typing import Any

from judge.errors import ConfigError


@cache
def read_template(package: str, name: str) -> str:
    """Return the text of ``<package>/prompts/<name>.txt`` (packaged with the code)."""
    try:
        return resources.files(package).joinpath("prompts", f"{name}.txt").read_text(encoding="utf-8")
    except OSError as e:
        raise ConfigError(f"prompt template {package}/prompts/{name}.txt: cannot read: {e.strerror or e}") from e


def fill_template(text: str, name: str, **values: Any) -> str:
    """Fill the placeholders of template ``text`` (called ``name`` in errors)."""
    try:
        return string.Template(text).substitute(values)
    except KeyError as e:
        raise ConfigError(f"prompt template {name}.txt: no value for placeholder ${e.args[0]}") from e
    except ValueError as e:
        raise ConfigError(f"prompt template {name}.txt: {e}") from e
