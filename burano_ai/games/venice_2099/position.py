"""A Venice 2099 position's fields, their invariants, and the `venice-2099-position/1` JSON (full or one seat's view).

The fields are spec §10.5's; everything else is derived from them: the turn (one card is played per
turn, §4), the seat to move, the setup cursor (the first square not laid, then the next card to deal),
the pending rescue (the one figure "in the water"), each seat's bound for resampling (the rank of its
last play, §10.3).

JSON (`docs/venice-2099-position.schema.json`)::

    {"format": "venice-2099-position/1", "view": null, "players": 3, "options": {...the 8 flags...},
     "phase": "move", "turn": 4, "to_move": "B", "removed_colour": null,
     "board": [["K5", "~G3", "==", ...], ...],      N rows of N cells, row 1 first: a district,
                                                     "~" + a district once sunk, "==" a platform,
                                                     null while setup has not laid it
     "coins_on": {"d4": 3}, "coins_sunk": 0, "supply": {"K": 10, ...} (null: unlimited),
     "moved": [], "played": [["A", "K3"], ...], "set_aside": ["G7", ...] (null in a seat's view),
     "seats": [{"coins": 13, "tokens": {"K": 0, ...}, "gondolas": 2, "hand_size": 11,
                "hand": ["K4", ...] (null for another seat in a seat's view),
                "figures": ["d4", "lost", null, ...]}]}

A figure slot holds a square, null (not placed yet), "lost" (removed for good) or "water" (it fell in
with the last card and its owner's rescue decision is pending, §5.6). `set_aside` lists the cards in
no hand and not played (during the deal: the cards not dealt yet). In a one-seat view the other
hands and the set-aside pile are hidden (§9); loading a view fills them with a consistent deal (the
lowest eligible cards, `rules.resample_hands` without a generator).

`validate` is the one list of invariants: a loaded position that breaks one is refused with a
`PositionError` naming the field, and `Position.check()` raises the same message as an AssertionError.
"""

from __future__ import annotations

import json
from typing import Any

from burano_ai.core.arguments import check_index, check_instance
from burano_ai.core.errors import OptionError, PositionError
from burano_ai.core.fields import POSITION, assert_valid, parse_position_json
from burano_ai.core.seats import SEAT_LETTERS, parse_seat
from burano_ai.games.venice_2099 import rules
from burano_ai.games.venice_2099.data import (
    COINS_EACH, COLOUR_LETTERS, GONDOLAS_EACH, MAX_PLAYERS, MIN_PLAYERS, NUM_COLOURS, VALUE_TEXTS,
)
from burano_ai.games.venice_2099.rules import (
    IN_WATER, LOST, PHASE_BUY, PHASE_CARD, PHASE_MOVE, PHASE_NAMES, PHASE_OVER, PHASE_PLACE, PHASE_RESCUE,
    PHASE_SETUP, PLATFORM, UNPLACED, Options,
)

FORMAT = "venice-2099-position/1"
TOP_FIELDS = ("format", "view", "players", "options", "phase", "turn", "to_move", "removed_colour", "board",
              "coins_on", "coins_sunk", "supply", "moved", "played", "set_aside", "seats")
SEAT_FIELDS = ("coins", "tokens", "gondolas", "hand_size", "hand", "figures")
MAX_JSON_CHARS = 100_000
PLATFORM_CELL = "=="
WATER_MARK = "~"
MOVED_NAMES = ("move", "gondola")       # bit 0: a normal move made this turn, bit 1: a gondola move


