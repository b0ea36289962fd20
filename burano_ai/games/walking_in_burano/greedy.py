"""Walking in Burano's greedy bot: one decision ahead, valuing the final score a position is heading for.

For each legal move the bot applies it to a copy of its view (the seat's view loaded back: it sees
nothing the seat cannot) and scores the position after it for its own seat with `value`, an estimate
of the seat's final score (spec §11), not only the score as the street stands:

    value = A + B + C - D as the street stands (§11.1: characters, shops, tokens, the window
            penalty; `scoring.breakdown`)
          + for each house finished this turn and still waiting for its character (§7): the VP of
            the best character it can still receive (the next decision takes one)
          + for each unfinished house: `progress_weight` x `PROGRESS`[its real cards] x time x the VP
            it can expect from a character once finished: the best legal type's VP on the street as
            it stands (§11.2; tourists read the house, inhabitants the street, WD-9, WD-10), at least
            `EXPECTED_CHARACTER`; 0 when no type is left to receive (§7)
          + `hand_weight` x time for each card of the best `HAND_LIMIT` in hand (§8) that fits an
            unfinished house or a new one without a token (§6.2-§6.4); a third of that for the others
          + `coin_weight` x time x coins, at most the cap of 6 (§8: money for the next placements, §6.1)
            + 0.01 per coin (the first tie-break, §12)

where time = min(1, the seat's turns still to come / 3): progress that cannot be finished before the
end is worth nothing at the end (§10; an unfinished house receives no character, RU:134). The turns
to come are estimated from the smallest floor deck: the round after a deck runs out is the last
(§9 step 5, WD-18), and each row of the market loses about `CARDS_PER_ACQUIRE - 1` (two) cards per
player and round over the 3 rows, plus the 2-player discard (§9 step 2, WD-17).

Why: the first greedy (the final scoring as it stands, plus a flat value per card in the street)
valued a card that finishes a house like a card that starts a new one, and a finished house nothing
until its character came; it spread its cards over five houses, finished about one a game and scored
~22 VP against ISMCTS's ~58 (docs/strength.md). Valuing the character a house is on its way to, more
the nearer it is to finished, makes it build houses to the end.

A whole turn is decided one decision at a time (the take, each placement or the end of the build,
each character, each return); it never samples chance. Ties are broken by the seeded generator, so
the same seed plays the same moves. It plays on either implementation through the State API and
`to_position` only.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping, Sequence

from burano_ai.games.walking_in_burano import scoring
from burano_ai.games.walking_in_burano.data import (
    CARDS_PER_ACQUIRE, COIN_CAP, HAND_LIMIT, IS_TOURIST, LEVELS, NUM_CHARACTERS, card_level,
)
from burano_ai.games.walking_in_burano.position import Position, Seat
from burano_ai.games.walking_in_burano.reference import breaks_soft_rule, target_ok
from burano_ai.games.walking_in_burano.rules import NUM_TARGETS, PHASE_OVER

#: The default weights. A coin is worth a bit more than half a VP while there are turns to spend it
#: (a placement costs 1 or 2, §6.1, and brings a house a third nearer a character worth ~6-15).
COIN_WEIGHT = 0.6
#: A card in hand that can be placed without a token (it still costs coins and a turn).
HAND_WEIGHT = 1.2
#: The scale of `PROGRESS`.
PROGRESS_WEIGHT = 1.0
#: The share of its expected character an unfinished house is worth by its real cards (0, 1, 2):
#: convex, so a card that brings a house to 2 or 3 cards is worth more than one that starts a house.
PROGRESS = (0.0, 0.3, 0.6)
#: The least VP a finished house is expected to bring with its character: a tourist on an average
#: one-colour house of PD-1 is worth 5-7.5 (spec §2.4 point 4).
EXPECTED_CHARACTER = 6.0
#: Turns to come at which progress counts in full.
FULL_HORIZON = 3


def turns_to_come(pos: Position) -> int:
    """An estimate of the turns each seat still plays after the current one (see the module docstring)."""
    if pos.phase == PHASE_OVER or pos.last_round:
        return 0
    drain = (CARDS_PER_ACQUIRE - 1) * pos.num_players / LEVELS + (1 if pos.num_players == 2 else 0)
    smallest = min(pos.deck_size(level) for level in range(1, LEVELS + 1))
    return int(smallest / drain) + 1


def legal_types(pos: Position, seat: Seat) -> list[int]:
    """Character types the seat could receive now (§7: a card left; never a second inhabitant of a type)."""
    owned = {h.character for h in seat.street if h.character >= 0}
    return [k for k in range(NUM_CHARACTERS) if pos.stacks[k] and (IS_TOURIST[k] or k not in owned)]


def best_character(pos: Position, seat: Seat, house: int, types: list[int], inhabitants: int) -> int:
    """The VP of the best of `types` under `house` as the street stands; `inhabitants` = the best
    inhabitant's (the same for every house, WD-9)."""
    best = inhabitants
    for k in types:
        if IS_TOURIST[k]:
            best = max(best, scoring.tourist_vp(pos.data, seat, house, k, pos.options.boy_scoring))
    return best


