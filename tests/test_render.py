"""The renderer, checked by parsing its Markdown (markdown-it-py, CommonMark + GFM tables)."""

from __future__ import annotations

import base64
import functools
import gc
import html
import json
import os
import posixpath
import re
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from a2a_docgen.catalog import load_card_bytes, load_catalog
from a2a_docgen.errors import UsageError
from a2a_docgen.history.entries import CatalogHistory
from a2a_docgen.model import Catalog
from a2a_docgen.render import NAV, render_catalog
from a2a_docgen.render import catalog as render
from a2a_docgen.render import kinds as page_views
from a2a_docgen.render.catalog import _tidy
from a2a_docgen.render.env import (
    CardText,
    TemplateEnvs,
    UnescapedOutputError,
    builtin_templates_dir,
    relative_path,
    template_env,
)
from a2a_docgen.render.escape import md_heading, md_title, toc_id
from a2a_docgen.render.kinds.agents import ViewReuse
from a2a_docgen.render.pages import SiteViews, taint
from a2a_docgen.render.site import RenderedSite
from a2a_docgen.text.slug import plain_slug, slug
from tests.conftest import REPO
from tests.support.markdown_tokens import (
    fences,
    front_matter,
    headings,
    inline_text,
    links,
    parse,
    table_rows,
    walk,
)

GOLDEN = Path(__file__).parent / "golden"
CASES = ("route-planner", "v03-twin", "mixed")

ALLOWED_INLINE_HTML = frozenset({"<code>", "</code>", "<br>"})
HEADING_ID = re.compile(r" \{#([a-z][a-z0-9-]*)\}$")


@cache
def catalog_of(case: str) -> Catalog:
    return load_catalog([GOLDEN / case / "input"])


@cache
def site_of(case: str) -> RenderedSite:
    return render_catalog(catalog_of(case))


def agent_path(site: RenderedSite, name_start: str) -> str:
    (path,) = [
        p
        for p, text in site.pages.items()
        if p.startswith("agents/") and headings(text)[0][1].startswith(name_start)
    ]
    return path


def heading_ids(text: str) -> dict[str, str]:
    """The explicit ids of a page's headings (``## Title {#id}``): id -> the heading's text."""
    return dict(_heading_ids(text))


@functools.lru_cache(maxsize=64)
def _heading_ids(text: str) -> tuple[tuple[str, str], ...]:
    """``heading_ids``, parsed once per page (every link into a page with a fragment asks for its ids)."""
    found: dict[str, str] = {}
    for _level, title in headings(text):
        m = HEADING_ID.search(title)
        if m:
            found[m.group(1)] = title[: m.start()]
    return tuple(found.items())


def facts(text: str) -> dict[str, list[str]]:
    """The "**Label:** value" list items of a page, by label, as a reader sees them."""
    found: dict[str, list[str]] = {}
    for item in list_items(text):
        label, sep, value = item.partition(": ")
        if sep and label and not label.startswith(" "):
            found.setdefault(label, []).append(value)
    return found


def rows_of(text: str) -> list[list[str]]:
    """Table rows as a reader sees them (``<code>`` tags and backticks dropped)."""
    return [[re.sub(r"</?code>|`", "", cell) for cell in row] for row in table_rows(text)]


def list_items(text: str) -> list[str]:
    """The text of every bullet-list item as a reader sees it (``<code>`` tags dropped)."""
    tokens = parse(text)
    items: list[str] = []
    for i, token in enumerate(tokens):
        if token.type == "list_item_open" and tokens[i + 2].type == "inline":
            (line,) = inline_text(tokens[i + 2].content, with_html=False) or [""]
            items.append(line.replace("`", ""))
    return items


# -- structure every page must have --------------------------------------------------------------------------


def check_page(path: str, text: str, site: RenderedSite) -> None:
    """Everything a generated page promises, whatever the card said."""
    assert text.endswith("\n")
    assert not text.endswith("\n\n"), f"{path}: more than one trailing newline"
    outside_code = re.sub(r"^```.*?^```", "CODE", text, flags=re.M | re.S)  # a program's blank lines stay
    assert "\n\n\n" not in outside_code, f"{path}: two blank lines in a row"
    assert all(line == line.rstrip() for line in text.split("\n")), f"{path}: trailing whitespace"
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("|") and i > 0:
            assert lines[i - 1] == "" or lines[i - 1].startswith("|"), f"{path}:{i + 1}: table glued to text"
    tokens = parse(text)
    assert [t.tag for t in tokens if t.type == "heading_open"].count("h1") == 1, f"{path}: not exactly one H1"
    for i, token in enumerate(tokens):
        if token.type in ("th_open", "td_open"):
            assert tokens[i + 1].content.strip(), f"{path}: empty table cell"
    for token in walk(tokens):
        content = token.content.strip()
        if token.type == "html_inline":
            assert content in ALLOWED_INLINE_HTML, f"{path}: raw HTML {content!r}"
        elif token.type == "html_block":
            pytest.fail(f"{path}: raw HTML block {content!r}")
        elif token.type == "link_open":
            check_link(path, str(token.attrGet("href")), site)
        elif token.type == "image":
            pytest.fail(f"{path}: image {token.attrGet('src')!r} (icons are shown as links)")
    for marker in ("{{", "{%"):
        assert marker not in text, f"{path}: template delimiter {marker!r}"
    assert all(HEADING_ID.search(line) for line in text.split("\n") if "{#" in line), f"{path}: {{# not an id"
    assert not re.search(r"^\s*;*-+8<", text, re.MULTILINE), f"{path}: snippets marker"


def check_link(page: str, href: str, site: RenderedSite) -> None:
    parts = urlsplit(href)
    if parts.scheme:
        assert parts.scheme in ("http", "https", "mailto"), f"{page}: link {href!r}"
        return
    assert not href.startswith("/"), f"{page}: absolute link {href!r}"
    target = page
    if parts.path:
        assert parts.path.endswith((".md", ".json")), f"{page}: link to {href!r} is not a page"
        target = posixpath.normpath(posixpath.join(posixpath.dirname(page), parts.path))
        assert not target.startswith(".."), f"{page}: link {href!r} leaves the site"
        assert target in site.pages or target in site.files, f"{page}: broken link {href!r}"
    if parts.fragment:
        assert parts.fragment in heading_ids(site.pages[target]), f"{page}: no anchor for {href!r}"


