"""``a2a-docgen fetch`` against a real HTTP server on 127.0.0.1 (tests/support/http_server.py)."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from a2a_docgen import fetch
from a2a_docgen.cli import main
from a2a_docgen.errors import UsageError
from a2a_docgen.fetch import (
    CardNotFound,
    FetchTimeout,
    HTTPStatusError,
    InvalidCardJSON,
    RedirectRefused,
    ResponseTooLarge,
    UnsupportedContentType,
    assign_stems,
    card_urls,
    format_card,
    parse_header,
)
from a2a_docgen.validate.formats import check_url
from tests.support.http_server import TestServer

CATALOGUE = "/.well-known/ai-catalog.json"
NEW = "/.well-known/agent-card.json"
LEGACY = "/.well-known/agent.json"
SECRET = "Bearer s3cr3t-t0ken-9f8e7d"

CARD = {
    "name": "Weather Agent",
    "description": "Answers questions about the weather, in Zürich and elsewhere.",
    "version": "1.0.0",
    "supportedInterfaces": [
        {"url": "https://weather.example.com/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
    ],
    "capabilities": {},
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["text/plain"],
    "skills": [
        {"id": "forecast", "name": "Forecast", "description": "Weather forecasts.", "tags": ["weather"]}
    ],
}


def fetch_card(url: str, **options: Any) -> fetch.FetchResult:
    """``fetch_card`` allowed to reach the test server on 127.0.0.1."""
    return fetch.fetch_card(url, allow_private=True, **options)


def fetch_to_directory(urls: list[str], out_dir: Path, **options: Any) -> list[fetch.FetchOutcome]:
    """``fetch_to_directory`` allowed to reach the test server on 127.0.0.1."""
    return fetch.fetch_to_directory(urls, out_dir, allow_private=True, **options)


def snapshot(directory: Path) -> dict[str, tuple[bytes, int]]:
    """Every file in ``directory``: bytes and mtime."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(directory.iterdir())}


def stem(server: TestServer) -> str:
    return f"127.0.0.1-{server.port}"


# ------------------------------------------------------------------------------------- paths, fallback


def test_fetches_the_current_well_known_path(server: TestServer) -> None:
    server.route(NEW, body=CARD)
    result = fetch_card(server.url("/"))
    assert result.card == CARD
    assert list(result.card) == list(CARD)  # document order kept
    assert result.url == server.url(NEW)
    assert server.paths_requested() == [CATALOGUE, NEW]  # a bare origin: its AI Catalog first


def test_base_url_with_a_path_keeps_it(server: TestServer) -> None:
    server.route("/agents/weather" + NEW, body=CARD)
    assert fetch_card(server.url("/agents/weather/")).url == server.url("/agents/weather" + NEW)


@pytest.mark.parametrize("status", [404, 410])
def test_falls_back_to_the_legacy_path(server: TestServer, status: int) -> None:
    server.route(NEW, status=status, body="gone", content_type="text/plain")
    server.route(LEGACY, body=CARD)
    result = fetch_card(server.url())
    assert result.url == server.url(LEGACY)
    assert server.paths_requested() == [CATALOGUE, NEW, LEGACY]


def test_other_errors_do_not_fall_back(server: TestServer) -> None:
    server.route(NEW, status=500, body="boom", content_type="text/plain")
    server.route(LEGACY, body=CARD)
    with pytest.raises(HTTPStatusError, match="HTTP 500") as info:
        fetch_card(server.url())
    assert info.value.status == 500
    assert server.paths_requested() == [CATALOGUE, NEW]


def test_404_on_both_paths_names_both(server: TestServer) -> None:
    with pytest.raises(CardNotFound) as info:
        fetch_card(server.url())
    message = str(info.value)
    assert server.url(NEW) in message
    assert server.url(LEGACY) in message
    assert "legacy" in message


def test_card_url_is_fetched_as_is(server: TestServer) -> None:
    server.route("/cards/weather.json", body=CARD)
    assert fetch_card(server.url("/cards/weather.json")).card == CARD
    with pytest.raises(CardNotFound):
        fetch_card(server.url("/.well-known/other"))
    assert server.paths_requested() == ["/cards/weather.json", "/.well-known/other"]


