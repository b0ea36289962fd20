"""The game interface every service speaks: a `GameSpec` per game, a `Game` per player count, `State`s.

The State API is OpenSpiel's (`current_player`, `legal_actions`, `apply_action`, `chance_outcomes`,
`clone`, `returns`, `action_to_string`, an information-state key and `resample`), plus what a search
and the services need of a game and used to hard-code for Burano: the order of finish
(`finishing_key`), a cut-off evaluation (`estimated_scores`), how a decision is searched
(`decision_mode`: in the open, or a secret simultaneous choice such as Burano's pyramids), the game's
`prior` over a decision, and a `turn_id` (plans and horizons stop when it changes).

A `GameSpec` is the one declaration of a game (OpenSpiel's `GameType` + `REGISTER_SPIEL_GAME`,
python-chess's variant classes): its key, title, player range, formats, implementations and the
optional capabilities it has (`capabilities`), which services read instead of probing with
`getattr`. `burano_ai.games` finds specs lazily by key.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, Callable, Protocol, Sequence, runtime_checkable


class DecisionMode(IntEnum):
    """How the pending decision is searched (the C interface's DECISION_* values)."""

    OPEN = 0       # a tree edge for every seat
    SECRET = 1     # a secret simultaneous choice: an edge for the searching seat, sampled for the others


#: `State.turn_id()` of a decision that belongs to no turn (its edge never ends one).
NO_TURN = -1


@runtime_checkable
class State(Protocol):
    """One position of a game, from the rules' side (both implementations of every game)."""

    game: Any

    @property
    def num_players(self) -> int: ...
    def current_player(self) -> int: ...
    def is_terminal(self) -> bool: ...
    def is_chance_node(self) -> bool: ...
    def legal_actions(self, player: int | str | None = None) -> list[int]: ...
    def chance_outcomes(self) -> list[tuple[int, float]]: ...
    def apply_action(self, action: int) -> None: ...
    def clone(self) -> State: ...
    def scores(self) -> list[float]: ...
    def returns(self) -> list[float]: ...
    def action_to_string(self, action: int) -> str: ...
    def string_to_action(self, text: str) -> int: ...
    def play(self, text: str) -> int: ...
    def to_json(self, seat: int | None = None, indent: int | None = None) -> str: ...
    def to_dict(self, seat: int | None = None) -> dict[str, Any]: ...
    def information_state_key(self, seat: int) -> int: ...
    def key(self) -> int: ...
    def resample(self, seat: int, seed: int) -> State: ...
    # What the framework used to hard-code for Burano:
    def finishing_key(self, player: int) -> tuple: ...
    def estimated_scores(self) -> list[float]: ...
    def decision_mode(self) -> int: ...
    def prior(self, player: int, legal: Sequence[int]) -> dict[int, float] | None: ...
    def turn_id(self) -> int: ...


@runtime_checkable
class Game(Protocol):
    """A game's rules and metadata for one player count (OpenSpiel's `Game`)."""

    num_players: int

    def num_distinct_actions(self) -> int: ...
    def max_chance_outcomes(self) -> int: ...
    def new_initial_state(self, seed: int = 0) -> State: ...
    def state_from_json(self, text: str) -> State: ...


#: A callable that makes a Game for a player count (a Game class is one).
GameFactory = Callable[[int], Game]


@runtime_checkable
class GameSpec(Protocol):
    """The declaration of one game: everything a service may ask of it besides a State.

    Attributes:
        key: the registry name (`burano`, `goofspiel`), also `--game` on the command line.
        title: the game's name for people.
        min_players, max_players: the game's player range (within 1..`seats.MAX_SEATS`).
        default_players: the player count when none is given.
        position_format: the `format` tag of its position files (`burano-position/1`).
        implementations: implementation name -> "module:attribute" of its Game class; "compiled"
            is the default, "reference" the readable oracle.
        capabilities: optional features the game has (see `CAPABILITIES`).
    """

    key: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    position_format: str
    implementations: dict[str, str]
    capabilities: frozenset[str]

    def game_class(self, implementation: str = "compiled") -> GameFactory: ...
    def new_game(self, num_players: int, implementation: str = "compiled") -> Game: ...

    # --- engine side: positions, records, bots, arena (engine, protocol, record, session, arena)

    # --- people side: terminal rendering, move entry, score columns (cli, play)

    # --- web side: the board module (web)
    # web_board: str -- with the `web_board` capability: the game's board module, a script under
    #     burano_ai/web/static/ ("games/burano/board.js") that registers itself in
    #     `window.BoardModules[key]` (renderBoard, moveTargets, ...); read only when the capability is
    #     declared, so a game without a board module leaves it out and gets the generic board (its view
    #     as structured text and a button per legal move).


#: Optional capabilities a spec may declare.
CAPABILITIES = frozenset({
    "native_search",    # its compiled State extends core._game.NativeState (the native tree can run it)
    "hidden_information",  # a seat's view hides something (resample is not the identity)
    "secret_moves",     # decisions in DecisionMode.SECRET
    "heuristic_playout",  # the compiled playout has a heuristic policy besides random
    "web_board",        # a board module of its own for the web page (`web_board`; else the generic board)
    "web_editor",       # its board module has position-editor tools (the web page's "Set up a position")
    "openspiel",        # an adapter to a pyspiel game
    "placeholder_data",  # some component data is a stand-in for lost originals (say so everywhere)
})
