"""Reading a card file's versions with a ``SkillMemo`` gives what reading each alone gives: the same model, the
same findings, the same differences between versions (``load.memo``, the history's reader)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from a2a_docgen.history.walk import classify, load_version
from a2a_docgen.limits import DEFAULT_LIMITS
from a2a_docgen.load import ReadCard, SkillMemo, read_card_bytes
from a2a_docgen.model import Catalog
from a2a_docgen.review import diff_catalogs
from tests.support.cards import small_card
from tests.test_diff import to_v10, v03_cards

Card = dict[str, Any]
PLACE = ("agent.json", "cards", "agent.json")


def read(card: Card | bytes, memo: SkillMemo | None = None) -> ReadCard:
    data = card if isinstance(card, bytes) else json.dumps(card).encode()
    result = read_card_bytes(data, display=PLACE[0], root=PLACE[1], relpath=PLACE[2], memo=memo)
    assert isinstance(result, ReadCard)
    return result


def one_card(result: ReadCard) -> Catalog:
    return Catalog(cards=(result.card,), diagnostics=(), excluded=())


def assert_same_reading(versions: list[Card | bytes]) -> None:
    """Each version read through one memo equals it read alone, and so do the differences between them."""
    memo = SkillMemo()
    remembered = [read(version, memo) for version in versions]
    alone = [read(version) for version in versions]
    for with_memo, without in zip(remembered, alone, strict=True):
        # repr, not only ==: == takes true for 1, and dicts in another order for the same
        assert repr(with_memo.card) == repr(without.card)
        assert with_memo.report.findings == without.report.findings
    for n in range(1, len(versions)):
        before, after = one_card(remembered[n - 1]), one_card(remembered[n])
        expected = diff_catalogs(one_card(alone[n - 1]), one_card(alone[n]), positions=False)
        assert diff_catalogs(before, after, positions=False) == expected


def _skill_field(key: str, value: Any) -> Callable[[Card, int], None]:
    def edit(card: Card, n: int) -> None:
        skills = card["skills"]
        skills[n % len(skills)][key] = value

    return edit


def _card_field(key: str, value: Any) -> Callable[[Card, int], None]:
    def edit(card: Card, n: int) -> None:
        card[key] = value

    return edit


def _reorder_skill(card: Card, n: int) -> None:
    skills = card["skills"]
    skill = skills[n % len(skills)]
    skills[n % len(skills)] = dict(reversed(list(skill.items())))


def _swap_skills(card: Card, n: int) -> None:
    skills = card["skills"]
    if len(skills) > 1:
        skills[0], skills[-1] = skills[-1], skills[0]


def _drop_skill(card: Card, n: int) -> None:
    if len(card["skills"]) > 1:
        del card["skills"][n % len(card["skills"])]


def _rename_scheme(card: Card, n: int) -> None:
    """The scheme ``key`` under another name, and every requirement that names it (a rename the differ follows)."""
    schemes = card.get("securitySchemes") or {}
    if "key" not in schemes:
        return
    schemes["api-key"] = schemes.pop("key")
    for owner in [card, *card["skills"]]:
        for requirement in owner.get("security") or []:
            if isinstance(requirement, dict) and "key" in requirement:
                requirement["api-key"] = requirement.pop("key")


def _move_scheme(card: Card, n: int) -> None:
    """The scheme ``key`` sent elsewhere: the same name, another definition."""
    scheme = (card.get("securitySchemes") or {}).get("key")
    if isinstance(scheme, dict):
        scheme["in"] = "query" if scheme.get("in") == "header" else "header"


EDITS: dict[str, Callable[[Card, int], None]] = {
    "skill description": _skill_field("description", "Reworded."),
    "skill tags wrong type": _skill_field("tags", "not-a-list"),
    "skill modes narrowed": _skill_field("inputModes", ["text/plain"]),
    "skill modes empty (inherits)": _skill_field("inputModes", []),
    "skill requirements": _skill_field("security", [{"oauth": ["a"]}]),
    "skill requirement of two schemes": _skill_field("security", [{"oauth": ["a"], "key": []}]),
    "skill requirement of two schemes reordered": _skill_field("security", [{"key": [], "oauth": ["a"]}]),
    "skill field true": _skill_field("x-flag", True),
    "skill field 1": _skill_field("x-flag", 1),
    "skill field 1.0": _skill_field("x-flag", 1.0),
    "skill example JSON": _skill_field("examples", ['{"b": 1, "a": 2}']),
    "skill example JSON reordered": _skill_field("examples", ['{"a": 2, "b": 1}']),
    "skill example not JSON": _skill_field("examples", ["{not json"]),
    "skill members reordered": _reorder_skill,
    "skills swapped": _swap_skills,
    "skill removed": _drop_skill,
    "default input modes": _card_field("defaultInputModes", ["application/json"]),
    "default output modes": _card_field("defaultOutputModes", ["text/*"]),
    "card requirements": _card_field("security", [{"key": []}]),
    "card requirements gone": _card_field("security", []),
    "schemes gone": _card_field("securitySchemes", {}),
    "scheme renamed": _rename_scheme,
    "scheme moved to the query": _move_scheme,
}

_SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(
    v03_cards(),
    st.lists(st.tuples(st.sampled_from(sorted(EDITS)), st.integers(0, 3)), min_size=1, max_size=6),
    st.booleans(),
)
def test_versions_read_with_a_memo_equal_versions_read_alone(
    card: Card, edits: list[tuple[str, int]], v10: bool
) -> None:
    versions: list[Card | bytes] = [to_v10(card) if v10 else card]
    current = card
    for name, n in edits:
        current = copy.deepcopy(current)
        EDITS[name](current, n)
        versions.append(current)
        versions.append(current)  # a version repeated: every skill read from the memo
    assert_same_reading(versions)


@pytest.mark.parametrize(
    ("one", "two"),
    [
        ({"x-flag": True}, {"x-flag": 1}),
        ({"x-flag": 1}, {"x-flag": 1.0}),
        ({"x-flag": 0}, {"x-flag": False}),
        ({"security": [{"oauth": ["a"], "key": []}]}, {"security": [{"key": [], "oauth": ["a"]}]}),
        ({"x-extra": {"b": 1, "a": 2}}, {"x-extra": {"a": 2, "b": 1}}),
    ],
    ids=["true-1", "1-1.0", "0-false", "schemes-reordered", "nested-reordered"],
)
def test_a_skill_python_takes_for_equal_is_read_again(one: Card, two: Card) -> None:
    """Skills that differ only where ``==`` does not look (``true`` and ``1``, member order) are not taken
    from the memo for each other."""
    base = v03_card()
    first, second = copy.deepcopy(base), copy.deepcopy(base)
    first["skills"][0].update(one)
    second["skills"][0].update(two)
    assert first == second  # what Python's == says
    assert_same_reading([first, second, first])


def v03_card() -> Card:
    return {
        "name": "A",
        "description": "An agent.",
        "version": "1.0.0",
        "url": "https://a.example/a2a",
        "protocolVersion": "0.3.0",
        "securitySchemes": {
            "oauth": {
                "type": "oauth2",
                "flows": {"clientCredentials": {"tokenUrl": "https://id.example/t", "scopes": {"a": "A"}}},
            },
            "key": {"type": "apiKey", "in": "header", "name": "X-Key"},
        },
        "capabilities": {},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "s", "name": "S", "description": "x", "tags": ["t"]}],
    }


@pytest.mark.parametrize("edit", ["scheme renamed", "schemes gone"])
def test_a_remembered_skill_s_own_requirements_meet_the_schemes_of_its_version(edit: str) -> None:
    """The skill is the same object in both versions (the memo), its requirements its own: what they now name
    is the other version's schemes, so the differ compares them (it skips only a skill under the same schemes)."""
    card = small_card(
        "A",
        [
            {
                "id": "own",
                "name": "Own",
                "description": "x",
                "tags": ["t"],
                "securityRequirements": [{"schemes": {"key": {"list": []}}}],
            },
            {"id": "other", "name": "Other", "description": "y", "tags": ["t"]},
        ],
    )
    card["securitySchemes"] = {"key": {"apiKeySecurityScheme": {"location": "header", "name": "X-Key"}}}
    card["securityRequirements"] = [{"schemes": {"key": {"list": []}}}]
    changed = copy.deepcopy(card)
    if edit == "scheme renamed":
        changed["securitySchemes"] = {"api-key": changed["securitySchemes"]["key"]}
        changed["securityRequirements"] = [{"schemes": {"api-key": {"list": []}}}]
    else:
        changed["securitySchemes"] = {}
    memo = SkillMemo()
    first, second = read(card, memo), read(changed, memo)
    assert second.card.skills[0] is first.card.skills[0]  # the case the differ's shortcut meets
    assert_same_reading([card, changed])