def card_fits(pos: Position, seat: Seat, card: int) -> bool:
    """The card can go into an unfinished house or a new one without a token (§6.2-§6.4)."""
    return any(target_ok(seat, card, t) and not breaks_soft_rule(pos.data, seat, card, t) for t in range(NUM_TARGETS))


class Estimate:
    """`value` for one seat at one decision: the turns to come are taken once (a decision changes no
    deck), and what depends only on the street and the character types (expected characters, which
    hand cards fit) is kept per street, as the moves compared share most of their streets."""

    def __init__(self, pos: Position, p: int, coin_weight: float = COIN_WEIGHT, hand_weight: float = HAND_WEIGHT,
                 progress_weight: float = PROGRESS_WEIGHT) -> None:
        self.p = p
        self.time = min(1.0, turns_to_come(pos) / FULL_HORIZON)
        self.coin_weight, self.hand_weight, self.progress_weight = coin_weight, hand_weight, progress_weight
        self._houses: dict[tuple, float] = {}
        self._fits: dict[tuple, bool] = {}

    def houses(self, pos: Position, seat: Seat, street: tuple) -> float:
        """The pending and unfinished houses' expected characters (see the module docstring)."""
        types = legal_types(pos, seat)
        key = (street, tuple(types))
        if key in self._houses:
            return self._houses[key]
        total = 0.0
        if types:
            inhabitants = max((scoring.inhabitant_vp(pos.data, seat, k) for k in types if not IS_TOURIST[k]),
                              default=0)
            for j, house in enumerate(seat.street):
                if house.character >= 0:
                    continue
                if house.pending:
                    total += best_character(pos, seat, j, types, inhabitants)
                elif not house.is_finished() and self.time > 0:
                    expected = max(EXPECTED_CHARACTER, best_character(pos, seat, j, types, inhabitants))
                    total += self.progress_weight * PROGRESS[len(house.real_cards())] * self.time * expected
        self._houses[key] = total
        return total

    def fits(self, pos: Position, seat: Seat, street: tuple, card: int) -> bool:
        """`card_fits`, with each target's legality kept per level (§6.4 reads only the level) and each
        soft-rule check per colour (§6.3 reads only the colour)."""
        level, colour = card_level(card), pos.data.cards[card].colour
        for t in range(NUM_TARGETS):
            legal = self._fits.get((street, "level", level, t))
            if legal is None:
                legal = self._fits[street, "level", level, t] = target_ok(seat, card, t)
            if not legal:
                continue
            clean = self._fits.get((street, "colour", colour, t))
            if clean is None:
                clean = self._fits[street, "colour", colour, t] = not breaks_soft_rule(pos.data, seat, card, t)
            if clean:
                return True
        return False

    def __call__(self, pos: Position) -> float:
        """The estimate of the seat's final score in `pos`."""
        seat = pos.seats[self.p]
        street = tuple(tuple(h.floors) + (h.character, h.pending) for h in seat.street)
        total = sum(scoring.breakdown(pos, self.p).values()) + self.houses(pos, seat, street)
        if self.time > 0 and seat.hand:
            fits = sorted((self.fits(pos, seat, street, c) for c in seat.hand), reverse=True)[:HAND_LIMIT]
            total += self.hand_weight * self.time * sum(1.0 if f else 1 / 3 for f in fits)
        return total + (self.coin_weight * self.time + 0.01) * min(seat.coins, COIN_CAP)


def value(pos: Position, p: int, coin_weight: float = COIN_WEIGHT, hand_weight: float = HAND_WEIGHT,
          progress_weight: float = PROGRESS_WEIGHT) -> float:
    """The estimate of seat p's final score in `pos` (see the module docstring)."""
    return Estimate(pos, p, coin_weight, hand_weight, progress_weight)(pos)


def choose_greedy(world, seat: int, legal: Sequence[int], rng: random.Random, options: Mapping[str, Any],
                  sample_chance: Callable | None = None) -> int:
    """The legal move of best `value` after it (ties: a seeded random one among them)."""
    if len(legal) == 1:
        return legal[0]
    estimate = Estimate(world.to_position(), seat, float(options.get("coin_weight", COIN_WEIGHT)),
                        float(options.get("hand_weight", HAND_WEIGHT)),
                        float(options.get("progress_weight", PROGRESS_WEIGHT)))
    scored = []
    for action in legal:
        after = world.clone()
        after.apply_action(action)
        scored.append((estimate(after.to_position()), action))
    best = max(v for v, _ in scored)
    return rng.choice([a for v, a in scored if v == best])
