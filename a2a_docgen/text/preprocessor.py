"""Text that Markdown preprocessors read as their own syntax: one definition for the encoders and the validator.

Site engines run preprocessors over the Markdown before it is parsed, code blocks included: Jinja and
mkdocs-macros (``{{``, ``{%``, ``{#``), Zensical's and pymdownx's critic, include and template openers (``{-``,
``{+``, ``{~``, ``{=``, ``{>``, ``{!``) and pymdownx.snippets lines (``--8<--``). The encoders keep such text
inert (escaped in prose, ``\\u`` escapes in JSON); generated code cannot be rewritten without changing what it
does, so a request that would carry it is left out, and ``check`` reports the card text it came from.
"""

from __future__ import annotations

import re

__all__ = ["OPENER", "SNIPPET_LINE", "preprocessor_syntax"]

OPENER = re.compile(r"\{(?=[{%#\-+~=>!])")
"""A brace that opens template, critic or include syntax."""
SNIPPET_LINE = re.compile(r"^[ \t]*;*-+8<", re.MULTILINE)
"""A line pymdownx.snippets reads as an include marker."""


def preprocessor_syntax(text: str) -> str | None:
    """The first fragment of ``text`` a preprocessor would read as its own syntax (or a NUL), else ``None``."""
    if "{" in text and (found := OPENER.search(text)) is not None:
        return text[found.start() : found.start() + 2]
    if "8<" in text and (found := SNIPPET_LINE.search(text)) is not None:
        return found.group().strip()
    return "NUL" if "\x00" in text else None
