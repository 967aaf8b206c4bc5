"""Bytes -> JSON document, strictly, with the position of every value kept for diagnostics.

Parsing uses the C ``json`` module (fast). Positions come from a second, iterative scan of the text
(``PositionIndex``) that runs only when something has to be located: most cards need it for a warning or
two, and the scan costs about as much as the parse.

Strictness (RFC 8259 and the guide in docs/security.md): UTF-8 only (one BOM is tolerated, with a warning),
no duplicate member names, no NaN/Infinity, nesting and node counts bounded, top level an object.
"""

from __future__ import annotations

import bisect
import codecs
import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

from a2a_docgen.diagnostics import (
    DUPLICATE_KEY,
    EMPTY_FILE,
    ENCODING,
    JSON_SYNTAX,
    NOT_AN_OBJECT,
    TOO_DEEP,
    TOO_MANY_VALUES,
    UTF8_BOM,
    Code,
)
from a2a_docgen.limits import Limits
from a2a_docgen.model import JSONObject, JSONValue


def escape_token(token: str) -> str:
    """Escape one reference token for an RFC 6901 JSON Pointer."""
    if "~" not in token and "/" not in token:
        return token
    return token.replace("~", "~0").replace("/", "~1")


def join_pointer(base: str, *tokens: str | int) -> str:
    """``join_pointer("/skills", 0, "id") == "/skills/0/id"``."""
    for token in tokens:
        base += "/" + escape_token(token if isinstance(token, str) else str(token))
    return base


def pointer_tokens(pointer: str) -> list[str]:
    """Split a JSON Pointer into unescaped tokens."""
    if not pointer:
        return []
    if "~" not in pointer:
        return pointer[1:].split("/")
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]


MISSING: Any = object()
"""What ``resolve_pointer`` returns when nothing is at the pointer (``None`` is JSON ``null``)."""


def resolve_pointer(document: object, pointer: str) -> object:
    """The value at ``pointer`` in a parsed JSON document, or ``MISSING``."""
    value = document
    for token in pointer_tokens(pointer):
        if isinstance(value, dict) and token in value:
            value = value[token]
        elif isinstance(value, list) and token.isdecimal() and int(token) < len(value):
            value = value[int(token)]
        else:
            return MISSING
    return value


@dataclass(frozen=True, slots=True)
class SourceProblem:
    """Why a file could not be read as a JSON object, and where."""

    code: Code
    message: str
    offset: int
    """Character offset in the decoded text (0 when the problem is with the bytes as a whole)."""
    pointer: str = ""


class SourceError(Exception):
    """A file that is not a usable JSON document; carries the problem for the diagnostic."""

    def __init__(self, problem: SourceProblem, text: str = "") -> None:
        super().__init__(problem.message)
        self.problem = problem
        self.text = text


_WS = re.compile(r"[ \t\n\r]*")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_SCALAR = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|true|false|null|NaN|-?Infinity")
_CONSTANTS = frozenset({"NaN", "Infinity", "-Infinity"})


MAX_POINTER_CHARS = 4096
"""Pointers are not indexed beyond this length: values below a huge member name or nesting thousands deep
are located at their deepest indexed ancestor. Building every pointer would be quadratic in the file size."""


