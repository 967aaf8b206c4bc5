"""Every rule costs work linear in the card's size whatever the text's shape: counted, never timed.

Each test builds an adversarial card (or string) at a size and at twice that size and counts the expensive
operations the rule performs (``difflib`` comparisons and the lengths they compare, passes over a URL): a
quadratic algorithm shows as a count that grows with the input, a bounded one as a count that does not.
"""

from __future__ import annotations

import difflib
import json
import random
import re
from typing import Any

import pytest

from a2a_docgen.catalog import load_card_bytes
from a2a_docgen.quality import grade_card
from a2a_docgen.quality.rules import _EDGE_WORDS, _MAX_SEQUENCE_MATCHES
from a2a_docgen.render import escape
from a2a_docgen.text.suggest import MAX_COMPARISONS, MAX_NAME_CHARS, Suggestions
from tests.test_grade import good_card, hints_of


class _Counted:
    """``difflib.SequenceMatcher`` counting its comparisons and the longest sequence it was given."""

    def __init__(self) -> None:  # ``set_seq1`` runs once at construction too: one more for each new matcher
        self.made = 0
        self.longest = 0
        counter = self

        class SequenceMatcher(difflib.SequenceMatcher):  # type: ignore[type-arg]
            def set_seq1(self, a: Any) -> None:  # once per comparison, in get_close_matches too
                counter.made += 1
                counter.longest = max(counter.longest, len(a))
                super().set_seq1(a)

            def set_seq2(self, b: Any) -> None:
                counter.longest = max(counter.longest, len(b))
                super().set_seq2(b)

        self.cls = SequenceMatcher


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> _Counted:
    counter = _Counted()
    monkeypatch.setattr(difflib, "SequenceMatcher", counter.cls)
    return counter


def _two_letter_words(rng: random.Random, count: int) -> str:
    return " ".join("".join(rng.choice("ab") for _ in range(rng.randint(1, 3))) for _ in range(count))


def _similar_skills_card(skills: int, words: int) -> bytes:
    """Skills whose descriptions of random short words over {a, b} share nearly all their pairs of words and
    their length, but no long run: every pair passes the cheap tests, and ``difflib`` is at its slowest."""
    rng = random.Random(skills * 7 + words)
    card = good_card()
    base = card["skills"][0]
    listed = []
    for index in range(skills):
        description = _two_letter_words(rng, words)
        listed.append({**base, "id": f"s{index}", "name": f"S{index}", "description": description})
    card["skills"] = listed
    return json.dumps(card, indent=1).encode()


def _work(data: bytes) -> None:
    loaded, diagnostics = load_card_bytes(data, display="card.json")
    assert loaded is not None
    grade_card(loaded, diagnostics)


@pytest.mark.parametrize(("skills", "words"), [(20, 200), (40, 400), (80, 800)])
def test_duplicate_descriptions_compare_a_bounded_amount(counted: _Counted, skills: int, words: int) -> None:
    _work(_similar_skills_card(skills, words))
    assert counted.made <= _MAX_SEQUENCE_MATCHES
    assert counted.longest <= 2 * _EDGE_WORDS


def test_duplicate_descriptions_cost_does_not_grow_with_the_text(counted: _Counted) -> None:
    _work(_similar_skills_card(60, 600))
    small = counted.made
    counted.made = 0
    _work(_similar_skills_card(120, 1200))
    assert counted.made <= max(small, _MAX_SEQUENCE_MATCHES)


def test_long_duplicates_are_still_found() -> None:
    card = good_card()
    base = card["skills"][0]
    text = " ".join(f"word{i}" for i in range(5000))
    card["skills"] = [
        {**base, "id": "a", "description": text},
        {**base, "id": "b", "description": text},
        {**base, "id": "c", "description": text.replace("word4000 ", "other ")},
    ]
    loaded, diagnostics = load_card_bytes(json.dumps(card).encode(), display="card.json")
    assert loaded is not None
    hints = [(h.code, h.pointer) for h in hints_of(grade_card(loaded, diagnostics))]
    assert hints == [
        ("skill-description-duplicate", "/skills/1/description"),
        ("skill-description-duplicate", "/skills/2/description"),
    ]


def _undeclared_card(names: int) -> bytes:
    """``names`` declared schemes, and requirements naming ``names`` near misses of them."""
    rng = random.Random(names)
    declared = ["".join(rng.choice("ab") for _ in range(40)) for _ in range(names)]
    card = good_card()
    card["securitySchemes"] = {name: {"httpAuthSecurityScheme": {"scheme": "Bearer"}} for name in declared}
    card["securityRequirements"] = [{"schemes": {name[:-1] + "c": {"list": []}}} for name in declared]
    return json.dumps(card).encode()


def test_did_you_mean_for_undeclared_schemes_is_bounded(counted: _Counted) -> None:
    _work(_undeclared_card(100))
    small = counted.made
    counted.made = 0
    _work(_undeclared_card(200))
    assert 0 < small <= MAX_COMPARISONS + _MAX_SEQUENCE_MATCHES
    assert counted.made <= MAX_COMPARISONS + _MAX_SEQUENCE_MATCHES


def test_suggestions_stop_at_their_budget_and_keep_exact_case_matches() -> None:
    declared = [f"scheme{i:04d}" for i in range(2000)]
    named = Suggestions(declared)
    assert named.hint("schem0001") == ' (did you mean "scheme0001"?)'
    for i in range(2000):
        named.closest(f"schemx{i:04d}")
    assert named.compared <= MAX_COMPARISONS
    assert named.hint("SCHEME1999") == ' (did you mean "scheme1999"?)'  # found by lookup, budget spent
    assert Suggestions(["a" * (MAX_NAME_CHARS + 1)]).hint("a" * MAX_NAME_CHARS + "b") == ""


class _CountingStr(str):
    """A string that counts how often it is scanned whole (``count``), and stays counting when sliced."""

    scans = 0

    def count(self, *args: Any) -> int:
        type(self).scans += 1
        return super().count(*args)

    def __getitem__(self, key: Any) -> _CountingStr:
        return _CountingStr(super().__getitem__(key))


@pytest.mark.parametrize("size", [100, 1000, 10_000])
def test_url_trailing_punctuation_is_cut_in_one_pass(size: int) -> None:
    url = _CountingStr("https://a.example/" + "(" * size + ")" * (2 * size) + ".)" * size)

    class Match:
        def group(self, _: int) -> str:
            return url

    _CountingStr.scans = 0
    cut = escape._split_url(Match())  # type: ignore[arg-type]
    assert _CountingStr.scans <= 2
    assert cut == "https://a.example/" + "(" * size + ")" * size


def test_parenthesis_heavy_urls_keep_their_balanced_parentheses() -> None:
    assert escape._split_url(re.match(r"\S+", "https://x.example/a_(b))).")) == "https://x.example/a_(b)"  # type: ignore[arg-type]
