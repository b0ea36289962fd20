"""`burano serve`: run the web board on a local address with uvicorn."""

from __future__ import annotations

import threading
import webbrowser

from ..errors import OptionError

#: Hosts that are this machine; anything else exposes the board (and its games) to the network.
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def check_address(host: str, port: int) -> None:
    if not isinstance(host, str) or not host.strip():
        raise OptionError(f"--host must name an address, not {host!r}")
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise OptionError(f"--port must be 0 to 65535, not {port!r}")


def serve(host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False, log_level: str = "warning") -> None:
    """Serve the board until interrupted; with `open_browser`, open it in the default browser."""
    import socket

    try:
        import uvicorn

        from .app import create_app
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
    uvicorn.run(create_app(), host=host, port=port, log_level=log_level, timeout_graceful_shutdown=1)
