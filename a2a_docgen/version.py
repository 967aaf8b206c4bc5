"""The version of a2a-docgen, at the bottom of the layers: what needs it imports it from here, never from the
package root (whose face imports the layers above on demand)."""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.1.0"
"""Kept equal to ``version`` in pyproject.toml (tests/test_packaging.py checks)."""
