"""The position record both rules implementations share: every field of a Burano position, the counts
derived from them, and the invariants they must keep.

A `Position` holds what is on the table and where the game stands: the board (island cubes and roofs,
docks, ports, markers, displays, islands' and workshop's workers), each seat's `SeatPosition`, the
progress (season, round, stage, phase, actor) and the context of the pending decision. Counts the
rules conserve are not stored but derived (`supply`, `fish_deck`, `building_deck`, `roof_stack`), so a
position cannot contradict itself there.

It has no rules: legal moves and their effects live in the reference model
(`burano_ai.games.burano.reference.State`, a Position with rules) and in the compiled core (`burano_ai.games.burano._core`,
which builds its C state from a Position and writes one back). `burano_ai.games.burano.deal` sets one up from a
seed, `burano_ai.games.burano.notation` reads and writes it as JSON, `burano_ai.games.burano.views` computes one seat's view.
Field meanings follow the rules spec section by section (§n) and the rules decisions ([RD-n]).
"""

from __future__ import annotations

import copy

from burano_ai.games.burano import actions
from burano_ai.games.burano import topology
from burano_ai.games.burano.data import buildings
from burano_ai.games.burano.data.colours import CUBES_PER_COLOUR, MAX_PLAYERS, MIN_PLAYERS, NUM_COLOURS
from burano_ai.games.burano.data.fish import CARDS_PER_SPECIES, FISH_DISPLAY_SIZE, NUM_SPECIES
from burano_ai.games.burano.data.island import MAX_LEVEL, MAX_ROOF_LEVEL
from burano_ai.games.burano.data.ring import ACTIVE_WORKERS, HOUSES_PER_PIECE, NUM_HOUSES, RING_PIECES
from burano_ai.games.burano.data.roofs import NUM_ROOF_KINDS, ROOF_SLOTS, TILES_PER_KIND
from burano_ai.games.burano.data.route import NUM_ISLANDS
from burano_ai.games.burano.data.turn import PREP_SLOTS, PYRAMID_SIZE
from burano_ai.games.burano.enums import EMPTY, NO_PLAYER, ChanceKind, Phase, Stage
from burano_ai.core.arguments import as_int, check_index, check_instance, check_range, int_text
from burano_ai.core.errors import OptionError
from burano_ai.core.seats import parse_seat
from burano_ai.games.burano.topology import WorkshopLayout

#: Components of the game (§1): what `Position.component_counts` must always return.
COMPONENTS = {"cubes": CUBES_PER_COLOUR * NUM_COLOURS, "fish": CARDS_PER_SPECIES * NUM_SPECIES,
              "buildings": buildings.NUM_BUILDINGS, "roofs": NUM_ROOF_KINDS * TILES_PER_KIND}


def workshop_layout(num_players: int, rows: list[str] | tuple[str, ...] | None = None) -> WorkshopLayout:
    """The workshop layout of a game: `rows` (4 rows of 7 squares) or the default for the player count.

    Raises:
        OptionError: `num_players` is not 2, 3 or 4.
        PositionError: `rows` is not a valid layout (from `topology.build_workshop_layout`).
    """
    if isinstance(num_players, bool) or not isinstance(num_players, int) \
            or not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
        raise OptionError(f"num_players must be 2, 3 or 4, not {num_players!r}")
    if rows is None:
        return topology.default_workshop_layout(num_players)
    return topology.build_workshop_layout(tuple(rows))


