"""Rubric files (TOML, data) and the strict model that loads them.

``load_rubric(name_or_path)`` returns a validated ``Rubric``; ``list_rubrics()`` names the
shipped ones. ``Rubric.item_score(parts, n_steps=...)`` is the deterministic combination
of a verdict's parts into the item score.
"""

from rubrics.loader import DEFAULT_RUBRIC, RUBRIC_DIR, list_rubrics, load_rubric, rubric_path
from rubrics.model import NO_ERROR, Combine, Criterion, Rubric

__all__ = [
    "DEFAULT_RUBRIC",
    "NO_ERROR",
    "RUBRIC_DIR",
    "Combine",
    "Criterion",
    "Rubric",
    "list_rubrics",
    "load_rubric",
    "rubric_path",
]