def _child(base: str, token: str | int) -> str:
    """``base`` extended by ``token``, or ``base`` itself once it is longer than ``MAX_POINTER_CHARS``."""
    return base if len(base) > MAX_POINTER_CHARS else join_pointer(base, token)


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column (in characters) of one offset, without indexing the document."""
    offset = max(0, min(offset, len(text)))
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1


@dataclass(slots=True)
class PositionIndex:
    """Offsets of every value and member name in a JSON text, keyed by JSON Pointer."""

    text: str
    values: dict[str, int] = field(default_factory=dict)
    keys: dict[str, int] = field(default_factory=dict)
    duplicates: list[tuple[str, int]] = field(default_factory=list)
    """(pointer of the repeated member, offset of its second name)."""
    constants: list[tuple[str, int]] = field(default_factory=list)
    """NaN / Infinity literals, and numbers too large for a float."""
    too_deep: tuple[str, int] | None = None
    node_count: int = 0
    _line_starts: list[int] = field(default_factory=list)

    @classmethod
    def build(cls, text: str, max_depth: int = 10**9) -> PositionIndex:
        index = cls(text)
        index._scan(max_depth)
        index._line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        return index

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column (in characters) of an offset."""
        line = bisect.bisect_right(self._line_starts, offset) - 1
        return line + 1, offset - self._line_starts[line] + 1

    def locate(self, pointer: str, *, at_key: bool = False) -> tuple[int, int]:
        """Line and column of the value at ``pointer`` (or of its member name when ``at_key``).

        A pointer to something that is not there (a missing member) resolves to its nearest existing
        ancestor, which is where the member has to be added.
        """
        if at_key and pointer in self.keys:
            return self.line_col(self.keys[pointer])
        probe = pointer
        while True:
            if probe in self.values:
                return self.line_col(self.values[probe])
            if not probe:
                return 1, 1
            probe = probe.rsplit("/", 1)[0]

    def _scan(self, max_depth: int) -> None:
        """Walk the text once, iteratively (documents may be nested 100,000 deep)."""
        text = self.text
        n = len(text)
        # Each frame: [pointer, is_object, next_array_index, member names seen]
        stack: list[tuple[str, bool, list[int], set[str]]] = []
        pos = _WS.match(text, 0).end()  # type: ignore[union-attr]
        pointer = ""
        expect_value = True
        while pos < n:
            if expect_value:
                self.values.setdefault(pointer, pos)
                self.node_count += 1
                char = text[pos]
                if char in "{[":
                    if len(stack) + 1 > max_depth and self.too_deep is None:
                        self.too_deep = (pointer, pos)
                        return  # only the first too-deep container is wanted; the rest could be huge
                    stack.append((pointer, char == "{", [0], set()))
                    pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
                    if pos < n and text[pos] in "}]":
                        stack.pop()
                        pos += 1
                        expect_value = False
                        continue
                    if char == "[":
                        pointer = _child(pointer, 0)
                        continue
                    expect_value = False
                    pos, pointer = self._member_name(stack[-1], pos)
                    if pos < 0:
                        return
                    expect_value = True
                    continue
                match = _STRING.match(text, pos) if char == '"' else _SCALAR.match(text, pos)
                if match is None:
                    return
                token = match.group()
                if token in _CONSTANTS or (token[0] in "-0123456789" and math.isinf(float(token))):
                    self.constants.append((pointer, pos))
                pos = match.end()
                expect_value = False
                continue
            # After a value: a comma or the end of the enclosing container.
            pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
            if not stack or pos >= n:
                return
            frame = stack[-1]
            if text[pos] == ",":
                pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
                if frame[1]:
                    pos, pointer = self._member_name(frame, pos)
                    if pos < 0:
                        return
                else:
                    frame[2][0] += 1
                    pointer = _child(frame[0], frame[2][0])
                expect_value = True
            elif text[pos] in "}]":
                stack.pop()
                pos += 1
            else:
                return

    def _member_name(self, frame: tuple[str, bool, list[int], set[str]], pos: int) -> tuple[int, str]:
        """Read ``"name" :`` at ``pos``; returns the offset of the value and its pointer (-1 on garbage)."""
        match = _STRING.match(self.text, pos)
        if match is None:
            return -1, ""
        try:
            name = json.loads(match.group())
        except ValueError:
            return -1, ""
        pointer = _child(frame[0], name)
        if name in frame[3]:
            self.duplicates.append((pointer, pos))
        else:
            frame[3].add(name)
            if pointer != frame[0]:
                self.keys[pointer] = pos
        after = _WS.match(self.text, match.end()).end()  # type: ignore[union-attr]
        if after >= len(self.text) or self.text[after] != ":":
            return -1, ""
        return _WS.match(self.text, after + 1).end(), pointer  # type: ignore[union-attr]


@dataclass(slots=True)
class ParsedSource:
    """A decoded, parsed card file. ``index`` is built on first use."""

    text: str
    value: JSONObject
    warnings: list[SourceProblem]
    _index: PositionIndex | None = None

    @property
    def index(self) -> PositionIndex:
        if self._index is None:
            self._index = PositionIndex.build(self.text)
        return self._index