class SeatPosition:
    """Everything one seat owns (rules spec §1, §3): the seat's part of a `Position`."""

    __slots__ = ("ring_pieces", "ring_offset", "ring_workers", "pyramid", "reserve", "prep", "coins", "vp",
                 "privilege", "roof_slots", "buildings", "hand_known", "hand_blind", "sold", "boat")

    def __init__(self) -> None:
        self.ring_pieces = [0, 1, 2, 3]        # piece id on quarter A, B, C, D
        self.ring_offset = 0                   # house under sector 1 (the time wheel)
        self.ring_workers = 0                  # workers on the ring; they fill sectors 1..n
        self.pyramid = [EMPTY] * PYRAMID_SIZE  # colour per position b1..b9, m1..m4, top
        self.reserve = [0] * NUM_COLOURS       # cubes per colour
        self.prep = [0] * NUM_COLOURS          # preparation area, cubes per colour (3 slots)
        self.coins = 0
        self.vp = 0
        self.privilege = 0
        self.roof_slots: list[tuple[int, int] | None] = [None] * ROOF_SLOTS  # (kind, pair id)
        self.buildings: list[int] = []         # building card ids, in order taken
        self.hand_known = [0] * NUM_SPECIES    # cards every seat saw taken (face-up draws)
        self.hand_blind = [0] * NUM_SPECIES    # cards drawn blind: only this seat knows them
        self.sold = [0] * NUM_SPECIES          # sold-fish area (public: shown at the sale)
        self.boat = 0                          # route node

