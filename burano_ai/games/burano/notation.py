"""Position JSON: dump and load full positions and one-seat views (`Position` <-> JSON), with validation.

The format is documented in docs/position-format.md. Counts that the rules conserve are not stored but
derived (the cube supply, the fish deck, the building deck, the roof stacks), so a position cannot
contradict itself there; loading checks that nothing exceeds the game's components instead.

A one-seat view leaves out what that seat cannot know: other seats' blind fish cards (only their
number), the fish deck's composition, and, while pyramids are being built, the other seats' pyramids
(only the cubes they hold). Loading a view fills those hidden parts with a deterministic consistent
sample (`burano_ai.games.burano.views`), so the loaded position is playable; a searcher then resamples them per
iteration.

This module knows the format and the components, not the rules: it imports no rules implementation.
`position_from_json` parses once and returns a `Position`; each rules implementation builds its State
from that (`Game.state_from_position`), and `burano_ai.engine.load_position` is the front door that does
both.
"""

from __future__ import annotations

import difflib
import json
from typing import Any

from burano_ai.games.burano import actions
from burano_ai.games.burano import topology
from burano_ai.games.burano.data import buildings
from burano_ai.games.burano.data.colours import (
    COLOURS,
    CUBES_PER_COLOUR,
    NUM_COLOURS,
    SEAT_LETTERS,
    TOTAL_CUBES,
)
from burano_ai.games.burano.data.fish import (
    CARDS_PER_SPECIES,
    FISH_DISPLAY_SIZE,
    NUM_SPECIES,
    SPECIES,
    TOTAL_FISH_CARDS,
)
from burano_ai.games.burano.data.island import MAX_LEVEL
from burano_ai.games.burano.data.ring import ACTIVE_WORKERS, NUM_HOUSES, NUM_PIECES
from burano_ai.games.burano.data.roofs import NUM_ROOF_KINDS, ROOF_KINDS, ROOF_PAIRS, ROOF_SLOTS
from burano_ai.games.burano.data.route import NUM_ISLANDS
from burano_ai.games.burano.data.ships import SHIPS
from burano_ai.games.burano.data.turn import ACTIONS, MAX_MOVES, PREP_SLOTS, PYRAMID_SIZE, SEASON_ROUNDS, SEASONS
from burano_ai.games.burano.enums import (
    CHANCE_KIND_NAMES,
    EMPTY,
    NO_PLAYER,
    PHASE_NAMES,
    STAGE_NAMES,
    ChanceKind,
    Phase,
    Stage,
)
from burano_ai.core.errors import PositionError
from burano_ai.core.jsonio import (  # the limits every position text is read within (a position needs 6 levels)
    MAX_POSITION_BYTES,
    MAX_POSITION_NESTING,
    check_nesting,
    parse_json_text,
)
from burano_ai.games.burano.position import Position, workshop_layout
from burano_ai.games.burano.views import fill_hidden, is_hidden_pyramid

FORMAT = "burano-position/1"
#: Largest coins, VP and privilege accepted (a game reaches a few hundred).
MAX_SCORE = 10**6
#: Largest count of blind fish cards one seat may hold (all the fish cards).
MAX_BLIND = TOTAL_FISH_CARDS

#: The fields of each object of the format (an unknown key is an error, with a suggestion).
TOP_FIELDS = ("format", "players", "view", "workshop_layout", "season", "round", "first_player", "stage", "phase",
              "actor", "context", "markers", "docks", "ports", "island", "fish_display", "fish_deck_size",
              "building_display", "roofs_removed", "seats")
CONTEXT_FIELDS = ("moves", "order_index", "chance", "chance_arg", "sail_target", "swap_pick", "fish_island",
                  "fish_matches", "draws_left", "lace_allow", "pending_roof", "pay_queue", "paid", "discount_used", "shortfall", "picks_left",
                  "kinds_picked", "pyramid_target")
SEAT_FIELDS = ("seat", "ring", "coins", "vp", "privilege", "prep", "reserve", "pyramid", "cubes", "placed",
               "roof_slots", "buildings", "sold", "boat", "islands", "workshop", "hand")
RING_FIELDS = ("pieces", "offset", "workers")
HAND_FIELDS = ("known", "blind")
ISLAND_FIELDS = ("cubes", "roofs")
ROOF_FIELDS = ("level", "cells", "fields", "kind")
TILE_FIELDS = ("kind", "fields")
BUILDING_NAMES = tuple(card[0] for card in buildings.BUILDING_CARDS)
PIECE_NAMES = tuple(f"r{i + 1}" for i in range(NUM_PIECES))


def _counts_to_dict(counts: list[int], names: tuple[str, ...]) -> dict[str, int]:
    return {names[i]: n for i, n in enumerate(counts) if n}


def _seat_name(p: int) -> str:
    return SEAT_LETTERS[p]


def dock_to_str(dock: int) -> str:
    """A dock (`actions.dock_index`) as ``I5:orange``: the island and the dock's colour."""
    island, colour = divmod(dock, NUM_COLOURS)
    return f"{topology.ISLAND_NAMES[island]}:{COLOURS[colour]}"


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
        "sail_target": topology.ROUTE_NODE_NAMES[state.sail_target] if state.sail_target >= 0 else None,
        "swap_pick": dock_to_str(state.swap_pick) if state.swap_pick >= 0 else None,
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
    """Field access that turns every problem into a PositionError naming the field.

    With `fields`, the value must be an object whose keys are all among them (an unknown key is
    reported with the closest known one: a typo must not silently mean the default).
    """

    def __init__(self, data: Any, path: str, fields: tuple[str, ...] | None = None) -> None:
        self.data, self.path = data, path
        if fields is not None:
            _check_keys(data, fields, path)

    def fail(self, problem: str, field: str | None = None) -> PositionError:
        where = self.path + (f".{field}" if field is not None else "")
        return PositionError(f"{where}: {problem}")

    def get(self, field: str, default: Any = ...) -> Any:
        if not isinstance(self.data, dict):
            raise self.fail(f"expected an object, got {_shown(self.data)}")
        if field not in self.data:
            if default is ...:
                raise self.fail("missing", field)
            return default
        return self.data[field]

    def sub(self, field: str, fields: tuple[str, ...] | None = None, default: Any = ...) -> _Reader:
        return _Reader(self.get(field, default), f"{self.path}.{field}", fields)

    def int(self, field: str, lo: int, hi: int, default: Any = ...) -> int:
        v = self.get(field, default)
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.fail(f"expected an integer, got {_shown(v)}", field)
        if not lo <= v <= hi:
            raise self.fail(f"{_shown(v)} is out of range {lo}..{hi}", field)
        return v

    def bool(self, field: str, default: Any = ...) -> bool:
        v = self.get(field, default)
        if not isinstance(v, bool):
            raise self.fail(f"expected true or false, got {_shown(v)}", field)
        return v

    def name(self, field: str, names: tuple[str, ...], default: Any = ...) -> int:
        v = self.get(field, default)
        return _lookup(v, names, f"{self.path}.{field}")

    def list(self, field: str, default: Any = ..., max_len: int | None = None) -> list:
        v = self.get(field, default)
        if not isinstance(v, list):
            raise self.fail(f"expected a list, got {_shown(v)}", field)
        if max_len is not None and len(v) > max_len:
            raise self.fail(f"at most {max_len} entries, got {len(v)}", field)
        return v

    def counts(self, field: str, names: tuple[str, ...], hi: int, default: Any = ...) -> list[int]:
        v = self.get(field, default)
        return _counts(v, names, f"{self.path}.{field}", hi)


