"""OpenSpiel adapter: Venice 2099 as a Python pyspiel game (`python_venice_2099`).

Needs the ``[openspiel]`` extra (``import pyspiel``). Importing this module registers the game::

    import burano_ai.games.venice_2099.openspiel, pyspiel
    game = pyspiel.load_game("python_venice_2099(players=5)")
    state = game.new_initial_state()          # a chance node: the layout of a1 (2 players: the colour left out)

Game type: sequential, explicit stochastic chance (setup only: the 2-player colour removal, the layout
square by square, the deal card by card; spec §10.2), imperfect information (the hands and the
set-aside cards, §9), constant-sum utility (`returns()` are win shares: 1/k to each of the k winners
after the tie-break, summing to 1), terminal rewards (§10.1). Parameters: ``players`` (2-5, default 3),
``engine`` (``auto``/``core``: the compiled core's State is wrapped; ``reference``: the pure-Python
model). The rule flags are the spec's decisions (a wrapped State with other flags plays by its own Game).
Actions are our action ids (689 decisions, §10.6); chance outcomes use 0..48.

Information: ``information_state_string(p)`` is the seat's information-set key of the current position
(`State.information_state_key`: every card it cannot see hidden; compact, not a perfect-recall history);
``observation_string(p)`` is the seat's one-seat view (position JSON). ``resample_from_infostate(p,
sampler)`` draws a seed from the sampler and calls our ``State.resample(p, seed)`` (§10.3's exact
sampler); the result keeps ``information_state_string(p)``. Its OpenSpiel history is the original's: use
it for search, not replay. The out-of-turn rescue (§5.6) is a node whose `current_player` is the
drowning figure's owner. No tensors.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from burano_ai.core.errors import OptionError
from burano_ai.games.venice_2099 import rules
from burano_ai.games.venice_2099.data import CARDS_EACH, FIGURES_EACH, GRID, MAX_PLAYERS, MIN_PLAYERS

SHORT_NAME = "python_venice_2099"
#: Setup steps (N^2 + 1 layout and colour steps, the deal) and decisions (§10.8: placements + 5 a turn).
MAX_GAME_LENGTH = 400
_SEED_RANGE = 1 << 31

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Venice 2099 (burano_ai)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification={"players": 3, "engine": "auto"},
)


def rules_game_class(engine: str = "auto"):
    """Our Game class for `engine`: ``core`` or ``auto`` (compiled), ``reference``."""
    if engine in ("auto", "core"):
        from burano_ai.games.venice_2099._core import Game
        return Game
    if engine == "reference":
        from burano_ai.games.venice_2099.reference import Game
        return Game
    raise OptionError(f"engine must be auto, core or reference, not {engine!r}")


class Venice2099Game(pyspiel.Game):
    """The pyspiel Game: metadata plus the wrapped rules `Game` (`rules`)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = params.get("players", 3)
        engine = params.get("engine", "auto")
        if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise OptionError(f"{SHORT_NAME}: players must be {MIN_PLAYERS}-{MAX_PLAYERS}, not {players!r}")
        self.rules = rules_game_class(engine)(players)
        info = pyspiel.GameInfo(
            num_distinct_actions=rules.NUM_ACTIONS,
            max_chance_outcomes=rules.MAX_CHANCE_OUTCOMES,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(GAME_TYPE, info, {"players": players, "engine": engine})

    def new_initial_state(self) -> Venice2099State:
        return Venice2099State(self, self.rules.new_initial_state())

    def wrap(self, state) -> Venice2099State:
        """A pyspiel state holding a copy of our `state` (its OpenSpiel history starts empty)."""
        if state.num_players != self.num_players():
            raise OptionError(f"a {state.num_players}-player position cannot be wrapped in a "
                              f"{self.num_players()}-player {SHORT_NAME} game")
        return Venice2099State(self, state.clone())

    def make_py_observer(self, iig_obs_type=None, params=None) -> Venice2099Observer:
        if params:
            raise ValueError(f"{SHORT_NAME} observers take no parameters, got {params}")
        return Venice2099Observer(iig_obs_type)


class Venice2099State(pyspiel.State):
    """A pyspiel State around one of our States (`venice_state`)."""

    def __init__(self, game: Venice2099Game, inner) -> None:
        super().__init__(game)
        self._inner = inner

    @property
    def venice_state(self):
        return self._inner

    def current_player(self) -> int:
        return self._inner.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self._inner.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._inner.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._inner.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self._inner.action_to_string(action)

    def is_terminal(self) -> bool:
        return self._inner.is_terminal()

    def returns(self) -> list[float]:
        return list(self._inner.returns())

    def information_state_string(self, player: int | None = None) -> str:
        player = self.current_player() if player is None else player
        return f"p{player} {self._inner.information_state_key(max(player, 0)):016x}"

    def observation_string(self, player: int | None = None) -> str:
        return self._inner.to_json(None if player is None or player < 0 else player)

    def resample_from_infostate(self, player_id: int, probability_sampler) -> Venice2099State:
        """A copy whose hidden cards (for `player_id`) are redrawn with a seed from the sampler (§10.3)."""
        out = self.clone()
        seed = int(probability_sampler() * _SEED_RANGE) % _SEED_RANGE
        out._inner = self._inner.resample(player_id, seed)
        return out

    def __str__(self) -> str:
        return self._inner.to_json()


class Venice2099Observer:
    """Strings only: the information-set key for perfect-recall requests, the seat's view otherwise."""

    def __init__(self, iig_obs_type=None) -> None:
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state, player: int) -> None:
        pass

    def string_from(self, state, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_string(player)
        return state.observation_string(player)


pyspiel.register_game(GAME_TYPE, Venice2099Game)

_GAMES: dict[tuple[int, str], Venice2099Game] = {}


def game_for(num_players: int, engine: str = "auto") -> Venice2099Game:
    """A cached `Venice2099Game` for wrapping positions."""
    key = (num_players, engine)
    if key not in _GAMES:
        _GAMES[key] = Venice2099Game({"players": num_players, "engine": engine})
    return _GAMES[key]


# the longest game: 2-player colour + N^2 tiles + the deal, placements, and per turn a move step of up to
# two moves (VD-4's alternative), a buy, a card and a rescue
assert all(1 + GRID[n] ** 2 + n * CARDS_EACH[n] + n * FIGURES_EACH[n] + 5 * n * CARDS_EACH[n] < MAX_GAME_LENGTH
           for n in GRID)
