"""`burano serve`: run the web board on a local address with uvicorn."""

from __future__ import annotations

import threading
import webbrowser

from burano_ai.core.errors import OptionError
from burano_ai.games import DEFAULT_GAME

#: Hosts that are this machine; anything else exposes the board (and its games) to the network.
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def check_address(host: str, port: int) -> None:
    if not isinstance(host, str) or not host.strip():
        raise OptionError(f"--host must name an address, not {host!r}")
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise OptionError(f"--port must be 0 to 65535, not {port!r}")


def serve(host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False, log_level: str = "warning",
          game: str = DEFAULT_GAME) -> None:
    """Serve the board until interrupted; with `open_browser`, open it in the default browser; `game` is
    the game the new-game form offers first (`burano serve --game`)."""
    import socket

    try:
        import uvicorn

        from burano_ai.web.app import create_app
    except ImportError as exc:   # the web stack is an extra: say how to get it
        raise OptionError(f"burano serve needs the web extra: pip install 'burano-ai[web]' ({exc})") from None
    check_address(host, port)
    try:   # a taken port is a user error, reported before uvicorn starts
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as exc:
        raise OptionError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    print(f"burano serve: the board is at {url} (Ctrl-C to stop)", flush=True)
    if host not in LOCAL_HOSTS:
        print(f"burano serve: warning: listening on {host}, so other machines can reach the board and its games",
              flush=True)
    if open_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    # Event streams never end by themselves: on Ctrl-C, give open pages a moment, then close them.
    uvicorn.run(create_app(game), host=host, port=port, log_level=log_level, timeout_graceful_shutdown=1)


class BackgroundServer:
    """The board served by uvicorn in a daemon thread on a free local port (tests, benchmarks, screenshots).

    Attributes:
        app: the FastAPI app (its `state.games` holds the games). url: ``http://127.0.0.1:<port>``.
    """

    def __init__(self, app=None, start_timeout: float = 20.0) -> None:
        import socket
        import time

        import uvicorn

        from burano_ai.web.app import create_app
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.app = app if app is not None else create_app()
        self.url = f"http://127.0.0.1:{port}"
        self._server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=port, log_level="warning",
                                                     timeout_graceful_shutdown=1))
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
