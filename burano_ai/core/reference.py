"""The checked half of a reference model's State API, written once for every game.

A game's reference model (`burano_ai.games.<g>.reference`) is the readable oracle of its compiled core.
Much of its State API says the same thing in every game: `apply_action` and `play` check that the id is
offered here and leave the state untouched when it is not; a copy is the position's fields and the game;
the win shares of `returns` follow the order of finish; a JSON view is the position's dict of one seat.
`ReferenceGame` and `ReferenceState` hold that, so a game writes only its rules.

A game declares `class State(ReferenceState, Position, game=Game, names=rules, view=position_to_dict,
render=render, noun=..., differs_in=...)`: its `Game` (which learns its State class from this), the
module holding `PHASE_NAMES` and `CHANCE_KIND_NAMES` (labels by id), the function writing a position's
JSON-ready dict, full or as one seat sees it (`view(position, seat)`), the one drawing that dict as text,
how a message names a position ("a Goofspiel position") and what a foreign position may differ in
("players, num_cards or points_order"); `Position` is the position class. It fills these hooks:

- the rules: `current_player`, `legal_actions`, `chance_outcomes`, `_apply_unchecked(action)` (the
  unchecked apply), `action_to_string`, `string_to_action`, `where()` (for messages), `finishing_key`,
  `key`, and optionally `_prior`;
- from its `Position`: `copy_fields_from` and `config()` (the arguments of `Position.__init__` after
  the game's own: a new State is `Position(*game.config())` plus the game).

Its `Game(ReferenceGame)` fills `config()` and `_position_from_json(text)`.
Each hook may be overridden where a game differs (Goofspiel words its own illegal-move error).
"""

from __future__ import annotations

import json
from typing import Any, Callable, ClassVar, Sequence

from burano_ai.core.arguments import check_action_id, check_indent, check_index, check_instance
from burano_ai.core.errors import IllegalMoveError, PositionError
from burano_ai.core.game import DecisionMode, check_prior_arguments
from burano_ai.core.seats import CHANCE, TERMINAL, parse_seat
from burano_ai.core.seeds import check_seed

#: How many legal moves an illegal-move message lists before "...".
LISTED_MOVES = 12


