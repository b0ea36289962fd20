"""Burano's encoder in readable Python: a position's features for a learned evaluation.

The compiled core's `encode` (src_cython/burano_ai/games/burano/_encode.pxi, which documents the layout
slot by slot) computes the same floats in C inside the search; this form reads a full position's JSON
(`State.to_dict()`, either implementation), loads it into the reference model and takes every quantity
from the reference's own derived values (supply, decks, arrows, majorities, ...). Seats are relative to
`seat` (`seat` first), padded to four seat blocks.
"""

from __future__ import annotations

from typing import Any, Mapping

ENCODER_VERSION = 1
MAX_PLAYERS = 4
GLOBAL_FEATURES = 72
SEAT_FEATURES = 73
NUM_FEATURES = GLOBAL_FEATURES + MAX_PLAYERS * SEAT_FEATURES
SPECIES_A = 4          # species 0..3 are group A, 4..7 group B [RD-10]


def num_features(num_players: int) -> int:
    return NUM_FEATURES


def _reference(position: Mapping[str, Any]):
    from burano_ai.games.burano.spec import SPEC
    state, _ = SPEC.load_position(position, SPEC.game_class("reference"))
    return state


def end_bonus(state, p: int) -> int:
    """The VP §10's final scoring would add to seat `p` now (0 once the game is over: it is in the VP)."""
    from burano_ai.games.burano.data import buildings
    from burano_ai.games.burano.data.turn import COINS_PER_VP
    from burano_ai.games.burano.enums import Stage
    from burano_ai.games.burano.data.fish import HAND_CARD_VP
    if state.stage == Stage.END:
        return 0
    pl = state.players[p]
    total = (pl.coins + pl.privilege) // COINS_PER_VP + HAND_CARD_VP * (sum(pl.hand_known) + sum(pl.hand_blind))
    for card in pl.buildings:
        _, family, arg = buildings.BUILDING_CARDS[card]
        if family == buildings.SOLD_FISH:
            total += buildings.SOLD_FISH_VP_PER_CARD * sum(pl.sold[sp] for sp in arg)
        elif family == buildings.LACE_COLOURS:
            total += buildings.LACE_COLOURS_VP_PER_WORKER * sum(
                1 for sq in state.workshop_workers(p) if state.layout.colour[sq] in arg)
        elif family == buildings.LACE_DISCOUNT:
            total += buildings.LACE_DISCOUNT_END_VP
        elif family == buildings.COLLECTOR:
            total += buildings.COLLECTOR_VP_PER_CARD * len(pl.buildings)
        elif family == buildings.MONUMENT:
            total += buildings.MONUMENT_VP
    return total


def island_vp(state) -> list[int]:
    """Each seat's clean-up island-majority VP (§8 step 1) as the islands stand now."""
    from burano_ai.games.burano.data.turn import ISLAND_MAJORITY_VP
    each = ISLAND_MAJORITY_VP[state.num_players]
    vp = [0] * state.num_players
    for _, tied, scorers in state.island_majority_scorers():
        for p in scorers:
            vp[p] += each if len(scorers) == 1 else each // len(tied)
    return vp


def lace_vp(state, p: int) -> int:
    """Lace scoring (§8 step 2) if every one of `p`'s workshop workers were paid: 2 each and the unions."""
    from burano_ai.games.burano import topology
    from burano_ai.games.burano.data.turn import LACE_PAID_VP, UNION_BONUS
    squares = state.workshop_workers(p)
    return LACE_PAID_VP * len(squares) + sum(UNION_BONUS[min(size, len(UNION_BONUS) - 1)]
                                             for size in topology.union_sizes(state.layout, squares))


