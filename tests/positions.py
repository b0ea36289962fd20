"""Helpers that build constructed positions for rules tests (shared by the test modules)."""

from __future__ import annotations

import random

from burano_ai.games.burano import actions as A
from burano_ai.games.burano.data.colours import NUM_COLOURS
from burano_ai.games.burano.data.route import NUM_ISLANDS
from burano_ai.random_play import play_randomly, random_step
from burano_ai.games.burano.reference import Game
from burano_ai.games.burano.reference.state import EMPTY, NO_PLAYER, ST_ROUNDS, TURN


play_random = play_randomly   # the tests' historical name


def item_parent(data, path):
    """The container of the item `path` names in nested dicts and lists (`("cards", "value", 3)`:
    ``data["cards"]["value"]``), for a test that edits or deletes that item."""
    for key in path[:-1]:
        data = data[key]
    return data


def check_every_view(validator, state) -> int:
    """The full position and each seat's view of `state` pass `validator` (a JSON-schema validator of the
    game's position format); returns how many were checked."""
    for seat in (None, *range(state.num_players)):
        errors = list(validator.iter_errors(state.to_dict(seat)))
        assert not errors, errors[0].message
    return state.num_players + 1


def set_item(data, path, value) -> None:
    """Set the item `path` names in nested dicts and lists (a test's edit of a position or data file)."""
    item_parent(data, path)[path[-1]] = value


def random_game_states(num_players: int, seed: int, every: int = 1, game_class=Game, initial_seed: int | None = None):
    """Yield every `every`-th state of a seeded uniform-random game of `game_class`, and the final one
    (the moves drawn from `seed`; the initial state's own seed is `initial_seed`, by default `seed`).

    The same object is yielded each time, advanced in place: clone what you keep.
    """
    state = game_class(num_players).new_initial_state(seed if initial_seed is None else initial_seed)
    rng = random.Random(seed)
    ply = 0
    while not state.is_terminal():
        if ply % every == 0:
            yield state
        random_step(state, rng)
        ply += 1
    yield state


def rounds_state(num_players: int = 4, seed: int = 1):
    """A state at the first turn of spring (setup picks and pyramids done at random)."""
    state = Game(num_players).new_initial_state(seed)
    play_random(state, random.Random(seed), until=lambda s: s.stage == ST_ROUNDS)
    assert state.phase == TURN
    return state


def blank_turn(num_players: int = 4, seed: int = 1, actor: int = 0):
    """A spring turn of `actor` with a clean board: only the fountain cube, every worker on its ring.

    Coins 10 and no privilege for everyone, empty hands and preparation areas; pyramids unchanged.
    """
    state = rounds_state(num_players, seed)
    for i in range(NUM_ISLANDS):
        state.island_workers[i] = [0] * num_players
    state.workshop = [NO_PLAYER] * len(state.workshop)
    for pl in state.players:
        pl.ring_workers = 10
        pl.coins = 10
        pl.privilege = 0
        pl.prep = [0] * NUM_COLOURS
        pl.hand_known = [0] * 8
        pl.hand_blind = [0] * 8
    state.actor = actor
    state.moves = 0
    return state


def set_ring(state, player: int, pieces: tuple[int, int, int, int], arrows_on_house: int, workers: int) -> None:
    """Lay ring pieces on quarters A-D and turn the wheel so sector 10 is `arrows_on_house`."""
    pl = state.players[player]
    pl.ring_pieces = list(pieces)
    pl.ring_offset = (arrows_on_house + 3) % 12
    pl.ring_workers = workers


def map_colour(state, colour: int, action: int) -> None:
    """Change the marker mapping so that `colour` triggers `action` (keeping two colours per action)."""
    mapping = list(state.markers)
    if mapping[colour] != action:
        other = next(c for c in range(NUM_COLOURS) if mapping[c] == action)
        mapping[other], mapping[colour] = mapping[colour], action
    state.markers = mapping


def give_prep(state, player: int, colour: int) -> None:
    state.players[player].prep[colour] += 1


def find_build(state, colour: int) -> int:
    """A legal level-1 build of `colour` next to the fountain."""
    for a in state.legal_actions():
        if A.family(a) == "BUILD" and (a - A.BUILD) // 41 == colour:
            return a
    raise AssertionError("no legal build")


__all__ = ["EMPTY", "blank_turn", "find_build", "give_prep", "map_colour", "play_random", "rounds_state", "set_ring"]
