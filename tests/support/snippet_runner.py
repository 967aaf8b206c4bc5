"""Run the requests of a built agent page against real A2A agents, as a reader would.

The page's Markdown is parsed with markdown-it-py; each labelled code block (a paragraph that is only a bold
label, then a fence) is one request form. A reader replaces the placeholders the page explains
(``PLACEHOLDER_VALUES``), saves ``a2a.proto`` and their client certificate beside them, and runs the block:
curl and grpcurl with bash, Python with the SDK's interpreter. The agents (``a2a_agent_server.py``) are
started with the official SDK of the interface's protocol version and refuse a request whose credential is
not where the card's scheme says, or that does not declare a required extension.
"""

from __future__ import annotations

import base64
import datetime
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

REPO = Path(__file__).resolve().parents[2]
SERVER = Path(__file__).with_name("a2a_agent_server.py")
PROTOS = REPO / "tests" / "data" / "a2a-proto"
"""``a2a.proto`` of A2A v1.0.1 and v0.3.0, as the pages tell readers to download them."""

TOKEN, API_KEY, USER, PASSWORD = "tok-7f3a", "key-91c2", "alice", "s3cret-pw"
PLACEHOLDER_VALUES = (
    ("<user>:<password>", f"{USER}:{PASSWORD}"),
    ("<user>", USER),
    ("<password>", PASSWORD),
    ("<token>", TOKEN),
    ("<api-key>", API_KEY),
)
SDK03_VENV = REPO / ".venv-sdk03"


def sdk_python(version: str) -> Path | None:
    """The Python of the SDK that serves ``version``: this one (1.x), or the 0.3 virtual environment."""
    if version == "1.0":
        return Path(sys.executable)
    python = SDK03_VENV / "bin" / "python"
    return python if python.is_file() else None


def group_label(binding: str, version: str) -> str:
    """The pages' label of an interface: ``JSON-RPC v1.0``, ``gRPC v0.3``."""
    return f"{ {'JSONRPC': 'JSON-RPC', 'HTTP+JSON': 'HTTP+JSON', 'GRPC': 'gRPC'}[binding] } v{version}"


@dataclass(frozen=True)
class Snippet:
    label: str
    language: str
    code: str


def labelled_snippets(markdown: str) -> list[Snippet]:
    """Every labelled code block of a page, in page order, exactly as written."""
    tokens = MarkdownIt("commonmark").parse(markdown)
    found: list[Snippet] = []
    for index in range(len(tokens) - 3):
        opening, inline, closing, fence = tokens[index : index + 4]
        if opening.type != "paragraph_open" or closing.type != "paragraph_close" or fence.type != "fence":
            continue
        children = [c for c in inline.children or [] if c.type != "text" or c.content]
        if [c.type for c in children] != ["strong_open", "text", "strong_close"]:
            continue
        found.append(Snippet(children[1].content, fence.info.strip(), fence.content))
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass(frozen=True)
class Tls:
    ca: Path
    cert: Path
    key: Path
    client_cert: Path
    client_key: Path


def make_tls(directory: Path) -> Tls:
    """A CA, a server certificate for localhost and 127.0.0.1, and a client certificate (PEM files)."""
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = datetime.datetime.now(datetime.timezone.utc)

    def name(cn: str) -> x509.Name:
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])

    def write_key(key: ec.EllipticCurvePrivateKey, path: Path) -> None:
        path.write_bytes(
            key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            )
        )

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (
        x509.CertificateBuilder()
        .subject_name(name("snippet test CA"))
        .issuer_name(name("snippet test CA"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )

    def leaf(
        cn: str, usage: Any, sans: list[x509.GeneralName]
    ) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
        key = ec.generate_private_key(ec.SECP256R1())
        builder = (
            x509.CertificateBuilder()
            .subject_name(name(cn))
            .issuer_name(ca.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
            .add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False
            )
        )
        if sans:
            builder = builder.add_extension(x509.SubjectAlternativeName(sans), critical=False)
        return builder.sign(ca_key, hashes.SHA256()), key

    server, server_key = leaf(
        "localhost",
        ExtendedKeyUsageOID.SERVER_AUTH,
        [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))],
    )
    client, client_key = leaf("snippet client", ExtendedKeyUsageOID.CLIENT_AUTH, [])
    tls = Tls(
        directory / "ca.pem",
        directory / "server.crt",
        directory / "server.key",
        directory / "client.crt",
        directory / "client.key",
    )
    tls.ca.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    tls.cert.write_bytes(server.public_bytes(serialization.Encoding.PEM))
    write_key(server_key, tls.key)
    tls.client_cert.write_bytes(client.public_bytes(serialization.Encoding.PEM))
    write_key(client_key, tls.client_key)
    return tls


