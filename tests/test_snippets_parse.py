"""A published snippet parses to the program we meant, whatever the card says.

The Python snippet is read by Python as a file: its first two lines may declare the source encoding (PEP 263),
so card text there could make Python decode the rest as UTF-7, where plain ASCII such as ``+ACI-`` is a quote.
The shell commands are read by a POSIX shell. Each is checked as its reader reads it: Python compiles its UTF-8
bytes, ``shlex`` splits the commands.
"""

from __future__ import annotations

import ast
import contextlib
import io
import itertools
import json
import re
import shlex
import subprocess
import sys
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from a2a_docgen.catalog import load_card_bytes
from a2a_docgen.model import AgentCard, JSONValue
from a2a_docgen.render.calling import request_targets, request_variants
from a2a_docgen.render.credentials import credentials
from a2a_docgen.render.requests import build_request, required_extensions
from a2a_docgen.render.snippets import CODING
from a2a_docgen.text.jsonio import same_json
from a2a_docgen.text.urls import safe_url
from tests.support.page_corpora import pages_of
from tests.support.payloads import ALL_PAYLOADS, HOSTILE, JSON_VALUES
from tests.support.snippet_runner import labelled_snippets

# In UTF-7 ``+ACI-`` is a quote and ``+AAo-`` a newline: each payload touches ``pwned`` when it runs.
_TOUCH = "__import__(+ACI-pathlib+ACI-).Path(+ACI-pwned+ACI-).touch()"
_SCHEME = "x coding:utf-7"
_IN_A_STRING = f"+ACI-, {_TOUCH}, +ACI-"
_IN_A_COMMENT = f"+AAo-{_TOUCH}+AAo-#"


def _published_python(directory: Path, schemes: list[str], example: str) -> str:
    """The Python form of the JSON-RPC request of a card whose API key schemes are named ``schemes`` (with a
    key name that is not a token, so the program names each in a comment), as its agent page publishes it."""
    unusable = {"apiKeySecurityScheme": {"location": "header", "name": "X Key"}}
    card: dict[str, Any] = {
        "name": "Ferry Desk",
        "description": "d",
        "version": "1",
        "supportedInterfaces": [
            {"url": "http://127.0.0.1:9/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
        ],
        "capabilities": {},
        "securitySchemes": dict.fromkeys(schemes, unusable),
        "securityRequirements": [{"schemes": {scheme: {"list": []} for scheme in schemes}}],
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "s", "name": "S", "description": "d", "tags": ["t"], "examples": [example]}],
    }
    cards = directory / "cards"
    cards.mkdir()
    (cards / "ferry.json").write_text(json.dumps(card), encoding="utf-8")
    pages = pages_of([cards])
    (page,) = [text for path, text in pages.items() if path.startswith("agents/") and "ferry" in path]
    (python,) = [s.code for s in labelled_snippets(page) if s.label == "JSON-RPC v1.0 · Python"]
    return python


@pytest.mark.parametrize(
    ("schemes", "example"),
    [
        pytest.param([_SCHEME], _IN_A_STRING, id="the example closes its string"),
        pytest.param([_SCHEME, _IN_A_COMMENT], "hello", id="a scheme name ends its comment"),
    ],
)
def test_card_text_cannot_declare_the_snippets_encoding(
    tmp_path: Path, schemes: list[str], example: str
) -> None:
    """The attack as a reader meets it: the published program saved as a file and run with Python."""
    if example != "hello":
        pytest.importorskip("a2a.client")  # the payload in the string runs in main(), after the SDK's imports
    python = _published_python(tmp_path, schemes, example)
    (tmp_path / "snippet.py").write_bytes(python.encode("utf-8"))
    subprocess.run(
        [sys.executable, "snippet.py"], cwd=tmp_path, capture_output=True, timeout=120, check=False
    )
    assert not (tmp_path / "pwned").exists()
    # What the card said is data: the example is the message's text, the scheme name stays in a comment.
    tree = ast.parse(python.encode("utf-8"))
    assert example in {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)}
    assert [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "__import__"] == []


# -- every form, from hostile cards ---------------------------------------------------------------------------

