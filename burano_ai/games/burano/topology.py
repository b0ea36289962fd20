"""Board topology: the only module that uses networkx.

It builds the sailing route, the workshop grid and the island lattice as graphs from
`burano_ai.games.burano.data`, validates them, and freezes them into plain tuples that the rules code reads.
Nothing in a hot path calls networkx: the reference model and the compiled core use the frozen tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import networkx as nx

from burano_ai.games.burano.data import island as island_data
from burano_ai.games.burano.data import route as route_data
from burano_ai.games.burano.data import workshops as workshop_data
from burano_ai.games.burano.data.colours import COLOUR_LETTERS, NUM_COLOURS
from burano_ai.core.errors import PositionError

# --------------------------------------------------------------------------------------------
# Main island


def _build_island_graph() -> nx.Graph:
    graph = nx.Graph()
    size = island_data.SIZE
    for y in range(size):
        for x in range(size):
            if island_data.is_hole(x, y):
                graph.add_node((x, y))
    for (x, y) in list(graph.nodes):
        for dx, dy in island_data.DIAGONAL_OFFSETS:
            if (x + dx, y + dy) in graph:
                graph.add_edge((x, y), (x + dx, y + dy))
    return graph


_ISLAND_GRAPH = _build_island_graph()
if _ISLAND_GRAPH.number_of_nodes() != island_data.NUM_HOLES:
    raise AssertionError("island hole mask does not give 41 holes")
if not nx.is_connected(_ISLAND_GRAPH):
    raise AssertionError("island holes are not diagonally connected")

#: Hole id -> (x, y), row-major (y, then x).
HOLES: tuple[tuple[int, int], ...] = tuple(sorted(_ISLAND_GRAPH.nodes, key=lambda c: (c[1], c[0])))
HOLE_ID: dict[tuple[int, int], int] = {cell: i for i, cell in enumerate(HOLES)}
NUM_HOLES = len(HOLES)
FOUNTAIN_HOLE = HOLE_ID[island_data.FOUNTAIN]
#: Diagonal neighbours of each hole (hole ids, ascending).
HOLE_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(HOLE_ID[n] for n in _ISLAND_GRAPH.neighbors(cell))) for cell in HOLES)


def hole_name(hole: int) -> str:
    """Return the readable name of a hole: column letter a-i and row 1-9, e.g. `e5`."""
    x, y = HOLES[hole]
    return f"{chr(ord('a') + x)}{y + 1}"


def parse_hole(text: str) -> int:
    """Return the hole id named by `text` (e.g. `e5`); raise ValueError if it is not a hole."""
    text = text.strip().lower()
    if len(text) != 2 or not ("a" <= text[0] <= "i") or not ("1" <= text[1] <= "9"):
        raise ValueError(f"'{text}' is not a cell name (a1..i9)")
    cell = (ord(text[0]) - ord("a"), int(text[1]) - 1)
    if cell not in HOLE_ID:
        raise ValueError(f"'{text}' is not a hole of the main island (holes have x + y even)")
    return HOLE_ID[cell]


HOLE_NAMES: tuple[str, ...] = tuple(hole_name(h) for h in range(NUM_HOLES))


def _build_roof_lines() -> tuple[tuple[int, int, int], ...]:
    """Roof lines: pairs of holes two cells apart on a row or column, with their midpoint cell."""
    span = island_data.ROOF_SPAN
    lines = []
    for (x, y) in HOLES:
        for dx, dy in ((span, 0), (0, span)):
            other = (x + dx, y + dy)
            if other in HOLE_ID:
                mid = (x + dx // 2, y + dy // 2)
                lines.append((HOLE_ID[(x, y)], HOLE_ID[other], mid[1] * island_data.SIZE + mid[0]))
    return tuple(sorted(lines))


#: Roof line id -> (hole a, hole b, midpoint cell index y*9+x); hole a < hole b.
ROOF_LINES = _build_roof_lines()
NUM_ROOF_LINES = len(ROOF_LINES)
ROOF_LINE_ID: dict[tuple[int, int], int] = {(a, b): i for i, (a, b, _) in enumerate(ROOF_LINES)}
if NUM_ROOF_LINES != 64:
    raise AssertionError("expected 64 roof lines on the 9x9 island")

# --------------------------------------------------------------------------------------------
# Sailing route


def _build_route_graph() -> nx.Graph:
    graph = nx.cycle_graph(len(route_data.ROUTE_NODES))
    return graph


_ROUTE_GRAPH = _build_route_graph()
if not nx.is_connected(_ROUTE_GRAPH) or any(d != 2 for _, d in _ROUTE_GRAPH.degree):
    raise AssertionError("sailing route must be one cycle")

NUM_ROUTE_NODES = len(route_data.ROUTE_NODES)
ROUTE_NODE_NAMES = route_data.ROUTE_NODES
#: Route node -> island index (0-5) or -1 for a port; and port index (0-1) or -1.
NODE_ISLAND: tuple[int, ...] = tuple(
    route_data.ISLAND_NODES.index(n) if n in route_data.ISLAND_NODES else -1 for n in range(NUM_ROUTE_NODES))
NODE_PORT: tuple[int, ...] = tuple(
    route_data.PORT_NODES.index(n) if n in route_data.PORT_NODES else -1 for n in range(NUM_ROUTE_NODES))
ISLAND_NODE: tuple[int, ...] = route_data.ISLAND_NODES
PORT_NODE: tuple[int, ...] = route_data.PORT_NODES
#: Destinations one step away, and destinations exactly two steps away without turning back.
ROUTE_STEP1: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(_ROUTE_GRAPH.neighbors(n))) for n in range(NUM_ROUTE_NODES))
ROUTE_STEP2: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted({path[-1] for path in nx.all_simple_paths(_ROUTE_GRAPH, n, [m for m in _ROUTE_GRAPH if m != n],
                                                           cutoff=2) if len(path) == 3}))
    for n in range(NUM_ROUTE_NODES))
ISLAND_NAMES: tuple[str, ...] = tuple(route_data.ROUTE_NODES[n] for n in ISLAND_NODE)
PORT_NAMES: tuple[str, ...] = tuple(route_data.ROUTE_NODES[n] for n in PORT_NODE)


def parse_route_node(text: str) -> int:
    """Return the route node named `text` (PortL, I1..I6, PortR; case-insensitive)."""
    for i, name in enumerate(ROUTE_NODE_NAMES):
        if name.lower() == text.strip().lower():
            return i
    raise ValueError(f"'{text}' is not a route node ({', '.join(ROUTE_NODE_NAMES)})")


# --------------------------------------------------------------------------------------------
# Workshop area


@dataclass(frozen=True)
class WorkshopLayout:
    """A frozen workshop layout: per-square colour, coin flag, tile, and orthogonal neighbours."""

    rows: tuple[str, ...]
    colour: tuple[int, ...]              # square -> action colour, or -1 for an empty square
    coin: tuple[bool, ...]               # square -> has a coin symbol
    tile: tuple[int, ...]                # square -> workshop tile id, or -1
    tiles: tuple[tuple[int, ...], ...]   # tile id -> its squares
    neighbours: tuple[tuple[int, ...], ...]  # square -> orthogonal neighbours that are not empty

    @property
    def num_tiles(self) -> int:
        return len(self.tiles)


def square_name(square: int) -> str:
    """Return a workshop square's name, `r<row>c<col>`, e.g. `r1c3`."""
    return f"r{square // workshop_data.COLS}c{square % workshop_data.COLS}"


