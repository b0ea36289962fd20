"""Type stub for the compiled module burano_ai.search._native (src_cython/burano_ai/search/_native.pyx).

The SO-ISMCTS iteration loop and tree in C: `NativeSearcher`, the native tree of `burano_ai.search`
(`burano_ai.search.ismcts.make_searcher` chooses it when it can run the search). It runs any game
whose compiled State extends `burano_ai.core._game.NativeState` (the C game interface).
"""

from typing import Any, Callable, Iterable

MAX_THREADS: int    # most threads one `run` accepts
MIN_SHARED_ITERATION_US: float    # threads share the tree only when an iteration takes this much CPU time
PROBE_ITERATIONS: int    # iterations a threaded run times on the calling thread alone first
PROBE_SECONDS: float    # at most this long
REPROBE_SECONDS: float    # a run this soon after the last probe reuses its verdict
MIN_PROBE_CPU_SHARE: float    # ... and only when the calling thread got this share of a core meanwhile
ABI_VERSION: int    # the C game interface version the tree was built for (GAME_ABI_VERSION)

from burano_ai.core._game import NativeState
from burano_ai.search.params import Params

def iteration_seed(search_seed: int, iteration: int) -> int:
    """`ismcts.iteration_seed` computed in C."""

def prior(state: NativeState, player: int, legal: list[int]) -> dict[int, float] | None:
    """The game's prior through the C game interface (`GameOpsC.prior`); None where it has none."""

class NativeSearcher:
    """An SO-ISMCTS search with the iteration loop and the tree in C (`ismcts.Searcher`'s interface)."""

    root_state: NativeState
    seat: int
    num_players: int
    params: Params
    seed: int
    iterations: int
    elapsed: float
    dead_ends: int    # iterations stopped at a decision with no legal action / chance with no outcome
    threads_used: int    # threads the last run iterated with (1 after a fallback from short iterations)
    iteration_cpu_us: float    # CPU µs per iteration measured by the last threaded run's probe
    probe_cpu_share: float    # the calling thread's CPU time / wall time during that probe

    def __init__(self, root: NativeState, seat: int | str, params: Params | None = None, seed: int = 0,
                 root_actions: Iterable[int] | None = None) -> None:
        """TypeError for a root that is no NativeState; PositionError for a terminal root, a chance-node
        root or a root where `seat` has no legal action; ValueError if `seat` is not to move or the game
        was built for another interface version; OptionError if the native tree cannot run `params`."""
    def run(self, iterations: int | None = None, deadline: float | None = None,
            progress: Callable[[int, int | None], None] | None = None, progress_every: float = 0.1,
            threads: int = 1, min_iteration_us: float | None = None) -> None:
        """Run until `iterations` more iterations are done or `time.time()` passes `deadline`, on `threads`
        threads sharing this tree (1: reproducible; more: not) — or on one when the first iterations take
        less than `min_iteration_us` µs of CPU time (default MIN_SHARED_ITERATION_US; 0: always share) or
        while other work held the cores (MIN_PROBE_CPU_SHARE)."""
    @property
    def nodes(self) -> int:
        """Nodes in the tree (the root included)."""
    @property
    def memory_bytes(self) -> int:
        """Bytes allocated for the tree."""
    @staticmethod
    def node_bytes() -> tuple[int, int]:
        """(bytes of one node record, bytes of one hash slot)."""
    def export_plan(self, max_nodes: int = 20000) -> dict[int, tuple]:
        """The tree in the `tree.export_plan` format."""
    def edges(self) -> list[tuple[int, int, int, float, int]]:
        """Every edge as (chooser, action, visits, value, avail)."""
    def summary(self, max_nodes: int = 20000) -> dict[str, Any]:
        """Results in the form of `ismcts.Searcher.summary()`."""