def _shown(value: Any) -> str:
    """A short repr for messages (a hostile value may be huge)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**12:
        return f"an integer of {len(str(abs(value)))} digits"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _check_keys(data: Any, fields: tuple[str, ...], path: str) -> None:
    if not isinstance(data, dict):
        raise PositionError(f"{path}: expected an object, got {_shown(data)}")
    for key in data:
        if key not in fields:
            close = difflib.get_close_matches(key, fields, n=1, cutoff=0.6) if isinstance(key, str) else []
            hint = f" \u2014 did you mean {close[0]!r}?" if close else f" (known fields: {', '.join(fields)})"
            raise PositionError(f"{path}: unknown field {_shown(key)}{hint}")


def _lookup(value: Any, names: tuple[str, ...], where: str) -> int:
    if isinstance(value, str):
        low = value.lower()
        for i, n in enumerate(names):
            if n.lower() == low:
                return i
    shown = ", ".join(names) if len(names) <= 16 else ", ".join(names[:16]) + ", ..."
    raise PositionError(f"{where}: unknown value {_shown(value)} (expected one of {shown})")


def _counts(value: Any, names: tuple[str, ...], where: str, hi: int) -> list[int]:
    """A counts object (or a list of names, one per item); each count 0..`hi`, checked before any use."""
    out = [0] * len(names)
    if isinstance(value, list):   # a list of names, one per item
        if len(value) > hi * len(names):
            raise PositionError(f"{where}: {len(value)} items, more than the game has")
        for i, v in enumerate(value):
            idx = _lookup(v, names, f"{where}[{i}]")
            out[idx] += 1
            if out[idx] > hi:
                raise PositionError(f"{where}: more than {hi} {names[idx]}")
        return out
    if not isinstance(value, dict):
        raise PositionError(f"{where}: expected an object of counts, got {_shown(value)}")
    seen = set()
    for k, v in value.items():
        idx = _lookup(k, names, where)
        if idx in seen:
            raise PositionError(f"{where}: {names[idx]} appears twice")
        seen.add(idx)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise PositionError(f"{where}.{k}: expected a count >= 0, got {_shown(v)}")
        if v > hi:
            raise PositionError(f"{where}.{k}: {_shown(v)} is out of range 0..{hi}")
        out[idx] = v
    return out


def _tile(value: Any, where: str, fields: tuple[str, ...] | None = TILE_FIELDS) -> tuple[int, int]:
    r = _Reader(value, where, fields)
    kind = r.name("kind", ROOF_KINDS)
    cols = _tile_colours(r)
    for i, pair in enumerate(ROOF_PAIRS):
        if cols == pair or cols[::-1] == pair:
            return kind, i
    raise r.fail(f"no roof tile has the colours {COLOURS[cols[0]]}-{COLOURS[cols[1]]}", "fields")


def _tile_colours(r: _Reader) -> tuple[int, int]:
    fields = r.list("fields")
    if len(fields) != 2:
        raise r.fail("a roof tile has 2 fields", "fields")
    a, b = (_lookup(f, COLOURS, f"{r.path}.fields[{i}]") for i, f in enumerate(fields))
    return a, b


def _parsed_name(value: Any, where: str, parse: Any, expected: str) -> int:
    """`parse(value)` for a name of the board (a hole, a square), every problem a PositionError at `where`."""
    if not isinstance(value, str):
        raise PositionError(f"{where}: expected {expected}, got {_shown(value)}")
    try:
        return parse(value)
    except ValueError as exc:
        raise PositionError(f"{where}: {exc}") from None


def _hole(value: Any, where: str) -> int:
    return _parsed_name(value, where, topology.parse_hole, "a hole name (a1..i9)")


def position_to_json(state: Position, seat: int | None = None, indent: int | None = None) -> str:
    """The position as JSON text: full, or as seen by `seat`."""
    return json.dumps(position_to_dict(state, seat), indent=indent)


def parse_position_text(text: str | bytes) -> Any:
    """Parse position JSON text into plain data, within the format's limits (no validation of content).

    Raises:
        PositionError: not text, larger than `MAX_POSITION_BYTES`, not UTF-8, malformed JSON (an integer
            literal longer than Python's limit included), a key twice in one object, or nested deeper than
            `MAX_POSITION_NESTING` (`burano_ai.core.jsonio.parse_json_text`).
    """
    return parse_json_text(text, MAX_POSITION_BYTES, MAX_POSITION_NESTING, "position", PositionError)


def _check_nesting(data: Any) -> None:
    check_nesting(data, MAX_POSITION_NESTING, "position", PositionError)


def position_from_json(text: str | bytes, num_players: int | None = None) -> Position:
    """Parse and validate a position JSON text (full or one-seat view); return the `Position`.

    Args:
        text: the JSON text (str, or UTF-8 bytes), at most `MAX_POSITION_BYTES`.
        num_players: if given, the position must have this many players.

    Raises:
        PositionError: malformed JSON or an invalid/impossible position (the message names the field).
    """
    return position_from_dict(parse_position_text(text), num_players=num_players)


def position_from_dict(data: Any, num_players: int | None = None) -> Position:
    """Build a validated `Position` from a position dict (full or one-seat view).

    Everything docs/position-format.md lists under "Checks on loading" is checked here, ranges before
    anything is built from a number. A one-seat view's hidden parts (other seats' blind cards, pyramids
    being built) are filled with a deterministic consistent sample (`burano_ai.games.burano.views.fill_hidden`).
    Whether the seat to move has a legal move needs the rules: `burano_ai.validate.check_playable`.
    """
    _check_nesting(data)
    root = _Reader(data, "position", TOP_FIELDS)
    fmt = root.get("format")
    if fmt != FORMAT:
        raise root.fail(f"unsupported format {_shown(fmt)} (expected {FORMAT!r})", "format")
    n = root.int("players", 2, 4)
    layout_rows = root.get("workshop_layout", None)
    if layout_rows is not None and (not isinstance(layout_rows, list) or len(layout_rows) != 4
                                    or not all(isinstance(row, str) and len(row) <= 64 for row in layout_rows)):
        raise root.fail("expected 4 row strings of 7 squares (or null for the default layout)", "workshop_layout")
    try:
        layout = workshop_layout(n, layout_rows)
    except PositionError as exc:
        raise PositionError(f"position.workshop_layout: {exc}") from None
    if num_players is not None and num_players != n:
        raise root.fail(f"position has {n} players but the game has {num_players}", "players")
    s = Position(n, layout)
    seat_names = tuple(SEAT_LETTERS[:n])
    view_value = root.get("view", None)
    view = None if view_value is None else _lookup(view_value, seat_names, "position.view")
    s.season = root.name("season", SEASONS)
    s.round = root.int("round", 1, SEASON_ROUNDS[s.season] + 1)   # +1 once the last round is over
    s.first_player = _lookup(root.get("first_player"), seat_names, "position.first_player")
    s.stage = root.name("stage", STAGE_NAMES, "rounds")
    s.phase = root.name("phase", PHASE_NAMES, "turn")
    actor = root.get("actor", None)
    s.actor = NO_PLAYER if actor is None else _lookup(actor, seat_names, "position.actor")
    # Board.
    markers = root.sub("markers", ACTIONS)
    mapping = [-1] * NUM_COLOURS
    for a, action in enumerate(ACTIONS):
        for i, c in enumerate(markers.list(action, max_len=NUM_COLOURS)):
            ci = _lookup(c, COLOURS, f"position.markers.{action}[{i}]")
            if mapping[ci] != -1:
                raise markers.fail(f"colour {COLOURS[ci]} is on two action cells")
            mapping[ci] = a
    if tuple(mapping) not in actions.MARKER_MAPPING_ID:
        raise markers.fail("each action cell holds exactly 2 of the 6 colours")
    s.markers = mapping
    docks = root.sub("docks", topology.ISLAND_NAMES)
    all_docks = [0] * NUM_COLOURS
    for i, name in enumerate(topology.ISLAND_NAMES):
        dock_list = docks.list(name)
        if len(dock_list) != 3:
            raise docks.fail(f"an island has 3 docks, got {len(dock_list)}", name)
        cols = [_lookup(c, COLOURS, f"position.docks.{name}[{k}]") for k, c in enumerate(dock_list)]
        s.docks[i] = sorted(cols)
        for c in cols:
            all_docks[c] += 1
    if all_docks != [3] * NUM_COLOURS:
        raise docks.fail("there must be 3 docks of each colour")
    ports = root.sub("ports", topology.PORT_NAMES)
    seen_ships: list[int] = []
    for i, name in enumerate(topology.PORT_NAMES):
        ships = sorted(_lookup(x, SHIPS, f"position.ports.{name}[{k}]")
                       for k, x in enumerate(ports.list(name, max_len=len(SHIPS))))
        s.ports[i] = ships
        seen_ships += ships
    if sorted(seen_ships) != list(range(len(SHIPS))):
        raise ports.fail("each of the 4 ships must be in exactly one port")
    _read_island(s, root.sub("island", ISLAND_FIELDS))
    s.fish_display = root.counts("fish_display", SPECIES, FISH_DISPLAY_SIZE)
    if sum(s.fish_display) > FISH_DISPLAY_SIZE:
        raise root.fail(f"the fish display holds at most {FISH_DISPLAY_SIZE} cards", "fish_display")
    s.building_display = sorted(_counts_index(root.list("building_display", max_len=buildings.NUM_BUILDINGS),
                                              BUILDING_NAMES, "position.building_display"))
    removed = root.list("roofs_removed", [], max_len=len(ROOF_KINDS) * len(ROOF_PAIRS))
    s.roofs_removed = [_tile(t, f"position.roofs_removed[{i}]") for i, t in enumerate(removed)]
    # Seats.
    seat_list = root.list("seats")
    if len(seat_list) != n:
        raise root.fail(f"expected {n} seats, got {len(seat_list)}", "seats")
    hidden_blind = [0] * n
    hidden_pyramid: dict[int, tuple[list[int], int]] = {}
    for p, entry in enumerate(seat_list):
        _read_seat(s, p, _Reader(entry, f"position.seats[{p}]", SEAT_FIELDS), view, hidden_blind, hidden_pyramid)
    # Context.
    if root.get("context", None) is None and s.phase != Phase.TURN:
        raise root.fail(f"phase {PHASE_NAMES[s.phase]!r} needs the context block (only 'turn' may omit it)",
                        "context")
    _read_context(s, root.sub("context", CONTEXT_FIELDS, {}) if root.get("context", None) is not None
                  else _Reader({}, "position.context"))
    if view is not None:
        fill_hidden(s, hidden_blind, hidden_pyramid)
    _check_conservation(s, root)
    size = root.get("fish_deck_size", None)
    if size is not None:
        size = root.int("fish_deck_size", 0, TOTAL_FISH_CARDS)
        if size != sum(s.fish_deck()):
            raise root.fail(f"is {size} but the cards elsewhere leave {sum(s.fish_deck())} in the deck",
                            "fish_deck_size")
    _check_progress(s, root)
    return s


def _read_island(s: Position, island: _Reader) -> None:
    """The main island: cube stacks, then roofs in the order laid (§2, §4.2 build, §7)."""
    cube_map = island.get("cubes")
    if not isinstance(cube_map, dict):
        raise island.fail(f"expected an object hole -> list of colours, got {_shown(cube_map)}", "cubes")
    for hole_name, stack in cube_map.items():
        h = _hole(hole_name, f"{island.path}.cubes")
        where = f"{island.path}.cubes.{hole_name}"
        if s.cubes[0][h] >= 0:
            raise PositionError(f"{where}: hole {topology.HOLE_NAMES[h]} is named twice")
        if not isinstance(stack, list) or not 1 <= len(stack) <= MAX_LEVEL:
            raise PositionError(f"{where}: expected 1-3 colours, got {_shown(stack)}")
        for lv, c in enumerate(stack):
            s.cubes[lv][h] = _lookup(c, COLOURS, f"{where}[{lv}]")
    _check_ground(s, island)
    for k, roof in enumerate(island.list("roofs", [], max_len=len(ROOF_KINDS) * len(ROOF_PAIRS))):
        rr = _Reader(roof, f"{island.path}.roofs[{k}]", ROOF_FIELDS)
        level = rr.int("level", 1, 2)
        cells = rr.list("cells")
        if len(cells) != 2:
            raise rr.fail("a roof covers 2 cells", "cells")
        ha, hb = (_hole(c, f"{rr.path}.cells[{i}]") for i, c in enumerate(cells))
        line = topology.ROOF_LINE_ID.get((min(ha, hb), max(ha, hb)))
        if line is None:
            raise rr.fail(f"{cells[0]}-{cells[1]} is not two holes apart on a row or column", "cells")
        kind, pair = _tile(roof, rr.path, None)
        fa, fb = _tile_colours(rr)          # field colours in the order of `cells`
        a, b, mid = topology.ROOF_LINES[line]
        if ha != a:                          # make (fa, fb) the fields on (a, b)
            fa, fb = fb, fa
        flipped = (fa, fb) != ROOF_PAIRS[pair]
        for h in (a, b):
            if s.cubes[level - 1][h] < 0:
                raise rr.fail(f"the roof needs a level-{level} cube under {topology.HOLE_NAMES[h]}")
            if s.roof_at[level - 1][h] >= 0:
                raise rr.fail(f"the cube at {topology.HOLE_NAMES[h]} already carries a roof")
        if any(lv == level and topology.ROOF_LINES[ln][2] == mid for (lv, ln, _, _, _) in s.roofs):
            raise rr.fail(f"two level-{level} roofs cross at the midpoint of {cells[0]}-{cells[1]}")
        s.roofs.append((level, line, kind, pair, flipped))
        s.roof_at[level - 1][a] = s.roof_at[level - 1][b] = k
        s.roof_field[level - 1][a], s.roof_field[level - 1][b] = fa, fb
    for h in range(topology.NUM_HOLES):
        for lv in (2, 3):
            if s.cubes[lv - 1][h] >= 0 and s.roof_at[lv - 2][h] < 0:
                raise island.fail(f"the level-{lv} cube at {topology.HOLE_NAMES[h]} has no roof under it", "cubes")


def _check_ground(s: Position, island: _Reader) -> None:
    """Ground cubes grow from the fountain cube, each built diagonally next to one already there (§2, §4.2)."""
    ground = {h for h in range(topology.NUM_HOLES) if s.cubes[0][h] >= 0}
    if not ground:
        return   # an empty island only before setup step 4; the stage checks reject it where it matters
    if topology.FOUNTAIN_HOLE not in ground:
        raise island.fail(f"the fountain hole {topology.HOLE_NAMES[topology.FOUNTAIN_HOLE]} holds no cube; "
                          "every ground cube grows from the fountain cube", "cubes")
    reached, todo = {topology.FOUNTAIN_HOLE}, [topology.FOUNTAIN_HOLE]
    while todo:
        for nb in topology.HOLE_NEIGHBOURS[todo.pop()]:
            if nb in ground and nb not in reached:
                reached.add(nb)
                todo.append(nb)
    if reached != ground:
        h = min(ground - reached)
        raise island.fail(f"the level-1 cube at {topology.HOLE_NAMES[h]} is not connected to the fountain cube "
                          "through diagonal neighbours (a ground cube is built next to one already there)",
                          f"cubes.{topology.HOLE_NAMES[h]}")


def _read_seat(s: Position, p: int, r: _Reader, view: int | None, hidden_blind: list[int],
               hidden_pyramid: dict[int, tuple[list[int], int]]) -> None:
    """One seat's entry (§1, §3): its components, its workers, its hand and its pyramid."""
    pl = s.players[p]
    letter = r.get("seat", None)
    if letter is not None and _lookup(letter, tuple(SEAT_LETTERS), r.path + ".seat") != p:
        raise r.fail(f"entry {p} of the list is seat {SEAT_LETTERS[p]}, not {_shown(letter)}", "seat")
    ring = r.sub("ring", RING_FIELDS)
    piece_list = ring.list("pieces")
    if len(piece_list) != NUM_PIECES:
        raise ring.fail("the 4 ring pieces r1..r4 must each appear once", "pieces")
    pieces = [_lookup(x, PIECE_NAMES, f"{ring.path}.pieces[{i}]") for i, x in enumerate(piece_list)]
    if sorted(pieces) != list(range(NUM_PIECES)):
        raise ring.fail("the 4 ring pieces r1..r4 must each appear once", "pieces")
    pl.ring_pieces = pieces
    pl.ring_offset = ring.int("offset", 0, NUM_HOUSES - 1)
    pl.ring_workers = ring.int("workers", 0, ACTIVE_WORKERS)
    pl.coins = r.int("coins", 0, MAX_SCORE)
    pl.vp = r.int("vp", 0, MAX_SCORE)
    pl.privilege = r.int("privilege", 0, MAX_SCORE)
    pl.prep = r.counts("prep", COLOURS, PREP_SLOTS, {})
    if sum(pl.prep) > PREP_SLOTS:
        raise r.fail(f"the preparation area has {PREP_SLOTS} slots, got {sum(pl.prep)} cubes", "prep")
    slots = r.list("roof_slots", [None] * ROOF_SLOTS)
    if len(slots) != ROOF_SLOTS:
        raise r.fail(f"expected {ROOF_SLOTS} roof slots (null for empty)", "roof_slots")
    pl.roof_slots = [None if t is None else _tile(t, f"{r.path}.roof_slots[{i}]") for i, t in enumerate(slots)]
    pl.buildings = _counts_index(r.list("buildings", [], max_len=buildings.NUM_BUILDINGS), BUILDING_NAMES,
                                 r.path + ".buildings")
    pl.sold = r.counts("sold", SPECIES, CARDS_PER_SPECIES, {})
    pl.boat = _lookup(r.get("boat"), topology.ROUTE_NODE_NAMES, r.path + ".boat")
    islands = r.get("islands", {})
    if not isinstance(islands, dict):
        raise r.fail(f"expected an object island -> workers, got {_shown(islands)}", "islands")
    seen = set()
    for name, count in islands.items():
        i = _lookup(name, topology.ISLAND_NAMES, r.path + ".islands")
        if i in seen:
            raise r.fail(f"island {topology.ISLAND_NAMES[i]} is named twice", "islands")
        seen.add(i)
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= ACTIVE_WORKERS:
            raise r.fail(f"expected a worker count 0..{ACTIVE_WORKERS}, got {_shown(count)}", f"islands.{name}")
        s.island_workers[i][p] = count
    for k, sq_name in enumerate(r.list("workshop", [], max_len=ACTIVE_WORKERS)):
        sq = _square(sq_name, f"{r.path}.workshop[{k}]")
        if s.layout.colour[sq] < 0:
            raise r.fail(f"square {sq_name} is empty in this layout and takes no worker", "workshop")
        if s.workshop[sq] != NO_PLAYER:
            raise r.fail(f"square {sq_name} already holds a worker of seat {SEAT_LETTERS[s.workshop[sq]]}",
                         "workshop")
        s.workshop[sq] = p
    hand = r.sub("hand", HAND_FIELDS, {})
    pl.hand_known = hand.counts("known", SPECIES, CARDS_PER_SPECIES, {})
    blind = hand.get("blind", {})
    other_in_view = view is not None and p != view
    if isinstance(blind, int) and not isinstance(blind, bool):
        if not other_in_view:
            raise hand.fail("a count of blind cards is only allowed for other seats in a one-seat view",
                            "blind")
        hidden_blind[p] = hand.int("blind", 0, MAX_BLIND)
    elif other_in_view:
        raise hand.fail(f"seat {SEAT_LETTERS[view]}'s view cannot know seat {SEAT_LETTERS[p]}'s blind cards: "
                        "write their number", "blind")
    else:
        pl.hand_blind = hand.counts("blind", SPECIES, CARDS_PER_SPECIES, {})
    hidden = other_in_view and s.stage == Stage.PYRAMID
    if r.get("pyramid", None) is None and r.get("cubes", None) is not None:
        if not other_in_view:
            raise r.fail("a hidden pyramid is only allowed for other seats in a one-seat view", "pyramid")
        if s.stage != Stage.PYRAMID:
            raise r.fail("a hidden pyramid is only allowed in stage 'pyramid' (pyramids are public once built)",
                         "pyramid")
        if r.get("reserve", None) is not None:
            raise r.fail("a hidden pyramid has no reserve (null): its cubes are in 'cubes'", "reserve")
        hidden_pyramid[p] = (r.counts("cubes", COLOURS, CUBES_PER_COLOUR), r.int("placed", 0, PYRAMID_SIZE))
    else:
        if hidden:
            raise r.fail(f"seat {SEAT_LETTERS[view]}'s view cannot see seat {SEAT_LETTERS[p]}'s pyramid while "
                         "pyramids are built: write 'pyramid': null with 'cubes' and 'placed'", "pyramid")
        for extra in ("cubes", "placed"):
            if r.get(extra, None) is not None:
                raise r.fail("only a hidden pyramid ('pyramid': null) has this field", extra)
        pyr = r.list("pyramid")
        if len(pyr) != PYRAMID_SIZE:
            raise r.fail(f"expected {PYRAMID_SIZE} entries (b1..b9, m1..m4, top; null = empty)", "pyramid")
        pl.pyramid = [EMPTY if c is None else _lookup(c, COLOURS, f"{r.path}.pyramid[{i}]")
                      for i, c in enumerate(pyr)]
        pl.reserve = r.counts("reserve", COLOURS, CUBES_PER_COLOUR, {})
    total_workers = pl.ring_workers + sum(s.island_workers[i][p] for i in range(NUM_ISLANDS)) \
        + len(s.workshop_workers(p))
    if total_workers != ACTIVE_WORKERS:
        raise r.fail(f"seat has {total_workers} workers on ring, islands and workshops; "
                     f"it must have {ACTIVE_WORKERS}")
    if pl.ring_workers < 1:
        raise r.fail("the ring must keep at least one worker", "ring.workers")


