"""Start a child as a terminal would, and never wait for one without a limit.

A test runner started in the background (a non-interactive shell's `&` ignores SIGINT and SIGQUIT) or
under `nohup` (SIGHUP) hands those ignored signals to every child, and an ignored signal stays ignored
across exec: the CLI then rightly keeps ignoring the Ctrl-C or hang-up a test sends it, and the test
fails for how it was launched, not for what it checks (or, waiting for a child that never ends, hangs).

- `terminal_signals` resets them in a child before exec (`preexec_fn=terminal_signals` of
  `subprocess.Popen`; a `pty.fork` child calls it before `os.execve`).
- `keep_ignoring_for_this_process_only` (tests/conftest.py calls it when the session starts) turns each
  signal this process ignores into a no-op handler: the test runner still ignores it, as its launcher
  asked, but a handler does not survive exec, so every child any test starts (subprocess, pty, pexpect)
  begins with the default action, whether or not its test remembered `terminal_signals`.
- `wait_child` waits for a forked child at most `timeout` seconds, then kills it: no test waits forever.
"""

from __future__ import annotations

import os
import signal
import time

TERMINAL_SIGNALS = (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP)


def terminal_signals() -> None:
    """In the child, before exec: the default action for each of TERMINAL_SIGNALS."""
    for signum in TERMINAL_SIGNALS:
        signal.signal(signum, signal.SIG_DFL)


def _still_ignored(signum, frame) -> None:
    """A handler that does nothing: this process keeps ignoring the signal; an exec'd child does not."""


def keep_ignoring_for_this_process_only() -> list[int]:
    """Replace SIG_IGN by a no-op handler for each of TERMINAL_SIGNALS; return the signals changed."""
    changed = []
    for signum in TERMINAL_SIGNALS:
        if signal.getsignal(signum) == signal.SIG_IGN:
            signal.signal(signum, _still_ignored)
            changed.append(signum)
    return changed


def wait_child(pid: int, timeout: float) -> int:
    """The wait status of child `pid`, waiting at most `timeout` seconds; past that the child is killed
    (SIGKILL) and reaped, and AssertionError names the wait that would have hung."""
    end = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            return status
        if time.monotonic() >= end:
            break
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)               # SIGKILL cannot be ignored: this wait ends
    raise AssertionError(f"child {pid} still ran after {timeout:.0f} s: killed")
