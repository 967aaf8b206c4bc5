"""Golden trees: ``tests/golden/<case>/input/*.json`` rendered must equal ``expected/**`` byte for byte.

``pytest --update-golden`` rewrites the expected trees; review their diff like code.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from a2a_docgen.catalog import load_catalog
from a2a_docgen.render import render_catalog
from a2a_docgen.render.site import RenderedSite
from tests.support.markdown_tokens import fences, parse

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


@pytest.mark.parametrize("case", CASES)
def test_golden_tree(case: str, monkeypatch: pytest.MonkeyPatch, update_golden: bool) -> None:
    rendered = render_case(case, monkeypatch).all_files()
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


def facts(page: str) -> list[str]:
    """The page's lines minus what legitimately differs between eras.

    Dropped: the "Source era" row, the protocol-version column of the interfaces table, and the request shown
    under each example (its shape follows the protocol version). Cells never hold a raw ``|`` (the encoders
    write ``&#124;``), so splitting a row on it is exact.
    """
    kept: list[str] = []
    in_request = False
    version_column: int | None = None
    for raw_line in page.split("\n"):
        line = raw_line
        if line.startswith("#"):
            in_request = False
        if line.startswith("Request to "):
            in_request = True
        if in_request or line.startswith("| Source era |"):
            continue
        if line.startswith("|"):
            cells = line.strip("|").split("|")
            if "Protocol version" in [c.strip() for c in cells]:
                version_column = [c.strip() for c in cells].index("Protocol version")
            if version_column is not None and len(cells) > version_column:
                cells[version_column] = ""
            line = "|".join(cells)
        else:
            version_column = None
        kept.append(line)
    return kept


def test_v03_twin_states_the_same_facts(monkeypatch: pytest.MonkeyPatch) -> None:
    v1 = agent_page(render_case("route-planner", monkeypatch))
    v03 = agent_page(render_case("v03-twin", monkeypatch))
    assert facts(v1) == facts(v03)
    # ...and what differs is exactly the era and the protocol the requests speak.
    assert "| Source era | v1.0 |" in v1
    assert "| Source era | v0.3 |" in v03
    assert v1 != v03


def test_v03_twin_requests_follow_the_protocol_version(monkeypatch: pytest.MonkeyPatch) -> None:
    def bodies(page: str) -> list[dict[str, object]]:
        found = [json.loads(content) for info, content in fences(page) if info == "json"]
        return [b for b in found if isinstance(b, dict) and b.get("jsonrpc") == "2.0"]

    v1 = bodies(agent_page(render_case("route-planner", monkeypatch)))
    v03 = bodies(agent_page(render_case("v03-twin", monkeypatch)))
    assert len(v1) == len(v03) == 4
    assert {b["method"] for b in v1} == {"SendMessage"}
    assert {b["method"] for b in v03} == {"message/send"}


def test_expected_pages_parse_as_commonmark() -> None:
    for case in CASES:
        for path in (GOLDEN / case / "expected").rglob("*.md"):
            assert parse(path.read_text(encoding="utf-8")), path
