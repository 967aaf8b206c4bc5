"""The pages of the corpora a conversion shortcut is checked on (``html.inline_memo``, ``html.simple_blocks``):
the example catalogue, the hostile corpus, the real cards and the synthetic catalogue, as ``render_catalog``
writes them."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from a2a_docgen.catalog import load_catalog
from a2a_docgen.render import render_catalog
from tests.conftest import REPO


def pages_of(cards: list[Path], **options: Any) -> dict[str, str]:
    """Every page of the catalogue of ``cards``, rendered in this process."""
    return dict(render_catalog(load_catalog(cards), jobs=1, **options).pages)


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