@pytest.mark.parametrize("case", CASES)
def test_every_page_is_well_formed(case: str) -> None:
    site = site_of(case)
    for path, text in site.pages.items():
        check_page(path, text, site)


def test_layout_and_nav() -> None:
    site = site_of("route-planner")
    assert site.nav == NAV  # no history: every kind's entry but What's new, in the registry's order
    assert [e.title for e in NAV][:2] == ["Home", "Tags"]
    assert all(e.path in site.pages for e in site.nav)
    sections = "|".join(sorted({e.path.removesuffix(".md").removesuffix("/index") for e in NAV} - {"index"}))
    for path in site.pages:
        assert re.fullmatch(
            rf"[a-z0-9-]+\.md|({sections}|sorted)/[a-z0-9-]+\.md|agents/[a-z0-9-]+/index\.md", path
        ), path
    card = catalog_of("route-planner").cards[0]
    agent_slug = "coastal-route-planner"  # a name no other card has: its own readable address
    assert f"agents/{agent_slug}/index.md" in site.pages
    assert {
        f"agents/{agent_slug}/card.json",
        f"badges/{slug('route-planner.json', 'badge', label='route-planner')}.json",
        "catalog.json",
        "llms.txt",
        "catalogue-filter.json",
    } <= set(site.files)
    assert {p for p in site.files if p.startswith("assets/")} == {
        "assets/a2a-docgen/catalogue.css",
        "assets/a2a-docgen/catalogue.js",
    }
    assert site.files[f"agents/{agent_slug}/card.json"] == card.source.text.encode()
    assert (
        site.files[f"agents/{agent_slug}/card.json"]
        == (GOLDEN / "route-planner/input/route-planner.json").read_bytes()
    )
    assert front_matter(site.pages["index.md"]) == "---\nrender_macros: false\n---\n"
    tag_page = next(p for p in site.pages if p.startswith("tags/") and p != "tags/index.md")
    assert "search:\n  exclude: true\n" in front_matter(site.pages[tag_page])
    assert tag_page in site.unindexed
    # Where a page outside the navigation belongs: a tag page to Tags; an agent page to no entry (not Home).
    assert site.nav_owner(tag_page) == "tags/index.md"
    assert site.nav_owner("index-2.md") == "index.md"
    assert site.nav_owner(f"agents/{agent_slug}/index.md") is None


def test_long_lists_are_split_over_pages(template_envs: TemplateEnvs) -> None:
    from a2a_docgen.render.kinds import build_views, page_jobs

    views = build_views(catalog_of("mixed"))
    home = [
        job
        for job in page_jobs(views, per_page={"agents": 1, "facet": 1})
        if job.template == "index.md.jinja" and job.path.startswith("index")
    ]
    assert [job.path for job in home] == ["index.md", "index-2.md"]
    assert [[a.card.name for a in job.context["page"].items] for job in home] == [
        ["Harbour Desk <beta>"],
        ["Lighthouse Weather"],
    ]
    site = render_catalog(catalog_of("mixed"), envs=template_envs)
    assert "index-2.md" not in site.pages  # 100 agents a page by default


# -- the agent page ---------------------------------------------------------------------------------------------


def test_agent_page_headings_and_skill_anchors() -> None:
    site = site_of("route-planner")
    path = agent_path(site, "Coastal")
    text = site.pages[path]
    card = catalog_of("route-planner").cards[0]
    levels = headings(text)
    assert levels[0] == (1, "Coastal Route Planner")
    skills = {f"skill-{plain_slug(s.id or '')}": s.name for s in card.skills}  # ids of distinct stems
    ids = heading_ids(text)
    assert [ids[a] for a in skills] == list(
        skills.values()
    )  # one heading per skill, its id from the skill id
    assert [t for level, t in levels if level == 2][: len(skills)] == [
        f"{n} {{#{a}}}" for a, n in skills.items()
    ]


def test_hostile_title_uses_look_alikes() -> None:
    site = site_of("mixed")
    text = site.pages[agent_path(site, "Harbour")]
    assert headings(text)[0] == (1, "Harbour Desk \u2039beta\u203a")


def test_json_examples_are_json_fences_and_text_examples_are_quotes() -> None:
    site = site_of("route-planner")
    text = site.pages[agent_path(site, "Coastal")]
    loaded = [json.loads(content) for info, content in fences(text) if info == "json"]
    assert {info for info, _ in fences(text)} == {"json", "sh", "python"}
    card = catalog_of("route-planner").cards[0]
    examples = [e for s in card.skills for e in s.examples]
    for example in examples:
        if example.is_json:
            assert example.value in loaded
    tokens = parse(text)
    quoted = [
        tokens[i + 2].content
        for i, t in enumerate(tokens)
        if t.type == "blockquote_open" and tokens[i + 1].type == "paragraph_open"
    ]
    plain = [e.text for e in examples if not e.is_json]
    assert len(plain) == 2
    assert all(example_text in quoted for example_text in plain)  # as written: nothing in them to encode
    # Each example's text is shown once: its heading is its number in the skill, not its first words.
    example_headings = [
        title for level, title in headings(text) if level == 3 and title.startswith("Example")
    ]
    assert len(example_headings) == len(examples)
    assert "Example 1" in example_headings
    assert "Example 1 (JSON)" in example_headings or "Example 2 (JSON)" in example_headings
    for example_text in plain:
        first_words = " ".join(example_text.split()[:4])
        assert sum(first_words in line for line in inline_text(text)) == 1


def test_the_interfaces_table_has_three_columns_for_a_phone() -> None:
    site = site_of("route-planner")
    text = site.pages[agent_path(site, "Coastal")]
    card = catalog_of("route-planner").cards[0]
    details = text[text.index("### Interfaces") :]
    rows = table_rows(details[: details.index("###", 5)])
    assert rows[0] == ["#", "URL", "Binding"]
    first = card.interfaces[0]
    assert rows[1][:2] == ["1", first.url]
    assert rows[1][2].startswith(f"{first.protocol_binding}, A2A {first.protocol_version}")


