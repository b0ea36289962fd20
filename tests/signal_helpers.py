"""Start a child as a terminal would: SIGINT, SIGQUIT and SIGHUP at their default actions.

A test runner started in the background (a non-interactive shell's `&` ignores SIGINT and SIGQUIT) or
under `nohup` (SIGHUP) hands those ignored signals to every child, and an ignored signal stays ignored
across exec: the CLI then rightly keeps ignoring the Ctrl-C or hang-up a test sends it, and the test
fails for how it was launched, not for what it checks. Tests that signal a child pass
`preexec_fn=terminal_signals` to `subprocess.Popen`.
"""

from __future__ import annotations

import signal

TERMINAL_SIGNALS = (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP)


def terminal_signals() -> None:
    """In the child, before exec: the default action for each of TERMINAL_SIGNALS."""
    for signum in TERMINAL_SIGNALS:
        signal.signal(signum, signal.SIG_DFL)
