"""Position JSON: dump and load full positions and one-seat views (`Position` <-> JSON), with validation.

The format is documented in docs/position-format.md. Counts that the rules conserve are not stored but
derived (the cube supply, the fish deck, the building deck, the roof stacks), so a position cannot
contradict itself there; loading checks that nothing exceeds the game's components instead.

A one-seat view leaves out what that seat cannot know: other seats' blind fish cards (only their
number), the fish deck's composition, and, while pyramids are being built, the other seats' pyramids
(only the cubes they hold). Loading a view fills those hidden parts with a deterministic consistent
sample (`burano_ai.views`), so the loaded position is playable; a searcher then resamples them per
iteration.

This module knows the format and the components, not the rules: it imports no rules implementation.
`position_from_json` parses once and returns a `Position`; each rules implementation builds its State
from that (`Game.state_from_position`), and `burano_ai.engine.load_position` is the front door that does
both.
"""

from __future__ import annotations

import json
from typing import Any

from . import actions as A
from . import topology
from .data import buildings as B
from .data.colours import COLOURS, CUBES_PER_COLOUR, NUM_COLOURS, SEAT_LETTERS, TOTAL_CUBES
from .data.fish import CARDS_PER_SPECIES, FISH_DISPLAY_SIZE, NUM_SPECIES, SPECIES, TOTAL_FISH_CARDS
from .data.island import MAX_LEVEL
from .data.ring import ACTIVE_WORKERS, NUM_HOUSES, NUM_PIECES
from .data.roofs import NUM_ROOF_KINDS, ROOF_KINDS, ROOF_PAIRS, ROOF_SLOTS
from .data.route import NUM_ISLANDS
from .data.ships import SHIPS
from .data.turn import ACTIONS, PREP_SLOTS, PYRAMID_SIZE, SEASON_ROUNDS, SEASONS
from .enums import CHANCE_KIND_NAMES, EMPTY, NO_PLAYER, PHASE_NAMES, STAGE_NAMES, ChanceKind, Phase, Stage
from .errors import PositionError
from .position import Position, workshop_layout
from .views import fill_hidden, is_hidden_pyramid

FORMAT = "burano-position/1"
BUILDING_NAMES = tuple(card[0] for card in B.BUILDING_CARDS)
PIECE_NAMES = tuple(f"r{i + 1}" for i in range(NUM_PIECES))


def _counts_to_dict(counts: list[int], names: tuple[str, ...]) -> dict[str, int]:
    return {names[i]: n for i, n in enumerate(counts) if n}


def _seat_name(p: int) -> str:
    return SEAT_LETTERS[p]