def test_every_example_has_requests_for_every_interface() -> None:
    site = site_of("route-planner")
    text, _, extended = site.pages[agent_path(site, "Coastal")].partition("### Extended card")
    tokens = parse(text)
    labels = [
        tokens[i + 1].content
        for i, t in enumerate(tokens)
        if t.type == "paragraph_open"
        and t.level == 0
        and re.fullmatch(r"\*\*[^*]+ · [^*]+\*\*", tokens[i + 1].content)
    ]
    card = catalog_of("route-planner").cards[0]
    count = sum(len(s.examples) for s in card.skills)
    # the card's interfaces in its order: JSON-RPC, gRPC, HTTP+JSON, all v1.0; the same labels on every example
    one = [
        f"**{group} · {form}**"
        for group, forms in (
            ("JSON-RPC v1.0", ("curl", "Python")),
            ("gRPC v1.0", ("grpcurl", "Python")),
            ("HTTP+JSON v1.0", ("curl", "Python")),
        )
        for form in forms
    ]
    assert labels == one * count
    # the extended card is asked of each interface too, by command line only
    assert re.findall(r"\*\*([^*]+ · [^*]+)\*\*", extended) == [
        "JSON-RPC v1.0 · curl",
        "gRPC v1.0 · grpcurl",
        "HTTP+JSON v1.0 · curl",
    ]
    commands = [content for info, content in fences(text) if info == "sh"]
    curls = [c for c in commands if c.startswith("curl ")]
    assert {c.split(" \\\n", 1)[0] for c in curls} == {
        "curl -sS --fail-with-body -X POST 'https://routes.tidewater.example/a2a/jsonrpc'",
        "curl -sS --fail-with-body -X POST 'https://routes.tidewater.example/a2a/rest/message:send'",
    }
    assert all("authorization: bearer <token>'" in c.lower() for c in commands)
    grpcurls = [c for c in commands if not c.startswith("curl ")]
    assert len(grpcurls) == count
    assert all("'grpc.routes.tidewater.example:443' lf.a2a.v1.A2AService/SendMessage" in c for c in grpcurls)


def test_modes_say_where_they_come_from() -> None:
    site = site_of("route-planner")
    found = facts(site.pages[agent_path(site, "Coastal")])
    assert found["Media types"] == ["accepts text/plain; returns text/plain, application/json"]
    # every skill states its own effective types, and where they come from
    assert found["Accepts"] == [
        "text/plain, application/json (the skill's own)",
        "application/json (the skill's own)",
        "text/plain (the card's default)",
    ]
    assert found["Returns"] == [
        "application/json, application/geo+json (the skill's own)",
        "text/plain, application/json (the card's default)",
        "text/plain, application/json (the card's default)",
    ]


def test_skill_security_is_stated_only_where_it_differs() -> None:
    site = site_of("route-planner")
    text = site.pages[agent_path(site, "Coastal")]
    found = facts(text)
    assert found["Authentication"] == ["OpenID Connect tidewater-id with scopes openid, profile"]
    assert found["Security"] == [  # only Seat Booking has requirements of its own
        "OAuth 2.0 partner-oauth with scopes bookings:write, routes:read, or OpenID Connect tidewater-id with "
        "scope openid and OAuth 2.0 partner-oauth with scope bookings:write"
    ]
    scopes = {tuple(r) for r in rows_of(text)}
    assert ("bookings:write", "Hold and book seats on ferries and trains.") in scopes


def test_security_schemes_of_every_kind() -> None:
    site = site_of("mixed")
    text = site.pages[agent_path(site, "Harbour")]
    lines = [t.content.replace("`", "") for t in parse(text) if t.type == "inline"]
    for line in (
        "API key, sent in the header X-Desk-Key.",
        "HTTP authentication, Bearer (bearer format JWT).",
        "Mutual TLS: clients present a certificate.",
        "Not an A2A kind: declared as x402.",
    ):
        assert line in lines, line
    assert any(item.startswith("Implicit flow (deprecated") for item in list_items(text))
    assert "Device authorization URL: https://id.harbour.example/device" in list_items(text)
    assert ["#", "Status", "Algorithm", "Key id", "Type", "Key set URL"] in rows_of(text)
    assert facts(text)["Signature"] == ["Signature malformed (details)"]
    # the endpoint is the first interface with a core binding (the preferred one has a custom binding)
    assert facts(text)["Endpoint"][0].startswith("https://desk.harbour.example/a2a/rest (HTTP+JSON")


def test_unsafe_provider_url_is_not_a_link() -> None:
    site = site_of("mixed")
    text = site.pages[agent_path(site, "Harbour")]
    assert all("javascript" not in href for href in links(text))
    assert "not a safe link" in text


def test_index_lists_agents_and_notices() -> None:
    site = site_of("mixed")
    index = site.pages["index.md"]
    items = list_items(index)
    assert items[0].startswith("F Harbour Desk <beta>")  # its grade first
    assert any(i.startswith("2 skills · ") for i in items)  # its provider is the group's heading
    assert any(i.startswith("B Lighthouse Weather") for i in items)
    assert [title for level, title in headings(index) if level == 3] == [
        "Harbour Authority",
        "No provider named",
    ]
    assert "1 file could not be read as an Agent Card" in index
    assert "1 card has errors" in index  # the other one's bare "text" media types are warnings
    clean = site_of("route-planner").pages["index.md"]
    assert "[!NOTE]" not in clean
    assert "[!WARNING]" not in clean


def test_excluded_page() -> None:
    assert "None: every file loaded." in site_of("route-planner").pages["excluded.md"]
    excluded = site_of("mixed").pages["excluded.md"]
    # Named below the cards directory, never by where the build machine keeps it (an absolute path here).
    assert [t for level, t in headings(excluded) if level == 2] == ["truncated.json"]
    assert any(row[1] == "json-syntax" for row in rows_of(excluded))


def test_tag_pages_group_spellings() -> None:
    site = site_of("route-planner")
    ferries = [p for p in site.pages if p.startswith("tags/ferries")]
    assert len(ferries) == 1  # "ferries" and "Ferries" are one tag
    # one line per agent, its skills after it; no summaries (the agent page has them)
    assert list_items(site.pages[ferries[0]]) == [
        "Coastal Route Planner: Coastal Journey Planner, Seat Booking"
    ]
    assert "2 skills have this tag" in site.pages[ferries[0]]
    assert not table_rows(site.pages[ferries[0]])
    index_items = list_items(site.pages["tags/index.md"])
    assert [i.split(":")[0] for i in index_items] == ["bookings", "ferries", "routing", "tides", "trains"]


