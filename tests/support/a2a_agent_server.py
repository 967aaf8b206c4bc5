"""A real A2A agent for the snippet tests, built with the official ``a2a-sdk`` (1.x for v1.0 interfaces,
0.3.x for v0.3), served on 127.0.0.1. Run as a script by the Python of the SDK wanted:

    python a2a_agent_server.py SPEC.json

SPEC: ``{"binding": "JSONRPC"|"HTTP+JSON"|"GRPC", "version": "1.0"|"0.3", "port": N, "log": PATH,
"checks": [...], "extensions": [uri, ...], "tls": {"cert", "key", "ca"} | null, "ready": PATH}``.
Each check says where the credential must arrive: ``{"kind": "header", "name": "Authorization", "value":
"Bearer t"}``, ``{"kind": "query", ...}``, ``{"kind": "cookie", ...}``; with ``tls`` the server asks for a
client certificate signed by ``ca`` (mutual TLS). A request without what the checks ask is refused (HTTP 401,
gRPC UNAUTHENTICATED), one that does not declare every required extension too (HTTP 400, gRPC
FAILED_PRECONDITION), before the SDK sees it; the agent answers ``echo: <text of the first part>``. Each
request appends one JSON line to ``log``: what it declared, what was missing. A file beside the log with the
suffix ``.checks`` replaces the checks from the next request on (one agent serves several schemes in turn).
"""

from __future__ import annotations

import asyncio
import json
import ssl
import sys
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

SPEC: dict[str, Any] = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
LOG = Path(SPEC["log"])
EXTENSION_KEYS = ("a2a-extensions", "x-a2a-extensions")


def _log(entry: dict[str, Any]) -> None:
    with LOG.open("a", encoding="utf-8") as out:
        out.write(json.dumps(entry) + "\n")


def _declared(values: dict[str, str]) -> list[str]:
    found: list[str] = []
    for key in EXTENSION_KEYS:
        for uri in values.get(key, "").split(","):
            if uri.strip():
                found.append(uri.strip())
    return found


def judge(
    headers: dict[str, str], query: dict[str, str], cookies: dict[str, str]
) -> tuple[str | None, dict[str, Any]]:
    """``None`` or why the request is refused (``auth``, ``extension``), and the log entry."""
    missing = []
    override = LOG.with_suffix(".checks")
    checks = json.loads(override.read_text(encoding="utf-8")) if override.is_file() else SPEC["checks"]
    for check in checks:
        where = {"header": headers, "query": query, "cookie": cookies}[check["kind"]]
        key = check["name"].lower() if check["kind"] == "header" else check["name"]
        if where.get(key) != check["value"]:
            missing.append(check)
    declared = _declared(headers)
    undeclared = [uri for uri in SPEC["extensions"] if uri not in declared]
    entry = {"missing": missing, "extensions": declared, "undeclared": undeclared}
    _log(entry)
    if missing:
        return "auth", entry
    if undeclared:
        return "extension", entry
    return None, entry


def _text_of(message: Any) -> str:
    for part in getattr(message, "parts", None) or []:
        text = getattr(getattr(part, "root", part), "text", "")
        if text:
            return str(text)
    return "a part"


