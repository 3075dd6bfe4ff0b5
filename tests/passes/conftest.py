"""Fixtures of the pass tests (the helpers they import live in pass_harness.py)."""

from pass_harness import x3  # noqa: F401  (a fixture)