def test_media_types_and_security_and_bindings_pages() -> None:
    site = site_of("route-planner")
    media = site.pages["media-types.md"]
    assert rows_of(media) == [
        ["Media type", "Skills accepting it", "Skills producing it"],
        ["application/geo+json", "0", "1"],
        ["application/json", "2", "3"],
        ["text/plain", "2", "2"],
    ]
    media_pages = links(media)
    assert media_pages == [p for p in site.pages if p.startswith("media-types/")]
    assert set(media_pages) <= site.unindexed
    json_page = site.pages[media_pages[1]]
    assert headings(json_page)[0] == (1, "Media type: application/json")
    # skills that declare the type are named; those that take the card default are counted
    assert list_items(json_page) == [
        "Coastal Route Planner · accepted by Coastal Journey Planner, Seat Booking · produced by agent default "
        "for 2 skills, Coastal Journey Planner"
    ]
    security = site.pages["security.md"]
    assert list_items(security) == ["OAuth 2.0: 1 scheme", "OpenID Connect: 1 scheme"]
    scope_rows = [r for r in rows_of(site.pages["security/scopes.md"]) if r[0] == "bookings:write"]
    assert scope_rows == [
        [
            "bookings:write",
            "Coastal Route Planner",
            "partner-oauth",
            "Hold and book seats on ferries and trains.",
            "Seat Booking",
        ]
    ]
    assert "Every skill declares a security requirement." in security
    bindings = site.pages["bindings.md"]
    assert list_items(bindings) == [
        "GRPC, version 1.0: 1 interface",
        "HTTP+JSON, version 1.0: 1 interface",
        "JSONRPC, version 1.0: 1 interface",
    ]


def test_skills_without_authentication_are_listed(template_envs: TemplateEnvs) -> None:
    security = site_of("v03-twin").pages["security.md"]
    assert "Every skill declares a security requirement." in security
    raw = json.loads((GOLDEN / "v03-twin/input/route-planner.json").read_text())
    del raw["security"]
    card, _ = load_card_bytes(json.dumps(raw).encode(), display="open.json")
    assert card is not None
    site = render_catalog(Catalog(cards=(card,), diagnostics=(), excluded=()), envs=template_envs)
    assert "security/no-authentication.md" in links(site.pages["security.md"])
    lines = list_items(site.pages["security/no-authentication.md"])
    assert lines == ["Coastal Route Planner: Coastal Journey Planner, Tide Window"]


# -- determinism ------------------------------------------------------------------------------------------------


def test_rendering_is_deterministic_and_independent_of_input_order(template_envs: TemplateEnvs) -> None:
    files = sorted(str(p) for case in CASES for p in (GOLDEN / case / "input").glob("*.json"))
    files = [f for f in files if "v03-twin" not in f]  # one agent name per catalogue
    first = render_catalog(load_catalog(files))  # fresh templates; those kept for the module give the same
    assert render_catalog(load_catalog(files), envs=template_envs) == first
    assert render_catalog(load_catalog(list(reversed(files))), envs=template_envs) == first
    assert render_catalog(load_catalog(files[1:] + files[:1]), envs=template_envs) == first
    catalog = load_catalog(files)
    shuffled = Catalog(
        cards=tuple(reversed(catalog.cards)),
        diagnostics=tuple(reversed(catalog.diagnostics)),
        excluded=catalog.excluded,
        verifications=catalog.verifications,
    )
    assert render_catalog(shuffled, envs=template_envs) == first


def test_same_agent_name_gets_distinct_pages(template_envs: TemplateEnvs) -> None:
    files = [GOLDEN / "route-planner/input/route-planner.json", GOLDEN / "v03-twin/input/route-planner.json"]
    site = render_catalog(load_catalog(files), envs=template_envs)
    agents = [p for p in site.pages if p.startswith("agents/")]
    assert len(agents) == 3  # one page each, and the name's own address lists both
    assert "agents/coastal-route-planner/index.md" in agents
    for path, text in site.pages.items():
        check_page(path, text, site)
    # The home page's lists name the endpoint's host where names repeat, in every order (here both the same).
    for path in ("index.md", "sorted/name.md", "sorted/grade.md"):
        named = [i for i in list_items(site.pages[path]) if "Coastal Route Planner" in i]
        assert len(named) == 2
        assert all("Coastal Route Planner (routes.tidewater.example): " in i for i in named)
    rows = json.loads(site.files["catalogue-filter.json"])["agents"]
    assert [row[12] for row in rows] == ["routes.tidewater.example"] * 2
    alone = render_catalog(load_catalog(files[:1]))
    assert "(routes.tidewater.example)" not in alone.pages["index.md"]


@pytest.mark.parametrize(
    ("url", "host"),
    [
        ("https://a.example.com:8443/a2a", "a.example.com"),
        ("grpc.example.com:443", "grpc.example.com"),
        ("not a url", "not a url"),
    ],
)
def test_an_endpoint_s_host(url: str, host: str) -> None:
    from a2a_docgen.render.kinds.home import endpoint_host

    assert endpoint_host(url) == host


def test_the_home_page_offers_other_orders_as_static_pages() -> None:
    site = site_of("mixed")
    home = site.pages["index.md"]
    assert {"sorted/name.md", "sorted/grade.md"} <= set(links(home))
    assert "sorted/changed.md" not in site.pages  # no history: no order by change
    by_grade = list_items(site.pages["sorted/grade.md"])
    assert [i.split()[0] for i in by_grade if re.match(r"[A-F] ", i)] == ["B", "F"]  # best first
    by_name = [i for i in list_items(site.pages["sorted/name.md"]) if re.match(r"[A-F] ", i)]
    assert [i.split(" ", 1)[1][:8] for i in by_name] == ["Harbour ", "Lighthou"]
    assert {"../index.md", "grade.md"} <= set(links(site.pages["sorted/name.md"]))  # the others linked
    assert "name.md" not in links(site.pages["sorted/name.md"])
    # a tight list: an agent's facts line is followed by the next agent, no blank line between
    assert re.search(r"\n    - [^\n]*\n- \*\*[A-F]\*\* \[", site.pages["sorted/name.md"])
    assert {"sorted/name.md", "sorted/grade.md"} <= set(site.unindexed)  # the home page is the one indexed


# -- card text reaches pages only through encoders ------------------------------------------------------------

PAYLOADS = (
    "<img src=x onerror=alert(1)>",
    "](javascript:alert(1)) [y",
    "{{ 1111*7 }} {% raw %}",
    "a | b\n\n# injected",
    '--8<-- "mkdocs.yml"',
    "`x` *y* <b>z</b>",
    "&lt;script&gt;",
    "</title><script>alert(1)</script>",
)


