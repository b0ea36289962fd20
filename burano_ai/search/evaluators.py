"""How a search scores a leaf: one `Evaluator` protocol and its four implementations.

An iteration leaves the tree at a leaf that is not the end of the game; the evaluator says what the
seats' VP are there. Either it plays the game to its end (a **playout**) and the VP are final — exact:
the win shares are the game's `returns()` — or it stops early and the VP are estimates — the win share
goes to the highest estimate (`burano_ai.search.rewards`).

- `CorePlayout` (the default, ``Params.evaluator=None`` with ``Params.playout_policy``): the State's own
  playout with a policy (``"heuristic"`` or ``"random"``), in C for the compiled core. On a State
  without one (the pure-Python reference model) it plays uniformly at random in Python
  (`random_playout`), whatever the policy. The only evaluator the native tree can run: it says so by
  its `native_policy`.
- `PythonPlayout`: a custom playout function ``fn(state, seed)`` that plays to the end in place.
- `HorizonEstimate`: uniform random play in Python until the searching seat has completed `turns`
  turns (counted from the root, the tree's own moves included: the tree stops there too), then an
  estimate (`estimated_scores` by default).
- `LeafEstimate`: the estimate at the leaf itself, no play.

Randomness: every evaluator is a pure function of the leaf and the iteration seed. Playouts to the end
use `playout_seed(iteration seed)` (the native tree seeds its C playout the same way); play to a
horizon continues the iteration's own `random.Random(iteration seed)`, which in-tree chance sampling may
already have advanced.

The samplers here (`sample_chance_cumulative`, `sample_weighted`, `random_playout`) are the search's
own, not `burano_ai.random_play`'s: see `sample_chance_cumulative` for why. Like the whole search they
read a game through the State Protocol only (`burano_ai.core.game`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence

from burano_ai.core.game import NO_TURN, DecisionMode
from burano_ai.core.seats import CHANCE, TERMINAL
from burano_ai.core.errors import OptionError
from burano_ai.core.seeds import SEED_MASK
from burano_ai.games import has_native_interface
from burano_ai.search.rewards import estimated_scores

#: The policies of the State's own playout (`CorePlayout`).
PLAYOUT_POLICIES = ("heuristic", "random")

#: A playout function: play `state` to the end of the game in place, using `seed` for every random choice.
PlayoutFn = Callable[[Any, int], None]
#: An estimate: the estimated final VP of every seat in `state` (higher is better).
Estimate = Callable[[Any], Sequence[float]]
#: What a leaf yields: the VP of every seat, and whether they are final (True) or estimates (False).
Leaf = tuple[list[float], bool]


class Evaluator(Protocol):
    """What the search asks of a leaf evaluation (and ``str(evaluator)`` says what it is, for messages).

    Attributes:
        native_policy: the core playout policy when this evaluator is exactly the State's own C playout
            (the only leaf evaluation the native tree runs), else None.
        horizon_turns: the searching seat's turns after which an iteration stops (in the tree or in
            the evaluator) and estimates; None = never.
        note: what the search's win chances and VP mean when they are not final results (for a
            result's notes), else None.
    """

    native_policy: str | None
    horizon_turns: int | None
    note: str | None

    def evaluate(self, state, seat: int, turns: int, seed: int, rng: random.Random | None) -> Leaf:
        """Score the non-terminal leaf `state` (the iteration's world: it may be played on in place).

        Args:
            seat: the searching seat.
            turns: the turns `seat` completed in the tree in this iteration.
            seed: the iteration seed.
            rng: the iteration's ``random.Random(seed)`` if in-tree sampling has created it, else None.
        """
        ...


def playout_seed(seed: int) -> int:
    """The seed of an iteration's playout to the end (31 bits), from the iteration seed."""
    return (seed * 0x2545F491 + 0x9E3779B9) & SEED_MASK


# ------------------------------------------------------------------------------------------------
# Random play over the State API


def sample_chance_cumulative(state, rng: random.Random) -> int:
    """Draw a chance outcome of `state` with its probability by a cumulative scan.

    One ``rng.random()`` against the cumulative probabilities (``r < acc``). It is not
    `burano_ai.random_play.sample_chance` (``rng.choices``, which compares ``random() * total``): the
    two pick the same outcome only when the probabilities sum to exactly 1.0, and the cores'
    ``k / n`` probabilities often sum to 1 +- 2e-16 (more than half the chance nodes of random games),
    so switching could change a search in rare draws; this loop is also ~3x faster, and it is on the
    Python tree's hot path.
    """
    outcomes = state.chance_outcomes()
    r = rng.random()
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if r < acc:
            return action
    return outcomes[-1][0]


def random_move(state, rng: random.Random) -> tuple[int, int] | None:
    """(player, action) of a uniform random step from `state`, chance drawn by probability (one
    ``rng.random()`` either way), or None at the end; `state` is not changed."""
    player = state.current_player()
    if player == TERMINAL:
        return None
    if player == CHANCE:
        return player, sample_chance_cumulative(state, rng)
    legal = state.legal_actions()
    return player, legal[int(rng.random() * len(legal))]


def random_playout(state, seed: int) -> None:
    """Play `state` to the end with uniform random decisions and chance drawn by probability."""
    rng = random.Random(seed)
    while (step := random_move(state, rng)) is not None:
        state.apply_action(step[1])


def sample_weighted(weights: dict[int, float], rng: random.Random) -> int:
    """Draw a key with probability proportional to its weight (one ``rng.random()``, a cumulative scan
    in the dict's order; the native tree's `sample_index` in C)."""
    total = sum(weights.values())
    r = rng.random() * total
    acc = 0.0
    last = None
    for action, w in weights.items():
        acc += w
        last = action
        if r < acc:
            return action
    return last


def ends_own_turn(state, action: int, seat: int) -> bool:
    """Apply `action` (of the seat to move) to `state`; True when it ended a turn of `seat` chosen in
    the open (the turn id changed across it: `State.turn_id`, `DecisionMode.OPEN`)."""
    if state.current_player() != seat or state.decision_mode() != DecisionMode.OPEN:
        state.apply_action(action)
        return False
    turn = state.turn_id()
    state.apply_action(action)
    return turn != NO_TURN and state.turn_id() != turn


def play_to_horizon(state, rng: random.Random, seat: int, turns_left: int) -> None:
    """Uniform random play until `seat` ends `turns_left` more turns or the game ends."""
    while (step := random_move(state, rng)) is not None:
        player, action = step
        if player == CHANCE:
            state.apply_action(action)
            continue
        if ends_own_turn(state, action, seat):
            turns_left -= 1
            if turns_left <= 0:
                return


def _require_callable(value: Any, what: str) -> None:
    """Raise OptionError("<what>, not <value>") unless `value` is callable."""
    if not callable(value):
        raise OptionError(f"{what}, not {value!r}")


def function_name(fn: Any) -> str:
    """`fn` as ``module.name`` (the wrapped function of a `functools.partial`), for messages."""
    inner = getattr(fn, "func", fn)
    return f"{getattr(inner, '__module__', '?')}.{getattr(inner, '__qualname__', repr(inner))}"


def final_or_estimate(state, estimate: Estimate) -> Leaf:
    """The final VP if `state` is over, else `estimate`'s."""
    if state.current_player() == TERMINAL:
        return [float(v) for v in state.scores()], True
    return [float(v) for v in estimate(state)], False


# ------------------------------------------------------------------------------------------------
# The evaluators


@dataclass(frozen=True)
class CorePlayout:
    """The State's own playout to the end with `policy` (the compiled core's, in C); see the module doc."""

    policy: str = "heuristic"
    horizon_turns = None
    note = None

    def __post_init__(self) -> None:
        if self.policy not in PLAYOUT_POLICIES:
            raise OptionError(f"playout policy must be one of {', '.join(PLAYOUT_POLICIES)}, not {self.policy!r}")

    @property
    def native_policy(self) -> str:
        return self.policy

    def __str__(self) -> str:
        return f"the core's {self.policy} playout"

    def play(self, state, seed: int) -> None:
        """Play `state` to the end in place: in its C core when it is the compiled State of a game that
        declares "native_search" (`State.playout(seed, policy)`), else `random_playout`."""
        if has_native_interface(state):
            state.playout(seed, self.policy)
        else:
            random_playout(state, seed)

    def evaluate(self, state, seat: int, turns: int, seed: int, rng: random.Random | None) -> Leaf:
        self.play(state, playout_seed(seed))
        return final_or_estimate(state, estimated_scores)


@dataclass(frozen=True)
class PythonPlayout:
    """A custom playout to the end, ``fn(state, seed)``, in place of the State's own.

    `fn` must be picklable (a module-level function or a `functools.partial` of one) to be used with
    several workers. Should it stop before the end, the leaf is estimated with `estimated_scores`.
    """

    fn: PlayoutFn
    native_policy = None
    horizon_turns = None
    note = None

    def __post_init__(self) -> None:
        _require_callable(self.fn, "a playout must be callable(state, seed)")

    def __str__(self) -> str:
        return f"the Python playout {function_name(self.fn)}"

    def evaluate(self, state, seat: int, turns: int, seed: int, rng: random.Random | None) -> Leaf:
        self.fn(state, playout_seed(seed))
        return final_or_estimate(state, estimated_scores)


@dataclass(frozen=True)
class HorizonEstimate:
    """Uniform random play until the searching seat has completed `turns` turns, then `estimate`.

    The turns count from the root, the tree's own moves included: an iteration whose tree descent
    completes them stops there.
    """

    turns: int
    estimate: Estimate = estimated_scores
    native_policy = None

    def __post_init__(self) -> None:
        if isinstance(self.turns, bool) or not isinstance(self.turns, int) or self.turns < 1:
            raise OptionError(f"horizon turns must be a whole number >= 1, not {self.turns!r}")
        _require_callable(self.estimate, "an estimate must be callable(state) -> scores")

    def __str__(self) -> str:
        return f"a horizon of {self.turns} turn(s) with the estimate {function_name(self.estimate)}"

    @property
    def horizon_turns(self) -> int:
        return self.turns

    @property
    def note(self) -> str:
        return f"win chances and VP are estimates at the end of the seat's turn {self.turns} from now, " \
               f"not final results"

    def evaluate(self, state, seat: int, turns: int, seed: int, rng: random.Random | None) -> Leaf:
        left = self.turns - turns
        if left > 0:
            play_to_horizon(state, random.Random(seed) if rng is None else rng, seat, left)
        return final_or_estimate(state, self.estimate)


@dataclass(frozen=True)
class LeafEstimate:
    """`estimate` at the leaf itself: no play."""

    estimate: Estimate = estimated_scores
    native_policy = None
    horizon_turns = None
    note = "win chances and VP are the evaluator's estimates at the search leaves"

    def __post_init__(self) -> None:
        _require_callable(self.estimate, "an estimate must be callable(state) -> scores")

    def __str__(self) -> str:
        return f"the leaf estimate {function_name(self.estimate)}"

    def evaluate(self, state, seat: int, turns: int, seed: int, rng: random.Random | None) -> Leaf:
        return [float(v) for v in self.estimate(state)], False
