"""Plain-text rendering of a position (`State.__str__`, `burano show`) and of the legal moves.

The board is rendered from the position dict of `burano_ai.games.burano.notation` (`state.to_dict(seat)`), so a
one-seat rendering shows exactly what that seat knows: other seats' blind fish cards as a count, no fish
deck composition, and no other seats' pyramids while pyramids are being built. Counts that the dict does
not store (cube supply, decks, roof stacks) are derived here from what it does store.

The layout is fixed (same sections, same order, same widths) so that renderings diff well.
"""

from __future__ import annotations

import textwrap
from typing import Any

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

WIDTH = 100   # wrap width of free text; the side-by-side board sections reach 120 at most
_LETTER = dict(zip(COLOURS, COLOUR_LETTERS))
_CELL = 4   # characters per island column


def _letters(names: list[str]) -> str:
    return " ".join(_LETTER[c] for c in names)


def _counts(counts: dict[str, int], short: bool = False) -> str:
    """`{"pink": 3, "blue": 1}` -> `P3 B1` (short) or `pink x3, blue`; `-` when empty."""
    if not counts:
        return "-"
    if short:
        return " ".join(f"{_LETTER[k]}{n}" for k, n in counts.items())
    return ", ".join(k if n == 1 else f"{k} x{n}" for k, n in counts.items())


def _wrap(text: str, indent: str = "  ") -> list[str]:
    return textwrap.wrap(text, WIDTH, subsequent_indent=indent + "  ", break_on_hyphens=False) or [text]


def _wrap_items(items: list[str], first: str, rest: str) -> list[str]:
    """Join `items` with commas, breaking lines only between items (a move text stays on one line)."""
    lines, line = [], first
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        if line.strip() and len(line) + len(piece) > WIDTH:
            lines.append(line.rstrip())
            line = rest
        line += piece + " "
    lines.append(line.rstrip())
    return lines


# ------------------------------------------------------------------------------------------------
# Sections


def _header(d: dict[str, Any]) -> list[str]:
    season = d["season"]
    rounds = SEASON_ROUNDS[SEASONS.index(season)]
    view = f"view of seat {d['view']}" if d["view"] else "full view"
    ctx = d.get("context") or {}
    if d["phase"] == "game-over":
        # Ties: most VP, then most preparation-area cubes, then most coins (rules §10).
        keys = [(seat["vp"], sum(seat["prep"].values()), seat["coins"]) for seat in d["seats"]]
        to_move = "nobody (game over; winners " + " ".join(
            seat["seat"] for seat, key in zip(d["seats"], keys) if key == max(keys)) + ")"
    elif d["phase"] == "chance":
        to_move = f"chance ({ctx.get('chance', '?')})"
    else:
        to_move = d["actor"]
    lines = [
        f"Burano, {d['players']} players | {season} round {min(d['round'], rounds)} of {rounds} | "
        f"first player {d['first_player']} | {view}",
        f"stage {d['stage']}, phase {d['phase']} | to move: {to_move} | moves made this turn: {ctx.get('moves', 0)}",
        "action board: " + " | ".join(f"{a} = {' '.join(cols)}" for a, cols in d["markers"].items()),
    ]
    lines += [w for status in status_words(d) for w in _wrap(status)]   # the pending decision, in words
    return lines


