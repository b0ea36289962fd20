"""OpenSpiel adapter: Walking in Burano as a Python pyspiel game (`python_walking_in_burano`).

Needs the ``[openspiel]`` extra (``import pyspiel``). Importing this module registers the game::

    import burano_ai.games.walking_in_burano.openspiel, pyspiel
    game = pyspiel.load_game("python_walking_in_burano(players=3)")
    state = game.new_initial_state()          # a chance node: the first setup deal

Game type: sequential, explicit stochastic chance (the setup deals, the first player and the refill
draws are chance nodes, spec §15.1), **imperfect information** (§14: a seat's returned cards, WD-27),
constant-sum utility (`returns()` are win shares: 1/k to each of the k winners, summing to 1), terminal
rewards. Parameters: ``players`` (2-4, default 2), ``public_returns`` (the §14 variant: perfect
information apart from chance), ``engine`` (``auto``/``core``: the compiled core's State is wrapped;
``reference``: the pure-Python model). The placeholder card data PD-1 is used (there is no data
parameter; a wrapped State plays by its own Game, whatever its options and data). Actions are our
action ids (`rules`: 619; chance outcomes are card ids 0..71 or seats).

``information_state_string(p)`` is our information-set key (another seat's pooled cards without their
place); ``resample_from_infostate(p, sampler)`` draws a seed from the sampler and calls our
``State.resample(p, seed)`` (its OpenSpiel history is the original's: use it for search, not replay);
``observation_string(p)`` is the seat's view JSON. No tensors.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from burano_ai.core.errors import OptionError
from burano_ai.games.walking_in_burano import rules
from burano_ai.games.walking_in_burano.data import MAX_PLAYERS, MIN_PLAYERS, ROUND_GUARD
from burano_ai.games.walking_in_burano.position import Options

SHORT_NAME = "python_walking_in_burano"
#: 3N setup deals and the first player, then per round at most 3N refill draws and per turn 1 acquire,
#: 3 places, 1 end, 3 visits, 3 returns; 30 rounds at most (WD-20).
MAX_GAME_LENGTH = 16 + ROUND_GUARD * (15 + MAX_PLAYERS * 11)
#: Seeds `resample_from_infostate` draws from (uniformly, through the caller's sampler).
_SEED_RANGE = 1 << 31

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Walking in Burano (burano_ai; placeholder deck PD-1)",
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
    parameter_specification={"players": 2, "public_returns": False, "engine": "auto"},
)


def rules_game_class(engine: str = "auto"):
    """Our Game class for `engine`: ``core`` or ``auto`` (compiled), ``reference``."""
    if engine in ("auto", "core"):
        from burano_ai.games.walking_in_burano._core import Game
        return Game
    if engine == "reference":
        from burano_ai.games.walking_in_burano.reference import Game
        return Game
    raise OptionError(f"engine must be auto, core or reference, not {engine!r}")


class WalkingInBuranoGame(pyspiel.Game):
    """The pyspiel Game: metadata plus the wrapped rules `Game` (`rules`)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = params.get("players", 2)
        public = params.get("public_returns", False)
        engine = params.get("engine", "auto")
        if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise OptionError(f"{SHORT_NAME}: players must be 2, 3 or 4, not {players!r}")
        if not isinstance(public, bool):
            raise OptionError(f"{SHORT_NAME}: public_returns must be true or false, not {public!r}")
        self.rules = rules_game_class(engine)(players, Options(public_returns=public))
        info = pyspiel.GameInfo(
            num_distinct_actions=rules.NUM_ACTIONS,
            max_chance_outcomes=rules.MAX_CHANCE_OUTCOMES,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(GAME_TYPE, info, {"players": players, "public_returns": public, "engine": engine})

    def new_initial_state(self) -> WalkingInBuranoState:
        return WalkingInBuranoState(self, self.rules.new_initial_state())

    def wrap(self, state) -> WalkingInBuranoState:
        """A pyspiel state holding a copy of our `state` (its OpenSpiel history starts empty)."""
        if state.num_players != self.num_players():
            raise OptionError(f"a {state.num_players}-player position cannot be wrapped in a "
                              f"{self.num_players()}-player {SHORT_NAME} game")
        return WalkingInBuranoState(self, state.clone())

    def make_py_observer(self, iig_obs_type=None, params=None) -> WalkingInBuranoObserver:
        if params:
            raise ValueError(f"{SHORT_NAME} observers take no parameters, got {params}")
        return WalkingInBuranoObserver(iig_obs_type)


class WalkingInBuranoState(pyspiel.State):
    """A pyspiel State around one of our States (`wib_state`)."""

    def __init__(self, game: WalkingInBuranoGame, inner) -> None:
        super().__init__(game)
        self._inner = inner

    @property
    def wib_state(self):
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

    def resample_from_infostate(self, player_id: int, probability_sampler) -> WalkingInBuranoState:
        """A copy whose hidden parts (for `player_id`) are resampled with a seed from the sampler."""
        out = self.clone()
        seed = int(probability_sampler() * _SEED_RANGE) % _SEED_RANGE
        out._inner = self._inner.resample(player_id, seed)
        return out

    def __str__(self) -> str:
        return self._inner.to_json()


class WalkingInBuranoObserver:
    """Strings only: the information-set key for perfect-recall requests, the seat's view JSON otherwise."""

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


pyspiel.register_game(GAME_TYPE, WalkingInBuranoGame)

_GAMES: dict[tuple[int, str], WalkingInBuranoGame] = {}


def game_for(num_players: int, engine: str = "auto") -> WalkingInBuranoGame:
    """A cached `WalkingInBuranoGame` for wrapping positions."""
    key = (num_players, engine)
    if key not in _GAMES:
        _GAMES[key] = WalkingInBuranoGame({"players": num_players, "engine": engine})
    return _GAMES[key]
