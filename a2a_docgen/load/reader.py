"""Typed, lenient access to raw JSON objects, reporting every type problem with its JSON Pointer.

The reader never coerces: a value of the wrong type is reported and read as ``None`` (absent). It also
accepts the proto field names in snake_case that ProtoJSON parsers accept (``default_input_modes``),
with a warning, since JSON-RPC clients of v0.3 do not.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable
from typing import Literal

from a2a_docgen.diagnostics import (
    LIMIT_EXCEEDED,
    NULL_VALUE,
    REQUIRED_EMPTY,
    REQUIRED_MISSING,
    SNAKE_CASE_NAME,
    WRONG_TYPE,
)
from a2a_docgen.limits import Limits
from a2a_docgen.load.report import Report
from a2a_docgen.load.source import join_pointer, json_type
from a2a_docgen.model import JSONObject, JSONValue

TextLimit = Literal["max_label_chars", "max_text_chars", "max_example_chars"]
"""The fields of ``Limits`` that bound one string (``max_url_chars`` bounds URLs, read by ``Reader.url``)."""
CountLimit = Literal["max_skills", "max_tags", "max_examples", "max_media_types"]
"""The fields of ``Limits`` that bound the length of one array."""

_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


@functools.lru_cache(maxsize=1024)
def snake_case(name: str) -> str:
    """``defaultInputModes`` -> ``default_input_modes``; ``oauth2MetadataUrl`` -> ``oauth2_metadata_url``."""
    return _CAMEL_BOUNDARY.sub("_", name).lower()


def quote(value: object) -> str:
    """A short JSON rendering of a value for messages."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _found(value: JSONValue) -> str:
    kind = json_type(value, article=True)
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return f"{kind} {quote(value)}"
    return kind


