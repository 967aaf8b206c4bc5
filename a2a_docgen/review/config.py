"""The review configuration of a cards repository: ``.a2a-docgen.toml``, its ``[diff]`` table.

```toml
[diff]
version-policy = "breaking"          # true / "on" (the default), false / "off", or a severity

[diff.severity]
extension-removed = "non-breaking"   # any code: breaking, non-breaking, info, or "off" to hide it

[[diff.accept]]
agent = "Weather Agent"
skill = "forecast"                   # omit for a change to the agent as a whole
code = "input-mode-removed"
pointer = "/skills/0/inputModes"     # optional: only the finding at this JSON Pointer
reason = "No client sends JSON to forecast (checked in the gateway logs, May 2025)"

[[diff.accept]]
fingerprint = "3e5c6f97a9b2e253"     # a finding's fingerprint (JSON output): survives moved lines
reason = "Streaming moved to the events agent"
expires = 2025-09-30                 # optional: the acceptance stops applying after this day
```

The file is user input: every problem is a ``ConfigError`` (a usage error) that names the file, the line
where the line can be found, and the key path (``diff.accept[0].reason``).
"""

from __future__ import annotations

import difflib
import json
import os
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from a2a_docgen.errors import UsageError
from a2a_docgen.review.codes import CODES, SEVERITIES, ChangeSeverity

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, published as tomli
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

__all__ = [
    "CONFIG_NAME",
    "Acceptance",
    "ConfigError",
    "ConfigWarning",
    "ReviewConfig",
    "decode_config",
    "find_config",
    "load_config",
    "parse_config",
]

CONFIG_NAME = ".a2a-docgen.toml"
"""The file ``diff`` looks for in the head cards' directory and its parents (up to the repository root)."""

_SEVERITY_OFF = "off"
_DIFF_KEYS = ("version-policy", "severity", "accept")
_ACCEPT_KEYS = ("agent", "skill", "code", "pointer", "fingerprint", "reason", "expires")
_FINGERPRINT = re.compile(r"[0-9a-f]{16}")


