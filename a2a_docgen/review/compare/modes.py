"""Media types: what the card defaults and each skill accept (input) and produce (output).

A skill without its own modes has the card defaults; a change of the defaults is reported once, for the
agent. ``text/*`` and ``*/*`` cover the types below them; type, subtype and parameter names compare
case-insensitively (and so does a ``charset`` value).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from a2a_docgen.model import AgentSkill, EffectiveModes
from a2a_docgen.protocol import media_type_essence
from a2a_docgen.review.codes import (
    INPUT_MODE_ADDED,
    INPUT_MODE_REMOVED,
    OUTPUT_MODE_ADDED,
    OUTPUT_MODE_REMOVED,
    ReviewCode,
)
from a2a_docgen.review.compare.base import AgentPair, element_at, inherit_note, q

__all__ = ["compare_default_modes", "compare_skill_modes"]

Direction = Literal["input", "output"]

_MODE_WORDS = {"input": ("accepted", "accept"), "output": ("produced", "produce")}
"""Participle, and the verb for a plural subject (the card defaults)."""

_CODES: dict[Direction, tuple[ReviewCode, ReviewCode]] = {
    "input": (INPUT_MODE_REMOVED, INPUT_MODE_ADDED),
    "output": (OUTPUT_MODE_REMOVED, OUTPUT_MODE_ADDED),
}
"""(removed, added) of each direction."""


def compare_default_modes(pair: AgentPair) -> None:
    old, new = pair.old, pair.new
    note = "the skills that inherit these defaults"
    sides: tuple[tuple[Direction, Sequence[str], Sequence[str], str, Callable[[AgentSkill], str]], ...] = (
        ("input", old.default_input_modes, new.default_input_modes, "/defaultInputModes", _input_origin),
        ("output", old.default_output_modes, new.default_output_modes, "/defaultOutputModes", _output_origin),
    )
    for direction, before, after, pointer, origin in sides:
        if tuple(before) == tuple(after):
            continue  # every mode covers itself: nothing to say, so no skills to name
        _modes(pair, direction, before, after, pointer, None, inherit_note(pair.inheriting(origin), note))


def _input_origin(skill: AgentSkill) -> str:
    return skill.effective_input_modes.origin


def _output_origin(skill: AgentSkill) -> str:
    return skill.effective_output_modes.origin


def compare_skill_modes(
    pair: AgentPair, direction: Direction, skill: str, old: EffectiveModes, new: EffectiveModes
) -> None:
    if old.origin == "card" and new.origin == "card":
        return  # a change of the card defaults, reported once for the agent
    key = f"{direction}Modes"
    if old.origin != new.origin:
        note = (
            f" (the skill now declares its own {key}, which replace the card defaults)"
            if new.origin == "skill"
            else f" (the skill no longer declares {key} and takes the card defaults)"
        )
    else:
        note = ""
    _modes(pair, direction, old.modes, new.modes, new.pointer, skill, note)


def _modes(
    pair: AgentPair,
    direction: Direction,
    old: Sequence[str],
    new: Sequence[str],
    pointer: str,
    skill: str | None,
    note: str,
) -> None:
    if tuple(old) == tuple(new):
        return  # every mode covers itself (a list read twice from a card's history, say)
    done, verb = _MODE_WORDS[direction]
    whose, verb = ("the card defaults", verb) if skill is None else ("the skill", verb + "s")
    removed, added = _CODES[direction]
    for index, mode in enumerate(old):
        if not _mode_covered(mode, new, direction):
            pair.add(
                removed,
                f"{whose} no longer {verb} {q(mode)}{note}",
                pointer,
                skill=skill,
                before=mode,
                at=element_at(pointer, index, len(new)),
            )
    for index, mode in enumerate(new):
        if not _mode_covered(mode, old, direction):
            pair.add(
                added,
                f"{q(mode)} is now {done} by {whose}{note}",
                pointer,
                skill=skill,
                after=mode,
                at=element_at(pointer, index, len(new)),
            )


def _media_type(mode: str) -> tuple[str, dict[str, str]]:
    """``"Text/Plain; Charset=UTF-8"`` -> ``("text/plain", {"charset": "utf-8"})``.

    Type, subtype and parameter names are case-insensitive, and so is the value of ``charset``.
    """
    _, *parameters = mode.split(";")
    parsed: dict[str, str] = {}
    for parameter in parameters:
        name, _, value = parameter.partition("=")
        name, value = name.strip().lower(), value.strip().strip('"')
        if name:
            parsed[name] = value.lower() if name == "charset" else value
    return media_type_essence(mode), parsed


def _mode_covered(mode: str, modes: Sequence[str], direction: Direction) -> bool:
    """Whether ``modes`` still includes ``mode``: the same type, or a wildcard (``*/*``, ``text/*``) over it.

    Parameters: an input type is covered by the same type with fewer parameters (``text/plain`` accepts
    ``text/plain;charset=utf-8``). An output type is covered by the same type with any parameters that do
    not contradict its own: a client that asks for ``text/plain`` still gets it when the agent produces
    ``text/plain;charset=utf-8``.
    """
    essence, parameters = _media_type(mode)
    major = essence.split("/", 1)[0]
    for candidate in modes:
        other, other_parameters = _media_type(candidate)
        if other in ("*/*", "*") or other == f"{major}/*":
            return True
        if other != essence:
            continue
        if direction == "output":
            shared = parameters.keys() & other_parameters.keys()
            if all(parameters[name] == other_parameters[name] for name in shared):
                return True
        elif other_parameters.items() <= parameters.items():
            return True
    return False