class Reader:
    """Reads members of JSON objects for one card, reporting into ``report``."""

    def __init__(self, report: Report, limits: Limits) -> None:
        self.report = report
        self.limits = limits

    def member(self, obj: JSONObject, key: str, base: str) -> tuple[JSONValue, str, bool]:
        """``(value, pointer, present)`` for ``key`` or its snake_case alias."""
        pointer = join_pointer(base, key)
        if key in obj:
            return obj[key], pointer, True
        alias = snake_case(key)
        if alias != key and alias in obj:
            alias_pointer = join_pointer(base, alias)
            self.report.add(
                SNAKE_CASE_NAME,
                alias_pointer,
                f'"{alias}" is the proto field name; A2A JSON uses camelCase: rename it to "{key}"',
                at_key=True,
            )
            return obj[alias], alias_pointer, True
        return None, pointer, False

    def _absent(
        self, key: str, pointer: str, value: JSONValue, present: bool, required: bool, hint: str
    ) -> bool:
        """Report a missing or null required member; True when the value is absent or null."""
        if present and value is not None:
            return False
        if required:
            state = "is null" if present else "is missing"
            self.report.add(REQUIRED_MISSING, pointer, f'required member "{key}" {state}: add {hint}')
        elif present:
            self.report.add(
                NULL_VALUE,
                pointer,
                f'"{key}" is null; omit the member instead (JSON Schema rejects null here)',
            )
        return True

    def _wrong(self, key: str, pointer: str, value: JSONValue, expected: str, fix: str = "") -> None:
        message = f'"{key}" must be {expected}, not {_found(value)}'
        self.report.add(WRONG_TYPE, pointer, message + (f"; {fix}" if fix else ""))

    def _string(
        self, obj: JSONObject, key: str, base: str, required: bool, hint: str
    ) -> tuple[str, str] | None:
        """``(value, pointer)`` of a string member; a wrong type, or a missing or empty required one, reported."""
        value, pointer, present = self.member(obj, key, base)
        if not isinstance(value, str):
            if not self._absent(key, pointer, value, present, required, hint):
                self._wrong(key, pointer, value, "a string")
            return None
        if required and not value.strip():
            self.report.add(REQUIRED_EMPTY, pointer, f'"{key}" is empty: add {hint}')
        return value, pointer

    def text(
        self,
        obj: JSONObject,
        key: str,
        base: str,
        *,
        required: bool = False,
        hint: str = "a string",
        limit: TextLimit = "max_label_chars",
    ) -> str | None:
        """A string, cut to the ``limit`` it exceeds (a field of ``Limits``) with an error naming that limit."""
        found = self._string(obj, key, base, required, hint)
        if found is None:
            return None
        value, pointer = found
        return value if len(value) <= getattr(self.limits, limit) else self.cap(value, pointer, key, limit)

    def url(
        self, obj: JSONObject, key: str, base: str, *, required: bool = False, hint: str = "a URL"
    ) -> str | None:
        """A URL or URI: a string that is never cut, as a shortened URL leads somewhere else. One longer than
        ``max_url_chars`` is reported and kept whole."""
        found = self._string(obj, key, base, required, hint)
        if found is None:
            return None
        value, pointer = found
        maximum = self.limits.max_url_chars
        if len(value) > maximum:
            self.report.add(
                LIMIT_EXCEEDED,
                pointer,
                f'"{key}" has {len(value)} characters, more than the limit of {maximum}; a URL is not cut, as a '
                f"shortened one would lead elsewhere (raise it with {Limits.option_name('max_url_chars')})",
            )
        return value

    def cap(self, value: str, pointer: str, key: str, limit: TextLimit) -> str:
        """Cut an over-long string to ``limit`` (a field of ``Limits``), with an error naming the limit."""
        max_chars: int = getattr(self.limits, limit)
        if len(value) <= max_chars:
            return value
        self.report.add(
            LIMIT_EXCEEDED,
            pointer,
            f'"{key}" has {len(value)} characters, more than the limit of {max_chars}; only the first '
            f"{max_chars} are used (raise it with {Limits.option_name(limit)})",
        )
        return value[:max_chars]

    def boolean(self, obj: JSONObject, key: str, base: str) -> bool | None:
        value, pointer, present = self.member(obj, key, base)
        if self._absent(key, pointer, value, present, False, ""):
            return None
        if isinstance(value, bool):
            return value
        fix = "write true or false without quotes" if isinstance(value, str) else "write true or false"
        self._wrong(key, pointer, value, "a boolean", fix)
        return None

    def obj(
        self, obj: JSONObject, key: str, base: str, *, required: bool = False, hint: str = "an object"
    ) -> tuple[JSONObject, str] | None:
        value, pointer, present = self.member(obj, key, base)
        if self._absent(key, pointer, value, present, required, hint):
            return None
        if not isinstance(value, dict):
            self._wrong(key, pointer, value, "an object")
            return None
        return value, pointer

    def array(
        self,
        obj: JSONObject,
        key: str,
        base: str,
        *,
        required: bool = False,
        hint: str = "an array",
        limit: CountLimit | None = None,
    ) -> tuple[list[JSONValue], str] | None:
        """A JSON array; required arrays need at least one element (spec section 5.7).

        ``limit`` names the field of ``Limits`` that bounds its length: longer arrays are cut with an error.
        """
        value, pointer, present = self.member(obj, key, base)
        if not isinstance(value, list):
            if not self._absent(key, pointer, value, present, required, hint):
                self._wrong(key, pointer, value, "an array")
            return None
        if required and not value:
            self.report.add(
                REQUIRED_EMPTY,
                pointer,
                f'"{key}" is a required array and must contain at least one element (A2A section 5.7): add {hint}',
            )
        maximum: int | None = getattr(self.limits, limit) if limit is not None else None
        if maximum is not None and len(value) > maximum:
            self.report.add(
                LIMIT_EXCEEDED,
                pointer,
                f'"{key}" has {len(value)} elements, more than the limit of {maximum}; only the first {maximum} '
                f"are used (raise it with {Limits.option_name(str(limit))})",
            )
            value = value[:maximum]
        return value, pointer

    def strings(
        self,
        obj: JSONObject,
        key: str,
        base: str,
        *,
        required: bool = False,
        hint: str = "an array of strings",
        limit: CountLimit | None = None,
        item_limit: TextLimit = "max_label_chars",
    ) -> tuple[tuple[str, ...], str] | None:
        """An array of strings, bounded by ``limit``, each bounded by ``item_limit``; elements of another type are
        reported and skipped."""
        found = self.array(obj, key, base, required=required, hint=hint, limit=limit)
        if found is None:
            return None
        items, pointer = found
        return self.string_items(items, pointer, key, item_limit), pointer

    def string_items(
        self, items: Iterable[JSONValue], pointer: str, key: str, limit: TextLimit = "max_label_chars"
    ) -> tuple[str, ...]:
        max_chars: int = getattr(self.limits, limit)
        result = []
        for index, item in enumerate(items):
            if isinstance(item, str):
                # The pointer is built only for a finding.
                result.append(
                    item if len(item) <= max_chars else self.cap(item, f"{pointer}/{index}", key, limit)
                )
            else:
                self.report.add(
                    WRONG_TYPE,
                    f"{pointer}/{index}",
                    f'elements of "{key}" must be strings, not {_found(item)}',
                )
        return tuple(result)

    def objects(self, items: list[JSONValue], pointer: str, what: str) -> list[tuple[int, JSONObject, str]]:
        """(index, object, pointer) for each element that is an object; others are reported."""
        result = []
        for index, item in enumerate(items):
            item_pointer = f"{pointer}/{index}"
            if isinstance(item, dict):
                result.append((index, item, item_pointer))
            else:
                self.report.add(
                    WRONG_TYPE, item_pointer, f"each {what} must be an object, not {_found(item)}"
                )
        return result

    def string_map(
        self, obj: JSONObject, key: str, base: str, *, required: bool = False, hint: str
    ) -> dict[str, str] | None:
        """An object whose values are strings (OAuth scopes: name -> description)."""
        found = self.obj(obj, key, base, required=required, hint=hint)
        if found is None:
            return None
        mapping, pointer = found
        result: dict[str, str] = {}
        for name, description in mapping.items():
            if isinstance(description, str):
                result[name] = description
            else:
                self.report.add(
                    WRONG_TYPE,
                    join_pointer(pointer, name),
                    f'the description of "{name}" must be a string, not {_found(description)}',
                )
                result[name] = ""
        return result
