"""Threads sharing one native tree (`NativeSearcher.run(threads=T)`, `suggest(threads=T)`).

Several threads are not bit-reproducible, so these tests check what must hold whatever the timing: the
budget is exact, the tree's statistics add up with no virtual visit left behind, a deadline or Ctrl-C
stops every thread, and nothing crashes on any kind of position. One thread is the old search bit for
bit (the golden `suggest` fixtures pin that; here: against a plain single-threaded run).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from importlib import resources
from pathlib import Path

import pytest

from burano_ai.bots import make_bot
from burano_ai.engine import suggest
from burano_ai.core.errors import OptionError
from burano_ai.games.burano.reference import Game as ReferenceGame
from burano_ai.search import Limit, Params
from burano_ai.search import parallel
from burano_ai.search.parallel import canonical_root, run_search

import fuzzing
from test_search import mid_game
from signal_helpers import terminal_signals

core = pytest.importorskip("burano_ai.games.burano._core")
native = pytest.importorskip("burano_ai.search._native")
# The tests of threads sharing the tree pass min_iteration_us=0 (always share, whatever an iteration's
# length), so that they exercise the threads on every position and machine; the fallback to one thread
# for short iterations has its own tests below.
REPO = Path(__file__).resolve().parents[1]
EXAMPLE = str(resources.files("burano_ai.games.burano.data").joinpath("examples/midgame-4p-C.json"))
NATIVE = Params(tree="native")


def to_core(ref):
    return core.Game(ref.num_players).state_from_json(ref.to_json())


@pytest.fixture(scope="module")
def mid3():
    state = to_core(mid_game(3, 21))
    seat = state.current_player()
    return canonical_root(state, seat), seat


def searcher_on(mid3, seed: int):
    """A native searcher (seeded `seed`) on the mid-game position, for its seat to move."""
    root, seat = mid3
    return native.NativeSearcher(root, seat, NATIVE, seed)


def without_elapsed(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k != "elapsed"}


def check_tree(searcher) -> None:
    """Every completed iteration is one root visit; visits never exceed availability or the parent's
    visits; every edge's mean reward lies in [0, 1] (a virtual visit left behind would break the sums)."""
    edges = searcher.edges()
    plan = searcher.summary()["plan"]
    assert sum(v[0] for v in plan.values()) == searcher.iterations - searcher.dead_ends
    for _chooser, _action, visits, value, avail in edges:
        assert 1 <= visits <= avail
        assert 0.0 <= value / visits <= 1.0

    def walk(level: dict, parent_visits: int | None) -> None:
        if parent_visits is not None:
            assert sum(v[0] for v in level.values()) <= parent_visits
        for visits, *_rest, sub in level.values():
            walk(sub, visits)

    walk(searcher.export_plan(max_nodes=10**6), None)


# ------------------------------------------------------------------------------------------------
# The native searcher


def test_two_threads_run_exactly_the_iteration_budget(mid3):
    searcher = searcher_on(mid3, 7)
    searcher.run(iterations=3000, threads=2, min_iteration_us=0)
    assert searcher.iterations == 3000
    check_tree(searcher)
    searcher.run(iterations=1001, threads=3, min_iteration_us=0)     # more threads than cores: still exact
    assert searcher.iterations == 4001
    check_tree(searcher)


def test_one_thread_is_the_single_threaded_search(mid3):
    plain = searcher_on(mid3, 5)
    plain.run(iterations=800)
    one = searcher_on(mid3, 5)
    one.run(iterations=300, threads=1)
    one.run(iterations=500, threads=1)
    assert without_elapsed(one.summary()) == without_elapsed(plain.summary())
    assert one.edges() == plain.edges()


def test_two_threads_after_one_continue_the_same_tree(mid3):
    searcher = searcher_on(mid3, 5)
    searcher.run(iterations=500, threads=1)
    searcher.run(iterations=500, threads=2, min_iteration_us=0)
    assert searcher.iterations == 1000
    check_tree(searcher)


def test_a_deadline_stops_every_thread_promptly(mid3):
    searcher = searcher_on(mid3, 1)
    before = threading.active_count()
    start = time.time()
    searcher.run(deadline=start + 0.3, threads=2, min_iteration_us=0)
    assert time.time() - start < 1.0
    assert searcher.iterations > 0 and threading.active_count() == before
    check_tree(searcher)