class Markers:
    """Unique markers wrapped in hostile payloads, one per card string."""

    def __init__(self) -> None:
        self.issued: list[str] = []

    def text(self) -> str:
        marker = f"Q{len(self.issued):03d}Q"
        self.issued.append(marker)
        payload = PAYLOADS[len(self.issued) % len(PAYLOADS)]
        return f"{payload} {marker}\n{payload}"

    def url(self) -> str:
        marker = f"Q{len(self.issued):03d}Q"
        self.issued.append(marker)
        return f'https://example.com/{marker}/<b>"x"{{{{1111*7}}}}'

    def word(self) -> str:
        marker = f"Q{len(self.issued):03d}Q"
        self.issued.append(marker)
        return f"{marker}<i>|"


def b64(value: object) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")


def sentinel_card(m: Markers) -> dict[str, Any]:
    """A v1.0 card that sets every field the renderer shows, each string a unique hostile marker."""
    oidc, oauth, key, http, mtls, odd = m.word(), m.word(), m.word(), m.word(), m.word(), m.word()
    scope = m.word()
    return {
        "name": m.text(),
        "description": m.text(),
        "version": m.text(),
        "supportedInterfaces": [
            {
                "url": m.url(),
                "protocolBinding": "JSONRPC",
                "protocolVersion": "1.0",
                "tenant": m.text(),
                m.word(): m.text(),
            },
            {"url": m.url(), "protocolBinding": m.text(), "protocolVersion": m.text()},
        ],
        "provider": {"organization": m.text(), "url": m.url(), m.word(): [m.text()]},
        "documentationUrl": m.url(),
        "iconUrl": m.url(),
        "capabilities": {
            "streaming": True,
            "extensions": [
                {"uri": m.url(), "description": m.text(), "required": True, "params": {m.word(): m.text()}}
            ],
        },
        "securitySchemes": {
            oidc: {"openIdConnectSecurityScheme": {"openIdConnectUrl": m.url(), "description": m.text()}},
            oauth: {
                "oauth2SecurityScheme": {
                    "description": m.text(),
                    "oauth2MetadataUrl": m.url(),
                    "flows": {
                        "authorizationCode": {
                            "authorizationUrl": m.url(),
                            "tokenUrl": m.url(),
                            "refreshUrl": m.url(),
                            "pkceRequired": True,
                            "scopes": {scope: m.text()},
                        }
                    },
                }
            },
            key: {"apiKeySecurityScheme": {"location": m.text(), "name": m.text(), "description": m.text()}},
            http: {"httpAuthSecurityScheme": {"scheme": m.text(), "bearerFormat": m.text()}},
            mtls: {"mtlsSecurityScheme": {"description": m.text()}},
            odd: {"type": m.word(), "description": m.text()},
        },
        "securityRequirements": [{"schemes": {oidc: {"list": [m.word()]}}}, {"schemes": {key: {}, mtls: {}}}],
        "defaultInputModes": [m.word()],
        "defaultOutputModes": [m.word()],
        "skills": [
            {
                "id": m.text(),
                "name": m.text(),
                "description": m.text(),
                "tags": [m.text(), m.word()],
                "examples": [m.text(), json.dumps({m.word(): [m.text(), {"k": m.text()}]})],
                "inputModes": ["application/json", m.word()],
                "outputModes": [m.word()],
                "securityRequirements": [{"schemes": {oauth: {"list": [scope, m.word()]}, http: {}}}],
                m.word(): m.text(),
            },
            {"id": m.text(), "name": m.text(), "description": m.text(), "tags": [m.text()]},
        ],
        "signatures": [
            {
                "protected": b64({"alg": m.word(), "kid": m.text(), "typ": m.word(), "jku": m.url()}),
                "signature": "c2ln",
                "header": {m.word(): m.text()},
            }
        ],
        m.word(): {m.word(): m.text()},
    }


def test_sentinel_card_text_only_reaches_pages_through_encoders(template_envs: TemplateEnvs) -> None:
    m = Markers()
    raw = sentinel_card(m)
    card, _ = load_card_bytes(json.dumps(raw).encode(), display="sentinel.json")
    assert card is not None
    site = render_catalog(Catalog(cards=(card,), diagnostics=(), excluded=()), envs=template_envs)
    (agent,) = [p for p in site.pages if p.startswith("agents/")]
    for path, text in site.pages.items():
        check_page(path, text, site)
        assert "7777" not in text, f"{path}: a template expression ran"
    page = site.pages[agent]
    missing = [marker for marker in m.issued if marker not in page]
    assert missing == [], "card strings the agent page does not show"
    for token in walk(parse(page)):
        if token.type == "link_open":
            assert str(token.attrGet("href")).startswith(
                (
                    "https://example.com/Q",
                    "#skill-",
                    "#signatures",
                    "#card-quality",
                    "#requests",
                    "../../tags/",
                    "card.json",
                    "../../badges/",
                )
            )


def test_template_printing_card_text_raw_is_refused(tmp_path: Path) -> None:
    (tmp_path / "tags.md.jinja").write_text("# Tags\n\n{% for t in site.tags %}{{ t.tag }}{% endfor %}\n")
    with pytest.raises(UnescapedOutputError, match="without an encoding filter"):
        render_catalog(catalog_of("route-planner"), templates_dir=tmp_path)
    (tmp_path / "tags.md.jinja").write_text("# Tags\n\n{{ site.agents[0].card.provider.extra.get('x') }}\n")
    with pytest.raises(UnescapedOutputError, match="None"):
        render_catalog(catalog_of("route-planner"), templates_dir=tmp_path)
    for expression, kind in [
        ("site.agents[0].card.capabilities.extensions[0].params", "dict"),
        ("site.agents[0].card.skills[0].tags", "tuple"),
        ("site.agents[0].card.capabilities.streaming", "bool"),
    ]:
        (tmp_path / "tags.md.jinja").write_text(f"# Tags\n\n{{{{ {expression} }}}}\n")
        with pytest.raises(UnescapedOutputError, match=f"printed a {kind}"):
            render_catalog(catalog_of("route-planner"), templates_dir=tmp_path)


def test_user_templates_override_built_in_ones(tmp_path: Path) -> None:
    (tmp_path / "tags.md.jinja").write_text(
        '{% import "_macros.md.jinja" as m with context %}\n# Keywords\n\n'
        "{% for t in site.tags %}\n- {{ t.tag | md_page_link(t.path) }}\n{% endfor %}\n"
    )
    site = render_catalog(catalog_of("route-planner"), templates_dir=tmp_path)
    assert site.pages["tags/index.md"].startswith("# Keywords\n\n- [bookings](bookings.md)")
    assert site.pages["index.md"] == site_of("route-planner").pages["index.md"]
    with pytest.raises(UsageError, match="does not exist"):
        render_catalog(catalog_of("route-planner"), templates_dir=tmp_path / "missing")
    (tmp_path / "index.md.jinja").write_text("{% if %}\n")
    with pytest.raises(UsageError, match="template error"):
        render_catalog(catalog_of("route-planner"), templates_dir=tmp_path)