class Gate:
    """ASGI middleware: the checks, before the SDK's application."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        query = {k: v[0] for k, v in parse_qs(scope.get("query_string", b"").decode("latin-1")).items()}
        jar = SimpleCookie()
        jar.load(headers.get("cookie", ""))
        cookies = {k: m.value for k, m in jar.items()}
        refused, entry = judge(headers, query, cookies)
        if refused is None:
            await self.app(scope, receive, send)
            return
        status = 401 if refused == "auth" else 400
        body = json.dumps({"refused": refused, **entry}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _card_v1(url: str) -> Any:
    from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill

    binding = SPEC["binding"]
    return AgentCard(
        name="echo",
        description="echo",
        version="1",
        supported_interfaces=[AgentInterface(url=url, protocol_binding=binding, protocol_version="1.0")],
        # the extended card is offered (the public one, served again) so its requests are answered too
        capabilities=AgentCapabilities(streaming=False, extended_agent_card=True),
        default_input_modes=["text/plain", "application/json"],
        default_output_modes=["text/plain"],
        skills=[AgentSkill(id="echo", name="echo", description="echo", tags=["echo"])],
    )


def _card_v03(url: str) -> Any:
    from a2a.types import AgentCapabilities, AgentCard, AgentSkill

    transport = {"JSONRPC": "JSONRPC", "HTTP+JSON": "HTTP+JSON", "GRPC": "GRPC"}[SPEC["binding"]]
    return AgentCard(
        name="echo",
        description="echo",
        version="1",
        url=url,
        preferred_transport=transport,
        protocol_version="0.3.0",
        capabilities=AgentCapabilities(streaming=False),
        supports_authenticated_extended_card=True,
        default_input_modes=["text/plain", "application/json"],
        default_output_modes=["text/plain"],
        skills=[AgentSkill(id="echo", name="echo", description="echo", tags=["echo"])],
    )


def _executor_v1() -> Any:
    from a2a.helpers.proto_helpers import new_text_message
    from a2a.server.agent_execution import AgentExecutor
    from a2a.types import Role

    class Echo(AgentExecutor):
        async def execute(self, context: Any, event_queue: Any) -> None:
            text = _text_of(context.message)
            await event_queue.enqueue_event(new_text_message(f"echo: {text}", role=Role.ROLE_AGENT))

        async def cancel(self, context: Any, event_queue: Any) -> None:
            return None

    return Echo()


def _executor_v03() -> Any:
    from a2a.server.agent_execution import AgentExecutor
    from a2a.utils import new_agent_text_message

    class Echo(AgentExecutor):
        async def execute(self, context: Any, event_queue: Any) -> None:
            text = _text_of(context.message)
            await event_queue.enqueue_event(new_agent_text_message(f"echo: {text}"))

        async def cancel(self, context: Any, event_queue: Any) -> None:
            return None

    return Echo()


def _grpc_gate() -> Any:
    import grpc

    class GateInterceptor(grpc.aio.ServerInterceptor):  # type: ignore[misc]
        async def intercept_service(self, continuation: Any, details: Any) -> Any:
            metadata = {k.lower(): v for k, v in details.invocation_metadata}
            jar = SimpleCookie()
            jar.load(metadata.get("cookie", ""))
            refused, _ = judge(metadata, {}, {k: m.value for k, m in jar.items()})
            if refused is None:
                return await continuation(details)
            code = (
                grpc.StatusCode.UNAUTHENTICATED if refused == "auth" else grpc.StatusCode.FAILED_PRECONDITION
            )

            async def deny(request: Any, context: Any) -> Any:
                await context.abort(code, f"refused: {refused}")

            return grpc.unary_unary_rpc_method_handler(deny)

    return GateInterceptor()


async def serve_grpc(handler: Any, add: Any) -> None:
    import grpc

    server = grpc.aio.server(interceptors=[_grpc_gate()])
    add(handler, server)
    address = f"127.0.0.1:{SPEC['port']}"
    tls = SPEC.get("tls")
    if tls:
        credentials = grpc.ssl_server_credentials(
            [(Path(tls["key"]).read_bytes(), Path(tls["cert"]).read_bytes())],
            root_certificates=Path(tls["ca"]).read_bytes(),
            require_client_auth=bool(tls.get("client")),
        )
        server.add_secure_port(address, credentials)
    else:
        server.add_insecure_port(address)
    await server.start()
    Path(SPEC["ready"]).write_text("ready", encoding="utf-8")
    await server.wait_for_termination()


def serve_http(app: Any) -> None:
    import uvicorn

    tls = SPEC.get("tls")
    options: dict[str, Any] = {}
    if tls:
        options = {"ssl_certfile": tls["cert"], "ssl_keyfile": tls["key"], "ssl_ca_certs": tls["ca"]}
        if tls.get("client"):
            options["ssl_cert_reqs"] = ssl.CERT_REQUIRED

    class Ready(uvicorn.Server):  # type: ignore[misc]
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            Path(SPEC["ready"]).write_text("ready", encoding="utf-8")

    config = uvicorn.Config(Gate(app), host="127.0.0.1", port=SPEC["port"], log_level="warning", **options)
    Ready(config).run()


def main_v1() -> None:
    from a2a.server.request_handlers.default_request_handler_v2 import DefaultRequestHandlerV2
    from a2a.server.tasks import InMemoryTaskStore

    url = SPEC["url"]
    card = _card_v1(url)
    handler = DefaultRequestHandlerV2(
        agent_executor=_executor_v1(),
        task_store=InMemoryTaskStore(),
        agent_card=card,
        extended_agent_card=card,
    )
    if SPEC["binding"] == "GRPC":
        from a2a.server.request_handlers.grpc_handler import GrpcHandler
        from a2a.types.a2a_pb2_grpc import add_A2AServiceServicer_to_server

        asyncio.run(serve_grpc(GrpcHandler(handler), add_A2AServiceServicer_to_server))
        return
    from starlette.applications import Starlette

    if SPEC["binding"] == "JSONRPC":
        from a2a.server.routes.jsonrpc_routes import create_jsonrpc_routes

        routes = create_jsonrpc_routes(handler, SPEC.get("path", "/"))
    else:
        from a2a.server.routes.rest_routes import create_rest_routes
        from starlette.routing import Mount

        # Mounted at the interface's path, so that a tenant follows it as the spec says ({url}/{tenant}/...);
        # the SDK's own path_prefix would put the tenant first.
        routes = create_rest_routes(handler)
        if SPEC.get("path"):
            routes = [Mount(SPEC["path"], routes=routes)]
    serve_http(Starlette(routes=routes))


def main_v03() -> None:
    from a2a.server.request_handlers import DefaultRequestHandler
    from a2a.server.tasks import InMemoryTaskStore

    url = SPEC["url"]
    card = _card_v03(url)
    handler = DefaultRequestHandler(agent_executor=_executor_v03(), task_store=InMemoryTaskStore())
    if SPEC["binding"] == "GRPC":
        from a2a.grpc.a2a_pb2_grpc import add_A2AServiceServicer_to_server
        from a2a.server.request_handlers import GrpcHandler

        asyncio.run(serve_grpc(GrpcHandler(card, handler), add_A2AServiceServicer_to_server))
        return
    if SPEC["binding"] == "JSONRPC":
        from a2a.server.apps import A2AStarletteApplication

        app = A2AStarletteApplication(agent_card=card, http_handler=handler).build(
            rpc_url=SPEC.get("path", "/")
        )
    else:
        from a2a.server.apps import A2ARESTFastAPIApplication

        app = A2ARESTFastAPIApplication(agent_card=card, http_handler=handler).build(
            rpc_url=SPEC.get("path", "")
        )
    serve_http(app)


if __name__ == "__main__":
    main_v1() if SPEC["version"] == "1.0" else main_v03()
