"""Which browser origins may open a socket: the server's public origin(s), and only those.

A page from another site must not drive a player's seat with the player's token, so the
handshake compares the ``Origin`` header (scheme, host and port) with the configured public
origins (``UNO_PUBLIC_ORIGINS``, ``--public-origin``). The request's own ``Host`` proves
nothing: whoever sends the request chooses it. Without a setting, the public origin is
the one the server was started with: ``http://`` its host and the port it listens on (for
a loopback host, each loopback name; for a wildcard host, the address a connection came
in on). Clients without ``Origin`` (bots, native apps) are not browsers and pass; their
token is the proof of a seat.
"""

from __future__ import annotations

from urllib.parse import urlsplit

_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
_LOOPBACK = ("127.0.0.1", "localhost", "::1")
_WILDCARD = ("0.0.0.0", "::", "")


def normal_origin(origin: str) -> str | None:
    """``scheme://host[:port]`` in lower case without a default port, or None for anything
    that is not an origin (``null``, a path, no host)."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if scheme not in ("http", "https") or not host or parts.path not in ("", "/"):
        return None
    if parts.query or parts.fragment or parts.username or parts.password:
        return None
    return _origin(scheme, host, port)


def _origin(scheme: str, host: str, port: int | None) -> str:
    netloc = f"[{host}]" if ":" in host else host
    if port is not None and port != _DEFAULT_PORTS[scheme]:
        netloc += f":{port}"
    return f"{scheme}://{netloc}"


def started_origins(host: str, port: int, local_address: str | None) -> set[str]:
    """The origins of a server started on ``host`` listening on ``port``; ``local_address``:
    the address the connection arrived on (used for a wildcard host)."""
    hosts = {host.lower().strip("[]")}
    if hosts & set(_WILDCARD):
        hosts = {local_address.lower()} if local_address else set()
    if hosts & set(_LOOPBACK):
        hosts |= set(_LOOPBACK)
    return {_origin("http", h, port) for h in hosts}


def allowed_origins(
    public: list[str], extra: list[str], host: str, port: int, local_address: str | None
) -> set[str] | None:
    """The origins allowed on the socket; None: any (``"*"`` among the extra ones)."""
    if "*" in extra:
        return None
    configured = {o for o in map(normal_origin, [*public, *extra]) if o is not None}
    if public:
        return configured
    return configured | started_origins(host, port, local_address)


def origin_allowed(origin: str | None, allowed: set[str] | None) -> bool:
    """No ``Origin`` passes (not a browser); otherwise it must be an allowed origin."""
    if origin is None or allowed is None:
        return True
    normal = normal_origin(origin)
    return normal is not None and normal in allowed