@dataclass
class Agent:
    """A running agent: where it listens and what it saw."""

    url: str
    log: Path

    def entries(self) -> list[dict[str, Any]]:
        if not self.log.is_file():
            return []
        return [json.loads(line) for line in self.log.read_text(encoding="utf-8").splitlines()]


@contextmanager
def agent(
    work: Path,
    *,
    binding: str,
    version: str,
    checks: list[dict[str, str]],
    extensions: list[str],
    tls: Tls | None = None,
    client_certificate: bool = False,
) -> Iterator[Agent]:
    """Start an agent with the SDK of ``version``; the card URL to reach it is ``Agent.url``."""
    python = sdk_python(version)
    assert python is not None, f"no a2a-sdk for v{version}"
    port = free_port()
    name = f"agent-{binding.replace('+', '')}-{version}-{port}"
    scheme = "https" if tls else "http"
    host = "localhost" if tls else "127.0.0.1"
    path = "/rpc" if binding == "JSONRPC" else ("/api" if binding == "HTTP+JSON" else "")
    url = f"{scheme}://{host}:{port}{path}"
    spec = {
        "binding": binding,
        "version": version,
        "port": port,
        "url": url,
        "path": path if binding != "GRPC" else "",
        "log": str(work / f"{name}.log"),
        "ready": str(work / f"{name}.ready"),
        "checks": checks,
        "extensions": extensions,
        "tls": (
            {"cert": str(tls.cert), "key": str(tls.key), "ca": str(tls.ca), "client": client_certificate}
            if tls
            else None
        ),
    }
    spec_path = work / f"{name}.json"
    spec_path.write_text(json.dumps(spec), encoding="utf-8")
    output = (work / f"{name}.out").open("w")
    process = subprocess.Popen(
        [str(python), str(SERVER), str(spec_path)], stdout=output, stderr=subprocess.STDOUT
    )
    try:
        deadline = time.monotonic() + 60
        while not Path(spec["ready"]).exists():
            if process.poll() is not None or time.monotonic() > deadline:
                output.flush()
                raise AssertionError(f"agent did not start: {(work / f'{name}.out').read_text()}")
            time.sleep(0.1)
        yield Agent(url, Path(spec["log"]))
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        output.close()


def checks_for(kind: str, name: str | None = None) -> list[dict[str, str]]:
    """Where the agent expects the test's credential for a kind of scheme (as ``snippet_runner`` fills it)."""
    if kind == "bearer":
        return [{"kind": "header", "name": "Authorization", "value": f"Bearer {TOKEN}"}]
    if kind == "basic":
        encoded = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
        return [{"kind": "header", "name": "Authorization", "value": f"Basic {encoded}"}]
    if kind in ("header", "query", "cookie"):
        return [{"kind": kind, "name": str(name), "value": API_KEY}]
    return []  # mutual TLS: the handshake checks it


def reader_environment(tls: Tls | None) -> dict[str, str]:
    """The reader's shell: this interpreter's tools first on PATH (python3 with googleapis-common-protos, grpcurl),
    and, for the test's own CA, the trust settings each client reads."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    # shown, so that a client left open (or a deprecated httpx argument) is seen in the output
    env["PYTHONWARNINGS"] = "always::ResourceWarning,always::DeprecationWarning"
    if tls is not None:
        for variable in ("SSL_CERT_FILE", "CURL_CA_BUNDLE", "GRPC_DEFAULT_SSL_ROOTS_FILE_PATH"):
            env[variable] = str(tls.ca)
    return env


def prepare_reader_directory(directory: Path, tls: Tls | None) -> None:
    """What the page tells the reader to have beside them: a2a.proto (both versions tried by name below),
    and their client certificate."""
    directory.mkdir(parents=True, exist_ok=True)
    if tls is not None:
        (directory / "client.crt").write_bytes(tls.client_cert.read_bytes())
        (directory / "client.key").write_bytes(tls.client_key.read_bytes())


def run_snippet(
    snippet: Snippet, directory: Path, tls: Tls | None, timeout: float = 90
) -> subprocess.CompletedProcess[str]:
    """Run one request form as printed, the placeholders replaced."""
    code = snippet.code
    for placeholder, value in PLACEHOLDER_VALUES:
        code = code.replace(placeholder, value)
    env = reader_environment(tls)
    if "a2a.proto: save " in code:  # the reader downloads the proto the comment names
        version = "v0.3.0" if "/v0.3.0/" in code else "v1.0.1"
        (directory / "a2a.proto").write_bytes((PROTOS / version / "a2a.proto").read_bytes())
    if snippet.language == "python":
        program = directory / "request.py"
        program.write_text(code, encoding="utf-8")
        command = [sys.executable, str(program)]
    else:
        command = ["bash", "-c", code]
    return subprocess.run(
        command, cwd=directory, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
