"""Shared pytest configuration: options, markers and paths used across the suite."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings

from tests.support.http_server import TestServer, serve

if TYPE_CHECKING:
    from a2a_docgen.render.env import TemplateEnvs

settings.register_profile("slow", max_examples=1000)
"""``pytest --hypothesis-profile=slow``: ten times the default run's examples for every property test that does
not set a count of its own (those that do have costly examples). CI runs it after the slow tests."""

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
"""Reference material beside a development checkout; absent in a user's clone (tests skip)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite the expected trees under tests/golden/ from the current renderer output",
    )


@pytest.fixture(scope="session")
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The shared reference directory, or skip the test when it is not there."""
    if not SHARED.is_dir():
        pytest.skip("../shared (reference cards) is not present in this checkout")
    return SHARED


pytest_plugins = ["tests.support.browser_fixtures"]


@pytest.fixture(scope="module")
def template_envs() -> TemplateEnvs:
    """Our templates' environments for the renders of one test module, each template compiled once (as
    ``mkdocs serve`` keeps them across rebuilds) rather than for every render: for the tests that render many
    times. A test of what a render does alone renders without them."""
    from a2a_docgen.render.env import TemplateEnvs

    return TemplateEnvs()


@pytest.fixture
def server() -> Iterator[TestServer]:
    """A local HTTP server on 127.0.0.1 that a test gives routes to (``tests/support/http_server.py``)."""
    with serve() as running:
        yield running


@pytest.fixture
def other_server() -> Iterator[TestServer]:
    """A second origin (another port), for cross-origin redirects."""
    with serve() as running:
        yield running