def _read_context(s: Position, ctx: _Reader) -> None:
    """The context block: each field's type and range (what each phase needs: `_check_progress`)."""
    n = s.num_players
    s.moves = ctx.int("moves", 0, MAX_MOVES, 0)
    s.order_index = ctx.int("order_index", 0, n, 0)
    s.chance_kind = ctx.name("chance", CHANCE_KIND_NAMES, "none")
    arg = ctx.get("chance_arg", None)
    s.chance_arg = 0 if arg is None else _lookup(arg, ROOF_KINDS, ctx.path + ".chance_arg")
    if (arg is not None) != (s.chance_kind == ChanceKind.ROOF_TILE):
        raise ctx.fail("names the roof kind being drawn: required with chance 'roof-tile', null otherwise",
                       "chance_arg")
    target = ctx.get("sail_target", None)
    s.sail_target = EMPTY if target is None else _lookup(target, topology.ROUTE_NODE_NAMES,
                                                         ctx.path + ".sail_target")
    pick = ctx.get("swap_pick", None)
    s.swap_pick = EMPTY if pick is None else _dock(pick, ctx.path + ".swap_pick")
    fi = ctx.get("fish_island", None)
    s.fish_island = EMPTY if fi is None else _lookup(fi, topology.ISLAND_NAMES, ctx.path + ".fish_island")
    s.fish_matches = ctx.int("fish_matches", 0, 3, 0)
    s.draws_left = ctx.int("draws_left", 0, 3, 0)
    s.lace_allow = ctx.counts("lace_allow", COLOURS, 3, {})
    if sum(s.lace_allow) > 3:
        raise ctx.fail(f"the three arrows allow at most 3 workers, got {sum(s.lace_allow)}", "lace_allow")
    pr = ctx.get("pending_roof", None)
    if pr is not None:
        if not s.roofs:
            raise ctx.fail("names a roof but the island has none", "pending_roof")
        s.pending_roof = ctx.int("pending_roof", 0, len(s.roofs) - 1)
    s.pay_queue = [_square(x, f"{ctx.path}.pay_queue[{i}]")
                   for i, x in enumerate(ctx.list("pay_queue", [], max_len=ACTIVE_WORKERS))]
    s.paid = [_square(x, f"{ctx.path}.paid[{i}]") for i, x in enumerate(ctx.list("paid", [], max_len=ACTIVE_WORKERS))]
    s.discount_used = ctx.bool("discount_used", False)
    s.shortfall = ctx.int("shortfall", 0, ACTIVE_WORKERS, 0)
    s.picks_left = ctx.int("picks_left", 0, ROOF_SLOTS, 0)
    kinds = ctx.list("kinds_picked", [], max_len=NUM_ROOF_KINDS)
    s.kinds_picked = [_lookup(k, ROOF_KINDS, f"{ctx.path}.kinds_picked[{i}]") for i, k in enumerate(kinds)]
    if len(set(s.kinds_picked)) != len(s.kinds_picked):
        raise ctx.fail("the kinds picked in one refill must differ; a kind appears twice", "kinds_picked")
    s.pyramid_target = ctx.int("pyramid_target", 0, PYRAMID_SIZE, 0)


