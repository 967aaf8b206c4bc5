"""pytest fixtures for the built-site and browser tests (loaded from ``tests/conftest.py``).

``sites`` builds the hostile corpus in three MkDocs configurations and the repository's example site,
once per session, in parallel. ``chromium`` is one headless browser per session. Without Chromium or
Playwright the browser tests are skipped with the reason, unless ``A2A_DOCGEN_REQUIRE_BROWSER=1`` (set in
CI), which turns the skip into a failure.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from tests.support.browser import browser_unavailable_reason, launch_chromium
from tests.support.hostile_sites import Sites, build_sites

if TYPE_CHECKING:
    from playwright.sync_api import Browser

REQUIRE_ENV = "A2A_DOCGEN_REQUIRE_BROWSER"


def require_browser() -> None:
    """Skip (or fail, when the environment demands a browser) if the browser cannot run here."""
    reason = browser_unavailable_reason()
    if reason is None:
        return
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"{reason}, and {REQUIRE_ENV}=1 requires the browser tests to run")
    pytest.skip(f"{reason} (set {REQUIRE_ENV}=1 to make this a failure)")


@pytest.fixture(scope="session")
def chromium() -> Iterator[Browser]:
    """One headless Chromium for the whole session."""
    require_browser()
    with launch_chromium() as browser:
        yield browser


@pytest.fixture(scope="session")
def sites(tmp_path_factory: pytest.TempPathFactory) -> Sites:
    """The hostile sites (``default``, ``material-ext``, ``material-macros``) and ``example``, built once."""
    return build_sites(tmp_path_factory.mktemp("sites"))
