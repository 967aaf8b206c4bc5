"""``fetch --extended`` against an agent on 127.0.0.1 whose server checks the credential; the credential never
reaches the disk or the output, and a fetch without ``--extended`` never asks for the extended card."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from a2a_docgen import fetch
from a2a_docgen.cli import main
from a2a_docgen.errors import UsageError
from a2a_docgen.fetch.extended import Credential, credential_from_environment
from tests.support.http_server import TestServer
from tests.test_fetch import CARD

TOKEN = "Bearer ext-s3cr3t-7a6b5c4d"
CARD_PATH = "/.well-known/agent-card.json"
SKILL = {"id": "payroll", "name": "Payroll", "description": "Runs payroll.", "tags": ["hr"]}


def public_card(server: TestServer, binding: str = "JSONRPC", version: str = "1.0") -> dict[str, Any]:
    path = "/a2a" if binding == "JSONRPC" else "/rest"
    interface = {"url": server.url(path), "protocolBinding": binding, "protocolVersion": version}
    return {**CARD, "supportedInterfaces": [interface], "capabilities": {"extendedAgentCard": True}}


def extended_card(server: TestServer) -> dict[str, Any]:
    return {**public_card(server), "skills": [*CARD["skills"], SKILL]}


def run_fetch(server: TestServer, out: Path, *args: str) -> int:
    return main(["fetch", server.url(CARD_PATH), "-o", str(out), "--allow-private", *args])


def everything_written(directory: Path) -> str:
    return "".join(p.read_text() for p in sorted(directory.rglob("*")) if p.is_file())


def test_json_rpc_extended_card_with_a_checked_token(
    server: TestServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    server.route(CARD_PATH, body=public_card(server))
    answer = {"jsonrpc": "2.0", "id": 1, "result": extended_card(server)}
    server.route("/a2a", body=answer, require_header=("Authorization", TOKEN))
    monkeypatch.setenv("A2A_AUTH", TOKEN)
    assert run_fetch(server, tmp_path, "--extended", "--credential-env", "A2A_AUTH") == 0
    post = server.requests[-1]
    assert post.method == "POST"
    assert json.loads(post.body) == {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "GetExtendedAgentCard",
        "params": {},
    }
    assert post.headers["a2a-version"] == "1.0"
    (card_file,) = [p for p in tmp_path.iterdir() if not p.name.endswith(".fetch.json")]
    assert [s["id"] for s in json.loads(card_file.read_text())["skills"]] == ["forecast", "payroll"]
    sidecar = json.loads(card_file.with_name(card_file.stem + ".fetch.json").read_text())
    assert sidecar["extended"] is True
    output = capsys.readouterr()
    assert "fetched extended card" in output.err
    secret = TOKEN.split()[1]
    assert secret not in output.out + output.err
    assert secret not in everything_written(tmp_path)


def test_http_json_v0_3_extended_card(server: TestServer, tmp_path: Path) -> None:
    server.route(CARD_PATH, body=public_card(server, "HTTP+JSON", "0.3"))
    server.route("/rest/v1/card", body=extended_card(server), require_header=("X-Key", "k-0987654321"))
    credential = Credential("X-Key", "k-0987654321")
    outcomes = fetch.fetch_to_directory(
        [server.url(CARD_PATH)], tmp_path, allow_private=True, extended=credential
    )
    assert [(o.status, o.extended) for o in outcomes] == [("written", True)]
    assert server.paths_requested() == [CARD_PATH, "/rest/v1/card"]


def test_a_refused_credential_is_an_error_that_does_not_echo_it(server: TestServer, tmp_path: Path) -> None:
    server.route(CARD_PATH, body=public_card(server))
    echo = {"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": f"bad token {TOKEN}"}}
    server.route("/a2a", body=echo)
    (outcome,) = fetch.fetch_to_directory(
        [server.url(CARD_PATH)], tmp_path, allow_private=True, extended=Credential("Authorization", TOKEN)
    )
    assert outcome.status == "failed"
    assert "JSON-RPC error -32001" in str(outcome.error)
    assert "ext-s3cr3t" not in str(outcome.error)
    assert list(tmp_path.iterdir()) == []  # neither the public card nor anything else


def test_without_extended_the_extended_card_is_never_asked_for(
    server: TestServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A public fetch, even with the credential in the environment, keeps the public card, unmarked; and a
    public fetch after an extended one replaces the extended card (a 304 cannot keep it)."""
    server.route(CARD_PATH, body=public_card(server), etag='"p1"')
    server.route("/a2a", body={"jsonrpc": "2.0", "id": 1, "result": extended_card(server)})
    monkeypatch.setenv("A2A_AUTH", TOKEN)
    assert run_fetch(server, tmp_path / "ext", "--extended", "--credential-env", "A2A_AUTH") == 0
    assert run_fetch(server, tmp_path / "public") == 0
    assert "/a2a" not in [r.path for r in server.requests[2:]]
    public = tmp_path / "public"
    (sidecar,) = public.glob("*.fetch.json")
    assert "extended" not in json.loads(sidecar.read_text())
    # the extended directory fetched again without --extended: the public card replaces it, unmarked
    assert run_fetch(server, tmp_path / "ext") == 0
    assert "if-none-match" not in server.requests[-1].headers
    (card_file,) = [p for p in (tmp_path / "ext").iterdir() if not p.name.endswith(".fetch.json")]
    assert len(json.loads(card_file.read_text())["skills"]) == 1
    assert "extended" not in json.loads((tmp_path / "ext" / f"{card_file.stem}.fetch.json").read_text())


def test_a_site_says_which_pages_document_an_extended_card(
    server: TestServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server.route(CARD_PATH, body=public_card(server))
    server.route("/a2a", body={"jsonrpc": "2.0", "id": 1, "result": extended_card(server)})
    monkeypatch.setenv("A2A_AUTH", TOKEN)
    assert run_fetch(server, tmp_path / "ext", "--extended", "--credential-env", "A2A_AUTH") == 0
    assert run_fetch(server, tmp_path / "public") == 0
    pages = {}
    for kind in ("ext", "public"):
        assert (
            main(["build", str(tmp_path / kind), "-o", str(tmp_path / f"site-{kind}"), "--no-history"]) == 0
        )
        (pages[kind],) = [p.read_text() for p in (tmp_path / f"site-{kind}" / "agents").glob("*/index.md")]
    assert "**extended** Agent Card" in pages["ext"]
    assert "**extended** Agent Card" not in pages["public"]
    assert "Payroll" not in pages["public"]
    assert "### Extended card" in pages["public"]  # the public page says how to ask for it


def test_the_credential_comes_only_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("A2A_AUTH", raising=False)
    with pytest.raises(UsageError, match="A2A_AUTH: the environment variable is not set"):
        credential_from_environment("A2A_AUTH")
    monkeypatch.setenv("A2A_AUTH", "Bearer x\ny")
    with pytest.raises(UsageError) as info:
        credential_from_environment("A2A_AUTH")
    assert "x\ny" not in str(info.value)
    args = ["fetch", "https://a.example", "-o", str(tmp_path)]
    assert main([*args, "--extended"]) == 2
    assert main([*args, "--credential-env", "A2A_AUTH"]) == 2
    assert "ext" not in repr(Credential("Authorization", TOKEN))
