"""`burano suggest` as people use it on a terminal: the live line, Ctrl-C typed on the terminal (a pty),
--allow / --avoid, and `burano --version`."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from importlib import resources
from pathlib import Path

import pytest

from signal_helpers import terminal_signals, wait_child

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = str(resources.files("burano_ai.games.burano.data").joinpath("examples/midgame-4p-C.json"))
ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")
pty = pytest.importorskip("pty")


def read_until(fd: int, pattern: bytes | None, timeout: float = 60.0) -> bytes:
    """Read the pty until `pattern` shows (escape codes removed), or with None until the child closes it;
    the timeout is a guard against hangs, not a speed check."""
    out = b""
    end = time.time() + timeout
    while time.time() < end:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:          # EIO: the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
        if pattern is not None and pattern in ANSI.sub(b"", out):
            return out
    if pattern is None:
        return out
    raise AssertionError(f"{pattern!r} did not appear; got {ANSI.sub(b'', out)[-2000:]!r}")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="a pty needs POSIX")
def test_ctrl_c_on_a_terminal_prints_the_best_move_so_far():
    env = {k: v for k, v in os.environ.items() if k != "BURANO_DEBUG_TRACEBACK"}
    env.update(PYTHONPATH=str(REPO), COLUMNS="160", LINES="40", TERM="xterm")
    pid, fd = pty.fork()
    if pid == 0:        # the child: the pty is its controlling terminal, with a terminal's signals
        terminal_signals()
        os.chdir(REPO)
        os.execve(sys.executable, [sys.executable, "-m", "cli", "suggest", EXAMPLE, "--time", "600",
                                   "--threads", "2", "--top", "3"], env)
    try:
        live = read_until(fd, b"best so far:")               # the live line, updated while searching
        assert b"it/s" in ANSI.sub(b"", live)
        os.write(fd, b"\x03")                                 # Ctrl-C typed on the terminal
        rest = ANSI.sub(b"", read_until(fd, None)).decode(errors="replace")
        status = wait_child(pid, 60)
        pid = 0
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, (status, rest)
        assert "seat C:" in rest and "plan for this turn:" in rest
        assert "interrupted (Ctrl-C)" in rest and "stopped after" in rest
        assert "margin: expected final VP minus the best other seat's" in rest
        assert "Traceback" not in rest
    finally:
        if pid:
            os.kill(pid, signal.SIGKILL)
            wait_child(pid, 10)
        os.close(fd)


def burano(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "BURANO_DEBUG_TRACEBACK"}
    env["PYTHONPATH"] = str(REPO)
    return subprocess.run([sys.executable, "-m", "cli", *args], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)


def test_allow_and_avoid():
    allowed = burano("suggest", EXAMPLE, "--iterations", "200", "--threads", "1", "--json", "--top", "99",
                     "--allow", "take m2", "--allow", "done")
    assert allowed.returncode == 0, allowed.stderr
    data = json.loads(allowed.stdout)
    assert {c["move"] for c in data["candidates"]} == {"take m2", "done"}
    assert any("searched 2 of" in note for note in data["notes"])
    avoided = burano("suggest", EXAMPLE, "--iterations", "200", "--threads", "1", "--json", "--top", "99",
                     "--avoid", data["move"])
    assert avoided.returncode == 0
    assert data["move"] not in {c["move"] for c in json.loads(avoided.stdout)["candidates"]}


@pytest.mark.parametrize("args, message", [
    (("--allow", "sail to Torcello"), "--allow: 'sail to Torcello' is not a legal move here"),
    (("--avoid", "nonsense"), "--avoid: 'nonsense' is not a legal move here"),
    (("--allow", "done", "--avoid", "done"), "--allow / --avoid leave no move to search"),
    (("--allow", " "), "--allow needs a move text"),
])
def test_bad_allow_or_avoid_is_one_error_line(args, message):
    result = burano("suggest", EXAMPLE, "--iterations", "20", *args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0], result.stderr
    assert result.stdout == ""


def test_version():
    from burano_ai import __version__
    result = burano("--version")
    assert result.returncode == 0 and result.stdout.strip() == f"burano {__version__}"


def test_margin_is_explained_in_the_help():
    result = burano("suggest", "--help")
    assert result.returncode == 0
    text = " ".join(result.stdout.split())
    assert "margin = expected final VP minus the best other seat's" in text
    assert "Ctrl-C stops the search and prints the best move so far" in text
