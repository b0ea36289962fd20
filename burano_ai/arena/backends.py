"""Where the games of a tournament run: `run_local` (this process, or a pool of spawned processes) and
`run_ray` (Ray tasks on the running cluster, else a local one). Each plays a picklable ``play(task) ->
record`` on the tasks in order with at most `workers` games running at once, and reports each record
as it arrives (``on_record``, then ``progress(done, total)``); records may come back in any order.

A sequential test decides while games run: before a task starts, ``admit(task)`` may refuse it (the
backend then skips it and goes on with the next); a task already started is never cancelled.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from burano_ai.core.errors import OptionError
from burano_ai.core.workers import process_pool, wait_first

Progress = Callable[[int, int], None]
#: Plays one task and returns its record (a picklable module-level function).
Play = Callable[[Any], dict[str, Any]]
#: Says whether a task may still start (called in task order, just before it would start).
Admit = Callable[[Any], bool]
#: Receives each record as its game ends.
OnRecord = Callable[[dict[str, Any]], None]


class _Feed:
    """The tasks in order, minus the ones `admit` refuses at the moment they would start."""

    def __init__(self, tasks: Sequence[Any], admit: Admit | None) -> None:
        self._tasks = iter(tasks)
        self._admit = admit

    def next(self) -> Any | None:
        for task in self._tasks:
            if self._admit is None or self._admit(task):
                return task
        return None


def _report(record: dict[str, Any], records: list, total: int, on_record: OnRecord | None,
            progress: Progress | None) -> None:
    records.append(record)
    if on_record:
        on_record(record)
    if progress:
        progress(len(records), total)


def run_local(play: Play, tasks: Sequence[Any], workers: int, progress: Progress | None = None,
              admit: Admit | None = None, on_record: OnRecord | None = None) -> list[dict[str, Any]]:
    """`play` the tasks in this process (`workers` 1) or in a pool of `workers` spawned processes."""
    total = len(tasks)
    feed = _Feed(tasks, admit)
    records: list[dict[str, Any]] = []
    if workers == 1 or total <= 1:
        while (task := feed.next()) is not None:
            _report(play(task), records, total, on_record, progress)
        return records
    # The pool ends its workers on SIGTERM, SIGHUP and SIGINT, and at once on an error (core.workers).
    with process_pool(min(workers, total)) as pool:
        running: set = set()
        while True:
            while len(running) < workers and (task := feed.next()) is not None:
                running.add(pool.submit(play, task))
            if not running:
                break
            done, running = wait_first(running)
            for future in done:
                _report(future.result(), records, total, on_record, progress)
    return records


def run_ray(play: Play, tasks: Sequence[Any], workers: int, progress: Progress | None = None,
            admit: Admit | None = None, on_record: OnRecord | None = None) -> list[dict[str, Any]]:
    """`play` each task as a Ray task. Uses the Ray runtime already initialised (any cluster), else starts a
    local one with `workers` CPUs (Ray >= 2.x removed `local_mode`; a local cluster is the test setup)."""
    try:
        import ray
    except ImportError as exc:
        raise OptionError(f"backend 'ray' needs Ray: pip install 'burano-ai[ray]' ({exc})") from None
    if not ray.is_initialized():
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    remote = ray.remote(num_cpus=1)(play)
    feed = _Feed(tasks, admit)
    records: list[dict[str, Any]] = []
    pending: list = []
    while True:
        while len(pending) < workers and (task := feed.next()) is not None:
            pending.append(remote.remote(task))
        if not pending:
            return records
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            _report(ray.get(ref), records, len(tasks), on_record, progress)
