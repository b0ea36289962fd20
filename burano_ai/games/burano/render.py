"""Text rendering of a position (`State.__str__`, `burano show`, `burano play`) and of the legal moves.

The board is rendered from the position dict of `burano_ai.games.burano.notation` (`state.to_dict(seat)`), so a
one-seat rendering shows exactly what that seat knows: other seats' blind fish cards as a count, no fish
deck composition, and no other seats' pyramids while pyramids are being built. Counts that the dict does
not store (cube supply, decks, roof stacks) are derived here from what it does store.

Two layouts, each fixed (same sections, same order, same widths) so that renderings diff well:

- the full one (`width` None or at least `WIDE` = 120 columns): every seat in detail, every roof listed;
  `burano show` and `State.__str__` print it;
- the compact one (below 120 columns) fits 80 x 24 with the prompt under it: the island and the
  workshops on the left, the status, the sailing route and the supplies on the right, the other seats
  in one short entry each and the viewer's seat in detail. What it leaves out (the list of the island's
  roofs, the other seats' rings, pyramids, roof slots and hands) the full layout shows.

Letters that cannot be confused: colours are lower-case (`p` pink, `b` blue, `y` yellow, `g` green,
`o` orange, `w` white), seats are capitals (`A`..`D`). `render_lines` also gives each span a style
(a rich style name: a cube letter in its colour, a seat letter in bold), which `burano play` shows on a
colour terminal; `render_position` is the same text without styles.
"""

from __future__ import annotations

import textwrap
from typing import Any, Iterable

from burano_ai.games.burano import topology
from burano_ai.games.burano.data import buildings
from burano_ai.games.burano.data.colours import (
    COLOUR_LETTERS,
    COLOURS,
    CUBES_PER_COLOUR,
    PLAYER_COLOURS,
    SEAT_LETTERS,
)
from burano_ai.games.burano.data.island import FOUNTAIN, SIZE
from burano_ai.games.burano.data.ring import ARROW_SECTORS, HOUSES_PER_PIECE, NUM_HOUSES, RING_PIECES, SYMBOLS
from burano_ai.games.burano.data.roofs import ROOF_KINDS, TILES_PER_KIND
from burano_ai.games.burano.data.route import ROUTE_NODES
from burano_ai.games.burano.data.turn import SEASON_ROUNDS, SEASONS
from burano_ai.games.burano.words import status_words

WIDTH = 100   # wrap width of free text in the full layout; its side-by-side sections reach 120 at most
#: Terminal columns from which the full layout is used; below, the compact one (80 columns wide).
WIDE = 120
#: The compact layout's width: every line fits in it.
COMPACT_WIDTH = 80
#: The compact layout's rows (at most, in every position seen in tests/games/burano/test_render.py): 24 less the rule
#: naming the seat to move and the prompt under it. Past it, the route's heading is left out.
COMPACT_ROWS = 22
#: Colour letters: lower-case, so that they never read as a seat (`b` is blue, `B` is seat B).
LETTERS = {c: letter.lower() for c, letter in zip(COLOURS, COLOUR_LETTERS)}
#: The style of each colour's letters on a colour terminal (rich style names).
COLOUR_STYLES = {"pink": "bold bright_magenta", "blue": "bold bright_blue", "yellow": "bold yellow",
                 "green": "bold green", "orange": "bold dark_orange", "white": "bold bright_white"}
#: The style of a seat's letter.
SEAT_STYLE = "bold"
LEGEND = ("colours are lower-case (p pink, b blue, y yellow, g green, o orange, w white), "
          "seats capitals (A-D)")
_CELL = 4          # characters per island column (full layout)
_COMPACT_CELL = 3  # characters per island column (compact layout)
_COMPACT_LEFT = 31  # the compact layout's left column (island, workshops) and the gap after it