SNIPPET_PAYLOADS = (
    _SCHEME,
    "# -*- coding: latin-1 -*-",
    "# vim: set fileencoding=utf-7 :",
    "coding=utf_7",
    "+ACI-",
    "+AAo-",
    "+ACIAKQAK-",
    "'",
    "'\\''",
    '"',
    '"""',
    "\\",
    "\\N{QUOTATION MARK}",
    "\\U00000022",
    "\\x22",
    "\\\n",
    "\r",
    "\r\n",
    "\f",
    "\v",
    "\x1c",
    "\u2028",
    "\u0085",
    "\x00",
    "\ufeff",
    "\ud800",
    "\U000e0041",
    "\U0001f600",
    "$(touch pwned)",
    "`touch pwned`",
    "; touch pwned #",
    "&& touch pwned",
    "| touch pwned",
    "!!",
    "${IFS}",
    "\nEOF\n",
    "EOF",
    "\n__import__('os').system('touch pwned')\n",
    ")\nimport os\n(",
)
HOSTILE_TEXT = st.lists(
    st.one_of(st.sampled_from(SNIPPET_PAYLOADS + ALL_PAYLOADS), HOSTILE, st.text(max_size=12)), max_size=3
).map("".join)
"""Card text: payloads of the hostile corpus and of this file's attacks, any text, and mixes of them."""

URL_PATHS = st.one_of(HOSTILE_TEXT, st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E))).map(
    lambda path: path.replace("?", "").replace("#", "")
)
"""The path of an interface URL: hostile, and often one ``safe_url`` accepts (printable ASCII); without a query
or fragment, whose place the test would have to work out."""
TOKENS = st.from_regex(r"[a-z0-9][a-z0-9_.\-]{0,20}", fullmatch=True)
"""Key names a command can carry (lower case: gRPC metadata keys are)."""


def _loaded(text: str) -> str:
    """``text`` as a card file gives it back (a surrogate pair is one character)."""
    loaded: str = json.loads(json.dumps(text))
    return loaded


_INTERFACES = [(b, v) for v in ("1.0", "0.3") for b in ("JSONRPC", "HTTP+JSON", "GRPC")]
_HOSTS = {(b, v): ("grpc" if b == "GRPC" else "api") + ("" if v == "1.0" else "-v03") for b, v in _INTERFACES}
_PLACEHOLDER = re.compile(r"zq[0-9]+z(?::z)?")
"""A benign twin's placeholder: ``zqNz`` (a token, a URL path, a mode), ``zqNz:z`` for a URI."""


def _card(
    *,
    names: tuple[str, str, str],
    examples: list[str],
    output_modes: list[str],
    path: str,
    tenant: str,
    uri: str,
    schemes: dict[str, Any],
    scopes: dict[str, list[str]],
) -> dict[str, Any]:
    """A card with one interface of each binding and version (URLs ending in ``path``) and one skill."""
    agent, skill_id, skill_name = names
    return {
        "name": agent,
        "description": "d",
        "version": "1",
        "supportedInterfaces": [
            {
                "url": f"https://{_HOSTS[binding, version]}.example:8443/{path}/a2a",
                "protocolBinding": binding,
                "protocolVersion": version,
                **({"tenant": tenant} if version == "1.0" else {}),
            }
            for binding, version in _INTERFACES
        ],
        "capabilities": {"extensions": [{"uri": uri, "required": True}]},
        "securitySchemes": schemes,
        "securityRequirements": [{"schemes": {name: {"list": scopes.get(name, [])} for name in schemes}}],
        "defaultInputModes": ["text/plain", "application/json"],
        "defaultOutputModes": ["text/plain"],
        "skills": [
            {
                "id": skill_id,
                "name": skill_name,
                "description": "d",
                "tags": ["t"],
                "examples": examples,
                "outputModes": output_modes,
            }
        ],
    }


def _schemes(key: tuple[str, str], http: str, token_url: str, mtls: bool) -> dict[str, Any]:
    """An API key (its location and name), an HTTP authentication scheme, OAuth 2.0 and, if asked, mutual
    TLS, under placeholder names (``_card`` takes them renamed)."""
    schemes: dict[str, Any] = {
        "key": {"apiKeySecurityScheme": {"location": key[0], "name": key[1]}},
        "http": {"httpAuthSecurityScheme": {"scheme": http}},
        "oauth": {
            "oauth2SecurityScheme": {
                "flows": {"clientCredentials": {"tokenUrl": token_url, "scopes": {"s": "d"}}}
            }
        },
    }
    if mtls:
        schemes["mtls"] = {"mtlsSecurityScheme": {}}
    return schemes


def _load(raw: dict[str, Any]) -> AgentCard:
    card, _ = load_card_bytes(json.dumps(raw).encode(), display="card.json")
    assert isinstance(card, AgentCard)
    return card


