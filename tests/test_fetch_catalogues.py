"""``fetch`` following AI Catalogs, against real servers on 127.0.0.1 (tests/support/http_server.py): entries
inline and by URL, nesting, loops, bounds, hostile entries, other types, refused addresses, per-entry errors."""

from __future__ import annotations

import ipaddress
import json
from pathlib import Path
from typing import Any

import pytest

from a2a_docgen import fetch
from a2a_docgen.cli import main
from a2a_docgen.fetch import AddressRefused, CardFetchError, addresses, transport
from a2a_docgen.load.aicatalog import A2A_CARD_TYPE, CATALOG_MEDIA_TYPE
from tests.support.http_server import TestServer
from tests.test_fetch import CARD, SECRET, fetch_to_directory
from tests.test_fetch_hostile import loopback_only  # noqa: F401 (a fixture: no connection beyond loopback)

CATALOGUE = "/.well-known/ai-catalog.json"


def card(name: str) -> dict[str, Any]:
    return {**CARD, "name": name}


def entry(identifier: str, **members: Any) -> dict[str, Any]:
    return {"identifier": identifier, "type": A2A_CARD_TYPE, **members}


def catalogue(*entries: dict[str, Any]) -> dict[str, Any]:
    return {"specVersion": "1.0", "entries": list(entries)}


def names(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


def written_names(directory: Path) -> dict[str, str]:
    """Card file -> the card's name."""
    return {
        p.name: json.loads(p.read_text())["name"]
        for p in sorted(directory.iterdir())
        if not p.name.endswith(".fetch.json")
    }


def test_a_bare_origin_s_catalogue_is_followed_inline_and_by_url(server: TestServer, tmp_path: Path) -> None:
    server.route(
        CATALOGUE,
        body=catalogue(
            entry("urn:air:example.org:a2a:inline", data=card("Inline")),
            entry("urn:air:example.org:a2a:remote", url="/cards/remote.json", version="2.0"),
            {
                "identifier": "urn:air:example.org:mcp:tools",
                "type": "application/mcp-server-card+json",
                "url": "/m",
            },
        ),
        content_type=CATALOG_MEDIA_TYPE,
    )
    server.route("/cards/remote.json", body=card("Remote"), etag='"r1"')
    outcomes = fetch_to_directory([server.url("/")], tmp_path)
    assert [o.status for o in outcomes] == ["catalogue", "written", "written"]
    assert outcomes[0].note == "3 entries: 2 A2A cards, 1 skipped (other types)"
    assert written_names(tmp_path) == {
        "example.org-a2a-inline.json": "Inline",
        "example.org-a2a-remote-2.0.json": "Remote",
    }
    assert "/m" not in server.paths_requested()  # other types are never fetched
    inline = json.loads((tmp_path / "example.org-a2a-inline.fetch.json").read_text())
    assert inline["catalog"] == server.url(CATALOGUE)
    assert inline["entry"] == "/entries/0"
    assert inline["etag"] is None
    remote = json.loads((tmp_path / "example.org-a2a-remote-2.0.fetch.json").read_text())
    assert (remote["url"], remote["etag"], remote["entry"]) == (
        server.url("/cards/remote.json"),
        '"r1"',
        "/entries/1",
    )


def test_a_second_run_is_conditional_and_leaves_files_untouched(server: TestServer, tmp_path: Path) -> None:
    server.route(CATALOGUE, body=catalogue(entry("a", url="/a.json"), entry("b", data=card("B"))))
    server.route("/a.json", body=card("A"), etag='"a1"')
    fetch_to_directory([server.url("/")], tmp_path)
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in tmp_path.iterdir()}
    outcomes = fetch_to_directory([server.url("/")], tmp_path)
    assert [o.status for o in outcomes] == ["catalogue", "not-modified", "unchanged"]
    assert server.requests[-1].headers.get("if-none-match") == '"a1"'
    assert {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in tmp_path.iterdir()} == before


def test_a_catalogue_url_is_recognised_by_its_shape(server: TestServer, tmp_path: Path) -> None:
    server.route("/agents/index.json", body=catalogue(entry("x", data=card("X"))), content_type="text/plain")
    outcomes = fetch_to_directory([server.url("/agents/index.json")], tmp_path)
    assert [o.status for o in outcomes] == ["catalogue", "written"]


def test_a_host_without_a_catalogue_is_fetched_as_before(server: TestServer, tmp_path: Path) -> None:
    server.route(CATALOGUE, body="<html>not here</html>", content_type="text/html")
    server.route("/.well-known/agent-card.json", body=CARD)
    (outcome,) = fetch_to_directory([server.url("/")], tmp_path)
    assert outcome.status == "written"
    assert outcome.path.name == f"127.0.0.1-{server.port}.json"


def test_the_catalogue_s_own_findings_are_reported_against_its_url(
    server: TestServer, tmp_path: Path
) -> None:
    server.route(
        CATALOGUE,
        body=f'{{"specVersion": "1.0",\n "entries": [{{"type": "{A2A_CARD_TYPE}", "data": {json.dumps(card("Z"))}}}]}}',
    )
    outcomes = fetch_to_directory([server.url("/")], tmp_path)
    codes = {(d.code, d.file, d.line, d.pointer) for d in outcomes[0].diagnostics}
    assert ("catalog-invalid", server.url(CATALOGUE), 2, "/entries/0/identifier") in codes
    assert outcomes[1].status == "written"  # an entry without an identifier is still followed


