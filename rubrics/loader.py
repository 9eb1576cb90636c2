"""Find and load rubric files; a typo or a missing level is an error naming file and key."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from judge.errors import ConfigError
from rubrics.model import Combine, Criterion, Rubric

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

#: The folder holding the rubrics shipped with reasonjudge.
RUBRIC_DIR = Path(__file__).resolve().parent
DEFAULT_RUBRIC = "reasoning-trajectory"


def list_rubrics() -> list[str]:
    """Return the names of the shipped rubrics, sorted."""
    return sorted(p.stem for p in RUBRIC_DIR.glob("*.toml"))


def _allowed_keys(loc: tuple[Any, ...]) -> list[str]:
    model: type[BaseModel] = Rubric
    for part in loc[:-1]:
        if isinstance(part, int):
            continue
        field = model.model_fields.get(str(part))
        if field is None:
            return []
        model = {"criteria": Criterion, "combine": Combine}.get(str(part), model)
    return list(model.model_fields)


def _where(loc: tuple[Any, ...], data: dict[str, Any]) -> str:
    parts: list[str] = []
    for i, part in enumerate(loc):
        if isinstance(part, int) and parts and loc[i - 1] == "criteria":
            crit = data.get("criteria", [])
            cid = crit[part].get("id") if part < len(crit) and isinstance(crit[part], dict) else None
            parts[-1] += f"[{part}]" + (f" (id '{cid}')" if cid else "")
        else:
            parts.append(str(part))
    return ".".join(parts)


def _explain(e: ValidationError, data: dict[str, Any]) -> str:
    lines = []
    for err in e.errors():
        loc = tuple(err["loc"])
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            allowed = _allowed_keys(loc)
            close = difflib.get_close_matches(str(loc[-1]), allowed, n=1)
            msg = "unknown key" + (f" (did you mean '{close[0]}'?)" if close else f" (allowed: {', '.join(allowed)})")
        elif err["type"] == "missing":
            msg = "required key is missing"
        elif msg.startswith("Value error, "):
            msg = msg[len("Value error, "):]
        where = _where(loc, data)
        lines.append(f"{where}: {msg}" if where else msg)
    return "; ".join(lines)


def rubric_path(name_or_path: str | Path) -> Path:
    """Resolve a shipped rubric's name, or a path to a ``.toml`` file, to a file path."""
    p = Path(name_or_path)
    if p.suffix == ".toml" or p.exists():
        if not p.is_file():
            raise ConfigError(f"{p}: no such rubric file")
        return p
    shipped = RUBRIC_DIR / f"{name_or_path}.toml"
    if not shipped.is_file():
        close = difflib.get_close_matches(str(name_or_path), list_rubrics(), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise ConfigError(f"unknown rubric '{name_or_path}'{hint}; shipped: {', '.join(list_rubrics())}")
    return shipped


def load_rubric(name_or_path: str | Path = DEFAULT_RUBRIC) -> Rubric:
    """Load and validate a rubric by shipped name or file path; raise ``ConfigError`` naming file and key."""
    path = rubric_path(name_or_path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from e
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror}") from e
    try:
        rubric = Rubric.model_validate(data)
    except ValidationError as e:
        raise ConfigError(f"{path}: {_explain(e, data)}") from e
    if path.parent == RUBRIC_DIR and rubric.name != path.stem:
        raise ConfigError(f"{path}: name: '{rubric.name}' must match the file name '{path.stem}'")
    return rubric
