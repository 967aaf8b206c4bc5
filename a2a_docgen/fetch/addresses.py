"""Which addresses a fetch may connect to: public unicast ones, unless the caller allows private networks.

A card URL comes from a user, but redirects and DNS answers come from the server: without a filter, a
fetch run on a CI runner or a cloud machine can be pointed at the machine itself (``127.0.0.1``), its
network (``10.0.0.1``) or the cloud metadata service (``169.254.169.254``, ``fd00:ec2::254``), and the
answer would land in the output directory. So every address a name resolves to is checked, in every
spelling (``127.1``, ``0x7f000001``, ``2130706433``, ``[::ffff:127.0.0.1]``, IPv4 inside 6to4 or NAT64
addresses), for the first URL and every redirect; the address actually connected to is checked again.

``refusal(address)`` says why an address is refused (``None``: public, allowed); ``resolve`` turns a host
name into addresses within a time limit.
"""

from __future__ import annotations

import ipaddress
import socket
import threading

__all__ = ["IPAddress", "parse_address", "refusal", "resolve"]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_SHARED = ipaddress.IPv4Network("100.64.0.0/10")
"""Shared address space (carrier-grade NAT, RFC 6598): not reachable from the internet."""
_NAT64 = (ipaddress.IPv6Network("64:ff9b::/96"), ipaddress.IPv6Network("64:ff9b:1::/48"))
"""NAT64 prefixes (RFC 6052, RFC 8215): the last 32 bits are an IPv4 address."""
_UNIQUE_LOCAL = ipaddress.IPv6Network("fc00::/7")


def parse_address(text: str) -> IPAddress | None:
    """The IP address ``text`` spells, in any spelling a resolver accepts, else ``None`` (a host name).

    ``127.0.0.1``, ``127.1``, ``0x7f000001``, ``2130706433``, ``0177.0.0.1`` and ``[::1]`` are addresses.
    """
    text = text.strip().removeprefix("[").removesuffix("]").partition("%")[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        pass
    if text and all(c in "0123456789abcdefxABCDEFX." for c in text):
        try:  # the classic inet_aton forms: fewer than four parts, hexadecimal and octal parts
            return ipaddress.IPv4Address(socket.inet_aton(text.rstrip(".")))
        except (OSError, ValueError):
            return None
    return None


def refusal(address: IPAddress) -> str | None:
    """Why a fetch must not connect to ``address`` (``"a loopback address"`` ...), or ``None`` when it may."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = _embedded_ipv4(address)
        if embedded is not None:
            reason = refusal(embedded)
            return f"{reason} (as {embedded} inside an IPv6 address)" if reason else None
        if address in _UNIQUE_LOCAL:
            return "a unique-local address"
        if address.is_site_local:
            return "a site-local address"
    elif address in _SHARED:
        return "a shared (carrier-grade NAT) address"
    for test, name in (
        (address.is_unspecified, "the unspecified address"),
        (address.is_loopback, "a loopback address"),
        (address.is_link_local, "a link-local address"),
        (address.is_multicast, "a multicast address"),
        (address.is_private, "a private address"),
        (address.is_reserved, "a reserved address"),
        (not address.is_global, "not a public address"),
    ):
        if test:
            return name
    return None


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if any(address in network for network in _NAT64):
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def resolve(host: str, port: int, timeout: float) -> list[IPAddress]:
    """The addresses ``host`` resolves to, in the resolver's order, without duplicates.

    Raises ``TimeoutError`` when the resolver takes longer than ``timeout`` seconds (it runs in a daemon
    thread, so a hung resolver never holds the process), ``OSError`` when the name does not resolve.
    """
    try:  # an address in its usual spelling needs no resolver
        return [ipaddress.ip_address(host.removeprefix("[").removesuffix("]").partition("%")[0])]
    except ValueError:
        pass
    answer: list[list[IPAddress]] = []
    failure: list[OSError] = []

    def lookup() -> None:
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except OSError as exc:
            failure.append(exc)
            return
        found: dict[IPAddress, None] = {}
        for info in infos:
            parsed = parse_address(str(info[4][0]))
            if parsed is not None:
                found.setdefault(parsed, None)
        answer.append(list(found))

    thread = threading.Thread(target=lookup, name="a2a-docgen-resolve", daemon=True)
    thread.start()
    thread.join(max(timeout, 0.0))
    if thread.is_alive():
        raise TimeoutError(f"resolving {host} took longer than {timeout:g} s")
    if failure:
        raise failure[0]
    if not answer or not answer[0]:
        raise OSError(f"{host} has no address")
    return answer[0]
