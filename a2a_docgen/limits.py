"""Limits on what one card may contain.

Cards are third parties' input: every limit here keeps one hostile or broken card from exhausting memory or
time (or the Markdown engine, which is super-linear on some inputs). Each limit is named in the error it
causes, with the option that raises it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace


@dataclass(frozen=True, slots=True, kw_only=True)
class Limits:
    """Upper bounds, checked by the loader and the validator."""

    max_file_bytes: int = 1024 * 1024
    """Size of one card file. Real cards are a few kilobytes."""
    max_depth: int = 32
    """Nesting depth of the JSON document."""
    max_nodes: int = 50_000
    """Number of JSON values in one document."""
    max_skills: int = 500
    """Skills in one card."""
    max_tags: int = 100
    """Tags in one skill."""
    max_media_types: int = 64
    """Media types in one list of input or output modes."""
    max_examples: int = 50
    """Examples in one skill."""
    max_example_chars: int = 20_000
    """Characters in one example."""
    max_text_chars: int = 20_000
    """Characters in one description (and in each part of a signature)."""
    max_label_chars: int = 300
    """Characters in one name, id, tag, version or media type."""
    max_url_chars: int = 2048
    """Characters in one URL or URI; a longer one is reported but not cut. Pages link none longer than the
    default."""

    @staticmethod
    def option_name(field_name: str) -> str:
        """The command-line option that sets a limit: ``max_file_bytes`` -> ``--max-file-bytes``."""
        return "--" + field_name.replace("_", "-")

    def with_overrides(self, **values: int | None) -> Limits:
        """A copy with the given limits changed; ``None`` keeps the default."""
        return replace(self, **{k: v for k, v in values.items() if v is not None})


LIMIT_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Limits))
DEFAULT_LIMITS = Limits()


@dataclass(frozen=True, slots=True)
class Deadline:
    """A moment by which work on one card must stop (``fetch --timeout``: fetching and checking a URL together).

    ``clock`` is ``time.monotonic`` unless a caller (a test) gives its own."""

    end: float
    seconds: float
    """The whole allowance, for messages."""
    clock: Callable[[], float] = field(default=time.monotonic, compare=False)

    @classmethod
    def after(cls, seconds: float, clock: Callable[[], float] = time.monotonic) -> Deadline:
        """The deadline ``seconds`` from now on ``clock``."""
        return cls(clock() + seconds, seconds, clock)

    def passed(self) -> bool:
        return self.clock() >= self.end