def _dock(value: Any, where: str) -> int:
    """A dock written ``I5:orange`` (island, colour) as `actions.dock_index`."""
    if not isinstance(value, str) or value.count(":") != 1:
        raise PositionError(f"{where}: expected a dock 'island:colour' such as 'I5:orange', got {_shown(value)}")
    island, colour = value.split(":")
    return actions.dock_index(_lookup(island.strip(), topology.ISLAND_NAMES, where),
                        _lookup(colour.strip(), COLOURS, where))


def _square(name: Any, where: str) -> int:
    return _parsed_name(name, where, topology.parse_square, "a square name (r0c0..r3c6)")


def _counts_index(values: list, names: tuple[str, ...], where: str) -> list[int]:
    out = []
    for i, v in enumerate(values):
        idx = _lookup(v, names, f"{where}[{i}]")
        if idx in out:
            raise PositionError(f"{where}: {names[idx]} appears twice")
        out.append(idx)
    return out


# ------------------------------------------------------------------------------------------------
# Progress: what each phase needs, read from the rules' phase machine (burano_ai.games.burano.reference.state)

#: The stages in which each decision phase occurs.
PHASE_STAGES = {
    Phase.ROOF_PICK: (Stage.SETUP, Stage.ROOF_REFILL), Phase.PYRAMID: (Stage.PYRAMID,),
    **{ph: (Stage.ROUNDS,) for ph in (Phase.TURN, Phase.FISH_SAIL, Phase.FISH_SWAP, Phase.FISH_DRAW,
                                      Phase.FISH_SEND, Phase.PORT_TRADE, Phase.LACE_PLACE, Phase.RECALL,
                                      Phase.ROOF_BONUS)},
    Phase.LACE_PAY: (Stage.LACE_SCORING,), Phase.REPLENISH: (Stage.REPLENISH,),
    Phase.PRIV_RESERVE: (Stage.REPLENISH,), Phase.ROOF_DISCARD: (Stage.ROOF_REFILL,), Phase.GAME_OVER: (Stage.END,),
}
#: The stages in which each chance event occurs (phase 'chance').
CHANCE_STAGES = {
    ChanceKind.FISH_DRAW: (Stage.ROUNDS,), ChanceKind.FISH_REFILL: (Stage.ROUNDS,),
    ChanceKind.BUILDING_DRAW: (Stage.ROUNDS,), ChanceKind.BUILDING_REFILL: (Stage.ROUNDS,),
    ChanceKind.ROOF_TILE: (Stage.SETUP, Stage.ROOF_REFILL), ChanceKind.MARKERS: (Stage.LACE_SCORING,),
}
def _chance(kind: ChanceKind) -> tuple[str, ChanceKind]:
    """The situation of a chance node (a key distinct from every Phase: both enums are ints)."""
    return ("chance", kind)