def test_rendering_pauses_the_cyclic_collector_and_restores_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen: list[bool] = []

    def build_views(
        catalog: Catalog,
        *,
        site_url: str | None = None,
        reuse: ViewReuse | None = None,
        history: CatalogHistory | None = None,
    ) -> SiteViews:
        seen.append(gc.isenabled())
        return page_views.build_views(catalog, site_url=site_url, reuse=reuse, history=history)

    expected = site_of("route-planner")
    monkeypatch.setattr(render, "build_views", build_views)
    assert gc.isenabled()
    assert render_catalog(catalog_of("route-planner")) == expected
    assert seen == [False]
    assert gc.isenabled()
    (tmp_path / "tags.md.jinja").write_text("# Tags\n\n{{ site.tags[0].tag }}\n")
    with pytest.raises(UnescapedOutputError):
        render_catalog(catalog_of("route-planner"), templates_dir=tmp_path)
    assert gc.isenabled()
    gc.disable()
    try:
        render_catalog(catalog_of("route-planner"))
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_template_envs_reuse_an_environment_until_an_override_changes(tmp_path: Path) -> None:
    envs = TemplateEnvs()
    builtin = envs.env()
    assert envs.env() is builtin
    assert TemplateEnvs().env() is not builtin, "kept by its owner only"
    first = envs.env(tmp_path)
    assert envs.env(tmp_path) is first
    assert first is not builtin
    catalog = catalog_of("route-planner")

    def render(**options: Any) -> RenderedSite:
        return render_catalog(catalog, templates_dir=tmp_path, envs=envs, **options)

    assert render() == site_of("route-planner")
    tags = tmp_path / "tags.md.jinja"
    tags.write_text("# Tags one\n")  # added: now shadows the built-in template
    assert render().pages["tags/index.md"] == "# Tags one\n"
    for text in ("# Tags two\n", "# Tags 3\n"):  # changed, maybe within one tick of the file clock
        tags.write_text(text)
        assert render().pages["tags/index.md"] == text
    (tmp_path / "partials").mkdir()
    (tmp_path / "partials" / "head.jinja").write_text("# Head\n")
    tags.write_text('{% include "partials/head.jinja" %}')
    assert render().pages["tags/index.md"] == "# Head\n"
    (tmp_path / "partials" / "head.jinja").write_text("# Other head\n")
    assert render().pages["tags/index.md"] == "# Other head\n"
    tags.unlink()
    assert render() == site_of("route-planner")


def test_template_envs_see_changes_behind_a_symlinked_directory(tmp_path: Path) -> None:
    overrides, real = tmp_path / "overrides", tmp_path / "real"
    overrides.mkdir()
    real.mkdir()
    (overrides / "partials").symlink_to(real, target_is_directory=True)
    (real / "loop").symlink_to(overrides, target_is_directory=True)  # a cycle is walked once
    (overrides / "tags.md.jinja").write_text('{% include "partials/head.jinja" %}')
    head = real / "head.jinja"
    catalog = catalog_of("route-planner")
    envs = TemplateEnvs()
    for text in ("# Head one\n", "# Head two\n"):
        head.write_text(text)
        os.utime(head, ns=(0, 0))  # the same modification time both times: only the content tells them apart
        assert render_catalog(catalog, templates_dir=overrides, envs=envs).pages["tags/index.md"] == text


def test_template_envs_without_a_working_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    assert render_catalog(catalog_of("route-planner"), envs=TemplateEnvs()) == site_of("route-planner")


def test_site_url_adds_the_card_url_as_text(template_envs: TemplateEnvs) -> None:
    site = render_catalog(
        catalog_of("route-planner"), site_url="https://docs.example/agents/", envs=template_envs
    )
    text = site.pages[agent_path(site, "Coastal")]
    (card_fact,) = facts(text)["Card"]
    assert card_fact.endswith(
        "published at https://docs.example/agents/agents/coastal-route-planner/card.json"
    )
    assert not [h for h in links(text) if h.startswith("https://docs.example")]
    with pytest.raises(UsageError, match="site URL"):
        render_catalog(catalog_of("route-planner"), site_url="javascript:alert(1)", envs=template_envs)


def test_taint_marks_every_card_string() -> None:
    card = taint(catalog_of("route-planner").cards[0])
    assert isinstance(card.name, CardText)
    assert all(isinstance(t, CardText) for s in card.skills for t in s.tags)
    assert all(isinstance(k, CardText) for k in card.security_schemes)
    assert card.era == "1.0"
    assert not isinstance(card.era, CardText)
    assert card == catalog_of("route-planner").cards[0]


def test_taint_copies_a_shared_object_once_and_shares_equal_strings() -> None:
    shared = ["a", {"k": "a"}]
    value = {"x": shared, "y": shared, "z": ("a", "b")}
    copy = taint(value)
    assert copy == value
    assert copy["x"] is copy["y"]
    assert copy["x"] is not shared
    assert all(isinstance(s, CardText) for s in [*copy, copy["z"][0], copy["x"][0], copy["x"][1]["k"]])
    assert copy["z"][0] is copy["x"][0] is copy["x"][1]["k"]
    assert isinstance(shared[0], str)
    assert not isinstance(shared[0], CardText)


def test_md_page_link_is_an_encoded_label_and_a_relative_target(tmp_path: Path) -> None:
    (tmp_path / "tags.md.jinja").write_text(
        "{% for t in site.tags %}\n{{ t.tag | md_page_link(t.path) }} [{{ t.tag | md_inline }}]({{ rel(t.path) }})\n"
        "{% endfor %}\n"
        "{{ site.agents[0].card.name | md_page_link(site.agents[0].path ~ '#x') }}\n"
        "{{ site.agents[0].card.name | md_page_link('#only-a-fragment') }}\n"
    )
    site = render_catalog(catalog_of("route-planner"), templates_dir=tmp_path)
    *lines, agent, fragment = site.pages["tags/index.md"].splitlines()
    assert lines
    for line in lines:
        ours, spelled_out = line.split(" ")
        assert ours == spelled_out
        assert re.fullmatch(r"\[[a-z&#;0-9]+\]\([a-z0-9-]+\.md\)", ours), ours
    assert agent.startswith("[Coastal Route Planner](../agents/")
    assert agent.endswith("/index.md#x)")
    assert fragment == "[Coastal Route Planner](#only-a-fragment)"


