"""One native search on `compare_builds.py`'s seeded 3p mid-game root (or its 4p pyramid root), for a
profiler: callgrind counts the instructions of two builds where wall-clock noise cannot reach them.

    PYTHONPATH=TREE valgrind --tool=callgrind --cache-sim=yes --branch-sim=yes \\
        --toggle-collect='*run_batch*' python bench/native_search_once.py heuristic 1500

Arguments: the playout policy ("heuristic" or "random"; "pyramids" for the pyramid root with the
heuristic policy) and the iterations (default 20,000). Prints the tree's node count (equal builds,
equal trees). Run it with `python` itself, not a pyenv shim, under valgrind.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from compare_builds import _position  # noqa: E402

from burano_ai.search.ismcts import make_searcher  # noqa: E402
from burano_ai.search.params import Params  # noqa: E402


def main() -> None:
    which = sys.argv[1] if len(sys.argv) > 1 else "heuristic"
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 20_000
    if which == "pyramids":
        state, policy = _position(4, 7, 24), "heuristic"
    else:
        state, policy = _position(3, 5, 300), which
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
    seat = state.current_player()
    root = state.resample(seat, 3 if which != "pyramids" else 5)
    searcher = make_searcher(root, seat, Params(tree="native", playout_policy=policy), 1)
    searcher.run(iterations=iterations)
    print(searcher.nodes)


if __name__ == "__main__":
    main()
