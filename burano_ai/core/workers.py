"""Pools of worker processes that never outlive the command that started them.

`process_pool(workers)` is the one way the services run tasks in other processes (`burano analyse
--jobs`, `burano arena --workers`): a `concurrent.futures.ProcessPoolExecutor` of spawned processes
("spawn": the parent may run threads, a progress bar, which makes "fork" unsafe) with three guarantees
that the executor alone does not give:

- **Signals end the workers first.** While the pool is open in the main thread, SIGTERM, SIGHUP and
  SIGINT to the parent terminate every worker at once (then kill any that is still alive after
  `KILL_AFTER_SECONDS`), then act as before: a default SIGTERM or SIGHUP exits through
  ``SystemExit(128 + signum)`` (so ``finally`` blocks run), SIGINT raises KeyboardInterrupt (the CLI's
  exit 130), a Python handler of the caller is called, an ignored signal stays ignored (`nohup`). Without
  this, the default action ended the parent alone while its workers finished their task, and
  ``shutdown(wait=True)`` made Ctrl-C wait for every running task.
- **Leaving the block by an exception does not wait for running tasks**: the workers are stopped, then the
  executor is shut down without waiting; a normal exit waits for the tasks as usual.
- **Workers follow a dead parent.** Each worker ignores SIGINT (Ctrl-C reaches the whole foreground
  process group; the parent decides), takes the default action on SIGTERM and SIGHUP, asks the kernel
  for SIGTERM when its parent dies (Linux `prctl(PR_SET_PDEATHSIG)`), and ends when the parent's end of
  its pipe closes (a watchdog thread): a SIGKILLed parent leaves no worker behind either.

The multiprocessing resource tracker (spawned with the first queue) ends by itself once the parent and
every worker have closed their end of its pipe, so ending the workers ends it too.

The same rules hold for the suggest workers (`search.parallel`), which fork their own processes.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import process as _futures_process
from typing import Any, Iterable, Iterator

#: Seconds a terminated worker has to end before it is killed.
KILL_AFTER_SECONDS = 0.5
#: prctl option: deliver a signal to this process when its parent thread dies (linux/prctl.h).
_PR_SET_PDEATHSIG = 1


def _signals() -> list[int]:
    return [s for s in (getattr(signal, name, None) for name in ("SIGTERM", "SIGHUP", "SIGINT")) if s is not None]


def stop_processes(procs: list[Any], grace: float = KILL_AFTER_SECONDS) -> None:
    """Terminate the processes in `procs` (multiprocessing.Process), then kill those alive after `grace` s."""
    alive = []
    for p in procs:
        try:
            if p.is_alive():
                p.terminate()
                alive.append(p)
        except (OSError, ValueError, AssertionError):    # already reaped or closed
            continue
    deadline = time.monotonic() + grace
    for p in alive:
        with contextlib.suppress(OSError, ValueError, AssertionError):
            p.join(timeout=max(0.0, deadline - time.monotonic()))
            if p.is_alive():
                p.kill()
                p.join(timeout=grace)


def _pool_processes(pool: ProcessPoolExecutor) -> list[Any]:
    # The executor keeps its processes in a private dict (pid -> Process); None once it is shut down.
    return list((getattr(pool, "_processes", None) or {}).values())


@contextlib.contextmanager
def workers_stop_on_signals(stop, signums: Iterable[int] | None = None) -> Iterator[None]:
    """While inside (in the main thread), SIGTERM, SIGHUP and SIGINT (or `signums`) call `stop()` first, then
    act as before (see the module docstring). Elsewhere this does nothing: only the main thread can set handlers.

    A signal whose handler was the default action exits the process with 128 + signum (through SystemExit, so
    `finally` blocks run; SIGINT raises KeyboardInterrupt); an ignored signal stays ignored; a Python handler
    is called after `stop()`. The previous handlers come back on exit."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous: dict[int, Any] = {}

    def on_signal(signum, frame):
        stop()
        before = previous.get(signum)
        if before is signal.default_int_handler or (signum == signal.SIGINT and before is signal.SIG_DFL):
            raise KeyboardInterrupt
        if callable(before):
            before(signum, frame)
        else:
            raise SystemExit(128 + signum)

    try:
        for signum in (_signals() if signums is None else signums):
            before = signal.getsignal(signum)
            if before is signal.SIG_IGN or before is None:     # ignored, or set outside Python: leave it
                continue
            previous[signum] = before
            signal.signal(signum, on_signal)
        yield
    finally:
        for signum, before in previous.items():
            signal.signal(signum, before)


class _LockedWakeup(_futures_process._ThreadWakeup):
    """The executor's wake-up pipe with its check-then-write and its check-then-close under one lock.

    CPython 3.11's `_ThreadWakeup.wakeup` tests `_closed` and then writes, unlocked, and at interpreter exit
    `_python_exit` wakes every executor's manager thread without the executor's lock: when a Ctrl-C had
    stopped the workers, the manager thread could close the pipe between the test and the write, and the
    exiting parent printed an `OSError: [Errno 9] Bad file descriptor` traceback (seen under load,
    tests/test_pool_signals.py). CPython 3.12 takes a lock there the same way. Our lock is the innermost one:
    nothing else is taken while it is held.
    """

    def __init__(self) -> None:
        super().__init__()
        self._burano_lock = threading.Lock()

    def close(self) -> None:
        with self._burano_lock:
            super().close()

    def wakeup(self) -> None:
        with self._burano_lock:
            super().wakeup()


