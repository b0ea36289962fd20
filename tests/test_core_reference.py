"""core.reference and core.fields on a toy game: a reference model written as nothing but its rules hooks.

The toy is Nim with one pile: the seat to move takes 1 or 2 counters, taking the last one wins. The real
games' reference models are checked against their compiled cores elsewhere; here each shared behaviour
of `ReferenceGame`/`ReferenceState` and of the field readers is pinned down once.
"""

from __future__ import annotations

import copy
import json
import types

import pytest

from burano_ai.core.errors import IllegalMoveError, OptionError, PositionError
from burano_ai.core.game import DecisionMode
from burano_ai.core.fields import POSITION, FieldReader, parse_position_json, position_view
from burano_ai.core.reference import ReferenceGame, ReferenceState
from burano_ai.core.seats import TERMINAL

NAMES = types.SimpleNamespace(PHASE_NAMES=("take", "over"), CHANCE_KIND_NAMES=("none",))


class Pile:
    """The position: the counters left and the seat to move."""

    def __init__(self, num_players: int, start: int) -> None:
        self.num_players, self.start = num_players, start
        self.left, self.to_move = start, 0

    def config(self) -> tuple[int, int]:
        return self.num_players, self.start

    def copy_fields_from(self, other: Pile) -> None:
        self.num_players, self.start, self.left, self.to_move = other.num_players, other.start, other.left, other.to_move

    @property
    def phase(self) -> int:
        return 1 if self.left == 0 else 0


def pile_to_dict(pile: Pile, seat: int | None) -> dict:
    return {"format": "nim/1", "view": seat, "players": pile.num_players, "start": pile.start, "left": pile.left,
            "to_move": pile.to_move}


def pile_from_json(text: str) -> Pile:
    d = POSITION.head(parse_position_json(text, 1000), "nim/1", ("format", "view", "players", "start", "left",
                                                                 "to_move"))
    pile = Pile(POSITION.int(d["players"], "players", 2, 4), POSITION.int(d["start"], "start", 1, 20))
    pile.left = POSITION.int(d["left"], "left", 0, pile.start)
    pile.to_move = POSITION.int(d["to_move"], "to_move", 0, pile.num_players - 1)
    return pile


class Game(ReferenceGame):
    def __init__(self, num_players: int = 2, start: int = 5) -> None:
        self.num_players, self.start = num_players, start

    def config(self) -> tuple[int, int]:
        return self.num_players, self.start

    def num_distinct_actions(self) -> int:
        return 2

    def _position_from_json(self, text: str) -> Pile:
        return pile_from_json(text)


class State(ReferenceState, Pile, game=Game, names=NAMES, view=pile_to_dict, render=json.dumps,
            noun="a Nim position", differs_in="players or start"):
    chance_kind = 0

    def current_player(self) -> int:
        return TERMINAL if self.left == 0 else self.to_move

    def legal_actions(self) -> list[int]:
        return [a for a in (0, 1) if a + 1 <= self.left]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []

    def action_to_string(self, action: int) -> str:
        return f"take {action + 1}"

    def string_to_action(self, text: str) -> int:
        if text.strip() not in ("take 1", "take 2"):
            raise IllegalMoveError(f"not a move: {text!r}")
        return int(text.strip()[-1]) - 1

    def where(self) -> str:
        return f"with {self.left} left"

    def _apply_unchecked(self, action: int) -> None:
        self.left -= action + 1
        self.to_move = (self.to_move + 1) % self.num_players

    def finishing_key(self, player: int) -> tuple[int]:
        return (int(self.left == 0 and (self.to_move - 1) % self.num_players == player),)

    def key(self) -> int:
        return self.left * 8 + self.to_move


def test_a_game_declared_by_its_state_class_makes_and_loads_states():
    game = Game(2, 5)
    assert Game.state_class is State and State._position_class is Pile
    assert game == Game(2, 5) and game != Game(3, 5) and hash(game) == hash(Game(2, 5))
    state = game.new_initial_state()
    assert (state.left, state.current_player(), state.phase_name(), state.chance_kind_name()) == (5, 0, "take", "none")
    assert not state.is_terminal() and not state.is_chance_node() and state.full_key() == state.key()
    loaded = game.state_from_json(state.to_json(seat=1, indent=2))
    assert loaded.to_dict() == state.to_dict() and loaded.game is game
    with pytest.raises(TypeError, match="must be a Pile"):
        State.from_position("x", game)
    with pytest.raises(TypeError, match="game must be a Game"):
        State.from_position(Pile(2, 5), object())
    with pytest.raises(PositionError, match=r"does not belong to this game \(players or start\)"):
        game.state_from_position(Pile(3, 5))
    with pytest.raises(TypeError):
        game.new_initial_state(seed=1.5)


