"""Counted nouns for summaries: ``plural(1, "error") == "1 error"``, ``plural(3, "error") == "3 errors"``."""

from __future__ import annotations

__all__ = ["plural"]


def plural(count: int, word: str) -> str:
    """``count`` and ``word``, with an ``s`` unless ``count`` is 1 (every noun a2a-docgen counts takes one)."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
