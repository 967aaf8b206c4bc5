"""The sockets under a fetch: only to permitted addresses, and never past the deadline of the fetch.

httpx bounds each read and each connect, not a whole answer: a server that sends one header byte every
two seconds never trips a five-second read timeout. Here every connect, TLS handshake, read and write is
given what is left of one deadline (``deadline``), so the whole fetch of a URL, headers included, ends in
time. And the host of every connection is resolved here, each address checked (``addresses.refusal``)
and the socket opened to a checked address, then checked again once connected, so a DNS answer that
changes between the check and the connect (DNS rebinding) gains nothing.

Requests that go through a proxy of the environment (``HTTPS_PROXY`` ... and ``NO_PROXY``) connect to
the proxy, which the user configured; their target host is resolved and checked here before the request
is sent, and the proxy then resolves it again (a gap the proxy's own rules must close).
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import socket
import time
import urllib.request
from collections.abc import Iterable, Iterator

import httpcore
import httpx

from a2a_docgen.fetch.addresses import IPAddress, parse_address, refusal, resolve

__all__ = ["Refused", "Router", "check_host", "deadline"]

_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "a2a_docgen_fetch_deadline", default=None
)


class Refused(Exception):
    """A connection to a non-public address was refused; ``str()`` says which address and why."""


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Every network operation inside the block ends within ``seconds`` from now, all together."""
    token = _DEADLINE.set(time.monotonic() + seconds)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def _bounded(timeout: float | None, error: type[httpcore.TimeoutException]) -> float | None:
    """``timeout`` shortened to what is left of the deadline; raises ``error`` once it has passed."""
    end = _DEADLINE.get()
    if end is None:
        return timeout
    left = end - time.monotonic()
    if left <= 0:
        raise error("the deadline of the fetch has passed")
    return min(math.inf if timeout is None else timeout, left)


def check_host(host: str, port: int, timeout: float | None) -> list[IPAddress]:
    """The addresses of ``host``; raises ``Refused`` when any of them is not public."""
    spelled = parse_address(host)
    if spelled is not None:
        _check(spelled, host)
    bound = _bounded(timeout, httpcore.ConnectTimeout)
    try:
        addresses = resolve(host, port, 30.0 if bound is None else bound)
    except TimeoutError as exc:
        raise httpcore.ConnectTimeout(str(exc)) from None
    except OSError as exc:
        raise httpcore.ConnectError(f"cannot resolve {host}: {exc.strerror or exc}") from None
    for address in addresses:
        _check(address, host)
    return addresses


def _check(address: IPAddress, host: str) -> None:
    reason = refusal(address)
    if reason is not None:
        named = "" if str(address) == host.strip("[]") else f" ({host} resolves to it)"
        raise Refused(
            f"refused to connect to {address}{named}: it is {reason}; only public addresses are fetched "
            "(--allow-private allows private networks)"
        )


class _Stream(httpcore.NetworkStream):
    """A connected socket whose every operation ends by the deadline."""

    def __init__(self, inner: httpcore.NetworkStream) -> None:
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _bounded(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, _bounded(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(
        self, ssl_context: object, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.NetworkStream:
        inner = self._inner.start_tls(
            ssl_context,  # type: ignore[arg-type]
            server_hostname,
            _bounded(timeout, httpcore.ConnectTimeout),
        )
        return _Stream(inner)

    def get_extra_info(self, info: str) -> object:
        return self._inner.get_extra_info(info)


class _Backend(httpcore.NetworkBackend):
    """Opens connections within the deadline; with ``guard``, only to public addresses."""

    def __init__(self, *, guard: bool) -> None:
        self._guard = guard
        self._inner = httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.NetworkStream:
        if not self._guard:
            stream = self._inner.connect_tcp(
                host, port, _bounded(timeout, httpcore.ConnectTimeout), local_address, socket_options
            )
            return _Stream(stream)
        failure: httpcore.ConnectError | None = None
        for address in check_host(host, port, timeout):
            try:
                stream = self._inner.connect_tcp(
                    str(address),
                    port,
                    _bounded(timeout, httpcore.ConnectTimeout),
                    local_address,
                    socket_options,
                )
            except httpcore.ConnectError as exc:
                failure = exc
                continue
            _check_peer(stream, host)
            return _Stream(stream)
        raise failure or httpcore.ConnectError(f"{host} has no address")


def _check_peer(stream: httpcore.NetworkStream, host: str) -> None:
    """The address the socket is connected to must be public too (whatever resolved it)."""
    sock = stream.get_extra_info("socket")
    peer = sock.getpeername()[0] if isinstance(sock, socket.socket) else None
    address = parse_address(str(peer)) if peer is not None else None
    try:
        if address is None:
            raise Refused(f"refused the connection to {host}: its address cannot be checked")
        _check(address, host)
    except Refused:
        stream.close()
        raise


def _transport(backend: _Backend, proxy: str | None) -> httpx.HTTPTransport:
    transport = httpx.HTTPTransport(proxy=proxy)
    # httpcore's pools take a network backend; httpx builds the pool without passing one through.
    transport._pool._network_backend = backend
    return transport


class Router(httpx.BaseTransport):
    """Direct requests through the guarded backend; requests to proxied hosts through their proxy."""

    def __init__(self, *, allow_private: bool) -> None:
        self._guard = not allow_private
        self._direct = _transport(_Backend(guard=self._guard), None)
        self._proxied: dict[str, httpx.HTTPTransport] = {}

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        proxy = _proxy_for(request.url)
        if proxy is None:
            return self._direct.handle_request(request)
        if self._guard:
            try:
                check_host(request.url.host, request.url.port or _default_port(request.url), None)
            except httpcore.ConnectTimeout as exc:
                raise httpx.ConnectTimeout(str(exc), request=request) from None
            except httpcore.ConnectError as exc:
                raise httpx.ConnectError(
                    f"{exc}; the address must be checked before the proxy is asked", request=request
                ) from None
        transport = self._proxied.get(proxy)
        if transport is None:
            transport = self._proxied[proxy] = _transport(_Backend(guard=False), proxy)
        return transport.handle_request(request)

    def close(self) -> None:
        self._direct.close()
        for transport in self._proxied.values():
            transport.close()


def _default_port(url: httpx.URL) -> int:
    return 443 if url.scheme == "https" else 80


def _proxy_for(url: httpx.URL) -> str | None:
    """The proxy the environment names for ``url`` (as curl and httpx read it), or ``None``."""
    proxies = urllib.request.getproxies_environment()
    bypass = urllib.request.proxy_bypass_environment  # type: ignore[attr-defined]  # not in typeshed
    if not proxies or bypass(url.host, proxies):
        return None
    return proxies.get(url.scheme) or proxies.get("all")