def position_to_dict(state: Position, seat: int | None = None) -> dict[str, Any]:
    """Return the position as a JSON-ready dict: full, or as seen by `seat`."""
    n = state.num_players
    if seat is not None and not 0 <= seat < n:
        raise PositionError(f"seat {seat} does not exist in a {n}-player game")
    cubes: dict[str, list[str]] = {}
    for h in range(topology.NUM_HOLES):
        stack = [COLOURS[state.cubes[lv][h]] for lv in range(MAX_LEVEL) if state.cubes[lv][h] >= 0]
        if stack:
            cubes[topology.HOLE_NAMES[h]] = stack
    roofs = []
    for (level, line, kind, pair, flipped) in state.roofs:
        a, b, _ = topology.ROOF_LINES[line]
        fa, fb = ROOF_PAIRS[pair]
        if flipped:
            fa, fb = fb, fa
        roofs.append({"level": level, "cells": [topology.HOLE_NAMES[a], topology.HOLE_NAMES[b]],
                      "fields": [COLOURS[fa], COLOURS[fb]], "kind": ROOF_KINDS[kind]})
    seats = []
    for p, pl in enumerate(state.players):
        entry: dict[str, Any] = {
            "seat": _seat_name(p),
            "ring": {"pieces": [PIECE_NAMES[i] for i in pl.ring_pieces], "offset": pl.ring_offset,
                     "workers": pl.ring_workers},
            "coins": pl.coins, "vp": pl.vp, "privilege": pl.privilege,
            "prep": _counts_to_dict(pl.prep, COLOURS),
            "roof_slots": [None if t is None else {"kind": ROOF_KINDS[t[0]],
                                                   "fields": [COLOURS[c] for c in ROOF_PAIRS[t[1]]]}
                           for t in pl.roof_slots],
            "buildings": [BUILDING_NAMES[c] for c in pl.buildings],
            "sold": _counts_to_dict(pl.sold, SPECIES),
            "boat": topology.ROUTE_NODE_NAMES[pl.boat],
            "islands": {topology.ISLAND_NAMES[i]: state.island_workers[i][p]
                        for i in range(NUM_ISLANDS) if state.island_workers[i][p]},
            "workshop": [topology.SQUARE_NAMES[sq] for sq in state.workshop_workers(p)],
        }
        if is_hidden_pyramid(state, seat, p):
            total = [pl.reserve[c] + sum(1 for x in pl.pyramid if x == c) for c in range(NUM_COLOURS)]
            entry["pyramid"] = None
            entry["reserve"] = None
            entry["cubes"] = _counts_to_dict(total, COLOURS)
            entry["placed"] = state.pyramid_count(p)
        else:
            entry["pyramid"] = [None if c < 0 else COLOURS[c] for c in pl.pyramid]
            entry["reserve"] = _counts_to_dict(pl.reserve, COLOURS)
        if seat is None or seat == p:
            entry["hand"] = {"known": _counts_to_dict(pl.hand_known, SPECIES),
                             "blind": _counts_to_dict(pl.hand_blind, SPECIES)}
        else:
            entry["hand"] = {"known": _counts_to_dict(pl.hand_known, SPECIES), "blind": sum(pl.hand_blind)}
        seats.append(entry)
    context = {
        "moves": state.moves, "order_index": state.order_index,
        "chance": CHANCE_KIND_NAMES[state.chance_kind],
        "chance_arg": ROOF_KINDS[state.chance_arg] if state.chance_kind == ChanceKind.ROOF_TILE else None,
        "fish_island": topology.ISLAND_NAMES[state.fish_island] if state.fish_island >= 0 else None,
        "fish_matches": state.fish_matches, "draws_left": state.draws_left,
        "lace_allow": _counts_to_dict(state.lace_allow, COLOURS),
        "pending_roof": state.pending_roof if state.pending_roof >= 0 else None,
        "pay_queue": [topology.SQUARE_NAMES[s] for s in state.pay_queue],
        "paid": [topology.SQUARE_NAMES[s] for s in state.paid],
        "discount_used": state.discount_used, "shortfall": state.shortfall,
        "picks_left": state.picks_left, "kinds_picked": [ROOF_KINDS[k] for k in state.kinds_picked],
        "pyramid_target": state.pyramid_target,
    }
    return {
        "format": FORMAT,
        "players": n,
        "view": None if seat is None else _seat_name(seat),
        "workshop_layout": list(state.layout.rows),
        "season": SEASONS[state.season],
        "round": state.round,
        "first_player": _seat_name(state.first_player),
        "stage": STAGE_NAMES[state.stage],
        "phase": PHASE_NAMES[state.phase],
        "actor": None if state.actor < 0 else _seat_name(state.actor),
        "context": context,
        "markers": {ACTIONS[a]: [COLOURS[c] for c in range(NUM_COLOURS) if state.markers[c] == a]
                    for a in range(len(ACTIONS))},
        "docks": {topology.ISLAND_NAMES[i]: [COLOURS[c] for c in state.docks[i]] for i in range(NUM_ISLANDS)},
        "ports": {topology.PORT_NAMES[i]: [SHIPS[s] for s in state.ports[i]] for i in range(2)},
        "island": {"cubes": cubes, "roofs": roofs},
        "fish_display": [SPECIES[s] for s in range(NUM_SPECIES) for _ in range(state.fish_display[s])],
        "fish_deck_size": sum(state.fish_deck()),
        "building_display": [BUILDING_NAMES[c] for c in state.building_display],
        "roofs_removed": [{"kind": ROOF_KINDS[k], "fields": [COLOURS[c] for c in ROOF_PAIRS[p]]}
                          for (k, p) in state.roofs_removed],
        "seats": seats,
    }