class Line:
    """One line of a rendering: its text as spans, each with a style ("" = none)."""

    __slots__ = ("spans",)

    def __init__(self, text: str = "", style: str = "") -> None:
        self.spans: list[tuple[str, str]] = [(text, style)] if text else []

    def add(self, text: str | Line, style: str = "") -> Line:
        """Append `text` (a string in `style`, or another Line's spans); return self."""
        if isinstance(text, Line):
            self.spans.extend(text.spans)
        elif text:
            self.spans.append((text, style))
        return self

    @property
    def text(self) -> str:
        return "".join(t for t, _ in self.spans)

    def __len__(self) -> int:
        return sum(len(t) for t, _ in self.spans)

    def pad(self, width: int) -> Line:
        """Spaces up to `width` characters; return self."""
        return self.add(" " * (width - len(self))) if len(self) < width else self

    def rstrip(self) -> Line:
        while self.spans and not self.spans[-1][0].rstrip():
            self.spans.pop()
        if self.spans:
            t, s = self.spans[-1]
            self.spans[-1] = (t.rstrip(), s)
        return self


def _as_line(x: Line | str) -> Line:
    return x if isinstance(x, Line) else Line(x)


def _cube(colour: str) -> tuple[str, str]:
    return LETTERS[colour], COLOUR_STYLES[colour]


def _letters(names: Iterable[str], sep: str = " ") -> Line:
    line = Line()
    for i, c in enumerate(names):
        line.add(sep if i else "").add(*_cube(c))
    return line


def _names(names: Iterable[str]) -> Line:
    """Colour names, each in its colour."""
    line = Line()
    for i, c in enumerate(names):
        line.add(" " if i else "").add(c, COLOUR_STYLES[c])
    return line


def _seats_text(letters: Iterable[str]) -> Line:
    line = Line()
    for i, text in enumerate(letters):
        line.add(" " if i else "").add(text[0], SEAT_STYLE).add(text[1:])
    return line


def _counts(counts: dict[str, int]) -> str:
    """`{"pink": 3, "blue": 1}` -> `pink x3, blue`; `-` when empty."""
    if not counts:
        return "-"
    return ", ".join(k if n == 1 else f"{k} x{n}" for k, n in counts.items())


def _short_counts(counts: dict[str, int]) -> Line:
    """`{"pink": 3, "blue": 1}` -> `p3 b1`; `-` when empty."""
    if not counts:
        return Line("-")
    line = Line()
    for i, (k, n) in enumerate(counts.items()):
        line.add(" " if i else "").add(*_cube(k)).add(str(n))
    return line


def _wrap(text: str, indent: str = "  ", width: int = WIDTH) -> list[str]:
    return textwrap.wrap(text, width, subsequent_indent=indent + "  ", break_on_hyphens=False) or [text]


def _wrap_items(items: list[str], first: str, rest: str, width: int = WIDTH) -> list[str]:
    """Join `items` with commas, breaking lines only between items (a move text stays on one line)."""
    lines, line = [], first
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        if line.strip() and len(line) + len(piece) > width:
            lines.append(line.rstrip())
            line = rest
        line += piece + " "
    lines.append(line.rstrip())
    return lines


def _pack(items: list[Line | str | list[str]], width: int, first: str = "", rest: str = "  ",
          sep: str = "  ") -> list[Line]:
    """`items` in rows of at most `width` columns (where the text allows), separated by `sep`; an item is
    never split. A single item goes into the first row with room for it (rows start with `first`, then
    `rest`); a list (a title and names) is laid in order from the last row on, one space after a comma."""
    rows = [Line(first)]

    def room(row: Line, item: Line, joint: str) -> bool:
        empty = len(row) <= len(first if row is rows[0] else rest)
        return empty or len(row) + len(joint) + len(item) <= width

    def put(row: Line, item: Line, joint: str) -> None:
        empty = len(row) <= len(first if row is rows[0] else rest)
        row.add("" if empty else joint).add(item)

    for item in items:
        if isinstance(item, list):
            for piece in map(_as_line, item):
                joint = " " if rows[-1].text.endswith(",") else sep
                if not room(rows[-1], piece, joint):
                    rows.append(Line(rest))
                put(rows[-1], piece, joint)
            continue
        line = _as_line(item)
        row = next((r for r in rows if room(r, line, sep)), None)
        if row is None:
            rows.append(row := Line(rest))
        put(row, line, sep)
    return [row.rstrip() for row in rows]


