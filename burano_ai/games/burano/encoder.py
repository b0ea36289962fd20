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
GLOBAL_FEATURES = 70
SEAT_FEATURES = 53
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


def hand_shape(pl) -> tuple[int, int, int, int, int]:
    """A hand as the ships read it (§6.2): cards, species held, the most of one species, species held twice
    or more, three times or more."""
    counts = [known + blind for known, blind in zip(pl.hand_known, pl.hand_blind)]
    return (sum(counts), sum(1 for c in counts if c >= 1), max(counts), sum(1 for c in counts if c >= 2),
            sum(1 for c in counts if c >= 3))


def sailing(state, p: int) -> tuple[int, int, int]:
    """Seat `p`'s fishing prospects: the best matches on an island one sail away, whether a port one sail away
    holds a ship, the best matches on any island."""
    from burano_ai.games.burano import topology
    near = port = 0
    for node in state.sail_destinations(p):
        island = topology.NODE_ISLAND[node]
        if island >= 0:
            near = max(near, state.matches(p, island))
        elif state.ports[topology.NODE_PORT[node]]:
            port = 1
    return near, port, max(state.matches(p, island) for island in range(len(state.docks)))


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
        out[28 + c] = 1.0 if state.markers[c] == FISHING else 0.0
        out[34 + c] = 1.0 if state.markers[c] == LACE else 0.0
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
    out[68] = sum(1 for level in state.cubes for c in level if c != EMPTY) / 40.0
    out[69] = len(state.roofs) / 20.0

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
        for i, (v, scale) in enumerate(zip(hand_shape(pl), (10, 4, 4, 3, 2))):
            out[base + 5 + i] = v / scale
        out[base + 10] = sum(pl.sold[:SPECIES_A]) / 8.0
        out[base + 11] = sum(pl.sold[SPECIES_A:]) / 8.0
        for c in range(6):
            out[base + 12 + c] = pl.pyramid.count(c) / 5.0
            out[base + 19 + c] = pl.prep[c] / 3.0
        out[base + 18] = sum(1 for pos in range(len(pl.pyramid)) if state.is_free(p, pos)) / 9.0
        out[base + 25] = sum(pl.reserve) / 20.0
        for tile in pl.roof_slots:
            if tile is not None:
                out[base + 26 + tile[0]] += 1.0 / 3.0
        owned = [families[card] for card in pl.buildings]
        out[base + 30] = owned.count(buildings.ROOF_BONUS) / 3.0
        out[base + 31] = owned.count(buildings.ROOF_WILDCARD) / 3.0
        out[base + 32] = 1.0 if buildings.LONG_VOYAGE in owned else 0.0
        out[base + 33] = 1.0 if buildings.LACE_BUMPING in owned else 0.0
        out[base + 34] = 1.0 if buildings.ISLAND_TIES in owned else 0.0
        workers = len(state.workshop_workers(p))
        out[base + 35] = pl.ring_workers / 13.0
        out[base + 36] = sum(state.island_workers[i][p] for i in range(len(state.island_workers))) / 6.0
        out[base + 37] = workers / 6.0
        out[base + 38] = state.island_majorities(p) / 6.0
        out[base + 39] = state.workshop_majorities(p) / 6.0
        out[base + 40] = state.visible_symbols(p, FOUNTAIN) / 6.0
        out[base + 41] = state.visible_symbols(p, COIN) / 6.0
        for c in state.arrows(p):
            out[base + 42 + c] += 1.0 / 3.0
        near, port, best = sailing(state, p)
        out[base + 48] = near / 3.0
        out[base + 49] = float(port)
        out[base + 50] = best / 3.0
        out[base + 51] = islands[p] / 12.0
        out[base + 52] = lace_vp(state, p) / 30.0
    return out