class ConfigError(UsageError):
    """The configuration file cannot be used; the message names the file, line and key."""

    def __init__(self, message: str, *, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.line = line
        """Where the problem is, when known (the ``config-invalid`` finding is shown there)."""
        self.column = column


@dataclass(frozen=True, slots=True, kw_only=True)
class ConfigWarning:
    """Something in the configuration that needs attention but does not stop the review."""

    file: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.message}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Acceptance:
    """A change the team has accepted: it is shown as accepted, with the reason, and never fails a run."""

    agent: str | None
    """``None`` only with a ``fingerprint`` (which names the agent)."""
    skill: str | None
    """``None``: a change to the agent as a whole (a finding whose ``skill`` is empty); with a
    ``fingerprint``, a finding of any skill unless ``skill`` was given."""
    code: str | None
    """``None`` only with a ``fingerprint`` (which names the code)."""
    pointer: str | None
    """When set, only the finding at this JSON Pointer (as in the JSON output)."""
    fingerprint: str | None = None
    """When set, only the finding with this fingerprint (as in the JSON output): unlike a pointer, it
    stays the same when lines move or an array is reordered."""
    skill_given: bool = True
    """Whether ``skill`` was written (only a fingerprint acceptance may leave the skill open)."""
    reason: str
    expires: date | None
    """The last day the acceptance applies; ``None`` for no end."""
    file: str
    line: int | None

    def matches(self, agent: str, skill: str | None, code: str, pointer: str, fingerprint: str) -> bool:
        return (
            (self.agent is None or self.agent == agent)
            and (not self.skill_given or self.skill == skill)
            and (self.code is None or self.code == code)
            and (self.pointer is None or self.pointer == pointer)
            and (self.fingerprint is None or self.fingerprint == fingerprint)
        )

    def expired(self, today: date) -> bool:
        return self.expires is not None and today > self.expires

    def describe(self) -> str:
        """``input-mode-removed for Weather Agent › forecast`` (for warnings)."""
        what = self.code if self.code is not None else "the change"
        where = ""
        if self.agent is not None:
            where = f" for {self.agent} › {self.skill}" if self.skill is not None else f" for {self.agent}"
        at = f" at {self.pointer}" if self.pointer is not None else ""
        with_print = f" with fingerprint {self.fingerprint}" if self.fingerprint is not None else ""
        return f"the acceptance of {what}{where}{at}{with_print}"

    def to_json(self) -> dict[str, str | int | None]:
        return {
            "reason": self.reason,
            "expires": self.expires.isoformat() if self.expires else None,
            "file": self.file,
            "line": self.line,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class ReviewConfig:
    """What a configuration file changes; the default is no file at all."""

    path: str | None = None
    """The file it was read from, as shown in messages."""
    severities: Mapping[str, ChangeSeverity | None] = field(default_factory=dict)
    """Code -> severity; ``None`` hides the code's findings."""
    version_policy: bool = True
    """Whether breaking changes must come with a major version bump (``version-not-bumped``)."""
    accept: tuple[Acceptance, ...] = ()
    lines: _KeyLines | None = field(default=None, compare=False, repr=False)
    """Where each table and key of the file is, for findings about the file itself (``review.rules``)."""

    def severity(self, code: str) -> ChangeSeverity | None:
        """The severity of ``code`` under this configuration (its default unless set); ``None``: off."""
        return self.severities[code] if code in self.severities else CODES[code][0]

    def place(self, key: Sequence[str | int]) -> tuple[int, int]:
        """Line and column of ``key`` in the file, else of the nearest table or key that holds it, else 1, 1."""
        return self.lines.place(key) if self.lines is not None else (1, 1)

    def written(self, key: Sequence[str | int]) -> bool:
        """Whether the file writes ``key`` itself."""
        return self.lines is not None and tuple(key) in self.lines.lines


def find_config(start: str | os.PathLike[str] | None = None) -> Path | None:
    """The nearest ``.a2a-docgen.toml`` in ``start`` (the head cards' directory; default: the current
    directory) or a parent.

    The search stops at the root of the git repository (a directory that has ``.git``) and at the root of
    the file system, so a file outside the repository is never read by accident.
    """
    directory = Path(start if start is not None else os.getcwd()).resolve()
    for candidate in (directory, *directory.parents):
        path = candidate / CONFIG_NAME
        if path.is_file():
            return path
        if (candidate / ".git").exists():
            return None
    return None


def shown_path(path: Path, root: str | None = None) -> str:
    """``path`` as reports show it: relative to ``root`` (the top of the repository that holds the cards under
    review; default: the current directory) when it is below it, else as given."""
    try:
        relative = os.path.relpath(path) if root is None else os.path.relpath(os.path.realpath(path), root)
    except ValueError:  # another drive (Windows)
        return str(path)
    return str(path) if relative.startswith(os.pardir) else relative


def load_config(path: str | os.PathLike[str], *, root: str | None = None) -> ReviewConfig:
    """Read and validate a configuration file, shown from ``root`` (``shown_path``); raises ``ConfigError``
    with file, line and key (a file that cannot be read is named as given, for the terminal)."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise ConfigError(f"{os.fspath(path)}: no such configuration file") from None
    except OSError as exc:
        raise ConfigError(
            f"{os.fspath(path)}: cannot read the configuration: {exc.strerror or exc}"
        ) from None
    return decode_config(data, shown_path(Path(path), root))


def decode_config(data: bytes, path: str) -> ReviewConfig:
    """Validate the bytes of a configuration file shown as ``path`` (read from disk or at a revision)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{path}: the configuration is not UTF-8 ({exc.reason} at byte {exc.start})"
        ) from None
    return parse_config(text, path)


