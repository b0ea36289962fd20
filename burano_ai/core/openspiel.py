"""The OpenSpiel adapter every game shares: a pyspiel Game and State around one of our Games and States.

Needs the ``[openspiel]`` extra (``import pyspiel``); only the games' ``openspiel`` modules import it. A
game's module keeps what is its own — its `game_type` (names, players, information, parameters) and its
`AdapterGame` subclass (its package, the longest game, how parameters other than ``players`` and
``engine`` make our Game) — and registers it with ``pyspiel.register_game``.

What is the same for every game lives here: sequential play with explicit chance (our chance nodes are
OpenSpiel's), constant-sum terminal returns (win shares summing to 1), our action ids as OpenSpiel's,
``information_state_string(p)`` as our information-set key, ``observation_string(p)`` as the seat's view
JSON, ``resample_from_infostate(p, sampler)`` through our ``State.resample(p, seed)`` (a copy for a
perfect-information game), a string-only observer, ``wrap(state)`` and a cache of games for wrapping.
"""

from __future__ import annotations

import importlib
from typing import Any

import pyspiel

from burano_ai.core.errors import OptionError

#: Seeds `AdapterState.resample_from_infostate` draws from (uniformly, through the caller's sampler).
SEED_RANGE = 1 << 31
#: The values of the ``engine`` parameter: ``auto`` and ``core`` wrap the compiled core, ``reference``
#: the pure-Python model.
ENGINES = ("auto", "core", "reference")


def game_type(short_name: str, long_name: str, *, information: str, min_players: int, max_players: int,
              parameters: dict[str, Any], tensors: bool = False) -> pyspiel.GameType:
    """The pyspiel GameType of one of our games: sequential, explicit chance, constant-sum, terminal
    rewards. `information` is ``"perfect"`` or ``"imperfect"``; `parameters` are the defaults (the
    parameter specification); `tensors` says whether the game provides observation tensors."""
    kinds = {"perfect": pyspiel.GameType.Information.PERFECT_INFORMATION,
             "imperfect": pyspiel.GameType.Information.IMPERFECT_INFORMATION}
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=kinds[information],
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=tensors,
        provides_observation_string=True,
        provides_observation_tensor=tensors,
        parameter_specification=dict(parameters),
    )


def check_players(short_name: str, players: Any, min_players: int, max_players: int) -> int:
    """`players` if it is an int in range; else `OptionError` naming the range ("2, 3 or 4", "2-5")."""
    if isinstance(players, bool) or not isinstance(players, int) or not min_players <= players <= max_players:
        counts = [str(n) for n in range(min_players, max_players + 1)]
        allowed = (f"{', '.join(counts[:-1])} or {counts[-1]}" if len(counts) <= 3
                   else f"{min_players}-{max_players}")
        raise OptionError(f"{short_name}: players must be {allowed}, not {players!r}")
    return players


def is_reference(engine: Any) -> bool:
    """Whether the ``engine`` parameter asks for the pure-Python reference model (else the compiled core);
    `OptionError` for a value not in `ENGINES`."""
    if engine not in ENGINES:
        raise OptionError(f"engine must be auto, core or reference, not {engine!r}")
    return engine == "reference"


def rules_game_class(package: str, engine: Any = "auto") -> type:
    """The Game class of the game in `package` for `engine`: ``core`` or ``auto`` (its compiled core,
    `<package>._core`), ``reference`` (its reference model, `<package>.reference`)."""
    module = "reference" if is_reference(engine) else "_core"
    return importlib.import_module(f"{package}.{module}").Game