def test_card_urls() -> None:
    assert [str(u) for u in card_urls("https://a.example/x/#frag")] == [
        "https://a.example/x" + NEW,
        "https://a.example/x" + LEGACY,
    ]
    assert [str(u) for u in card_urls("https://a.example/card.json")] == ["https://a.example/card.json"]


@pytest.mark.parametrize(
    "url",
    ["ftp://a.example/", "file:///etc/passwd", "javascript:alert(1)", "a.example", "https://", "http://[::1"],
)
def test_only_http_urls_are_accepted(url: str) -> None:
    with pytest.raises(UsageError):
        card_urls(url)


@pytest.mark.parametrize("host", ["exa$mple.com", "-a.example", "a" * 64 + ".example", "a..example"])
def test_a_host_the_validator_refuses_is_not_fetched(host: str) -> None:
    """``fetch`` judges hosts as ``check`` does (``text.urls.valid_host``)."""
    assert check_url(f"https://{host}/", what="URL") is not None
    with pytest.raises(UsageError, match="host"):
        card_urls(f"https://{host}/")


def test_url_with_password_is_refused_without_echoing_it() -> None:
    with pytest.raises(UsageError) as info:
        card_urls("https://user:hunter2@a.example/")
    assert "hunter2" not in str(info.value)


# ------------------------------------------------------------------------------------------- redirects


def test_redirect_is_followed(server: TestServer) -> None:
    server.redirect(NEW, "/moved/card.json", status=301)
    server.redirect("/moved/card.json", server.url("/final.json"), status=307)
    server.route("/final.json", body=CARD)
    result = fetch_card(server.url())
    assert result.url == server.url("/final.json")
    assert result.card == CARD


def test_redirect_loop_is_detected(server: TestServer) -> None:
    server.redirect(NEW, "/b.json")
    server.redirect("/b.json", NEW)
    with pytest.raises(RedirectRefused, match="redirect loop"):
        fetch_card(server.url(), max_redirects=10)
    assert server.paths_requested() == [CATALOGUE, NEW, "/b.json"]


def test_too_many_redirects(server: TestServer) -> None:
    for i in range(3):
        server.redirect(f"/r{i}.json", f"/r{i + 1}.json")
    server.route("/r3.json", body=CARD)
    assert fetch_card(server.url("/r0.json"), max_redirects=3).card == CARD
    with pytest.raises(RedirectRefused, match="more than 2 redirects"):
        fetch_card(server.url("/r0.json"), max_redirects=2)


@pytest.mark.parametrize("location", ["file:///etc/passwd", "javascript:alert(1)", "ftp://a.example/x.json"])
def test_redirect_to_another_scheme_is_refused(server: TestServer, location: str) -> None:
    server.redirect(NEW, location)
    with pytest.raises(RedirectRefused, match="only http and https") as info:
        fetch_card(server.url())
    assert location.split(":", maxsplit=1)[0] + ":" in str(info.value)


def test_headers_stay_with_their_origin(server: TestServer, other_server: TestServer) -> None:
    server.redirect(NEW, "/same-origin.json")
    server.redirect("/same-origin.json", other_server.url("/elsewhere.json"))
    other_server.route("/elsewhere.json", body=CARD)
    fetch_card(server.url(), headers={"Authorization": SECRET, "X-Api-Key": "k-123"})
    assert [r.headers.get("authorization") for r in server.requests] == [SECRET] * 3
    assert [r.headers.get("x-api-key") for r in server.requests] == ["k-123"] * 3
    (request,) = other_server.requests
    assert "authorization" not in request.headers
    assert "x-api-key" not in request.headers


# ---------------------------------------------------------------------------------------------- limits


def test_slow_server_times_out(server: TestServer) -> None:
    server.route(NEW, body=CARD, delay=5)  # without the timeout the card would arrive, and nothing be raised
    with pytest.raises(FetchTimeout, match=r"timed out.*0\.5 s"):
        fetch_card(server.url(), timeout=0.5)


def test_trickling_server_times_out(server: TestServer) -> None:
    """Each byte arrives well within the read timeout; the whole answer does not."""
    server.route(NEW, stream_bytes=50, chunk_size=1, chunk_delay=0.05)  # 2.5 s in all, then not JSON
    with pytest.raises(FetchTimeout, match=r"took longer than 0\.5 s"):
        fetch_card(server.url(), timeout=0.5)


