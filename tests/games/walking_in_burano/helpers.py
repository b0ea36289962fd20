"""Shared helpers of the Walking in Burano tests: games, dealt states and hand-built positions."""

from __future__ import annotations

import random

from burano_ai.games import get_spec
from burano_ai.random_play import random_step
from burano_ai.games.walking_in_burano.position import EMPTY, SCAFFOLD, House
from burano_ai.games.walking_in_burano.rules import PHASE_BUILD

SPEC = get_spec("walking-in-burano")
S = SCAFFOLD


def game(players: int = 2, implementation: str = "reference", **options):
    return SPEC.new_game(players, implementation, **options)


def dealt(players: int = 2, seed: int = 0, **options):
    """A state after the setup deals (seeded), seat A first unless the options say otherwise."""
    options.setdefault("first_player", 0)
    state = game(players, **options).new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        random_step(state, rng)
    return state


def remove(state, cards) -> None:
    """Take `cards` out of wherever they are (market, hands, streets, queues, discard): back to their decks."""
    cards = set(cards)
    for row in state.market:
        for j, c in enumerate(row):
            if c in cards:
                row[j] = EMPTY
    for q in state.under:
        q[:] = [e for e in q if e[0] not in cards]
    state.discard = [c for c in state.discard if c not in cards]
    for s in state.seats:
        s.hand = [c for c in s.hand if c not in cards]
        s.pool -= cards
        for h in s.street:
            h.floors = [EMPTY if f in cards else f for f in h.floors]


def set_street(state, p: int, houses, characters=None) -> None:
    """Seat p's street from floor triples (card ids, S, EMPTY) and its characters (taken from the stacks);
    cards leave where they were."""
    for h in state.seats[p].street:
        if h.character >= 0:
            state.stacks[h.character] += 1
    remove(state, [f for h in houses for f in h if f >= 0])
    street = []
    for j, floors in enumerate(houses):
        h = House()
        h.floors = list(floors)
        if characters and characters[j] is not None:
            h.character = characters[j]
            state.stacks[h.character] -= 1
        street.append(h)
    state.seats[p].street = street


def set_hand(state, p: int, cards) -> None:
    remove(state, cards)
    state.seats[p].hand = sorted(cards)


def building(state, p: int = 0, coins: int = 4, hand=(), placed: int = 0):
    """`state` at seat p's build step with `coins` and `hand`."""
    set_hand(state, p, hand)
    state.seats[p].coins = coins
    state.phase = PHASE_BUILD
    state.to_move = p
    state.first_player = p
    state.placed = placed
    state.check()
    return state