def test_a_skill_read_again_is_the_one_read_before_with_this_versions_inheritance() -> None:
    card = small_card(
        "A",
        [
            {"id": "own", "name": "Own", "description": "x", "tags": ["t"], "inputModes": ["image/png"]},
            {"id": "inherits", "name": "Inherits", "description": "y", "tags": ["t"]},
        ],
    )
    memo = SkillMemo()
    first = read(card, memo).card
    again = read(card, memo).card
    assert again.skills[0] is first.skills[0]
    assert again.skills[1] is first.skills[1]
    card["defaultInputModes"] = ["application/json"]
    changed = read(card, memo).card
    assert changed.skills[0] is first.skills[0]  # its own modes: nothing it inherits changed
    assert changed.skills[1].effective_input_modes.modes == ("application/json",)
    assert changed == read(card).card


def test_true_and_1_are_different_versions_in_the_history() -> None:
    card = small_card("A", [{"id": "s", "name": "S", "description": "x", "tags": ["t"]}])
    card["capabilities"]["streaming"] = True
    changed = copy.deepcopy(card)
    changed["capabilities"]["streaming"] = 1  # Python's == takes it for True
    old = load_version(json.dumps(card).encode(), PLACE, DEFAULT_LIMITS)
    new = load_version(json.dumps(changed).encode(), PLACE, DEFAULT_LIMITS)
    assert old is not None
    assert new is not None
    # 1 is no boolean: the step is the error it makes, never the two taken for one and the step lost
    assert "card-error-added" in {finding.code for finding in classify(old, new, date(2026, 1, 1))}
    reordered = dict(reversed(list(card.items())))
    same = load_version(json.dumps(reordered).encode(), PLACE, DEFAULT_LIMITS)
    assert same is not None
    assert classify(old, same, date(2026, 1, 1)) == ()  # members reordered: the same card


def test_real_cards_read_with_a_memo_equal_read_alone(shared_dir: Path) -> None:
    files = sorted((shared_dir / "cards" / "real").glob("*.json"))
    read_any = 0
    for path in files:
        data = path.read_bytes()
        try:
            json.loads(data)
        except ValueError:
            continue  # a file that does not parse has no skills to remember
        result = read_card_bytes(data, display=PLACE[0], root=PLACE[1], relpath=PLACE[2])
        if not isinstance(result, ReadCard):
            continue
        read_any += 1
        assert_same_reading([data, data, data])
    assert read_any > 40