_TOML_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")
_TOML_AT_END = re.compile(r"\s*\(at end of document\)$")


def parse_config(text: str, path: str) -> ReviewConfig:
    """Validate the text of a configuration file shown as ``path``."""
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        position = _TOML_POSITION.search(message)
        if position is None:
            at_end = _TOML_AT_END.search(message)
            if at_end is not None:
                last = text.count("\n") + (0 if text.endswith("\n") else 1)
                raise ConfigError(
                    f"{path}:{max(last, 1)}: not valid TOML: {message[: at_end.start()]}", line=max(last, 1)
                ) from None
            raise ConfigError(f"{path}: not valid TOML: {message}") from None
        line, column = position.groups()
        raise ConfigError(
            f"{path}:{line}:{column}: not valid TOML: {message[: position.start()]}",
            line=int(line),
            column=int(column),
        ) from None
    return _Validator(path, _KeyLines.scan(text)).config(data)


class _Validator:
    """Turns parsed TOML into a ``ReviewConfig``, or raises the first problem with its place."""

    def __init__(self, path: str, lines: _KeyLines) -> None:
        self.path = path
        self.lines = lines

    def fail(self, key: Sequence[str | int], problem: str) -> ConfigError:
        line = self.lines.line(key)
        where = f"{self.path}:{line}" if line else self.path
        return ConfigError(f"{where}: {_key_path(key)}: {problem}", line=line)

    def config(self, data: Mapping[str, Any]) -> ReviewConfig:
        for key in data:
            if key != "diff":
                raise self.fail([key], "unknown table; a2a-docgen diff reads its settings from [diff]")
        section = data.get("diff", {})
        if not isinstance(section, dict):
            raise self.fail(["diff"], f"must be a table, not {_kind(section)}")
        self.known_keys(section, ["diff"], _DIFF_KEYS)
        severities = self.severities(section.get("severity", {}))
        version_policy = self.version_policy(section, severities)
        accept = self.acceptances(section.get("accept", []))
        return ReviewConfig(
            path=self.path,
            severities=severities,
            version_policy=version_policy,
            accept=accept,
            lines=self.lines,
        )

    def known_keys(self, table: Mapping[str, Any], key: list[str | int], known: Sequence[str]) -> None:
        for name in table:
            if name not in known:
                raise self.fail(
                    [*key, name], f"unknown key{_did_you_mean(name, known)}; known: {', '.join(known)}"
                )

    def severities(self, table: object) -> dict[str, ChangeSeverity | None]:
        key: list[str | int] = ["diff", "severity"]
        if not isinstance(table, dict):
            raise self.fail(key, f"must be a table of code = severity, not {_kind(table)}")
        result: dict[str, ChangeSeverity | None] = {}
        for code, value in table.items():
            if code not in CODES:
                raise self.fail(
                    [*key, code],
                    f"unknown code{_did_you_mean(code, CODES)}; see a2a-docgen diff --list-codes",
                )
            result[code] = self.severity([*key, code], value, allow_off=True)
        return result

    def severity(self, key: list[str | int], value: object, *, allow_off: bool) -> ChangeSeverity | None:
        choices = [*SEVERITIES, *([_SEVERITY_OFF] if allow_off else [])]
        if isinstance(value, str):
            for severity in SEVERITIES:
                if value == severity:
                    return severity
            if allow_off and value == _SEVERITY_OFF:
                return None
        shown = repr(value) if isinstance(value, str) else _kind(value)
        raise self.fail(key, f"{shown} is not a severity; use one of {', '.join(repr(c) for c in choices)}")

    def version_policy(
        self, section: Mapping[str, Any], severities: dict[str, ChangeSeverity | None]
    ) -> bool:
        """Whether the policy is on; a severity given here becomes that of ``version-not-bumped``."""
        if "version-policy" not in section:
            return True
        key: list[str | int] = ["diff", "version-policy"]
        value = section["version-policy"]
        if value is True or value == "on":
            return True
        if value is False or value == "off":
            return False
        if not isinstance(value, str) or value not in SEVERITIES:
            raise self.fail(
                key,
                f"{value!r} is not a version policy; use true, false, 'on', 'off' or a severity "
                f"({', '.join(repr(s) for s in SEVERITIES)})",
            )
        if "version-not-bumped" in severities:
            raise self.fail(key, "diff.severity.version-not-bumped is set too; set the severity in one place")
        severities["version-not-bumped"] = self.severity(key, value, allow_off=False)
        return True

    def acceptances(self, entries: object) -> tuple[Acceptance, ...]:
        if not isinstance(entries, list):
            raise self.fail(
                ["diff", "accept"], f"must be an array of tables ([[diff.accept]]), not {_kind(entries)}"
            )
        return tuple(self.acceptance(index, entry) for index, entry in enumerate(entries))

    def acceptance(self, index: int, entry: object) -> Acceptance:
        key: list[str | int] = ["diff", "accept", index]
        if not isinstance(entry, dict):
            raise self.fail(key, f"must be a table with agent, code and reason, not {_kind(entry)}")
        self.known_keys(entry, key, _ACCEPT_KEYS)
        fingerprint = self.text(entry, key, "fingerprint") if "fingerprint" in entry else None
        if fingerprint is not None and not _FINGERPRINT.fullmatch(fingerprint):
            raise self.fail(
                [*key, "fingerprint"],
                f"{fingerprint!r} is not a fingerprint (16 lowercase hexadecimal digits, as in the JSON output)",
            )
        # A fingerprint names the agent, skill and code itself; without one they say what is accepted.
        for required in ("reason",) if fingerprint is not None else ("agent", "code", "reason"):
            if required not in entry:
                raise self.fail(
                    key,
                    f"{required} is missing (every acceptance needs agent, code and reason, "
                    "or fingerprint and reason)",
                )
        agent = self.text(entry, key, "agent") if "agent" in entry else None
        code = self.text(entry, key, "code") if "code" in entry else None
        if code is not None and code not in CODES:
            raise self.fail([*key, "code"], f"unknown code {code!r}{_did_you_mean(code, CODES)}")
        pointer = self.text(entry, key, "pointer", allow_empty=True) if "pointer" in entry else None
        if pointer and not pointer.startswith("/"):
            raise self.fail(
                [*key, "pointer"], f"{pointer!r} is not a JSON Pointer (it starts with /, or is empty)"
            )
        return Acceptance(
            agent=agent,
            skill=self.text(entry, key, "skill") if "skill" in entry else None,
            code=code,
            pointer=pointer,
            fingerprint=fingerprint,
            skill_given="skill" in entry or fingerprint is None,
            reason=self.text(entry, key, "reason"),
            expires=self.expiry(entry, key),
            file=self.path,
            line=self.lines.line(key),
        )

    def text(
        self, entry: Mapping[str, Any], key: list[str | int], name: str, *, allow_empty: bool = False
    ) -> str:
        value = entry[name]
        if not isinstance(value, str):
            raise self.fail([*key, name], f"must be a string, not {_kind(value)}")
        if not allow_empty and not value.strip():
            raise self.fail([*key, name], "must not be empty")
        return value

    def expiry(self, entry: Mapping[str, Any], key: list[str | int]) -> date | None:
        if "expires" not in entry:
            return None
        value = entry["expires"]
        if isinstance(value, datetime):
            return value.date()
        if isinstance(value, date):
            return value
        if isinstance(value, str):
            try:
                return date.fromisoformat(value)
            except ValueError:
                pass
        raise self.fail([*key, "expires"], f"{value!r} is not a date; write it as 2025-09-30")