def test_nested_catalogues_are_followed_inline_and_by_url(server: TestServer, tmp_path: Path) -> None:
    server.route(
        CATALOGUE,
        body=catalogue(
            {"identifier": "sub", "type": CATALOG_MEDIA_TYPE, "url": "/sub.json"},
            {
                "identifier": "bundle",
                "type": CATALOG_MEDIA_TYPE,
                "data": catalogue(entry("in-bundle", data=card("B"))),
            },
        ),
    )
    server.route("/sub.json", body=catalogue(entry("in-sub", data=card("S"))))
    outcomes = fetch_to_directory([server.url("/")], tmp_path)
    assert [o.status for o in outcomes] == ["catalogue", "catalogue", "written", "catalogue", "written"]
    assert outcomes[3].url == server.url(CATALOGUE) + "#/entries/1/data"
    assert written_names(tmp_path) == {"in-bundle.json": "B", "in-sub.json": "S"}


def test_a_catalogue_loop_is_an_error_and_the_rest_goes_on(server: TestServer, tmp_path: Path) -> None:
    server.route(CATALOGUE, body=catalogue({"identifier": "a", "type": CATALOG_MEDIA_TYPE, "url": "/a.json"}))
    server.route(
        "/a.json",
        body=catalogue(
            {"identifier": "back", "type": CATALOG_MEDIA_TYPE, "url": CATALOGUE},
            entry("still", data=card("Still")),
        ),
    )
    outcomes = fetch_to_directory([server.url("/")], tmp_path)
    loop = [o for o in outcomes if o.status == "failed"]
    assert len(loop) == 1
    assert "catalogue loop" in str(loop[0].error)
    assert written_names(tmp_path) == {"still.json": "Still"}
    assert server.paths_requested().count(CATALOGUE) == 1


def test_nesting_is_bounded(server: TestServer, tmp_path: Path) -> None:
    for level in range(6):
        nested = {"identifier": f"l{level + 1}", "type": CATALOG_MEDIA_TYPE, "url": f"/l{level + 1}.json"}
        server.route(f"/l{level}.json", body=catalogue(nested, entry(f"card{level}", data=card(f"C{level}"))))
    outcomes = fetch_to_directory([server.url("/l0.json")], tmp_path)
    assert len(written_names(tmp_path)) == 4
    (deep,) = [o for o in outcomes if o.status == "failed"]
    assert "nested more than 4 levels" in str(deep.error)
    assert "/l5.json" not in server.paths_requested()


def test_entries_are_bounded_in_all(server: TestServer, tmp_path: Path) -> None:
    server.route(CATALOGUE, body=catalogue(*(entry(f"e{i}", data=card(f"E{i}")) for i in range(10))))
    outcomes = fetch_to_directory([server.url("/")], tmp_path, max_entries=3)
    assert [o.status for o in outcomes] == ["catalogue", "written", "written", "written", "failed"]
    assert "more than 3 catalogue entries" in str(outcomes[-1].error)
    assert len(written_names(tmp_path)) == 3


def test_an_oversized_catalogue_is_refused(server: TestServer, tmp_path: Path) -> None:
    server.route(CATALOGUE, body=catalogue(*(entry(f"e{i}", data=card("x" * 100)) for i in range(100))))
    (outcome,) = fetch_to_directory(
        [server.url("/ai.json")] if False else [server.url(CATALOGUE)], tmp_path, max_bytes=10_000
    )
    assert outcome.status == "failed"
    assert "larger than 10000 bytes" in str(outcome.error)
    assert names(tmp_path) == []


def test_each_entry_fails_on_its_own(server: TestServer, tmp_path: Path) -> None:
    server.route(
        CATALOGUE,
        body=catalogue(
            entry("missing", url="/missing.json"),
            entry("html", url="/page.json"),
            entry("not-a-card", data={"error": "nope"}),
            entry("both", url="/x.json", data=card("Both")),
            entry("scheme", url="file:///etc/passwd"),
            entry("fine", url="/fine.json"),
        ),
    )
    server.route("/page.json", body="<html></html>", content_type="text/html")
    server.route("/fine.json", body=card("Fine"))
    outcomes = fetch_to_directory([server.url("/")], tmp_path)
    assert [o.status for o in outcomes] == [
        "catalogue",
        "failed",
        "failed",
        "failed",
        "failed",
        "failed",
        "written",
    ]
    messages = [str(o.error) for o in outcomes[1:-1]]
    assert "HTTP 404" in messages[0]
    assert "text/html" in messages[1]
    assert "not an Agent Card" in messages[2]
    assert "both a url and data" in messages[3]
    assert "not an http(s) URL" in messages[4]
    assert written_names(tmp_path) == {"fine.json": "Fine"}
    assert main(["fetch", server.url("/"), "-o", str(tmp_path / "cli"), "--allow-private"]) == 1


