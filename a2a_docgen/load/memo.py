"""Skills read before, for reading many versions of one card file (its history) at the cost of what changed.

Consecutive versions of a card mostly repeat their skills. A ``SkillMemo`` keeps, for each skill's place in
the file (its JSON Pointer), the last skill read there: its JSON (as a key, below), what it was read with (the card's era
and the limits), the model and the findings reading it reported. When the next version has the same JSON at
the same place, read with the same, the normaliser takes the model and reports the same findings again
instead of reading the skill anew, with what it inherits (the card's default modes and requirements) taken
from the version being read: the result is the same, by construction (reading a skill is a function of
these), and ``tests/test_skill_memo.py`` compares both ways.

The key is the parsed value's ``repr`` rather than ``==`` of the values: Python's ``==`` takes ``true`` for
``1`` and ``1`` for ``1.0``, and member order shows in the model (an example's JSON value); the ``repr`` of
JSON values (dicts in their order, lists, strings, numbers, literals) tells all of these apart, in one call.
"""

from __future__ import annotations

from dataclasses import dataclass

from a2a_docgen.limits import Limits
from a2a_docgen.load.report import Finding
from a2a_docgen.model import AgentSkill, Era, JSONObject

__all__ = ["SkillContext", "SkillMemo"]


@dataclass(frozen=True, slots=True)
class SkillContext:
    """What reading a skill depends on besides its own JSON, its place and what it inherits from the card."""

    era: Era
    limits: Limits


@dataclass(frozen=True, slots=True)
class _Read:
    text: str
    context: SkillContext
    skill: AgentSkill
    findings: tuple[Finding, ...]


class SkillMemo:
    """The last skill read at each place of one card file; one memo per file (see the module docstring)."""

    def __init__(self) -> None:
        self._last: dict[str, _Read] = {}

    @staticmethod
    def key(obj: JSONObject) -> str:
        return repr(obj)

    def get(
        self, pointer: str, text: str, context: SkillContext
    ) -> tuple[AgentSkill, tuple[Finding, ...]] | None:
        """The skill and findings read last at ``pointer`` when they were read from ``text`` with ``context``."""
        last = self._last.get(pointer)
        if last is None or last.text != text or last.context != context:
            return None
        return last.skill, last.findings

    def put(
        self, pointer: str, text: str, context: SkillContext, skill: AgentSkill, findings: tuple[Finding, ...]
    ) -> None:
        self._last[pointer] = _Read(text, context, skill, findings)
