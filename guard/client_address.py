"""The address of the client a request comes from, as every rate limit of the site counts it
(failed sign-ins in `guard.login_limit`, wrong table codes in `tournaments.pages.table_link`).

Behind a reverse proxy (nginx in front of gunicorn, docs/deploy.md) `REMOTE_ADDR` is the
proxy's address for every client, so a limit counted on it would be one limit for the whole
site. The proxy appends the address it saw to `X-Forwarded-For`; the client can put anything
before it. So the header is believed only as far as the settings say it was written by our own
proxies, read from the right:

- `TRUSTED_PROXIES`: the proxies' addresses or networks (`127.0.0.1`, `10.0.0.0/8`). While the
  address at hand is one of them, the next one to the left in `X-Forwarded-For` is taken; the
  first address that is not a trusted proxy is the client. A request that reaches the app
  directly (not from a trusted proxy) is counted on its own `REMOTE_ADDR`, whatever headers it
  sends.
- `TRUSTED_PROXY_COUNT`: the number of proxies in front of the app, when their addresses are
  not fixed; the client is that many hops to the left of `REMOTE_ADDR`. Only safe when the app
  cannot be reached except through them (gunicorn on a socket or on 127.0.0.1).

With neither set (the default, and the embedded `make run`), `REMOTE_ADDR` is the client.

Why not django-ipware: its proxy count counts the hops listed in the header rather than the
proxies in front of the app, and its list of trusted proxies does not look at `REMOTE_ADDR`;
both readings are easy to set wrong, and a wrong one lets any client choose his own address
(a fresh one for every guess). The rule above is the one of werkzeug's ProxyFix and Rails'
RemoteIp, in a dozen lines with their tests (tests/project/test_client_address.py).

IPv6 clients are counted by their /64 network (`limit_key`): one household or phone holds a
whole /64 and could take a new address for every guess.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from typing import Any

from django.conf import settings

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def _networks(proxies: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(p.strip(), strict=False) for p in proxies if p.strip())


def _parse(text: str) -> Address | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # "[2001:db8::1]:443"
        text = text[1:text.index("]")]
    elif text.count(":") == 1:  # "192.0.2.1:51234"
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    mapped = getattr(address, "ipv4_mapped", None)
    return mapped or address


def _trusted(address: Address, networks: tuple[Network, ...]) -> bool:
    return any(address.version == net.version and address in net for net in networks)


def client_address(request: Any) -> str:
    """The client's address as text (see the module's docstring), or "" when the request
    names none that parses."""
    meta = getattr(request, "META", None) or {}
    remote = _parse(str(meta.get("REMOTE_ADDR", "")))
    networks = _networks(tuple(getattr(settings, "TRUSTED_PROXIES", ()) or ()))
    count = int(getattr(settings, "TRUSTED_PROXY_COUNT", 0) or 0)
    if not networks and count <= 0:
        return str(remote) if remote else ""
    forwarded = [_parse(part) for part in str(meta.get("HTTP_X_FORWARDED_FOR", "")).split(",")
                 if part.strip()]
    hops = 0
    if remote is None:
        # No address: gunicorn on a unix socket, which only our own proxy reaches. That hop
        # is trusted: the client is the address the proxy wrote.
        client = forwarded.pop() if forwarded else None
        if client is None:
            return ""
        hops = 1
    else:
        client = remote
    while forwarded:
        if networks:
            if not _trusted(client, networks):
                break
        elif hops >= count:
            break
        previous = forwarded.pop()
        if previous is None:
            # A proxy of ours writes addresses; anything else was written by the client, who
            # is then the hop that handed it on.
            break
        client = previous
        hops += 1
    return str(client)


def limit_key(request: Any) -> str:
    """What a rate limit counts the client under: his address, or for IPv6 his /64."""
    text = client_address(request)
    address = _parse(text) if text else None
    if address is None:
        return "unknown"
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)