def _side_by_side(left: list[Line | str], right: list[Line | str], width: int) -> list[Line]:
    rows = max(len(left), len(right))
    left = list(left) + [""] * (rows - len(left))
    right = list(right) + [""] * (rows - len(right))
    return [_as_line(a).pad(width).add(_as_line(b)).rstrip() for a, b in zip(left, right)]


# ------------------------------------------------------------------------------------------------
# Sections


def _winners(d: dict[str, Any]) -> list[str]:
    # Ties: most VP, then most preparation-area cubes, then most coins (rules §10).
    keys = [(seat["vp"], sum(seat["prep"].values()), seat["coins"]) for seat in d["seats"]]
    return [seat["seat"] for seat, key in zip(d["seats"], keys) if key == max(keys)]


def _to_move(d: dict[str, Any]) -> str:
    ctx = d.get("context") or {}
    if d["phase"] == "game-over":
        return "nobody (game over; winners " + " ".join(_winners(d)) + ")"
    if d["phase"] == "chance":
        return f"chance ({ctx.get('chance', '?')})"
    return d["actor"]


def _pending(d: dict[str, Any]) -> list[str]:
    """Where the pending sub-action stands, in words (`words.status_words`; empty when nothing is pending)."""
    return status_words(d)


def _header(d: dict[str, Any]) -> list[Line]:
    season = d["season"]
    rounds = SEASON_ROUNDS[SEASONS.index(season)]
    view = f"view of seat {d['view']}" if d["view"] else "full view"
    ctx = d.get("context") or {}
    markers = Line("action board: ")
    for i, (a, cols) in enumerate(d["markers"].items()):
        markers.add(" | " if i else "").add(f"{a} = ").add(_names(cols))
    lines = [
        Line(f"Burano, {d['players']} players | {season} round {min(d['round'], rounds)} of {rounds} | "
             f"first player {d['first_player']} | {view}"),
        Line(f"stage {d['stage']}, phase {d['phase']} | to move: {_to_move(d)} | "
             f"moves made this turn: {ctx.get('moves', 0)}"),
        markers,
    ]
    pending = _pending(d)
    if pending:
        lines += [Line(w) for status in pending for w in _wrap(status)]   # the pending decision, in words
    return lines