@pytest.mark.parametrize("declare_length", [True, False])
def test_oversized_body_is_refused_without_reading_it(server: TestServer, declare_length: bool) -> None:
    total = 64 * 1024 * 1024
    route = server.route(NEW, stream_bytes=total, declare_length=declare_length)
    with pytest.raises(ResponseTooLarge, match="larger than 10000 bytes") as info:
        fetch_card(server.url(), max_bytes=10_000)
    assert ("Content-Length" in str(info.value)) is declare_length
    assert route.done.wait(5), "the server kept sending after the client hung up"
    assert route.bytes_written < total // 4  # socket buffers hold a few MiB at most


def test_body_at_the_cap_is_accepted(server: TestServer) -> None:
    body = json.dumps(CARD).encode()
    server.route(NEW, body=body)
    assert fetch_card(server.url(), max_bytes=len(body)).card == CARD
    with pytest.raises(ResponseTooLarge):
        fetch_card(server.url(), max_bytes=len(body) - 1)


@pytest.mark.parametrize(
    ("content_type", "message"),
    [
        ("text/html; charset=utf-8", "the server answered with text/html; is this the agent's base URL?"),
        ("image/png", "the server answered with image/png, not JSON"),
        ("application/octet-stream", "application/octet-stream, not JSON"),
    ],
)
def test_wrong_content_type_is_refused(server: TestServer, content_type: str, message: str) -> None:
    server.route(NEW, body=CARD, content_type=content_type)
    with pytest.raises(UnsupportedContentType) as info:
        fetch_card(server.url())
    assert message in str(info.value)


@pytest.mark.parametrize(
    "content_type",
    [
        "application/json",
        "application/json; charset=utf-8",
        "application/a2a+json",
        "application/vnd.example+json",
        "text/plain; charset=utf-8",
        None,
    ],
)
def test_json_content_types_are_accepted(server: TestServer, content_type: str | None) -> None:
    server.route(NEW, body=CARD, content_type=content_type)
    assert fetch_card(server.url()).card == CARD


def test_invalid_json_reports_line_and_column(server: TestServer) -> None:
    server.route(NEW, body='{\n  "name": "x",\n  oops\n}', content_type="text/plain")
    with pytest.raises(InvalidCardJSON) as info:
        fetch_card(server.url())
    assert (info.value.line, info.value.column) == (3, 3)
    assert "line 3 column 3" in str(info.value)
    assert "text/plain" in str(info.value)


def test_numbers_beyond_float_range_are_refused(server: TestServer) -> None:
    server.route(NEW, body='{\n  "name": "x",\n  "size": 1.5e400\n}')
    with pytest.raises(InvalidCardJSON, match="too large") as info:
        fetch_card(server.url())
    assert (info.value.line, info.value.column) == (3, 11)


@pytest.mark.parametrize(
    "body", ['{"name": "a", "name": "b"}', "[1, 2]", "", '{"n": NaN}', b'{"name": "\xff"}']
)
def test_unusable_json_is_refused(server: TestServer, body: str | bytes) -> None:
    server.route(NEW, body=body)
    with pytest.raises(InvalidCardJSON):
        fetch_card(server.url())


# ------------------------------------------------------------------------------------- the directory


def test_writes_pretty_card_and_sidecar(server: TestServer, tmp_path: Path) -> None:
    server.route(NEW, body=json.dumps(CARD, separators=(",", ":")), etag='"v1"')
    (outcome,) = fetch_to_directory([server.url()], tmp_path / "cards")
    assert outcome.status == "written"
    assert outcome.diagnostics == ()
    card_file = tmp_path / "cards" / f"{stem(server)}.json"
    assert outcome.path == card_file
    text = card_file.read_text(encoding="utf-8")
    assert text == json.dumps(CARD, indent=2, ensure_ascii=False) + "\n"
    assert "Zürich" in text
    sidecar = json.loads((tmp_path / "cards" / f"{stem(server)}.fetch.json").read_text())
    assert list(sidecar) == ["url", "requested", "etag", "last_modified", "fetched_at"]
    assert sidecar["url"] == server.url(NEW)
    assert sidecar["requested"] == server.url()
    assert sidecar["etag"] == '"v1"'
    assert sidecar["last_modified"] is None
    assert sidecar["fetched_at"].endswith("Z")
    assert sorted(p.name for p in card_file.parent.iterdir()) == [
        f"{stem(server)}.fetch.json",
        f"{stem(server)}.json",
    ]  # no temporary files left


