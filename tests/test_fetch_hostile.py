"""``fetch`` against servers that attack the machine running it: address filter, bombs, drips, non-cards.

Every server here runs on 127.0.0.1 (tests/support/http_server.py). No test connects anywhere else: the
``loopback_only`` fixture fails a test that tries, so a refused address is proven refused before any packet.
"""

from __future__ import annotations

import ipaddress
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from a2a_docgen.cli import main
from a2a_docgen.fetch import (
    AddressRefused,
    CardFetchError,
    NotACard,
    RedirectRefused,
    UnsupportedEncoding,
    addresses,
    client,
    fetch_card,
    fetch_to_directory,
    store,
    transport,
)
from tests.support.http_server import TestServer, gzip_bomb
from tests.test_fetch import CARD

REPO = Path(__file__).resolve().parents[1]
CARD_PATH = "/.well-known/agent-card.json"
CREDENTIALS = {
    "Code": "Success",
    "Type": "AWS-HMAC",
    "AccessKeyId": "ASIAEXAMPLEKEY0000000",
    "SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY",
    "Token": "IQoJb3JpZ2luX2VjEXAMPLETOKEN",
}


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail any connection beyond 127.0.0.0/8 and ::1 instead of making it."""
    import socket

    real = socket.create_connection

    def create_connection(address: tuple[str, int], *args: Any, **kwargs: Any) -> socket.socket:
        if not ipaddress.ip_address(address[0]).is_loopback:
            raise AssertionError(f"the test tried to connect to {address[0]}")
        return real(address, *args, **kwargs)

    monkeypatch.setattr(socket, "create_connection", create_connection)


@pytest.fixture
def only_127_0_0_1_is_public(monkeypatch: pytest.MonkeyPatch) -> None:
    """Treat the test server's address as public, so what a redirect leads to is judged as in production."""
    real = addresses.refusal
    monkeypatch.setattr(
        transport, "refusal", lambda a: None if a == ipaddress.ip_address("127.0.0.1") else real(a)
    )


# -------------------------------------------------------------------------------------------- addresses


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1",
        "127.1",
        "0x7f000001",
        "2130706433",
        "[::ffff:127.0.0.1]",
        "[::1]",
        "169.254.169.254",
        "[fd00:ec2::254]",
        "10.0.0.1",
        "172.16.0.1",
        "192.168.1.1",
        "100.64.0.1",
        "224.0.0.1",
        "[ff02::1]",
        "240.0.0.1",
        "0.0.0.0",
        "[::]",
        "[fe80::1]",
        "[64:ff9b::a9fe:a9fe]",
        "[2002:a9fe:a9fe::1]",
        "[::ffff:a9fe:a9fe]",
    ],
)
def test_non_public_addresses_are_refused_in_every_spelling(host: str) -> None:
    with pytest.raises(AddressRefused, match="--allow-private"):
        fetch_card(f"http://{host}:9/card.json", timeout=5)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("127.1", "127.0.0.1"),
        ("0x7f000001", "127.0.0.1"),
        ("2130706433", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"),
    ],
)
def test_every_ipv4_spelling_is_read_as_the_address_it_means(text: str, expected: str) -> None:
    assert addresses.parse_address(text) == ipaddress.ip_address(expected)


