"""A real HTTP server on 127.0.0.1 whose answers a test programs, route by route.

Used by the fetch tests instead of mocking the HTTP layer: the client under test opens real sockets, so
timeouts, redirects, streaming and early disconnects behave as they do against a live agent.

    with serve() as server:
        server.route("/.well-known/agent-card.json", body={"name": "x"}, etag='"v1"')
        fetch_card(server.url("/"))
        server.requests  # what the client sent

Handlers run in daemon threads; a delayed handler waits on an event that ``stop()`` sets, so stopping
the server never waits for a slow route to finish.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import struct
import threading
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Route:
    """What the server answers on one path."""

    status: int = 200
    body: bytes = b""
    content_type: str | None = "application/json"
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0
    """Seconds to wait before answering (the status line included)."""
    location: str | None = None
    """``Location`` header, for redirects."""
    etag: str | None = None
    """Sent as ``ETag``; a request whose ``If-None-Match`` matches gets ``304 Not Modified``."""
    last_modified: str | None = None
    """Sent as ``Last-Modified``; a request whose ``If-Modified-Since`` equals it gets ``304``."""
    stream_bytes: int = 0
    """When set, the body is this many ``x`` bytes written in chunks until the client hangs up."""
    chunk_size: int = 65536
    chunk_delay: float = 0.0
    """Seconds between streamed chunks (a server that trickles its answer)."""
    declare_length: bool = True
    """Send ``Content-Length`` (for streamed bodies too); otherwise the body ends when the connection does."""
    header_drip: float = 0.0
    """When set, the headers never end: one more header byte every this many seconds until the client hangs up."""
    require_header: tuple[str, str] | None = None
    """Answer 401 unless the request carries this header with this value."""
    bytes_written: int = 0
    """Body bytes the server managed to write (streamed routes)."""
    done: threading.Event = field(default_factory=threading.Event)
    """Set when a handler for this route has finished."""


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    """Header names lower-cased."""
    body: bytes = b""
    """What a POST sent."""


class TestServer:
    """The running server: program routes, read what was requested."""

    __test__ = False  # not a pytest test class

    def __init__(self) -> None:
        self.routes: dict[str, Route] = {}
        self.requests: list[RecordedRequest] = []
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self._httpd = _Server(("127.0.0.1", 0), _Handler)
        self._httpd.owner = self
        self.port: int = self._httpd.server_address[1]
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.01})

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, path: str = "/") -> str:
        return self.origin + path

    def route(self, path: str, *, body: bytes | str | Mapping[str, Any] = b"", **options: Any) -> Route:
        """Program ``path``; a mapping body is sent as JSON, a string as UTF-8."""
        if isinstance(body, Mapping):
            body = json.dumps(body).encode()
        elif isinstance(body, str):
            body = body.encode()
        route = Route(body=body, **options)
        self.routes[path] = route
        return route

    def redirect(self, path: str, location: str, status: int = 302) -> Route:
        return self.route(path, status=status, location=location, content_type=None)

    def paths_requested(self) -> list[str]:
        with self._lock:
            return [r.path for r in self.requests]

    def record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self.stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    owner: TestServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Clients hanging up mid-answer are what several tests do on purpose."""


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""

    def do_POST(self) -> None:
        """Answered as a GET of the same path (a JSON-RPC endpoint answers what its route says)."""
        length = int(self.headers.get("Content-Length") or 0)
        self.do_GET(method="POST", body=self.rfile.read(length))

    def do_GET(self, method: str = "GET", body: bytes = b"") -> None:
        owner = self.server.owner
        owner.record(
            RecordedRequest(method, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        )
        route = owner.routes.get(self.path.split("?", 1)[0])
        try:
            if route is None:
                self._answer(404, b"not found", {"Content-Type": "text/plain"})
                return
            if route.delay and owner.stopping.wait(route.delay):
                return
            self._serve(route)
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            if route is not None:
                route.done.set()

    def _serve(self, route: Route) -> None:
        if route.header_drip:
            self.wfile.write(b"HTTP/1.1 200 OK\r\nX-Drip: ")
            while not self.server.owner.stopping.wait(route.header_drip):
                self.wfile.write(b"a")
                self.wfile.flush()
            return
        if route.require_header is not None:
            name, value = route.require_header
            if self.headers.get(name) != value:
                self._answer(401, b'{"error": "unauthorized"}', {"Content-Type": "application/json"})
                return
        headers: dict[str, str] = {}
        if route.content_type is not None:
            headers["Content-Type"] = route.content_type
        if route.location is not None:
            headers["Location"] = route.location
        if route.etag is not None:
            headers["ETag"] = route.etag
        if route.last_modified is not None:
            headers["Last-Modified"] = route.last_modified
        headers.update(route.headers)
        not_modified = (route.etag is not None and self.headers.get("If-None-Match") == route.etag) or (
            route.last_modified is not None and self.headers.get("If-Modified-Since") == route.last_modified
        )
        if not_modified:
            self._answer(304, b"", {k: v for k, v in headers.items() if k != "Content-Type"})
            return
        if not route.stream_bytes:
            self._answer(route.status, route.body, headers)
            return
        self.send_response(route.status)
        for name, value in headers.items():
            self.send_header(name, value)
        if route.declare_length:
            self.send_header("Content-Length", str(route.stream_bytes))
        self.end_headers()
        chunk = b"x" * route.chunk_size
        while route.bytes_written < route.stream_bytes:
            if route.chunk_delay and self.server.owner.stopping.wait(route.chunk_delay):
                return
            piece = chunk[: route.stream_bytes - route.bytes_written]
            self.wfile.write(piece)
            route.bytes_written += len(piece)

    def _answer(self, status: int, body: bytes, headers: Mapping[str, str]) -> None:
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        if status != 304:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body and status != 304:
            self.wfile.write(body)


@contextlib.contextmanager
def serve() -> Iterator[TestServer]:
    """A started server, stopped on exit."""
    server = TestServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


def gzip_bomb(size: int) -> bytes:
    """``size`` zero bytes, gzipped twice (``Content-Encoding: gzip, gzip``): 1 GiB is about 2.5 KB.

    Built without compressing ``size`` bytes: a fully flushed deflate segment of 1 MiB of zeros is the same
    every time, so the inner stream is that segment repeated, then the gzip trailer.
    """
    chunk = b"\0" * (1 << 20)
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    segment = deflate.compress(chunk) + deflate.flush(zlib.Z_FULL_FLUSH)
    count = max(1, size // len(chunk))
    crc = 0
    for _ in range(count):
        crc = zlib.crc32(chunk, crc)
    end = zlib.compressobj(9, zlib.DEFLATED, -15).flush(zlib.Z_FINISH)
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
    inner = header + segment * count + end + struct.pack("<II", crc, (count * len(chunk)) & 0xFFFFFFFF)
    return gzip.compress(inner, 9)