@pytest.mark.parametrize(
    "validators",
    [{"etag": '"v1"'}, {"last_modified": "Wed, 21 Oct 2015 07:28:00 GMT"}],
    ids=["etag", "last-modified"],
)
def test_not_modified_leaves_files_untouched(
    server: TestServer, tmp_path: Path, validators: dict[str, str]
) -> None:
    server.route(NEW, body=CARD, **validators)
    assert fetch_to_directory([server.url()], tmp_path)[0].status == "written"
    before = snapshot(tmp_path)
    time.sleep(0.01)  # a rewrite would show in the mtime
    (outcome,) = fetch_to_directory([server.url()], tmp_path)
    assert outcome.status == "not-modified"
    assert snapshot(tmp_path) == before
    second = server.requests[-1].headers
    if "etag" in validators:
        assert second["if-none-match"] == '"v1"'
    else:
        assert second["if-modified-since"] == validators["last_modified"]


def test_no_conditional_request_without_the_card_file(server: TestServer, tmp_path: Path) -> None:
    server.route(NEW, body=CARD, etag='"v1"')
    fetch_to_directory([server.url()], tmp_path)
    (tmp_path / f"{stem(server)}.json").unlink()
    (outcome,) = fetch_to_directory([server.url()], tmp_path)
    assert outcome.status == "written"
    assert "if-none-match" not in server.requests[-1].headers
    assert (tmp_path / f"{stem(server)}.json").is_file()


def test_identical_card_without_etag_leaves_files_untouched(server: TestServer, tmp_path: Path) -> None:
    server.route(NEW, body=CARD)
    fetch_to_directory([server.url()], tmp_path)
    before = snapshot(tmp_path)
    time.sleep(0.01)
    server.route(NEW, body=json.dumps(CARD, indent=4))  # same card, other whitespace
    assert fetch_to_directory([server.url()], tmp_path)[0].status == "unchanged"
    assert snapshot(tmp_path) == before
    server.route(NEW, body={**CARD, "version": "1.0.1"})
    assert fetch_to_directory([server.url()], tmp_path)[0].status == "written"
    assert json.loads((tmp_path / f"{stem(server)}.json").read_text())["version"] == "1.0.1"


def test_invalid_json_is_not_written(server: TestServer, tmp_path: Path) -> None:
    server.route(NEW, body='{"name": ')
    (outcome,) = fetch_to_directory([server.url()], tmp_path)
    assert outcome.status == "failed"
    assert isinstance(outcome.error, InvalidCardJSON)
    assert list(tmp_path.iterdir()) == []


