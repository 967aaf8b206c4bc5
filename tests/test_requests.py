"""Ready-to-send SendMessage requests: shapes per binding and protocol version (send-message reference, §6)."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest

from a2a_docgen.catalog import load_card_bytes
from a2a_docgen.model import AgentCard
from a2a_docgen.protocol import BINDING_ALIASES, canonical_binding
from a2a_docgen.render.requests import (
    MESSAGE_ID_NAMESPACE,
    PLACEHOLDER_DATA,
    PLACEHOLDER_FILE_URL,
    PLACEHOLDER_TEXT,
    RequestExample,
    accepts_text,
    build_request,
    json_media_type,
    message_id,
    send_message_request,
    unwritable_extensions,
)
from a2a_docgen.render.snippets import PROTO_URLS
from a2a_docgen.validate.formats import check_binding
from tests.support.cards import small_card

ID_A = "9f1c2a7e-3b4d-4e5f-8a6b-7c8d9e0f1a2b"
ID_B = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
TEXT = "Plan a route from A to B"
DATA = {"origin": {"lat": 1, "lng": 2}}

# The example requests of the send-message reference, section 6 (identifiers as given there).
SPEC_V1_A = {
    "jsonrpc": "2.0",
    "id": "req-1",
    "method": "SendMessage",
    "params": {
        "message": {"messageId": ID_A, "role": "ROLE_USER", "parts": [{"text": TEXT}]},
        "configuration": {"acceptedOutputModes": ["application/json"]},
    },
}
SPEC_V1_B = {
    "jsonrpc": "2.0",
    "id": "req-2",
    "method": "SendMessage",
    "params": {
        "message": {
            "messageId": ID_B,
            "role": "ROLE_USER",
            "parts": [{"data": DATA, "mediaType": "application/json"}],
        }
    },
}
SPEC_V03_A = {
    "jsonrpc": "2.0",
    "id": "req-1",
    "method": "message/send",
    "params": {
        "message": {
            "kind": "message",
            "messageId": ID_A,
            "role": "user",
            "parts": [{"kind": "text", "text": TEXT}],
        },
        "configuration": {"acceptedOutputModes": ["application/json"]},
    },
}
SPEC_V03_B = {
    "jsonrpc": "2.0",
    "id": "req-2",
    "method": "message/send",
    "params": {
        "message": {
            "kind": "message",
            "messageId": ID_B,
            "role": "user",
            "parts": [{"kind": "data", "data": DATA}],
        }
    },
}
SPEC_V03_REST_A = {
    "message": {"messageId": ID_A, "role": "ROLE_USER", "content": [{"text": TEXT}]},
    "configuration": {"acceptedOutputModes": ["application/json"], "blocking": True},
}
SPEC_V03_REST_B = {
    "message": {"messageId": ID_B, "role": "ROLE_USER", "content": [{"data": {"data": DATA}}]},
    "configuration": {"blocking": True},
}


def without_id(envelope: dict[str, Any]) -> dict[str, Any]:
    assert isinstance(envelope["id"], (str, int))
    assert not isinstance(envelope["id"], bool)
    return {k: v for k, v in envelope.items() if k != "id"}


def text_request(shape: Any, binding: Any) -> dict[str, Any]:
    return send_message_request(
        shape=shape, binding=binding, message_id=ID_A, text=TEXT, output_modes=("application/json",)
    )


def data_request(shape: Any, binding: Any) -> dict[str, Any]:
    return send_message_request(
        shape=shape,
        binding=binding,
        message_id=ID_B,
        text=json.dumps(DATA),
        data=DATA,
        data_media_type="application/json",
    )


# -- the bodies equal the reference examples -------------------------------------------------------------------


def test_v1_jsonrpc_matches_spec() -> None:
    assert without_id(text_request("1.0", "JSONRPC")) == without_id(SPEC_V1_A)
    assert without_id(data_request("1.0", "JSONRPC")) == without_id(SPEC_V1_B)


def test_v03_jsonrpc_matches_spec() -> None:
    assert without_id(text_request("0.3", "JSONRPC")) == without_id(SPEC_V03_A)
    assert without_id(data_request("0.3", "JSONRPC")) == without_id(SPEC_V03_B)


def test_v1_rest_body_is_the_jsonrpc_params() -> None:
    assert text_request("1.0", "HTTP+JSON") == SPEC_V1_A["params"]
    assert data_request("1.0", "HTTP+JSON") == SPEC_V1_B["params"]


def test_v03_rest_matches_spec() -> None:
    assert text_request("0.3", "HTTP+JSON") == SPEC_V03_REST_A
    assert data_request("0.3", "HTTP+JSON") == SPEC_V03_REST_B


def test_grpc_messages_use_protojson() -> None:
    assert text_request("1.0", "GRPC") == SPEC_V1_A["params"]
    assert text_request("0.3", "GRPC") == SPEC_V03_REST_A


def test_tenant_goes_in_params_for_jsonrpc_and_grpc_not_rest() -> None:
    def with_tenant(binding: Any) -> dict[str, Any]:
        return send_message_request(shape="1.0", binding=binding, message_id=ID_A, text=TEXT, tenant="t-1")

    assert with_tenant("JSONRPC")["params"]["tenant"] == "t-1"
    assert with_tenant("GRPC")["tenant"] == "t-1"
    assert "tenant" not in with_tenant("HTTP+JSON")
    v03 = send_message_request(shape="0.3", binding="JSONRPC", message_id=ID_A, text=TEXT, tenant="t-1")
    assert "tenant" not in v03["params"]


# -- from a card ------------------------------------------------------------------------------------------------


def card(interfaces: list[dict[str, Any]], **skill: Any) -> AgentCard:
    raw = {
        "name": "Ferry Desk",
        "description": "Ferry times.",
        "supportedInterfaces": interfaces,
        "version": "1.0.0",
        "capabilities": {},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [
            {
                "id": "times",
                "name": "Times",
                "description": "Departure times.",
                "tags": ["ferries"],
                "examples": ["Next ferry to Seal Point?", '{"to": "Seal Point"}', '["a", "b"]'],
                **skill,
            }
        ],
    }
    loaded, _ = load_card_bytes(json.dumps(raw).encode(), display="card.json")
    assert loaded is not None
    return loaded


def interface(
    binding: str, version: str = "1.0", url: str = "https://ferry.example/a2a", **extra: str
) -> dict[str, str]:
    return {"url": url, "protocolBinding": binding, "protocolVersion": version, **extra}


def test_v1_jsonrpc_from_card_with_tenant() -> None:
    c = card([interface("JSONRPC", tenant="north")])
    request = build_request(c, c.skills[0], 0)
    assert request is not None
    assert (request.method, request.target) == ("POST", "https://ferry.example/a2a")
    assert request.headers == (("Content-Type", "application/json"), ("A2A-Version", "1.0"))
    assert request.body["method"] == "SendMessage"
    params = request.body["params"]
    assert isinstance(params, dict)
    assert params["tenant"] == "north"
    assert params["message"] == {
        "messageId": message_id("Ferry Desk", "times", 0),
        "role": "ROLE_USER",
        "parts": [{"text": "Next ferry to Seal Point?"}],
    }
    assert params["configuration"] == {"acceptedOutputModes": ["text/plain"]}


def test_v1_rest_from_card_puts_tenant_in_path() -> None:
    c = card([interface("HTTP+JSON", url="https://ferry.example/api/", tenant="north quay")])
    request = build_request(c, c.skills[0], 0)
    assert request is not None
    assert request.target == "https://ferry.example/api/north%20quay/message:send"
    assert request.headers == (("Content-Type", "application/a2a+json"), ("A2A-Version", "1.0"))
    assert "tenant" not in request.body
    assert set(request.body) == {"message", "configuration"}


def test_v03_rest_from_card() -> None:
    c = card([interface("HTTP+JSON", version="0.3")])
    request = build_request(c, c.skills[0], 0)
    assert request is not None
    assert request.target == "https://ferry.example/a2a/v1/message:send"
    assert request.headers == (("Content-Type", "application/json"),)
    assert request.body["configuration"] == {"acceptedOutputModes": ["text/plain"], "blocking": True}


def test_grpc_from_card() -> None:
    c = card([interface("GRPC", url="grpc.ferry.example:443")])
    request = build_request(c, c.skills[0], 0)
    assert request is not None
    assert request.method == "lf.a2a.v1.A2AService/SendMessage"
    assert request.target == "grpc.ferry.example:443"
    assert request.headers == (("a2a-version", "1.0"),)
    c03 = card([interface("grpc", version="0.3.0")])
    request03 = build_request(c03, c03.skills[0], 0)
    assert request03 is not None
    assert request03.method == "a2a.v1.A2AService/SendMessage"
    assert request03.headers == ()


def parts(request: RequestExample) -> Any:
    body: Any = request.body
    return body["params"]["message"]["parts"]


def test_json_example_is_a_data_part_only_when_the_skill_accepts_json() -> None:
    text_only = card([interface("JSONRPC")])
    request = build_request(text_only, text_only.skills[0], 1)
    assert request is not None
    assert not request.data_part
    assert parts(request) == [{"text": '{"to": "Seal Point"}'}]

    vendor = card([interface("JSONRPC")], inputModes=["application/vnd.ferry+json"])
    request = build_request(vendor, vendor.skills[0], 1)
    assert request is not None
    assert request.data_part
    assert parts(request) == [{"data": {"to": "Seal Point"}, "mediaType": "application/vnd.ferry+json"}]


def test_arrays_are_data_in_v1_but_text_in_v03() -> None:
    v1 = card([interface("JSONRPC")], inputModes=["application/json"])
    v03 = card([interface("JSONRPC", version="0.3")], inputModes=["application/json"])
    r1, r03 = build_request(v1, v1.skills[0], 2), build_request(v03, v03.skills[0], 2)
    assert r1 is not None
    assert r1.data_part
    assert r03 is not None
    assert not r03.data_part
    assert parts(r03) == [{"kind": "text", "text": '["a", "b"]'}]


def test_custom_binding_or_missing_interface_gives_no_request() -> None:
    c = card([interface("https://example.com/bindings/ws")])
    assert build_request(c, c.skills[0], 0) is None
    assert canonical_binding("https://example.com/bindings/ws") is None
    assert canonical_binding(" json-rpc ") == "JSONRPC"


@pytest.mark.parametrize("spelling", [*BINDING_ALIASES, "jsonrpc", "grpc", "http+json"])
def test_every_spelling_the_validator_accepts_with_a_hint_gets_its_request(spelling: str) -> None:
    """One table decides both: the binding the validator tells the author to write is the one requested."""
    problem = check_binding(spelling)
    assert problem is not None
    assert problem.severity == "warning"
    hint = canonical_binding(spelling)
    assert hint is not None
    assert f'write "{hint}"' in problem.message
    c = card([interface(spelling)])
    request = build_request(c, c.skills[0], 0)
    assert request is not None
    assert request.binding == hint


def test_a_protocol_version_without_a_decimal_major_falls_back_to_the_card_era() -> None:
    c = card([interface("JSONRPC", version="\u00b2.0")])  # a superscript digit: isdigit() but not int()
    request = build_request(c, c.skills[0], 0)
    assert request is not None
    assert request.shape == "1.0"


def test_unknown_protocol_version_falls_back_to_the_card_era() -> None:
    c = card([interface("JSONRPC", version="next")])
    request = build_request(c, c.skills[0], 0)
    assert request is not None
    assert request.shape == "1.0"


def test_json_media_type() -> None:
    assert json_media_type(("text/plain", "application/json; charset=utf-8")) == "application/json"
    assert json_media_type(("text/json",)) == "text/json"
    assert json_media_type(("application/geo+json", "application/json")) == "application/json"
    assert json_media_type(("text/plain", "image/png")) is None


def test_message_ids_are_deterministic_uuid5() -> None:
    first = message_id("Ferry Desk", "times", 0)
    assert first == message_id("Ferry Desk", "times", 0)
    assert uuid.UUID(first).version == 5
    assert uuid.UUID(first) == uuid.uuid5(MESSAGE_ID_NAMESPACE, "Ferry Desk\x1ftimes\x1f0")
    assert len({first, message_id("Ferry Desk", "times", 1), message_id("Ferry Desk", "other", 0)}) == 3
    for name, skill_id, index in [(None, None, 0), ("Fähre ⛴", "zeit\u202e", 7), ("", "x" * 500, 12)]:
        expected = uuid.uuid5(MESSAGE_ID_NAMESPACE, f"{name or ''}\x1f{skill_id or ''}\x1f{index}")
        assert message_id(name, skill_id, index) == str(expected)


# -- the official SDK accepts the bodies (skipped without a2a-sdk) ---------------------------------------------


def test_v1_params_parse_strictly_in_the_sdk() -> None:
    json_format = pytest.importorskip("google.protobuf.json_format")
    a2a_types = pytest.importorskip("a2a.types")
    proto_utils = pytest.importorskip("a2a.utils.proto_utils")
    bodies = [text_request("1.0", "JSONRPC")["params"], data_request("1.0", "JSONRPC")["params"]]
    bodies.append(
        send_message_request(shape="1.0", binding="JSONRPC", message_id=ID_A, text=TEXT, tenant="t")["params"]
    )
    bodies.append(text_request("1.0", "HTTP+JSON"))
    for params in bodies:
        message = json_format.ParseDict(params, a2a_types.SendMessageRequest(), ignore_unknown_fields=False)
        proto_utils.validate_proto_required_fields(message)


def test_v03_bodies_parse_in_the_sdk_compat_layer() -> None:
    json_format = pytest.importorskip("google.protobuf.json_format")
    pb = pytest.importorskip("a2a.compat.v0_3.a2a_v0_3_pb2")
    compat = pytest.importorskip("a2a.compat.v0_3.types")
    for body in (text_request("0.3", "HTTP+JSON"), data_request("0.3", "HTTP+JSON")):
        json_format.ParseDict(body, pb.SendMessageRequest(), ignore_unknown_fields=False)
    for envelope in (text_request("0.3", "JSONRPC"), data_request("0.3", "JSONRPC")):
        parsed = compat.SendMessageRequest.model_validate(envelope)
        assert (
            parsed.model_dump(mode="json", exclude_none=True, by_alias=True)["params"] == envelope["params"]
        )


def test_v03_jsonrpc_validates_against_the_v03_schema(shared_dir: Any) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema_path = shared_dir / "cards" / "spec" / "a2a-v0.3.0.schema.json"
    if not schema_path.is_file():
        pytest.skip("the v0.3 JSON schema is not in ../shared")
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    validator = jsonschema.Draft7Validator({**schema, "$ref": "#/definitions/SendMessageRequest"})
    for envelope in (text_request("0.3", "JSONRPC"), data_request("0.3", "JSONRPC")):
        assert not list(validator.iter_errors(envelope))


# -- skills without examples, required extensions, the forms of a request -------------------------------------


def test_a_skill_without_examples_gets_a_placeholder_in_a_mode_it_accepts() -> None:
    def first_part(modes: list[str], version: str = "1.0") -> Any:
        c = card([interface("JSONRPC", version=version)], examples=[], inputModes=modes)
        request = build_request(c, c.skills[0], None)
        assert request is not None
        assert request.content.placeholder
        return parts(request)[0]

    assert first_part(["text/plain", "application/json"]) == {"text": PLACEHOLDER_TEXT}
    assert first_part(["text"]) == {"text": PLACEHOLDER_TEXT}  # the bare word many cards write
    assert first_part(["application/json"]) == {"data": PLACEHOLDER_DATA, "mediaType": "application/json"}
    assert first_part(["image/png"]) == {"url": PLACEHOLDER_FILE_URL, "mediaType": "image/png"}
    assert first_part(["image/png"], "0.3") == {
        "kind": "file",
        "file": {"uri": PLACEHOLDER_FILE_URL, "mimeType": "image/png"},
    }
    assert first_part(["application/json"], "0.3") == {"kind": "data", "data": PLACEHOLDER_DATA}


def test_accepts_text() -> None:
    assert accepts_text(())
    assert accepts_text(("text",))
    assert accepts_text(("Text/Markdown; charset=utf-8",))
    assert accepts_text(("*/*",))
    assert not accepts_text(("application/json", "image/png"))


def extension_card(uris: list[str], binding: str = "JSONRPC", version: str = "1.0") -> AgentCard:
    raw = {
        "name": "Ferry Desk",
        "description": "d",
        "version": "1",
        "supportedInterfaces": [interface(binding, version=version)],
        "capabilities": {"extensions": [{"uri": u, "required": True} for u in uris] + [{"uri": "urn:opt"}]},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "s", "name": "s", "description": "d", "tags": ["t"], "examples": ["hi"]}],
    }
    loaded, _ = load_card_bytes(json.dumps(raw).encode(), display="card.json")
    assert loaded is not None
    return loaded


@pytest.mark.parametrize(
    ("binding", "version", "name"),
    [
        ("JSONRPC", "1.0", "A2A-Extensions"),
        ("HTTP+JSON", "1.0", "A2A-Extensions"),
        ("JSONRPC", "0.3", "X-A2A-Extensions"),
        ("HTTP+JSON", "0.3", "X-A2A-Extensions"),
        ("GRPC", "1.0", "a2a-extensions"),
        ("GRPC", "0.3", "x-a2a-extensions"),
    ],
)
def test_required_extensions_are_declared(binding: str, version: str, name: str) -> None:
    c = extension_card(["urn:a:1", "https://b.example/ext/v2", "urn:bad uri", "urn:a,b"], binding, version)
    request = build_request(c, c.skills[0], 0)
    assert request is not None
    assert dict(request.headers)[name] == "urn:a:1,https://b.example/ext/v2"
    assert request.extensions == ("urn:a:1", "https://b.example/ext/v2")
    assert unwritable_extensions(c) == ("urn:bad uri", "urn:a,b")  # a space or a comma: the page names them


def _forms(c: AgentCard) -> dict[str, str]:
    from a2a_docgen.render.calling import request_targets, request_variants

    targets, _ = request_targets(c)
    return {v.label: v.code for v in request_variants(c, c.skills[0], 0, targets)}


def secured(scheme: dict[str, Any], *interfaces: dict[str, Any]) -> AgentCard:
    raw = {
        "name": "Secured",
        "description": "d",
        "version": "1",
        "supportedInterfaces": list(interfaces),
        "capabilities": {},
        "securitySchemes": {"s": scheme},
        "securityRequirements": [{"schemes": {"s": {"list": []}}}],
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "k", "name": "k", "description": "d", "tags": ["t"], "examples": ["hi"]}],
    }
    loaded, _ = load_card_bytes(json.dumps(raw).encode(), display="card.json")
    assert loaded is not None
    return loaded


def test_every_interface_gets_both_forms_labelled_by_binding_and_version() -> None:
    c = secured(
        {"httpAuthSecurityScheme": {"scheme": "bearer"}},
        interface("JSONRPC"),
        interface("GRPC", url="grpc.ferry.example:443"),
        interface("HTTP+JSON", version="0.3"),
        interface("JSONRPC", url="https://other.example/a2a"),  # the same binding and version: skipped
    )
    assert list(_forms(c)) == [
        "JSON-RPC v1.0 · curl",
        "JSON-RPC v1.0 · Python",
        "gRPC v1.0 · grpcurl",
        "gRPC v1.0 · Python",
        "HTTP+JSON v0.3 · curl",
        "HTTP+JSON v0.3 · Python",
    ]


def test_query_and_cookie_keys_reach_python_and_the_client_is_closed() -> None:
    query = _forms(
        secured({"apiKeySecurityScheme": {"location": "query", "name": "key"}}, interface("JSONRPC"))
    )
    program = query["JSON-RPC v1.0 · Python"]
    assert 'httpx.AsyncClient(params={"key": "<api-key>"}) as http' in program
    assert "cannot be written" not in program
    assert "async with await create_client(" in program
    cookie = _forms(
        secured({"apiKeySecurityScheme": {"location": "cookie", "name": "sid"}}, interface("JSONRPC"))
    )
    assert 'httpx.AsyncClient(cookies={"sid": "<api-key>"}) as http' in cookie["JSON-RPC v1.0 · Python"]
    assert "-b 'sid=<api-key>'" in cookie["JSON-RPC v1.0 · curl"]


def test_mutual_tls_without_the_deprecated_cert_argument_and_over_grpc() -> None:
    forms = _forms(
        secured({"mtlsSecurityScheme": {}}, interface("HTTP+JSON"), interface("GRPC", url="g.example:8443"))
    )
    http = forms["HTTP+JSON v1.0 · Python"]
    assert "cert=" not in http
    assert 'tls.load_cert_chain("client.crt", "client.key")' in http
    assert "verify=tls" in http
    grpc = forms["gRPC v1.0 · Python"]
    assert "grpc.ssl_channel_credentials(private_key=key.read(), certificate_chain=crt.read())" in grpc
    assert 'grpc_channel_factory=lambda _: grpc.aio.secure_channel("g.example:8443", tls)' in grpc
    assert grpc.startswith('# -*- coding: utf-8 -*-\n# pip install "a2a-sdk[grpc]>=1.3"\n')
    assert "-cert client.crt -key client.key" in forms["gRPC v1.0 · grpcurl"]
    assert "--cert client.crt --key client.key" in forms["HTTP+JSON v1.0 · curl"]


def test_grpcurl_names_the_proto_of_the_version_and_its_imports() -> None:
    for version, url in (("1.0", PROTO_URLS["1.0"]), ("0.3", PROTO_URLS["0.3"])):
        c = card([interface("GRPC", version=version, url="http://127.0.0.1:50051")])
        (command,) = [code for label, code in _forms(c).items() if label.endswith("grpcurl")]
        assert command.startswith(f"# a2a.proto: save {url} here")
        assert "-import-path . \\\n" in command
        assert "google.api" in command
        assert "-plaintext" in command
        assert "127.0.0.1:50051" in command


def test_basic_over_grpc_is_encoded_by_the_shell_on_one_line() -> None:
    forms = _forms(
        secured({"httpAuthSecurityScheme": {"scheme": "basic"}}, interface("GRPC", url="g.example:443"))
    )
    assert (
        """-H "authorization: Basic $(printf %s '<user>:<password>' | base64 | tr -d '\\n')" """.strip()
        in (forms["gRPC v1.0 · grpcurl"])
    )
    assert 'base64.b64encode(b"<user>:<password>")' in forms["gRPC v1.0 · Python"]


def test_deferred_requests_are_the_tuple_they_stand_for_in_a_template() -> None:
    """A site's own template override may use an example's requests as it used the tuple they were: joined,
    counted, indexed, compared, printed."""
    import jinja2

    from a2a_docgen.render.calling import DeferredVariants, request_targets, request_variants

    skill_json = {"id": "s", "name": "S", "description": "d", "tags": ["t"], "examples": ["hello"]}
    found, _ = load_card_bytes(json.dumps(small_card("A", [skill_json])).encode(), display="cards/a.json")
    assert isinstance(found, AgentCard)
    skill = found.skills[0]
    targets = request_targets(found)[0]
    made = request_variants(found, skill, 0, targets)
    deferred = DeferredVariants(found, skill, 0, targets)
    assert made
    assert deferred == made
    assert made == deferred
    assert hash(deferred) == hash(made)
    template = jinja2.Environment().from_string(
        "{{ (v + t) | length }} {{ (t + v) | length }} {{ v | length }} {{ v[0].label }} {{ v[-1].label }} "
        "{{ v | first == v[0] }} {{ v | list | length }} {{ v | string }}"
    )
    assert template.render(v=deferred, t=made) == template.render(v=made, t=made)


def test_a_tenant_with_a_lone_surrogate_is_written_not_a_crash() -> None:
    """The validator reports a lone surrogate; the HTTP+JSON path still gets the tenant, percent-encoded as
    its bytes (a UTF-8 encoder refuses it), instead of the build stopping with a traceback."""
    c = card([interface("HTTP+JSON", tenant="n\ud800")])
    request = build_request(c, c.skills[0], 0)
    assert request is not None
    assert request.target == "https://ferry.example/a2a/n%ED%A0%80/message:send"
    assert "'https://ferry.example/a2a/n%ED%A0%80/message:send'" in _forms(c)["HTTP+JSON v1.0 · curl"]