def encode(position: Mapping[str, Any], seat: int) -> list[float]:
    """The features of the full position `position` (a `to_dict()` without a seat) from `seat`'s side."""
    from burano_ai.games.burano.data import buildings
    from burano_ai.games.burano.data.ring import COIN, FOUNTAIN
    from burano_ai.games.burano.data.turn import FISHING, LACE, SEASON_ROUNDS
    from burano_ai.games.burano.enums import EMPTY, Phase

    state = _reference(position)
    n = state.num_players
    out = [0.0] * NUM_FEATURES
    families = [buildings.BUILDING_CARDS[c][1] for c in range(buildings.NUM_BUILDINGS)]
    copies = [families.count(f) for f in range(10)]

    out[state.season] = 1.0
    out[4] = (sum(SEASON_ROUNDS[:state.season]) + state.round - 1) / 14.0
    out[5 + state.stage] = 1.0
    out[12] = state.moves / 4.0
    out[13] = 1.0 if state.phase == Phase.CHANCE_NODE else 0.0
    mover = state.current_player()
    if mover >= 0:
        out[14 + (mover - seat) % n] = 1.0
    out[18 + (state.first_player - seat) % n] = 1.0
    for c, left in enumerate(state.supply()):
        out[22 + c] = left / 20.0
        action = state.markers[c]
        out[28 + c] = 1.0 if action == FISHING else 0.0
        out[34 + c] = 1.0 if action == LACE else 0.0
    for sp, cards in enumerate(state.fish_display):
        out[40 + sp] = cards / 3.0
    out[48] = sum(state.fish_deck()) / 48.0
    out[49] = len(state.building_deck()) / 16.0
    for card in state.building_display:
        out[50 + families[card]] += 1.0 / copies[families[card]]
    for kind in range(4):
        out[60 + kind] = sum(state.roof_stack(kind)) / 12.0
    for ship in state.ports[0]:
        out[64 + ship] = 1.0
    for level, cubes in enumerate(state.cubes):
        out[68 + level] = sum(1 for c in cubes if c != EMPTY) / 40.0
    out[71] = len(state.roofs) / 20.0

    islands = island_vp(state)
    for k in range(n):
        p = (seat + k) % n
        pl = state.players[p]
        base = GLOBAL_FEATURES + k * SEAT_FEATURES
        bonus = end_bonus(state, p)
        out[base] = pl.vp / 100.0
        out[base + 1] = pl.coins / 20.0
        out[base + 2] = pl.privilege / 10.0
        out[base + 3] = bonus / 30.0
        out[base + 4] = (pl.vp + bonus) / 100.0
        for sp in range(8):
            out[base + 5 + sp] = (pl.hand_known[sp] + pl.hand_blind[sp]) / 6.0
        out[base + 13] = sum(pl.sold[:SPECIES_A]) / 8.0
        out[base + 14] = sum(pl.sold[SPECIES_A:]) / 8.0
        for c in pl.pyramid:
            if c != EMPTY:
                out[base + 15 + c] += 1.0 / 5.0
        out[base + 21] = state.pyramid_count(p) / 14.0
        out[base + 22] = sum(1 for pos in range(len(pl.pyramid)) if state.is_free(p, pos)) / 9.0
        for c in range(6):
            out[base + 23 + c] = pl.prep[c] / 3.0
        out[base + 29] = sum(pl.reserve) / 20.0
        for tile in pl.roof_slots:
            if tile is not None:
                out[base + 30 + tile[0]] += 1.0 / 3.0
        for card in pl.buildings:
            out[base + 34 + families[card]] += 1.0 / copies[families[card]]
        workers = len(state.workshop_workers(p))
        out[base + 44] = pl.ring_workers / 13.0
        out[base + 45] = sum(state.island_workers[i][p] for i in range(len(state.island_workers))) / 6.0
        out[base + 46] = workers / 6.0
        out[base + 47] = state.island_majorities(p) / 6.0
        out[base + 48] = state.workshop_majorities(p) / 6.0
        out[base + 49] = state.visible_symbols(p, FOUNTAIN) / 6.0
        out[base + 50] = state.visible_symbols(p, COIN) / 6.0
        for c, covered in enumerate(state.covered_colours(p)):
            out[base + 51 + c] = covered / 4.0
        for c in state.arrows(p):
            out[base + 57 + c] += 1.0 / 3.0
        out[base + 63] = islands[p] / 12.0
        out[base + 64] = lace_vp(state, p) / 30.0
        out[base + 65 + pl.boat] = 1.0
    return out
