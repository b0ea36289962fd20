"""OpenSpiel adapter: Azul: Stained Glass of Sintra as a Python pyspiel game (`python_azul_sintra`).

Needs the ``[openspiel]`` extra (``import pyspiel``). Importing this module registers the game::

    import burano_ai.games.azul_sintra.openspiel, pyspiel
    game = pyspiel.load_game("python_azul_sintra(players=3,side=B)")
    state = game.new_initial_state()          # a chance node: setup lays the first strip

Game type: sequential, explicit stochastic chance (setup and the factory draws are chance nodes, spec
§11.2), **perfect information** (§11.1: like backgammon), constant-sum utility (`returns()` are win
shares: 1/k to each of the k winners, summing to 1), terminal rewards. Parameters: ``players`` (2-4,
default 2), ``side`` (A or B), ``engine`` (``auto``/``core``: the compiled core's State is wrapped;
``reference``: the pure-Python model). The placeholder component data is used (there is no data
parameter). Actions are our action ids (`rules`: 456 decisions; chance outcomes share the ids 0..7).
``information_state_string(p)`` is our information-set key (the whole position: nothing is hidden);
``resample_from_infostate`` is a copy; ``observation_string(p)`` is the position JSON. No tensors.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from burano_ai.core.errors import OptionError
from burano_ai.games.azul_sintra import rules
from burano_ai.games.azul_sintra.data import FACTORIES, MAX_PLAYERS, MIN_PLAYERS

SHORT_NAME = "python_azul_sintra"
#: Setup steps (6 + 16 per seat), draws (at most 24 per factory) and decisions (48F + 16N, §11.5), with room.
MAX_GAME_LENGTH = 2000

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Azul: Stained Glass of Sintra (burano_ai; placeholder data)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification={"players": 2, "side": "A", "engine": "auto"},
)


def rules_game_class(engine: str = "auto"):
    """Our Game class for `engine`: ``core`` or ``auto`` (compiled), ``reference``."""
    if engine in ("auto", "core"):
        from burano_ai.games.azul_sintra._core import Game
        return Game
    if engine == "reference":
        from burano_ai.games.azul_sintra.reference import Game
        return Game
    raise OptionError(f"engine must be auto, core or reference, not {engine!r}")


class AzulSintraGame(pyspiel.Game):
    """The pyspiel Game: metadata plus the wrapped rules `Game` (`rules`)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = params.get("players", 2)
        side = params.get("side", "A")
        engine = params.get("engine", "auto")
        if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise OptionError(f"{SHORT_NAME}: players must be 2, 3 or 4, not {players!r}")
        if side not in rules.SIDES:
            raise OptionError(f"{SHORT_NAME}: side must be A or B, not {side!r}")
        self.rules = rules_game_class(engine)(players, side)
        info = pyspiel.GameInfo(
            num_distinct_actions=rules.NUM_ACTIONS,
            max_chance_outcomes=rules.MAX_CHANCE_OUTCOMES,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(GAME_TYPE, info, {"players": players, "side": side, "engine": engine})

    def new_initial_state(self) -> AzulSintraState:
        return AzulSintraState(self, self.rules.new_initial_state())

    def wrap(self, state) -> AzulSintraState:
        """A pyspiel state holding a copy of our `state` (its OpenSpiel history starts empty)."""
        if state.num_players != self.num_players():
            raise OptionError(f"a {state.num_players}-player position cannot be wrapped in a "
                              f"{self.num_players()}-player {SHORT_NAME} game")
        flags = getattr(getattr(state, "game", None), "flags", None)
        if flags is not None and flags.joker_choice:
            raise OptionError(f"{SHORT_NAME} declares the {rules.NUM_ACTIONS} actions of the spec's rules: a game with "
                              "the joker_choice option (856 actions) cannot be wrapped for OpenSpiel")
        return AzulSintraState(self, state.clone())

    def make_py_observer(self, iig_obs_type=None, params=None) -> AzulSintraObserver:
        if params:
            raise ValueError(f"{SHORT_NAME} observers take no parameters, got {params}")
        return AzulSintraObserver(iig_obs_type)


class AzulSintraState(pyspiel.State):
    """A pyspiel State around one of our States (`azul_state`)."""

    def __init__(self, game: AzulSintraGame, inner) -> None:
        super().__init__(game)
        self._inner = inner

    @property
    def azul_state(self):
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

    def resample_from_infostate(self, player_id: int, probability_sampler) -> AzulSintraState:
        """A copy: nothing is hidden (perfect information)."""
        return self.clone()

    def __str__(self) -> str:
        return self._inner.to_json()


class AzulSintraObserver:
    """Strings only: the information-set key for perfect-recall requests, the position JSON otherwise."""

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


pyspiel.register_game(GAME_TYPE, AzulSintraGame)

_GAMES: dict[tuple[int, str], AzulSintraGame] = {}


def game_for(num_players: int, engine: str = "auto", side: str = "A") -> AzulSintraGame:
    """A cached `AzulSintraGame` for wrapping positions."""
    key = (num_players, engine, side)
    if key not in _GAMES:
        _GAMES[key] = AzulSintraGame({"players": num_players, "side": side, "engine": engine})
    return _GAMES[key]


assert all(FACTORIES[n] * 48 + 16 * n + 6 + 16 * n + 24 * FACTORIES[n] < MAX_GAME_LENGTH for n in FACTORIES)
