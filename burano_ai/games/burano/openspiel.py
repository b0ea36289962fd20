"""OpenSpiel adapter: Burano as a Python pyspiel game (`python_burano`). OpenSpiel's bots as our Bots live
in `burano_ai.bots.openspiel_bots`.

Needs the ``[openspiel]`` extra (``pip install open_spiel``; ``import pyspiel``). Importing this module
registers the game, so OpenSpiel users can write::

    import burano_ai.games.burano.openspiel, pyspiel
    game = pyspiel.load_game("python_burano(players=4)")
    state = game.new_initial_state()          # a chance node: the deal (one of 1000 setup seeds)
    game = pyspiel.load_game("python_burano(players=2,seed=7)")   # a fixed deal: the first node decides

Game type: sequential, explicit stochastic chance (draws, roof tiles, marker shuffles and the deal are
chance nodes), imperfect information, constant-sum utility (`returns()` are win shares: 1/k to each of
the k winners, 0 to the others, summing to 1), terminal rewards. Parameters: ``players`` (2-4, default
4), ``seed`` (-1: the deal is the first chance node; >= 0: that fixed deal), ``engine`` (``auto`` or
``core``: the compiled core's State is wrapped; ``reference``: the pure-Python model, slow).

Actions are our global action ids (`burano_ai.games.burano.actions`): decisions and chance outcomes share one range of
`NUM_ACTIONS` ids; the deal's outcomes are 0..999 (setup seeds) at the first node only.

Information: ``information_state_string(p)`` is the seat's information-state key of the current position
(`State.information_state_key`: everything the seat can see now, as our one-seat view holds it; compact,
so search can use it as a dictionary key). It is not a perfect-recall history: two histories that lead to
the same view share it. ``observation_string(p)`` is the readable one-seat view (position JSON).
``resample_from_infostate(p, sampler)`` draws a seed from the sampler and calls our
``State.resample(p, seed)``; the result keeps ``information_state_string(p)``. Its OpenSpiel history is
the original's (so it is not consistent with the resampled hidden parts): use it for search, not replay.
``observation_tensor(p)`` and ``information_state_tensor(p)`` are both the seat's one-seat view encoded by
`burano_ai.games.burano.observation` (float32, shape ``game.observation_tensor_shape()``: 2988 / 3240 / 3492 for 2 / 3 /
4 players; seats relative to `p`; all zeros before the deal); docs/observation.md lists the segments.

Performance: every pyspiel call crosses C++ -> Python once; ``clone`` copies the wrapped State (cheap for
the compiled core). OpenSpiel's random-rollout evaluator plays playouts through that interface, hence
slowly; `burano_ai.bots.openspiel_bots.NativeRolloutEvaluator` plays them inside the wrapped State (the
core plays out in C).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from burano_ai.core import openspiel
from burano_ai.core.errors import OptionError
from burano_ai.games.burano import actions
from burano_ai.games.burano import observation

SHORT_NAME = "python_burano"
#: Setup seeds the deal chance node chooses from (uniformly) when the game has no fixed `seed`.
DEAL_OUTCOMES = 1000
#: A generous bound on actions + chance outcomes in one game (random 4-player games take ~550-700).
MAX_GAME_LENGTH = 4000

GAME_TYPE = openspiel.game_type(SHORT_NAME, "Burano (burano_ai)", information="imperfect", min_players=2,
                                max_players=4, parameters={"players": 4, "seed": -1, "engine": "auto"},
                                tensors=True)


def rules_game_class(engine: str = "auto"):
    """Our Game class for `engine`: ``core`` or ``auto`` (the compiled `burano_ai.Game`), ``reference``."""
    if openspiel.is_reference(engine):
        from burano_ai.games.burano.reference import Game
        return Game
    from burano_ai import Game
    return Game


class BuranoState(openspiel.AdapterState):
    """A pyspiel State around one of our States (`burano_state`; None before the deal)."""

    @property
    def burano_state(self):
        """Our State (None while the deal is pending)."""
        return self._inner

    # OpenSpiel API

    def current_player(self) -> int:
        if self._inner is None:
            return pyspiel.PlayerId.CHANCE
        return self._inner.current_player()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._inner is None:
            p = 1.0 / DEAL_OUTCOMES
            return [(i, p) for i in range(DEAL_OUTCOMES)]
        return self._inner.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        if self._inner is None:
            self._inner = self.get_game().deal(int(action))
        else:
            self._inner.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if self._inner is None:
            return f"deal {action}"
        return self._inner.action_to_string(action)

    def is_terminal(self) -> bool:
        return self._inner is not None and self._inner.is_terminal()

    def returns(self) -> list[float]:
        if self._inner is None:
            return [0.0] * self.num_players()
        return list(self._inner.returns())

    def information_state_string(self, player: int | None = None) -> str:
        return information_state_string(self, self.current_player() if player is None else player)

    def observation_string(self, player: int | None = None) -> str:
        return observation_string(self, self.current_player() if player is None else player)

    def resample_from_infostate(self, player_id: int, probability_sampler) -> BuranoState:
        """A copy whose hidden parts (for `player_id`) are resampled with a seed from the sampler."""
        out = self.clone()
        if self._inner is not None:
            seed = int(probability_sampler() * openspiel.SEED_RANGE) % openspiel.SEED_RANGE
            out._inner = self._inner.resample(player_id, seed)
        return out

    def __str__(self) -> str:
        """The full position JSON (compact; OpenSpiel compares these strings in its checks). The readable
        board is ``str(state.burano_state)``."""
        if self._inner is None:
            return f"{SHORT_NAME}: before the deal"
        return self._inner.to_json()


def information_state_string(state: BuranoState, player: int) -> str:
    inner = state.burano_state
    if inner is None:
        return f"p{player} before the deal"
    key = inner.information_state_key(player)
    return f"p{player} {key:016x}" if isinstance(key, int) else f"p{player} {key}"


def observation_string(state: BuranoState, player: int) -> str:
    inner = state.burano_state
    if inner is None:
        return f"p{player} before the deal"
    return inner.to_json(player)


class BuranoObserver:
    """The PyObserver OpenSpiel's C++ side calls for information-state and observation strings and tensors.

    `tensor` is the seat's observation (`burano_ai.games.burano.observation.encode`; all zeros before the deal) and
    `dict` holds named views into it, one per segment of `observation.layout`. The observation and the
    information-state tensor are the same one-seat view (not a perfect-recall history).
    """

    def __init__(self, iig_obs_type=None, num_players: int = 4) -> None:
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.tensor = np.zeros(observation.shape(num_players), np.float32)
        self.dict: dict[str, Any] = {seg.name: self.tensor[seg.offset:seg.offset + seg.size].reshape(seg.shape)
                                     for seg in observation.layout(num_players)}

    def set_from(self, state, player: int) -> None:
        self.tensor.fill(0)
        inner = state.burano_state
        if inner is not None:
            observation.encode_view_into(self.tensor, inner.to_dict(player))

    def string_from(self, state, player: int) -> str:
        if self.perfect_recall:
            return information_state_string(state, player)
        return observation_string(state, player)


class BuranoGame(openspiel.AdapterGame):
    """The pyspiel Game: metadata plus the wrapped rules `Game` (`rules`); the shared adapter's, but for
    the deal node before our first State and the observation tensors."""

    GAME_TYPE = GAME_TYPE
    NUM_ACTIONS = actions.NUM_ACTIONS
    MAX_CHANCE_OUTCOMES = max(actions.NUM_ACTIONS, DEAL_OUTCOMES)
    MAX_GAME_LENGTH = MAX_GAME_LENGTH
    STATE_CLASS = BuranoState

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(params)
        seed = self.get_parameters()["seed"]
        self._initial = self.rules.new_initial_state(seed) if seed >= 0 else None

    def make_rules(self, params: dict[str, Any]):
        players = openspiel.check_players(SHORT_NAME, params["players"], 2, 4)
        seed = params["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise OptionError(f"{SHORT_NAME}: seed must be an integer, not {seed!r}")
        return rules_game_class(params["engine"])(players), {"players": players, "seed": seed,
                                                              "engine": params["engine"]}

    def new_initial_state(self) -> BuranoState:
        """The start: the fixed deal, or a chance node choosing the deal."""
        return BuranoState(self, None if self._initial is None else self._initial.clone())

    def deal(self, outcome: int):
        """Our State for deal outcome `outcome` (the setup seed)."""
        return self.rules.new_initial_state(outcome)

    def make_py_observer(self, iig_obs_type=None, params=None) -> BuranoObserver:
        """The observer: the seat's tensor (`burano_ai.games.burano.observation`) for every request; as strings,
        information-state keys for perfect-recall requests, views otherwise."""
        if params:
            raise ValueError(f"{SHORT_NAME} observers take no parameters, got {params}")
        return BuranoObserver(iig_obs_type, self.num_players())


pyspiel.register_game(GAME_TYPE, BuranoGame)


def game_for(num_players: int, engine: str = "auto") -> BuranoGame:
    """A cached `BuranoGame` (no fixed deal) for wrapping positions."""
    return BuranoGame.cached(players=num_players, seed=-1, engine=engine)
