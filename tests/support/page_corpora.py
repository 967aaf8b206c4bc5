"""The pages of the corpora a conversion shortcut is checked on (``html.inline_memo``): the
example catalogue, the hostile corpus, the real cards and the synthetic catalogue, as ``render_catalog``
writes them."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st

from a2a_docgen.catalog import load_catalog
from a2a_docgen.render import render_catalog
from tests.conftest import REPO
from tests.support.payloads import ALL_PAYLOADS
from tests.test_one_card_never_breaks import base_card


def pages_of(cards: list[Path], **options: Any) -> dict[str, str]:
    """Every page of the catalogue of ``cards``, rendered in this process."""
    return dict(render_catalog(load_catalog(cards), jobs=1, **options).pages)


_TEXT = st.one_of(st.sampled_from(ALL_PAYLOADS), st.text(max_size=40))
HOSTILE_TEXTS = st.fixed_dictionaries(
    dict.fromkeys(("name", "description", "skill", "tag", "example", "url"), _TEXT)
)
"""The keyword arguments of ``hostile_text_pages``: payloads of the hostile corpus and any text."""


def hostile_text_pages(
    directory: Path, *, name: str, description: str, skill: str, tag: str, example: str, url: str
) -> dict[str, str]:
    """The pages of one card, written to ``directory``, whose text is the given (hostile) strings: its name,
    description, documentation URL, and its first skill's name, description, tag and example."""
    card = base_card("Hostile")
    card["name"] = name or "x"
    card["description"] = description
    card["documentationUrl"] = url
    card["skills"][0].update(name=skill, description=description, tags=[tag, "ok"], examples=[example])
    (directory / "card.json").write_text(json.dumps(card), encoding="utf-8")
    return pages_of([directory])


def example_pages() -> dict[str, str]:
    return pages_of([REPO / "examples" / "cards"])


def hostile_pages() -> dict[str, str]:
    return pages_of(sorted((REPO / "tests" / "data" / "hostile").glob("*.json")))


def real_card_pages(shared_dir: Path) -> dict[str, str]:
    return pages_of([shared_dir / "cards" / "real"])


def synthetic_pages(directory: Path, agents: int = 6, skills: int = 10) -> dict[str, str]:
    """The benchmark's synthetic catalogue (``benchmarks/synthetic.py``), written to ``directory``."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        from synthetic import write_catalogue
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    write_catalogue(directory, agents, skills)
    return pages_of([directory])


CORPORA = (
    "example",
    pytest.param("hostile", marks=pytest.mark.slow),  # 8 s; the fast set has pages of hostile-text cards
    "real",
    "synthetic",
)
"""The corpora by name, for ``pytest.mark.parametrize``."""


def corpus_pages(name: str, request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, str]:
    """The pages of the corpus ``name`` (the real cards skip where ``../shared`` is not there)."""
    if name == "example":
        return example_pages()
    if name == "hostile":
        return hostile_pages()
    if name == "real":
        return real_card_pages(request.getfixturevalue("shared_dir"))
    return synthetic_pages(tmp_path / "cards")