def test_public_addresses_are_allowed() -> None:
    for public in ("93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "::ffff:93.184.216.34"):
        assert addresses.refusal(ipaddress.ip_address(public)) is None


def test_a_name_is_judged_by_the_addresses_it_resolves_to(server: TestServer) -> None:
    server.route(CARD_PATH, body=CARD)
    with pytest.raises(AddressRefused, match="localhost resolves to it"):
        fetch_card(f"http://localhost:{server.port}/", timeout=5)
    assert server.requests == []


def test_allow_private_opts_in(server: TestServer) -> None:
    server.route(CARD_PATH, body=CARD)
    assert fetch_card(server.url(), allow_private=True).card == CARD


@pytest.mark.usefixtures("only_127_0_0_1_is_public")
@pytest.mark.parametrize(
    "location",
    [
        "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
        "http://[fd00:ec2::254]/latest/meta-data/",
        "http://10.0.0.1/card.json",
        "http://127.0.0.2:{port}/card.json",
        "http://0x7f000002:{port}/card.json",
        "http://[::ffff:127.0.0.2]:{port}/card.json",
    ],
)
def test_every_redirect_is_checked(server: TestServer, tmp_path: Path, location: str) -> None:
    server.redirect(CARD_PATH, location.format(port=server.port))
    server.route("/card.json", body=CARD)
    (outcome,) = fetch_to_directory([server.url()], tmp_path, timeout=5)
    assert isinstance(outcome.error, AddressRefused), outcome
    assert server.paths_requested() == ["/.well-known/ai-catalog.json", CARD_PATH]
    assert list(tmp_path.iterdir()) == []


def test_the_address_connected_to_is_checked_again(
    server: TestServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A resolver whose answer changes between the check and the connection (DNS rebinding) gains nothing."""
    server.route(CARD_PATH, body=CARD)
    real = addresses.refusal
    calls: list[object] = []

    def first_allowed(address: addresses.IPAddress) -> str | None:
        calls.append(address)
        return None if len(calls) == 1 else real(address)

    monkeypatch.setattr(transport, "refusal", first_allowed)
    with pytest.raises(AddressRefused, match="loopback"):
        fetch_card(server.url(), timeout=5)
    assert server.requests == []


def test_https_to_http_redirect_is_refused() -> None:
    current = httpx.URL("https://agent.example.com/.well-known/agent-card.json")
    with pytest.raises(RedirectRefused, match="from https to http"):
        client._redirect_target(current, "http://agent.example.com/card.json", [current], 5)
    with pytest.raises(RedirectRefused, match="from https to http"):
        client._redirect_target(current, "HTTP://agent.example.com/card.json", [current], 5)
    assert (
        client._redirect_target(current, "https://b.example.com/c.json", [current], 5).host == "b.example.com"
    )


def test_cli_refuses_private_addresses_unless_allowed(
    server: TestServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server.route(CARD_PATH, body=CARD)
    assert main(["fetch", server.url(), "-o", str(tmp_path / "a")]) == 1
    assert "--allow-private" in capsys.readouterr().err
    assert server.requests == []
    assert main(["fetch", "--allow-private", server.url(), "-o", str(tmp_path / "b")]) == 0


# ----------------------------------------------------------------------------------------- non-cards


def test_credentials_behind_a_redirect_are_never_written(
    server: TestServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What a metadata service answers is JSON but not a card: nothing reaches the output directory."""
    server.redirect(CARD_PATH, "/latest/meta-data/iam/security-credentials/role")
    server.route("/latest/meta-data/iam/security-credentials/role", body=CREDENTIALS)
    out = tmp_path / "cards"
    assert main(["fetch", "--allow-private", server.url(), "-o", str(out)]) == 1
    captured = capsys.readouterr()
    assert list(out.iterdir()) == []
    for secret in (CREDENTIALS["SecretAccessKey"], CREDENTIALS["Token"]):
        assert secret not in captured.out + captured.err
    assert "not an Agent Card" in captured.err


@pytest.mark.parametrize("body", [{"error": "forbidden"}, {"name": ""}, {"name": "\u200b\u3164"}])
def test_json_that_is_not_a_card_is_not_written(server: TestServer, tmp_path: Path, body: object) -> None:
    server.route(CARD_PATH, body=json.dumps(body))
    (outcome,) = fetch_to_directory([server.url()], tmp_path, allow_private=True)
    assert outcome.status == "failed"
    assert isinstance(outcome.error, NotACard)
    assert list(tmp_path.iterdir()) == []


# ----------------------------------------------------------------------------------- encodings, bombs


@pytest.mark.parametrize("encoding", ["gzip", "gzip, gzip", "br", "deflate", "x-custom"])
def test_compressed_answers_are_refused_without_decoding(server: TestServer, encoding: str) -> None:
    server.route(CARD_PATH, body=gzip_bomb(1 << 20), headers={"Content-Encoding": encoding})
    with pytest.raises(UnsupportedEncoding, match="compressed"):
        fetch_card(server.url(), allow_private=True)


def test_identity_encoding_is_accepted(server: TestServer) -> None:
    server.route(CARD_PATH, body=CARD, headers={"Content-Encoding": "identity"})
    assert fetch_card(server.url(), allow_private=True).card == CARD


def run_cli_in_child(
    args: list[str], *, memory_limit: int | None = None, timeout: float = 120
) -> dict[str, Any]:
    """Run ``a2a-docgen ARGS`` in a fresh interpreter: exit code, output, peak RSS (bytes), seconds."""
    script = textwrap.dedent(
        """
        import contextlib, io, json, resource, sys, time
        limit = json.loads(sys.argv[1])
        if limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        from a2a_docgen.cli import main
        out, err = io.StringIO(), io.StringIO()
        start = time.monotonic()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(json.loads(sys.argv[2]))
            except BaseException as exc:
                code = repr(exc)
        seconds = time.monotonic() - start
        # VmHWM is this process's own peak: ru_maxrss keeps the peak of the image
        # exec replaced, so it would report the size of the pytest that forked us.
        try:
            with open("/proc/self/status") as status:
                hwm = next(line for line in status if line.startswith("VmHWM:"))
            rss = int(hwm.split()[1]) * 1024
        except (OSError, StopIteration):
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        print(json.dumps({"code": code, "out": out.getvalue(), "err": err.getvalue(), "rss": rss, "seconds": seconds}))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script, json.dumps(memory_limit), json.dumps(args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        check=False,
    )
    assert done.stdout, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def test_decompression_bomb_is_bounded_and_the_other_urls_are_fetched(
    server: TestServer, tmp_path: Path
) -> None:
    """A 2.5 KB answer that decodes to 1 GiB (``gzip, gzip``) costs no memory and stops nothing else."""
    bomb = gzip_bomb(1 << 30)
    assert len(bomb) < 4096
    server.route("/bomb" + CARD_PATH, body=bomb, headers={"Content-Encoding": "gzip, gzip"})
    server.route("/bomb-unasked" + CARD_PATH, body=bomb, content_type="application/json")
    server.route("/good" + CARD_PATH, body=CARD)
    urls = [server.url("/bomb/"), server.url("/good/")]
    result = run_cli_in_child(
        ["fetch", "--allow-private", *urls, "-o", str(tmp_path / "cards")], memory_limit=1 << 30
    )
    assert result["code"] == 1, result
    assert "compressed" in result["err"]
    assert (tmp_path / "cards" / f"127.0.0.1-{server.port}-good.json").is_file(), result
    assert result["rss"] < 200 * 1024 * 1024, result
    print(f"bomb: peak RSS {result['rss'] / 2**20:.1f} MiB")


def test_header_drip_is_cut_off_by_the_deadline(server: TestServer, tmp_path: Path) -> None:
    """One header byte every 0.2 s never trips a read timeout; the deadline of the fetch still ends it."""
    server.route(CARD_PATH, header_drip=0.2)
    server.route("/good" + CARD_PATH, body=CARD)
    start = time.monotonic()
    result = run_cli_in_child(
        [
            "fetch",
            "--allow-private",
            server.url(),
            server.url("/good/"),
            "--timeout",
            "2",
            "-o",
            str(tmp_path),
        ],
        timeout=90,
    )
    assert result["code"] == 1, result
    assert "timed out" in result["err"]
    assert "fetched" in result["err"]
    print(f"header drip: fetch --timeout 2 ended after {time.monotonic() - start:.1f} s")


# --------------------------------------------------------------------------------- one URL, any failure


def test_any_failure_of_one_url_never_stops_the_others(
    server: TestServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server.route("/a" + CARD_PATH, body=CARD)
    server.route("/b" + CARD_PATH, body=CARD)
    real = store.fetch_with

    def failing(http: httpx.Client, url: str, *args: Any) -> Any:
        if "/a" in url:
            raise MemoryError
        return real(http, url, *args)

    monkeypatch.setattr(store, "fetch_with", failing)
    first, second = fetch_to_directory([server.url("/a/"), server.url("/b/")], tmp_path, allow_private=True)
    assert first.status == "failed"
    assert isinstance(first.error, CardFetchError)
    assert "MemoryError" in str(first.error)
    assert second.status == "written"


# ------------------------------------------------------------------------------------- terminal output


def test_card_text_reaches_the_terminal_escaped(
    server: TestServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hostile = dict(CARD, name="Weather\u009b31m\u202eAgent\u2028::warning::x", description="\u009b2J\u2029x")
    server.route(CARD_PATH, body=hostile)
    assert main(["fetch", "--allow-private", server.url(), "-o", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert captured.out, "the invisible characters are reported"
    for raw in ("\u009b", "\u202e", "\u2028", "\u2029", "\x1b"):
        assert raw not in captured.out + captured.err
    assert not any(line.startswith("::") for line in (captured.out + captured.err).splitlines())


# ------------------------------------------------------------------------------------------------ proxies


def test_through_a_proxy_the_target_is_checked_before_the_proxy_is_asked(
    server: TestServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HTTP_PROXY", server.origin)
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    with pytest.raises(AddressRefused, match=r"169\.254\.169\.254"):
        fetch_card("http://169.254.169.254/latest/meta-data/card.json", timeout=5)
    assert server.requests == []
    server.route("http://agent.invalid/card.json", body=CARD)  # a proxy is asked for the absolute URL
    assert fetch_card("http://agent.invalid/card.json", timeout=5, allow_private=True).card == CARD
    assert server.paths_requested() == ["http://agent.invalid/card.json"]
