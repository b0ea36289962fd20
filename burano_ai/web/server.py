"""`burano serve`: run the web board on a local address with uvicorn."""

from __future__ import annotations

import threading
import webbrowser

from burano_ai.core.errors import OptionError
from burano_ai.games import DEFAULT_GAME
from burano_ai.web.guard import allowed_hosts
from burano_ai.web.limits import ServerLimits, parse_limits, parse_trusted_proxies
from burano_ai.web.store import IN_MEMORY, GameStore, open_store

#: Hosts that are this machine; anything else exposes the board (and its games) to the network.
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def check_address(host: str, port: int) -> None:
    if not isinstance(host, str) or not host.strip():
        raise OptionError(f"--host must name an address, not {host!r}")
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise OptionError(f"--port must be 0 to 65535, not {port!r}")


def is_loopback(host: str) -> bool:
    """Whether `host` (an address or name to listen on) is this machine only."""
    import ipaddress
    if host in LOCAL_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def exposure(host: str, port: int, limits: ServerLimits, allow_hosts: list[str]) -> list[str]:
    """What a public server exposes, said when it starts (`--public`)."""
    names = ", ".join(allow_hosts) if allow_hosts else "none yet: add --allow-host NAME for each name people type"
    return [
        f"listening on {host}:{port}: every machine that reaches this address can create games, play the seats "
        f"whose tokens it holds, run analyses and open replays",
        f"accepted Host names besides this machine's: {names}",
        "plain HTTP: tokens and games cross the network unencrypted (put a TLS proxy in front for untrusted networks)",
        f"limits: {limits.max_games} games, {limits.max_streams} event streams, {limits.max_running_analyses} "
        f"analyses searching ({limits.analysis_seconds:g} s each), bots up to {limits.bot_seconds:g} s, "
        f"{limits.bot_iterations} iterations, {limits.bot_threads} threads, {limits.bot_workers} worker(s) a "
        f"decision (burano serve --limit NAME=VALUE)",
    ]


def serve(host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False, log_level: str = "warning",
          game: str = DEFAULT_GAME, public: bool = False, allow_hosts: list[str] | None = None,
          limits: list[str] | ServerLimits | None = None, store: str | None = None,
          trusted_proxies: list[str] | None = None) -> None:
    """Serve the board until interrupted; with `open_browser`, open it in the default browser; `game` is
    the game the new-game form offers first (`burano serve --game`).

    A non-loopback `host` needs `public` (`--public`); `allow_hosts`: more names the Host header may give
    (`--allow-host`); `limits`: `NAME=VALUE` items or a `ServerLimits` (`--limit`); `store`: the file the
    games are kept in across restarts (`--store`; None: `store.default_store_path()`, ":memory:": none);
    `trusted_proxies`: the reverse proxies whose `X-Forwarded-For` is believed (`--trusted-proxy`; uvicorn's
    own reading of the header, which trusts 127.0.0.1 by default, is off: a local peer's header is ignored too).
    """
    import socket

    try:
        import uvicorn

        from burano_ai.web.app import create_app
    except ImportError as exc:   # the web stack is an extra: say how to get it
        raise OptionError(f"burano serve needs the web extra: pip install 'burano-ai[web]' ({exc})") from None
    check_address(host, port)
    allow_hosts = list(allow_hosts or [])
    server_limits = limits if isinstance(limits, ServerLimits) else parse_limits(limits)
    proxies = parse_trusted_proxies(trusted_proxies)
    if not is_loopback(host) and not public:
        raise OptionError(f"--host {host} lets other machines reach the board: add --public to mean it "
                          f"(docs/web.md, \"Running it for other people\")")
    if host not in ("0.0.0.0", "::"):   # the address it listens on names it (127.0.0.2, a LAN address)
        allow_hosts.append(f"[{host}]" if ":" in host and not host.startswith("[") else host)
    try:
        allowed_hosts(port, allow_hosts)
    except ValueError as exc:
        raise OptionError(str(exc)) from None
    try:   # a taken port is a user error, reported before uvicorn starts
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as exc:
        raise OptionError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    if host in ("0.0.0.0", "::"):
        url = f"http://127.0.0.1:{port}/"
    kept = open_store(store)   # StoreError: one line, nothing written
    try:
        app = create_app(game, limits=server_limits, port=port, allow_hosts=allow_hosts, store=kept,
                         trusted_proxies=[str(net) for net in proxies])
        print(f"burano serve: the board is at {url} (Ctrl-C to stop)", flush=True)
        print(f"burano serve: {store_line(kept, len(app.state.games.games))}", flush=True)
        if not is_loopback(host):
            for line in exposure(host, port, server_limits, allow_hosts):
                print(f"burano serve: public: {line}", flush=True)
        if open_browser:
            threading.Timer(0.5, webbrowser.open, args=(url,)).start()
        uvicorn.run(app, host=host, port=port, log_level=log_level, timeout_graceful_shutdown=1, proxy_headers=False)
    finally:
        if kept is not None:
            kept.close()


def store_line(store: GameStore | None, restored: int) -> str:
    """Where the games are kept, said when the server starts."""
    if store is None:
        return f"games are kept in memory only: a restart ends them (--store {IN_MEMORY})"
    back = f"; {restored} game{'s' if restored != 1 else ''} restored (each replayed at its first request)" \
        if restored else ""
    return f"games are kept in {store.path} and survive a restart{back}"


class BackgroundServer:
    """The board served by uvicorn in a daemon thread on a free local port (tests, benchmarks, screenshots).

    Attributes:
        app: the FastAPI app (its `state.games` holds the games). url: ``http://127.0.0.1:<port>``.
    """

    def __init__(self, app=None, start_timeout: float = 20.0, **options) -> None:
        import socket
        import time

        import uvicorn

        from burano_ai.web.app import create_app
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.app = app if app is not None else create_app(port=port, **options)
        self.url = f"http://127.0.0.1:{port}"
        self._server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=port, log_level="warning",
                                                     timeout_graceful_shutdown=1, proxy_headers=False))
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + start_timeout
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)
