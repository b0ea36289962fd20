"""The conformance suite fails loudly on a game that gives it nothing to check, and checks a tiny game whole.

Two fake games defined here, each a complete State API in a few lines: `Coin` (a coin toss, then each
of two seats picks heads or tails once: 4 moves, the size of a Kuhn poker hand) and `Forced` (a coin
toss, then two moves nobody chooses). The suite used to sample a state every 5-25 moves, so `Coin`
gave it nothing but its first and last state; a search test then died with UnboundLocalError. Now
every state of `Coin` is checked, and `Forced` is refused with `NothingToCheck` naming the game.
"""

from __future__ import annotations

import json

import pytest

from burano_ai import bench
from burano_ai.core.errors import IllegalMoveError, PositionError
from burano_ai.core.seats import CHANCE, TERMINAL

from .cases import decisions
from .every_state import NothingToCheck, check_game


class CoinState:
    """A coin toss (chance), then seat 0 and seat 1 each call it (actions 0 and 1); a right call scores 1."""

    def __init__(self, game, history=()):
        self.game, self.history = game, list(history)

    def current_player(self):
        return TERMINAL if len(self.history) == 3 else CHANCE if not self.history else len(self.history) - 1

    def is_terminal(self):
        return self.current_player() == TERMINAL

    def is_chance_node(self):
        return self.current_player() == CHANCE

    def legal_actions(self):
        return [0, 1] if self.current_player() >= 0 else []

    def chance_outcomes(self):
        return [(0, 0.5), (1, 0.5)] if self.is_chance_node() else []

    def apply_action(self, action):
        if action not in (self.legal_actions() or [a for a, _ in self.chance_outcomes()]):
            raise IllegalMoveError(f"illegal action {action!r}")
        self.history.append(action)

    def clone(self):
        return type(self)(self.game, self.history)

    def check(self):
        assert len(self.history) <= 3 and all(a in (0, 1) for a in self.history)

    def scores(self):
        return [float(len(self.history) > 1 + p and self.history[1 + p] == self.history[0]) for p in range(2)]

    def returns(self):
        s = self.scores()
        return [1.0 / s.count(max(s)) if x == max(s) else 0.0 for x in s]

    def to_json(self, seat=None):
        return json.dumps({"format": "coin/1", "history": self.history})    # nothing hidden

    def information_state_key(self, seat):
        return tuple(self.history)

    def resample(self, seat, seed):
        return self.clone()


class ForcedState(CoinState):
    """The same, but each seat's call is forced (one legal action): nobody ever decides anything."""

    def legal_actions(self):
        return [0] if self.current_player() >= 0 else []


class FakeGame:
    num_players = 2

    def __init__(self, state_class):
        self.state_class = state_class

    def num_distinct_actions(self):
        return 2

    def new_initial_state(self, seed=0):
        return self.state_class(self)

    def state_from_json(self, text):
        data = json.loads(text)
        if data.get("format") != "coin/1":
            raise PositionError("not a coin/1 position")
        state = self.state_class(self)
        for action in data["history"]:
            state.apply_action(action)
        return state


def test_every_state_of_a_four_move_game_is_checked():
    tally = check_game(FakeGame(CoinState), name="coin", position_format="coin/1")
    # every state: per game the toss, two calls and the end; as many games as the state budget takes
    assert tally.states == 4 * tally.games and tally.games > 1
    assert (tally.chance, tally.decisions, tally.terminal) == (tally.games, 2 * tally.games, tally.games)
    assert len(decisions(FakeGame(CoinState), 0, "coin")) == 2


def test_a_game_without_a_choice_fails_loudly():
    with pytest.raises(NothingToCheck, match="forced: .* met no decision with two legal actions or more"):
        check_game(FakeGame(ForcedState), name="forced", position_format="coin/1")
    with pytest.raises(NothingToCheck, match="forced seed 0: a random game without a decision"):
        decisions(FakeGame(ForcedState), 0, "forced")


def test_a_broken_game_fails_with_its_seed_and_ply():
    """The checks are not vacuous on a tiny game: a state whose legal actions repeat is caught where it is."""
    class Repeats(CoinState):
        def legal_actions(self):
            return [0, 0, 1] if self.current_player() >= 0 else []

    with pytest.raises(AssertionError, match="repeats seed 0 ply 1: legal actions not sorted and unique"):
        check_game(FakeGame(Repeats), name="repeats")


class CoinSpec:
    """Just what `bench_positions` reads of a spec."""

    def __init__(self, state_class):
        self.state_class = state_class

    def new_game(self, players):
        return FakeGame(self.state_class)


def test_bench_takes_the_decision_positions_there_are():
    """`burano bench` on a game with two distinct decisions: start and middle, no made-up third (it wanted
    three); with no decision at all it takes the first state someone moves in."""
    positions = bench.bench_positions(CoinSpec(CoinState), 2)
    assert list(positions) == ["start", "middle"]
    assert [len(s.history) for s in positions.values()] == [1, 2]        # seat 0's call, then seat 1's
    forced = bench.bench_positions(CoinSpec(ForcedState), 2)
    assert list(forced) == ["start"] and len(forced["start"].history) == 1
