"""JSON text as a2a-docgen writes it: pretty-printed with members in their order, and JSON files.

``pretty_json`` is ``json.dumps(..., indent=n, ensure_ascii=False, allow_nan=False)`` byte for byte, faster;
``json_document`` is the text of a JSON file (``catalog.json``, a fetched card). The renderer's ``json_fence``
builds on ``pretty_json`` and makes the text inert for Markdown engines.
"""

from __future__ import annotations

import json
import math
import re

from a2a_docgen.model import JSONValue

__all__ = ["json_document", "pretty_json", "same_json"]


class _NotPlainJSON(Exception):
    """A value ``pretty_json`` leaves to ``json.dumps`` (and its errors): NaN, a non-string key, another type."""


_encode_json_string = json.encoder.encode_basestring  # the C encoder when available, as json.dumps uses


def pretty_json(value: JSONValue, indent: int) -> str:
    """``json.dumps(value, indent=indent, ensure_ascii=False, allow_nan=False)``, byte for byte, several times
    faster: with ``indent`` json.dumps runs its pure-Python encoder, a generator per nesting level."""
    out: list[str] = []
    try:
        if isinstance(value, (dict, list, tuple)) and value:
            _emit_container(value, out, "\n", " " * indent)
        else:
            out.append(_json_leaf(value))
    except (_NotPlainJSON, RecursionError):
        return json.dumps(value, indent=indent, ensure_ascii=False, allow_nan=False)
    return "".join(out)


def same_json(a: JSONValue, b: JSONValue) -> bool:
    """Whether two parsed JSON values are the same document, members in any order. Python's ``==`` alone is
    not enough: it takes ``true`` for ``1`` and ``1`` for ``1.0``, which a card's reader tells apart."""
    return a == b and json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


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


def _json_leaf(o: object) -> str:
    """A value with no line of its own: a string, a number, a literal or an empty container."""
    if isinstance(o, str):
        return _encode_json_string(o)
    if o is None:
        return "null"
    if o is True:
        return "true"
    if o is False:
        return "false"
    if isinstance(o, int):
        return int.__repr__(o)
    if isinstance(o, float):
        if not math.isfinite(o):
            raise _NotPlainJSON
        return float.__repr__(o)
    if isinstance(o, (list, tuple)) and not o:
        return "[]"
    if isinstance(o, dict) and not o:
        return "{}"
    raise _NotPlainJSON


def _emit_container(
    o: dict[str, JSONValue] | list[JSONValue] | tuple[JSONValue, ...], out: list[str], newline: str, step: str
) -> None:
    """A non-empty object or array, its members one per line at ``newline + step``. Strings (most members) are
    written in place; only non-empty containers recurse."""
    inner = newline + step
    separator = "," + inner
    encode = _encode_json_string
    if isinstance(o, dict):
        out.append("{")
        first = True
        for key, item in o.items():
            if not isinstance(key, str):
                raise _NotPlainJSON
            lead = inner if first else separator
            first = False
            if isinstance(item, str):
                out.append(f"{lead}{encode(key)}: {encode(item)}")
            elif isinstance(item, (dict, list, tuple)) and item:
                out.append(f"{lead}{encode(key)}: ")
                _emit_container(item, out, inner, step)
            else:
                out.append(f"{lead}{encode(key)}: {_json_leaf(item)}")
        out.append(newline + "}")
        return
    out.append("[")
    lead = inner
    for item in o:
        if isinstance(item, str):
            out.append(lead + encode(item))
        elif isinstance(item, (dict, list, tuple)) and item:
            out.append(lead)
            _emit_container(item, out, inner, step)
        else:
            out.append(lead + _json_leaf(item))
        lead = separator
    out.append(newline + "]")