@pytest.mark.parametrize("call", ["{{ 'A' | md_page_link(target) }}", "[A]({{ rel(target) }})"])
@pytest.mark.parametrize(
    "target", ["x) [click](javascript:alert(1)) (", "#f\n# Heading <script>", "agents/a.md"]
)
def test_card_text_is_refused_as_a_link_target(call: str, target: str) -> None:
    template = template_env().from_string(call)
    with pytest.raises(UnescapedOutputError, match="as a link target"):
        template.render(page_path="index.md", target=CardText(target))


def test_lone_surrogates_in_names_and_ids_do_not_stop_the_render(template_envs: TemplateEnvs) -> None:
    text = (REPO / "tests/data/cards/minimal-v1.json").read_text(encoding="utf-8")
    text = text.replace('"Test Agent"', '"Test \\ud800 Agent"').replace(
        '"id": "answer"', '"id": "answer\\udfff"'
    )
    text = text.replace('"tags": ["qa"]', '"tags": ["qa"], "examples": ["hi", "{\\"q\\": \\"\\ud800\\"}"]')
    card, diagnostics = load_card_bytes(text.encode(), display="surrogates.json")
    assert card is not None
    assert "\ud800" in (card.name or "")
    assert [d.code for d in diagnostics if d.severity == "error"] == ["invalid-unicode"] * 3
    site = render_catalog(
        Catalog(cards=(card,), diagnostics=tuple(diagnostics), excluded=()), envs=template_envs
    )
    site.all_files()  # every page encodes as UTF-8
    for text in site.pages.values():
        assert not re.search("[\ud800-\udfff]", text)
    (agent_page,) = [text for path, text in site.pages.items() if path.startswith("agents/")]
    assert "SendMessage" in agent_page


def test_tidy_trims_lines_and_blank_runs() -> None:
    text = "\n\n# A  \n\n\n\n \t\nb\u3000\n\n\n\n\n\n\n\nc\n\nd\n\n\n"
    assert _tidy(text) == "# A\n\nb\n\nc\n\nd\n"
    assert _tidy("x") == "x\n"
    for run in range(1, 12):
        assert _tidy(f"a{chr(10) * run}b") == ("a\nb\n" if run == 1 else "a\n\nb\n")


def test_templates_name_their_context() -> None:
    for template in sorted(builtin_templates_dir().glob("*.md.jinja")):
        assert template.read_text().startswith("{#-"), template.name


def test_relative_path_matches_posixpath() -> None:
    pages = ["index.md", "tags/index.md", "tags/a-1.md", "agents/x-1/index.md", "agents/y-2/index.md"]
    targets = [*pages, "agents/x-1/card.json", "agents/y-2/index.md#skill-z-3", "#skill-q-4"]
    for page in pages:
        for target in targets:
            path, hash_, fragment = target.partition("#")
            expected = (
                posixpath.relpath(path, posixpath.dirname(page) or ".") + hash_ + fragment if path else target
            )
            assert relative_path(target, page) == expected, (target, page)


def test_real_cards_render_to_well_formed_pages(shared_dir: Path, template_envs: TemplateEnvs) -> None:
    catalog = load_catalog([shared_dir / "cards" / "real", shared_dir / "cards" / "spec"])
    assert len(catalog.cards) > 40
    site = render_catalog(catalog, envs=template_envs)
    shared = {path.split("/")[1].split("--")[0] for path in site.pages if "--" in path}
    agent_pages = [p for p in site.pages if p.startswith("agents/") and p.split("/")[1] not in shared]
    assert len(agent_pages) == len(catalog.cards)  # and a page for each name several cards share
    for path, text in site.pages.items():
        check_page(path, text, site)


# -- heading ids: card text never takes a theme's element id --------------------------------------------------

THEME_ID_TITLES = [
    "__config",
    "__drawer",
    "__search",
    "__toc",
    "__consent",
    "_private",
    "mkdocs_search_modal",
    "mkdocs-search-results",
    "MkDocs Search Results",
    "search",
    "Search",
    "content",
    "top",
    "toc-collapse",
    "!!!",
    "",
    "  ",
    "\uff3f\uff3fconfig",
]


@pytest.mark.parametrize(
    "text", [*THEME_ID_TITLES, "Coastal Route Planner", "žlutý kůň", "a -- b", "  Mixed_Case  x ", "a\tb"]
)
def test_toc_id_is_python_markdowns_default_slug(text: str) -> None:
    from markdown.extensions.toc import slugify

    assert toc_id(text) == slugify(text, "-")


@pytest.mark.parametrize("name", THEME_ID_TITLES)
def test_a_heading_that_would_take_a_theme_id_is_labelled(name: str) -> None:
    heading = md_heading(name, "Agent")
    assert heading.startswith("Agent: ")
    assert toc_id(html.unescape(heading)).startswith("agent")


@pytest.mark.parametrize(
    "name",
    ["Coastal Route Planner", "Search Agent", "searching", "Topology", "x__config", "&#95;&#95;config"],
)
def test_an_ordinary_heading_is_the_plain_title(name: str) -> None:
    assert md_heading(name, "Agent") == md_title(name)
    assert md_heading(name, "Skill", always=True) == f"Skill: {md_title(name)}"


def test_a_heading_label_must_itself_be_safe() -> None:
    for label in ("__x", "Search", "a: b", "mkdocs"):
        with pytest.raises(ValueError, match="label"):
            md_heading("__config", label)


CARD_HEADING = re.compile(r"^#+ (\{\{.*)$", re.MULTILINE)


def test_every_heading_with_card_text_goes_through_md_heading() -> None:
    for template in sorted(builtin_templates_dir().rglob("*.jinja")):
        for text in CARD_HEADING.findall(template.read_text(encoding="utf-8")):
            if text.startswith("{{ kind.label }}"):
                continue  # a kind of scheme, in our words
            # md_heading, or md_title followed by an explicit id (whose engines never take the text's id)
            plain = re.match(r"\{\{ [\w.]+ \| md_heading\(", text)
            with_id = re.fullmatch(r"\{\{ [\w.]+ \| md_title \}\} \{\{ heading_id\([\w.]+\) \}\}", text)
            assert plain or with_id, f"{template.name}: {text}"