def _island_grid(d: dict[str, Any]) -> list[str]:
    """9 x 9 cells, row 9 at the top: `P1` top cube and level, `.` empty hole, `*` the fountain hole,
    `--`/`==` a horizontal level-1/level-2 roof's midpoint, `|`/`||` a vertical one."""
    cells: dict[tuple[int, int], str] = {}
    for (x, y) in topology.HOLES:
        cells[(x, y)] = "."
    for name, stack in d["island"]["cubes"].items():
        x, y = ord(name[0]) - ord("a"), int(name[1]) - 1
        cells[(x, y)] = f"{_LETTER[stack[-1]]}{len(stack)}"
    fx, fy = FOUNTAIN
    cells[(fx, fy)] += "*"
    for roof in sorted(d["island"]["roofs"], key=lambda r: r["level"]):
        (xa, ya), (xb, yb) = ((ord(c[0]) - ord("a"), int(c[1]) - 1) for c in roof["cells"])
        mid = ((xa + xb) // 2, (ya + yb) // 2)
        cells[mid] = ("--", "==")[roof["level"] - 1] if ya == yb else "|" * roof["level"]
    lines = ["   " + "".join(chr(ord("a") + x).ljust(_CELL) for x in range(SIZE))]
    for y in reversed(range(SIZE)):
        row = "".join(cells.get((x, y), "").ljust(_CELL) for x in range(SIZE))
        lines.append(f"{y + 1}  {row}")
    return lines


def _route(d: dict[str, Any]) -> list[str]:
    """One line per route node in cycle order: docks or ships, island workers per seat, boats."""
    boats: dict[str, list[str]] = {node: [] for node in ROUTE_NODES}
    workers: dict[str, list[str]] = {node: [] for node in ROUTE_NODES}
    for seat in d["seats"]:
        boats[seat["boat"]].append(seat["seat"])
        for island, count in seat["islands"].items():
            workers[island].append(f"{seat['seat']}{count}")
    lines = ["sailing route (a cycle, last back to first):"]
    for node in ROUTE_NODES:
        if node in d["ports"]:
            what = "ships " + (", ".join(d["ports"][node]) or "-")
        else:
            what = f"docks {_letters(d['docks'][node])}  workers {' '.join(workers[node]) or '-'}"
        lines.append(f"  {node:<5} {what:<33} boats {' '.join(boats[node]) or '-'}")
    return lines


def _roofs(d: dict[str, Any]) -> list[str]:
    roofs = d["island"]["roofs"]
    items = [f"L{r['level']} {r['cells'][0]}-{r['cells'][1]} {r['fields'][0]}-{r['fields'][1]} {r['kind']}"
             for r in roofs]
    text = f"roofs on the island ({len(roofs)}): " + ("; ".join(items) if items else "-")
    return _wrap(text)


def _workshop_grid(d: dict[str, Any]) -> list[str]:
    """4 x 7 squares: colour letter, `$` for a coin square, the occupant's seat letter or `.`."""
    occupant = {}
    for seat in d["seats"]:
        for sq in seat["workshop"]:
            occupant[sq] = seat["seat"]
    lines = ["workshops " + "".join(f"c{c:<3}" for c in range(7))]
    for r, row in enumerate(d["workshop_layout"]):
        out = []
        for c, cell in enumerate(row.split()):
            if cell == ".":
                out.append("    ")
            else:
                coin = "$" if cell.endswith("$") else " "
                out.append(f"{cell[0]}{coin}{occupant.get(f'r{r}c{c}', '.')} ")
        lines.append(f"  r{r}      " + "".join(out))
    return lines


def _supplies(d: dict[str, Any]) -> list[str]:
    """Displays, and the derived counts: decks, roof stacks, the cube supply."""
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
    supply = " ".join(f"{_LETTER[c]}{CUBES_PER_COLOUR - used[c]}" for c in COLOURS)
    tiles = [r["kind"] for r in d["island"]["roofs"]] + [t["kind"] for t in d.get("roofs_removed", [])]
    for seat in d["seats"]:
        tiles += [t["kind"] for t in seat["roof_slots"] if t is not None]
    stacks = ", ".join(f"{k} {TILES_PER_KIND - tiles.count(k)}" for k in ROOF_KINDS)
    owned = sum(len(seat["buildings"]) for seat in d["seats"])
    building_deck = buildings.NUM_BUILDINGS - owned - len(d["building_display"])
    return [
        f"fish display: {', '.join(d['fish_display']) or '-'} | fish deck {d['fish_deck_size']}",
        f"building display: {', '.join(d['building_display']) or '-'} | deck {building_deck}",
        f"roof stacks: {stacks} | removed {len(d.get('roofs_removed', []))}",
        f"cube supply: {supply}",
    ]


def _house(ring: dict[str, Any], sector: int) -> tuple[int, int]:
    """(colour, symbol) of the house under `sector` (1-12) of a ring entry (rules §2 [RD-4])."""
    h = (ring["offset"] + sector - 1) % NUM_HOUSES
    piece = int(ring["pieces"][h // HOUSES_PER_PIECE][1:]) - 1   # "r3" -> piece 2
    return RING_PIECES[piece][h % HOUSES_PER_PIECE]


def _ring(seat: dict[str, Any]) -> str:
    ring = seat["ring"]
    houses = []
    for sector in range(1, NUM_HOUSES + 1):
        colour, symbol = _house(ring, sector)
        text = f"{COLOUR_LETTERS[colour]}{SYMBOLS[symbol]}"
        houses.append(f"[{text}]" if sector <= ring["workers"] else f" {text} ")
    arrows = " ".join(COLOURS[_house(ring, sector)[0]] for sector in ARROW_SECTORS)
    return f"  ring {''.join(houses[:9])} |{''.join(houses[9:])}  arrows {arrows}"


def _pyramid(seat: dict[str, Any]) -> str:
    pyr = seat.get("pyramid")
    if pyr is None:
        return (f"  pyramid hidden ({seat.get('placed', 0)} placed; cubes {_counts(seat.get('cubes') or {}, True)})"
                f"  prep {_counts(seat['prep'], True)}")
    cell = ["." if c is None else _LETTER[c] for c in pyr]
    base = "/".join("".join(cell[r * 3:r * 3 + 3]) for r in range(3))
    middle = "/".join("".join(cell[9 + r * 2:11 + r * 2]) for r in range(2))
    return (f"  pyramid {base} {middle} {cell[13]}  ({sum(c is not None for c in pyr)} cubes)"
            f"  reserve {_counts(seat['reserve'], True)}  prep {_counts(seat['prep'], True)}")


def _hand(seat: dict[str, Any]) -> str:
    hand = seat["hand"]
    blind = hand["blind"]
    known = _counts(hand["known"])
    if isinstance(blind, int):
        blind_text = f"{blind} card{'s' if blind != 1 else ''} (unseen)"
    else:
        blind_text = _counts(blind)
    return f"  hand known: {known}; blind: {blind_text} | sold {_counts(seat['sold'])}"


def _seat(d: dict[str, Any], p: int, seat: dict[str, Any]) -> list[str]:
    letter = seat["seat"]
    on_islands = sum(seat["islands"].values())
    flags = []
    if d["actor"] == letter and d["phase"] not in ("chance", "game-over"):
        flags.append("<- to move")
    if d["view"] == letter:
        flags.append("(viewer)")
    slots = ", ".join("-" if t is None else f"{t['kind']} {t['fields'][0]}-{t['fields'][1]}"
                      for t in seat["roof_slots"])
    return [
        f"{letter} ({PLAYER_COLOURS[p]})  VP {seat['vp']}  coins {seat['coins']}  privilege {seat['privilege']}  "
        f"boat {seat['boat']}  workers: ring {seat['ring']['workers']}, islands {on_islands}, "
        f"workshop {len(seat['workshop'])}  {' '.join(flags)}".rstrip(),
        _ring(seat),
        _pyramid(seat),
        *_wrap(f"  roof slots {slots} | buildings {', '.join(seat['buildings']) or '-'}"),
        *_wrap(_hand(seat)),
    ]


def _side_by_side(left: list[str], right: list[str], width: int) -> list[str]:
    rows = max(len(left), len(right))
    left = left + [""] * (rows - len(left))
    right = right + [""] * (rows - len(right))
    return [(a.ljust(width) + b).rstrip() for a, b in zip(left, right)]


# ------------------------------------------------------------------------------------------------
# Entry points


def render_position(d: dict[str, Any]) -> str:
    """Render a position dict (the format of `burano_ai.games.burano.notation.position_to_dict`) as plain text."""
    lines = _header(d)
    lines.append("")
    lines += _side_by_side(_island_grid(d), [""] + _route(d), 3 + SIZE * _CELL + 1)
    lines += _roofs(d)
    lines.append("")
    left = 10 + 7 * 4 + 2
    right = [part for item in _supplies(d)
             for part in textwrap.wrap(item, WIDTH + 20 - left, subsequent_indent="  ", break_on_hyphens=False)]
    lines += _side_by_side(_workshop_grid(d), [""] + right, left)
    lines.append("")
    lines.append("seats: ring = houses from sector 1, [..] = a worker on it, after | the arrows (sectors 10-12); "
                 "pyramid = base/middle/top")
    for p, seat in enumerate(d["seats"]):
        lines += _seat(d, p, seat)
    return "\n".join(lines) + "\n"


def render_state(state, seat: int | None = None) -> str:
    """Render `state` as plain text: everything (`seat=None`) or what `seat` (0-based) can see."""
    return render_position(state.to_dict(seat))


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
