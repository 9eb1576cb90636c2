"""Rubric files (TOML, data) and the strict model that loads them."""