# ------------------------------------------------------------------------------------------------
# Loading


class _Reader:
    """Field access that turns every problem into a PositionError naming the field."""

    def __init__(self, data: Any, path: str) -> None:
        self.data, self.path = data, path

    def fail(self, problem: str, field: str | None = None) -> PositionError:
        where = self.path + (f".{field}" if field is not None else "")
        return PositionError(f"{where}: {problem}")

    def get(self, field: str, default: Any = ...) -> Any:
        if not isinstance(self.data, dict):
            raise self.fail("expected an object")
        if field not in self.data:
            if default is ...:
                raise self.fail("missing", field)
            return default
        return self.data[field]

    def sub(self, field: str, default: Any = ...) -> _Reader:
        return _Reader(self.get(field, default), f"{self.path}.{field}")

    def int(self, field: str, lo: int, hi: int, default: Any = ...) -> int:
        v = self.get(field, default)
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.fail(f"expected an integer, got {v!r}", field)
        if not lo <= v <= hi:
            raise self.fail(f"{v} is out of range {lo}..{hi}", field)
        return v

    def name(self, field: str, names: tuple[str, ...], default: Any = ...) -> int:
        v = self.get(field, default)
        return _lookup(v, names, f"{self.path}.{field}")

    def list(self, field: str, default: Any = ...) -> list:
        v = self.get(field, default)
        if not isinstance(v, list):
            raise self.fail(f"expected a list, got {v!r}", field)
        return v

    def counts(self, field: str, names: tuple[str, ...], default: Any = ...) -> list[int]:
        v = self.get(field, default)
        return _counts(v, names, f"{self.path}.{field}")


def _lookup(value: Any, names: tuple[str, ...], where: str) -> int:
    if isinstance(value, str) and value.lower() in names:
        return names.index(value.lower())
    if isinstance(value, str):
        for i, n in enumerate(names):
            if n.lower() == value.lower():
                return i
    shown = ", ".join(names) if len(names) <= 16 else ", ".join(names[:16]) + ", ..."
    raise PositionError(f"{where}: unknown value {value!r} (expected one of {shown})")


def _counts(value: Any, names: tuple[str, ...], where: str) -> list[int]:
    if isinstance(value, list):   # a list of names, one per item
        out = [0] * len(names)
        for i, v in enumerate(value):
            out[_lookup(v, names, f"{where}[{i}]")] += 1
        return out
    if not isinstance(value, dict):
        raise PositionError(f"{where}: expected an object of counts, got {value!r}")
    out = [0] * len(names)
    for k, v in value.items():
        idx = _lookup(k, names, where)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise PositionError(f"{where}.{k}: expected a count >= 0, got {v!r}")
        out[idx] = v
    return out


def _tile(value: Any, where: str) -> tuple[int, int]:
    r = _Reader(value, where)
    kind = r.name("kind", ROOF_KINDS)
    fields = r.list("fields")
    if len(fields) != 2:
        raise r.fail("a roof tile has 2 fields", "fields")
    cols = tuple(_lookup(f, COLOURS, f"{where}.fields") for f in fields)
    for i, pair in enumerate(ROOF_PAIRS):
        if cols == pair or cols[::-1] == pair:
            return kind, i
    raise r.fail(f"no roof tile has the colours {fields[0]}-{fields[1]}", "fields")


def position_to_json(state: Position, seat: int | None = None, indent: int | None = None) -> str:
    """The position as JSON text: full, or as seen by `seat`."""
    return json.dumps(position_to_dict(state, seat), indent=indent)