class Position:
    """A Burano position: the table and the progress of the game, with no rules attached.

    Args:
        num_players: 2, 3 or 4 (not checked here: see `workshop_layout`).
        layout: the game's workshop layout.

    A new Position is an empty table (only the default marker mapping, seats with their start
    components not yet dealt): `burano_ai.games.burano.deal.deal` sets up a game, `burano_ai.games.burano.notation` loads one.
    """

    def __init__(self, num_players: int, layout: WorkshopLayout) -> None:
        n = num_players
        self.layout = layout
        self.num_players = n
        # Board.
        self.cubes = [[EMPTY] * topology.NUM_HOLES for _ in range(MAX_LEVEL)]        # [level-1][hole]
        self.roof_at = [[EMPTY] * topology.NUM_HOLES for _ in range(MAX_ROOF_LEVEL)]  # roof id on a cube
        self.roof_field = [[EMPTY] * topology.NUM_HOLES for _ in range(MAX_ROOF_LEVEL)]  # field colour
        self.roofs: list[tuple[int, int, int, int, bool]] = []  # (level, line, kind, pair, flipped)
        self.roofs_removed: list[tuple[int, int]] = []             # (kind, pair) out of the game
        self.docks = [[0, 0, 0] for _ in range(NUM_ISLANDS)]      # colours, sorted
        self.ports: list[list[int]] = [[], []]                     # ship ids, sorted
        self.markers = list(actions.MARKER_MAPPINGS[0])                  # action of each colour
        self.fish_display = [0] * NUM_SPECIES                      # face-up cards per species
        self.building_display: list[int] = []                      # card ids, sorted
        self.island_workers = [[0] * n for _ in range(NUM_ISLANDS)]
        self.workshop = [NO_PLAYER] * len(self.layout.colour)      # occupant of each square
        self.players = [SeatPosition() for _ in range(n)]
        # Progress.
        self.season = 0
        self.round = 1
        self.first_player = 0
        self.stage = Stage.SETUP
        self.phase = Phase.ROOF_PICK
        self.actor = 0                 # who decides (the current player unless at a chance node)
        self.order_index = 0           # position in the turn order of a setup/pyramid/cleanup loop
        self.moves = 0                 # moves made in the current turn
        # Pending action context.
        self.chance_kind = ChanceKind.NONE
        self.chance_arg = 0            # roof kind for CK_ROOF_TILE
        self.sail_target = EMPTY       # route node of the island trip whose dock swaps are pending [RD-37]
        self.swap_pick = EMPTY         # first dock of a swap awaiting its partner: actions.dock_index
        self.fish_island = EMPTY       # island being fished
        self.fish_matches = 0
        self.draws_left = 0
        self.lace_allow = [0] * NUM_COLOURS
        self.pending_roof = EMPTY      # roof id awaiting its bonus and scoring
        self.pay_queue: list[int] = []  # workshop squares still to decide in lace scoring
        self.paid: list[int] = []
        self.discount_used = False
        self.shortfall = 0
        self.picks_left = 0
        self.kinds_picked: list[int] = []
        self.pyramid_target = 0        # cubes the current builder must place

    # ------------------------------------------------------------------------------------------
    # Derived values (read-only)

    def turn_order(self) -> list[int]:
        """Seats clockwise from the first player (§8: the turn order of clean-up steps)."""
        return [(self.first_player + i) % self.num_players for i in range(self.num_players)]

    def house(self, player: int, sector: int) -> tuple[int, int]:
        """Return (colour, symbol) of the house under `sector` (1..12) of a player's ring."""
        if type(player) is not int or not 0 <= player < self.num_players:     # the rules' own calls pass these tests
            player = parse_seat(player, self.num_players, "player")
        if type(sector) is not int or not 1 <= sector <= NUM_HOUSES:
            sector = check_range(sector, 1, NUM_HOUSES, "sector")
        pl = self.players[player]
        h = (pl.ring_offset + sector - 1) % NUM_HOUSES
        return RING_PIECES[pl.ring_pieces[h // HOUSES_PER_PIECE]][h % HOUSES_PER_PIECE]

    def arrows(self, player: int) -> list[int]:
        """Colours under the three arrows (sectors 10, 11, 12), read covered or not (§2 [RD-4])."""
        if type(player) is not int or not 0 <= player < self.num_players:     # the rules' own calls pass these tests
            player = parse_seat(player, self.num_players, "player")
        return [self.house(player, s)[0] for s in (10, 11, 12)]

    def visible_symbols(self, player: int, symbol: int) -> int:
        """Count uncovered houses (sectors n+1..12) showing a coin or fountain symbol."""
        if type(player) is not int or not 0 <= player < self.num_players:     # the rules' own calls pass these tests
            player = parse_seat(player, self.num_players, "player")
        symbol = as_int(symbol, "symbol")
        n = self.players[player].ring_workers
        return sum(1 for s in range(n + 1, NUM_HOUSES + 1) if self.house(player, s)[1] == symbol)

    def covered_colours(self, player: int) -> list[int]:
        """Covered houses (sectors 1..n) per colour (§8 step 4)."""
        if type(player) is not int or not 0 <= player < self.num_players:     # the rules' own calls pass these tests
            player = parse_seat(player, self.num_players, "player")
        counts = [0] * NUM_COLOURS
        for s in range(1, self.players[player].ring_workers + 1):
            counts[self.house(player, s)[0]] += 1
        return counts

    def island_majority_scorers(self) -> list[tuple[int, list[int], list[int]]]:
        """The season-end island majority [RD-15], per island with workers on it: (island, the seats tied
        for the most workers, the seats that score it). One seat scores when it alone has the most or holds
        the island-ties card; otherwise the tied seats share."""
        out = []
        for i in range(NUM_ISLANDS):
            counts = self.island_workers[i]
            best = max(counts)
            if best == 0:
                continue
            tied = [p for p in range(self.num_players) if counts[p] == best]
            holders = [p for p in tied if self.has_card(p, buildings.ISLAND_TIES)]
            out.append((i, tied, [(holders or tied)[0]] if len(tied) == 1 or holders else tied))
        return out

    def has_card(self, player: int, card_family: int) -> bool:
        """Whether `player` holds a building card of `card_family`."""
        if type(player) is not int or not 0 <= player < self.num_players:     # the rules' own calls pass these tests
            player = parse_seat(player, self.num_players, "player")
        if type(card_family) is not int:
            card_family = as_int(card_family, "card family")
        return any(buildings.BUILDING_CARDS[c][1] == card_family for c in self.players[player].buildings)

    def supply(self) -> list[int]:
        """Cubes in the supply per colour: 20 minus every cube elsewhere (derived, §1)."""
        used = [0] * NUM_COLOURS
        for level in self.cubes:
            for c in level:
                if c != EMPTY:
                    used[c] += 1
        for pl in self.players:
            for c in pl.pyramid:
                if c != EMPTY:
                    used[c] += 1
            for c in range(NUM_COLOURS):
                used[c] += pl.reserve[c] + pl.prep[c]
        return [CUBES_PER_COLOUR - u for u in used]

    def fish_deck(self) -> list[int]:
        """Cards in the fish deck per species: 6 minus every card elsewhere (derived)."""
        deck = [CARDS_PER_SPECIES - self.fish_display[s] for s in range(NUM_SPECIES)]
        for pl in self.players:
            for s in range(NUM_SPECIES):
                deck[s] -= pl.hand_known[s] + pl.hand_blind[s] + pl.sold[s]
        return deck

    def building_deck(self) -> list[int]:
        """Building card ids still in the deck (derived; the deck order is chance)."""
        out = set(self.building_display)
        for pl in self.players:
            out.update(pl.buildings)
        return [c for c in range(buildings.NUM_BUILDINGS) if c not in out]

    def roof_stack(self, kind: int) -> list[int]:
        """Tiles left in a kind's face-down stack, per colour pair (derived).

        Raises:
            TypeError: `kind` is not an int. OptionError: no such kind.
        """
        kind = as_int(kind, "a roof kind")
        if not 0 <= kind < NUM_ROOF_KINDS:
            raise OptionError(f"roof kind {int_text(kind)} does not exist (0..{NUM_ROOF_KINDS - 1})")
        stack = [1] * TILES_PER_KIND
        used = [(k, p) for (_, _, k, p, _) in self.roofs] + list(self.roofs_removed)
        for pl in self.players:
            used += [t for t in pl.roof_slots if t is not None]
        for (k, p) in used:
            if k == kind:
                stack[p] -= 1
        return stack

    def pyramid_count(self, player: int) -> int:
        if type(player) is not int or not 0 <= player < self.num_players:     # the rules' own calls pass these tests
            player = parse_seat(player, self.num_players, "player")
        return sum(1 for c in self.players[player].pyramid if c != EMPTY)

    def _pyramid_cell(self, player: int, pos: int) -> tuple[list[int], int]:
        """Seat `player`'s pyramid and the position `pos` in it, both checked (a seat, a pyramid position)."""
        if type(player) is not int or not 0 <= player < self.num_players:     # the rules' own calls pass these tests
            player = parse_seat(player, self.num_players, "player")
        if type(pos) is not int or not 0 <= pos < PYRAMID_SIZE:
            pos = check_index(pos, PYRAMID_SIZE, "pyramid position")
        return self.players[player].pyramid, pos

    def is_supported(self, player: int, pos: int) -> bool:
        """A pyramid position can take a cube: a base cell, or all the cells below it filled [RD-18]."""
        pyr, pos = self._pyramid_cell(player, pos)
        if pos < 9:
            return True
        if pos < actions.TOP:
            return all(pyr[b] != EMPTY for b in actions.MIDDLE_SUPPORT[pos - 9])
        return all(pyr[9 + m] != EMPTY for m in range(4))

    def workshop_workers(self, player: int) -> list[int]:
        if type(player) is not int or not 0 <= player < self.num_players:     # the rules' own calls pass these tests
            player = parse_seat(player, self.num_players, "player")
        return [sq for sq, occ in enumerate(self.workshop) if occ == player]

    def workers_off_ring(self, player: int) -> int:
        if type(player) is not int or not 0 <= player < self.num_players:     # the rules' own calls pass these tests
            player = parse_seat(player, self.num_players, "player")
        return sum(self.island_workers[i][player] for i in range(NUM_ISLANDS)) + len(self.workshop_workers(player))

    def component_counts(self) -> dict[str, int]:
        """Count every conserved component wherever it lies (supply, decks and stacks included)."""
        cubes = sum(self.supply())
        cubes += sum(1 for level in self.cubes for c in level if c != EMPTY)
        fish = sum(self.fish_deck()) + sum(self.fish_display)
        building_cards = len(self.building_deck()) + len(self.building_display)
        roofs = sum(sum(self.roof_stack(k)) for k in range(NUM_ROOF_KINDS)) + len(self.roofs) + len(self.roofs_removed)
        for pl in self.players:
            cubes += sum(1 for c in pl.pyramid if c != EMPTY) + sum(pl.reserve) + sum(pl.prep)
            fish += sum(pl.hand_known) + sum(pl.hand_blind) + sum(pl.sold)
            building_cards += len(pl.buildings)
            roofs += sum(1 for t in pl.roof_slots if t is not None)
        return {"cubes": cubes, "fish": fish, "buildings": building_cards, "roofs": roofs}

    def check(self) -> None:
        """Raise AssertionError naming the first broken invariant (conservation, ranges, structure)."""
        counts = self.component_counts()
        assert counts == COMPONENTS, f"components not conserved: {counts} != {COMPONENTS}"
        assert all(x >= 0 for x in self.supply()), f"negative supply {self.supply()}"
        assert all(x >= 0 for x in self.fish_deck()), f"negative fish deck {self.fish_deck()}"
        assert sum(self.fish_display) <= FISH_DISPLAY_SIZE
        assert len(self.building_display) <= buildings.BUILDING_DISPLAY_SIZE
        assert sorted(self.ports[0] + self.ports[1]) == [0, 1, 2, 3]
        assert sorted(c for d in self.docks for c in d) == sorted(list(range(NUM_COLOURS)) * 3)
        for p, pl in enumerate(self.players):
            workers = pl.ring_workers + self.workers_off_ring(p)
            assert workers == ACTIVE_WORKERS, f"seat {p} has {workers} active workers"
            assert pl.ring_workers >= 1, f"seat {p} has an empty ring"
            assert pl.coins >= 0 and pl.privilege >= 0 and pl.vp >= 0, f"seat {p} negative coins/privilege/vp"
            assert min(pl.reserve) >= 0 and min(pl.prep) >= 0 and sum(pl.prep) <= PREP_SLOTS
            assert min(pl.hand_known) >= 0 and min(pl.hand_blind) >= 0
            assert len(set(pl.buildings)) == len(pl.buildings)
        for lv in (2, 3):
            for h in range(topology.NUM_HOLES):
                if self.cubes[lv - 1][h] != EMPTY:
                    assert self.roof_at[lv - 2][h] != EMPTY, f"level-{lv} cube without roof at {h}"


    # ------------------------------------------------------------------------------------------
    # Copies

    #: Every field of a position (the seat fields are `SeatPosition.__slots__`).
    FIELDS = ("cubes", "roof_at", "roof_field", "roofs", "roofs_removed", "docks", "ports", "markers",
              "fish_display", "building_display", "island_workers", "workshop", "players", "season", "round",
              "first_player", "stage", "phase", "actor", "order_index", "moves", "chance_kind", "chance_arg",
              "sail_target", "swap_pick", "fish_island", "fish_matches", "draws_left", "lace_allow", "pending_roof",
              "pay_queue", "paid", "discount_used", "shortfall", "picks_left", "kinds_picked", "pyramid_target")

    def clone(self):
        """A deep copy (the layout, which never changes, is shared)."""
        memo = {id(self.layout): self.layout}
        game = getattr(self, "game", None)
        if game is not None:
            memo[id(game)] = game
        return copy.deepcopy(self, memo)

    def copy_fields_from(self, other: Position) -> None:
        """Make this position's fields deep copies of `other`'s (same player count and layout)."""
        check_instance(other, Position, "a Burano position")
        for name in self.FIELDS:
            setattr(self, name, copy.deepcopy(getattr(other, name)))

    def to_position(self) -> Position:
        """This position as a plain `Position` (a copy, without rules)."""
        out = Position(self.num_players, self.layout)
        out.copy_fields_from(self)
        return out
