"""The version policy: breaking changes to an agent must come with a major bump of its own ``version``.

"Major" follows the ``^`` ranges of npm and Cargo: the leftmost non-zero part must grow. The policy
judges the breaking changes that are left after the configuration (severity overrides, accepted changes).
"""

from __future__ import annotations

from a2a_docgen.protocol import semantic_version as parse_version

__all__ = ["parse_version", "version_finding"]


def _is_major_bump(old: tuple[int, int, int], new: tuple[int, int, int]) -> bool:
    """Breaking-change bump in the sense of ``^`` ranges: the leftmost non-zero part of ``old`` grows.

    So 1.4.2 -> 2.0.0, 0.3.1 -> 0.4.0 and 0.0.3 -> 0.0.4 are all bumps that announce breaking changes.
    """
    level = next((i for i, part in enumerate(old) if part), 2)
    return new[: level + 1] > old[: level + 1]


def _next_major(version: str | None) -> str:
    parsed = parse_version(version)
    if parsed is None:
        return "a new major version"
    major, minor, patch = parsed
    if major:
        return f"{major + 1}.0.0"
    return f"0.{minor + 1}.0" if minor else f"0.0.{patch + 1}"


def _q(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def version_finding(old: str | None, new: str | None) -> tuple[str, str] | None:
    """(code, message) when an agent with breaking changes goes from version ``old`` to ``new``.

    ``None`` when ``new`` is a major bump of ``old``.
    """
    if new is None:
        if old is None:
            return (
                "version-not-bumped",
                'breaking changes ship but the card declares no version; declare one (e.g. "1.0.0") and bump '
                "its major part with every breaking change",
            )
        return (
            "version-not-bumped",
            f"breaking changes ship but the version {_q(old)} was removed; declare {_next_major(old)} or later",
        )
    if old == new:
        hint = f"; bump it to {_next_major(old)}" if parse_version(old) else ""
        return "version-not-bumped", f"breaking changes ship but the version is still {_q(new)}{hint}"
    if old is None:
        return (
            "version-not-semver",
            f"breaking changes ship and the version {_q(new)} is new (the base card declared none), so whether "
            "it is a major bump cannot be told",
        )
    old_parsed, new_parsed = parse_version(old), parse_version(new)
    if old_parsed is None or new_parsed is None:
        bad = old if old_parsed is None else new
        return (
            "version-not-semver",
            f"breaking changes ship and the version went from {_q(old)} to {_q(new)}, but {_q(bad)} is not a "
            "semantic version, so whether that is a major bump cannot be told",
        )
    if _is_major_bump(old_parsed, new_parsed):
        return None
    return (
        "version-not-bumped",
        f"breaking changes ship but the version went from {_q(old)} to {_q(new)}, which is not a major bump; "
        f"use {_next_major(old)} or later",
    )