_AT_FISH_DRAW, _AT_FISH_REFILL = _chance(ChanceKind.FISH_DRAW), _chance(ChanceKind.FISH_REFILL)
_AT_BUILDING_DRAW, _AT_BUILDING_REFILL = _chance(ChanceKind.BUILDING_DRAW), _chance(ChanceKind.BUILDING_REFILL)
_AT_ROOF_TILE, _AT_MARKERS = _chance(ChanceKind.ROOF_TILE), _chance(ChanceKind.MARKERS)
_FISHING = ("moves", "fish_island", "fish_matches", "draws_left")
#: The context fields each situation (a decision phase, or a chance kind) uses; every other field keeps its
#: default there, as the rules leave it (a stale value would be a position no game reaches).
CONTEXT_USE: dict[Any, tuple[str, ...]] = {
    Phase.TURN: ("moves",), Phase.FISH_SAIL: ("moves",), Phase.FISH_SWAP: ("moves", "sail_target", "swap_pick"),
    Phase.PORT_TRADE: ("moves",), Phase.RECALL: ("moves",),
    Phase.FISH_DRAW: _FISHING, Phase.FISH_SEND: _FISHING, Phase.LACE_PLACE: ("moves", "lace_allow"),
    Phase.ROOF_BONUS: ("moves", "pending_roof"), Phase.LACE_PAY: ("pay_queue", "paid", "discount_used"),
    Phase.REPLENISH: ("shortfall",), Phase.PRIV_RESERVE: (), Phase.ROOF_DISCARD: (),
    Phase.ROOF_PICK: ("picks_left", "kinds_picked"), Phase.PYRAMID: ("pyramid_target",), Phase.GAME_OVER: (),
    _AT_FISH_DRAW: _FISHING, _AT_FISH_REFILL: _FISHING,
    _AT_BUILDING_DRAW: ("moves", "pending_roof"), _AT_BUILDING_REFILL: ("moves", "pending_roof"),
    _AT_ROOF_TILE: ("picks_left", "kinds_picked"), _AT_MARKERS: (),
}
_CONTEXT_DEFAULTS = {"moves": 0, "sail_target": EMPTY, "swap_pick": EMPTY, "fish_island": EMPTY, "fish_matches": 0, "draws_left": 0,
                     "lace_allow": [0] * NUM_COLOURS, "pending_roof": EMPTY, "pay_queue": [], "paid": [],
                     "discount_used": False, "shortfall": 0, "picks_left": 0, "kinds_picked": [], "pyramid_target": 0}