class _Pool(ProcessPoolExecutor):
    """A ProcessPoolExecutor that starts a worker as one uninterruptible step.

    - The worker is born with SIGINT blocked (a blocked-signal mask is inherited through fork and exec; CPython
      starts its resource tracker the same way), so a Ctrl-C that reaches the whole process group while the
      worker is still importing (before `follow_parent` ignores SIGINT) stays pending and is then discarded,
      instead of a KeyboardInterrupt traceback from the worker's imports (seen under load in CI).
    - In the parent, SIGTERM, SIGHUP and SIGINT that arrive while a worker is being started are held and
      raised once it is started: a handler run half-way left a worker without its start-up data (an EOFError
      traceback from it).
    - Its manager thread's wake-up pipe is a `_LockedWakeup`.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        stock = getattr(self, "_executor_manager_thread_wakeup", None)
        queue = getattr(self, "_call_queue", None)
        if isinstance(stock, _futures_process._ThreadWakeup) and not isinstance(stock, _LockedWakeup) \
                and getattr(queue, "thread_wakeup", None) is stock:
            # No manager thread has it yet (it starts with the first task); the call queue wakes it too.
            locked = _LockedWakeup()
            self._executor_manager_thread_wakeup = queue.thread_wakeup = locked
            stock.close()

    def _spawn_process(self) -> None:
        held: list[int] = []
        saved: dict[int, Any] = {}
        if threading.current_thread() is threading.main_thread():
            for signum in _signals():
                before = signal.getsignal(signum)
                if before is not signal.SIG_IGN and before is not None:
                    saved[signum] = before
                    signal.signal(signum, lambda s, frame: held.append(s))
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if hasattr(signal, "pthread_sigmask") else None
        try:
            super()._spawn_process()
        finally:
            if mask is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            for signum, before in saved.items():
                signal.signal(signum, before)
            for signum in held:
                signal.raise_signal(signum)


@contextlib.contextmanager
def process_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """A ProcessPoolExecutor of `workers` spawned processes that end with the block, a signal or the parent."""
    ctx = multiprocessing.get_context("spawn")
    pool = _Pool(max_workers=workers, mp_context=ctx, initializer=follow_parent)
    finished = False

    def stop() -> None:
        stop_processes(_pool_processes(pool))

    try:
        with workers_stop_on_signals(stop):
            yield pool
            finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            stop()
            pool.shutdown(wait=False, cancel_futures=True)


#: Seconds between the parent's looks at a pool's futures (`wait_first`).
POLL_SECONDS = 0.2


def wait_first(futures: Iterable[Any], poll: float = POLL_SECONDS) -> tuple[set, set]:
    """`concurrent.futures.wait(futures, return_when=FIRST_COMPLETED)` that wakes every `poll` seconds.

    A Ctrl-C that arrives while the main thread blocks SIGINT (a worker being started, `_Pool`) is taken by
    another thread of the parent; CPython then runs the Python handler only once the main thread takes the
    GIL again, which an untimed wait never does: the parent hung with its workers (seen under load in CI,
    tests/test_pool_signals.py). Waking up lets the handler run.
    """
    from concurrent.futures import FIRST_COMPLETED, wait
    pending = set(futures)
    while True:
        done, pending = wait(pending, timeout=poll, return_when=FIRST_COMPLETED)
        if done or not pending:
            return done, pending


def follow_parent(ignore_sigint: bool = True) -> None:
    """In a worker process: end when the parent does, however it ends (see the module docstring).

    SIGTERM and SIGHUP go back to the default action (a forked worker inherits the parent's Python handlers),
    which ends the process even while it runs in C; with `ignore_sigint` (pool workers) a Ctrl-C to the process
    group is left to the parent.
    """
    if ignore_sigint:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if hasattr(signal, "pthread_sigmask"):   # born with SIGINT blocked (`_Pool`): a pending one is now discarded
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError, TypeError):
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    parent = multiprocessing.parent_process()
    sentinel = getattr(parent, "sentinel", None)
    if sentinel is not None:
        watch_parent(sentinel)


def watch_parent(sentinel) -> threading.Thread:
    """Start a daemon thread that ends this process (exit code 1) once `sentinel` is ready: the parent's
    end of a pipe, which closes when the parent dies. Checked once at once, for a parent already gone."""
    if multiprocessing.connection.wait([sentinel], timeout=0):
        os._exit(1)

    def watch() -> None:
        multiprocessing.connection.wait([sentinel])
        os._exit(1)

    thread = threading.Thread(target=watch, name="burano-parent-watch", daemon=True)
    thread.start()
    return thread