def test_hostile_identifiers_make_safe_distinct_names(server: TestServer, tmp_path: Path) -> None:
    hostile = [
        "../../etc/passwd",
        "/absolute/path",
        "a\x00b\x1b[31m\u202e",
        ".hidden",
        "x" * 100_000,
        "same",
        "same",
        "",
        "card.fetch",
    ]
    server.route(CATALOGUE, body=catalogue(*(entry(h, data=card(f"N{i}")) for i, h in enumerate(hostile))))
    outcomes = fetch_to_directory([server.url("/")], tmp_path)
    written = [o.path for o in outcomes if o.status == "written"]
    assert len(written) == len(hostile)
    assert len({p.name for p in written}) == len(hostile)
    for path in written:
        assert path.parent == tmp_path
        assert not path.name.startswith(".")
        assert len(path.name) <= 130
        assert all(c.isascii() and (c.isalnum() or c in ".-") for c in path.name)
    assert not any(
        p.name.endswith(".fetch.json") and not (tmp_path / p.name.replace(".fetch.json", ".json")).exists()
        for p in tmp_path.iterdir()
    )
    again = fetch_to_directory([server.url("/")], tmp_path / "again")
    assert [o.path.name for o in again[1:]] == [p.name for p in written]  # deterministic


def test_hostile_messages_stay_on_one_line(
    server: TestServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server.route(CATALOGUE, body=catalogue(entry("x", url="gopher://\x1b[2J\u2028evil")))
    main(["fetch", server.url("/"), "-o", str(tmp_path), "--allow-private"])
    err = capsys.readouterr().err
    assert "\x1b" not in err
    assert "\u2028" not in err
    assert len(err.strip().splitlines()) == 2


def test_a_local_catalogue_is_refused_unless_allowed(server: TestServer, tmp_path: Path) -> None:
    server.route(CATALOGUE, body=catalogue(entry("x", data=card("X"))))
    (outcome,) = fetch.fetch_to_directory([server.url("/")], tmp_path)
    assert isinstance(outcome.error, AddressRefused)
    assert server.requests == []
    assert names(tmp_path) == []


def test_a_private_entry_of_a_public_catalogue_is_refused(
    server: TestServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The test server's address is treated as public, so the entries are judged as in production."""
    real = addresses.refusal
    monkeypatch.setattr(
        transport, "refusal", lambda a: None if a == ipaddress.ip_address("127.0.0.1") else real(a)
    )
    server.route(
        CATALOGUE,
        body=catalogue(
            entry("meta", url="http://169.254.169.254/latest/meta-data/iam/security-credentials/"),
            entry("loop", url=f"http://127.0.0.2:{server.port}/card.json"),
            entry("ok", data=card("Ok")),
        ),
    )
    outcomes = fetch.fetch_to_directory([server.url("/")], tmp_path)
    assert [o.status for o in outcomes] == ["catalogue", "failed", "failed", "written"]
    assert all(isinstance(o.error, AddressRefused) for o in outcomes[1:3])
    assert server.paths_requested() == [CATALOGUE]


def test_https_catalogues_do_not_lead_to_http() -> None:
    from a2a_docgen.fetch.catalogues import _entry_url
    from a2a_docgen.load.aicatalog import entries

    listed = list(entries(catalogue(entry("x", url="http://a.example/card.json"))))
    with pytest.raises(CardFetchError, match="drop encryption"):
        _entry_url("https://a.example/ai-catalog.json", listed[0])


def test_headers_go_only_to_the_origin_the_user_named(
    server: TestServer, other_server: TestServer, tmp_path: Path
) -> None:
    server.route(
        CATALOGUE,
        body=catalogue(entry("here", url="/here.json"), entry("there", url=other_server.url("/there.json"))),
    )
    server.route("/here.json", body=card("Here"))
    other_server.route("/there.json", body=card("There"))
    fetch_to_directory([server.url("/")], tmp_path, headers={"Authorization": SECRET})
    assert all(r.headers.get("authorization") == SECRET for r in server.requests)
    (request,) = other_server.requests
    assert "authorization" not in request.headers
    assert SECRET not in "".join(p.read_text() for p in tmp_path.iterdir())


def test_a_higher_major_version_is_refused(server: TestServer, tmp_path: Path) -> None:
    server.route(CATALOGUE, body={"specVersion": "2.0", "entries": [entry("x", data=card("X"))]})
    (outcome,) = fetch_to_directory([server.url(CATALOGUE)], tmp_path)
    assert outcome.status == "failed"
    assert "this reads 1.x" in str(outcome.error)
    assert names(tmp_path) == []


def test_the_pre_rename_media_type_member_is_read(server: TestServer, tmp_path: Path) -> None:
    server.route(
        CATALOGUE, body=catalogue({"identifier": "old", "mediaType": A2A_CARD_TYPE, "data": card("Old")})
    )
    outcomes = fetch_to_directory([server.url("/")], tmp_path)
    assert [o.status for o in outcomes] == ["catalogue", "written"]
    assert [d.code for d in outcomes[0].diagnostics if d.code == "catalog-type-alias"] == [
        "catalog-type-alias"
    ]
