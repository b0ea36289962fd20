"""One seat's view of a position: what the seat cannot see, and consistent samples of it.

Hidden from a seat (rules spec §1, §4.1, §5.1): the other seats' blind fish cards (their number is
known) together with the fish deck's composition, and, while pyramids are being built, the other
seats' placed cubes (the cubes they hold are known). Deck orders do not exist in a position (draws
are chance events), so nothing else is hidden.

`fill_hidden` gives a loaded one-seat view concrete hidden parts (a deterministic sample, so loading
is reproducible); `resample_hidden` draws them anew from a seed (what a searcher does per iteration).
The compiled core has its own C `resample` with the same distribution.
"""

from __future__ import annotations

import random

from burano_ai.games.burano.data.colours import NUM_COLOURS, SEAT_LETTERS
from burano_ai.games.burano.data.fish import NUM_SPECIES
from burano_ai.games.burano.data.turn import PYRAMID_SIZE
from burano_ai.games.burano.enums import EMPTY, Stage
from burano_ai.core.errors import PositionError
from burano_ai.games.burano.position import Position, SeatPosition
from burano_ai.core.seeds import check_seed


def is_hidden_pyramid(position: Position, seat: int | None, p: int) -> bool:
    """Whether seat `seat` cannot see seat `p`'s pyramid (built this season, not yet revealed)."""
    return seat is not None and p != seat and position.stage == Stage.PYRAMID


def fill_hidden(position: Position, hidden_blind: list[int], hidden_pyramid: dict[int, tuple[list[int], int]]
                ) -> None:
    """Give a loaded one-seat view concrete hidden parts, in place: a deterministic consistent sample.

    Args:
        position: the view, with the other seats' blind cards and hidden pyramids still empty.
        hidden_blind: per seat, the number of blind fish cards it holds (0 for the viewing seat).
        hidden_pyramid: seat -> (cubes it holds per colour, cubes placed) for pyramids being built.

    Raises:
        PositionError: the counts cannot be filled (more blind cards than unaccounted fish cards, more
            cubes placed than held).
    """
    rng = random.Random(0)
    pool = [x for sp, cnt in enumerate(position.fish_deck()) for x in [sp] * cnt]
    if sum(hidden_blind) > len(pool):
        raise PositionError(f"position: other seats hold {sum(hidden_blind)} blind cards but only {len(pool)} "
                            "fish cards are unaccounted for")
    rng.shuffle(pool)
    for p, count in enumerate(hidden_blind):
        for sp in pool[:count]:
            position.players[p].hand_blind[sp] += 1
        pool = pool[count:]
    for p, (cubes, placed) in hidden_pyramid.items():
        if placed > sum(cubes):
            raise PositionError(f"position.seats[{p}].placed: seat {SEAT_LETTERS[p]} placed {placed} cubes but "
                                f"holds only {sum(cubes)}")
        _deal_pyramid(position.players[p], cubes, placed, rng)


def _deal_pyramid(pl: SeatPosition, cubes: list[int], placed: int, rng: random.Random) -> None:
    """Place `placed` of a seat's `cubes` (per colour) at random in build order; the rest is reserve."""
    bag = [c for c in range(NUM_COLOURS) for _ in range(cubes[c])]
    rng.shuffle(bag)
    pl.pyramid = [EMPTY] * PYRAMID_SIZE
    for pos in range(placed):
        pl.pyramid[pos] = bag[pos]
    pl.reserve = [0] * NUM_COLOURS
    for c in bag[placed:]:
        pl.reserve[c] += 1


def resample_hidden(position: Position, seat: int, seed: int) -> Position:
    """Return a copy of `position` with what `seat` cannot know replaced by a consistent random sample.

    The copy has the type of `position` (a reference State stays a State).

    Raises:
        PositionError: `seat` is not a seat of the game. TypeError: `seed` is not an int.
    """
    if not 0 <= seat < position.num_players:
        raise PositionError(f"seat {seat} does not exist in a {position.num_players}-player game")
    rng = random.Random(check_seed(seed))
    out = position.clone()
    others = [p for p in range(out.num_players) if p != seat]
    pool = [sp for sp, cnt in enumerate(out.fish_deck()) for _ in range(cnt)]
    counts = []
    for p in others:
        hb = out.players[p].hand_blind
        pool += [sp for sp in range(NUM_SPECIES) for _ in range(hb[sp])]
        counts.append(sum(hb))
        out.players[p].hand_blind = [0] * NUM_SPECIES
    pool.sort()   # the sample must depend only on what `seat` knows, not on who holds which card
    rng.shuffle(pool)
    for p, count in zip(others, counts):
        for sp in pool[:count]:
            out.players[p].hand_blind[sp] += 1
        pool = pool[count:]
    if out.stage == Stage.PYRAMID:
        for p in others:
            pl = out.players[p]
            placed = out.pyramid_count(p)
            if placed:
                cubes = [pl.reserve[c] + pl.pyramid.count(c) for c in range(NUM_COLOURS)]
                _deal_pyramid(pl, cubes, placed, rng)
    return out