#: Decision phases that belong to a loop over the seats in turn order (`order_index` says whose go it is).
_LOOP_STAGES = (Stage.PYRAMID, Stage.LACE_SCORING, Stage.REPLENISH, Stage.ROOF_REFILL)


def _check_progress(s: Position, root: _Reader) -> None:
    """Stage, phase, actor, chance and context fit together and with the board (a reachable situation)."""
    n, phase, stage = s.num_players, s.phase, s.stage
    stage_name, phase_name = STAGE_NAMES[stage], PHASE_NAMES[phase]
    chance = phase == Phase.CHANCE_NODE
    kind = s.chance_kind
    ctx = "context"
    # The stage and the season and round it happens in.
    rounds = SEASON_ROUNDS[s.season]
    if stage == Stage.SETUP and (s.season != 0 or s.round != 1):
        raise root.fail("stage 'setup' happens only in spring, round 1", "stage")
    if stage == Stage.PYRAMID and s.round != 1:
        raise root.fail(f"is {s.round} but pyramids are built before round 1", "round")
    if stage in (Stage.SETUP, Stage.PYRAMID, Stage.ROUNDS) and s.round > rounds:
        raise root.fail(f"{SEASONS[s.season]} has {rounds} rounds; round {s.round} exists only once the rounds "
                        f"are over (clean-up, stage 'lace-scoring' onwards), not in stage {stage_name!r}", "round")
    if stage not in (Stage.SETUP, Stage.PYRAMID, Stage.ROUNDS) and s.round != rounds + 1:
        raise root.fail(f"is {s.round} but in stage {stage_name!r} the rounds of {SEASONS[s.season]} are over: "
                        f"round {rounds + 1}", "round")
    last = len(SEASON_ROUNDS) - 1
    if stage == Stage.END and s.season != last:
        raise root.fail("the game ends after winter's clean-up: stage 'end' needs season 'winter'", "stage")
    if stage in (Stage.REPLENISH, Stage.ROOF_REFILL) and s.season == last:
        raise root.fail(f"winter's clean-up has only steps 1 and 2 (§8): no stage {stage_name!r}", "stage")
    # The phase and the chance kind fit the stage.
    if chance:
        if kind == ChanceKind.NONE:
            raise root.fail("phase 'chance' needs the pending chance event in context.chance", f"{ctx}.chance")
        if stage not in CHANCE_STAGES[kind]:
            raise root.fail(f"chance {CHANCE_KIND_NAMES[kind]!r} does not happen in stage {stage_name!r} "
                            f"(only {', '.join(STAGE_NAMES[x] for x in CHANCE_STAGES[kind])})", f"{ctx}.chance")
        if kind == ChanceKind.MARKERS and s.season == last:
            raise root.fail("there is no marker shuffle after winter's lace scoring", f"{ctx}.chance")
    else:
        if kind != ChanceKind.NONE:
            raise root.fail(f"is {CHANCE_KIND_NAMES[kind]!r} but only phase 'chance' has a pending chance event",
                            f"{ctx}.chance")
        if stage not in PHASE_STAGES[phase]:
            raise root.fail(f"phase {phase_name!r} happens only in stage "
                            f"{' or '.join(repr(STAGE_NAMES[x]) for x in PHASE_STAGES[phase])}, not {stage_name!r}",
                            "phase")
    # Who decides.
    if phase == Phase.GAME_OVER and s.actor != NO_PLAYER:
        raise root.fail("the game is over: no seat is to move (null)", "actor")
    if not (chance and kind == ChanceKind.MARKERS) and phase != Phase.GAME_OVER and s.actor < 0:
        raise root.fail("a seat must be to move in this phase" if not chance else
                        "a chance event in a seat's action needs that seat (it receives the outcome)", "actor")
    situation = _chance(kind) if chance else phase
    in_loop = stage in _LOOP_STAGES and not (chance and kind == ChanceKind.MARKERS)
    if stage == Stage.SETUP:   # setup picks go in seat order (§3.10)
        if s.order_index >= n or s.actor != s.order_index:
            raise root.fail(f"setup roof picks go in seat order: order_index {s.order_index} is seat "
                            f"{SEAT_LETTERS[s.order_index] if s.order_index < n else 'none'}, the actor is "
                            f"{SEAT_LETTERS[s.actor]}", f"{ctx}.order_index")
    elif in_loop:
        if s.order_index >= n:
            raise root.fail(f"is {s.order_index} but a seat of the {stage_name!r} loop is to move (0..{n - 1})",
                            f"{ctx}.order_index")
        expected = s.turn_order()[s.order_index]
        if s.actor != expected:
            raise root.fail(f"in stage {stage_name!r} seats go in turn order from the first player: order_index "
                            f"{s.order_index} is seat {SEAT_LETTERS[expected]}, not {SEAT_LETTERS[s.actor]}",
                            "actor")
    elif chance and kind == ChanceKind.MARKERS and s.order_index != n:
        raise root.fail(f"is {s.order_index} but the marker shuffle follows the whole lace-scoring loop ({n})",
                        f"{ctx}.order_index")
    # Context fields this situation does not use keep their defaults.
    used = CONTEXT_USE[situation]
    for field, default in _CONTEXT_DEFAULTS.items():
        if field not in used and getattr(s, field) != default:
            where = f"chance {CHANCE_KIND_NAMES[kind]!r}" if chance else f"phase {phase_name!r}"
            raise root.fail(f"is not used in {where} and must keep its default ({_default_text(field)})",
                            f"{ctx}.{field}")
    _check_situation(s, root, situation)
    _check_pyramids(s, root)
    _check_roof_fields(s, root)


def _default_text(field: str) -> str:
    value = _CONTEXT_DEFAULTS[field]
    return {EMPTY: "null"}.get(value, json.dumps(value)) if not isinstance(value, list) else \
        ("{}" if field == "lace_allow" else "[]")


