"""Placeholder: this subcommand is being built (see the open issues)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    pass