def _key_path(key: Sequence[str | int]) -> str:
    """``diff.accept[0].reason``; names that are not bare TOML keys are quoted."""
    text = ""
    for part in key:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            name = part if re.fullmatch(r"[A-Za-z0-9_-]+", part) else '"' + part.replace('"', '\\"') + '"'
            text += f".{name}" if text else name
    return text


def _kind(value: object) -> str:
    kinds = {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "an array",
        dict: "a table",
    }
    for kind, label in kinds.items():
        if isinstance(value, kind):
            return label
    return "a date" if isinstance(value, date) else "a value of another kind"


def _did_you_mean(word: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(known), n=1)
    return f" (did you mean {close[0]}?)" if close else ""


_BARE_OR_QUOTED = r"(?:[A-Za-z0-9_-]+|\"(?:[^\"\\]|\\.)*\"|'[^']*')"
_DOTTED = rf"{_BARE_OR_QUOTED}(?:\s*\.\s*{_BARE_OR_QUOTED})*"
_HEADER = re.compile(rf"^\s*(\[\[?)\s*({_DOTTED})\s*\]\]?\s*(?:#.*)?$")
_ASSIGNMENT = re.compile(rf"^\s*({_DOTTED})\s*=")
_PART = re.compile(_BARE_OR_QUOTED)


