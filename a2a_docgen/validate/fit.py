"""Whether an example fits the media types a skill accepts.

The rule of ``example-mode-mismatch`` and of the grade, with the meaning the agent pages give it: a text example
needs a ``text/*`` type (or ``*/*``); a JSON example needs a JSON type (``application/json``, ``*/json``,
``*/*+json``, ``application/*``, ``*/*``) or a text one, since JSON is text too. A bare word that stands for a
media type (``"text"``, reported as ``media-type-invalid``) counts as the type it stands for, so one mistake is
reported once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from a2a_docgen.model import Example
from a2a_docgen.protocol import media_type_essence
from a2a_docgen.validate.formats import bare_word_media_type

__all__ = ["Fit", "accepts_json", "accepts_text", "example_fit"]

Fit = Literal["text-not-accepted", "json-not-accepted"]


def _essences(modes: Sequence[str]) -> list[str]:
    return [bare_word_media_type(mode) or media_type_essence(mode) for mode in modes]


def _anything(essences: Sequence[str]) -> bool:
    return any(e in ("*/*", "*") for e in essences)


def accepts_text(modes: Sequence[str]) -> bool:
    """Some mode takes text: ``text/*`` of any subtype, or ``*/*``."""
    essences = _essences(modes)
    return _anything(essences) or any(e.startswith("text/") for e in essences)


def accepts_json(modes: Sequence[str]) -> bool:
    """Some mode takes a JSON document: ``application/json``, ``*/json``, ``*/*+json``, ``application/*``, ``*/*``."""
    essences = _essences(modes)
    if _anything(essences) or "application/*" in essences:
        return True
    for essence in essences:
        _, slash, subtype = essence.partition("/")
        if slash and (subtype == "json" or subtype.endswith("+json")):
            return True
    return False


def example_fit(example: Example, modes: Sequence[str]) -> Fit | None:
    """``None`` when the modes take the example (or no mode is declared), else why they do not."""
    if not modes:
        return None
    if not example.is_json:
        return None if accepts_text(modes) else "text-not-accepted"
    return None if accepts_json(modes) or accepts_text(modes) else "json-not-accepted"