def test_failed_write_leaves_no_temporary_file(
    server: TestServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server.route(NEW, body=CARD)
    fetch_to_directory([server.url()], tmp_path)
    before = snapshot(tmp_path)
    server.route(NEW, body={**CARD, "version": "2.0.0"})

    def refuse(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    (outcome,) = fetch_to_directory([server.url()], tmp_path)
    assert outcome.status == "failed"
    assert "No space left on device" in str(outcome.error)
    assert snapshot(tmp_path) == before


def test_urls_sharing_a_host_get_distinct_files(server: TestServer, tmp_path: Path) -> None:
    for name in ("a", "b"):
        server.route(f"/agents/{name}{NEW}", body={**CARD, "name": name})
    outcomes = fetch_to_directory([server.url("/agents/a"), server.url("/agents/b/")], tmp_path)
    assert [o.path.name for o in outcomes] == [
        f"{stem(server)}-agents-a.json",
        f"{stem(server)}-agents-b.json",
    ]
    assert [json.loads(o.path.read_text())["name"] for o in outcomes] == ["a", "b"]


def test_one_failure_does_not_stop_the_rest(server: TestServer, tmp_path: Path) -> None:
    server.route("/b" + NEW, body=CARD)
    urls = [server.url("/a"), server.url("/b"), server.url("/a"), server.url("/c/../a")]
    outcomes = fetch_to_directory(urls, tmp_path)
    assert [o.status for o in outcomes] == ["failed", "written"]  # the repeated URL is fetched once


@pytest.mark.parametrize(
    ("urls", "expected"),
    [
        (["https://Agent.Example.COM/"], ["agent.example.com"]),
        (
            ["https://agent.example.com:443/", "http://b.example:8080/"],
            ["agent.example.com", "b.example-8080"],
        ),
        (["https://bücher.example/"], ["xn--bcher-kva.example"]),
        (["https://a.example/", "https://a.example/x/y"], ["a.example", "a.example-x-y"]),
        (["https://a.example/..%2f..%2fetc", "https://a.example/x/..", "https://a.example/"], None),
        (["http://[::1]:8000/"], ["1-8000"]),
        (["https://x.fetch/"], ["x-fetch"]),
    ],
)
def test_file_stems(urls: list[str], expected: list[str] | None) -> None:
    stems = assign_stems([httpx.URL(u) for u in urls])
    if expected is not None:
        assert stems == expected
    assert len(set(stems)) == len(stems)
    for name in stems:
        assert name
        assert not name.startswith(".")
        assert set(name) <= set("abcdefghijklmnopqrstuvwxyz0123456789.-")


def test_colliding_stems_get_a_hash_independent_of_order() -> None:
    urls = [httpx.URL("https://a.example/"), httpx.URL("http://a.example/")]
    first = assign_stems(urls)
    assert len(set(first)) == 2
    assert all(s.startswith("a.example-") for s in first)
    assert assign_stems(urls[::-1]) == first[::-1]


def test_format_card_keeps_lone_surrogates_escaped() -> None:
    text = format_card({"name": "\ud800x", "é": 1})
    assert text == '{\n  "name": "\\ud800x",\n  "é": 1\n}\n'
    assert json.loads(text) == {"name": "\ud800x", "é": 1}


def test_the_timeout_covers_checking_what_was_fetched(server: TestServer, tmp_path: Path) -> None:
    """``--timeout`` bounds the URL as a whole: checking a card that arrives as the time runs out stops, with a
    located error, and the card is still written (as with any error, unless --strict)."""
    server.route(NEW, body=CARD)

    def late_clock() -> Callable[[], float]:
        """A clock that reads 0 once (when the deadline is set), then a time long past it."""
        readings = iter([0.0])
        return lambda: next(readings, 1e9)

    (outcome,) = fetch_to_directory([server.url()], tmp_path, timeout=5, clock=late_clock())
    assert outcome.status == "written"
    (stopped,) = outcome.diagnostics
    assert (stopped.code, stopped.severity, stopped.line, stopped.column, stopped.pointer) == (
        "checking-stopped",
        "error",
        1,
        1,
        "",
    )
    assert "5 s (--timeout)" in stopped.message
    (rejected,) = fetch_to_directory([server.url()], tmp_path / "strict", strict=True, clock=late_clock())
    assert rejected.status == "rejected"


def test_checking_within_the_timeout_reports_no_stop(server: TestServer, tmp_path: Path) -> None:
    server.route(NEW, body=CARD)
    (outcome,) = fetch_to_directory([server.url()], tmp_path, clock=lambda: 0.0)
    assert outcome.diagnostics == ()


# ------------------------------------------------------------------------------------------------- CLI


def test_cli_reports_diagnostics_and_saves_invalid_cards(
    server: TestServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server.route(NEW, body={"name": "Half a card"})
    out_dir = tmp_path / "cards"
    assert main(["fetch", "--allow-private", server.url(), "-o", str(out_dir)]) == 0
    out, err = capsys.readouterr()
    card_path = out_dir / f"{stem(server)}.json"
    assert card_path.is_file()
    lines = out.splitlines()
    assert lines
    assert all(line.startswith(f"{card_path}:") for line in lines)
    assert f"{card_path}:1:1: error required-missing " in out
    errors = len(lines)
    assert err == f"fetched {server.url(NEW)} -> {card_path} ({errors} errors, 0 warnings)\n"


def test_cli_strict_does_not_save_invalid_cards(
    server: TestServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server.route(NEW, body={"name": "Half a card"})
    assert main(["fetch", "--allow-private", server.url(), "-o", str(tmp_path), "--strict"]) == 1
    out, err = capsys.readouterr()
    assert list(tmp_path.iterdir()) == []
    assert out.startswith(f"{server.url(NEW)}:1:1: error ")
    assert err.startswith(f"rejected {server.url(NEW)}: ")
    assert "not written (--strict)" in err


def test_cli_valid_then_unchanged(
    server: TestServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server.route(NEW, body=CARD, etag='"abc"')
    card_path = tmp_path / f"{stem(server)}.json"
    assert main(["fetch", "--allow-private", server.url(), "-o", str(tmp_path), "--strict"]) == 0
    assert capsys.readouterr() == ("", f"fetched {server.url(NEW)} -> {card_path} (valid)\n")
    assert main(["fetch", "--allow-private", server.url(), "-o", str(tmp_path)]) == 0
    assert capsys.readouterr() == ("", f"fetched {server.url(NEW)} -> {card_path} (unchanged)\n")


def test_cli_exit_1_when_a_url_fails_but_others_are_fetched(
    server: TestServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server.route("/good" + NEW, body=CARD)
    server.route("/slow" + NEW, body=CARD, delay=5)
    args = [
        "fetch",
        "--allow-private",
        server.url("/missing"),
        server.url("/slow"),
        server.url("/good"),
        "-o",
        str(tmp_path),
    ]
    assert main([*args, "--timeout", "0.3"]) == 1
    _, err = capsys.readouterr()
    lines = err.splitlines()
    assert lines[0].startswith(f"failed {server.url('/missing')}: no Agent Card at ")
    assert lines[1].startswith(f"failed {server.url('/slow' + NEW)}: ")
    assert "timed out" in lines[1]
    assert lines[2].startswith(f"fetched {server.url('/good' + NEW)} -> ")
    assert len(list(tmp_path.glob("*.fetch.json"))) == 1


@pytest.mark.parametrize(
    "extra",
    [
        ["ftp://a.example/"],
        ["https://a.example/", "--header", "no colon"],
        ["https://a.example/", "--header", "Bad Name: x"],
        ["https://a.example/", "--timeout", "0"],
        ["https://a.example/", "--max-redirects", "-1"],
        ["https://a.example/", "--timeout", "soon"],
    ],
)
def test_cli_usage_errors_exit_2(
    extra: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["fetch", "--allow-private", *extra, "-o", str(tmp_path / "out")]) == 2
    assert "error" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_cli_secret_header_is_sent_but_never_written_or_printed(
    server: TestServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server.route(NEW, body={"name": "Half a card"}, require_header=("Authorization", SECRET))
    server.route("/broken" + NEW, status=500, body=SECRET, content_type="text/plain")
    header = f"Authorization: {SECRET}"
    code = main(
        [
            "fetch",
            "--allow-private",
            server.url(),
            server.url("/broken"),
            "-o",
            str(tmp_path),
            "--header",
            header,
        ]
    )
    assert code == 1
    out, err = capsys.readouterr()
    assert (tmp_path / f"{stem(server)}-broken.json").exists() is False
    assert (tmp_path / f"{stem(server)}.json").is_file()  # the header got us in
    token = SECRET.split()[1]
    assert token not in out + err
    for path in tmp_path.iterdir():
        assert token not in path.read_text(encoding="utf-8")
    assert (
        main(
            [
                "fetch",
                "--allow-private",
                "https://a.example/",
                "-o",
                str(tmp_path),
                "--header",
                f"Authorization{SECRET}",
            ]
        )
        == 2
    )
    assert token not in capsys.readouterr().err


def test_cli_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fetch", "--allow-private", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--header" in out
    assert "--max-bytes" in out
    assert "--strict" in out


def test_parse_header() -> None:
    assert parse_header("Authorization:  Bearer x ") == ("Authorization", "Bearer x")
    with pytest.raises(UsageError) as info:
        parse_header("X-Key: caf\u00e9\u2603")
    assert "\u2603" not in str(info.value)


def test_same_card_at_a_new_url_updates_only_the_sidecar(server: TestServer, tmp_path: Path) -> None:
    server.route(LEGACY, body=CARD)
    fetch_to_directory([server.url()], tmp_path)
    card_file = tmp_path / f"{stem(server)}.json"
    before = card_file.stat().st_mtime_ns
    time.sleep(0.01)
    server.route(NEW, body=CARD)
    assert fetch_to_directory([server.url()], tmp_path)[0].status == "unchanged"
    assert card_file.stat().st_mtime_ns == before
    sidecar = json.loads((tmp_path / f"{stem(server)}.fetch.json").read_text())
    assert sidecar["url"] == server.url(NEW)