class AdapterGame(pyspiel.Game):
    """A pyspiel Game: OpenSpiel's metadata plus our wrapped rules Game (`rules`).

    A subclass sets `GAME_TYPE`, `PACKAGE` (the game's package) and `MAX_GAME_LENGTH` (every action,
    chance included); `NUM_ACTIONS` and `MAX_CHANCE_OUTCOMES` default to our Game's, `STATE_CLASS` to
    `AdapterState`. It overrides `make_rules` when it has parameters besides ``players`` and ``engine``.
    """

    GAME_TYPE: pyspiel.GameType
    PACKAGE: str
    MAX_GAME_LENGTH: int
    NUM_ACTIONS: int | None = None
    MAX_CHANCE_OUTCOMES: int | None = None
    STATE_CLASS: type[AdapterState]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**self.GAME_TYPE.parameter_specification, **(params or {})}
        self.rules, used = self.make_rules(given)
        if self.NUM_ACTIONS is None:
            self.NUM_ACTIONS = self.rules.num_distinct_actions()
        if self.MAX_CHANCE_OUTCOMES is None:
            self.MAX_CHANCE_OUTCOMES = self.rules.max_chance_outcomes()
        info = pyspiel.GameInfo(
            num_distinct_actions=self.NUM_ACTIONS,
            max_chance_outcomes=self.MAX_CHANCE_OUTCOMES,
            num_players=used["players"],
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=self.MAX_GAME_LENGTH,
        )
        super().__init__(self.GAME_TYPE, info, used)

    def make_rules(self, params: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        """Our rules Game for `params` (every parameter, defaults filled in) and the parameters it used;
        `OptionError` naming a bad one. By default the parameters are ``players`` and ``engine``."""
        players = self.check_players(params["players"])
        return self.rules_game_class(params["engine"])(players), {"players": players, "engine": params["engine"]}

    def check_players(self, players: Any) -> int:
        """`players` if this game allows that many (`check_players` with the game type's range)."""
        game_type = self.GAME_TYPE
        return check_players(game_type.short_name, players, game_type.min_num_players, game_type.max_num_players)

    @classmethod
    def rules_game_class(cls, engine: Any = "auto") -> type:
        """Our Game class for `engine` (`rules_game_class` of `PACKAGE`)."""
        return rules_game_class(cls.PACKAGE, engine)

    def new_initial_state(self) -> AdapterState:
        return self.STATE_CLASS(self, self.rules.new_initial_state())

    def check_rules(self, rules_game) -> None:
        """Raise `OptionError` unless States of our rules Game `rules_game` (made with any options) fit this
        pyspiel game: the same player count, no more distinct actions or chance outcomes than it declares.

        A game whose options add actions overrides it to name the option; a bot that plays through the
        adapter calls it when it is configured for a game (`Bot.check_game`), `wrap` on every State.
        """
        short_name = self.GAME_TYPE.short_name
        if rules_game.num_players != self.num_players():
            raise OptionError(f"a {rules_game.num_players}-player game cannot be wrapped in a "
                              f"{self.num_players()}-player {short_name} game")
        for what, ours, declared in (("distinct actions", rules_game.num_distinct_actions(), self.NUM_ACTIONS),
                                     ("chance outcomes", rules_game.max_chance_outcomes(), self.MAX_CHANCE_OUTCOMES)):
            if ours > declared:
                raise OptionError(f"{short_name} declares {declared} {what} and this game (with its options) "
                                  f"has {ours}: it cannot be played through OpenSpiel")

    def wrap(self, state) -> AdapterState:
        """A pyspiel state holding a copy of our `state` (its OpenSpiel history starts empty); `OptionError`
        when its Game does not fit (`check_rules`)."""
        self.check_rules(state.game)
        return self.STATE_CLASS(self, state.clone())

    def make_py_observer(self, iig_obs_type=None, params=None) -> StringObserver:
        if params:
            raise ValueError(f"{self.GAME_TYPE.short_name} observers take no parameters, got {params}")
        return StringObserver(iig_obs_type)

    @classmethod
    def cached(cls, **params: Any) -> AdapterGame:
        """One game of this class per `params` (games for wrapping positions, built once)."""
        key = (cls, tuple(sorted(params.items())))
        if key not in _GAMES:
            _GAMES[key] = cls(params)
        return _GAMES[key]


_GAMES: dict[tuple, AdapterGame] = {}


class AdapterState(pyspiel.State):
    """A pyspiel State around one of our States (`inner`; a game's subclass names it too)."""

    def __init__(self, game: AdapterGame, inner) -> None:
        super().__init__(game)
        # The only Python attribute: OpenSpiel's clone deep-copies them all.
        self._inner = inner

    @property
    def inner(self):
        """Our State."""
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

    def resample_from_infostate(self, player_id: int, probability_sampler) -> AdapterState:
        """A copy whose hidden parts (for `player_id`) are redrawn with a seed from the sampler (our
        ``State.resample``); a plain copy in a perfect-information game. Its OpenSpiel history is the
        original's: use it for search, not replay."""
        out = self.clone()
        if self.get_game().GAME_TYPE.information != pyspiel.GameType.Information.PERFECT_INFORMATION:
            seed = int(probability_sampler() * SEED_RANGE) % SEED_RANGE
            out._inner = self._inner.resample(player_id, seed)
        return out

    def __str__(self) -> str:
        return self._inner.to_json()


class StringObserver:
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


#: The default wrapper of a game's States (defined after `AdapterGame`, which names it).
AdapterGame.STATE_CLASS = AdapterState