@dataclass
class Twins:
    """A card with hostile text and its benign twin: the same structure, each text of the hostile card
    a placeholder of the same kind (a token for a token, a writable URL for a writable one), as the renderer
    judges it."""

    hostile: AgentCard
    benign: AgentCard
    texts: dict[str, str]
    """Placeholder -> the card's text, as Python holds it (in a string literal)."""
    shell: dict[str, str]
    """Placeholder -> the card's text in a shell word, where it is not the text itself (URLs)."""

    def expect(self, benign: str, context: str = "python") -> str:
        """``benign`` with each placeholder replaced by the card's text as ``context`` writes it."""

        def form(match: re.Match[str]) -> str:
            text = self.texts[match.group()]
            if context == "comment":
                return json.dumps(text)[1:-1]
            return self.shell.get(match.group(), text) if context == "shell" else text

        return _PLACEHOLDER.sub(form, benign)


class _Placeholders:
    def __init__(self) -> None:
        self.texts: dict[str, str] = {}

    def new(self, text: str, suffix: str = "") -> str:
        placeholder = f"zq{len(self.texts)}z{suffix}"
        self.texts[placeholder] = text
        return placeholder

    def json(self, value: JSONValue) -> JSONValue:
        if isinstance(value, str):
            return self.new(value)
        if isinstance(value, list):
            return [self.json(item) for item in value]
        if isinstance(value, dict):
            return {self.new(key): self.json(item) for key, item in value.items()}
        return value


@st.composite
def twins(draw: st.DrawFn) -> Twins:
    """Hostile text in every field that reaches a request: the agent's name, the skill's id, name, examples
    (text and JSON) and output modes, the interface URLs and tenant, the security schemes' names, key name and
    HTTP scheme, an OAuth token URL and scope, and a required extension's URI."""
    names = ("A" + draw(HOSTILE_TEXT), draw(HOSTILE_TEXT) or "x", draw(HOSTILE_TEXT) or "x")
    example = draw(HOSTILE_TEXT)
    with contextlib.suppress(ValueError):
        assume(not isinstance(json.loads(example), (dict, list)))  # the JSON example is drawn next
    document = draw(st.dictionaries(HOSTILE_TEXT, JSON_VALUES, max_size=3))
    scheme_names = draw(st.lists(HOSTILE_TEXT.map(_loaded), min_size=4, max_size=4, unique=True))
    key = (
        draw(st.sampled_from(["header", "query", "cookie"])),
        draw(st.one_of(TOKENS, HOSTILE_TEXT)).lower(),
    )
    http = draw(st.one_of(st.sampled_from(["bearer", " Basic "]), TOKENS, HOSTILE_TEXT))
    mtls = draw(st.booleans())
    schemes = _schemes(key, http, draw(HOSTILE_TEXT), mtls)
    scope = draw(HOSTILE_TEXT)
    path, tenant = draw(URL_PATHS), draw(HOSTILE_TEXT)
    hostile = _load(
        _card(
            names=names,
            examples=[example, json.dumps(document)],
            output_modes=draw(st.lists(HOSTILE_TEXT, min_size=1, max_size=2, unique=True)),
            path=path,
            tenant=tenant,
            uri=draw(st.one_of(HOSTILE_TEXT, HOSTILE_TEXT.map(lambda s: f"urn:{s}"))),
            schemes=dict(zip(scheme_names, schemes.values(), strict=False)),
            scopes={scheme_names[2]: [scope]},
        )
    )

    # The twin, from what the renderer reads of the hostile card.
    p = _Placeholders()
    skill = hostile.skills[0]
    interface = hostile.interfaces[0]
    twin_names = (p.new(str(hostile.name)), p.new(str(skill.id)), p.new(str(skill.name)))
    examples = [json.dumps(p.json(e.value)) if e.is_json else p.new(e.text) for e in skill.examples]
    loaded_path = str(interface.url)[len("https://api.example:8443/") : -len("/a2a")]
    safe = safe_url(interface.url)
    shell: dict[str, str] = {}
    twin_path = " "  # a space: no URL with it is written, as none with the hostile path
    if safe is not None:
        twin_path = p.new(loaded_path)
        shell[twin_path] = safe[len("https://api.example:8443/") : -len("/a2a")]
    twin_tenant = interface.tenant or ""
    if interface.tenant:
        twin_tenant = p.new(interface.tenant)
        shell[twin_tenant] = quote(interface.tenant, safe="", errors="surrogatepass")
    declared = required_extensions(hostile)
    uri = p.new(declared[0], ":z") if declared else "urn:a b"
    creds = {c.scheme: c for c in credentials(skill.effective_security.requirements[0], hostile)}
    key_credential, http_credential = creds[scheme_names[0]], creds[scheme_names[1]]
    twin_key = p.new(str(key_credential.name)) if key_credential.usable else "a key"
    twin_http = http  # Bearer or Basic: only the kind reaches a request
    if http_credential.kind == "authorization":
        twin_http = p.new(str(http_credential.name)) if http_credential.usable else "a b"
    twin_schemes = _schemes((key[0], twin_key), twin_http, p.new("token URL"), mtls)
    twin_scheme_names = [p.new(name) for name in scheme_names]
    benign = _load(
        _card(
            names=twin_names,
            examples=examples,
            output_modes=[p.new(mode) for mode in skill.effective_output_modes.modes],
            path=twin_path,
            tenant=twin_tenant,
            uri=uri,
            schemes=dict(zip(twin_scheme_names, twin_schemes.values(), strict=False)),
            scopes={twin_scheme_names[2]: [p.new(scope)]},
        )
    )
    return Twins(hostile, benign, p.texts, shell)


