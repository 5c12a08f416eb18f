"""The client's address as every quota counts it, from the proxies the deployment runs.

``X-Forwarded-For`` is written by whoever sends the request: only the entries that the
deployment's own proxies wrote can be believed. ``TRUSTED_PROXIES`` says how many there are
between the client and gunicorn (0: none, the socket's peer is the client; 1: the nginx of
deploy/nginx, which *replaces* the header with the address it accepted the connection
from). With N proxies the client is the N-th entry from the right, where the outermost
trusted proxy wrote it; everything to its left is the client's own say and is ignored.

DRF's ``NUM_PROXIES`` is set from the same setting, so a DRF throttle would agree.

An IPv6 client is counted by its /64, the block one subscriber is given: rotating addresses
within it does not make a new client.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings

IPV6_PREFIX = 64


def client_address(request: Any) -> str:
    """The address the quotas count ``request`` under (a Django or a DRF request)."""
    meta = request.META
    peer = str(meta.get("REMOTE_ADDR") or "")
    proxies: int = settings.TRUSTED_PROXIES
    forwarded = meta.get("HTTP_X_FORWARDED_FOR")
    if proxies > 0 and forwarded:
        hops = [hop.strip() for hop in str(forwarded).split(",")]
        # As DRF's get_ident: with fewer entries than proxies, the leftmost, which the
        # outermost proxy that saw the request wrote.
        found = hops[-min(proxies, len(hops))]
        # An entry that is not an address was not written by a proxy of ours.
        if _parse(found) is not None:
            return _counted(found)
    return _counted(peer)


def _parse(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _counted(text: str) -> str:
    address = _parse(text)
    if address is None:
        return text  # a test client's or a Unix socket's peer: counted as it is
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{address}/{IPV6_PREFIX}", strict=False))
    return str(address)
