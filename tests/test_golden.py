"""Golden trees: ``tests/golden/<case>/input/*.json`` rendered must equal ``expected/**`` byte for byte.

``pytest --update-golden`` rewrites the expected trees; review their diff like code.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from markdown_it.token import Token

from a2a_docgen.catalog import load_catalog
from a2a_docgen.render import render_catalog
from a2a_docgen.render.assets import ASSET_DIR
from a2a_docgen.render.exports import agent_paths
from a2a_docgen.render.site import RenderedSite
from tests.support.markdown_tokens import fences, headings, html_tokens, parse

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(p.name for p in GOLDEN.iterdir() if (p / "input").is_dir())


def render_case(case: str, monkeypatch: pytest.MonkeyPatch) -> RenderedSite:
    """Load ``input/`` from inside the case directory, so paths on pages do not depend on the checkout."""
    with monkeypatch.context() as patch:
        patch.chdir(GOLDEN / case)
        catalog = load_catalog(["input"])
    return render_catalog(catalog)


def read_tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


ASSETS = ASSET_DIR + "/"
"""The catalogue's stylesheet and script: copies of ``a2a_docgen/assets/`` in every site, checked as such
rather than kept three more times in the golden trees."""


@pytest.mark.parametrize("case", CASES)
def test_golden_tree(case: str, monkeypatch: pytest.MonkeyPatch, update_golden: bool) -> None:
    everything = render_case(case, monkeypatch).all_files()
    rendered = {path: data for path, data in everything.items() if not path.startswith(ASSETS)}
    packaged = Path(__file__).parents[1] / "a2a_docgen" / "assets"
    assets = {path.removeprefix(ASSETS): data for path, data in everything.items() if path.startswith(ASSETS)}
    assert assets == {p.name: p.read_bytes() for p in packaged.iterdir() if p.suffix in (".css", ".js")}
    expected_dir = GOLDEN / case / "expected"
    if update_golden:
        shutil.rmtree(expected_dir, ignore_errors=True)
        for path, data in rendered.items():
            target = expected_dir / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    expected = read_tree(expected_dir)
    assert sorted(rendered) == sorted(expected), "the set of files differs (run pytest --update-golden)"
    for path, data in rendered.items():
        assert data.decode() == expected[path].decode(), f"{case}/{path} differs (run pytest --update-golden)"


def test_cases_present() -> None:
    assert {"route-planner", "v03-twin", "mixed"} <= set(CASES)


# -- the v0.3 twin states the same facts as the v1.0 card ------------------------------------------------------


def agent_page(site: RenderedSite) -> str:
    (path,) = [p for p in site.pages if p.startswith("agents/")]
    return site.pages[path]


_ERA = re.compile(r"A2A v(?:1\.0|0\.3) card")
_VERSION = re.compile(r", A2A `[^`]*`|^`[0-9.]+`$")  # in the endpoint line; an interface's version cell
_PROTO = re.compile(r"v(?:1\.0|0\.3): \[https://raw\.githubusercontent\.com/a2aproject/A2A/[^\]]*\]\([^)]*\)")
"""The protocol definition grpcurl reads: the one of the interfaces' version."""
_REQUEST_VERSION = re.compile(r"(JSON-RPC|gRPC|HTTP\+JSON) v(?:1\.0|0\.3)")  # the labels of the requests


def facts(page: str) -> list[str]:
    """The page's blocks (as markdown-it parses them) minus what legitimately differs between eras: the era
    the card was written in, the protocol version of its interfaces, and the requests (labelled code blocks:
    their shape follows the protocol version)."""
    tokens = parse(page)
    kept: list[str] = []
    for index, token in enumerate(tokens):
        label = index >= 3 and tokens[index - 3].type == "paragraph_open" and _is_label(tokens[index - 2])
        if token.type == "fence" and label:
            kept.pop()  # the label went in before its block
            continue
        if token.type in ("inline", "fence"):
            text = _VERSION.sub("", _ERA.sub("A2A card", token.content))
            kept.append(_PROTO.sub("", _REQUEST_VERSION.sub(r"\1", text)))
    return kept


def _is_label(inline: Token) -> bool:
    """A paragraph that is only a bold label: the line above each request block."""
    return bool(re.fullmatch(r"\*\*[A-Za-z0-9 .+·-]+\*\*", inline.content))


def test_v03_twin_states_the_same_facts(monkeypatch: pytest.MonkeyPatch) -> None:
    v1 = agent_page(render_case("route-planner", monkeypatch))
    v03 = agent_page(render_case("v03-twin", monkeypatch))
    assert facts(v1) == facts(v03)
    # the requests are labelled by the protocol version they speak
    assert "**Requests:** JSON-RPC v1.0, gRPC v1.0, HTTP+JSON v1.0 (" in v1
    assert "**Requests:** JSON-RPC v0.3, gRPC v0.3, HTTP+JSON v0.3 (" in v03
    # ...and what differs is exactly the era and the protocol the requests speak.
    assert "an A2A v1.0 card" in v1
    assert "an A2A v0.3 card" in v03
    assert v1 != v03


