"""Every tunable of the search in one place, with the reasoning behind each default.

Reward (what an iteration scores for each seat)
    ``reward = win_weight * win_share + (1 - win_weight) * sigmoid(margin / margin_scale)``
    where ``win_share`` is `returns()` at the end of the game (1/k for each of k tied winners) and
    ``margin`` is the seat's VP minus the best VP among the other seats. The win share is what a
    player is judged by; the margin term keeps the search informative when the win is already
    decided either way (a lost position still prefers losing by 3 to losing by 30) and breaks ties
    between equally winning moves in favour of the larger lead. With the defaults (0.7, 10), a move
    that adds 10 VP of margin is worth about as much as a 10 % higher chance to win.
    At a cut-off (see `horizon_turns` and `evaluator`) the seats' VP are estimates, and the win share
    goes to the seat(s) with the highest estimate.

Exploration
    UCB over rewards in [0, 1] with availability counts (SO-ISMCTS):
    ``mean + exploration * sqrt(ln(avail) / visits)``.

Pyramid
    The searching seat's own pyramid cubes are tree decisions ordered by a prior
    (`burano_ai.search.pyramid`) through progressive bias ``pyramid_bias * prior / (visits + 1)``.
    Other seats build in secret, so their cubes are never tree decisions: they are sampled from the
    same prior (as seen from their seat) like chance outcomes, which keeps the searching seat from
    conditioning on choices it cannot see and keeps them from reacting to the searcher's.

Playout
    An iteration leaving the tree plays the game to its end with the compiled core's playout in C.
    ``playout="heuristic"`` (the default) picks each decision by a cheap fixed preference (roofs and
    sales first, builds whose colour can act now, fishing trips by matches, ...: `heuristic_score`
    in src_cython/burano_ai/_core.pyx), uniformly at random one decision in 8;
    ``playout="random"`` picks uniformly. The heuristic playout is ~1.2-1.5x slower per playout but
    its results say far more about a move: with 400 iterations per decision it won 0.90 of 40
    two-player games against the mcts package's UCT where the uniform playout won 0.60, and it beat
    the uniform playout head to head at equal time (docs/strength.md).

Tree
    The same algorithm has two implementations (`burano_ai.search.ismcts`): the readable Python
    `Searcher`, and `burano_ai._search.NativeSearcher`, which runs whole iterations in C (1.4-2.5x the
    iterations per second mid-game, where playouts dominate; far more where they are short: see
    docs/benchmarks.md). The native tree needs the compiled core and a playout the core has in C (the
    built-in playout, `native_rollout` or `native_heuristic_rollout`) to the end of the game: no
    horizon and no evaluator. ``tree="auto"`` takes it whenever it can run the search.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

from ..errors import OptionError

#: A playout: play `state` to the end of the game in place, using `seed` for every random choice.
Rollout = Callable[[Any, int], None]
#: A cut-off evaluation: estimated final VP of every seat in `state` (higher is better).
Evaluator = Callable[[Any], Sequence[float]]

START_METHODS = ("spawn", "fork", "forkserver")
TREES = ("auto", "python", "native")
PLAYOUTS = ("heuristic", "random")


@dataclass(frozen=True)
class Params:
    """Search tunables (see the module docstring for the reward and the pyramid prior).

    Attributes:
        exploration: UCB constant c (rewards lie in [0, 1]).
        win_weight: weight of the win share in the reward; the rest is the VP-margin term.
        margin_scale: VP margin that moves the margin term from 0.5 to sigmoid(1) = 0.73.
        pyramid_bias: progressive-bias weight of the pyramid prior for the searching seat's cubes.
        playout: policy of the built-in playout (used when `rollout` is None): "heuristic" or "random"
            (see the module docstring). It needs a State with a native playout (the compiled core);
            on a State without one (the pure-Python reference model) every built-in playout is
            uniform random in Python (`ismcts.random_rollout`), whatever this says.
        rollout: a custom playout to the end of the game, ``rollout(state, seed)``, instead of the
            built-in one. Must be picklable (a module-level function or a `functools.partial` of one)
            to be used with several workers.
        evaluator: cut-off evaluation, ``evaluator(state) -> estimated final VP per seat``. Used at the
            horizon; without a horizon it replaces the playout (the leaf is evaluated directly).
            None = `burano_ai.search.ismcts.estimated_scores` (VP + (coins + privilege) / 5 + cards).
        horizon_turns: stop each iteration once the searching seat has completed this many turns
            (counting the current one) and evaluate there; None = play to the end of the game.
            Playouts up to a horizon are uniform random in Python (a custom `rollout` cannot stop
            early, so combining it with a horizon is an error).
        start_method: multiprocessing start method for several workers; None = "fork" where the
            platform has it and the process runs a single thread (cheap: no re-import), else "spawn".
        tree: which implementation runs the search (see the module docstring): "auto" = the native
            tree (C) when it can run the search, else the Python tree; "python" = always the Python
            `ismcts.Searcher`; "native" = always the native tree, and an OptionError naming the reason
            when it cannot run the search (a horizon, an evaluator, a custom rollout, or a root that is
            not a compiled `burano_ai._core.State`). Both give the same kind of result but from
            different random streams, so the same seed gives different (equally valid) searches.
    """

    exploration: float = 0.7
    win_weight: float = 0.7
    margin_scale: float = 10.0
    pyramid_bias: float = 1.0
    playout: str = "heuristic"
    rollout: Rollout | None = field(default=None, compare=False)
    evaluator: Evaluator | None = field(default=None, compare=False)
    horizon_turns: int | None = None
    start_method: str | None = None
    tree: str = "auto"

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Raise OptionError naming the first out-of-range tunable."""
        for name in ("exploration", "win_weight", "margin_scale", "pyramid_bias"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise OptionError(f"search parameter {name} must be a number, not {value!r}")
        if self.exploration < 0:
            raise OptionError(f"exploration must be >= 0, not {self.exploration}")
        if not 0.0 <= self.win_weight <= 1.0:
            raise OptionError(f"win_weight must lie in 0..1, not {self.win_weight}")
        if self.margin_scale <= 0:
            raise OptionError(f"margin_scale must be > 0, not {self.margin_scale}")
        if self.pyramid_bias < 0:
            raise OptionError(f"pyramid_bias must be >= 0, not {self.pyramid_bias}")
        if self.horizon_turns is not None:
            if isinstance(self.horizon_turns, bool) or not isinstance(self.horizon_turns, int) \
                    or self.horizon_turns < 1:
                raise OptionError(f"horizon_turns must be a whole number >= 1 or None, not {self.horizon_turns!r}")
            if self.rollout is not None:
                raise OptionError("horizon_turns needs the built-in playout: a custom rollout always plays to "
                                  "the end of the game")
        if self.rollout is not None and not callable(self.rollout):
            raise OptionError(f"rollout must be callable(state, seed), not {self.rollout!r}")
        if self.evaluator is not None and not callable(self.evaluator):
            raise OptionError(f"evaluator must be callable(state) -> scores, not {self.evaluator!r}")
        if self.start_method is not None and self.start_method not in START_METHODS:
            raise OptionError(f"start_method must be one of {', '.join(START_METHODS)}, not {self.start_method!r}")
        if self.playout not in PLAYOUTS:
            raise OptionError(f"playout must be one of {', '.join(PLAYOUTS)}, not {self.playout!r}")
        if self.tree not in TREES:
            raise OptionError(f"tree must be one of {', '.join(TREES)}, not {self.tree!r}")
        if self.tree == "native":
            if self.horizon_turns is not None:
                raise OptionError("tree='native' plays to the end of the game: horizon_turns needs tree='python'")
            if self.evaluator is not None:
                raise OptionError("tree='native' plays to the end of the game: an evaluator needs tree='python'")

    def with_(self, **changes: Any) -> Params:
        """Return a copy with some tunables changed (validated)."""
        return replace(self, **changes)

    def to_dict(self) -> dict:
        """The tunables as plain data (callables by name)."""
        def name(f: Any) -> str | None:
            if f is None:
                return None
            inner = getattr(f, "func", f)
            return f"{getattr(inner, '__module__', '?')}.{getattr(inner, '__qualname__', repr(inner))}"
        return {"exploration": self.exploration, "win_weight": self.win_weight, "margin_scale": self.margin_scale,
                "pyramid_bias": self.pyramid_bias, "playout": self.playout, "rollout": name(self.rollout),
                "evaluator": name(self.evaluator), "horizon_turns": self.horizon_turns,
                "start_method": self.start_method, "tree": self.tree}