def _check_situation(s: Position, root: _Reader, situation: Any) -> None:
    """The context a situation uses is present and consistent with the board."""
    p = s.actor
    pl = s.players[p] if p >= 0 else None
    ctx = "context"
    deck_size = sum(s.fish_deck())
    if situation != Phase.TURN and "moves" in CONTEXT_USE[situation]:   # an action's steps: its move is made
        if s.moves < 1:
            raise root.fail("an action is under way, so its move was made: moves is 1-4", f"{ctx}.moves")
    if situation == Phase.FISH_SWAP:
        _check_fish_swap(s, root)
    if situation in (Phase.FISH_DRAW, Phase.FISH_SEND, _AT_FISH_DRAW, _AT_FISH_REFILL):
        if s.fish_island < 0:
            raise root.fail("a fishing trip is under way: name the island being fished", f"{ctx}.fish_island")
        node = topology.ISLAND_NODE[s.fish_island]
        if pl.boat != node:
            raise root.fail(f"seat {SEAT_LETTERS[p]} is fishing at {topology.ISLAND_NAMES[s.fish_island]} but its "
                            f"boat is at {topology.ROUTE_NODE_NAMES[pl.boat]}", f"{ctx}.fish_island")
        m = _matches(s, p, s.fish_island)
        if s.fish_matches != m or m == 0:
            raise root.fail(f"is {s.fish_matches} but seat {SEAT_LETTERS[p]}'s arrows match "
                            f"{topology.ISLAND_NAMES[s.fish_island]}'s docks {m} times (and a trip needs 1-3)",
                            f"{ctx}.fish_matches")
        if s.draws_left > s.fish_matches:
            raise root.fail(f"{s.draws_left} draws left on a trip of {s.fish_matches}", f"{ctx}.draws_left")
    if situation == Phase.FISH_DRAW:
        if s.draws_left < 1:
            raise root.fail("phase 'fish-draw' needs a card still to draw (1-3)", f"{ctx}.draws_left")
        if deck_size == 0 and sum(s.fish_display) == 0:
            raise root.fail("nothing to draw: the fish deck and the display are empty (the rules give 2 VP per "
                            "missing card instead)", f"{ctx}.draws_left")
    elif situation == _AT_FISH_DRAW:
        if s.draws_left < 1:
            raise root.fail("a blind draw is pending, so a card is still to draw (1-3)", f"{ctx}.draws_left")
    elif situation in (_AT_FISH_REFILL, Phase.FISH_SEND):
        if s.draws_left != 0:
            raise root.fail("the draws are over before the display is refilled and workers are sent",
                            f"{ctx}.draws_left")
    if situation in (_AT_FISH_DRAW, _AT_FISH_REFILL) and deck_size == 0:
        raise root.fail("a fish card is to be drawn but the fish deck is empty", f"{ctx}.chance")
    if situation == _AT_FISH_REFILL and sum(s.fish_display) >= FISH_DISPLAY_SIZE:
        raise root.fail("the fish display is full: nothing to refill", f"{ctx}.chance")
    if situation == Phase.FISH_SEND:
        if s.fish_matches != 3 or pl.ring_workers < 3:
            raise root.fail("the choice to send one or two workers comes only with 3 matches and 3+ ring workers",
                            "phase")
        if sum(s.fish_display) < FISH_DISPLAY_SIZE and deck_size > 0:
            raise root.fail("the fish display is refilled before workers are sent", "fish_display")
    if situation == Phase.PORT_TRADE:
        port = topology.NODE_PORT[pl.boat]
        if port < 0:
            raise root.fail(f"seat {SEAT_LETTERS[p]} trades at a port but its boat is at "
                            f"{topology.ROUTE_NODE_NAMES[pl.boat]}", "phase")
    if situation == Phase.LACE_PLACE:
        if sum(s.lace_allow) == 0:
            raise root.fail("phase 'lace' needs the colours the arrows still allow (1-3 in all)", f"{ctx}.lace_allow")
        if pl.ring_workers < 2:
            raise root.fail("a lace worker never leaves the ring's last worker: phase 'lace' needs 2+ ring workers",
                            "phase")
    if situation == Phase.RECALL and s.workers_off_ring(p) == 0:
        raise root.fail(f"seat {SEAT_LETTERS[p]} has no worker off the ring to recall", "phase")
    if situation in (Phase.ROOF_BONUS, _AT_BUILDING_DRAW, _AT_BUILDING_REFILL):
        if s.pending_roof != len(s.roofs) - 1 or s.pending_roof < 0:
            raise root.fail(f"the roof awaiting its bonus is the last one laid (id {len(s.roofs) - 1})"
                            if s.roofs else "a roof awaits its bonus but the island has none", f"{ctx}.pending_roof")
    if situation in (_AT_BUILDING_DRAW, _AT_BUILDING_REFILL) and not s.building_deck():
        raise root.fail("a building card is to be drawn but the building deck is empty", f"{ctx}.chance")
    if situation == _AT_BUILDING_REFILL and len(s.building_display) >= buildings.BUILDING_DISPLAY_SIZE:
        raise root.fail("the building display is full: nothing to refill", f"{ctx}.chance")
    if situation == Phase.LACE_PAY:
        _check_lace_pay(s, root)
    if situation == Phase.REPLENISH and s.shortfall < 1:
        raise root.fail("phase 'replenish' needs the cubes still owed (1 or more)", f"{ctx}.shortfall")
    if situation in (Phase.REPLENISH, Phase.PRIV_RESERVE) and any(c >= 0 for c in pl.pyramid):
        raise root.fail(f"seat {SEAT_LETTERS[p]} replenishes after moving its pyramid to the reserve (§8.4)",
                        f"seats[{p}].pyramid")
    if situation == Phase.PRIV_RESERVE and pl.privilege < 1:
        raise root.fail(f"seat {SEAT_LETTERS[p]} has no privilege to spend", "phase")
    if situation == Phase.ROOF_DISCARD and all(t is None for t in pl.roof_slots):
        raise root.fail(f"seat {SEAT_LETTERS[p]} has no roof tile to discard", "phase")
    if situation in (Phase.ROOF_PICK, _AT_ROOF_TILE):
        empty = sum(1 for t in pl.roof_slots if t is None)
        if not 1 <= s.picks_left == empty:
            raise root.fail(f"is {s.picks_left} but seat {SEAT_LETTERS[p]} has {empty} empty roof slots to fill "
                            "(one pick per empty slot)", f"{ctx}.picks_left")
        drawing = 1 if situation == _AT_ROOF_TILE else 0   # the kind being drawn is picked, its slot still empty
        if len(s.kinds_picked) + s.picks_left > ROOF_SLOTS + drawing:
            raise root.fail(f"{len(s.kinds_picked)} kinds picked and {s.picks_left} picks left: more than "
                            f"{ROOF_SLOTS} picks in one go", f"{ctx}.kinds_picked")
    if situation == Phase.ROOF_PICK:
        if not any(k not in s.kinds_picked and sum(s.roof_stack(k)) > 0 for k in range(NUM_ROOF_KINDS)):
            raise root.fail("no roof kind is left to pick (each kind once per refill, from a non-empty stack)",
                            f"{ctx}.kinds_picked")
    if situation == _AT_ROOF_TILE:
        if not s.kinds_picked or s.kinds_picked[-1] != s.chance_arg:
            raise root.fail("the roof kind being drawn is the last kind picked", f"{ctx}.chance_arg")
        if sum(s.roof_stack(s.chance_arg)) == 0:
            raise root.fail(f"the {ROOF_KINDS[s.chance_arg]} stack is empty", f"{ctx}.chance_arg")
    if situation == Phase.PYRAMID:
        held = s.pyramid_count(p) + sum(pl.reserve)
        target = min(PYRAMID_SIZE, held)
        if s.pyramid_target != target:
            raise root.fail(f"is {s.pyramid_target} but seat {SEAT_LETTERS[p]} holds {held} cubes, so it builds "
                            f"{target} (§4.1)", f"{ctx}.pyramid_target")
        if s.pyramid_count(p) >= target:
            raise root.fail(f"seat {SEAT_LETTERS[p]} has finished its pyramid", "phase")


def _check_fish_swap(s: Position, root: _Reader) -> None:
    """Dock swaps on the way to an island [RD-37]: the island is a destination of the boat, privilege pays
    for the next swap, and a pending pick is a dock of its island. (Whether the trip can still be
    completed is the rules' question: `burano_ai.validate.check_playable` asks it.)"""
    p = s.actor
    pl = s.players[p]
    target = s.sail_target
    if target < 0:
        raise root.fail("phase 'fish-swap' needs the island the boat is about to sail to", "context.sail_target")
    name = topology.ROUTE_NODE_NAMES[target]
    if topology.NODE_ISLAND[target] < 0:
        raise root.fail(f"is {name}, a port: dock swaps come only before a trip to an island (§4.3)",
                        "context.sail_target")
    steps = set(topology.ROUTE_STEP1[pl.boat])
    if any(buildings.BUILDING_CARDS[c][1] == buildings.LONG_VOYAGE for c in pl.buildings):
        steps.update(topology.ROUTE_STEP2[pl.boat])
    if target not in steps:
        raise root.fail(f"{name} is not a destination of seat {SEAT_LETTERS[p]}'s boat at "
                        f"{topology.ROUTE_NODE_NAMES[pl.boat]} (one step, or two with Long voyage)",
                        "context.sail_target")
    if pl.privilege < 1:
        raise root.fail(f"seat {SEAT_LETTERS[p]} swaps docks but has no privilege to pay with (the boat sails on "
                        "once privilege runs out)", f"seats[{p}].privilege")
    if s.swap_pick >= 0:
        island, colour = divmod(s.swap_pick, NUM_COLOURS)
        if colour not in s.docks[island]:
            raise root.fail(f"{dock_to_str(s.swap_pick)} is not a dock: {topology.ISLAND_NAMES[island]}'s docks are "
                            f"{', '.join(COLOURS[c] for c in s.docks[island])}", "context.swap_pick")


