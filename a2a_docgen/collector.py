"""Python's cyclic garbage collector paused where we make many objects and no cycles."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["collector_paused"]


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off inside the block (and back on after, if it was on).

    Rendering and converting pages, and reading a card's versions for its history, allocate hundreds of
    thousands of short-lived objects that reference counting frees (templates' contexts, markdown-it's tokens,
    each version's model); the collections their allocation triggers walk what lives on, the whole catalogue,
    and find little. What dies in cycles is collected after the block.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