def _shape(tree: ast.AST) -> tuple[str, list[str]]:
    """A syntax tree with its string constants blanked, and those constants in walk order."""
    strings: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            strings.append(node.value)
            node.value = ""
    return ast.dump(tree), strings


def _python_comments(code: bytes) -> list[str]:
    return [t.string for t in tokenize.tokenize(io.BytesIO(code).readline) if t.type == tokenize.COMMENT]


def _same_program(code: str, twin: str, twins: Twins) -> None:
    """The program is the twin's, read by Python from its UTF-8 bytes: its first two lines, the statements and
    calls (the syntax tree), each string constant the card's text where the twin has a placeholder, and
    each comment."""
    lines = code.split("\n")
    assert lines[:2] == twin.split("\n")[:2]
    assert lines[0] == CODING
    source, twin_source = code.encode("utf-8"), twin.encode("utf-8")
    shape, strings = _shape(ast.parse(source))
    twin_shape, twin_strings = _shape(ast.parse(twin_source))
    assert shape == twin_shape
    assert strings == [twins.expect(s) for s in twin_strings]
    assert _python_comments(source) == [twins.expect(c, "comment") for c in _python_comments(twin_source)]


def _command_parts(code: str) -> tuple[list[str], str, str]:
    """A command's comment lines, the command up to its here-document, and the here-document's text, as
    a POSIX shell reads them (the document ends at the first line that is ``EOF``)."""
    lines = code.split("\n")
    comments = list(itertools.takewhile(lambda line: line.startswith("#"), lines))
    rest = lines[len(comments) :]
    start = next(i for i, line in enumerate(rest) if line.endswith("<<'EOF'")) + 1
    end = rest.index("EOF", start)
    assert end == len(rest) - 1, "the document ends on the last line"
    return comments, "\n".join(rest[:start]), "\n".join(rest[start:end])


def _words(command: str) -> list[str]:
    """The words of a command (a backslash-newline joins lines, as in the shell)."""
    lexer = shlex.shlex(command, posix=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    return [word for word in lexer if word != "\n"]


def _same_command(code: str, twin: str, twins: Twins, body: JSONValue) -> None:
    """The command is the twin's: the same comment lines, and words, each holding the card's text where the
    twin's has a placeholder, and a here-document that is the request's JSON body."""
    comments, command, document = _command_parts(code)
    twin_comments, twin_command, _ = _command_parts(twin)
    assert comments == [twins.expect(c, "comment") for c in twin_comments]
    assert command.count("\n") == twin_command.count("\n")
    assert _words(command) == [twins.expect(w, "shell") for w in _words(twin_command)]
    assert same_json(json.loads(document), body)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(twins=twins())
def test_every_form_of_a_hostile_card_is_the_program_we_meant(twins: Twins) -> None:
    targets, _ = request_targets(twins.hostile)
    twin_targets, _ = request_targets(twins.benign)
    assert [t.label for t in targets] == [t.label for t in twin_targets]
    by_label = {t.label: t for t in targets}
    skill, twin_skill = twins.hostile.skills[0], twins.benign.skills[0]
    for index in [*range(len(skill.examples)), None]:
        variants = request_variants(twins.hostile, skill, index, targets)
        twin_variants = request_variants(twins.benign, twin_skill, index, twin_targets)
        assert [v.label for v in variants] == [v.label for v in twin_variants]
        for variant, twin in zip(variants, twin_variants, strict=True):
            if variant.form == "Python":
                _same_program(variant.code, twin.code, twins)
                continue
            request = build_request(twins.hostile, skill, index, by_label[variant.group].interface)
            assert request is not None
            _same_command(variant.code, twin.code, twins, request.body)