def parse_square(text: str) -> int:
    """Return the workshop square named `text` (`r0c0`..`r3c6`)."""
    t = text.strip().lower()
    if len(t) == 4 and t[0] == "r" and t[2] == "c" and t[1].isdigit() and t[3].isdigit():
        r, c = int(t[1]), int(t[3])
        if r < workshop_data.ROWS and c < workshop_data.COLS:
            return r * workshop_data.COLS + c
    raise ValueError(f"'{text}' is not a workshop square (r0c0..r3c6)")


SQUARE_NAMES: tuple[str, ...] = tuple(square_name(s) for s in range(workshop_data.NUM_SQUARES))


def _grid_graph() -> nx.Graph:
    return nx.grid_2d_graph(workshop_data.ROWS, workshop_data.COLS)


def build_workshop_layout(rows: tuple[str, ...] | list[str]) -> WorkshopLayout:
    """Parse, validate and freeze a workshop layout (cached: positions name their layout every time).

    Raises:
        PositionError: the layout is not 4 rows of 7 squares, a colour is unknown, a colour does not
            form exactly one connected tile, tiles differ in size, or the empty count is not 4 or 10.
    """
    if not isinstance(rows, (tuple, list)) or not all(isinstance(r, str) for r in rows):
        raise PositionError(f"workshop layout: expected a list of {workshop_data.ROWS} row strings")
    return _build_workshop_layout(tuple(rows))


