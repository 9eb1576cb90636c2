"""Small helpers shared by the command modules."""

from __future__ import annotations

import argparse
from pathlib import Path

from judge.errors import InputError


def existing_file(value: str) -> Path:
    """argparse type: a path that must exist (checked before any work)."""
    p = Path(value)
    if not p.is_file():
        raise argparse.ArgumentTypeError(f"{value}: no such file")
    return p


def located(source: str | None, field: str, problem: str) -> InputError:
    """Make an InputError from an item's ``source`` ("path:line")."""
    if source and ":" in source:
        path, _, line = source.rpartition(":")
        if line.isdigit():
            return InputError(problem, path=path, line=int(line), field=field)
    return InputError(problem, path=source, field=field)