def test_progress_comes_from_the_calling_thread_and_ends_at_the_budget(mid3):
    seen = []
    searcher = searcher_on(mid3, 1)
    searcher.run(iterations=4000, progress=lambda done, total: seen.append((threading.get_ident(), done, total)),
                 progress_every=0.01, threads=2)
    assert {ident for ident, _done, _total in seen} == {threading.get_ident()}
    dones = [done for _ident, done, _total in seen]
    assert dones == sorted(dones) and dones[-1] == 4000 and all(total == 4000 for *_x, total in seen)


def test_an_exception_in_progress_stops_the_helpers_and_leaves_a_consistent_tree(mid3):
    """What Ctrl-C does: the calling thread raises between batches; every helper stops and is joined."""
    searcher = searcher_on(mid3, 1)
    before = threading.active_count()

    def interrupt(done, total):
        raise KeyboardInterrupt

    start = time.time()
    with pytest.raises(KeyboardInterrupt):
        searcher.run(deadline=time.time() + 60, progress=interrupt, progress_every=0.05, threads=2, min_iteration_us=0)
    assert time.time() - start < 2.0
    assert threading.active_count() == before
    check_tree(searcher)
    searcher.run(iterations=200, threads=2, min_iteration_us=0)      # the tree is still usable
    check_tree(searcher)


def test_short_iterations_fall_back_to_one_thread_bit_for_bit(mid3):
    """Issue 21 item 8: where iterations are shorter than the floor, T threads run the one-thread search."""
    plain = searcher_on(mid3, 5)
    plain.run(iterations=700)
    fell_back = searcher_on(mid3, 5)
    fell_back.run(iterations=700, threads=2, min_iteration_us=1e9)    # no iteration is that long
    assert fell_back.threads_used == 1 and fell_back.iteration_cpu_us > 0
    assert without_elapsed(fell_back.summary()) == without_elapsed(plain.summary())
    assert fell_back.edges() == plain.edges()
    shared = searcher_on(mid3, 5)
    shared.run(iterations=700, threads=2, min_iteration_us=0)         # 0: always share
    assert shared.threads_used == 2 and shared.iterations == 700
    check_tree(shared)


@pytest.mark.parametrize("budget", [1, native.PROBE_ITERATIONS // 2, native.PROBE_ITERATIONS,
                                    native.PROBE_ITERATIONS + 1])
def test_the_probe_and_the_rest_run_exactly_the_budget(mid3, budget):
    searcher = searcher_on(mid3, 5)
    searcher.run(iterations=budget, threads=2)       # the probe may end early by its wall-clock cap (load)
    assert searcher.iterations == budget
    check_tree(searcher)
    searcher.run(iterations=budget, threads=2)
    assert searcher.iterations == 2 * budget
    check_tree(searcher)


def test_a_recent_probe_verdict_is_reused(mid3, monkeypatch):
    """A run within REPROBE_SECONDS of the last probe keeps its verdict (a streamed search's chunks)."""
    searcher = searcher_on(mid3, 5)
    monkeypatch.setattr(native, "REPROBE_SECONDS", 1e9)
    monkeypatch.setattr(native, "MIN_PROBE_CPU_SHARE", 2.0)          # the first probe: busy cores
    searcher.run(iterations=300, threads=2, min_iteration_us=1e-6)
    assert searcher.threads_used == 1
    monkeypatch.setattr(native, "MIN_PROBE_CPU_SHARE", 0.0)
    searcher.run(iterations=300, threads=2, min_iteration_us=1e-6)   # reused: still one thread
    assert searcher.threads_used == 1 and searcher.iterations == 600
    monkeypatch.setattr(native, "REPROBE_SECONDS", 0.0)              # probe again: the cores now look free
    searcher.run(iterations=300, threads=2, min_iteration_us=1e-6)
    assert searcher.threads_used == 2 and searcher.iterations == 900
    check_tree(searcher)


@pytest.mark.parametrize("floor", [-1, float("nan"), float("inf"), True, "20"])
def test_bad_iteration_floors_are_refused(mid3, floor):
    with pytest.raises(ValueError, match="min_iteration_us"):
        searcher_on(mid3, 1).run(iterations=10, threads=2, min_iteration_us=floor)


