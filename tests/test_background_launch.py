"""The suite ends however it is launched (issue 35): started in the background (`cmd &` ignores SIGINT and
SIGQUIT) or under `nohup` (SIGHUP), the pytest process hands those ignored signals to every child. The pty
Ctrl-C test forked a `burano suggest` that inherited the ignored SIGINT, typed Ctrl-C, then waited for it
without a limit while it searched for 600 s: the session hung. tests/conftest.py now lets every child start
with a terminal's signals (`signal_helpers.keep_ignoring_for_this_process_only`), the pty child resets them
itself, and its waits are bounded (`signal_helpers.wait_child`).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
LAUNCH_IGNORING = ("import os, signal, sys\n"
                   "for s in (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP):\n"
                   "    signal.signal(s, signal.SIG_IGN)\n"
                   "os.execv(sys.executable, [sys.executable, '-m', 'pytest', *sys.argv[1:]])\n")


def descendants(root: int) -> list[int]:
    """Every process below `root` (Linux /proc), children first seen first."""
    parent = {}
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            parent[int(entry.name)] = int(fields[1])
        except (OSError, ValueError, IndexError):
            continue
    found, frontier = [], [root]
    while frontier:
        kids = [pid for pid, ppid in parent.items() if ppid in frontier]
        found += kids
        frontier = kids
    return found


@pytest.mark.skipif(not hasattr(os, "fork"), reason="a pty needs POSIX")
def test_the_pty_ctrl_c_test_passes_when_the_suite_runs_with_terminal_signals_ignored():
    proc = subprocess.Popen(
        [sys.executable, "-c", LAUNCH_IGNORING, "-q", "-p", "no:cacheprovider",
         "tests/test_suggest_live.py::test_ctrl_c_on_a_terminal_prints_the_best_move_so_far"],
        cwd=REPO, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=240)     # it hung until killed before the fix
    except subprocess.TimeoutExpired:
        for pid in descendants(proc.pid):           # the search runs in the pty's own session
            os.kill(pid, signal.SIGKILL)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=30)
        pytest.fail("the pty test hung with SIGINT/SIGQUIT/SIGHUP ignored by its launcher")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate(timeout=30)
    assert proc.returncode == 0 and "1 passed" in out, out[-3000:]


def test_the_session_still_ignores_what_its_launcher_ignored_but_children_do_not():
    """Run in a launcher that ignores SIGHUP: the pytest process keeps ignoring it (nohup's promise), and
    a child started with no preexec_fn gets the default action."""
    code = ("import signal, subprocess, sys\n"
            "sys.path.insert(0, 'tests')\n"
            "from signal_helpers import keep_ignoring_for_this_process_only\n"
            "signal.signal(signal.SIGHUP, signal.SIG_IGN)\n"
            "assert keep_ignoring_for_this_process_only() == [signal.SIGHUP]\n"
            "import os; os.kill(os.getpid(), signal.SIGHUP)\n"          # still alive: ignored here
            "child = 'import signal; print(signal.getsignal(signal.SIGHUP) == signal.SIG_DFL)'\n"
            "print(subprocess.run([sys.executable, '-c', child], capture_output=True, text=True,\n"
            "                     timeout=60).stdout.strip())\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "True", (done.returncode, done.stdout, done.stderr)