def test_agent_and_media_type_headings_avoid_theme_ids(template_envs: TemplateEnvs) -> None:
    raw = json.loads((GOLDEN / "v03-twin/input/route-planner.json").read_text())
    raw["name"] = "__config"
    raw["defaultInputModes"] = ["__drawer", "mkdocs-search-results"]
    card, _ = load_card_bytes(json.dumps(raw).encode(), display="hostile.json")
    assert card is not None
    site = render_catalog(Catalog(cards=(card,), diagnostics=(), excluded=()), envs=template_envs)
    agent = next(text for path, text in site.pages.items() if path.startswith("agents/"))
    assert headings(agent)[0] == (1, "Agent: __config")
    titles = [headings(text)[0][1] for path, text in site.pages.items() if path.startswith("media-types/")]
    assert "Media type: __drawer" in titles
    assert "Media type: mkdocs-search-results" in titles
    ordinary = next(text for path, text in site_of("v03-twin").pages.items() if path.startswith("agents/"))
    assert headings(ordinary)[0] == (1, "Coastal Route Planner")


def test_the_grade_and_how_to_improve_it() -> None:
    site = site_of("mixed")
    for path, text in site.pages.items():
        if not path.startswith("agents/"):
            continue
        found = facts(text)["Card quality"]
        assert len(found) == 1
        assert re.fullmatch(r"grade [A-F] \([0-9]+/100\)( \(how to improve it\))?, badge", found[0])
        (badge,) = [h for h in links(text) if h.endswith(".json") and "/badges/" in h]
        assert posixpath.normpath(posixpath.join(posixpath.dirname(path), badge)) in site.files
        if "how to improve it" in found[0]:
            assert "\n### Card quality {#card-quality}\n" in text
    home = site.pages["index.md"]
    assert re.search(r" · grade [A-F] \([0-9]+/100\)( ·|$)", home, re.M)
    assert re.search(r"^- \*\*[A-F]\*\* \[", home, re.M)  # the grade first, a badge on the plugin's pages


def test_a_skill_taking_bare_text_gets_no_contradictory_note_and_every_skill_a_request(
    template_envs: TemplateEnvs,
) -> None:
    raw = {
        "name": "Plain",
        "description": "d",
        "version": "1",
        "supportedInterfaces": [
            {"url": "https://plain.example/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
        ],
        "capabilities": {},
        "defaultInputModes": ["text"],
        "defaultOutputModes": ["text"],
        "skills": [
            {
                "id": "a",
                "name": "A",
                "description": "d",
                "tags": ["t"],
                "examples": ["hello"],
                "inputModes": ["text"],
            },
            {"id": "b", "name": "B", "description": "d", "tags": ["t"], "inputModes": ["image/png"]},
        ],
    }
    card, _ = load_card_bytes(json.dumps(raw).encode(), display="plain.json")
    assert card is not None
    site = render_catalog(Catalog(cards=(card,), diagnostics=(), excluded=()), envs=template_envs)
    (page,) = [text for path, text in site.pages.items() if path.startswith("agents/")]
    assert "no text" not in page
    # the skill without examples gets a placeholder request, a file part since it takes images only
    section = page.split("## B ", 1)[1]
    assert "### Request\n" in section
    assert "file part" in section
    assert '"url": "https://example.com/<your-file>"' in section


def test_a_card_whose_interfaces_take_no_request_says_why_once(template_envs: TemplateEnvs) -> None:
    raw = {
        "name": "Unreachable",
        "description": "d",
        "version": "1",
        "supportedInterfaces": [
            {"url": "https://<HOST>/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {
                "url": "wss://ws.example/a2a",
                "protocolBinding": "https://example.org/ws",
                "protocolVersion": "1.0",
            },
        ],
        "capabilities": {},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "a", "name": "A", "description": "d", "tags": ["t"], "examples": ["hello"]}],
    }
    card, _ = load_card_bytes(json.dumps(raw).encode(), display="u.json")
    assert card is not None
    site = render_catalog(Catalog(cards=(card,), diagnostics=(), excluded=()), envs=template_envs)
    (page,) = [text for path, text in site.pages.items() if path.startswith("agents/")]
    assert page.count("No request is shown.") == 1
    assert "Interface 1 gets none: its URL cannot go into a command as it is" in page
    assert "Interface 2 gets none: its binding is not JSON-RPC, HTTP+JSON or gRPC." in page
    assert "**Requests:**" not in page
    assert not [info for info, _ in fences(page) if info in ("sh", "python")]


@pytest.fixture
def graded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The file of every card graded from now on, in order."""
    from a2a_docgen import quality

    files: list[str] = []
    original = quality.grade_card

    def counting(card: Any, diagnostics: Any) -> Any:
        files.append(card.source.path)
        return original(card, diagnostics)

    monkeypatch.setattr(quality, "grade_card", counting)
    return files


def test_each_card_is_graded_once_per_render(graded: list[str]) -> None:
    """The grade on the agent page and the one in catalog.json and the badge are one grading: the quality rules
    and the source index they locate findings with run once per card."""
    catalog = load_catalog([REPO / "examples" / "cards"])
    site = render_catalog(catalog, jobs=1)
    assert sorted(graded) == sorted(card.source.path for card in catalog.cards)
    assert "catalog.json" in site.files


def test_a_rebuild_grades_only_the_changed_card(graded: list[str], tmp_path: Path) -> None:
    """With the views kept from the last render (as ``mkdocs serve`` keeps them), only the card whose text
    changed is graded again, and every grade is the one a fresh render gives."""
    import shutil

    from a2a_docgen.render.reuse import RenderReuse

    shutil.copytree(REPO / "examples" / "cards", tmp_path / "cards")
    reuse = RenderReuse()
    render_catalog(load_catalog([tmp_path / "cards"]), jobs=1, reuse=reuse)
    card = sorted((tmp_path / "cards").glob("*.json"))[0]
    data = json.loads(card.read_text(encoding="utf-8"))
    data["description"] = "Changed."
    card.write_text(json.dumps(data), encoding="utf-8")
    graded.clear()
    catalog = load_catalog([tmp_path / "cards"])
    again = render_catalog(catalog, jobs=1, reuse=reuse)
    assert len(graded) == 1
    assert graded[0].endswith(card.name)
    assert again.files == render_catalog(catalog, jobs=1).files  # catalog.json and badges: the same grades