def test_v03_twin_requests_follow_the_protocol_version(monkeypatch: pytest.MonkeyPatch) -> None:
    def bodies(page: str) -> list[dict[str, object]]:
        """The JSON-RPC bodies the curl commands send (their here-documents)."""
        found = [
            json.loads(content.split("<<'EOF'\n", 1)[1].rsplit("\nEOF", 1)[0])
            for info, content in fences(page)
            if info == "sh" and content.startswith("curl ") and "<<'EOF'\n" in content  # a GET sends none
        ]
        return [b for b in found if isinstance(b, dict) and b.get("jsonrpc") == "2.0"]

    v1 = bodies(agent_page(render_case("route-planner", monkeypatch)))
    v03 = bodies(agent_page(render_case("v03-twin", monkeypatch)))
    assert len(v1) == len(v03) == 5
    assert sorted({str(b["method"]) for b in v1}) == ["GetExtendedAgentCard", "SendMessage"]
    assert sorted({str(b["method"]) for b in v03}) == ["agent/getAuthenticatedExtendedCard", "message/send"]
    assert next(b for b in v03 if b["method"] == "agent/getAuthenticatedExtendedCard").get("params") is None


# -- the structure of the expected pages, whatever the templates' wording --------------------------------------

OWN_HTML = re.compile(r'(?:\s*</?[a-z][a-z0-9]*(?:\s+[a-z-]+="[a-z0-9_-]*")*\s*/?>)+\s*')
"""Raw HTML the renderer writes itself: tags only, attribute values slugs."""


def card_strings(case: str) -> list[str]:
    """Every string of the case's input files (member names too, and the text of files that are not JSON)."""
    found: list[str] = []

    def collect(value: object) -> None:
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, list):
            for item in value:
                collect(item)
        elif isinstance(value, dict):
            for key, item in value.items():
                found.append(key)
                collect(item)

    for path in sorted((GOLDEN / case / "input").glob("*.json")):
        text = path.read_text(encoding="utf-8", errors="replace")
        try:
            collect(json.loads(text))
        except ValueError:
            found.append(text)
    return found


def folded(text: str) -> str:
    """Letters and digits only, case-folded: how a name is recognised in a heading, however it is encoded or
    labelled (``Skill: Free berths``, ``Harbour Desk ‹beta›``)."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def expected_pages(case: str) -> dict[str, str]:
    root = GOLDEN / case / "expected"
    return {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8") for p in sorted(root.rglob("*.md"))}


def json_fences(md: str) -> list[object]:
    """The parsed content of every fence whose info is ``json``."""
    return [json.loads(content) for info, content in fences(md) if info == "json"]


@pytest.mark.parametrize("case", CASES)
def test_card_text_is_never_raw_html(case: str) -> None:
    """Every raw HTML token is tags only, and none of them comes from a card (``<beta>`` in a name)."""
    strings = card_strings(case)
    assert any("<" in text for text in strings) or case != "mixed", (
        "the mixed case must hold markup to prove this"
    )
    for path, md in expected_pages(case).items():
        for token in html_tokens(md):
            tags = token.content.strip()
            assert OWN_HTML.fullmatch(token.content), f"{case}/{path}: text in raw HTML: {tags!r}"
            assert not any(tags in text for text in strings), (
                f"{case}/{path}: card text as raw HTML: {tags!r}"
            )


@pytest.mark.parametrize("case", CASES)
def test_every_json_fence_on_every_page_parses(case: str) -> None:
    for path, md in expected_pages(case).items():
        for info, content in fences(md):
            if info == "json":
                try:
                    json.loads(content)
                except ValueError as exc:
                    pytest.fail(f"{case}/{path}: a json fence does not parse: {exc}")


@pytest.mark.parametrize("case", CASES)
def test_agent_pages_have_one_title_a_section_per_skill_and_their_json_examples(
    case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as patch:
        patch.chdir(GOLDEN / case)
        catalog = load_catalog(["input"])
    pages = expected_pages(case)
    agents = agent_paths(catalog)
    assert agents
    assert {paths.page_path for paths in agents} == {p for p in pages if p.startswith("agents/")}
    for paths in agents:
        md = pages[paths.page_path]
        found = headings(md)
        titles = [text for level, text in found if level == 1]
        assert len(titles) == 1, f"{paths.page_path}: {titles}"
        assert folded(paths.card.name or "") in folded(titles[0])
        sections = iter(folded(text) for level, text in found if level > 1)
        for skill in paths.card.skills:  # each skill's heading, in card order
            name = folded(skill.name or skill.id or "")
            assert any(name in heading for heading in sections), (
                f"{paths.page_path}: no section for {skill.id}"
            )
        shown = json_fences(md)
        for skill in paths.card.skills:
            for example in skill.examples:
                if example.is_json:
                    assert example.value in shown, (
                        f"{paths.page_path}: example {example.pointer} is not a JSON fence"
                    )