class ReferenceGame:
    """A reference model's Game: equal by configuration; makes States from nothing, positions and JSON."""

    state_class: ClassVar[type]

    def config(self) -> tuple:
        """The arguments that make two games the same game."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.config() == other.config()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self.config())

    def new_initial_state(self, seed: int = 0) -> Any:
        """The position before setup: its first node is chance (setup is chance, so `seed` is accepted
        and unused: the caller draws the outcomes).

        Raises:
            TypeError: `seed` is not an int.
        """
        check_seed(seed)
        return self.state_class(self)

    def state_from_position(self, position: Any) -> Any:
        """A State of this game holding a copy of `position`."""
        return self.state_class.from_position(position, self)

    def state_from_json(self, text: str) -> Any:
        """Load a position (full, or one seat's view) written by `State.to_json` or by hand.

        Raises:
            PositionError: a field is wrong, or the position is of another configuration (named).
        """
        return self.state_class.from_position(self._position_from_json(text), self)

    def _position_from_json(self, text: str) -> Any:
        raise NotImplementedError


class ReferenceState:
    """The game-independent half of a reference State (see the module docstring for the hooks)."""

    _game_class: ClassVar[type]
    _position_class: ClassVar[type]
    position_noun: ClassVar[str]
    config_names: ClassVar[str]
    PHASE_NAMES: ClassVar[Sequence[str]]
    CHANCE_KIND_NAMES: ClassVar[Sequence[str]]
    _view: ClassVar[Callable[[Any, int | None], dict]]
    _render: ClassVar[Callable[[dict], str]]
    game: Any
    num_players: int
    phase: int
    chance_kind: int

    def __init_subclass__(cls, *, game: type | None = None, names: Any = None, view: Callable | None = None,
                          render: Callable | None = None, noun: str = "", differs_in: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._position_class = next(b for b in cls.__mro__[1:] if not issubclass(b, ReferenceState))
        if game is not None:
            cls._game_class = game
            game.state_class = cls  # type: ignore[attr-defined]
        if names is not None:
            cls.PHASE_NAMES, cls.CHANCE_KIND_NAMES = names.PHASE_NAMES, names.CHANCE_KIND_NAMES
        if view is not None:
            cls._view = staticmethod(view)
        if render is not None:
            cls._render = staticmethod(render)
        if noun:
            cls.position_noun, cls.config_names = noun, differs_in

    def __init__(self, game: Any) -> None:
        """The empty position of `game`'s configuration (`Position(*game.config())`)."""
        super().__init__(*game.config())  # type: ignore[call-arg]
        self.game = game

    @classmethod
    def from_position(cls, position: Any, game: Any) -> Any:
        """A State of `game` holding a copy of `position` (same configuration).

        Raises:
            TypeError: `position` or `game` is of the wrong type.
            PositionError: the position belongs to another configuration.
        """
        check_instance(position, cls._position_class, cls.position_noun)
        check_instance(game, cls._game_class, "game")
        if position.config() != game.config():
            raise PositionError(f"the position does not belong to this game ({cls.config_names})")
        state = cls.__new__(cls)
        state.copy_fields_from(position)  # type: ignore[attr-defined]
        state.game = game
        return state

    # ------------------------------------------------------------------------------------------
    # Node kinds

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL  # type: ignore[attr-defined]

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE  # type: ignore[attr-defined]

    def chance_outcome_actions(self) -> list[int]:
        return [a for a, _ in self.chance_outcomes()]  # type: ignore[attr-defined]

    def chance_kind_name(self, kind: int | None = None) -> str:
        """The label of a chance kind (default: the pending one)."""
        names = self.CHANCE_KIND_NAMES
        return names[self.chance_kind if kind is None else check_index(kind, len(names), "chance kind")]

    def phase_name(self) -> str:
        """The label of the pending phase."""
        return self.PHASE_NAMES[self.phase]

    # ------------------------------------------------------------------------------------------
    # Applying moves, checked

    def apply_action(self, action: int) -> None:
        """Apply a legal move or, at a chance node, an offered outcome.

        Raises:
            TypeError: `action` is not an int (a bool or a float is no action id; numpy integers are).
            IllegalMoveError: not legal here, not an offered outcome, or the game is over; the state is
                left untouched.
        """
        action = check_action_id(action)
        self._check_offered(action, None)
        self._apply_unchecked(action)  # type: ignore[attr-defined]

    def play(self, text: str) -> int:
        """Parse a move text, check it and apply it; return its id.

        Raises:
            TypeError: `text` is not a str.
            IllegalMoveError: the text does not parse or names a move that is not legal here (the state
                is left untouched).
        """
        action = self.string_to_action(text)  # type: ignore[attr-defined]
        self._check_offered(action, text.strip())
        self._apply_unchecked(action)  # type: ignore[attr-defined]
        return action

    def offered(self) -> list[int] | None:
        """The ids `apply_action` takes here: the legal moves, at a chance node the outcomes; None at the end."""
        if self.is_terminal():
            return None
        return self.chance_outcome_actions() if self.is_chance_node() else self.legal_actions()  # type: ignore

    def _check_offered(self, action: int, text: str | None) -> None:
        offered = self.offered()
        if offered is None or action not in offered:
            raise self._illegal_move_error(action, text, offered)

    def _illegal_move_error(self, action: int, text: str | None, offered: list[int] | None) -> IllegalMoveError:
        """The error for `action` (typed as `text`, if it was), which is not among `offered` (None: the end)."""
        if offered is None:
            return IllegalMoveError(f"illegal move {text or action!r}: the game is over")
        shown = text if text is not None else (
            self.action_to_string(action) if 0 <= action < self.game.num_distinct_actions()  # type: ignore
            else f"action {action}")
        listed = ", ".join(self.action_to_string(a) for a in offered[:LISTED_MOVES])  # type: ignore
        more = ", ..." if len(offered) > LISTED_MOVES else ""
        return IllegalMoveError(f"illegal move {shown!r} {self.where()}: legal are {listed}{more}")  # type: ignore

    # ------------------------------------------------------------------------------------------
    # Outcome and how a search treats the pending decision

    def winners(self) -> list[int]:
        """Seats sharing the win: the best order-of-finish key."""
        keys = [self.finishing_key(p) for p in range(self.num_players)]  # type: ignore[attr-defined]
        best = max(keys)
        return [p for p in range(self.num_players) if keys[p] == best]

    def returns(self) -> list[float]:
        """1/k for each of the k winners and 0 for everyone else at the end; zeros before."""
        if not self.is_terminal():
            return [0.0] * self.num_players
        win = self.winners()
        return [1.0 / len(win) if p in win else 0.0 for p in range(self.num_players)]

    def decision_mode(self) -> int:
        """DecisionMode.OPEN: every decision is seen by all (a game with secret choices overrides this)."""
        return int(DecisionMode.OPEN)

    def prior(self, player: int, legal: Sequence[int]) -> dict[int, float] | None:
        """The search prior of `player` over `legal` (`_prior`); None for a seat not deciding.

        Raises:
            TypeError / OptionError: a bad seat or id list (`core.game.check_prior_arguments`).
        """
        player, checked = check_prior_arguments(self, player, legal)
        return None if checked is None else self._prior(player, checked)

    def _prior(self, player: int, legal: list[int]) -> dict[int, float] | None:
        """The game's prior over the checked `legal` moves of the deciding `player` (none by default)."""
        return None

    # ------------------------------------------------------------------------------------------
    # Copies, keys, JSON

    def clone(self) -> Any:
        out = type(self).__new__(type(self))
        out.copy_fields_from(self)
        out.game = self.game
        return out

    def __copy__(self) -> Any:
        return self.clone()

    def __deepcopy__(self, memo: dict) -> Any:
        return self.clone()

    def full_key(self) -> int:
        """The key of the whole position: `key()` (nothing a key leaves out is hidden by default)."""
        return self.key()  # type: ignore[attr-defined]

    def to_dict(self, seat: int | str | None = None) -> dict:
        """The position as a JSON-ready dict, full or as `seat` sees it.

        Raises:
            TypeError / OptionError: `seat` is not None, a seat letter or a 0-based int seat (`parse_seat`).
        """
        if seat is not None:
            seat = parse_seat(seat, self.num_players)
        return self._view(self, seat)

    def to_json(self, seat: int | str | None = None, indent: int | None = None) -> str:
        """The full position, or the view of one seat (what it cannot see hidden); `seat` as in `to_dict`."""
        indent = check_indent(indent)
        return json.dumps(self.to_dict(seat), indent=indent)

    def __str__(self) -> str:
        return self._render(self.to_dict())