def test_suggest_says_when_it_ran_one_thread_for_short_iterations(mid3, monkeypatch):
    root, _seat = mid3
    monkeypatch.setattr(native, "MIN_SHARED_ITERATION_US", 1e9)
    fell_back = suggest(root, limit=Limit(iterations=500), seed=1, threads=2)
    assert fell_back.threads == 2 and not fell_back.deterministic    # whether it falls back depends on timing
    assert any(n.startswith("ran 1 thread, not 2: an iteration took") for n in fell_back.notes), fell_back.notes
    single = suggest(root, limit=Limit(iterations=500), seed=1, threads=1)
    assert [(c.move, c.visits, c.value) for c in fell_back.candidates] == \
        [(c.move, c.visits, c.value) for c in single.candidates]
    monkeypatch.setattr(native, "MIN_SHARED_ITERATION_US", 0.0)                # always share
    assert suggest(root, limit=Limit(iterations=500), seed=1, threads=2).notes == ()


def test_busy_cores_keep_a_search_on_one_thread(mid3, monkeypatch):
    """A probe that got less than MIN_PROBE_CPU_SHARE of a core stays on one thread (here: a share no
    thread can reach), bit for bit the one-thread search, and suggest says why."""
    root, seat = mid3
    monkeypatch.setattr(native, "MIN_PROBE_CPU_SHARE", 2.0)
    plain = searcher_on(mid3, 5)
    plain.run(iterations=700)
    busy = searcher_on(mid3, 5)
    busy.run(iterations=700, threads=2, min_iteration_us=1e-6)
    assert busy.threads_used == 1 and 0 < busy.probe_cpu_share <= 1
    assert without_elapsed(busy.summary()) == without_elapsed(plain.summary())
    monkeypatch.setattr(native, "MIN_SHARED_ITERATION_US", 1e-6)
    result = suggest(root, limit=Limit(iterations=500), seed=1, threads=2)
    assert any(n.startswith("ran 1 thread, not 2: other work held the cores") for n in result.notes), result.notes


@pytest.mark.parametrize("threads", [0, -1, 1.5, True, native.MAX_THREADS + 1])
def test_bad_thread_counts_are_refused(mid3, threads):
    with pytest.raises(ValueError, match="threads"):
        searcher_on(mid3, 1).run(iterations=10, threads=threads)


# ------------------------------------------------------------------------------------------------
# Many positions


def searchable_corpus():
    """Corpus positions (2/3/4 players, every stage and phase) where the seat to move has a choice."""
    out = []
    for entry in fuzzing.corpus():
        if entry.view is not None:
            continue
        state = core.Game(entry.players).state_from_json(entry.data_json)
        if state.is_terminal() or state.is_chance_node() or len(state.legal_actions()) < 2:
            continue
        out.append((entry.category, state))
    return out


def test_two_threads_never_crash_on_the_corpus():
    positions = searchable_corpus()
    assert len({category.split()[0] for category, _s in positions}) == 3          # 2, 3 and 4 players
    assert len({category for category, _s in positions}) >= 30
    for category, state in positions:
        seat = state.current_player()
        searcher = native.NativeSearcher(canonical_root(state, seat), seat, NATIVE, 3)
        searcher.run(iterations=300, threads=2, min_iteration_us=0)
        assert searcher.iterations == 300, category
        check_tree(searcher)


# ------------------------------------------------------------------------------------------------
# run_search, suggest, the CLI and the bot


def test_suggest_reports_threads_and_determinism(mid3):
    root, _seat = mid3
    shared = suggest(root, limit=Limit(iterations=500), seed=1, threads=2)
    assert (shared.threads, shared.deterministic, shared.iterations) == (2, False, 500)
    data = shared.to_dict()
    assert data["threads"] == 2 and data["deterministic"] is False
    assert "2 threads, one tree (not reproducible)" in str(shared)
    single = suggest(root, limit=Limit(iterations=500), seed=1, threads=1)
    assert (single.threads, single.deterministic) == (1, True)
    assert single.to_dict() == {**suggest(root, limit=Limit(iterations=500), seed=1, threads=1).to_dict(),
                                "elapsed": single.to_dict()["elapsed"],
                                "iterations_per_second": single.to_dict()["iterations_per_second"]}


