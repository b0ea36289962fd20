"""Where the games of a tournament run: `run_local` (this process, or a pool of spawned processes) and
`run_ray` (Ray tasks on the running cluster, else a local one). Each maps a picklable ``play(task) ->
record`` over the tasks and reports ``progress(done, total)``; records may come back in any order.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from ..errors import OptionError

Progress = Callable[[int, int], None]
#: Plays one task and returns its record (a picklable module-level function).
Play = Callable[[Any], dict[str, Any]]


def run_local(play: Play, tasks: Sequence[Any], workers: int, progress: Progress | None) -> list[dict[str, Any]]:
    """`play` each task in this process (`workers` 1) or in a pool of `workers` spawned processes."""
    total = len(tasks)
    if workers == 1 or total <= 1:
        records = []
        for task in tasks:
            records.append(play(task))
            if progress:
                progress(len(records), total)
        return records
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed
    # "spawn": the parent may run threads (a progress bar), which makes "fork" unsafe.
    ctx = multiprocessing.get_context("spawn")
    records = []
    with ProcessPoolExecutor(max_workers=min(workers, total), mp_context=ctx) as pool:
        futures = [pool.submit(play, task) for task in tasks]
        try:
            for future in as_completed(futures):
                records.append(future.result())
                if progress:
                    progress(len(records), total)
        except BaseException:
            for f in futures:
                f.cancel()
            raise
    return records


def run_ray(play: Play, tasks: Sequence[Any], workers: int, progress: Progress | None) -> list[dict[str, Any]]:
    """`play` each task as a Ray task. Uses the Ray runtime already initialised (any cluster), else starts a
    local one with `workers` CPUs (Ray >= 2.x removed `local_mode`; a local cluster is the test setup)."""
    try:
        import ray
    except ImportError as exc:
        raise OptionError(f"backend 'ray' needs Ray: pip install 'burano-ai[ray]' ({exc})") from None
    if not ray.is_initialized():
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    remote = ray.remote(num_cpus=1)(play)
    refs = [remote.remote(task) for task in tasks]
    pending = list(refs)
    done_count = 0
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        done_count += len(done)
        if progress:
            progress(done_count, len(tasks))
    return list(ray.get(refs))

