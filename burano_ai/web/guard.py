"""Who may ask `burano serve` for what: hosts and origins, JSON bodies, seat tokens.

- `HostGuard` (ASGI middleware): a request whose `Host` is not one of the server's names (by default this
  machine's loopback names with the server's port; more with `--allow-host`) or whose `Origin`, when sent,
  is not `http(s)://` one of them is refused (403). This keeps other web pages the user visits from driving
  the board (cross-site requests, DNS rebinding).
- `read_json_body`: a JSON body only with `Content-Type: application/json` (415 otherwise; a cross-site
  form or `text/plain` POST cannot send one without a CORS preflight, which this server never grants),
  counted as it arrives and refused past the limit (413), chunked or not.
- Tokens: `new_token()` (unguessable, `secrets.token_urlsafe`), `request_token(request)`: the token a
  request carries in its `X-Burano-Token` header or its `token` query parameter (event streams and
  downloads cannot set a header); `same_token` compares in constant time.
"""

from __future__ import annotations

import json
import secrets
from typing import Any, Iterable

#: The header a seat's (or an analysis's) token travels in.
TOKEN_HEADER = "x-burano-token"
#: This machine's names: the only hosts allowed by default.
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")


class AccessError(Exception):
    """A request refused for who is asking or how: carries its HTTP status."""

    status = 403


class NeedsToken(AccessError):
    status = 401


class WrongToken(AccessError):
    status = 403


class BodyTooLarge(AccessError):
    status = 413


class NotJson(AccessError):
    status = 415


class Busy(AccessError):
    """The server is at one of its limits (games, streams, analyses): try again later."""

    status = 429


def new_token() -> str:
    """An unguessable token (128 bits, URL-safe)."""
    return secrets.token_urlsafe(16)


def same_token(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and secrets.compare_digest(a.encode(), b.encode())


def request_token(request: Any) -> str | None:
    return request.headers.get(TOKEN_HEADER) or request.query_params.get("token") or None


# -- hosts and origins -----------------------------------------------------------------------------------

def split_host(text: str) -> tuple[str, int | None] | None:
    """`name[:port]` (an IPv6 address in brackets) -> (lower-case name, port or None); None if malformed."""
    text = text.strip().lower()
    if not text or any(c.isspace() or c in "/@?#\\" for c in text):
        return None
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            return None
        name, rest = text[:end + 1], text[end + 1:]
    else:
        name, _, port = text.partition(":")
        rest = ":" + port if _ else ""
    if not rest:
        return name, None
    if not rest.startswith(":") or not rest[1:].isdigit() or not rest[1:].isascii() or len(rest) > 6:
        return None
    return name, int(rest[1:])


def allowed_hosts(port: int | None, extra: Iterable[str] = ()) -> list[tuple[str, int | None]]:
    """The (name, port) pairs a request's Host may name: the loopback names with `port` (any port when None)
    and every `extra` name (`--allow-host`: with its port if it gives one, else on any port).

    Raises:
        ValueError: an extra name that is not `name[:port]`.
    """
    hosts: list[tuple[str, int | None]] = [(name, port) for name in LOOPBACK_NAMES]
    for text in extra:
        parsed = split_host(str(text))
        if parsed is None or not parsed[0] or parsed[0] == "[]":
            raise ValueError(f"--allow-host {text!r}: expected a host name or address, optionally with :port")
        hosts.append(parsed)
    return hosts


def host_allowed(value: str, hosts: list[tuple[str, int | None]], default_port: int) -> bool:
    parsed = split_host(value)
    if parsed is None:
        return False
    name, port = parsed
    port = default_port if port is None else port
    return any(name == n and (p is None or p == port) for n, p in hosts)


def origin_allowed(origin: str, hosts: list[tuple[str, int | None]]) -> bool:
    scheme, sep, rest = origin.partition("://")
    if not sep or scheme not in ("http", "https"):
        return False   # "null" (a sandboxed frame, a file: page) and anything else
    return host_allowed(rest, hosts, 443 if scheme == "https" else 80)


class HostGuard:
    """ASGI middleware: refuse (403, one JSON line) a request whose Host or Origin is not one of `hosts`;
    every answer says `Referrer-Policy: no-referrer`. (Plain ASGI: Starlette's BaseHTTPMiddleware would hide
    a client's disconnect from the routes.)"""

    def __init__(self, app: Any, hosts: list[tuple[str, int | None]]) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host, origin = headers.get("host"), headers.get("origin")
        problem = None
        if host is None or not host_allowed(host, self.hosts, 80):
            problem = (f"Host {_shown(host)} is not a name of this server (allowed: {self.names()}; "
                       f"the operator adds more with burano serve --allow-host NAME)")
        elif origin is not None and not origin_allowed(origin, self.hosts):
            problem = f"Origin {_shown(origin)} is not this server: requests from other sites are refused"
        if problem is None:
            async def send_no_referrer(message: dict) -> None:   # a token in a URL never leaves in a Referer
                if message["type"] == "http.response.start":
                    message = {**message, "headers": [*message.get("headers", []),
                                                      (b"referrer-policy", b"no-referrer")]}
                await send(message)
            await self.app(scope, receive, send_no_referrer if scope["type"] == "http" else send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        body = json.dumps({"error": problem}).encode()
        await send({"type": "http.response.start", "status": 403,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})

    def names(self) -> str:
        return ", ".join(n if p is None else f"{n}:{p}" for n, p in self.hosts)


def _shown(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


# -- bodies ----------------------------------------------------------------------------------------------

async def read_json_body(request: Any, max_body: int) -> dict[str, Any]:
    """The request's JSON object body, read chunk by chunk and never more than `max_body` bytes.

    Raises:
        NotJson: the Content-Type is not application/json. BodyTooLarge: more than `max_body` bytes
        (declared or sent). ValueError: empty, not JSON, not an object.
    """
    media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media != "application/json":
        raise NotJson(f"send the body as JSON with Content-Type: application/json, not {_shown(media or None)}")
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > max_body:
        raise BodyTooLarge(f"request body larger than {max_body} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > max_body:
            raise BodyTooLarge(f"request body larger than {max_body} bytes")
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw:
        raise ValueError("request body is empty: send a JSON object")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise ValueError(f"request body is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(f"request body must be a JSON object, not {type(data).__name__}")
    return data