@lru_cache(maxsize=64)
def _build_workshop_layout(rows: tuple[str, ...]) -> WorkshopLayout:
    if len(rows) != workshop_data.ROWS:
        raise PositionError(f"workshop layout: expected {workshop_data.ROWS} rows, got {len(rows)}")
    colour, coin = [], []
    for r, row in enumerate(rows):
        cells = row.split()
        if len(cells) != workshop_data.COLS:
            raise PositionError(f"workshop layout row {r}: expected {workshop_data.COLS} squares, got {len(cells)}")
        for cell in cells:
            letter, rest = cell[0], cell[1:]
            if letter == ".":
                if rest:
                    raise PositionError(f"workshop layout row {r}: empty square '{cell}' cannot hold a coin")
                colour.append(-1)
                coin.append(False)
            elif letter in COLOUR_LETTERS and rest in ("", "$"):
                colour.append(COLOUR_LETTERS.index(letter))
                coin.append(rest == "$")
            else:
                raise PositionError(f"workshop layout row {r}: unknown square '{cell}'")
    grid = _grid_graph()
    cols = workshop_data.COLS
    same = nx.Graph()
    same.add_nodes_from(s for s in range(len(colour)) if colour[s] >= 0)
    for (r1, c1), (r2, c2) in grid.edges:
        a, b = r1 * cols + c1, r2 * cols + c2
        if colour[a] >= 0 and colour[a] == colour[b]:
            same.add_edge(a, b)
    components = sorted((tuple(sorted(c)) for c in nx.connected_components(same)), key=lambda c: c[0])
    seen_colours = [colour[c[0]] for c in components]
    if sorted(seen_colours) != list(range(NUM_COLOURS)):
        raise PositionError("workshop layout: each of the 6 colours must form exactly one connected tile")
    sizes = {len(c) for c in components}
    empty = colour.count(-1)
    if len(sizes) != 1 or empty not in workshop_data.EMPTY_SQUARES.values():
        raise PositionError("workshop layout: tiles must be all 3 or all 4 squares with 10 or 4 empty squares")
    tile = [-1] * len(colour)
    for t, comp in enumerate(components):
        for s in comp:
            tile[s] = t
    neighbours = []
    for s in range(len(colour)):
        r, c = divmod(s, cols)
        neighbours.append(tuple(sorted(r2 * cols + c2 for (r2, c2) in grid.neighbors((r, c))
                                       if colour[r2 * cols + c2] >= 0)))
    return WorkshopLayout(rows, tuple(colour), tuple(coin), tuple(tile), tuple(components), tuple(neighbours))


@lru_cache(maxsize=None)
def default_workshop_layout(num_players: int) -> WorkshopLayout:
    """Return the default frozen layout for a player count (4p, or 2-3p)."""
    return build_workshop_layout(workshop_data.default_layout(num_players))  # same object as a loaded layout


def union_sizes(layout: WorkshopLayout, squares: list[int] | set[int]) -> list[int]:
    """Return the sizes of the unions (orthogonally connected groups) among `squares`."""
    graph = nx.Graph()
    graph.add_nodes_from(squares)
    for s in squares:
        for n in layout.neighbours[s]:
            if n in graph:
                graph.add_edge(s, n)
    return sorted((len(c) for c in nx.connected_components(graph)), reverse=True)
