"""Skills: added, removed, their id changed, and what changed in one (text, modes, security).

Skills are matched by id, as clients and registries refer to them. What is left is matched by name,
then by description: a skill that kept its name (or description) under a new id is ``skill-id-changed``
(clients that call the old id fail), and the rest of it is compared as usual.
"""

from __future__ import annotations

from a2a_docgen.load.source import join_pointer
from a2a_docgen.model import AgentSkill
from a2a_docgen.review.codes import (
    DESCRIPTION_CHANGED,
    EXAMPLES_CHANGED,
    NAME_CHANGED,
    SKILL_ADDED,
    SKILL_ID_CHANGED,
    SKILL_REMOVED,
    TAGS_CHANGED,
)
from a2a_docgen.review.compare.base import AgentPair, element_at, first_difference, q, strings
from a2a_docgen.review.compare.modes import compare_skill_modes
from a2a_docgen.review.compare.security import compare_security
from a2a_docgen.review.match import pair, pair_passes

__all__ = ["compare_skills"]


def compare_skills(pair_: AgentPair) -> None:
    old = [s for s in pair_.old.skills if s.id is not None]
    new = [s for s in pair_.new.skills if s.id is not None]
    if len(old) == len(new) and all(
        _itself(pair_, before, after) for before, after in zip(old, new, strict=True)
    ):
        # Each skill is the very object of the other version (``load.memo``, a history's consecutive
        # versions): pairing would match each with itself, and ``_skill`` finds nothing in such a pair.
        return
    pairs, removed, added = pair(old, new, lambda s: s.id)
    moved, removed, added = pair_passes(
        removed, added, (lambda s: s.name or None, lambda s: s.description or None)
    )
    for skill in removed:
        named = f" ({q(skill.name)})" if skill.name and skill.name != skill.id else ""
        pair_.add(
            SKILL_REMOVED,
            f"the skill is gone{named}; clients that call it fail",
            skill.pointer,
            skill=skill.id,
            before=skill.id,
            side="base",
        )
    for skill in added:
        named = f", {q(skill.name)}" if skill.name and skill.name != skill.id else ""
        pair_.add(SKILL_ADDED, f"a new skill{named}", skill.pointer, skill=skill.id, after=skill.id)
    for before, after in moved:
        pair_.add(
            SKILL_ID_CHANGED,
            f"the skill's id changed from {q(before.id)} to {q(after.id)}; clients that call {q(before.id)} fail",
            join_pointer(after.pointer, "id"),
            skill=after.id,
            before=before.id,
            after=after.id,
        )
    for before, after in [*pairs, *moved]:
        _skill(pair_, before, after)


def _itself(pair_: AgentPair, old: AgentSkill, new: AgentSkill) -> bool:
    """The same skill read once for both versions (``load.memo``): equal text, tags, examples and modes, and
    requirements that are the card's (compared for the agent) or its own under the same schemes (a skill's
    own requirements are compared with the schemes each version declares)."""
    return old is new and (new.effective_security.origin == "card" or pair_.schemes_unchanged)


def _skill(pair_: AgentPair, old: AgentSkill, new: AgentSkill) -> None:
    sid = new.id
    assert sid is not None
    if _itself(pair_, old, new):
        return
    pair_.text_change(
        NAME_CHANGED, "skill's name", old.name, new.name, join_pointer(new.pointer, "name"), sid
    )
    pair_.text_change(
        DESCRIPTION_CHANGED,
        "skill's description",
        old.description,
        new.description,
        join_pointer(new.pointer, "description"),
        sid,
    )
    if set(old.tags) != set(new.tags):
        pair_.add(
            TAGS_CHANGED,
            "the skill's tags changed",
            join_pointer(new.pointer, "tags"),
            skill=sid,
            before=strings(old.tags),
            after=strings(new.tags),
            at=element_at(
                join_pointer(new.pointer, "tags"), first_difference(old.tags, new.tags), len(new.tags)
            ),
        )
    if [e.text for e in old.examples] != [e.text for e in new.examples]:
        pair_.add(
            EXAMPLES_CHANGED,
            "the skill's examples changed",
            join_pointer(new.pointer, "examples"),
            skill=sid,
            before=strings(e.text for e in old.examples),
            after=strings(e.text for e in new.examples),
            at=element_at(
                join_pointer(new.pointer, "examples"),
                first_difference([e.text for e in old.examples], [e.text for e in new.examples]),
                len(new.examples),
            ),
        )
    compare_skill_modes(pair_, "input", sid, old.effective_input_modes, new.effective_input_modes)
    compare_skill_modes(pair_, "output", sid, old.effective_output_modes, new.effective_output_modes)
    old_security, new_security = old.effective_security, new.effective_security
    if old_security.origin == "card" and new_security.origin == "card":
        return  # a change of the card's requirements, reported once for the agent
    note = ""
    if old_security.origin != new_security.origin:
        note = (
            " (the skill now declares its own requirements, which replace the card's)"
            if new_security.origin == "skill"
            else " (the skill no longer declares requirements and takes the card's)"
        )
    compare_security(
        pair_, old_security.requirements, new_security.requirements, new_security.pointer, sid, note
    )