class _KeyLines:
    """Line numbers of the tables and keys of a TOML text, for messages (tomllib keeps no positions).

    A light scan, not a parser: headers and ``key =`` lines outside multi-line strings. Keys inside
    inline tables and arrays are found at the line of the key that holds them.
    """

    def __init__(self) -> None:
        self.lines: dict[tuple[str | int, ...], int] = {}
        self.columns: dict[tuple[str | int, ...], int] = {}

    @classmethod
    def scan(cls, text: str) -> _KeyLines:
        found = cls()
        prefix: tuple[str | int, ...] = ()
        arrays: dict[tuple[str | int, ...], int] = {}
        in_string: str | None = None
        for number, line in enumerate(text.splitlines(), start=1):
            if in_string is not None:
                if line.count(in_string) % 2 == 1:
                    in_string = None
                continue
            header = _HEADER.match(line)
            if header is not None:
                names = tuple(_parts(header.group(2)))
                if header.group(1) == "[[":
                    arrays[names] = arrays.get(names, -1) + 1
                    prefix = (*names, arrays[names])
                else:
                    prefix = names
                found.add(prefix, number, header.start(1) + 1)
                continue
            assignment = _ASSIGNMENT.match(line)
            if assignment is not None:
                found.add((*prefix, *_parts(assignment.group(1))), number, assignment.start(1) + 1)
                rest = line[assignment.end() :]
                for quotes in ('"""', "'''"):
                    if rest.count(quotes) % 2 == 1:
                        in_string = quotes
        return found

    def add(self, key: tuple[str | int, ...], line: int, column: int) -> None:
        if key not in self.lines:
            self.lines[key], self.columns[key] = line, column

    def line(self, key: Sequence[str | int]) -> int | None:
        """The line of ``key``, else of the nearest enclosing key that has one."""
        found = self._nearest(key)
        return self.lines[found] if found is not None else None

    def place(self, key: Sequence[str | int]) -> tuple[int, int]:
        """Line and column of ``key``, else of the nearest enclosing key that has them, else 1, 1."""
        found = self._nearest(key)
        return (self.lines[found], self.columns[found]) if found is not None else (1, 1)

    def _nearest(self, key: Sequence[str | int]) -> tuple[str | int, ...] | None:
        probe = tuple(key)
        while probe and probe not in self.lines:
            probe = probe[:-1]
        return probe or None


def _parts(dotted: str) -> list[str]:
    names = []
    for match in _PART.finditer(dotted):
        token = match.group()
        if token.startswith('"'):
            try:
                token = json.loads(token)
            except ValueError:  # a TOML escape JSON does not know (\UXXXXXXXX, \e): close enough
                token = token[1:-1]
        elif token.startswith("'"):
            token = token[1:-1]
        names.append(token)
    return names