def test_apply_and_play_check_what_is_offered_and_leave_the_state_untouched_when_they_refuse():
    state = Game(2, 2).new_initial_state()
    assert state.play(" take 1 ") == 0 and state.left == 1 and state.offered() == [0]
    before = state.to_dict()
    with pytest.raises(IllegalMoveError, match=r"illegal move 'take 2' with 1 left: legal are take 1$"):
        state.apply_action(1)
    with pytest.raises(IllegalMoveError, match=r"illegal move 'action 7' with 1 left"):
        state.apply_action(7)
    with pytest.raises(TypeError):
        state.apply_action(True)
    assert state.to_dict() == before
    state.apply_action(0)
    assert state.is_terminal() and state.offered() is None and state.returns() == [0.0, 1.0]
    assert state.winners() == [1]
    with pytest.raises(IllegalMoveError, match="illegal move 'take 1': the game is over"):
        state.play("take 1")


def test_copies_are_independent_and_json_views_check_the_seat():
    state = Game(3, 6).new_initial_state()
    for copied in (state.clone(), copy.copy(state), copy.deepcopy(state)):
        copied.apply_action(1)
        assert type(copied) is State and copied.game is state.game and state.left == 6 and copied.left == 4
    assert state.returns() == [0.0, 0.0, 0.0] and str(state) == json.dumps(state.to_dict())
    assert state.to_dict("C")["view"] == 2
    with pytest.raises(OptionError):
        state.to_json(seat=3)
    assert state.prior(0, [0, 1]) is None and state.decision_mode() == int(DecisionMode.OPEN)


def test_the_field_readers_name_the_field_and_cut_long_values():
    with pytest.raises(PositionError, match=r"^position\.round: expected an int in 0\.\.5, got 'x{39}$"):
        POSITION.int("x" * 100, "round", 0, 5)
    with pytest.raises(PositionError, match=r"^position\.seats\[1\]\.extra: unknown field \(fields: a, b\)$"):
        POSITION.seats([{"a": 1, "b": 2}, {"a": 1, "b": 2, "extra": 3}], 2, ("a", "b"))
    with pytest.raises(PositionError, match=r"^position\.seats: expected a list of 2 seats"):
        POSITION.seats([{}], 2, ("a",))
    assert POSITION.seat("B", "to_move", 3) == 1 and POSITION.seat(None, "x", 3, allow_none=True) == -1
    with pytest.raises(PositionError, match=r"position\.format: expected 'nim/1', got 'chess/1'"):
        POSITION.head({"format": "chess/1"}, "nim/1", ("format",))
    with pytest.raises(PositionError, match=r"position\.start: 6 in the position, but the game has 5"):
        POSITION.same_config(("players", "start"), (2, 6), (2, 5))
    with pytest.raises(PositionError, match=r"position\.data: another file in the position, but the game has its own"):
        POSITION.same_config(("data",), ("x",), ("y",), {"data": "another file"})
    assert position_view({"view": "B"}, 2) == 1 and position_view({}, 2) is None
    data = FieldReader("toy data.", OptionError)
    assert data.item({"n": {"value": 3, "source": "p. 2"}}, "n") == 3
    with pytest.raises(OptionError, match=r"^toy data\.n: unknown field 'sauce' \(fields: value, source\)$"):
        data.item({"n": {"value": 3, "sauce": "p. 2"}}, "n")
    with pytest.raises(OptionError, match=r"^toy data: expected a JSON object, got list$"):
        data.data_head([], "toy-data/1", ("format",))
    with pytest.raises(PositionError, match="not valid JSON"):
        parse_position_json("{", 10)
    with pytest.raises(PositionError, match="11 characters, more than the 10 accepted"):
        parse_position_json("[" * 11, 10)
