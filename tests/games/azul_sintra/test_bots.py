"""Azul: Stained Glass of Sintra's bots: the greedy one-ply heuristic (`greedy.py`) through the bot registry."""

from __future__ import annotations

import random

import pytest

from burano_ai.bots.registry import make_bot
from burano_ai.games import get_spec

SPEC = get_spec("azul-sintra")


def play(bots, n, seed):
    """A seeded game between `make_bot` bots (chance drawn by a seeded Random); returns the final state."""
    state = SPEC.new_game(n).new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


def test_greedy_is_declared_and_beats_random():
    assert "greedy" in SPEC.bots()
    wins = 0
    for seed in range(6):
        seats = [make_bot("greedy", seed, game="azul-sintra"), make_bot("random", seed, game="azul-sintra")]
        if seed % 2:
            seats.reverse()
        state = play(seats, 2, seed)
        greedy_seat = seed % 2
        wins += state.returns()[greedy_seat] == 1.0
    assert wins >= 5


@pytest.mark.parametrize("n", [3, 4])
def test_greedy_plays_legal_moves_and_repeats_with_its_seed(n):
    first = play([make_bot("greedy", 3, game="azul-sintra") for _ in range(n)], n, 3)
    again = play([make_bot("greedy", 3, game="azul-sintra") for _ in range(n)], n, 3)
    assert first.to_json() == again.to_json() and first.is_terminal()


def test_greedy_takes_a_completion_when_one_is_there():
    """From T4's position (tests/games/azul_sintra/test_rules.py) the greedy seat completes the strip and keeps its piece."""
    from .helpers import Y, balance, counts, lay, put, table
    from burano_ai.games.azul_sintra.reference import Game
    from burano_ai.games.azul_sintra.rules import KEEP0, PHASE_KEEP, draft_action
    s = table(Game(2), indicator="POYBGP", round_=2)
    s.factories[0] = counts("YPPP")
    s.factories[1] = counts("GGGG")
    lay(s, 0, 4, "S6", "a")
    put(s, 0, 4, "PPYO")
    s.boards[0].glazier = 4
    balance(s)
    compiled = SPEC.new_game(2).state_from_json(s.to_json())
    bot = make_bot("greedy", 0, game="azul-sintra")
    assert bot.step(compiled) == draft_action(0, Y, 4)
    compiled.apply_action(draft_action(0, Y, 4))
    assert compiled.phase == PHASE_KEEP and bot.step(compiled) >= KEEP0