def _matches(s: Position, p: int, island: int) -> int:
    """Size of the multiset intersection of the seat's arrow colours and the island's docks [RD-7]."""
    docks = list(s.docks[island])
    m = 0
    for c in s.arrows(p):
        if c in docks:
            docks.remove(c)
            m += 1
    return m


def _check_lace_pay(s: Position, root: _Reader) -> None:
    """Lace scoring decides per worker in square order [RD-24]: the queue is what is left of them."""
    p = s.actor
    workers = s.workshop_workers(p)
    q, paid = s.pay_queue, s.paid
    if not q:
        raise root.fail("phase 'lace-pay' needs the workshop squares still to decide (non-empty)",
                        "context.pay_queue")
    if len(q) > len(workers) or q != workers[len(workers) - len(q):]:
        raise root.fail(f"must be the last of seat {SEAT_LETTERS[p]}'s workshop squares in square order "
                        f"({', '.join(topology.SQUARE_NAMES[x] for x in workers) or 'none'})", "context.pay_queue")
    decided = workers[:len(workers) - len(q)]
    if paid != sorted(paid) or len(set(paid)) != len(paid) or any(x not in decided for x in paid):
        raise root.fail(f"must list, in square order, squares of seat {SEAT_LETTERS[p]} already decided "
                        f"({', '.join(topology.SQUARE_NAMES[x] for x in decided) or 'none'})", "context.paid")
    if s.discount_used and (not paid or not s.has_card(p, buildings.LACE_DISCOUNT)):
        raise root.fail(f"seat {SEAT_LETTERS[p]} has not paid a worker with the Lace discount card",
                        "context.discount_used")


def _check_pyramids(s: Position, root: _Reader) -> None:
    """Pyramids: built in turn order, positions filled b1..top [RD-19]; supported and used up in the rounds.

    In setup (§3) no pyramid is built yet, and the roof picks go in seat order: seats before the one
    picking hold 3 tiles (12 of each kind cannot run out), seats after it none.
    """
    if s.stage == Stage.SETUP:
        for p, pl in enumerate(s.players):
            if any(c >= 0 for c in pl.pyramid):
                raise root.fail("pyramids are built after the setup roof picks: the pyramid is empty in stage "
                                "'setup'", f"seats[{p}].pyramid")
            tiles = sum(1 for t in pl.roof_slots if t is not None)
            if p < s.order_index and tiles != ROOF_SLOTS:
                raise root.fail(f"seat {SEAT_LETTERS[p]} picked its {ROOF_SLOTS} roof tiles before the seat to move",
                                f"seats[{p}].roof_slots")
            if p > s.order_index and tiles:
                raise root.fail(f"seat {SEAT_LETTERS[p]} picks its roof tiles after the seat to move: its slots are "
                                "empty in stage 'setup'", f"seats[{p}].roof_slots")
    if s.stage == Stage.PYRAMID:
        order = s.turn_order()
        for k, p in enumerate(order):
            pl = s.players[p]
            count = s.pyramid_count(p)
            if any(c < 0 for c in pl.pyramid[:count]):
                raise root.fail("pyramid positions fill in the order b1..b9, m1..m4, top [RD-19]",
                                f"seats[{p}].pyramid")
            if k < s.order_index and count != min(PYRAMID_SIZE, count + sum(pl.reserve)):
                raise root.fail(f"seat {SEAT_LETTERS[p]} built before the seat to move, so its pyramid is complete",
                                f"seats[{p}].pyramid")
            if k > s.order_index and count:
                raise root.fail(f"seat {SEAT_LETTERS[p]} builds after the seat to move: its pyramid is still empty",
                                f"seats[{p}].pyramid")
    if s.stage in (Stage.ROUNDS, Stage.LACE_SCORING):
        for p, pl in enumerate(s.players):
            if any(pl.reserve):
                raise root.fail("the reserve is empty from the end of pyramid construction until clean-up step 4 "
                                "(§4.1)", f"seats[{p}].reserve")
    # Through the rounds a cube rests on full cells: built b1..top, and only free cubes are taken (§4.2).
    # (From lace scoring on, paying with pyramid cubes (§8.2) may take any cube.)
    if s.stage in (Stage.PYRAMID, Stage.ROUNDS):
        for p, pl in enumerate(s.players):
            for pos in range(9, PYRAMID_SIZE):
                if pl.pyramid[pos] >= 0 and not s.is_supported(p, pos):
                    raise root.fail(f"{actions.PYRAMID_NAMES[pos]} rests on empty cells", f"seats[{p}].pyramid")
    # Clean-up step 4 (§8.4) moves each seat's pyramid to its reserve, in turn order, before it replenishes:
    # the seats done and the one replenishing have empty pyramids, and all of them from the roof refill on.
    if s.stage in (Stage.REPLENISH, Stage.ROOF_REFILL):
        order = s.turn_order()
        for k, p in enumerate(order):
            emptied = s.stage == Stage.ROOF_REFILL or k <= s.order_index
            if emptied and any(c >= 0 for c in s.players[p].pyramid):
                raise root.fail(f"seat {SEAT_LETTERS[p]} has moved its pyramid to the reserve in clean-up step 4 "
                                f"(§8.4): its pyramid is empty in stage {STAGE_NAMES[s.stage]!r}",
                                f"seats[{p}].pyramid")


def _check_roof_fields(s: Position, root: _Reader) -> None:
    """A roof's fields match the cubes beneath, except fields a Roof wildcard card relaxed (§7, §9)."""
    wild_sets = [set(c for card in pl.buildings if buildings.BUILDING_CARDS[card][1] == buildings.ROOF_WILDCARD
                     for c in buildings.BUILDING_CARDS[card][2]) for pl in s.players]
    for k, (level, line, _, _, _) in enumerate(s.roofs):
        a, b, _ = topology.ROOF_LINES[line]
        off = [s.roof_field[level - 1][h] for h in (a, b) if s.roof_field[level - 1][h] != s.cubes[level - 1][h]]
        if off and not any(all(f in wild for f in off) for wild in wild_sets):
            h = a if s.roof_field[level - 1][a] != s.cubes[level - 1][a] else b
            raise root.fail(f"field {COLOURS[s.roof_field[level - 1][h]]} lies on a {COLOURS[s.cubes[level - 1][h]]} "
                            f"cube at {topology.HOLE_NAMES[h]}: a roof's fields match the cubes beneath unless a "
                            "seat owns a Roof wildcard card for that colour (§7)", f"island.roofs[{k}].fields")


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
    if len(s.building_display) > buildings.BUILDING_DISPLAY_SIZE:
        raise root.fail(f"the building display holds at most {buildings.BUILDING_DISPLAY_SIZE} cards", "building_display")
    for kind in range(NUM_ROOF_KINDS):
        stack = s.roof_stack(kind)
        for pair, left in enumerate(stack):
            if left < 0:
                a, b = ROOF_PAIRS[pair]
                raise root.fail(f"roof tile {ROOF_KINDS[kind]} {COLOURS[a]}-{COLOURS[b]} appears more than once")
