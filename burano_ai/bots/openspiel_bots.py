"""OpenSpiel's bots as our Bots: `OpenSpielISMCTSBot` and `OpenSpielMCTSBot` playing the pyspiel game of the
game's OpenSpiel adapter (capability "openspiel": `GameSpec.openspiel_game`, Burano's is
`burano_ai.games.burano.openspiel`), with `NativeRolloutEvaluator` (playouts inside the wrapped State) and
`TimedISMCTSBot` and `TimedMCTSBot` (OpenSpiel's ISMCTS and MCTS with a wall-clock budget).

An adapter: it needs the ``[openspiel]`` extra (``import pyspiel``) at import time, so only the registry
imports this module (on demand, when an OpenSpiel bot is made).

Performance: OpenSpiel's random-rollout evaluator plays playouts through the pyspiel interface (one
C++ -> Python crossing per action), hence slowly; `NativeRolloutEvaluator` plays them inside the
wrapped State (the core plays out in C).
"""

from __future__ import annotations

import time
from functools import cache
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts as os_ismcts
from open_spiel.python.algorithms import mcts as os_mcts

from burano_ai.bots.base import Bot, seat_view
from burano_ai.bots.spec import BotSpec
from burano_ai.core.errors import OptionError
from burano_ai.core.seeds import SEED_MASK, derive
from burano_ai.games import DEFAULT_GAME, get_spec
from burano_ai.search.evaluators import CorePlayout

#: Playout seeds are drawn uniformly from every `SEED_BITS`-bit seed.
_SEED_RANGE = SEED_MASK + 1
#: OpenSpiel's evaluator plays uniformly at random: the State's own playout with the "random" policy.
_UNIFORM_PLAYOUT = CorePlayout("random")


def implementation_of(spec, rules_game) -> str:
    """The name of the implementation of `spec`'s game that `rules_game` is a Game of ("compiled", "reference")."""
    game_class = type(rules_game)
    return next((name for name in spec.implementations if spec.game_class(name) is game_class), "compiled")


def openspiel_game_for(game: str, rules_game):
    """The pyspiel game (`GameSpec.openspiel_game`) of `game` that wraps States of our Game `rules_game`."""
    spec = get_spec(game)
    return spec.openspiel_game(rules_game.num_players, implementation_of(spec, rules_game))


def openspiel_game_of(game: str, state):
    """The pyspiel game (`GameSpec.openspiel_game`) of `game` that wraps States like `state`."""
    return openspiel_game_for(game, state.game)


def check_wrappable(bot: Bot, rules_game) -> None:
    """`Bot.check_game` of the bots that play through the game's OpenSpiel adapter: its pyspiel game must
    hold `rules_game`'s States (`AdapterGame.check_rules`: players, actions, chance outcomes)."""
    try:
        openspiel_game_for(bot.game, rules_game).check_rules(rules_game)
    except OptionError as exc:
        raise OptionError(f"bot {bot.spec!r} cannot play this game: {exc}") from None


# ------------------------------------------------------------------------------------------------
# Evaluators


class NativeRolloutEvaluator(os_mcts.Evaluator):
    """OpenSpiel evaluator whose random playouts run inside the wrapped State (in C for the core).

    Same statistics as OpenSpiel's `RandomRolloutEvaluator` (uniform random decisions, chance by its
    probabilities, returns = win shares), without a C++ -> Python crossing per action.
    """

    def __init__(self, n_rollouts: int = 1, random_state: np.random.RandomState | None = None,
                 game: str = DEFAULT_GAME, should_stop=None) -> None:
        self.n_rollouts = n_rollouts
        self.should_stop = should_stop       # () -> bool: stop after the current rollout (at least one)
        self._random_state = random_state or np.random.RandomState()
        self._unwrap = get_spec(game).openspiel_unwrap

    def evaluate(self, state) -> np.ndarray:
        inner = self._unwrap(state)
        if inner is None:   # before the deal: nothing to say
            return np.full(state.num_players(), 1.0 / state.num_players())
        playout = _UNIFORM_PLAYOUT.play   # in C for the core, `random_playout` for the reference model
        total = np.zeros(inner.num_players)
        done = 0
        while done < self.n_rollouts and (done == 0 or self.should_stop is None or not self.should_stop()):
            s = inner.clone()
            playout(s, int(self._random_state.randint(_SEED_RANGE)))
            total += s.returns()
            done += 1
        return total / done

    def prior(self, state) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


class StoppableRandomRolloutEvaluator(os_mcts.RandomRolloutEvaluator):
    """OpenSpiel's `RandomRolloutEvaluator` (its own rollouts through pyspiel), one rollout at a time, so
    `should_stop` ends an evaluation between rollouts (after at least one)."""

    def __init__(self, n_rollouts: int = 1, random_state: np.random.RandomState | None = None,
                 should_stop=None) -> None:
        super().__init__(n_rollouts=1, random_state=random_state)
        self.rollouts = n_rollouts
        self.should_stop = should_stop

    def evaluate(self, state) -> np.ndarray:
        total, done = None, 0
        while done < self.rollouts and (done == 0 or self.should_stop is None or not self.should_stop()):
            one = super().evaluate(state)
            total = one if total is None else total + one
            done += 1
        return total / done


