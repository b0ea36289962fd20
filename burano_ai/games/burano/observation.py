"""Observation tensors: one seat's view of a position as a flat float32 vector for neural networks.

`encode(state, seat)` reads the seat's one-seat view (`state.to_dict(seat)`, docs/position-format.md), so
it holds exactly what the seat may know: opponents' blind fish cards only as a count, the fish deck only
as its size, opponents' half-built pyramids only as the cubes they hold and how many they placed. Two
states that `seat` cannot tell apart (`state.resample(seat, seed)`) give the same tensor.

Seats are written relative to the observer: ``seat0`` is the observer, ``seat1`` the next seat in seat
order, and so on, so one network can play every seat (the segment ``observer`` still says which letter
the observer is, since seat islands and ring setups differ by letter). Counts are divided by the
documented divisor of their segment so that they lie roughly in [0, 1]; coins and VP have no upper bound
and may exceed 1. `layout(num_players)` lists the segments (name, offset, size, shape, meaning);
docs/observation.md is the same table for readers. The tensor is identical for the compiled core and the
reference model (both write the same view).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from burano_ai.games.burano import topology
from burano_ai.games.burano.data.buildings import NUM_BUILDINGS
from burano_ai.games.burano.data.colours import (
    COLOUR_LETTERS,
    COLOURS,
    CUBES_PER_COLOUR,
    NUM_COLOURS,
    SEAT_LETTERS,
)
from burano_ai.games.burano.data.fish import CARDS_PER_SPECIES, SPECIES, TOTAL_FISH_CARDS
from burano_ai.games.burano.data.island import MAX_LEVEL, MAX_ROOF_LEVEL
from burano_ai.games.burano.data.ring import ACTIVE_WORKERS, NUM_HOUSES, NUM_PIECES
from burano_ai.games.burano.data.roofs import (
    NUM_ROOF_KINDS,
    ROOF_KINDS,
    ROOF_PAIRS,
    ROOF_SLOTS,
    TILES_PER_KIND,
)
from burano_ai.games.burano.data.route import NUM_ISLANDS
from burano_ai.games.burano.data.ships import SHIPS
from burano_ai.games.burano.data.turn import ACTIONS, MAX_MOVES, PREP_SLOTS, PYRAMID_SIZE, SEASON_ROUNDS, SEASONS
from burano_ai.games.burano.data.workshops import NUM_SQUARES
from burano_ai.games.burano.notation import BUILDING_NAMES, PIECE_NAMES
from burano_ai.games.burano.enums import CHANCE_KIND_NAMES, PHASE_NAMES, STAGE_NAMES

MAX_PLAYERS = len(SEAT_LETTERS)
NUM_SPECIES = len(SPECIES)
NUM_HOLES = topology.NUM_HOLES
NUM_ROUTE_NODES = len(topology.ROUTE_NODE_NAMES)
MAX_ROUND = max(SEASON_ROUNDS) + 1   # one more than the last round during clean-up

#: Divisors of the scaled counts (a count c is written as c / divisor).
COINS_SCALE = 30.0
VP_SCALE = 100.0
PRIVILEGE_SCALE = 5.0
ISLAND_WORKERS_SCALE = 5.0
RESERVE_SCALE = 10.0
HAND_SCALE = 10.0
SHORTFALL_SCALE = 6.0
COUNT_SCALE_3 = 3.0   # fish matches, draws left, lace allowances, roof picks, docks, display


class Segment(NamedTuple):
    """One named part of the tensor: ``tensor[offset:offset + size].reshape(shape)``."""

    name: str
    offset: int
    size: int
    shape: tuple[int, ...]
    meaning: str


def _shared_parts(n: int) -> list[tuple[str, tuple[int, ...], str]]:
    return [
        ("observer", (MAX_PLAYERS,), "one-hot: the observer's seat letter A-D"),
        ("stage", (len(STAGE_NAMES),), "one-hot: " + ", ".join(STAGE_NAMES)),
        ("phase", (len(PHASE_NAMES),), "one-hot: " + ", ".join(PHASE_NAMES)),
        ("season", (len(SEASONS),), "one-hot: " + ", ".join(SEASONS)),
        ("round", (MAX_ROUND,), f"one-hot: round 1..{MAX_ROUND} (one past the season's last round = clean-up)"),
        ("first_player", (n,), "one-hot, relative seat holding the first-player marker"),
        ("actor", (n,), "one-hot, relative seat making the pending decision (all 0 if none)"),
        ("moves", (MAX_MOVES + 1,), f"one-hot: moves made in this turn, 0..{MAX_MOVES}"),
        ("order_index", (1,), f"position in the current turn-order loop / {MAX_PLAYERS}"),
        ("chance", (len(CHANCE_KIND_NAMES),), "one-hot pending chance event: " + ", ".join(CHANCE_KIND_NAMES)),
        ("chance_roof_kind", (NUM_ROOF_KINDS,), "one-hot roof kind being drawn at a roof-tile chance node"),
        ("sail_target", (NUM_ISLANDS,), "one-hot island the boat is about to sail to while docks are swapped"),
        ("swap_pick", (NUM_ISLANDS, NUM_COLOURS), "[island, colour]: 1 on the dock picked for a swap, awaiting "
                                                  "its partner"),
        ("fish_island", (NUM_ISLANDS,), "one-hot island being fished (I1..I6)"),
        ("fish_matches", (1,), "matches of this fishing trip / 3"),
        ("draws_left", (1,), "fish cards still to draw on this trip / 3"),
        ("lace_allow", (NUM_COLOURS,), "per colour: uses the arrows still allow in this lace action / 3"),
        ("discount_used", (1,), "1 if the lace-discount card was used in this lace scoring"),
        ("shortfall", (1,), f"cubes still owed in replenishment / {SHORTFALL_SCALE:g}"),
        ("picks_left", (1,), "roof tiles still to pick / 3"),
        ("kinds_picked", (NUM_ROOF_KINDS,), "per roof kind: 1 if picked in this refill"),
        ("pyramid_target", (1,), f"cubes the current builder must place / {PYRAMID_SIZE}"),
        ("pay_queue", (NUM_SQUARES,), ("per workshop square: 1 if still to decide in lace scoring "
                                       "(the lowest-numbered one is decided next)")),
        ("paid", (NUM_SQUARES,), "per workshop square: 1 if paid in this lace scoring"),
        ("markers", (len(ACTIONS), NUM_COLOURS), ("[action, colour]: 1 if the colour triggers the action "
                                                  "(fishing, lace, earning)")),
        ("docks", (NUM_ISLANDS, NUM_COLOURS), "[island, colour]: docks of that colour on I1..I6 / 3"),
        ("ports", (2, len(SHIPS)), "[port, ship]: 1 if the ship is in PortL / PortR"),
        ("cubes", (MAX_LEVEL, NUM_HOLES, NUM_COLOURS), ("[level, hole, colour]: 1 if that cube stands there "
                                                         "(holes in topology.HOLE_NAMES order)")),
        ("roof_field", (MAX_ROOF_LEVEL, NUM_HOLES, NUM_COLOURS), ("[level, hole, colour]: field colour of the "
                                                                   "roof lying on that hole's cube of that level")),
        ("roof_kind", (MAX_ROOF_LEVEL, NUM_HOLES, NUM_ROOF_KINDS), "[level, hole, kind]: kind of that roof"),
        ("roof_partner", (MAX_ROOF_LEVEL, NUM_HOLES, 4), ("[level, hole, dir]: where the roof's other cell is: "
                                                          "x+2, x-2, y+2, y-2")),
        ("roof_pending", (MAX_ROOF_LEVEL, NUM_HOLES), "[level, hole]: 1 under the roof awaiting bonus and scoring"),
        ("supply", (NUM_COLOURS,), f"cubes in the general supply per colour / {CUBES_PER_COLOUR}"),
        ("fish_display", (NUM_SPECIES,), "face-up fish cards per species / 3"),
        ("fish_deck", (1,), f"fish cards left in the deck / {TOTAL_FISH_CARDS}"),
        ("building_display", (NUM_BUILDINGS,), "per building card: 1 if face up in the display"),
        ("building_deck", (1,), f"building cards left in the deck / {NUM_BUILDINGS}"),
        ("roof_stacks", (NUM_ROOF_KINDS,), f"roof tiles left in each kind's stack / {TILES_PER_KIND}"),
        ("roofs_removed", (NUM_ROOF_KINDS, len(ROOF_PAIRS)), ("[kind, colour pair]: 1 if that tile was removed "
                                                              "from the game (pairs in data.roofs.ROOF_PAIRS "
                                                              "order)")),
        ("workshop_layout", (NUM_SQUARES, NUM_COLOURS + 1), ("[square, 6 colours + coin]: the square's tile colour "
                                                             "(all 0 if empty) and 1 in the last column for a coin "
                                                             "square")),
        ("workshop_workers", (NUM_SQUARES, n), "[square, relative seat]: 1 if that seat's worker is there"),
    ]


def _seat_parts() -> list[tuple[str, tuple[int, ...], str]]:
    return [
        ("ring_pieces", (NUM_PIECES, NUM_PIECES), "[quarter A-D, piece r1-r4]: 1 if the piece lies there"),
        ("ring_offset", (NUM_HOUSES,), "one-hot: the house under sector 1 of the time wheel"),
        ("ring_workers", (1,), f"workers on the ring / {ACTIVE_WORKERS}"),
        ("coins", (1,), f"coins / {COINS_SCALE:g} (unbounded)"),
        ("vp", (1,), f"victory points / {VP_SCALE:g} (unbounded)"),
        ("privilege", (1,), f"privilege tokens / {PRIVILEGE_SCALE:g}"),
        ("prep", (NUM_COLOURS,), f"cubes in the preparation area per colour / {PREP_SLOTS}"),
        ("reserve", (NUM_COLOURS,), f"cubes in the reserve per colour / {RESERVE_SCALE:g} (0 while hidden)"),
        ("pyramid", (PYRAMID_SIZE, NUM_COLOURS), ("[position b1..b9 m1..m4 top, colour]: the pyramid's cubes "
                                                  "(all 0 while hidden)")),
        ("pyramid_hidden", (1,), "1 while the seat's pyramid is secret to the observer (pyramid stage)"),
        ("held", (NUM_COLOURS,), f"cubes held in pyramid + reserve per colour / {PYRAMID_SIZE} (always known)"),
        ("placed", (1,), f"cubes placed in the pyramid / {PYRAMID_SIZE}"),
        ("roof_slots", (ROOF_SLOTS, NUM_ROOF_KINDS + NUM_COLOURS), ("[slot, 4 kinds + 6 colours]: the tile in "
                                                                    "each slot: kind one-hot, then its two field "
                                                                    "colours")),
        ("buildings", (NUM_BUILDINGS,), "per building card: 1 if owned"),
        ("sold", (NUM_SPECIES,), f"sold-fish area per species / {CARDS_PER_SPECIES}"),
        ("boat", (NUM_ROUTE_NODES,), "one-hot route node of the boat: " + ", ".join(topology.ROUTE_NODE_NAMES)),
        ("islands", (NUM_ISLANDS,), f"workers on I1..I6 / {ISLAND_WORKERS_SCALE:g}"),
        ("workshop_count", (1,), f"workers in the workshops / {ACTIVE_WORKERS}"),
        ("hand_known", (NUM_SPECIES,), f"fish cards taken face up, per species / {CARDS_PER_SPECIES}"),
        ("hand_blind", (NUM_SPECIES,), (f"blind fish cards per species / {CARDS_PER_SPECIES} (observer only; "
                                         "0 for other seats)")),
        ("hand_blind_count", (1,), f"number of blind fish cards / {HAND_SCALE:g}"),
    ]


def _build_layout(n: int) -> tuple[Segment, ...]:
    parts = _shared_parts(n) + [(f"seat{k}.{name}", shp, meaning)
                                for k in range(n) for (name, shp, meaning) in _seat_parts()]
    out, offset = [], 0
    for name, shp, meaning in parts:
        size = int(np.prod(shp))
        out.append(Segment(name, offset, size, shp, meaning))
        offset += size
    return tuple(out)


_LAYOUTS = {n: _build_layout(n) for n in (2, 3, 4)}
_OFFSETS = {n: {seg.name: seg.offset for seg in segs} for n, segs in _LAYOUTS.items()}
_SIZES = {n: segs[-1].offset + segs[-1].size for n, segs in _LAYOUTS.items()}
_SEAT_STRIDE = sum(int(np.prod(shp)) for _, shp, _ in _seat_parts())   # values per seat block


def _check_players(num_players: int) -> None:
    if num_players not in _LAYOUTS:
        raise ValueError(f"num_players must be 2, 3 or 4, not {num_players!r}")


def layout(num_players: int) -> tuple[Segment, ...]:
    """The named segments of the tensor, in order; they tile it exactly."""
    _check_players(num_players)
    return _LAYOUTS[num_players]


def shape(num_players: int) -> tuple[int]:
    """The tensor shape (one dimension) for `num_players`."""
    _check_players(num_players)
    return (_SIZES[num_players],)


# ------------------------------------------------------------------------------------------------
# Name -> index tables


def _index(names) -> dict[str, int]:
    return {name: i for i, name in enumerate(names)}


_SEAT = _index(SEAT_LETTERS)
_STAGE = _index(STAGE_NAMES)
_PHASE = _index(PHASE_NAMES)
_SEASON = _index(SEASONS)
_CHANCE = _index(CHANCE_KIND_NAMES)
_COLOUR = _index(COLOURS)
_SPECIES = _index(SPECIES)
_ROOF_KIND = _index(ROOF_KINDS)
_ISLAND = _index(topology.ISLAND_NAMES)
_PORT = _index(topology.PORT_NAMES)
_NODE = _index(topology.ROUTE_NODE_NAMES)
_SHIP = _index(SHIPS)
_ACTION = _index(ACTIONS)
_BUILDING = _index(BUILDING_NAMES)
_PIECE = _index(PIECE_NAMES)
_HOLE = _index(topology.HOLE_NAMES)
_SQUARE = _index(topology.SQUARE_NAMES)
_PAIR = {frozenset(pair): i for i, pair in enumerate(ROOF_PAIRS)}
_HOLE_XY = topology.HOLES
_DIRECTION = {(2, 0): 0, (-2, 0): 1, (0, 2): 2, (0, -2): 3}
#: Offset of each per-seat segment within a seat's block (the same for every player count).
_SEAT_OFFSETS = {name: _OFFSETS[2][f"seat0.{name}"] - _OFFSETS[2]["seat0.ring_pieces"] for name, _, _ in _seat_parts()}
_LAYOUT_CELLS: dict[tuple, dict[int, float]] = {}


def _workshop_layout_cells(n: int, rows: tuple[str, ...] | None) -> dict[int, float]:
    """The nonzero cells of segment ``workshop_layout`` for layout `rows` (None: the default), cached."""
    key = (n, rows)
    cells = _LAYOUT_CELLS.get(key)
    if cells is None:
        if rows is None:
            rows = tuple(topology.default_workshop_layout(n).rows)
        base = _OFFSETS[n]["workshop_layout"]
        cells = {}
        for r, row in enumerate(rows):
            tokens = row.split()
            for col, token in enumerate(tokens):
                sq = base + (r * len(tokens) + col) * (NUM_COLOURS + 1)
                if token[0] != ".":
                    cells[sq + COLOUR_LETTERS.index(token[0].upper())] = 1.0
                if token.endswith("$"):
                    cells[sq + NUM_COLOURS] = 1.0
        _LAYOUT_CELLS[key] = cells
    return cells


# ------------------------------------------------------------------------------------------------
# Encoding


def encode(state, seat: int) -> np.ndarray:
    """The observation tensor of `seat` in `state` (either implementation): float32, shape `shape(n)`."""
    n = state.num_players
    out = np.zeros(shape(n), np.float32)
    encode_view_into(out, state.to_dict(seat))
    return out


def encode_view(view: dict[str, Any]) -> np.ndarray:
    """The tensor of a one-seat view dict as `state.to_dict(seat)` writes it (canonical lower-case names)."""
    out = np.zeros(shape(view["players"]), np.float32)
    encode_view_into(out, view)
    return out


def encode_view_into(out: np.ndarray, view: dict[str, Any]) -> None:
    """Write the tensor of one-seat view `view` into the zero-filled float32 vector `out`."""
    n = view["players"]
    if view.get("view") is None:
        raise ValueError("an observation is encoded from a one-seat view, not a full position")
    me = _SEAT[view["view"]]
    o = _OFFSETS[n]
    t: dict[int, float] = {}   # index -> value; written into `out` at once (numpy item writes are slow)

    def rel(letter: str) -> int:
        return (_SEAT[letter] - me) % n

    t[o["observer"] + me] = 1
    t[o["stage"] + _STAGE[view.get("stage", "rounds")]] = 1
    t[o["phase"] + _PHASE[view.get("phase", "turn")]] = 1
    t[o["season"] + _SEASON[view["season"]]] = 1
    t[o["round"] + view["round"] - 1] = 1
    t[o["first_player"] + rel(view["first_player"])] = 1
    if view.get("actor") is not None:
        t[o["actor"] + rel(view["actor"])] = 1

    ctx = view.get("context") or {}
    t[o["moves"] + ctx.get("moves", 0)] = 1
    t[o["order_index"]] = ctx.get("order_index", 0) / MAX_PLAYERS
    t[o["chance"] + _CHANCE[ctx.get("chance", "none")]] = 1
    if ctx.get("chance_arg") is not None:
        t[o["chance_roof_kind"] + _ROOF_KIND[ctx["chance_arg"]]] = 1
    if ctx.get("sail_target") is not None:
        t[o["sail_target"] + _ISLAND[ctx["sail_target"]]] = 1
    if ctx.get("swap_pick") is not None:
        island, colour = ctx["swap_pick"].split(":")
        t[o["swap_pick"] + _ISLAND[island] * NUM_COLOURS + _COLOUR[colour]] = 1
    if ctx.get("fish_island") is not None:
        t[o["fish_island"] + _ISLAND[ctx["fish_island"]]] = 1
    t[o["fish_matches"]] = ctx.get("fish_matches", 0) / COUNT_SCALE_3
    t[o["draws_left"]] = ctx.get("draws_left", 0) / COUNT_SCALE_3
    for colour, k in _counts(ctx.get("lace_allow", {})).items():
        t[o["lace_allow"] + _COLOUR[colour]] = k / COUNT_SCALE_3
    t[o["discount_used"]] = float(bool(ctx.get("discount_used", False)))
    t[o["shortfall"]] = ctx.get("shortfall", 0) / SHORTFALL_SCALE
    t[o["picks_left"]] = ctx.get("picks_left", 0) / COUNT_SCALE_3
    for kind in ctx.get("kinds_picked", ()):
        t[o["kinds_picked"] + _ROOF_KIND[kind]] = 1
    t[o["pyramid_target"]] = ctx.get("pyramid_target", 0) / PYRAMID_SIZE
    for sq in ctx.get("pay_queue", ()):
        t[o["pay_queue"] + _SQUARE[sq]] = 1
    for sq in ctx.get("paid", ()):
        t[o["paid"] + _SQUARE[sq]] = 1

    base = o["markers"]
    for action, colours in view["markers"].items():
        for c in colours:
            t[base + _ACTION[action] * NUM_COLOURS + _COLOUR[c]] = 1
    base = o["docks"]
    for island, colours in view["docks"].items():
        for c in set(colours):
            t[base + _ISLAND[island] * NUM_COLOURS + _COLOUR[c]] = colours.count(c) / COUNT_SCALE_3
    base = o["ports"]
    for port, ships in view["ports"].items():
        for ship in ships:
            t[base + _PORT[port] * len(SHIPS) + _SHIP[ship]] = 1

    # The island: cubes by level, roofs by the level and holes of the cubes they rest on.
    on_island = [0] * NUM_COLOURS
    base = o["cubes"]
    for hole, stack in view["island"]["cubes"].items():
        h = _HOLE[hole]
        for level, c in enumerate(stack):
            ci = _COLOUR[c]
            on_island[ci] += 1
            t[base + (level * NUM_HOLES + h) * NUM_COLOURS + ci] = 1
    pending = ctx.get("pending_roof")
    used_tiles = [0] * NUM_ROOF_KINDS
    for r, roof in enumerate(view["island"]["roofs"]):
        level = roof["level"] - 1
        kind = _ROOF_KIND[roof["kind"]]
        used_tiles[kind] += 1
        cells = [_HOLE[cell] for cell in roof["cells"]]
        for i, (h, field) in enumerate(zip(cells, roof["fields"])):
            cell = level * NUM_HOLES + h
            (x, y), (px, py) = _HOLE_XY[h], _HOLE_XY[cells[1 - i]]
            t[o["roof_field"] + cell * NUM_COLOURS + _COLOUR[field]] = 1
            t[o["roof_kind"] + cell * NUM_ROOF_KINDS + kind] = 1
            t[o["roof_partner"] + cell * 4 + _DIRECTION[(px - x, py - y)]] = 1
            if r == pending:
                t[o["roof_pending"] + cell] = 1

    base = o["fish_display"]
    for species, k in _counts(view["fish_display"]).items():
        t[base + _SPECIES[species]] = k / COUNT_SCALE_3
    t[o["fish_deck"]] = view.get("fish_deck_size", 0) / TOTAL_FISH_CARDS
    buildings_out = 0
    for card in view["building_display"]:
        t[o["building_display"] + _BUILDING[card]] = 1
        buildings_out += 1
    base = o["roofs_removed"]
    for tile in view["roofs_removed"]:
        kind = _ROOF_KIND[tile["kind"]]
        used_tiles[kind] += 1
        t[base + kind * len(ROOF_PAIRS) + _PAIR[frozenset(_COLOUR[c] for c in tile["fields"])]] = 1

    rows = view.get("workshop_layout")
    t.update(_workshop_layout_cells(n, tuple(rows) if rows is not None else None))

    # The seats, the observer first.
    stride = _SEAT_STRIDE
    seat0 = o["seat0.ring_pieces"]
    so = _SEAT_OFFSETS
    held_total = [0] * NUM_COLOURS
    for entry in view["seats"]:
        k = rel(entry["seat"])
        s = seat0 + k * stride
        for quarter, piece in enumerate(entry["ring"]["pieces"]):
            t[s + so["ring_pieces"] + quarter * NUM_PIECES + _PIECE[piece]] = 1
        t[s + so["ring_offset"] + entry["ring"]["offset"]] = 1
        t[s + so["ring_workers"]] = entry["ring"]["workers"] / ACTIVE_WORKERS
        t[s + so["coins"]] = entry["coins"] / COINS_SCALE
        t[s + so["vp"]] = entry["vp"] / VP_SCALE
        t[s + so["privilege"]] = entry["privilege"] / PRIVILEGE_SCALE
        for c, count in _counts(entry["prep"]).items():
            ci = _COLOUR[c]
            held_total[ci] += count
            t[s + so["prep"] + ci] = count / PREP_SLOTS
        if entry.get("pyramid") is None:   # hidden: only the cubes held and how many are placed
            t[s + so["pyramid_hidden"]] = 1
            held = {_COLOUR[c]: count for c, count in _counts(entry["cubes"]).items()}
            placed = entry["placed"]
        else:
            held = {}
            placed = 0
            for pos, c in enumerate(entry["pyramid"]):
                if c is not None:
                    ci = _COLOUR[c]
                    held[ci] = held.get(ci, 0) + 1
                    placed += 1
                    t[s + so["pyramid"] + pos * NUM_COLOURS + ci] = 1
            for c, count in _counts(entry["reserve"] or {}).items():
                ci = _COLOUR[c]
                held[ci] = held.get(ci, 0) + count
                t[s + so["reserve"] + ci] = count / RESERVE_SCALE
        for ci, count in held.items():
            held_total[ci] += count
            t[s + so["held"] + ci] = count / PYRAMID_SIZE
        t[s + so["placed"]] = placed / PYRAMID_SIZE
        for slot, tile in enumerate(entry["roof_slots"]):
            if tile is not None:
                kind = _ROOF_KIND[tile["kind"]]
                used_tiles[kind] += 1
                at = s + so["roof_slots"] + slot * (NUM_ROOF_KINDS + NUM_COLOURS)
                t[at + kind] = 1
                for c in tile["fields"]:
                    t[at + NUM_ROOF_KINDS + _COLOUR[c]] = 1
        for card in entry["buildings"]:
            t[s + so["buildings"] + _BUILDING[card]] = 1
            buildings_out += 1
        for species, count in _counts(entry["sold"]).items():
            t[s + so["sold"] + _SPECIES[species]] = count / CARDS_PER_SPECIES
        t[s + so["boat"] + _NODE[entry["boat"]]] = 1
        for island, workers in entry["islands"].items():
            t[s + so["islands"] + _ISLAND[island]] = workers / ISLAND_WORKERS_SCALE
        t[s + so["workshop_count"]] = len(entry["workshop"]) / ACTIVE_WORKERS
        for sq in entry["workshop"]:
            t[o["workshop_workers"] + _SQUARE[sq] * n + k] = 1
        hand = entry["hand"]
        for species, count in _counts(hand["known"]).items():
            t[s + so["hand_known"] + _SPECIES[species]] = count / CARDS_PER_SPECIES
        blind = hand["blind"]
        if isinstance(blind, int):
            blind_count = blind
        else:
            blind = _counts(blind)
            blind_count = sum(blind.values())
            for species, count in blind.items():
                t[s + so["hand_blind"] + _SPECIES[species]] = count / CARDS_PER_SPECIES
        t[s + so["hand_blind_count"]] = blind_count / HAND_SCALE

    base = o["supply"]
    for ci in range(NUM_COLOURS):
        t[base + ci] = (CUBES_PER_COLOUR - on_island[ci] - held_total[ci]) / CUBES_PER_COLOUR
    t[o["building_deck"]] = (NUM_BUILDINGS - buildings_out) / NUM_BUILDINGS
    base = o["roof_stacks"]
    for kind in range(NUM_ROOF_KINDS):
        t[base + kind] = (TILES_PER_KIND - used_tiles[kind]) / TILES_PER_KIND
    out[np.fromiter(t.keys(), np.intp, len(t))] = np.fromiter(t.values(), np.float32, len(t))


def _counts(value) -> dict[str, int]:
    """A counts object as a dict (views write dicts; hand-typed files may use lists of names)."""
    if isinstance(value, dict):
        return value
    out: dict[str, int] = {}
    for name in value:
        out[name] = out.get(name, 0) + 1
    return out


__all__ = ["Segment", "encode", "encode_view", "encode_view_into", "layout", "shape"]
