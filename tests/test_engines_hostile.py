"""The hostile corpus through Zensical's default Markdown profile: an inert site, nothing read from disk.

Zensical runs no plugin, so this is the path where card text meets a site's Markdown pipeline: the pages
``a2a-docgen build`` writes, converted by Zensical with the extensions it enables when ``markdown_extensions``
is unset (attr_list, md_in_html, pymdownx superfences, tabbed, emoji, magiclink, arithmatex ... as the
``zensical.toml`` that ``a2a-docgen init`` writes leaves it). The project holds canary files (secret.txt,
.env) and a canary in its configuration; the build runs with one in its environment. A control project with
raw payloads written into a page shows that the checks see what Zensical does with them. The site checker
knows Zensical's own inline scripts from its installed templates, as it knows Material's.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.engine_sites import EngineBuild, build_project, init_project, require_engine
from tests.support.hostile_sites import (
    CONFIG_CANARY,
    CONTROL_PAGE,
    ENV_CANARY,
    HOSTILE,
    LEAK_MARKERS,
    generator,
    html_pages,
    html_path,
    template_markers,
)
from tests.support.mkdocs_build import page_text
from tests.support.site_checker import check_site

pytestmark = pytest.mark.slow

gen = generator()


@dataclass
class ZensicalSites:
    hostile: EngineBuild
    control: EngineBuild


PROFILES = ("init", "zensical-default")
"""The Markdown profile of the build: the one ``init`` writes into ``zensical.toml``, and Zensical's own
default (``markdown_extensions`` removed: emoji, magiclink, smartsymbols and the rest of its suite)."""


def _without_markdown_extensions(config: str) -> str:
    """``zensical.toml`` without its ``[project.markdown_extensions...]`` tables (and their comment)."""
    out: list[str] = []
    skipping = False
    for line in config.splitlines(keepends=True):
        if line.startswith("[project.markdown_extensions"):
            skipping = True
            continue
        if skipping and line.startswith(("[", "\n")):
            skipping = False
        if not skipping:
            out.append(line)
    text = "".join(out)
    assert "markdown_extensions" not in text.replace("# The Markdown profile", "")
    return text


def _project(root: Path, *, benign: bool, raw_page: str | None = None, profile: str = "init") -> EngineBuild:
    project = root / "project"
    cards = project / "cards"
    if benign:
        cards.mkdir(parents=True)
        for filename, data in gen.benign_outputs().items():
            (cards / filename).write_bytes(data)
    else:
        shutil.copytree(HOSTILE, cards, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    config = init_project(project, "zensical", cards, site_name="Hostile catalogue")
    text = config.read_text(encoding="utf-8")
    if profile == "zensical-default":
        text = _without_markdown_extensions(text)
    config.write_text(
        f'# {CONFIG_CANARY}\n{text}\n[project.extra]\ncanary = "{CONFIG_CANARY}"\n', encoding="utf-8"
    )
    (project / "secret.txt").write_text(f"{gen.CANARY} secret.txt\n", encoding="utf-8")
    (project / ".env").write_text(f"API_TOKEN={gen.CANARY}-env\n", encoding="utf-8")
    if raw_page is not None:
        (project / "docs").mkdir()
        (project / "docs" / "raw.md").write_text(raw_page, encoding="utf-8")
    return build_project(project, "zensical", env={"A2A_ENV_CANARY": ENV_CANARY}, timeout=240)


@pytest.fixture(scope="module", params=PROFILES)
def zensical(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> ZensicalSites:
    require_engine("zensical")
    profile: str = request.param
    root = tmp_path_factory.mktemp(f"zensical-hostile-{profile}")
    return ZensicalSites(
        hostile=_project(root / "hostile", benign=False, profile=profile),
        control=_project(root / "control", benign=True, raw_page=CONTROL_PAGE, profile=profile),
    )


def _leaks(site: Path) -> list[str]:
    return sorted(
        f"{path.relative_to(site)}: {marker}"
        for path in site.rglob("*")
        if path.is_file()
        for marker in LEAK_MARKERS
        if marker.encode() in path.read_bytes()
    )


def _template_markers(site: Path) -> dict[str, list[str]]:
    """Where the output of an evaluated Jinja payload appears: page text and search entries."""
    markers = template_markers()
    texts = {relpath: page_text(text) for relpath, text in html_pages(site).items()}
    for n, item in enumerate(json.loads((site / "search.json").read_text(encoding="utf-8"))["items"]):
        texts[f"search.json items[{n}]"] = f"{item['title']} {item['text']}"
    return {where: markers.findall(text) for where, text in texts.items() if markers.search(text)}


def test_the_hostile_catalogue_builds_strictly(zensical: ZensicalSites) -> None:
    assert (zensical.hostile.check() / "index.html").is_file()
    assert zensical.hostile.changed_outside == []


def test_site_checker_finds_nothing(zensical: ZensicalSites) -> None:
    violations = check_site(zensical.hostile.check(), strict=True)
    assert violations == [], "\n".join(map(str, violations[:40]))


def test_no_file_or_environment_content_is_published(zensical: ZensicalSites) -> None:
    assert _leaks(zensical.hostile.check()) == []


def test_no_template_expression_is_evaluated(zensical: ZensicalSites) -> None:
    assert _template_markers(zensical.hostile.check()) == {}


def test_nothing_is_loaded_from_another_host_and_nothing_linked_by_the_engine(
    zensical: ZensicalSites,
) -> None:
    """Card text makes no emoji image (twemoji from a CDN), no e-mail link (magiclink) and no symbol from
    our own words: no page asks another host for anything because of a card."""
    remote = re.compile(
        r"""<(?:img|script|link|iframe|source|video|audio)\b[^>]*\b(?:src|href)=["']?(?:https?:)?//"""
    )
    for relpath, text in html_pages(zensical.hostile.check()).items():
        assert not remote.search(text), (relpath, remote.search(text))
        assert not re.search(r'class="(?:twemoji|emojione)', text), relpath
        assert "magiclink" not in text, relpath  # the class of every link magiclink makes


def test_no_critic_mark_is_applied(zensical: ZensicalSites) -> None:
    marked = [p for p, text in html_pages(zensical.hostile.check()).items() if 'class="critic' in text]
    assert marked == []


def test_exactly_the_catalogues_pages_are_built(zensical: ZensicalSites) -> None:
    """No page of card text went missing, and none was added (a path-like id making a page of its own)."""
    from a2a_docgen.catalog import load_catalog
    from a2a_docgen.render import render_catalog

    rendered = render_catalog(load_catalog([HOSTILE]))
    expected = {html_path(p) for p in rendered.pages} | {"404.html"}
    assert set(html_pages(zensical.hostile.check())) == expected


def test_malformed_files_are_listed_as_excluded(zensical: ZensicalSites) -> None:
    page = zensical.hostile.check() / "excluded" / "index.html"
    listed = page_text(page.read_text(encoding="utf-8"), content_only=True)
    for name in sorted(gen.MUST_BE_EXCLUDED):
        assert name in listed, f"{name} is not listed on excluded/"


def test_the_checks_catch_raw_payloads(zensical: ZensicalSites) -> None:
    """Control: payloads written raw into a page of the same project are caught (Zensical passes raw HTML
    through); its default profile has neither snippets nor macros, so no file is read and no Jinja runs even
    there."""
    site = zensical.control.check()
    found = {v.rule for v in check_site(site, strict=True)}
    assert {"event-handler", "url-scheme"} <= found
    assert _leaks(site) == []