def make_evaluator(kind: str, n_rollouts: int, random_state: np.random.RandomState,
                   game: str = DEFAULT_GAME, should_stop=None) -> os_mcts.Evaluator:
    """``native`` (`NativeRolloutEvaluator`) or ``random`` (OpenSpiel's random rollouts); `should_stop`
    (() -> bool) ends an evaluation between rollouts."""
    if kind == "native":
        return NativeRolloutEvaluator(n_rollouts, random_state, game, should_stop)
    return StoppableRandomRolloutEvaluator(n_rollouts, random_state, should_stop)


# ------------------------------------------------------------------------------------------------
# OpenSpiel's ISMCTS with a wall-clock budget


class TimedISMCTSBot(os_ismcts.ISMCTSBot):
    """OpenSpiel's `ISMCTSBot`, unchanged, plus an optional wall-clock budget per search.

    OpenSpiel's Python ISMCTS counts simulations only; with `seconds` set, `run_search` runs simulations
    until the time is up (or `max_simulations`, whichever comes first) and `simulations` reports how
    many ran. The loop body is OpenSpiel's own (`sample_root_state`, `run_simulation`).
    """

    def __init__(self, *args: Any, seconds: float | None = None, should_stop=None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seconds = seconds
        self.should_stop = should_stop       # () -> bool: the owner's stop or cap (looked at every simulation)
        self.simulations = 0

    def _root_visited(self, legal_actions) -> bool:
        children = self._root_node.child_info
        return any(a in children and children[a].visits > 0 for a in legal_actions)

    def run_search(self, state):
        if self.seconds is None and self.should_stop is None:
            self.simulations = self._max_simulations
            return super().run_search(state)
        self.reset()
        legal_actions = state.legal_actions()
        if len(legal_actions) == 1:
            self.simulations = 0
            return [(legal_actions[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        # Until a legal root move has a visit (a first simulation may only expand the root), then until the
        # deadline or the owner's stop: OpenSpiel's final policy asserts a visited root.
        while done < self._max_simulations and (not self._root_visited(legal_actions) or (
                (deadline is None or time.perf_counter() < deadline)
                and (self.should_stop is None or not self.should_stop()))):
            self.run_simulation(self.sample_root_state(state))
            done += 1
        self.simulations = done
        if self._allow_inconsistent_action_sets:
            node = self.filter_illegals(self._root_node, legal_actions)
            return self.get_final_policy(state, node)
        return self.get_final_policy(state, self._root_node)


class _OutOfTime(Exception):
    """Raised by `TimedMCTSBot` at the start of a simulation once its time is up."""


class TimedMCTSBot(os_mcts.MCTSBot):
    """OpenSpiel's `MCTSBot`, unchanged, plus an optional wall-clock budget per search.

    OpenSpiel's MCTS runs `max_simulations` simulations in a loop of its own; with `seconds` set, the
    search stops at the start of the first simulation after the deadline (once a root move has a visit,
    as the final choice needs one): `_apply_tree_policy`, which begins every simulation, raises and
    `mcts_search` returns the tree as it stands. `simulations` reports how many ran.
    """

    def __init__(self, *args: Any, seconds: float | None = None, should_stop=None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seconds = seconds
        self.should_stop = should_stop       # () -> bool: the owner's stop or cap (looked at every simulation)
        self.simulations = 0
        self._deadline: float | None = None
        self._root = None

    def _apply_tree_policy(self, root, state):
        self._root = root
        if (((self._deadline is not None and time.perf_counter() >= self._deadline)
                or (self.should_stop is not None and self.should_stop()))
                and any(child.explore_count > 0 for child in root.children)):
            raise _OutOfTime
        return super()._apply_tree_policy(root, state)

    def mcts_search(self, state):
        self._deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        try:
            root = super().mcts_search(state)
        except _OutOfTime:
            root = self._root
        self.simulations = root.explore_count
        return root


# ------------------------------------------------------------------------------------------------
# Our Bot interface around OpenSpiel's bots


@cache
def _perfect_information(game: str) -> bool:
    """Whether `game`'s pyspiel game declares perfect information (its fewest players, compiled core)."""
    spec = get_spec(game)
    information = spec.openspiel_game(spec.min_players, "compiled").get_type().information
    return information == pyspiel.GameType.Information.PERFECT_INFORMATION

_FINAL = {"max-visit": os_ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
          "normalized": os_ismcts.ISMCTSFinalPolicyType.NORMALIZED_VISITED_COUNT,
          "max-value": os_ismcts.ISMCTSFinalPolicyType.MAX_VALUE}

#: Default UCT constant of the OpenSpiel bots: the same as our search's (rewards lie in 0..1 for both).
DEFAULT_UCT_C = 0.7


class _OpenSpielSearch(Bot):
    """What OpenSpiel's two search bots share: the budget and evaluator options (``time``, ``iterations``:
    500 unless ``time`` is given, ``c``, ``evaluator``, ``rollouts``) and a game the adapter can wrap."""

    def __init__(self, spec: BotSpec, seed: int, game: str = DEFAULT_GAME) -> None:
        super().__init__(spec, seed, game)
        o = self.options
        self.seconds = o.get("time")
        self.max_simulations = o.get("iterations", 10**9 if self.seconds is not None else 500)
        self.uct_c = o.get("c", DEFAULT_UCT_C)
        self.evaluator_kind = o.get("evaluator", "native")
        self.n_rollouts = o.get("rollouts", 1)

    def check_game(self, rules_game) -> None:
        check_wrappable(self, rules_game)


class OpenSpielISMCTSBot(_OpenSpielSearch):
    """OpenSpiel's ISMCTS (`open_spiel.python.algorithms.ismcts.ISMCTSBot`) playing for its seat.

    Each decision: wrap the seat's view (`seat_view`) in a pyspiel State and run a fresh ISMCTSBot seeded
    from our seed and decision counter. Its resampler is ``resample_from_infostate`` with a sampler drawn
    from the bot's own NumPy RNG (OpenSpiel's default sampler is seeded from the clock, which would make
    games irreproducible). Defaults: UCT, c = 0.7, 500 simulations (unless `time` is given), unlimited
    world samples, final policy max-visit (OpenSpiel's Python default), native playouts.
    """

    name = "openspiel-ismcts"

    def __init__(self, spec: BotSpec, seed: int, game: str = DEFAULT_GAME) -> None:
        if _perfect_information(game):   # OpenSpiel's ISMCTSBot asserts an imperfect-information game
            raise OptionError(f"bot 'openspiel-ismcts': OpenSpiel's ISMCTS plays imperfect-information games "
                              f"only and {get_spec(game).title} has perfect information (use openspiel-mcts)")
        super().__init__(spec, seed, game)
        o = self.options
        self.final = _FINAL[o.get("final", "max-visit")]
        self.worlds = o.get("worlds", os_ismcts.UNLIMITED_NUM_WORLD_SAMPLES)
        self.inconsistent = o.get("inconsistent", False)

    def _choose(self, state, seat: int, legal: list[int], seed: int) -> int:
        view = seat_view(state, seat)
        game = openspiel_game_of(self.game, view)
        root = game.wrap(view)
        rs = np.random.RandomState(seed)
        deadline = self.deadline()                 # the owner's cap; the spec's `time` is the bot's own budget
        # OpenSpiel's own search loop unless an owner may stop or cap this bot (then the same loop, checked)
        stop = None if deadline is None and self.stop_event is None else lambda: self.should_stop(deadline)
        bot = TimedISMCTSBot(game, make_evaluator(self.evaluator_kind, self.n_rollouts, rs, self.game, stop),
                             self.uct_c, self.max_simulations, max_world_samples=self.worlds, random_state=rs,
                             final_policy_type=self.final, allow_inconsistent_action_sets=self.inconsistent,
                             seconds=self.seconds, should_stop=stop)
        sampler = rs.uniform
        bot.set_resampler(lambda s, player: s.resample_from_infostate(player, sampler))
        action = int(bot.step(root))
        self.iterations += bot.simulations
        return action


class OpenSpielMCTSBot(_OpenSpielSearch):
    """OpenSpiel's MCTS (`open_spiel.python.algorithms.mcts.MCTSBot`) on one determinization.

    MCTS assumes perfect information, so each decision it searches one world resampled from the seat's
    view (never the true hidden state): determinized UCT with max^n backups and chance nodes sampled (in a
    perfect-information game the world is the state itself). Defaults: c = 0.7, 500 simulations (unless
    `time` is given: then as many as fit, `TimedMCTSBot`), solver off, native playouts.
    """

    name = "openspiel-mcts"

    def __init__(self, spec: BotSpec, seed: int, game: str = DEFAULT_GAME) -> None:
        super().__init__(spec, seed, game)
        self.solve = self.options.get("solve", False)

    def _choose(self, state, seat: int, legal: list[int], seed: int) -> int:
        world = seat_view(state, seat).resample(seat, derive(seed, 7))
        game = openspiel_game_of(self.game, world)
        rs = np.random.RandomState(seed)
        deadline = self.deadline()                 # the owner's cap; the spec's `time` is the bot's own budget
        stop = None if deadline is None and self.stop_event is None else lambda: self.should_stop(deadline)
        bot = TimedMCTSBot(game, self.uct_c, self.max_simulations,
                           make_evaluator(self.evaluator_kind, self.n_rollouts, rs, self.game, stop),
                           solve=self.solve, random_state=rs, seconds=self.seconds, should_stop=stop)
        action = int(bot.step(game.wrap(world)))
        self.iterations += bot.simulations
        return action