_TOO_DEEP: Any = object()
"""Stands for a document ``json`` could not parse for its nesting (JSON ``null`` parses to ``None``)."""


class _Duplicate(Exception):
    pass


class _Constant(Exception):
    pass


def _reject_duplicates(pairs: list[tuple[str, JSONValue]]) -> JSONObject:
    result: JSONObject = dict(pairs)
    if len(result) < len(pairs):  # a name repeats: find the first repeat
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Duplicate(key)
            seen.add(key)
    return result


def _reject_constant(name: str) -> JSONValue:
    raise _Constant(name)


def _constant_message(token: str) -> str:
    if token in _CONSTANTS:
        return f"invalid JSON: {token} is not a JSON number"
    if token.lstrip("-").isdigit():
        # A literal of thousands of digits would fill the message: its length says enough.
        return f"invalid JSON: an integer of {len(token.lstrip('-'))} digits is too large for a number (it overflows a 64-bit float)"
    # A literal of thousands of digits would fill the message: its start and its length say enough.
    shown = token if len(token) <= 24 else f"{token[:12]}... ({len(token)} characters)"
    return f"invalid JSON: {shown} is too large for a number (it overflows a 64-bit float)"


def _finite_float(literal: str) -> float:
    """Numbers like 1e400 overflow to infinity, which JSON cannot represent: reject them like NaN."""
    value = float(literal)
    if math.isinf(value):
        raise _Constant(literal)
    return value


def _finite_int(literal: str) -> int:
    """Integers beyond a 64-bit float are rejected like 1e400: ProtoJSON readers (the a2a-sdk's
    ``parse_agent_card`` reading ``params``) hold every number as a double and fail on them."""
    if math.isinf(float(literal)):
        raise _Constant(literal)
    return int(literal)