def _island_grid(d: dict[str, Any], cell: int = _CELL) -> list[Line]:
    """9 x 9 cells, row 9 at the top: `p1` top cube and level, `.` empty hole, `*` the fountain hole,
    `--`/`==` a horizontal level-1/level-2 roof's midpoint, `|`/`||` a vertical one."""
    cells: dict[tuple[int, int], Line] = {}
    for (x, y) in topology.HOLES:
        cells[(x, y)] = Line(".")
    for name, stack in d["island"]["cubes"].items():
        x, y = ord(name[0]) - ord("a"), int(name[1]) - 1
        cells[(x, y)] = Line(*_cube(stack[-1])).add(str(len(stack)))
    fx, fy = FOUNTAIN
    cells[(fx, fy)] = cells.get((fx, fy), Line()).add("*")
    for roof in sorted(d["island"]["roofs"], key=lambda r: r["level"]):
        (xa, ya), (xb, yb) = ((ord(c[0]) - ord("a"), int(c[1]) - 1) for c in roof["cells"])
        mid = ((xa + xb) // 2, (ya + yb) // 2)
        cells[mid] = Line(("--", "==")[roof["level"] - 1] if ya == yb else "|" * roof["level"])
    lines = [Line("   " + "".join(chr(ord("a") + x).ljust(cell) for x in range(SIZE)).rstrip())]
    for y in reversed(range(SIZE)):
        row = Line(f"{y + 1}  ")
        for x in range(SIZE):
            row.add(cells.get((x, y), Line()).pad(cell))
        lines.append(row.rstrip())
    return lines


def _route_parts(d: dict[str, Any]) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    boats: dict[str, list[str]] = {node: [] for node in ROUTE_NODES}
    workers: dict[str, list[str]] = {node: [] for node in ROUTE_NODES}
    for seat in d["seats"]:
        boats[seat["boat"]].append(seat["seat"])
        for island, count in seat["islands"].items():
            workers[island].append(f"{seat['seat']}{count}")
    return boats, workers


def _route(d: dict[str, Any]) -> list[Line]:
    """One line per route node in cycle order: docks or ships, island workers per seat, boats."""
    boats, workers = _route_parts(d)
    lines = [Line("sailing route (a cycle, last back to first):")]
    for node in ROUTE_NODES:
        if node in d["ports"]:
            what = Line("ships " + (", ".join(d["ports"][node]) or "-"))
        else:
            what = Line("docks ").add(_letters(d["docks"][node])).add("  workers ").add(
                _seats_text(workers[node]) if workers[node] else Line("-"))
        lines.append(Line(f"  {node:<5} ").add(what.pad(33)).add(" boats ").add(
            _seats_text(boats[node]) if boats[node] else Line("-")))
    return lines


def _roofs(d: dict[str, Any]) -> list[Line]:
    roofs = d["island"]["roofs"]
    items = [f"L{r['level']} {r['cells'][0]}-{r['cells'][1]} {r['fields'][0]}-{r['fields'][1]} {r['kind']}"
             for r in roofs]
    text = f"roofs on the island ({len(roofs)}): " + ("; ".join(items) if items else "-")
    return [Line(t) for t in _wrap(text)]


def _workshop_grid(d: dict[str, Any], compact: bool = False) -> list[Line]:
    """4 x 7 squares: colour letter, `$` for a coin square, the occupant's seat letter or `.`."""
    occupant = {}
    for seat in d["seats"]:
        for sq in seat["workshop"]:
            occupant[sq] = seat["seat"]
    head, indent = ("   ", "") if compact else ("workshops ", "  ")
    label = " " if compact else "      "
    lines = [Line(head + "".join(f"c{c:<3}" for c in range(7)).rstrip())]
    for r, row in enumerate(d["workshop_layout"]):
        line = Line(f"{indent}r{r}{label}")
        for c, cell in enumerate(row.split()):
            if cell == ".":
                line.add("    ")
            else:
                who = occupant.get(f"r{r}c{c}", ".")
                line.add(*_cube(COLOURS[COLOUR_LETTERS.index(cell[0].upper())]))
                line.add("$" if cell.endswith("$") else " ").add(who, SEAT_STYLE if who != "." else "").add(" ")
        lines.append(line.rstrip())
    return lines


def _used_cubes(d: dict[str, Any]) -> dict[str, int]:
    used = {c: 0 for c in COLOURS}
    for stack in d["island"]["cubes"].values():
        for c in stack:
            used[c] += 1
    for seat in d["seats"]:
        groups = [seat.get("prep") or {}, seat.get("reserve") or {}]
        if seat.get("pyramid") is None:
            groups.append(seat.get("cubes") or {})   # hidden pyramid: cubes held, placed or not
        else:
            for c in seat["pyramid"]:
                if c is not None:
                    used[c] += 1
        for group in groups:
            for c, n in group.items():
                used[c] += n
    return used


def _supply(d: dict[str, Any]) -> Line:
    used = _used_cubes(d)
    line = Line()
    for i, c in enumerate(COLOURS):
        line.add(" " if i else "").add(*_cube(c)).add(str(CUBES_PER_COLOUR - used[c]))
    return line


def _stacks(d: dict[str, Any]) -> dict[str, int]:
    tiles = [r["kind"] for r in d["island"]["roofs"]] + [t["kind"] for t in d.get("roofs_removed", [])]
    for seat in d["seats"]:
        tiles += [t["kind"] for t in seat["roof_slots"] if t is not None]
    return {k: TILES_PER_KIND - tiles.count(k) for k in ROOF_KINDS}


def _building_deck(d: dict[str, Any]) -> int:
    owned = sum(len(seat["buildings"]) for seat in d["seats"])
    return buildings.NUM_BUILDINGS - owned - len(d["building_display"])


def _supplies(d: dict[str, Any]) -> list[Line]:
    """Displays, and the derived counts: decks, roof stacks, the cube supply."""
    stacks = ", ".join(f"{k} {n}" for k, n in _stacks(d).items())
    return [
        Line(f"fish display: {', '.join(d['fish_display']) or '-'} | fish deck {d['fish_deck_size']}"),
        Line(f"building display: {', '.join(d['building_display']) or '-'} | deck {_building_deck(d)}"),
        Line(f"roof stacks: {stacks} | removed {len(d.get('roofs_removed', []))}"),
        Line("cube supply: ").add(_supply(d)),
    ]


def _house(ring: dict[str, Any], sector: int) -> tuple[int, int]:
    """(colour, symbol) of the house under `sector` (1-12) of a ring entry (rules §2 [RD-4])."""
    h = (ring["offset"] + sector - 1) % NUM_HOUSES
    piece = int(ring["pieces"][h // HOUSES_PER_PIECE][1:]) - 1   # "r3" -> piece 2
    return RING_PIECES[piece][h % HOUSES_PER_PIECE]


def _ring(seat: dict[str, Any]) -> Line:
    ring = seat["ring"]
    line = Line("  ring ")
    for sector in range(1, NUM_HOUSES + 1):
        colour, symbol = _house(ring, sector)
        worker = sector <= ring["workers"]
        if sector == 10:
            line.add(" |")
        line.add("[" if worker else " ").add(*_cube(COLOURS[colour])).add(SYMBOLS[symbol]).add("]" if worker else " ")
    arrows = " ".join(COLOURS[_house(ring, sector)[0]] for sector in ARROW_SECTORS)
    return line.add(f"  arrows {arrows}")


def _compact_ring(seat: dict[str, Any]) -> Line:
    """`ring [p$ yF b$] gF w$ ...`: the houses from sector 1, the workers' houses in brackets, `|`
    before the arrows (sectors 10-12)."""
    ring = seat["ring"]
    line = Line("ring ")
    for sector in range(1, NUM_HOUSES + 1):
        colour, symbol = _house(ring, sector)
        if sector > 1:
            line.add("] " if sector == ring["workers"] + 1 else " ")
        if sector == 10:
            line.add("| ")
        if sector == 1 and ring["workers"]:
            line.add("[")
        line.add(*_cube(COLOURS[colour])).add(SYMBOLS[symbol])
    return line.add("]" if ring["workers"] >= NUM_HOUSES else "")


def _pyramid_cells(seat: dict[str, Any]) -> Line:
    pyr = seat["pyramid"]
    line = Line()
    for start, size, sep in ((0, 3, "/"), (3, 3, "/"), (6, 3, " "), (9, 2, "/"), (11, 2, " "), (13, 1, "")):
        for c in pyr[start:start + size]:
            line.add(".") if c is None else line.add(*_cube(c))
        line.add(sep)
    return line


def _pyramid(seat: dict[str, Any]) -> Line:
    pyr = seat.get("pyramid")
    if pyr is None:
        return (Line(f"  pyramid hidden ({seat.get('placed', 0)} placed; cubes ")
                .add(_short_counts(seat.get("cubes") or {})).add(")  prep ").add(_short_counts(seat["prep"])))
    return (Line("  pyramid ").add(_pyramid_cells(seat))
            .add(f"  ({sum(c is not None for c in pyr)} cubes)  reserve ").add(_short_counts(seat["reserve"]))
            .add("  prep ").add(_short_counts(seat["prep"])))


def _hand(seat: dict[str, Any]) -> str:
    hand = seat["hand"]
    blind = hand["blind"]
    known = _counts(hand["known"])
    if isinstance(blind, int):
        blind_text = f"{blind} card{'s' if blind != 1 else ''} (unseen)"
    else:
        blind_text = _counts(blind)
    return f"hand known: {known}; blind: {blind_text}"


def _listed(title: str, names: list[str], sep: str = " ") -> list[str]:
    """`buildings a, b, c` as pieces that the packer may break between names (`title` stays with the first)."""
    if not names:
        return [f"{title}{sep}-"]
    return [f"{title}{sep}{names[0]}" + ("," if len(names) > 1 else "")] + \
        [name + ("," if i < len(names) - 2 else "") for i, name in enumerate(names[1:])]


def _pending_items(pending: list[str], width: int) -> list[str]:
    """The pending decision in words (`status_words`), as pieces a row wide at most (the packer puts each on
    its own row when it is long: a sentence is never cut inside a word)."""
    return textwrap.wrap("pending: " + "; ".join(pending), width - 4, break_on_hyphens=False)


def _compact_hand(seat: dict[str, Any]) -> str:
    """`hand tuna, eel x2 + 2 unseen`, `hand -`."""
    hand = seat["hand"]
    blind = hand["blind"]
    parts = [_counts(hand["known"])] if hand["known"] else []
    if isinstance(blind, int):
        parts += [f"{blind} unseen"] if blind else []
    elif blind:
        parts.append(_counts(blind) + " (blind)")
    return "hand " + (" + ".join(parts) or "-")


def _seat_head(d: dict[str, Any], p: int, seat: dict[str, Any]) -> Line:
    """`A (blue)`, the seat's letter in bold: the first words of a seat's first line."""
    return Line(seat["seat"], SEAT_STYLE).add(f" ({PLAYER_COLOURS[p]})")


def _flags(d: dict[str, Any], seat: dict[str, Any]) -> list[str]:
    flags = []
    if d["actor"] == seat["seat"] and d["phase"] not in ("chance", "game-over"):
        flags.append("<- to move")
    if d["view"] == seat["seat"]:
        flags.append("(viewer)")
    return flags


def _seat(d: dict[str, Any], p: int, seat: dict[str, Any]) -> list[Line]:
    on_islands = sum(seat["islands"].values())
    slots = ", ".join("-" if t is None else f"{t['kind']} {t['fields'][0]}-{t['fields'][1]}"
                      for t in seat["roof_slots"])
    return [
        _seat_head(d, p, seat).add(
            f"  VP {seat['vp']}  coins {seat['coins']}  privilege {seat['privilege']}  "
            f"boat {seat['boat']}  workers: ring {seat['ring']['workers']}, islands {on_islands}, "
            f"workshop {len(seat['workshop'])}  {' '.join(_flags(d, seat))}").rstrip(),
        _ring(seat),
        _pyramid(seat),
        *map(Line, _wrap(f"  roof slots {slots} | buildings {', '.join(seat['buildings']) or '-'}")),
        *map(Line, _wrap(f"  {_hand(seat)} | sold {_counts(seat['sold'])}")),
    ]


# ------------------------------------------------------------------------------------------------
# The compact layout (80 columns)


def _compact_status(d: dict[str, Any], width: int) -> Line:
    """`spring round 4/4, recall, to move A`, then what still fits of `, 3 moves, first A`."""
    season = d["season"]
    ctx = d.get("context") or {}
    if d["stage"] == "rounds":
        rounds = SEASON_ROUNDS[SEASONS.index(season)]
        where = f"{season} round {min(d['round'], rounds)}/{rounds}"
    else:
        where = f"{season} {d['stage']}"
    if d["phase"] == "game-over":
        return Line("game over: winners ").add(_seats_text(_winners(d)))
    if d["phase"] == "chance":
        line = Line(f"{where}, chance: {ctx.get('chance', '?')}")
    else:
        line = Line(f"{where}, {d['phase']}, to move ").add(d["actor"], SEAT_STYLE)
        for extra in ([f", {ctx['moves']} moves"] if ctx.get("moves") else []) + [f", first {d['first_player']}"]:
            if len(line) + len(extra) <= width:
                line.add(extra)
    return line if len(line) <= width else Line(line.text[:width - 3] + "...")


def _compact_right(d: dict[str, Any], width: int, heading: bool = True) -> list[Line]:
    """The right column: the status, the route (with its columns' heading), the displays and supplies."""
    boats, workers = _route_parts(d)
    lines = [_compact_status(d, width)] + ([Line("route  boats   docks  workers | ships at ports", "dim")]
                                           if heading else [])
    for node in ROUTE_NODES:
        line = Line(f"{node:<5}  ").add(_seats_text(boats[node]).pad(8))
        if node in d["ports"]:
            line.add(" ".join(d["ports"][node]) or "-")
        else:
            line.add(_letters(d["docks"][node]).pad(7)).add(_seats_text(workers[node]))
        lines.append(line.rstrip())
    markers = Line("actions ")
    for i, (a, cols) in enumerate(d["markers"].items()):
        markers.add("; " if i else "").add(f"{a} ").add(_letters(cols))
    lines.append(markers)
    lines += _pack([[f"fish {', '.join(d['fish_display']) or '-'};", f"deck {d['fish_deck_size']}"]], width,
                   sep=" ")
    lines += _pack([["buildings"] + [f"{b}," for b in d["building_display"][:-1]] + d["building_display"][-1:]
                    + [f"(deck {_building_deck(d)})"]], width, sep=" ")
    lines.append(Line("stacks " + " ".join(f"{k} {n}" for k, n in _stacks(d).items())))
    lines.append(Line("cubes ").add(_supply(d)).add(f"; roofs removed {len(d.get('roofs_removed', []))}"))
    return lines


def _compact_other(d: dict[str, Any], p: int, seat: dict[str, Any]) -> Line:
    """One seat in a few words, `B: VP 12 coins 3 priv 1` (its boat is on the route, its workers on the
    route and in the workshops)."""
    return Line(seat["seat"], SEAT_STYLE).add(f": VP {seat['vp']} coins {seat['coins']} priv {seat['privilege']}")


def _compact_seat(d: dict[str, Any], p: int, seat: dict[str, Any], width: int, pending: list[str]) -> list[Line]:
    """A seat in detail, in `width` columns: its numbers, cubes, ring and pyramid, roof slots, buildings,
    hand (an item is never split; empty reserves and sold cards are left out, its boat is on the route)."""
    head = _seat_head(d, p, seat).add(f"  VP {seat['vp']}  coins {seat['coins']}  privilege {seat['privilege']}")
    if "<- to move" in _flags(d, seat):
        head.add("  <- to move")
    if seat.get("pyramid") is None:
        pyr = Line(f"pyramid hidden ({seat.get('placed', 0)} placed; cubes ").add(
            _short_counts(seat.get("cubes") or {})).add(")")
    elif any(c is not None for c in seat["pyramid"]):
        pyr = Line("pyramid ").add(_pyramid_cells(seat))
    else:
        pyr = Line("pyramid -")
    slots = Line("roof slots ")
    for i, t in enumerate(seat["roof_slots"]):
        slots.add(", " if i else "")
        if t is None:
            slots.add("-")
        else:
            slots.add(f"{t['kind']} ").add(*_cube(t["fields"][0])).add("-").add(*_cube(t["fields"][1]))
    items: list[Line | str | list[str]] = [
        head,
        *([_pending_items(pending, width)] if pending else []),
        Line("prep ").add(_short_counts(seat["prep"])),
        *([Line("reserve ").add(_short_counts(seat["reserve"]))] if seat.get("reserve") else []),
        _compact_ring(seat), pyr,
        slots,
        _listed("buildings", seat["buildings"]),
        _compact_hand(seat),
        *([f"sold {_counts(seat['sold'])}"] if seat["sold"] else []),
    ]
    return _pack(items, width)


def _compact(d: dict[str, Any], heading: bool = True) -> list[Line]:
    width = COMPACT_WIDTH
    left = _island_grid(d, _COMPACT_CELL) + _workshop_grid(d, compact=True)
    lines = _side_by_side(left, _compact_right(d, width - _COMPACT_LEFT, heading), _COMPACT_LEFT)
    pending = _pending(d)
    viewer = d["view"]
    if pending and not (viewer and viewer == d["actor"]):   # else it is told in the viewer's entry
        lines += _pack([_pending_items(pending, width)], width)
    others = [_compact_other(d, p, seat) for p, seat in enumerate(d["seats"]) if viewer and seat["seat"] != viewer]
    if others:
        lines += _pack(others, width, rest="", sep=" | ")
    for p, seat in enumerate(d["seats"]):
        if not viewer or seat["seat"] == viewer:
            lines += _compact_seat(d, p, seat, width, pending if seat["seat"] == d["actor"] else [])
    if heading and len(lines) > COMPACT_ROWS:   # a long entry of the viewer's: the route's heading makes room
        return _compact(d, heading=False)
    return lines


# ------------------------------------------------------------------------------------------------
# Entry points


def _full(d: dict[str, Any]) -> list[Line]:
    lines = _header(d)
    lines.append(Line())
    lines += _side_by_side(_island_grid(d), [Line()] + _route(d), 3 + SIZE * _CELL + 1)
    lines += _roofs(d)
    lines.append(Line())
    left = 10 + 7 * 4 + 2
    right = [Line(part) for item in _supplies(d)[:3]
             for part in textwrap.wrap(item.text, WIDTH + 20 - left, subsequent_indent="  ", break_on_hyphens=False)]
    right.append(_supplies(d)[3])
    lines += _side_by_side(_workshop_grid(d), [Line()] + right, left)
    lines.append(Line())
    lines.append(Line("seats: ring = houses from sector 1, [..] = a worker on it, after | the arrows (sectors 10-12); "
                      "pyramid = base/middle/top"))
    lines.append(Line(LEGEND))
    for p, seat in enumerate(d["seats"]):
        lines += _seat(d, p, seat)
    return lines


def render_lines(d: dict[str, Any], width: int | None = None) -> list[Line]:
    """The rendering of a position dict as styled lines: the full layout when `width` is None or at least
    `WIDE`, else the compact one (at most `COMPACT_WIDTH` columns)."""
    return _full(d) if width is None or width >= WIDE else _compact(d)


def render_position(d: dict[str, Any], width: int | None = None) -> str:
    """Render a position dict (the format of `burano_ai.games.burano.notation.position_to_dict`) as plain text
    (the layout for a terminal `width` columns wide; None: the full layout)."""
    return "\n".join(line.text for line in render_lines(d, width)) + "\n"


def render_state(state, seat: int | None = None, width: int | None = None) -> str:
    """Render `state` as plain text: everything (`seat=None`) or what `seat` (0-based) can see."""
    return render_position(state.to_dict(seat), width)


def render_legal_actions(state) -> str:
    """List the legal moves' text (grouped by verb), or the chance outcomes with their probabilities."""
    if state.is_terminal():
        return "no legal moves: the game is over\n"
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        items = [f"{state.action_to_string(a)} ({p:.3g})" for a, p in outcomes]
        return "\n".join([f"chance outcomes ({len(items)}):"] + _wrap_items(items, "  ", "    ")) + "\n"
    actions = state.legal_actions()
    groups: dict[str, list[str]] = {}
    for a in actions:
        text = state.action_to_string(a)
        groups.setdefault(text.split()[0], []).append(text)
    lines = [f"legal moves for {SEAT_LETTERS[state.current_player()]} ({len(actions)}):"]
    for texts in groups.values():
        lines += _wrap_items(texts, "  ", "    ")
    return "\n".join(lines) + "\n"