def position_from_json(text: str, num_players: int | None = None) -> Position:
    """Parse and validate a position JSON text (full or one-seat view); return the `Position`.

    Args:
        text: the JSON text.
        num_players: if given, the position must have this many players.

    Raises:
        PositionError: malformed JSON or an invalid/impossible position (the message names the field).
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PositionError(f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    return position_from_dict(data, num_players=num_players)


def position_from_dict(data: Any, num_players: int | None = None) -> Position:
    """Build a validated `Position` from a position dict (full or one-seat view).

    A one-seat view's hidden parts (other seats' blind cards, pyramids being built) are filled with a
    deterministic consistent sample (`burano_ai.views.fill_hidden`).
    """
    root = _Reader(data, "position")
    fmt = root.get("format")
    if fmt != FORMAT:
        raise root.fail(f"unsupported format {fmt!r} (expected {FORMAT!r})", "format")
    n = root.int("players", 2, 4)
    try:
        layout_rows = root.list("workshop_layout", None) if root.get("workshop_layout", None) is not None else None
        layout = workshop_layout(n, layout_rows)
    except PositionError as exc:
        raise PositionError(f"position.workshop_layout: {exc}") from None
    if num_players is not None and num_players != n:
        raise root.fail(f"position has {n} players but the game has {num_players}", "players")
    s = Position(n, layout)
    letters = SEAT_LETTERS[:n]
    view_value = root.get("view", None)
    view = None if view_value is None else _lookup(view_value, tuple(letters.lower()), "position.view")
    s.season = root.name("season", SEASONS)
    s.round = root.int("round", 1, SEASON_ROUNDS[s.season] + 1)   # +1 once the last round is over
    s.first_player = _lookup(root.get("first_player"), tuple(letters.lower()), "position.first_player")
    s.stage = root.name("stage", STAGE_NAMES, "rounds")
    s.phase = root.name("phase", PHASE_NAMES, "turn")
    actor = root.get("actor", None)
    s.actor = NO_PLAYER if actor is None else _lookup(actor, tuple(letters.lower()), "position.actor")
    # Board.
    markers = root.sub("markers")
    mapping = [-1] * NUM_COLOURS
    for a, action in enumerate(ACTIONS):
        for c in markers.list(action):
            ci = _lookup(c, COLOURS, f"position.markers.{action}")
            if mapping[ci] != -1:
                raise markers.fail(f"colour {COLOURS[ci]} is on two action cells")
            mapping[ci] = a
    if tuple(mapping) not in A.MARKER_MAPPING_ID:
        raise markers.fail("each action cell holds exactly 2 of the 6 colours")
    s.markers = mapping
    docks = root.sub("docks")
    all_docks = [0] * NUM_COLOURS
    for i, name in enumerate(topology.ISLAND_NAMES):
        cols = [_lookup(c, COLOURS, f"position.docks.{name}") for c in docks.list(name)]
        if len(cols) != 3:
            raise docks.fail(f"an island has 3 docks, got {len(cols)}", name)
        s.docks[i] = sorted(cols)
        for c in cols:
            all_docks[c] += 1
    if all_docks != [3] * NUM_COLOURS:
        raise docks.fail("there must be 3 docks of each colour")
    ports = root.sub("ports")
    seen_ships = []
    for i, name in enumerate(topology.PORT_NAMES):
        ships = sorted(_lookup(x, SHIPS, f"position.ports.{name}") for x in ports.list(name))
        s.ports[i] = ships
        seen_ships += ships
    if sorted(seen_ships) != list(range(len(SHIPS))):
        raise ports.fail("each of the 4 ships must be in exactly one port")
    island = root.sub("island")
    cube_map = island.get("cubes")
    if not isinstance(cube_map, dict):
        raise island.fail("expected an object hole -> list of colours", "cubes")
    for hole_name, stack in cube_map.items():
        try:
            h = topology.parse_hole(hole_name)
        except ValueError as exc:
            raise island.fail(str(exc), "cubes") from None
        if not isinstance(stack, list) or not 1 <= len(stack) <= MAX_LEVEL:
            raise island.fail(f"expected 1-3 colours, got {stack!r}", f"cubes.{hole_name}")
        for lv, c in enumerate(stack):
            s.cubes[lv][h] = _lookup(c, COLOURS, f"position.island.cubes.{hole_name}")
    for k, roof in enumerate(island.list("roofs", [])):
        rr = _Reader(roof, f"position.island.roofs[{k}]")
        level = rr.int("level", 1, 2)
        cells = rr.list("cells")
        if len(cells) != 2:
            raise rr.fail("a roof covers 2 cells", "cells")
        try:
            ha, hb = (topology.parse_hole(c) for c in cells)
        except ValueError as exc:
            raise rr.fail(str(exc), "cells") from None
        flipped = ha > hb
        line = topology.ROOF_LINE_ID.get((min(ha, hb), max(ha, hb)))
        if line is None:
            raise rr.fail(f"{cells[0]}-{cells[1]} is not two holes apart on a row or column", "cells")
        kind, pair = _tile(roof, rr.path)
        fa, fb = (_lookup(f, COLOURS, rr.path + ".fields") for f in rr.list("fields"))
        if (fa, fb) != ROOF_PAIRS[pair]:
            flipped = not flipped
        a, b, _ = topology.ROOF_LINES[line]
        for h in (a, b):
            if s.cubes[level - 1][h] < 0:
                raise rr.fail(f"the roof needs a level-{level} cube under {topology.HOLE_NAMES[h]}")
            if s.roof_at[level - 1][h] >= 0:
                raise rr.fail(f"the cube at {topology.HOLE_NAMES[h]} already carries a roof")
        mid = topology.ROOF_LINES[line][2]
        if any(lv == level and topology.ROOF_LINES[ln][2] == mid for (lv, ln, _, _, _) in s.roofs):
            raise rr.fail(f"two level-{level} roofs cross at the midpoint of {cells[0]}-{cells[1]}")
        s.roofs.append((level, line, kind, pair, flipped))
        f0, f1 = ROOF_PAIRS[pair]
        s.roof_at[level - 1][a] = s.roof_at[level - 1][b] = k
        s.roof_field[level - 1][a], s.roof_field[level - 1][b] = (f1, f0) if flipped else (f0, f1)
    for h in range(topology.NUM_HOLES):
        for lv in (2, 3):
            if s.cubes[lv - 1][h] >= 0 and s.roof_at[lv - 2][h] < 0:
                raise island.fail(f"the level-{lv} cube at {topology.HOLE_NAMES[h]} has no roof under it", "cubes")
    s.fish_display = root.counts("fish_display", SPECIES)
    if sum(s.fish_display) > FISH_DISPLAY_SIZE:
        raise root.fail(f"the fish display holds at most {FISH_DISPLAY_SIZE} cards", "fish_display")
    s.building_display = sorted(_counts_index(root.list("building_display"), BUILDING_NAMES,
                                              "position.building_display"))
    s.roofs_removed = [_tile(t, f"position.roofs_removed[{i}]") for i, t in enumerate(root.list("roofs_removed", []))]
    # Seats.
    seat_list = root.list("seats")
    if len(seat_list) != n:
        raise root.fail(f"expected {n} seats, got {len(seat_list)}", "seats")
    hidden_blind = [0] * n
    hidden_pyramid: dict[int, tuple[list[int], int]] = {}
    for p, entry in enumerate(seat_list):
        r = _Reader(entry, f"position.seats[{p}]")
        pl = s.players[p]
        ring = r.sub("ring")
        pieces = [_lookup(x, PIECE_NAMES, ring.path + ".pieces") for x in ring.list("pieces")]
        if sorted(pieces) != list(range(NUM_PIECES)):
            raise ring.fail("the 4 ring pieces r1..r4 must each appear once", "pieces")
        pl.ring_pieces = pieces
        pl.ring_offset = ring.int("offset", 0, NUM_HOUSES - 1)
        pl.ring_workers = ring.int("workers", 0, ACTIVE_WORKERS)
        pl.coins = r.int("coins", 0, 10**6)
        pl.vp = r.int("vp", 0, 10**6)
        pl.privilege = r.int("privilege", 0, 10**6)
        pl.prep = r.counts("prep", COLOURS, {})
        if sum(pl.prep) > PREP_SLOTS:
            raise r.fail(f"the preparation area has {PREP_SLOTS} slots, got {sum(pl.prep)} cubes", "prep")
        slots = r.list("roof_slots", [None] * ROOF_SLOTS)
        if len(slots) != ROOF_SLOTS:
            raise r.fail(f"expected {ROOF_SLOTS} roof slots (null for empty)", "roof_slots")
        pl.roof_slots = [None if t is None else _tile(t, f"{r.path}.roof_slots[{i}]") for i, t in enumerate(slots)]
        pl.buildings = _counts_index(r.list("buildings", []), BUILDING_NAMES, r.path + ".buildings")
        pl.sold = r.counts("sold", SPECIES, {})
        pl.boat = _lookup(r.get("boat"), tuple(x.lower() for x in topology.ROUTE_NODE_NAMES), r.path + ".boat")
        for name, count in r.get("islands", {}).items():
            i = _lookup(name, tuple(x.lower() for x in topology.ISLAND_NAMES), r.path + ".islands")
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise r.fail(f"expected a worker count, got {count!r}", f"islands.{name}")
            s.island_workers[i][p] = count
        for sq_name in r.list("workshop", []):
            try:
                sq = topology.parse_square(sq_name)
            except ValueError as exc:
                raise r.fail(str(exc), "workshop") from None
            if layout.colour[sq] < 0:
                raise r.fail(f"square {sq_name} is empty in this layout and takes no worker", "workshop")
            if s.workshop[sq] != NO_PLAYER:
                raise r.fail(f"square {sq_name} already holds a worker of seat {SEAT_LETTERS[s.workshop[sq]]}",
                             "workshop")
            s.workshop[sq] = p
        hand = r.sub("hand", {})
        pl.hand_known = hand.counts("known", SPECIES, {})
        blind = hand.get("blind", {})
        if isinstance(blind, int) and not isinstance(blind, bool):
            if view is None or p == view:
                raise hand.fail("a count of blind cards is only allowed for other seats in a one-seat view",
                                "blind")
            if blind < 0:
                raise hand.fail("blind card count must be >= 0", "blind")
            hidden_blind[p] = blind
        else:
            pl.hand_blind = hand.counts("blind", SPECIES, {})
        if r.get("pyramid", None) is None and r.get("cubes", None) is not None:
            if view is None or p == view:
                raise r.fail("a hidden pyramid is only allowed for other seats in a one-seat view", "pyramid")
            hidden_pyramid[p] = (r.counts("cubes", COLOURS), r.int("placed", 0, PYRAMID_SIZE))
        else:
            pyr = r.list("pyramid")
            if len(pyr) != PYRAMID_SIZE:
                raise r.fail(f"expected {PYRAMID_SIZE} entries (b1..b9, m1..m4, top; null = empty)", "pyramid")
            pl.pyramid = [EMPTY if c is None else _lookup(c, COLOURS, f"{r.path}.pyramid[{i}]")
                          for i, c in enumerate(pyr)]
            pl.reserve = r.counts("reserve", COLOURS, {})
        total_workers = pl.ring_workers + sum(s.island_workers[i][p] for i in range(NUM_ISLANDS)) \
            + len(s.workshop_workers(p))
        if total_workers != ACTIVE_WORKERS:
            raise r.fail(f"seat has {total_workers} workers on ring, islands and workshops; "
                         f"it must have {ACTIVE_WORKERS}")
        if pl.ring_workers < 1:
            raise r.fail("the ring must keep at least one worker", "ring.workers")
    # Context.
    if root.get("context", None) is None and s.phase != Phase.TURN:
        raise root.fail(f"phase {PHASE_NAMES[s.phase]!r} needs the context block (only 'turn' may omit it)",
                        "context")
    ctx = root.sub("context", {})
    s.moves = ctx.int("moves", 0, 4, 0)
    s.order_index = ctx.int("order_index", 0, n, 0)
    s.chance_kind = ctx.name("chance", CHANCE_KIND_NAMES, "none")
    arg = ctx.get("chance_arg", None)
    s.chance_arg = 0 if arg is None else _lookup(arg, ROOF_KINDS, "position.context.chance_arg")
    fi = ctx.get("fish_island", None)
    s.fish_island = EMPTY if fi is None else _lookup(fi, tuple(x.lower() for x in topology.ISLAND_NAMES),
                                                     "position.context.fish_island")
    s.fish_matches = ctx.int("fish_matches", 0, 3, 0)
    s.draws_left = ctx.int("draws_left", 0, 3, 0)
    s.lace_allow = ctx.counts("lace_allow", COLOURS, {})
    pr = ctx.get("pending_roof", None)
    s.pending_roof = EMPTY if pr is None else ctx.int("pending_roof", 0, max(0, len(s.roofs) - 1))
    s.pay_queue = [_square(x, "position.context.pay_queue") for x in ctx.list("pay_queue", [])]
    s.paid = [_square(x, "position.context.paid") for x in ctx.list("paid", [])]
    s.discount_used = bool(ctx.get("discount_used", False))
    s.shortfall = ctx.int("shortfall", 0, 60, 0)
    s.picks_left = ctx.int("picks_left", 0, ROOF_SLOTS, 0)
    s.kinds_picked = [_lookup(k, ROOF_KINDS, "position.context.kinds_picked") for k in ctx.list("kinds_picked", [])]
    s.pyramid_target = ctx.int("pyramid_target", 0, PYRAMID_SIZE, 0)
    _check_phase(s, root)
    if view is not None:
        fill_hidden(s, hidden_blind, hidden_pyramid)
    _check_conservation(s, root)
    if root.get("fish_deck_size", None) is not None and root.get("fish_deck_size") != sum(s.fish_deck()):
        raise root.fail(f"is {root.get('fish_deck_size')!r} but the cards elsewhere leave "
                        f"{sum(s.fish_deck())} in the deck", "fish_deck_size")
    return s


def _square(name: Any, where: str) -> int:
    try:
        return topology.parse_square(str(name))
    except ValueError as exc:
        raise PositionError(f"{where}: {exc}") from None


def _counts_index(values: list, names: tuple[str, ...], where: str) -> list[int]:
    out = []
    for i, v in enumerate(values):
        idx = _lookup(v, names, f"{where}[{i}]")
        if idx in out:
            raise PositionError(f"{where}: {names[idx]} appears twice")
        out.append(idx)
    return out


def _check_phase(s: Position, root: _Reader) -> None:
    if s.phase not in (Phase.CHANCE_NODE, Phase.GAME_OVER) and s.actor < 0:
        raise root.fail("a seat must be to move in this phase", "actor")
    if s.stage == Stage.ROUNDS:
        for p, pl in enumerate(s.players):
            for pos in range(9, PYRAMID_SIZE):
                if pl.pyramid[pos] >= 0 and not s.is_supported(p, pos):
                    raise root.fail(f"{A.PYRAMID_NAMES[pos]} rests on empty cells", f"seats[{p}].pyramid")
    if s.phase == Phase.TURN and s.stage != Stage.ROUNDS:
        raise root.fail("phase 'turn' happens only in stage 'rounds'", "phase")


def _check_conservation(s: Position, root: _Reader) -> None:
    """Nothing may exceed the components of the game (§1)."""
    supply = s.supply()
    in_play = sum(CUBES_PER_COLOUR - x for x in supply)
    if in_play > TOTAL_CUBES:
        raise root.fail(f"{in_play} cubes are in play but the game has {TOTAL_CUBES}")
    for c in range(NUM_COLOURS):
        if supply[c] < 0:
            raise root.fail(f"{CUBES_PER_COLOUR - supply[c]} {COLOURS[c]} cubes are in play but the game has "
                            f"{CUBES_PER_COLOUR}")
    deck = s.fish_deck()
    if sum(deck) < 0 or any(d < 0 for d in deck):
        worst = min(range(NUM_SPECIES), key=lambda i: deck[i])
        raise root.fail(f"{CARDS_PER_SPECIES - deck[worst]} {SPECIES[worst]} cards are in play but the game has "
                        f"{CARDS_PER_SPECIES} (and {TOTAL_FISH_CARDS} fish cards in all)")
    seen = list(s.building_display)
    for pl in s.players:
        for c in pl.buildings:
            if c in seen:
                raise root.fail(f"building card {BUILDING_NAMES[c]} is in two places")
            seen.append(c)
    if len(s.building_display) > B.BUILDING_DISPLAY_SIZE:
        raise root.fail(f"the building display holds at most {B.BUILDING_DISPLAY_SIZE} cards", "building_display")
    for kind in range(NUM_ROOF_KINDS):
        stack = s.roof_stack(kind)
        for pair, left in enumerate(stack):
            if left < 0:
                a, b = ROOF_PAIRS[pair]
                raise root.fail(f"roof tile {ROOF_KINDS[kind]} {COLOURS[a]}-{COLOURS[b]} appears more than once")
