"""ai-catalog.json, the agent pages' Markdown beside their HTML, llms.txt and llms-full.txt (``render.discovery``).

ai-catalog.json is checked by ``catalog_findings`` (AI Catalog's rules and ARD's) and by ARD's JSON Schema as
the reference gives its rules (``../shared/spec/discovery.md``, ARD section), on the example catalogue, the real
cards and the hostile corpus, whose text must come back from the JSON as exactly the cleaned card text.
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from a2a_docgen.catalog import load_catalog
from a2a_docgen.cli import main
from a2a_docgen.errors import UsageError
from a2a_docgen.load.aicatalog import A2A_CARD_TYPE, catalog_findings
from a2a_docgen.load.report import Report
from a2a_docgen.model import Catalog
from a2a_docgen.render import render_catalog
from a2a_docgen.render.discovery import (
    LLMS_FULL_MAX_BYTES,
    MAX_QUERIES,
    MAX_QUERY_CHARS,
    _fence,
    llms_full_parts,
    publisher_domain,
)
from a2a_docgen.render.kinds import build_views
from a2a_docgen.render.site import RenderedSite
from a2a_docgen.text.unicode import clean_text, one_line
from benchmarks.synthetic import write_catalogue
from tests.conftest import REPO
from tests.support.hostile_sites import HOSTILE
from tests.test_exports import V10, catalog_of

EXAMPLES = REPO / "examples" / "cards"
SITE_URL = "https://docs.example.org/agents/"

_URI = {"type": "string", "pattern": r"^[A-Za-z][A-Za-z0-9+.-]*:\S+$"}  # format: uri, asserted
_STRINGS: dict[str, Any] = {"type": "array", "items": {"type": "string"}}
ARD_SCHEMA: dict[str, Any] = {
    # ARD's JSON Schema (ai-catalog.schema.json) as discovery.md gives its rules; formats asserted by pattern.
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["specVersion", "entries"],
    "additionalProperties": False,
    "properties": {
        "specVersion": {"type": "string", "enum": ["1.0"]},
        "host": {
            "type": "object",
            "required": ["displayName"],
            "additionalProperties": False,
            "properties": {
                "displayName": {"type": "string"},
                "identifier": {"type": "string"},
                "documentationUrl": _URI,
                "logoUrl": _URI,
                "trustManifest": {"type": "object", "required": ["identity"]},
            },
        },
        "entries": {"type": "array", "items": {"$ref": "#/$defs/entry"}},
    },
    "$defs": {
        "entry": {
            "type": "object",
            "required": ["identifier", "displayName", "type"],
            "oneOf": [
                {"required": ["url"], "not": {"required": ["data"]}},
                {"required": ["data"], "not": {"required": ["url"]}},
            ],
            "properties": {
                "identifier": {"type": "string", "pattern": r"^urn:air:[a-zA-Z0-9.-]+(:[a-zA-Z0-9._-]+)+$"},
                "displayName": {"type": "string"},
                "type": {"type": "string"},
                "url": _URI,
                "data": {"type": "object"},
                "description": {"type": "string"},
                "tags": {**_STRINGS, "minItems": 1},  # the CDDL's [+ tstr]
                "capabilities": {**_STRINGS, "minItems": 1},
                "representativeQueries": {**_STRINGS, "minItems": 2, "maxItems": 5},
                "version": {"type": "string"},
                "updatedAt": {"type": "string"},
                "metadata": {
                    "type": "object",
                    "additionalProperties": {"type": ["string", "number", "boolean", "null"]},
                },
            },
        }
    },
}


def findings(document: dict[str, Any]) -> list[tuple[str, str]]:
    report = Report()
    catalog_findings(document, report)
    return [(f.code, f.pointer) for f in report.findings]


def site_of(catalog: Catalog, **options: Any) -> RenderedSite:
    return render_catalog(catalog, **options)


def ai_catalog(site: RenderedSite) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(site.files["ai-catalog.json"])
    return data


def assert_valid(document: dict[str, Any]) -> None:
    assert findings(document) == []
    jsonschema.Draft202012Validator(ARD_SCHEMA).validate(document)


def owned(catalog: Catalog) -> RenderedSite:
    """The site of an owner who publishes the agents, at a known URL: the catalogue ARD accepts."""
    return site_of(catalog, site_url=SITE_URL, publisher="example.org")


# --------------------------------------------------------------------------------------------------------------
# ai-catalog.json


def test_the_schema_reproduction_rejects_what_ard_rejects() -> None:
    good: dict[str, Any] = {
        "specVersion": "1.0",
        "entries": [
            {"identifier": "urn:air:a.b:c:d", "displayName": "D", "type": "t", "url": "https://a.b/c"}
        ],
    }
    jsonschema.Draft202012Validator(ARD_SCHEMA).validate(good)
    entry: dict[str, Any] = good["entries"][0]
    for bad in (
        {**good, "extensions": {}},
        {**good, "entries": [{**entry, "identifier": "urn:uuid:1"}]},
        {**good, "entries": [{**entry, "url": "agents/x/card.json"}]},
        {**good, "entries": [{**entry, "data": {}}]},
        {**good, "entries": [{**entry, "representativeQueries": ["one"]}]},
        {**good, "entries": [{k: v for k, v in entry.items() if k != "displayName"}]},
    ):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.Draft202012Validator(ARD_SCHEMA).validate(bad)
        assert findings(bad), bad


def test_example_catalogue_gives_no_findings_and_points_at_the_published_cards() -> None:
    catalog = load_catalog([EXAMPLES])
    site = owned(catalog)
    document = ai_catalog(site)
    assert_valid(document)
    assert document["host"] == {
        "displayName": "A2A agent catalogue",
        "identifier": "example.org",
        "documentationUrl": SITE_URL,
    }
    views = build_views(catalog, site_url=SITE_URL)
    assert len(document["entries"]) == len(views.agents) == len(catalog.cards)
    catalog_ids = [a["id"] for a in json.loads(site.files["catalog.json"])["agents"]]
    for entry, agent, catalog_id in zip(document["entries"], views.agents, catalog_ids, strict=True):
        assert entry["type"] == entry["mediaType"] == A2A_CARD_TYPE
        assert entry["url"] == SITE_URL + agent.card_json
        assert site.files[agent.card_json] == agent.card.source.text.encode()
        # the same identity as catalog.json's id, under the owner's domain
        assert entry["identifier"] == "urn:air:example.org:a2a:" + catalog_id.removeprefix("urn:uuid:")
        assert entry["displayName"] == agent.card.name
        assert entry["version"] == agent.card.version
        assert entry["capabilities"] == [s.id for s in agent.card.skills]
        assert len(entry.get("representativeQueries", ())) in (0, *range(2, MAX_QUERIES + 1))
    assert sum("representativeQueries" in entry for entry in document["entries"]) >= 3


def test_other_peoples_agents_get_no_urn_air_and_relative_urls_without_a_site_url() -> None:
    catalog = load_catalog([EXAMPLES])
    plain = ai_catalog(site_of(catalog))
    ids = [a["id"] for a in json.loads(site_of(catalog).files["catalog.json"])["agents"]]
    # no identifier is minted under anyone's domain: the card's urn:uuid, which ARD alone does not accept
    assert [e["identifier"] for e in plain["entries"]] == ids
    assert all(e["url"].startswith("agents/") and e["url"].endswith("/card.json") for e in plain["entries"])
    assert plain["host"] == {"displayName": "A2A agent catalogue"}
    expected = {
        ("catalog-ard", f"/entries/{i}/{name}") for i in range(len(ids)) for name in ("identifier", "url")
    }
    assert set(findings(plain)) == expected
    # a site URL makes the URLs absolute; the identifiers stay
    with_url = ai_catalog(site_of(catalog, site_url=SITE_URL))
    assert {code for code, pointer in findings(with_url) if not pointer.endswith("/identifier")} == set()
    assert with_url["host"]["identifier"] == "docs.example.org"


@pytest.mark.parametrize(
    "value", ["localhost", "127.0.0.1", "exa mple.org", "a_b.example", "https://x.org", "."]
)
def test_publisher_domain_must_be_a_domain_name(value: str) -> None:
    with pytest.raises(UsageError, match="not a domain name"):
        publisher_domain(value)
    assert publisher_domain("Example.ORG.") == "example.org"
    assert publisher_domain(None) is None


def test_build_refuses_a_bad_publisher_domain(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["build", str(EXAMPLES), "-o", str(tmp_path / "out"), "--publisher-domain", "not a domain"])
    assert code == 2
    assert "not a domain name" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_real_cards_give_no_findings(shared_dir: Path) -> None:
    real = shared_dir / "cards" / "real"
    if not real.is_dir():
        pytest.skip("../shared/cards/real is not present")
    catalog = load_catalog([real])
    assert catalog.cards
    assert_valid(ai_catalog(owned(catalog)))


def test_hostile_card_text_stays_inert_text() -> None:
    catalog = load_catalog([HOSTILE])
    site = owned(catalog)
    text = site.files["ai-catalog.json"].decode("utf-8")
    document = json.loads(text)
    assert_valid(document)
    views = build_views(catalog, site_url=SITE_URL)
    for entry, agent in zip(document["entries"], views.agents, strict=True):
        card = agent.card
        name = clean_text(card.name).strip() if isinstance(card.name, str) else ""
        assert entry["displayName"] == (name or "Unnamed agent")
        if "description" in entry:
            assert entry["description"] == clean_text(card.description or "").strip()
        for query in entry.get("representativeQueries", []):
            assert len(query) <= MAX_QUERY_CHARS
            assert "\n" not in query
            assert query in {one_line(ex.text, MAX_QUERY_CHARS) for s in card.skills for ex in s.examples}
        assert all(_plain(value) for value in _strings(entry))
    # JSON, so no markup is interpreted: every '<' is inside a string, and no raw control character is written
    assert not re.search(r"[\x00-\x1f\u202a-\u202e\u2066-\u2069]", text.replace("\n", ""))
    assert "<script" in text  # the payloads are there, as text


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _plain(value: str) -> bool:
    """No invisible or direction-changing character left raw (clean_text marks them)."""
    return clean_text(value) == value


def test_representative_queries_are_plain_bounded_and_left_out_below_two() -> None:
    examples = [
        "  Plan a trip\nto Kyoto  ",
        '{"city": "Kyoto"}',
        "x" * 500,
        "Plan a trip to Kyoto",
        "b",
        "c",
        "d",
    ]
    many = {**V10, "skills": [{**V10["skills"][0], "examples": examples}]}
    one = {**V10, "name": "One", "skills": [{**V10["skills"][0], "examples": ["only one", "{}"]}]}
    document = ai_catalog(owned(catalog_of((many, "many.json"), (one, "one.json"))))
    by_name = {e["displayName"]: e for e in document["entries"]}
    assert by_name["Weather Desk"]["representativeQueries"] == [
        "Plan a trip to Kyoto",  # one line, once
        "x" * (MAX_QUERY_CHARS - 1) + "…",
        "b",
        "c",
        "d",
    ]
    assert "representativeQueries" not in by_name["One"]  # ARD wants at least two
    assert_valid(document)


def test_bytes_are_deterministic() -> None:
    cards = sorted(EXAMPLES.glob("*.json"))
    first = owned(load_catalog([str(p) for p in cards]))
    again = site_of(
        load_catalog([str(p) for p in reversed(cards)]), site_url=SITE_URL, publisher="example.org", jobs=2
    )
    for name in ("ai-catalog.json", "llms.txt", "llms-full.txt"):
        assert first.files[name] == again.files[name]


# --------------------------------------------------------------------------------------------------------------
# The agent pages' Markdown, llms.txt and llms-full.txt


def test_markdown_copies_are_the_sealed_pages_on_every_dialect() -> None:
    catalog = load_catalog([EXAMPLES])
    sealed = site_of(catalog)  # the plugin's pages: github dialect, published as their own sources
    for dialect in ("github", "material"):
        built = site_of(catalog, markdown_sources=False, dialect=dialect)
        for agent in build_views(catalog).agents:
            assert built.files[f"{agent.path}.txt"] == sealed.pages[agent.path].encode("utf-8")
    assert not [path for path in sealed.files if path.endswith(".md.txt")]


def _md_links(text: str) -> list[str]:
    return [
        child.attrGet("href") or ""
        for token in MarkdownIt("commonmark").parse(text)
        for child in token.children or []
        if child.type == "link_open"
    ]


@pytest.mark.parametrize("sources", [True, False])
def test_llms_txt_links_every_agent_pages_markdown(sources: bool) -> None:
    catalog = load_catalog([EXAMPLES, HOSTILE])
    site = site_of(catalog, markdown_sources=sources)
    text = site.files["llms.txt"].decode()
    tokens = MarkdownIt("commonmark").parse(text)
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert headings[0] == "A2A agent catalogue"
    assert headings[1:] == ["Agents", "Skills", "Optional"]
    assert [t.type for t in tokens[:6]][3] == "blockquote_open"
    published = set(site.pages) | set(site.files) if sources else set(site.files)
    targets = {href.partition("#")[0] for href in _md_links(text)}
    for agent in build_views(catalog).agents:
        assert (agent.path if sources else f"{agent.path}.txt") in targets
    assert targets <= published
    assert not [t for t in tokens if t.type.startswith("html")]


def _quoted_pages(part: str) -> list[tuple[str, str]]:
    """(heading, fenced text) of each page quoted in an llms-full.txt part, as a CommonMark reader sees it."""
    tokens = MarkdownIt("commonmark").parse(part)
    pages = []
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag == "h2":
            fence = tokens[i + 3]
            assert (fence.type, fence.info) == ("fence", "markdown"), fence
            pages.append((tokens[i + 1].content, fence.content))
    top = [t for t in tokens if t.level == 0 and t.nesting >= 0 and t.type not in ("inline",)]
    kinds = [t.type for t in top if t.type not in ("heading_close", "paragraph_close", "blockquote_close")]
    assert kinds[:3] == ["heading_open", "blockquote_open", "paragraph_open"]
    assert set(kinds[3:]) <= {"heading_open", "fence"}, kinds  # nothing but our headings and the fences
    return pages


def test_llms_full_quotes_every_page_whole_even_hostile_ones() -> None:
    catalog = load_catalog([EXAMPLES, HOSTILE])
    site = site_of(catalog)
    assert [name for name in site.files if name.startswith("llms-full")] == ["llms-full.txt"]
    agents = build_views(catalog).agents
    pages = _quoted_pages(site.files["llms-full.txt"].decode())
    assert pages == [(agent.path, site.pages[agent.path]) for agent in agents]


def test_llms_full_of_a_large_catalogue_is_split_within_the_bound(tmp_path: Path) -> None:
    write_catalogue(tmp_path, 120, 8)
    catalog = load_catalog([tmp_path])
    site = site_of(catalog, jobs=2)
    parts = {name: data for name, data in site.files.items() if name.startswith("llms-full")}
    assert len(parts) > 1
    names = ["llms-full.txt", *(f"llms-full-{i}.txt" for i in range(2, len(parts) + 1))]
    assert sorted(parts) == sorted(names)
    quoted = []
    for index, name in enumerate(names, start=1):
        text = parts[name].decode()
        assert len(parts[name]) <= LLMS_FULL_MAX_BYTES
        assert f"> Part {index} of {len(parts)} " in text
        assert ", ".join(names) in text
        quoted += _quoted_pages(text)
    agents = build_views(catalog).agents
    assert quoted == [(agent.path, site.pages[agent.path]) for agent in agents]


def test_a_page_larger_than_the_bound_is_cut_and_names_its_whole_page() -> None:
    catalog = load_catalog([EXAMPLES])
    agents = build_views(catalog).agents
    site = site_of(catalog)
    texts = [site.pages[agent.path] for agent in agents]
    bound = 12_000
    assert max(len(t.encode()) for t in texts) > bound
    parts = llms_full_parts(agents, texts, sources_published=False, max_bytes=bound)
    assert all(len(data) <= bound for data in parts.values())
    quoted = [page for data in parts.values() for page in _quoted_pages(data.decode())]
    assert [path for path, _ in quoted] == [f"{agent.path}.txt" for agent in agents]
    for (path, shown), whole in zip(quoted, texts, strict=True):
        if shown == whole:
            continue
        body, _, note = shown.rstrip("\n").rpartition("\n")
        assert whole.startswith(body.rstrip("\n"))
        assert note == f"[The page is cut here to fit this file; the whole page is {path}]"


# --------------------------------------------------------------------------------------------------------------
# The plugin: a real MkDocs build


def test_the_plugin_publishes_and_links_the_markdown_and_the_ai_catalog(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from tests.test_mkdocs_build import Project

    project = Project(tmp_path)
    (project.docs / "about.md").write_text("# About\n")
    plugin = {"cards": "cards", "prefix": "catalogue", "publisher_domain": "example.org"}
    with caplog.at_level(logging.INFO):
        project.build(site_url="https://x.example/docs/", plugins=[{"a2a-docgen": plugin}])
    assert "relative to the catalogue" not in caplog.text
    sealed = render_catalog(
        load_catalog([project.root / "cards"]), site_url="https://x.example/docs/catalogue/", site_name="Test"
    )
    (agent,) = build_views(load_catalog([project.root / "cards"])).agents
    page = project.site / "catalogue" / agent.path
    # the Markdown beside the HTML is the page the plugin converted
    assert page.read_text(encoding="utf-8") == sealed.pages[agent.path]
    head = project.html(f"catalogue/{agent.path.removesuffix('index.md')}index.html").partition("</head>")[0]
    assert '<link rel="alternate markdown" type="text/markdown" href="index.md">' in head
    assert '<link rel="ai-catalog" type="application/ai-catalog+json" href="../../ai-catalog.json">' in head
    assert 'rel="alternate"' not in head  # Material would fetch a sitemap.xml beside an exact alternate
    own = project.html("about/index.html").partition("</head>")[0]
    assert (
        '<link rel="ai-catalog" type="application/ai-catalog+json" href="../catalogue/ai-catalog.json">'
        in own
    )
    assert "text/markdown" not in own  # the site's own pages publish no Markdown of ours
    document = json.loads((project.site / "catalogue" / "ai-catalog.json").read_bytes())
    assert_valid(document)
    assert document["entries"][0]["url"] == f"https://x.example/docs/catalogue/{agent.card_json}"
    assert document["entries"][0]["identifier"].startswith("urn:air:example.org:a2a:")
    assert (project.site / "catalogue" / "llms-full.txt").read_bytes() == sealed.files["llms-full.txt"]
    # without a site URL: relative URLs, said once in the log (INFO: a strict build does not fail for it)
    caplog.clear()
    with caplog.at_level(logging.INFO):
        project.build(plugins=[{"a2a-docgen": {"cards": "cards"}}])
    assert caplog.text.count("relative to the catalogue") == 1
    assert "site_url in mkdocs.yml" in caplog.text


@given(st.text(alphabet="`a\n", max_size=60))
def test_a_fence_is_longer_than_every_run_of_backticks(text: str) -> None:
    runs = [len(run) for run in re.findall("`+", text)]
    assert _fence(text) == "`" * max(3, max(runs, default=0) + 1)
