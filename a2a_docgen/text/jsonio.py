"""JSON text as a2a-docgen writes it: pretty-printed with members in their order, and JSON files.

``pretty_json`` is ``json.dumps(..., indent=n, ensure_ascii=False, allow_nan=False)``; ``json_document`` is
the text of a JSON file (``catalog.json``, a fetched card). The renderer's ``json_fence`` builds on
``pretty_json`` and makes the text inert for Markdown engines.
"""

from __future__ import annotations

import json
import re

from a2a_docgen.model import JSONValue

__all__ = ["json_document", "pretty_json"]


def pretty_json(value: JSONValue, indent: int) -> str:
    """``value`` indented by ``indent``, members in their order, non-ASCII characters as they are; raises
    ``ValueError`` for a number with no JSON spelling (NaN, infinity)."""
    return json.dumps(value, indent=indent, ensure_ascii=False, allow_nan=False)


_SURROGATE = re.compile("[\ud800-\udfff]")


def json_document(value: JSONValue) -> str:
    """``value`` as a JSON file's text: indent 2, members in their order, UTF-8-ready, final newline.

    A lone surrogate (legal in a JSON string, not encodable as UTF-8) stays a ``\\uXXXX`` escape; outside
    strings the text holds only ASCII, so the substitution touches strings only. Raises ``ValueError`` for a
    number with no JSON spelling (NaN, infinity).
    """
    text = pretty_json(value, 2)
    if not text.isascii():
        text = _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text + "\n"
