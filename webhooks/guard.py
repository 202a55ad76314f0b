"""Which webhook URLs and addresses are refused (SSRF): only http(s), at most 2,048 characters, and no host
that resolves to a loopback, private, link-local, reserved, multicast or unspecified address, unless
SIEGE_WEBHOOK_ALLOW names the host or a range holding the address. Checked at registration and again at
each delivery, on the addresses then resolved, which are the ones connected to (no DNS rebinding)."""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from urllib.parse import SplitResult, urlsplit

MAX_URL_CHARS = 2048
SCHEMES = {"http": 80, "https": 443}
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
# (host, port) -> every address the name has now; socket.getaddrinfo by default, a test hands in its own
Resolve = Callable[[str, int], Sequence[str]]
# the first flag that holds names the refusal, most specific first (link-local counts as private too);
# `is_global` catches the rest (100.64/10 and the like)
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")  # RFC 6052's well-known prefix: the last 32 bits are IPv4
KINDS = ("loopback", "link_local", "site_local", "unspecified", "multicast", "reserved", "private")
UNSENDABLE = re.compile(r"[\x00-\x20\x7f]")  # no request line can carry them: refused, not retried 24 h
# getaddrinfo cannot be interrupted: it runs here, and a caller waits for it only so long (a stuck
# lookup holds one of these threads until the resolver gives up; one that timed out while queued is dropped)
_resolvers = ThreadPoolExecutor(4, thread_name_prefix="webhook-resolve")


class Refused(ValueError):
    """Why a URL or an address may not be delivered to, in a sentence a GM can act on."""


@dataclass(frozen=True, slots=True)
class Allow:
    """SIEGE_WEBHOOK_ALLOW: host names let through whatever they resolve to, and ranges of addresses."""

    hosts: frozenset[str] = field(default_factory=frozenset)
    networks: tuple[Network, ...] = ()

    def admits(self, address: Address) -> bool:
        return any(address in network for network in self.networks)


@dataclass(frozen=True, slots=True, kw_only=True)
class Target:
    """A URL taken apart: the name to send as Host and SNI, and the checked address to connect to."""

    scheme: str
    host: str
    port: int
    path: str
    address: str


def parse_allow(raw: str) -> Allow:
    """`127.0.0.1, 10.0.0.0/8, hooks.internal`: what parses as an address or a range is one, else a host."""
    hosts, networks = set(), []
    for item in (part.strip() for part in raw.split(",")):
        if not item:
            continue
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            hosts.add(item.lower().rstrip("."))
    return Allow(frozenset(hosts), tuple(networks))


def split(url: str) -> SplitResult:
    """The URL's parts, or Refused naming what is wrong with its form (nothing is resolved here)."""
    if len(url) > MAX_URL_CHARS:
        raise Refused(f"The URL is {len(url)} characters long; at most {MAX_URL_CHARS} are taken.")
    if found := UNSENDABLE.search(url):
        raise Refused(
            f"The URL holds {found[0]!r} at {found.start()}: spaces and control characters (CR, LF, NUL...) "
            "cannot be sent; percent-encode them."
        )
    try:
        parts = urlsplit(url)
        port = parts.port  # a port out of range or not a number raises here
    except ValueError as error:
        raise Refused(f"The URL cannot be read: {error}.") from None
    if port == 0:
        raise Refused("The URL names port 0, which no receiver listens on.")
    if parts.scheme.lower() not in SCHEMES:
        raise Refused(f"Only http and https URLs are delivered to, not {parts.scheme or 'a bare path'}.")
    if not parts.hostname:
        raise Refused("The URL names no host.")
    if parts.username is not None or parts.password is not None:
        raise Refused("The URL may not carry credentials; authenticate deliveries by their signature.")
    return parts


def target(url: str, allow: Allow, resolve: Resolve | None = None) -> Target:
    """Resolve the URL's host once and check every address it has; Refused names the first refused one.
    The caller connects to `address`, so what was checked is what is reached."""
    parts = split(url)
    host = str(parts.hostname).lower().rstrip(".")
    port = parts.port if parts.port is not None else SCHEMES[parts.scheme.lower()]
    addresses = _resolved(host, port, resolve or system_resolve)
    if host not in allow.hosts:
        for address in addresses:
            check_address(address, allow)
    path = parts.path or "/"
    return Target(
        scheme=parts.scheme.lower(),
        host=host,
        port=port,
        path=f"{path}?{parts.query}" if parts.query else path,
        address=str(addresses[0]),
    )


def check_address(address: Address, allow: Allow) -> None:
    if allow.admits(address):
        return
    inner = embedded_ipv4(address) if isinstance(address, ipaddress.IPv6Address) else ()
    if inner:  # ::ffff:127.0.0.1, 2002:7f00:1::, Teredo and NAT64 reach the IPv4 addresses they carry
        for embedded in inner:
            check_address(embedded, allow)
        return
    kind = next((k for k in KINDS if getattr(address, f"is_{k}", False)), None)  # site-local: IPv6 only
    if kind is None and not address.is_global:
        kind = "reserved"
    if kind is not None:
        label = kind.replace("_", "-")
        raise Refused(f"The host resolves to {address}, a {label} address, which webhooks may not reach.")


def embedded_ipv4(address: ipaddress.IPv6Address) -> tuple[ipaddress.IPv4Address, ...]:
    """The IPv4 addresses an IPv6 address carries (IPv4-mapped, 6to4, Teredo's server and client, NAT64's
    64:ff9b::/96): each is judged, since a relay or translator may deliver to it."""
    if address.ipv4_mapped is not None:
        return (address.ipv4_mapped,)
    if address.sixtofour is not None:
        return (address.sixtofour,)
    if address.teredo is not None:
        return address.teredo
    if address in NAT64:
        return (ipaddress.IPv4Address(int(address) & 0xFFFFFFFF),)
    return ()


def system_resolve(host: str, port: int) -> list[str]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


def bounded(resolve: Resolve, timeout_s: float) -> Resolve:
    """`resolve`, given at most timeout_s: past it the host counts as one that does not resolve."""

    def within(host: str, port: int) -> list[str]:
        lookup = _resolvers.submit(resolve, host, port)
        try:
            return list(lookup.result(timeout=timeout_s))
        except TimeoutError:
            lookup.cancel()  # still queued behind stuck ones: nobody waits for it any more, never run it
            raise TimeoutError(f"no answer within {timeout_s:g} s") from None

    return within


def _resolved(host: str, port: int, resolve: Resolve) -> list[Address]:
    try:
        found = [ipaddress.ip_address(a.split("%")[0]) for a in resolve(host, port)]
    except (OSError, UnicodeError, ValueError) as error:
        raise Refused(f"The host {host} does not resolve ({error}).") from None
    if not found:
        raise Refused(f"The host {host} does not resolve.")
    return found