def test_suggest_defaults_to_every_usable_core(mid3, monkeypatch):
    root, _seat = mid3
    monkeypatch.setattr(parallel, "usable_cores", lambda: 3)
    assert suggest(root, limit=Limit(iterations=100)).threads == 3
    assert suggest(root, limit=Limit(iterations=100), workers=2).threads == 1      # root-parallel: no threads
    assert suggest(root, limit=Limit(iterations=100), params=Params(tree="python")).threads == 1
    reference = mid_game(2, 13, blind=False)                                       # the Python tree
    result = suggest(reference, limit=Limit(iterations=20), params=Params(tree="python"))
    assert result.threads == 1 and result.notes == ()


def test_usable_cores_is_at_least_one():
    assert parallel.usable_cores() >= 1


def test_threads_on_the_python_tree_run_one_thread_with_a_note():
    state = mid_game(2, 13, blind=False)                        # the reference model: the Python tree
    result = suggest(state, limit=Limit(iterations=30), seed=1, threads=2, game_factory=ReferenceGame)
    assert result.threads == 1 and result.deterministic
    assert any("ran 1 thread, not 2" in note and "native tree" in note for note in result.notes)
    core_state = to_core(state)
    summary = run_search(canonical_root(core_state, state.actor), state.actor, Limit(iterations=20),
                         Params(tree="python"), threads=2)
    assert summary["threads"] == 1 and "tree='python'" in summary["notes"][0]


@pytest.mark.parametrize("kwargs, fragment", [
    (dict(threads=0), "threads must be a whole number from 1 to 64"),
    (dict(threads=65), "threads must be a whole number from 1 to 64"),
    (dict(threads=True), "threads must be"),
    (dict(threads=2, workers=2), "choose one of them"),
])
def test_suggest_refuses_bad_thread_options(mid3, kwargs, fragment):
    root, _seat = mid3
    with pytest.raises(OptionError, match=fragment):
        suggest(root, limit=Limit(iterations=10), **kwargs)


def test_run_search_refuses_threads_with_workers(mid3):
    root, seat = mid3
    with pytest.raises(OptionError, match="choose one of them"):
        run_search(root, seat, Limit(iterations=10), Params(), threads=2, workers=2)


def test_the_bot_runs_one_thread_unless_told():
    assert make_bot("ismcts", 1).threads == 1
    assert make_bot("ismcts:threads=2", 1).threads == 2
    with pytest.raises(OptionError, match="choose one of them"):
        make_bot("ismcts:threads=2,workers=2", 1)


def test_cli_json_says_threads_and_determinism():
    from typer.testing import CliRunner
    import cli
    result = CliRunner().invoke(cli.app, ["suggest", EXAMPLE, "--iterations", "300", "--threads", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["threads"], data["deterministic"], data["iterations"]) == (2, False, 300)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="POSIX process groups")
def _wait_for_cpu(proc, seconds: float, guard: float = 120.0) -> None:
    """Until `proc` has used `seconds` of CPU time (its /proc stat), so a signal finds it searching, not still
    importing: a fixed sleep was too short on a loaded machine (the Ctrl-C came before the handler)."""
    tick = os.sysconf("SC_CLK_TCK")
    deadline = time.monotonic() + guard
    while time.monotonic() < deadline and proc.poll() is None:
        with open(f"/proc/{proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        if (int(fields[11]) + int(fields[12])) / tick >= seconds:   # utime + stime
            return
        time.sleep(0.05)


def test_ctrl_c_stops_a_threaded_search_and_prints_the_best_move_so_far():
    env = {k: v for k, v in os.environ.items() if k != "BURANO_DEBUG_TRACEBACK"}
    env["PYTHONPATH"] = str(REPO)
    proc = subprocess.Popen([sys.executable, "-m", "cli", "suggest", EXAMPLE, "--threads", "2", "--time", "600",
                             "--json"], cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True, preexec_fn=terminal_signals)
    try:
        _wait_for_cpu(proc, 2.5)                # imports, loading, and the search under way (however busy the machine)
        assert proc.poll() is None
        sent = time.time()
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=15)
        assert time.time() - sent < 10.0        # a guard against a hang, not a speed test
        assert proc.returncode == 0, (proc.returncode, err)
        assert err == b"", err.decode()
        data = json.loads(out)
        assert data["stopped"] is True and data["iterations"] >= 1 and data["threads"] == 2
        assert any("interrupted (Ctrl-C)" in note for note in data["notes"])
        assert data["move"] == data["candidates"][0]["move"]
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
