"""Tests of search/parallel.py through real processes: workers never outlive the search.

A `burano suggest --workers 2` process is started with a long budget; once its workers exist the
parent is sent SIGTERM, SIGHUP or SIGKILL, and every worker must be gone within a few seconds. The
workers are found through /proc (Linux only) and recorded before the parent dies, since an orphan is
re-parented. Each test kills its whole process group at the end, whatever happened.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from importlib import resources
from pathlib import Path

import pytest
from signal_helpers import terminal_signals

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = str(resources.files("burano_ai.games.burano.data").joinpath("examples/midgame-4p-C.json"))

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds processes through /proc")


def cli_process(*args: str) -> subprocess.Popen:
    """`burano <args>` from this checkout, in a new session (its own process group), with the default
    SIGINT, SIGQUIT and SIGHUP actions (`signal_helpers`: a test run in the background or under `nohup`
    would otherwise hand the CLI ignored signals, which it rightly keeps ignored)."""
    env = {k: v for k, v in os.environ.items() if k != "BURANO_DEBUG_TRACEBACK"}
    env["PYTHONPATH"] = str(REPO)
    return subprocess.Popen([sys.executable, "-m", "cli", *args], cwd=REPO, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=terminal_signals)


def proc_stat(pid: int) -> tuple[str, int] | None:
    """(state letter, parent pid) of a process, or None when it no longer exists."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = text[text.rindex(")") + 2:].split()
    return fields[0], int(fields[1])


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = proc_stat(int(entry.name))
            if stat is not None and stat[1] == pid:
                found.append(int(entry.name))
    return found


def is_gone(pid: int) -> bool:
    stat = proc_stat(pid)
    return stat is None or stat[0] in ("Z", "X")    # a zombie no longer runs


def wait_for_workers(parent: subprocess.Popen, count: int, timeout: float = 30.0) -> list[int]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        assert parent.poll() is None, parent.communicate()
        found = children(parent.pid)
        if len(found) >= count:
            time.sleep(0.5)         # let them reach the search
            return children(parent.pid)
        time.sleep(0.05)
    raise AssertionError("the search workers never started")


def wait_gone(pids: list[int], timeout: float = 5.0) -> list[int]:
    """The pids still running after `timeout` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        alive = [pid for pid in pids if not is_gone(pid)]
        if not alive:
            return []
        time.sleep(0.05)
    return [pid for pid in pids if not is_gone(pid)]


def kill_group(proc: subprocess.Popen, pids: list[int]) -> None:
    """Clean up after a failed test: the process group we started, and the workers we recorded."""
    for pid in [proc.pid, *pids]:
        try:
            os.killpg(proc.pid, signal.SIGKILL) if pid == proc.pid else os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    try:
        proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        pass


@contextlib.contextmanager
def _suggest_with_two_workers():
    """`burano suggest --workers 2` on the example, a long search, once its two workers run: (the process,
    the workers' pids); afterwards the process group and the workers are killed, whatever happened."""
    proc = cli_process("suggest", EXAMPLE, "--workers", "2", "--time", "600", "--json")
    workers: list[int] = []
    try:
        workers = wait_for_workers(proc, 2)
        yield proc, workers
    finally:
        kill_group(proc, workers)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_stop_the_workers(signum):
    with _suggest_with_two_workers() as (proc, workers):
        proc.send_signal(signum)
        _out, err = proc.communicate(timeout=15)
        assert wait_gone(workers) == [], f"workers {workers} outlived the parent"
        assert proc.returncode == 128 + signum, (proc.returncode, err)
        assert b"Traceback" not in err, err.decode()


def test_sigkill_of_the_parent_stops_the_workers():
    with _suggest_with_two_workers() as (proc, workers):
        proc.kill()
        proc.communicate(timeout=15)
        assert wait_gone(workers) == [], f"workers {workers} outlived the parent"


def test_ctrl_c_stops_the_workers_and_exits_130():
    with _suggest_with_two_workers() as (proc, workers):
        os.killpg(proc.pid, signal.SIGINT)      # a terminal's Ctrl-C reaches the whole process group
        _out, err = proc.communicate(timeout=15)
        assert wait_gone(workers) == []
        assert proc.returncode == 130, (proc.returncode, err)
        assert err == b"", err.decode()


def test_nohup_keeps_an_ignored_sighup_ignored():
    """Under `nohup` SIGHUP is ignored: the search must go on and answer."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    code = ("import signal, sys; signal.signal(signal.SIGHUP, signal.SIG_IGN); sys.argv[0] = 'burano'; "
            "import cli; cli.app()")
    proc = subprocess.Popen([sys.executable, "-c", code, "suggest", EXAMPLE, "--workers", "2", "--time", "3",
                             "--json"], cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    workers: list[int] = []
    try:
        workers = wait_for_workers(proc, 2)
        proc.send_signal(signal.SIGHUP)
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == 0, err.decode()
        assert b'"move"' in out
    finally:
        kill_group(proc, workers)


# ------------------------------------------------------------------------------------------------
# The portable fallback: a watchdog thread on the parent's pipe (without PR_SET_PDEATHSIG)


def _sleep_with_watchdog(pid_file: str) -> None:
    """Start the watchdog on the parent's pipe, say so by writing our pid, sleep."""
    from burano_ai.core.workers import watch_parent
    watch_parent(multiprocessing.parent_process().sentinel)
    Path(pid_file).write_text(str(os.getpid()))
    time.sleep(600)


def _middle_process(pid_file: str) -> None:
    """Start a watched grandchild, then wait to be killed."""
    multiprocessing.get_context("fork").Process(target=_sleep_with_watchdog, args=(pid_file,)).start()
    time.sleep(600)


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="needs fork")
def test_watchdog_thread_ends_a_worker_whose_parent_died(tmp_path):
    pid_file = tmp_path / "pid"
    middle = multiprocessing.get_context("fork").Process(target=_middle_process, args=(str(pid_file),))
    middle.start()
    grandchild = None
    try:
        end = time.monotonic() + 30
        while not pid_file.exists() or not pid_file.read_text():
            assert time.monotonic() < end, "the watched process never started"
            time.sleep(0.05)
        grandchild = int(pid_file.read_text())
        assert not is_gone(grandchild)
        os.kill(middle.pid, signal.SIGKILL)
        middle.join(10)
        assert wait_gone([grandchild]) == [], "the watchdog did not end the orphan"
    finally:
        for pid in (middle.pid, grandchild):
            if pid is not None:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        middle.join(5)