_UTF16_32_BOMS = (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def decode(data: bytes) -> tuple[str, list[SourceProblem]]:
    """Strict UTF-8; one UTF-8 BOM is removed with a warning. Raises ``SourceError``."""
    warnings: list[SourceProblem] = []
    if any(data.startswith(bom) for bom in _UTF16_32_BOMS) or (b"\x00" in data[:4] and len(data) >= 2):
        raise SourceError(
            SourceProblem(
                ENCODING,
                "the file is UTF-16 or UTF-32; A2A cards are JSON, which must be UTF-8 (RFC 8259 section 8.1): "
                "re-save it as UTF-8",
                0,
            )
        )
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
        warnings.append(
            SourceProblem(
                UTF8_BOM,
                "the file starts with a UTF-8 byte order mark, which JSON parsers may reject; remove it",
                0,
            )
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = data[: exc.start].decode("utf-8", "replace")
        raise SourceError(
            SourceProblem(
                ENCODING,
                f"invalid UTF-8 byte 0x{data[exc.start]:02x}; A2A cards must be UTF-8: re-save the file as UTF-8",
                len(good),
            ),
            good,
        ) from None
    return text, warnings


def parse_text(text: str, limits: Limits) -> JSONObject:
    """Parse decoded text into a JSON object, or raise ``SourceError`` with the exact place."""
    if not text.strip():
        raise SourceError(SourceProblem(EMPTY_FILE, "the file is empty; a card is a JSON object", 0), text)
    try:
        value = json.loads(
            text,
            object_pairs_hook=_reject_duplicates,
            parse_constant=_reject_constant,
            parse_float=_finite_float,
            parse_int=_finite_int,
        )
    except json.JSONDecodeError as exc:
        message = f"invalid JSON: {exc.msg}{_syntax_hint(text, exc.pos)}"
        raise SourceError(SourceProblem(JSON_SYNTAX, message, exc.pos), text) from None
    except _Duplicate as exc:
        index = PositionIndex.build(text)
        pointer, offset = index.duplicates[0] if index.duplicates else ("", 0)
        raise SourceError(
            SourceProblem(
                DUPLICATE_KEY,
                f"member {json.dumps(str(exc))} appears twice in the same object; parsers disagree on which "
                "one wins, so keep exactly one",
                offset,
                pointer,
            ),
            text,
        ) from None
    except _Constant as exc:
        index = PositionIndex.build(text)
        # The literal that failed, not an earlier one that parsed (a 400-digit integer is a constant to the index).
        found = [(p, o) for p, o in index.constants if text.startswith(str(exc), o)] or index.constants
        pointer, offset = found[0] if found else ("", 0)
        raise SourceError(
            SourceProblem(JSON_SYNTAX, _constant_message(str(exc)), offset, pointer),
            text,
        ) from None
    except RecursionError:
        value = _TOO_DEEP  # nested far beyond any limit: located below
    except ValueError as exc:  # e.g. integers longer than sys.int_info.str_digits_check_threshold
        raise SourceError(SourceProblem(JSON_SYNTAX, f"invalid JSON: {exc}", 0), text) from None
    too_deep, nodes = (True, 0) if value is _TOO_DEEP else _shape(value, limits.max_depth)
    if too_deep:
        index = PositionIndex.build(text, limits.max_depth)
        pointer, offset = index.too_deep or ("", 0)
        raise SourceError(
            SourceProblem(
                TOO_DEEP,
                f"JSON nesting deeper than {limits.max_depth} levels "
                f"(limit max_depth, raise it with {Limits.option_name('max_depth')})",
                offset,
                pointer,
            ),
            text,
        )
    if not isinstance(value, dict):
        kind = _json_type_name(value)
        raise SourceError(
            SourceProblem(NOT_AN_OBJECT, f"the top level is {kind}; an Agent Card is a JSON object", 0),
            text,
        )
    if nodes > limits.max_nodes:
        raise SourceError(
            SourceProblem(
                TOO_MANY_VALUES,
                f"more than {limits.max_nodes} JSON values in one card "
                f"(limit max_nodes, raise it with {Limits.option_name('max_nodes')})",
                0,
            ),
            text,
        )
    return value


def _syntax_hint(text: str, pos: int) -> str:
    """The usual cause of a JSON syntax error at ``pos``, as advice."""
    rest = text[pos : pos + 2]
    if rest in ("//", "/*") or rest[:1] == "#":
        return "; JSON has no comments: remove it"
    if rest[:1] == "'":
        return "; JSON strings and names use double quotes"
    before = text[:pos].rstrip()
    if before.endswith(",") and rest[:1] in ("}", "]"):
        return "; remove the trailing comma before it"
    return ""


def might_exceed_depth(text: str, max_depth: int) -> bool:
    """False when the JSON value parsed from ``text`` cannot be nested deeper than ``max_depth``: each level
    needs its own opening bracket, so a text with at most ``max_depth`` of them is shallow enough."""
    return text.count("{") + text.count("[") > max_depth


def depth_exceeds(value: JSONValue, max_depth: int) -> bool:
    return _shape(value, max_depth)[0]


def _shape(value: JSONValue, max_depth: int) -> tuple[bool, int]:
    """(arrays or objects are nested deeper than ``max_depth``, the number of values when they are not).

    Walks one level at a time, so that most of the work is done by ``list.extend`` and a comprehension.
    """
    count = 1
    level: list[JSONObject | list[JSONValue]] = [value] if isinstance(value, (dict, list)) else []
    depth = 0
    while level:
        depth += 1
        if depth > max_depth:
            return True, count
        children: list[JSONValue] = []
        for container in level:
            children.extend(container.values() if isinstance(container, dict) else container)
        count += len(children)
        level = [child for child in children if isinstance(child, (dict, list))]
    return False, count


def _json_type_name(value: JSONValue) -> str:
    return json_type(value, article=True)


def json_type(value: object, *, article: bool = False) -> str:
    """The JSON name of a Python value's type: ``string``, ``an array`` ..."""
    names: list[tuple[type | tuple[type, ...], str, str]] = [
        (bool, "boolean", "a boolean"),
        ((int, float), "number", "a number"),
        (str, "string", "a string"),
        (list, "array", "an array"),
        (dict, "object", "an object"),
    ]
    if value is None:
        return "null"
    for kind, bare, with_article in names:
        if isinstance(value, kind):
            return with_article if article else bare
    return type(value).__name__


def parse_bytes(data: bytes, limits: Limits) -> ParsedSource:
    """Decode and parse; raises ``SourceError``."""
    text, warnings = decode(data)
    value = parse_text(text, limits)
    return ParsedSource(text=text, value=value, warnings=warnings)