class Position:
    """The fields of one position (see the module docstring; seats, colours and slots 0-based).

    Attributes:
        num_players, options; n (grid width N), figures_each, cards_each (§3.3).
        removed_colour: the colour a 2-player game leaves out [VD-11], -1 before it is drawn (and
            always with 3-5 players).
        tiles[s]: the tile laid on square s (a district id, `rules.PLATFORM`), -1 not laid yet.
        water[s]: the district on s has sunk. coins_on[s]: the coins paid onto s (§5.3).
        figures[p][f]: slot f's square, or `rules.UNPLACED` / `LOST` / `IN_WATER`.
        coins[p], tokens[p][c], gondolas[p]: each seat's open components (§9, VD-13).
        hands[p]: the card ids in p's hand, sorted. played: (seat, card) in the order played.
        supply[c]: treasure tokens left (-1 for every colour with `treasure_supply` 0: unlimited).
        coins_sunk: coins that left the game with a sinking district (§5.5 step 2).
        phase: rules.PHASE_*. moved: the move steps done this turn (bits 1 normal, 2 gondola; only with
            `gondola_move_is_step1` false can one be set while the phase is still move).
    """

    def __init__(self, num_players: int = 3, options: Options | None = None) -> None:
        rules.check_players(num_players)
        self.num_players = num_players
        self.options = options if options is not None else rules.DEFAULT_OPTIONS
        counts = rules.config_counts(num_players)
        self.n = counts["N"]
        self.figures_each = counts["figures_each"]
        self.cards_each = counts["cards_each"]
        self.platforms = counts["platforms"]
        self.removed_colour = -1
        squares = self.n * self.n
        self.tiles = [-1] * squares
        self.water = [False] * squares
        self.coins_on = [0] * squares
        self.figures = [[UNPLACED] * self.figures_each for _ in range(num_players)]
        self.coins = [COINS_EACH[num_players]] * num_players
        self.tokens = [[0] * NUM_COLOURS for _ in range(num_players)]
        self.gondolas = [GONDOLAS_EACH] * num_players
        self.hands: list[list[int]] = [[] for _ in range(num_players)]
        self.played: list[tuple[int, int]] = []
        t = self.options.treasure_supply
        self.supply = [t if t else -1] * NUM_COLOURS
        self.coins_sunk = 0
        self.phase = PHASE_SETUP
        self.moved = 0

    def copy_fields_from(self, other: Position) -> None:
        check_instance(other, Position, "a Venice 2099 position")
        self.num_players, self.options = other.num_players, other.options
        self.n, self.figures_each, self.cards_each, self.platforms = (other.n, other.figures_each, other.cards_each,
                                                                      other.platforms)
        self.removed_colour = other.removed_colour
        self.tiles, self.water, self.coins_on = list(other.tiles), list(other.water), list(other.coins_on)
        self.figures = [list(f) for f in other.figures]
        self.coins, self.gondolas = list(other.coins), list(other.gondolas)
        self.tokens = [list(t) for t in other.tokens]
        self.hands = [list(h) for h in other.hands]
        self.played = list(other.played)
        self.supply = list(other.supply)
        self.coins_sunk, self.phase, self.moved = other.coins_sunk, other.phase, other.moved

    def config(self) -> tuple[int, Options]:
        return self.num_players, self.options

    # --- derived facts -------------------------------------------------------------------------

    def deck(self) -> list[int]:
        """The cards in play (with 2 players: none before the colour is drawn)."""
        if self.num_players == 2 and self.removed_colour < 0:
            return []
        return rules.cards_in_play(self.num_players, self.removed_colour, self.options)

    def dealt_total(self) -> int:
        """Cards dealt at setup: n x hand size (§3.3)."""
        return self.num_players * self.cards_each

    def dealt_count(self) -> int:
        return sum(len(h) for h in self.hands) + len(self.played)

    def set_aside(self) -> list[int]:
        """Cards in no hand and not played: the set-aside pile (during the deal: the cards not dealt yet)."""
        held = {k for h in self.hands for k in h} | {k for _, k in self.played}
        return [k for k in self.deck() if k not in held]

    def setup_cursor(self) -> tuple[int, int]:
        """(chance kind, square or deal index) of the pending setup step (phase setup, §10.2)."""
        if self.num_players == 2 and self.removed_colour < 0:
            return rules.CHANCE_COLOUR, 0
        for s, t in enumerate(self.tiles):
            if t < 0:
                return rules.CHANCE_LAYOUT, s
        return rules.CHANCE_DEAL, self.dealt_count()

    def placed_count(self) -> int:
        return sum(1 for fs in self.figures for x in fs if x != UNPLACED)

    def placement_order(self) -> list[tuple[int, int]]:
        """(seat, slot) of every placement in order [VD-6]."""
        n, f = self.num_players, self.figures_each
        if self.options.placement_round_robin:
            return [(i % n, i // n) for i in range(n * f)]
        return [(i // f, i % f) for i in range(n * f)]

    def turn(self) -> int:
        """Turns completed (§4: each ends with its card; a pending rescue belongs to the turn just played)."""
        return len(self.played) - (1 if self.phase == PHASE_RESCUE else 0)

    def active(self) -> int:
        """The seat whose turn it is (clockwise from seat A, VD-12); -1 outside the turns."""
        if self.phase in (PHASE_MOVE, PHASE_BUY, PHASE_CARD, PHASE_RESCUE):
            return self.turn() % self.num_players
        return -1

    def rescue_pending(self) -> tuple[int, int]:
        """(owner, slot) of the figure in the water, or (-1, -1)."""
        for p, fs in enumerate(self.figures):
            for f, x in enumerate(fs):
                if x == IN_WATER:
                    return p, f
        return -1, -1

    def to_move(self) -> int:
        """The seat deciding, -1 at chance nodes and at the end."""
        if self.phase == PHASE_PLACE:
            return self.placement_order()[self.placed_count()][0]
        if self.phase == PHASE_RESCUE:
            return self.rescue_pending()[0]
        return self.active()

    def occupant(self) -> dict[int, tuple[int, int]]:
        """square -> (seat, slot) of the figure on it."""
        return {x: (p, f) for p, fs in enumerate(self.figures) for f, x in enumerate(fs) if x >= 0}

    def is_land(self, s: int) -> bool:
        """An unsunk district (§2 square states). `s`: a square 0..n*n-1 (OptionError otherwise)."""
        if type(s) is not int or not 0 <= s < len(self.tiles):      # the rules' own calls pass this test
            s = check_index(s, len(self.tiles), "square")
        return 0 <= self.tiles[s] < PLATFORM and not self.water[s]

    def alive_figures(self, p: int) -> list[int]:
        """Seat p's slots with a figure on the board."""
        if type(p) is not int or not 0 <= p < self.num_players:
            p = parse_seat(p, self.num_players)
        return [f for f, x in enumerate(self.figures[p]) if x >= 0]

    def bound(self, p: int) -> int:
        """The rank of seat p's last play (0 before its first): p holds no card below it (§10.3)."""
        if type(p) is not int or not 0 <= p < self.num_players:
            p = parse_seat(p, self.num_players)
        last = [k for q, k in self.played if q == p]
        return rules.card_vi(last[-1], self.options) if last else 0

    def hand_size(self, p: int) -> int:
        if type(p) is not int or not 0 <= p < self.num_players:
            p = parse_seat(p, self.num_players)
        return len(self.hands[p])

    def check(self) -> None:
        """Raise AssertionError naming the first broken invariant (the messages of `validate`)."""
        assert_valid(validate, self)


# --- invariants ----------------------------------------------------------------------------------

_fail, _int, _seat, _keys = POSITION.fail, POSITION.int, POSITION.seat, POSITION.keys


def _pile_ok(x: int) -> bool:
    """A square's pile after m purchases is 2^m - 1 (prices 1, 2, 4, ..., §5.3)."""
    return x >= 0 and (x + 1) & x == 0


def validate(pos: Position) -> None:
    """Every invariant of a position (spec §3, §5, §10.5), in one place.

    Raises:
        PositionError: the first broken one, naming its field.
    """
    n, N, opts = pos.num_players, pos.n, pos.options
    name = lambda s: rules.square_name(s, N)  # noqa: E731
    phase = pos.phase
    if n == 2:
        if pos.removed_colour < 0 and (phase != PHASE_SETUP or any(t >= 0 for t in pos.tiles)):
            raise _fail("removed_colour", "a 2-player game draws the colour it leaves out first (§3.2, VD-11)")
    elif pos.removed_colour >= 0:
        raise _fail("removed_colour", "only a 2-player game leaves a colour out (§3.2)")
    # the board (§2, §3)
    in_play = set(rules.districts_in_play(n, pos.removed_colour)) if (n != 2 or pos.removed_colour >= 0) else set()
    laid = [t for t in pos.tiles if t >= 0]
    for s, t in enumerate(pos.tiles):
        if t >= 0 and t != PLATFORM and t not in in_play:
            raise _fail(f"board.{name(s)}", f"{rules.district_text(t)} is not a district of this game "
                                            "(§3.2: 2 players leave out the 7s, 8s and one colour)")
    dup = [t for t in set(laid) if t != PLATFORM and laid.count(t) > 1]
    if dup:
        raise _fail("board", f"district {rules.district_text(dup[0])} is laid twice")
    if laid.count(PLATFORM) > pos.platforms:
        raise _fail("board", f"{laid.count(PLATFORM)} platforms; {n} players use {pos.platforms} (§3.3)")
    first_gap = next((s for s, t in enumerate(pos.tiles) if t < 0), len(pos.tiles))
    if any(t >= 0 for t in pos.tiles[first_gap:]):
        raise _fail(f"board.{name(first_gap)}", "setup lays the tiles square by square in order (§10.2): "
                                                "a gap before a laid square")
    complete = first_gap == len(pos.tiles)
    if phase != PHASE_SETUP and not complete:
        raise _fail("board", "a square without its tile after setup")
    deck = pos.deck() if (n != 2 or pos.removed_colour >= 0) else []
    card_of = {rules.card_district(k, opts): k for k in deck}
    played_cards = [k for _, k in pos.played]
    sunk = {rules.card_district(k, opts) for k in played_cards}
    for s, t in enumerate(pos.tiles):
        if pos.water[s]:
            if not 0 <= t < PLATFORM:
                raise _fail(f"board.{name(s)}", "only a district sinks (platforms never do, §1)")
            if t not in sunk:
                raise _fail(f"board.{name(s)}", f"{rules.district_text(t)} is sunk but its card was not played (§5.5)")
        elif 0 <= t < PLATFORM and t in sunk:
            raise _fail(f"board.{name(s)}", f"{rules.district_text(t)}'s card was played but it has not sunk (§5.5)")
        if pos.coins_on[s]:
            if not pos.is_land(s):
                raise _fail(f"coins_on.{name(s)}", "coins lie on unsunk districts only (§2, §5.5 step 2)")
            if not _pile_ok(pos.coins_on[s]):
                raise _fail(f"coins_on.{name(s)}", f"{pos.coins_on[s]} coins: a pile grows 0, 1, 3, 7, 15, ... "
                                                   "(price = pile + 1, §5.3)")
    if pos.coins_sunk < 0:
        raise _fail("coins_sunk", "negative")
    # the cards (§3, §5.4)
    if phase != PHASE_SETUP or pos.dealt_count():
        if not deck:
            raise _fail("seats", "cards dealt before the colour is drawn")
    seen: dict[int, str] = {}
    for p, h in enumerate(pos.hands):
        for k in h:
            if k not in card_of.values():
                raise _fail(f"seats[{p}].hand", f"{rules.card_text(k, opts)} is no card of this game")
            if k in seen:
                raise _fail(f"seats[{p}].hand", f"{rules.card_text(k, opts)} is also in {seen[k]}")
            seen[k] = f"seat {SEAT_LETTERS[p]}'s hand"
    for i, (p, k) in enumerate(pos.played):
        if k not in card_of.values():
            raise _fail(f"played[{i}]", f"{rules.card_text(k, opts)} is no card of this game")
        if k in seen:
            raise _fail(f"played[{i}]", f"{rules.card_text(k, opts)} is also in {seen[k]}")
        seen[k] = "the played cards"
        if p != i % n:
            raise _fail(f"played[{i}]", f"card {i + 1} is played by seat {SEAT_LETTERS[i % n]} (turns go "
                                        "clockwise from seat A, §4, VD-12)")
    dealt = pos.dealt_count()
    if dealt > pos.dealt_total():
        raise _fail("seats", f"{dealt} cards dealt; {n} players are dealt {pos.dealt_total()} (§3.3)")
    if phase == PHASE_SETUP:
        if pos.played:
            raise _fail("played", "a card played during setup")
        if not complete and dealt:
            raise _fail("seats", "cards dealt before the board is laid (§10.2)")
        for p in range(n):
            want = (dealt - p + n - 1) // n
            if len(pos.hands[p]) != want:
                raise _fail(f"seats[{p}].hand_size", f"{len(pos.hands[p])} cards after {dealt} dealt; "
                                                     f"the deal gives card j to seat j mod {n} (§10.2)")
        if complete and dealt == pos.dealt_total():
            raise _fail("phase", "setup is complete: the placement follows")
    else:
        if dealt != pos.dealt_total():
            raise _fail("seats", f"{dealt} cards dealt; {n} players are dealt {pos.dealt_total()} (§3.3)")
        for p in range(n):
            plays = sum(1 for q, _ in pos.played if q == p)
            if len(pos.hands[p]) != pos.cards_each - plays:
                raise _fail(f"seats[{p}].hand_size", f"{len(pos.hands[p])} cards after {plays} played of "
                                                     f"{pos.cards_each} (§3.3)")
            ranks = [rules.card_vi(k, opts) for q, k in pos.played if q == p]
            if ranks != sorted(ranks):
                raise _fail("played", f"seat {SEAT_LETTERS[p]} played a lower card after a higher one "
                                      "(the lowest card is played, §5.4)")
            if ranks and pos.hands[p] and min(rules.card_vi(k, opts) for k in pos.hands[p]) < ranks[-1]:
                raise _fail(f"seats[{p}].hand", f"seat {SEAT_LETTERS[p]} holds a card below its last play "
                                                "(the lowest card is played, §5.4)")
    # the phase and the turn (§4, §6, §10.5)
    over = len(pos.played) == pos.dealt_total()
    if phase == PHASE_OVER and not over:
        raise _fail("phase", "the game ends when every dealt card has been played (§6)")
    if over and phase not in (PHASE_OVER, PHASE_RESCUE):
        raise _fail("phase", "every card has been played: the game is over (§6)")
    if phase in (PHASE_SETUP, PHASE_PLACE) and pos.played:
        raise _fail("played", "a card played before the placement ends")
    placed = pos.placed_count()
    order = pos.placement_order()
    want_placed = placed if phase == PHASE_PLACE else (0 if phase == PHASE_SETUP else len(order))
    if [(p, f) for p, f in order if pos.figures[p][f] != UNPLACED] != order[:want_placed] or placed != want_placed:
        raise _fail("seats", "figures are placed one at a time in the placement order "
                             f"({'round robin' if opts.placement_round_robin else 'seat by seat'}, VD-6); "
                             f"{placed} placed in phase {PHASE_NAMES[phase]}")
    if phase == PHASE_PLACE:
        for p in range(n):
            values = [rules.district_vi(pos.tiles[x]) for x in pos.figures[p] if x >= 0 and pos.tiles[x] != PLATFORM]
            if len(set(values)) != len(values):
                raise _fail(f"seats[{p}].figures", "two figures placed on districts of one value (RB:74, VD-7)")
    if pos.moved and phase != PHASE_MOVE:
        raise _fail("moved", "move steps are recorded only while the move step lasts")
    if pos.moved and opts.gondola_move_is_step1:
        raise _fail("moved", "with gondola_move_is_step1 the first move ends the move step (VD-4)")
    if pos.moved == 3:
        raise _fail("moved", "both moves are made: the move step is over")
    # the figures (§2, §5)
    where: dict[int, str] = {}
    in_water = []
    for p, fs in enumerate(pos.figures):
        for f, x in enumerate(fs):
            field = f"seats[{p}].figures[{f}]"
            if x == IN_WATER:
                in_water.append((p, f))
            elif x == LOST and phase in (PHASE_SETUP, PHASE_PLACE):
                raise _fail(field, "a figure lost before the first card")
            elif x >= 0:
                if x in where:
                    raise _fail(field, f"{name(x)} already holds {where[x]} (one figure per square, RB:73)")
                where[x] = f"seat {SEAT_LETTERS[p]}'s figure"
                if pos.tiles[x] < 0 or pos.water[x]:
                    raise _fail(field, f"{name(x)} is {'water' if pos.water[x] else 'not laid'}: a figure stands "
                                       "on a district or a platform")
    if (phase == PHASE_RESCUE) != bool(in_water) or len(in_water) > 1:
        raise _fail("phase", "a figure is in the water exactly while its owner's rescue decision is pending (§5.6)")
    if in_water:
        owner = in_water[0][0]
        if pos.gondolas[owner] == 0:
            raise _fail(f"seats[{owner}].gondolas", "a rescue needs a gondola card (§5.6)")
        free = [s for s in range(N * N) if s not in where and not pos.water[s] and pos.tiles[s] >= 0
                and (pos.tiles[s] != PLATFORM or opts.rescue_to_platform)]
        if not free:
            raise _fail("phase", "a rescue with no free square to go to (§5.6, VD-5)")
    if phase in (PHASE_MOVE, PHASE_BUY) and not pos.alive_figures(pos.active()):
        raise _fail("phase", f"seat {SEAT_LETTERS[pos.active()]} has no figure: it skips moving and buying (§5.7)")
    # the open components (§1, §3, conservation)
    total_coins = sum(pos.coins) + sum(pos.coins_on) + pos.coins_sunk
    if total_coins != n * COINS_EACH[n]:
        raise _fail("coins_sunk", f"{total_coins} coins in the game; {n} players start with "
                                  f"{n * COINS_EACH[n]} (§3.3): every coin is held, on a square or sunk")
    for p in range(n):
        if pos.coins[p] < 0:
            raise _fail(f"seats[{p}].coins", "negative")
        if not 0 <= pos.gondolas[p] <= GONDOLAS_EACH:
            raise _fail(f"seats[{p}].gondolas", f"not 0..{GONDOLAS_EACH}")
        if any(x < 0 for x in pos.tokens[p]):
            raise _fail(f"seats[{p}].tokens", "negative")
        if pos.removed_colour >= 0 and pos.tokens[p][pos.removed_colour]:
            raise _fail(f"seats[{p}].tokens", "a token of the colour left out of the game (§3.2 step 3)")
    limit = opts.treasure_supply
    for c in range(NUM_COLOURS):
        held = sum(t[c] for t in pos.tokens)
        if not limit:
            if pos.supply[c] != -1:
                raise _fail("supply", "the supply is unlimited (treasure_supply 0)")
            continue
        want = 0 if c == pos.removed_colour else limit
        if pos.supply[c] < 0 or pos.supply[c] + held != want:
            raise _fail(f"supply.{COLOUR_LETTERS[c]}", f"{pos.supply[c]} in the supply and {held} held; the game has "
                                                       f"{want} {COLOUR_LETTERS[c]} tokens (§1, §3.2, VD-8)")
    if phase in (PHASE_SETUP, PHASE_PLACE):
        if any(pos.coins_on) or pos.coins_sunk or any(any(t) for t in pos.tokens) or \
                any(g != GONDOLAS_EACH for g in pos.gondolas):
            raise _fail("seats", "coins paid, tokens bought or gondolas used before the first turn")


# --- JSON out ------------------------------------------------------------------------------------

def _cell(pos: Position, s: int) -> str | None:
    t = pos.tiles[s]
    if t < 0:
        return None
    if t == PLATFORM:
        return PLATFORM_CELL
    return (WATER_MARK if pos.water[s] else "") + rules.district_text(t)


def _figure_text(pos: Position, x: int) -> str | None:
    if x >= 0:
        return rules.square_name(x, pos.n)
    return {UNPLACED: None, LOST: "lost", IN_WATER: "water"}[x]


def check_land(pos: Position, land: Any) -> list[bool]:
    """`final_breakdown`'s `land`: a list or tuple of n*n bools, True only on squares that are unsunk
    districts now (a square can only stop counting).

    Raises:
        TypeError: not a list or tuple of bools; OptionError: the wrong length, or True on a square that
            is no unsunk district.
    """
    check_instance(land, (list, tuple), "land (one bool per square)")
    squares = len(pos.tiles)
    if len(land) != squares:
        raise OptionError(f"land: {len(land)} values for the {squares} squares")
    for s, alive in enumerate(land):
        if type(alive) is not bool:
            raise TypeError(f"land[{s}] must be a bool, not {type(alive).__name__}")
        if alive and not pos.is_land(s):
            raise OptionError(f"land[{s}] is True, but square {s} is no unsunk district")
    return list(land)


def position_to_dict(pos: Position, seat: int | None = None) -> dict[str, Any]:
    """The position as a JSON-ready dict: full (`seat` None) or seat `seat`'s view (other hands and the
    set-aside pile hidden, §9)."""
    opts, N = pos.options, pos.n
    ct = lambda k: rules.card_text(k, opts)  # noqa: E731
    seats = []
    for p in range(pos.num_players):
        seats.append({
            "coins": pos.coins[p],
            "tokens": {COLOUR_LETTERS[c]: pos.tokens[p][c] for c in range(NUM_COLOURS)},
            "gondolas": pos.gondolas[p],
            "hand_size": len(pos.hands[p]),
            "hand": [ct(k) for k in pos.hands[p]] if seat is None or seat == p else None,
            "figures": [_figure_text(pos, x) for x in pos.figures[p]],
        })
    to_move = pos.to_move()
    return {
        "format": FORMAT,
        "view": None if seat is None else SEAT_LETTERS[seat],
        "players": pos.num_players,
        "options": opts.to_dict(),
        "phase": PHASE_NAMES[pos.phase],
        "turn": pos.turn(),
        "to_move": None if to_move < 0 else SEAT_LETTERS[to_move],
        "removed_colour": None if pos.removed_colour < 0 else COLOUR_LETTERS[pos.removed_colour],
        "board": [[_cell(pos, r * N + c) for c in range(N)] for r in range(N)],
        "coins_on": {rules.square_name(s, N): x for s, x in enumerate(pos.coins_on) if x},
        "coins_sunk": pos.coins_sunk,
        "supply": None if not opts.treasure_supply else {COLOUR_LETTERS[c]: pos.supply[c] for c in range(NUM_COLOURS)},
        "moved": [MOVED_NAMES[i] for i in range(2) if pos.moved >> i & 1],
        "played": [[SEAT_LETTERS[p], ct(k)] for p, k in pos.played],
        "set_aside": [ct(k) for k in pos.set_aside()] if seat is None else None,
        "seats": seats,
    }


def position_to_json(pos: Position, seat: int | None = None, indent: int | None = None) -> str:
    return json.dumps(position_to_dict(pos, seat), indent=indent)


# --- JSON in -------------------------------------------------------------------------------------

def _district(text: object, field: str) -> int:
    if isinstance(text, str) and len(text) == 2 and text[0] in COLOUR_LETTERS and text[1] in VALUE_TEXTS:
        return rules.district(COLOUR_LETTERS.index(text[0]), VALUE_TEXTS.index(text[1]))
    raise _fail(field, f"expected a district like 'K5' (colours {''.join(COLOUR_LETTERS)}, values "
                       f"{''.join(VALUE_TEXTS)}), got {text!r:.40}")


def _card(text: object, field: str, opts: Options) -> int:
    d = _district(text, field)
    k = rules.card_of_district(d, opts)
    if k < 0:
        raise _fail(field, f"there is no forecast card {text} (forecast_values {opts.forecast_values}, VD-1)")
    return k


def _square(text: object, field: str, N: int) -> int:
    if isinstance(text, str) and len(text) == 2 and text[0] in "abcdefgh"[:N] and text[1] in "12345678"[:N]:
        return (int(text[1]) - 1) * N + "abcdefgh".index(text[0])
    raise _fail(field, f"expected a square a1..{'abcdefgh'[N - 1]}{N}, got {text!r:.40}")


def _cards(value: object, field: str, opts: Options, most: int) -> list[int]:
    if not isinstance(value, list) or len(value) > most:
        raise _fail(field, f"expected a list of at most {most} cards, got {value!r:.60}")
    return sorted(_card(x, f"{field}[{i}]", opts) for i, x in enumerate(value))


def position_from_json(text: object, expect: tuple | None = None) -> tuple[Position, int]:
    """Parse and validate a position JSON text (full or one seat's view); return (Position, view seat or -1).

    Args:
        expect: (players, options) the position must have (a Game's), or None.

    Raises:
        TypeError: `text` is not a str. PositionError: not JSON, too long, or a wrong field (named).
    """
    return position_from_dict(parse_position_json(text, MAX_JSON_CHARS), expect)


def position_from_dict(root: object, expect: tuple | None = None) -> tuple[Position, int]:
    """Build a validated `Position` from a position dict (see `position_from_json`)."""
    d = POSITION.head(root, FORMAT, TOP_FIELDS)
    n = _int(d["players"], "players", MIN_PLAYERS, MAX_PLAYERS)
    try:
        opts = rules.check_options(d["options"], "option")
    except OptionError as e:
        raise PositionError(f"position.options: {e}") from None
    POSITION.same_config(("players", "options"), (n, opts), expect, {"options": "other rule options"})
    view = _seat(d["view"], "view", n, allow_none=True)
    pos = Position(n, opts)
    N = pos.n
    if d["phase"] not in PHASE_NAMES:
        raise _fail("phase", f"expected one of {', '.join(PHASE_NAMES)}, got {d['phase']!r:.40}")
    pos.phase = PHASE_NAMES.index(d["phase"])
    rc = d["removed_colour"]
    if rc is not None:
        if not (isinstance(rc, str) and rc in COLOUR_LETTERS):
            raise _fail("removed_colour", f"expected null or a colour letter {' '.join(COLOUR_LETTERS)}, got {rc!r:.40}")
        pos.removed_colour = COLOUR_LETTERS.index(rc)
    board = d["board"]
    if not isinstance(board, list) or len(board) != N or any(not isinstance(r, list) or len(r) != N for r in board):
        raise _fail("board", f"expected {N} rows of {N} cells for {n} players (§2), got {str(board):.60}")
    for r in range(N):
        for c in range(N):
            s, cell = r * N + c, board[r][c]
            field = f"board.{rules.square_name(s, N)}"
            if cell is None:
                continue
            if cell == PLATFORM_CELL:
                pos.tiles[s] = PLATFORM
            elif isinstance(cell, str) and cell.startswith(WATER_MARK):
                pos.tiles[s] = _district(cell[1:], field)
                pos.water[s] = True
            else:
                pos.tiles[s] = _district(cell, field)
    coins_on = d["coins_on"]
    if not isinstance(coins_on, dict):
        raise _fail("coins_on", f"expected an object square -> coins, got {coins_on!r:.40}")
    for sq, x in coins_on.items():
        s = _square(sq, f"coins_on.{str(sq)[:8]}", N)
        pos.coins_on[s] = _int(x, f"coins_on.{sq}", 1, 10_000)
    pos.coins_sunk = _int(d["coins_sunk"], "coins_sunk", 0, 10_000)
    supply = d["supply"]
    if opts.treasure_supply:
        if not isinstance(supply, dict) or sorted(supply) != sorted(COLOUR_LETTERS):
            raise _fail("supply", f"expected a count for each colour {' '.join(COLOUR_LETTERS)}, got {supply!r:.60}")
        pos.supply = [_int(supply[x], f"supply.{x}", 0, opts.treasure_supply) for x in COLOUR_LETTERS]
    elif supply is not None:
        raise _fail("supply", "expected null: the supply is unlimited (treasure_supply 0)")
    moved = d["moved"]
    if not isinstance(moved, list) or any(x not in MOVED_NAMES for x in moved) or len(set(moved)) != len(moved):
        raise _fail("moved", f"expected a list of 'move' and 'gondola' (the steps made this turn), got {moved!r:.40}")
    pos.moved = sum(1 << MOVED_NAMES.index(x) for x in moved)
    played = d["played"]
    if not isinstance(played, list) or len(played) > pos.dealt_total():
        raise _fail("played", f"expected a list of at most {pos.dealt_total()} [seat, card] pairs, got {played!r:.60}")
    for i, entry in enumerate(played):
        if not isinstance(entry, list) or len(entry) != 2:
            raise _fail(f"played[{i}]", f"expected [seat letter, card], got {entry!r:.40}")
        pos.played.append((_seat(entry[0], f"played[{i}][0]", n), _card(entry[1], f"played[{i}][1]", opts)))
    hidden: list[int] = []
    for p, (field, entry) in enumerate(POSITION.seats(d["seats"], n, SEAT_FIELDS)):
        pos.coins[p] = _int(entry["coins"], f"{field}.coins", 0, 10_000)
        tokens = entry["tokens"]
        if not isinstance(tokens, dict) or sorted(tokens) != sorted(COLOUR_LETTERS):
            raise _fail(f"{field}.tokens", f"expected a count for each colour {' '.join(COLOUR_LETTERS)}, "
                                           f"got {tokens!r:.60}")
        pos.tokens[p] = [_int(tokens[x], f"{field}.tokens.{x}", 0, 10_000) for x in COLOUR_LETTERS]
        pos.gondolas[p] = _int(entry["gondolas"], f"{field}.gondolas", 0, GONDOLAS_EACH)
        size = _int(entry["hand_size"], f"{field}.hand_size", 0, pos.cards_each)
        if entry["hand"] is None:
            if view < 0 or view == p:
                raise _fail(f"{field}.hand", "only another seat's hand is hidden (null), in a one-seat view")
            hidden.append(p)
            pos.hands[p] = [-1] * size
        else:
            if view >= 0 and view != p:
                raise _fail(f"{field}.hand", f"seat {SEAT_LETTERS[view]}'s view cannot see seat "
                                             f"{SEAT_LETTERS[p]}'s hand: write null")
            pos.hands[p] = _cards(entry["hand"], f"{field}.hand", opts, pos.cards_each)
            if len(pos.hands[p]) != size:
                raise _fail(f"{field}.hand_size", f"{size}, but the hand holds {len(pos.hands[p])} cards")
        figs = entry["figures"]
        if not isinstance(figs, list) or len(figs) != pos.figures_each:
            raise _fail(f"{field}.figures", f"expected {pos.figures_each} figure slots for {n} players (§3.3), "
                                            f"got {figs!r:.60}")
        for f, x in enumerate(figs):
            ff = f"{field}.figures[{f}]"
            if x is None:
                pos.figures[p][f] = UNPLACED
            elif x == "lost":
                pos.figures[p][f] = LOST
            elif x == "water":
                pos.figures[p][f] = IN_WATER
            else:
                pos.figures[p][f] = _square(x, ff, N)
    # the set-aside pile: checked in a full position, hidden in a view
    set_aside = d["set_aside"]
    if view >= 0:
        if set_aside is not None:
            raise _fail("set_aside", "nobody sees the set-aside cards (§9): write null in a seat's view")
        _fill_hidden(pos, view, hidden)
    else:
        listed = _cards(set_aside, "set_aside", opts, 64)
        if n == 2 and pos.removed_colour < 0:
            if listed:
                raise _fail("set_aside", "no deck before the 2-player colour is drawn")
        elif listed != pos.set_aside():
            raise _fail("set_aside", "must list exactly the cards in no hand and not played")
    validate(pos)
    turn = _int(d["turn"], "turn", 0, 1_000)
    if turn != pos.turn():
        raise _fail("turn", f"{turn}, but {len(pos.played)} cards played make it {pos.turn()}")
    if _seat(d["to_move"], "to_move", n, allow_none=True) != pos.to_move():
        want = pos.to_move()
        raise _fail("to_move", f"expected {'null' if want < 0 else repr(SEAT_LETTERS[want])} in this phase")
    return pos, view


def _fill_hidden(pos: Position, view: int, hidden: list[int]) -> None:
    """A one-seat view's hidden hands, filled with a consistent deal (the lowest eligible cards)."""
    hidden = [p for p in hidden if pos.hands[p]]
    if not hidden:
        return
    known = set(pos.hands[view]) | {k for _, k in pos.played}
    if pos.num_players == 2 and pos.removed_colour < 0:
        raise _fail("seats", "cards in hands before the 2-player colour is drawn")
    unseen = [k for k in pos.deck() if k not in known]
    opponents = [(p, len(pos.hands[p]), pos.bound(p)) for p in hidden]
    try:
        hands = rules.resample_hands(unseen, opponents, pos.options, None)
    except AssertionError:
        raise _fail("seats", "the hidden hands cannot be dealt from the unseen cards under the lowest-card "
                             "rule (§10.3)") from None
    for p, h in hands.items():
        pos.hands[p] = h


__all__ = ["FORMAT", "Position", "position_from_dict", "position_from_json", "position_to_dict",
           "position_to_json", "validate"]
