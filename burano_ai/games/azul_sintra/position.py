"""An Azul: Stained Glass of Sintra position's fields, their invariants, and the `azul-sintra-position/1` JSON.

The fields are spec §11.3's: counts, never a bag order (§11.1 design rule: the future draws are chance,
not state). A one-seat view equals the full position apart from its `view` field: the game has perfect
information, and the bag and tower contents are deducible public counts (§11.1).

`validate` is the one list of invariants: a loaded position that breaks one is refused with a
`PositionError` naming the field (`position.seats[1].columns[4].pieces: ...`), and `Position.check()`
raises the same message as an AssertionError (the random-game invariant test calls it at every ply).
"""

from __future__ import annotations

import json
from typing import Any

from burano_ai.core.arguments import check_instance, value_text
from burano_ai.core.errors import OptionError
from burano_ai.core.fields import POSITION, assert_valid, parse_position_json, position_data
from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.games.azul_sintra import rules
from burano_ai.games.azul_sintra.data import (
    COLUMNS, FACTORIES, JOKER_CELLS, MAX_PLAYERS, MIN_PLAYERS, NUM_COLOURS, PIECES_PER_COLOUR,
    PIECES_PER_FACTORY, ROUNDS, STRIP_CELLS, TRACK_SPACES, ComponentData, data_from_dict, default_data,
    load_data,
)
from burano_ai.games.azul_sintra.rules import (
    DEFAULT_FLAGS, FLAG_NAMES, PHASE_DRAFT, PHASE_KEEP, PHASE_NAMES, PHASE_OVER, PHASE_REFILL, PHASE_SETUP, SIDES, Flags,
)

FORMAT = "azul-sintra-position/1"
TOP_FIELDS = ("format", "view", "players", "side", "first_player", "data", "phase", "round", "turn", "to_move",
              "starter", "token", "indicator", "bag", "tower", "factories", "centre", "keep", "seats")
#: Optional top-level fields: `options` (the spec's optional rules, `rules.Flags`) appears only when one
#: differs from its default, so a game of the spec's rules writes exactly the fields above.
OPTIONAL_FIELDS = ("options",)
SEAT_FIELDS = ("score", "track", "hits", "glazier", "columns")
COLUMN_FIELDS = ("strip", "face", "pieces", "jokers", "window")
MAX_JSON_CHARS = 200_000
#: The track position never rests on the bottom space (§6).
TRACK_LAST = TRACK_SPACES - 2


def make_flags(**flags: object) -> Flags:
    """The `rules.Flags` of keyword values (each a bool).

    Raises:
        OptionError: a value is not a bool (named).
    """
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise OptionError(f"azul-sintra {name} must be true or false, not {value_text(value)}")
    return Flags(**flags)  # type: ignore[arg-type]


def check_config(num_players: object, side: object, first_player: object,
                 flags: Flags = DEFAULT_FLAGS) -> tuple[int, str, int]:
    """The validated game parameters.

    Raises:
        OptionError: a parameter out of range (named).
    """
    if isinstance(num_players, bool) or not isinstance(num_players, int) or \
            not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
        raise OptionError(f"azul-sintra players must be an int in {MIN_PLAYERS}..{MAX_PLAYERS}, "
                          f"not {value_text(num_players)}")
    if side not in SIDES:
        raise OptionError(f"azul-sintra side must be 'A' or 'B', not {value_text(side)}")
    if isinstance(first_player, bool) or not isinstance(first_player, int) or not 0 <= first_player < num_players:
        raise OptionError(f"azul-sintra first_player must be a seat 0..{num_players - 1}, "
                          f"not {value_text(first_player)}")
    if flags.auto_keep and side != "A":
        raise OptionError("azul-sintra auto_keep is a side-A option: on side B the kept colour scores (§8, RU:178)")
    if flags.random_first_player and first_player != 0:
        raise OptionError("azul-sintra random_first_player draws the first player: leave first_player at 0 (AD-17)")
    return num_players, side, first_player  # type: ignore[return-value]


class PlayerBoard:
    """One player's palace board, glazier and markers (§11.3).

    Attributes:
        score: points so far (signed, AD-16); final scoring is added at the end of the game.
        track: the broken-glass marker's space 0..7 (never the bottom one, §6); hits: -18s taken.
        glazier: the glazier's column 0..7.
        strips[k]: the strip id above column k (0..7), -1 before setup lays it.
        faces[k]: its face up (0 = a, 1 = b), -1 before setup turns it.
        filled[k][c]: pieces on the coloured cells of colour c; jokers[k][c]: pieces of colour c on jokers.
        top[k], bottom[k]: the window's cells, a colour or -1. bottom filled <=> the strip was removed.
    """

    def __init__(self) -> None:
        self.score = 0
        self.track = 0
        self.hits = 0
        self.glazier = 0
        self.strips = [-1] * COLUMNS
        self.faces = [-1] * COLUMNS
        self.filled = [[0] * NUM_COLOURS for _ in range(COLUMNS)]
        self.jokers = [[0] * NUM_COLOURS for _ in range(COLUMNS)]
        self.top = [-1] * COLUMNS
        self.bottom = [-1] * COLUMNS

    def copy(self) -> PlayerBoard:
        out = PlayerBoard.__new__(PlayerBoard)
        out.score, out.track, out.hits, out.glazier = self.score, self.track, self.hits, self.glazier
        out.strips, out.faces = list(self.strips), list(self.faces)
        out.filled = [list(f) for f in self.filled]
        out.jokers = [list(j) for j in self.jokers]
        out.top, out.bottom = list(self.top), list(self.bottom)
        return out

    def present(self, k: int) -> bool:
        """Column k holds a strip (laid at setup, not yet removed after its second completion)."""
        return self.strips[k] >= 0 and self.bottom[k] < 0

    def strip_pieces(self, k: int) -> int:
        return sum(self.filled[k]) + sum(self.jokers[k])


class Position:
    """The fields of one position (see the module docstring; colours and columns 0-based).

    Attributes:
        phase: rules.PHASE_*; round: 0..5; turn: turns completed in the game (not part of the key).
        to_move: the seat deciding (draft or keep), else -1. starter: the seat that began the round
        (put the token in the centre); token: -1 while the token lies in the centre, else its holder.
        indicator[i]: the colour of round i+1's indicator piece, -1 before setup places it; the pieces
        of rounds before `round` have left the board (at the end: all of them).
        bag, tower, centre: counts per colour; factories[f]: counts per colour (F factories).
        keep_column: the column whose completed strip's pieces wait for KEEP (-1 outside it);
        keep_pieces: those 5 pieces' counts per colour.
        boards: one `PlayerBoard` per seat.
    """

    def __init__(self, num_players: int = 2, side: str = "A", first_player: int = 0,
                 data: ComponentData | None = None, flags: Flags = DEFAULT_FLAGS) -> None:
        check_config(num_players, side, first_player, flags)
        self.num_players = num_players
        self.side = side
        self.first_player = first_player
        self.data = data if data is not None else default_data()
        self.flags = flags
        self.num_factories = FACTORIES[num_players]
        self.phase = PHASE_SETUP
        self.round = 0
        self.turn = 0
        self.to_move = -1
        self.starter = -1 if flags.random_first_player else first_player   # AD-17: drawn first at setup
        self.token = -1
        self.indicator = [-1] * ROUNDS
        self.bag = [PIECES_PER_COLOUR] * NUM_COLOURS
        self.tower = [0] * NUM_COLOURS
        self.factories = [[0] * NUM_COLOURS for _ in range(self.num_factories)]
        self.centre = [0] * NUM_COLOURS
        self.keep_column = -1
        self.keep_pieces = [0] * NUM_COLOURS
        self.boards = [PlayerBoard() for _ in range(num_players)]

    def copy_fields_from(self, other: Position) -> None:
        check_instance(other, Position, "an Azul: Stained Glass of Sintra position")
        self.num_players, self.side, self.first_player = other.num_players, other.side, other.first_player
        self.data, self.num_factories, self.flags = other.data, other.num_factories, other.flags
        self.phase, self.round, self.turn = other.phase, other.round, other.turn
        self.to_move, self.starter, self.token = other.to_move, other.starter, other.token
        self.indicator = list(other.indicator)
        self.bag, self.tower, self.centre = list(other.bag), list(other.tower), list(other.centre)
        self.factories = [list(f) for f in other.factories]
        self.keep_column, self.keep_pieces = other.keep_column, list(other.keep_pieces)
        self.boards = [b.copy() for b in other.boards]

    def config(self) -> tuple:
        """(num_players, side, first_player, data, flags): the arguments of a Game."""
        return self.num_players, self.side, self.first_player, self.data, self.flags

    # --- where setup stands (derived: setup lays strips seat by seat, column by column, then the indicator)

    def setup_cursor(self) -> tuple[int, int, int] | None:
        """(chance kind, seat or slot, column) of the pending setup step; None outside the setup phase."""
        if self.phase != PHASE_SETUP:
            return None
        if self.starter < 0:                       # AD-17 flag: the first player is drawn before all else
            return rules.CHANCE_FIRST, 0, 0
        for p, b in enumerate(self.boards):
            for k in range(COLUMNS):
                if b.strips[k] < 0:
                    return rules.CHANCE_STRIP, p, k
                if b.faces[k] < 0:
                    return rules.CHANCE_FACE, p, k
        for slot in rules.INDICATOR_ORDER:
            if self.indicator[slot] < 0:
                return rules.CHANCE_INDICATOR, slot, 0
        raise AssertionError("setup is complete but the phase is still setup")

    def indicator_on_board(self) -> list[int]:
        """The colours of the indicator pieces still on the board."""
        if self.phase == PHASE_OVER:
            return []
        return [c for i, c in enumerate(self.indicator) if i >= self.round and c >= 0]

    def removed_indicator(self) -> list[int]:
        """The colours of the used indicator pieces that left the game (only when `indicator_to_tower` is off, AD-9)."""
        if self.flags.indicator_to_tower or self.phase == PHASE_SETUP:
            return []
        used = ROUNDS if self.phase == PHASE_OVER else self.round
        return [self.indicator[i] for i in range(used)]

    def piece_counts(self) -> list[int]:
        """Pieces of each colour anywhere (all 20 each, §11.3: every component conserved), those that left
        the game with the indicator included."""
        total = [self.bag[c] + self.tower[c] + self.centre[c] + self.keep_pieces[c] for c in range(NUM_COLOURS)]
        for c in self.removed_indicator():
            total[c] += 1
        for f in self.factories:
            for c in range(NUM_COLOURS):
                total[c] += f[c]
        for c in self.indicator_on_board():
            total[c] += 1
        for b in self.boards:
            for k in range(COLUMNS):
                for c in range(NUM_COLOURS):
                    total[c] += b.filled[k][c] + b.jokers[k][c]
                for cell in (b.top[k], b.bottom[k]):
                    if cell >= 0:
                        total[cell] += 1
        return total

    def check(self) -> None:
        """Raise AssertionError naming the first broken invariant (the messages of `validate`)."""
        assert_valid(validate, self)


# --- invariants ----------------------------------------------------------------------------------

_fail, _int, _seat, _keys = POSITION.fail, POSITION.int, POSITION.seat, POSITION.keys


def validate(pos: Position) -> None:
    """Every invariant of a position (spec §11.3), in one place.

    Raises:
        PositionError: the first broken one, naming its field.
    """
    d = pos.data
    n, F = pos.num_players, pos.num_factories
    phase = pos.phase
    letters = d.letters
    if not 0 <= pos.round < ROUNDS:
        raise _fail("round", f"{pos.round + 1} is not a round 1..{ROUNDS}")
    playing = phase in (PHASE_DRAFT, PHASE_KEEP)
    if playing != (pos.to_move >= 0):
        raise _fail("to_move", "a seat moves exactly in the draft and keep phases")
    if (phase == PHASE_KEEP) != (pos.keep_column >= 0):
        raise _fail("keep", "pieces wait for a keep choice exactly in the keep phase")
    if pos.keep_column >= 0:
        if sum(pos.keep_pieces) != STRIP_CELLS:
            raise _fail("keep.pieces", f"{sum(pos.keep_pieces)} pieces; a completed strip holds {STRIP_CELLS}")
        b = pos.boards[pos.to_move]
        k = pos.keep_column
        if not b.present(k) or b.strip_pieces(k) or b.glazier != k:
            raise _fail("keep.column", f"column {k + 1} of seat {SEAT_LETTERS[pos.to_move]} must hold its "
                                       "emptied strip under the glazier")
    elif any(pos.keep_pieces):
        raise _fail("keep", "pieces waiting outside the keep phase")
    if not playing and pos.token >= 0:
        raise _fail("token", "the token is in the centre outside the draft and keep phases")
    if phase in (PHASE_SETUP, PHASE_REFILL) and any(pos.centre):
        raise _fail("centre", f"pieces in the centre during {PHASE_NAMES[phase]}")
    if phase == PHASE_OVER and (any(pos.centre) or any(any(f) for f in pos.factories)):
        raise _fail("factories", "pieces left on the table at the end of the game")
    if phase == PHASE_OVER and pos.round != ROUNDS - 1:
        raise _fail("round", f"the game ends after round {ROUNDS}")
    setup_done = phase != PHASE_SETUP
    if setup_done and -1 in pos.indicator:
        raise _fail("indicator", "a round without its indicator piece after setup")
    if phase == PHASE_SETUP:
        if pos.round or pos.turn or any(pos.tower) or any(any(f) for f in pos.factories):
            raise _fail("phase", "setup: round 1, no turn taken, no piece drawn to a factory or the tower")
        kind, _, _ = pos.setup_cursor()
        on = [pos.indicator[s] for s in rules.INDICATOR_ORDER if pos.indicator[s] >= 0]
        if len(set(on[:5])) != len(on[:5]):
            raise _fail("indicator", "rounds II-VI show 5 different colours (§3 step 8)")
        if on and kind != rules.CHANCE_INDICATOR:
            raise _fail("indicator", "setup places the indicator after every strip")
        expected = list(rules.INDICATOR_ORDER[:len(on)])
        if [s for s in rules.INDICATOR_ORDER if pos.indicator[s] >= 0] != expected:
            raise _fail("indicator", "setup fills rounds II, III, IV, V, VI, then I")
    elif len(set(pos.indicator[1:])) != ROUNDS - 1:
        raise _fail("indicator", "rounds II-VI show 5 different colours (§3 step 8)")
    if phase == PHASE_REFILL:
        total = [sum(f) for f in pos.factories]
        full = sum(total) // PIECES_PER_FACTORY
        want = [PIECES_PER_FACTORY] * full + ([sum(total) % PIECES_PER_FACTORY] if full < F else []) \
            + [0] * (F - full - 1)
        if total != want[:F]:
            raise _fail("factories", "a refill fills the factories in order, 4 pieces each (AD-15)")
        if sum(pos.bag) == 0:
            raise _fail("bag", "an empty bag during a refill (the tower is poured in, or the refill ends)")
    if playing:
        if any(sum(f) > PIECES_PER_FACTORY for f in pos.factories):
            raise _fail("factories", f"a factory holds more than {PIECES_PER_FACTORY} pieces")
        if phase == PHASE_DRAFT and not any(pos.centre) and not any(any(f) for f in pos.factories):
            raise _fail("factories", "no piece on the table during a draft: the round has ended")
    for name, counts in (("bag", pos.bag), ("tower", pos.tower), ("centre", pos.centre)):
        if any(x < 0 for x in counts):
            raise _fail(name, "a negative count")
    for p, b in enumerate(pos.boards):
        seat = f"seats[{p}]"
        if not 0 <= b.track <= TRACK_LAST:
            raise _fail(f"{seat}.track", f"{b.track} is not a space 0..{TRACK_LAST} (the bottom one sends the "
                                         "marker back to the top, §6)")
        if b.hits < 0:
            raise _fail(f"{seat}.hits", "negative")
        if not 0 <= b.glazier < COLUMNS:
            raise _fail(f"{seat}.glazier", f"not a column 1..{COLUMNS}")
        laid = [s for s in b.strips if s >= 0]
        if len(set(laid)) != len(laid):
            raise _fail(f"{seat}.columns", "a strip lies above two columns")
        if setup_done and len(laid) != COLUMNS:
            raise _fail(f"{seat}.columns", "a column without its strip after setup")
        if setup_done and b.glazier != 0 and b.strips[0] < 0:
            raise _fail(f"{seat}.glazier", "setup puts the glazier above column 1")
        for k in range(COLUMNS):
            col = f"{seat}.columns[{k}]"
            s, f = b.strips[k], b.faces[k]
            if s < 0 and (f >= 0 or b.strip_pieces(k) or b.top[k] >= 0 or b.bottom[k] >= 0):
                raise _fail(col, "a column without a strip holds a face, pieces or window pieces")
            if s < 0:
                continue
            if b.bottom[k] >= 0 and b.top[k] < 0:
                raise _fail(f"{col}.window", "the bottom cell filled before the top one (§5.3 3b)")
            if f < 0:
                if b.strip_pieces(k) or setup_done:
                    raise _fail(f"{col}.face", "a strip without a face up")
                continue
            if phase == PHASE_SETUP and s == d.joker_strip and f == d.joker_face:
                raise _fail(f"{col}.face", "the joker face starts face down (§3 step 4, RU:48)")
            if any(x < 0 for x in b.filled[k]) or any(x < 0 for x in b.jokers[k]):
                raise _fail(f"{col}.pieces", "a negative count")
            if b.bottom[k] >= 0:
                if b.strip_pieces(k):
                    raise _fail(f"{col}.pieces", "pieces on a strip that went back to the box")
                continue
            face = d.face_counts[s][f]
            for c in range(NUM_COLOURS):
                if b.filled[k][c] > face[c]:
                    raise _fail(f"{col}.pieces", f"{b.filled[k][c]} {letters[c]} on a face with {face[c]} {letters[c]} cells")
            if sum(b.jokers[k]) > face[NUM_COLOURS]:
                raise _fail(f"{col}.jokers", f"{sum(b.jokers[k])} pieces on {face[NUM_COLOURS]} joker cells")
            for c in range(NUM_COLOURS):
                if b.jokers[k][c] and b.filled[k][c] < face[c] and not pos.flags.joker_choice:
                    raise _fail(f"{col}.jokers", f"a {letters[c]} piece on a joker while a {letters[c]} cell is "
                                                 "free (coloured cells first, AD-13)")
            if b.strip_pieces(k) >= STRIP_CELLS:
                raise _fail(f"{col}.pieces", "a full strip at a turn's end (it completes at once, §5.3)")
        if JOKER_CELLS and any(sum(b.jokers[k]) for k in range(COLUMNS) if b.faces[k] >= 0 and b.strips[k] >= 0
                               and d.face_counts[b.strips[k]][b.faces[k]][NUM_COLOURS] == 0):
            raise _fail(f"{seat}.columns", "pieces on jokers of a face without jokers")
    if playing:
        if not 0 <= pos.to_move < n:
            raise _fail("to_move", "not a seat")
    if pos.starter < 0:
        if not (pos.flags.random_first_player and phase == PHASE_SETUP and all(s < 0 for s in pos.boards[0].strips)):
            raise _fail("starter", "no first player: only before setup draws it (random_first_player, AD-17)")
    elif not 0 <= pos.starter < n:
        raise _fail("starter", "not a seat")
    if phase == PHASE_KEEP and pos.flags.auto_keep:
        raise _fail("phase", "a keep choice with auto_keep on (the keep is resolved at once)")
    counts = pos.piece_counts()
    for c in range(NUM_COLOURS):
        if counts[c] != PIECES_PER_COLOUR:
            raise _fail("bag", f"{counts[c]} {d.colour_names[c]} pieces in the game; there are "
                               f"{PIECES_PER_COLOUR} of each colour (§1)")


# --- JSON out ------------------------------------------------------------------------------------

def _letters(counts: list[int], letters: tuple[str, ...]) -> str:
    return "".join(letters[c] * counts[c] for c in range(NUM_COLOURS))


def position_to_dict(pos: Position, seat: int | None = None) -> dict[str, Any]:
    """The position as a JSON-ready dict: full (`seat` None) or seat `seat`'s view, which is the same
    apart from `view` (perfect information, §11.1)."""
    L = pos.data.letters
    seats = []
    for b in pos.boards:
        columns = []
        for k in range(COLUMNS):
            columns.append({
                "strip": None if b.strips[k] < 0 else b.strips[k] + 1,
                "face": None if b.faces[k] < 0 else "ab"[b.faces[k]],
                "pieces": _letters(b.filled[k], L),
                "jokers": _letters(b.jokers[k], L),
                "window": [None if b.top[k] < 0 else L[b.top[k]], None if b.bottom[k] < 0 else L[b.bottom[k]]],
            })
        seats.append({"score": b.score, "track": b.track, "hits": b.hits, "glazier": b.glazier + 1,
                      "columns": columns})
    out = {
        "format": FORMAT,
        "view": None if seat is None else SEAT_LETTERS[seat],
        "players": pos.num_players,
        "side": pos.side,
        "first_player": SEAT_LETTERS[pos.first_player],
        "data": None if pos.data.is_default else pos.data.to_dict(),
        "phase": PHASE_NAMES[pos.phase],
        "round": pos.round + 1,
        "turn": pos.turn,
        "to_move": None if pos.to_move < 0 else SEAT_LETTERS[pos.to_move],
        "starter": None if pos.starter < 0 else SEAT_LETTERS[pos.starter],
        "token": "centre" if pos.token < 0 else SEAT_LETTERS[pos.token],
        "indicator": [None if c < 0 else L[c] for c in pos.indicator],
        "bag": {L[c]: pos.bag[c] for c in range(NUM_COLOURS)},
        "tower": {L[c]: pos.tower[c] for c in range(NUM_COLOURS)},
        "factories": [_letters(f, L) for f in pos.factories],
        "centre": _letters(pos.centre, L),
        "keep": None if pos.keep_column < 0 else {"column": pos.keep_column + 1,
                                                   "pieces": _letters(pos.keep_pieces, L)},
        "seats": seats,
    }
    if not pos.flags.is_default:
        out["options"] = pos.flags.to_dict()
    return out


def position_to_json(pos: Position, seat: int | None = None, indent: int | None = None) -> str:
    return json.dumps(position_to_dict(pos, seat), indent=indent)


# --- JSON in -------------------------------------------------------------------------------------

def _counts_of_letters(value: object, field: str, letters: tuple[str, ...], most: int) -> list[int]:
    if not isinstance(value, str) or len(value) > most:
        raise _fail(field, f"expected a text of at most {most} colour letters, got {value!r:.40}")
    bad = [ch for ch in value if ch not in letters]
    if bad:
        raise _fail(field, f"unknown colour {bad[0]!r} (colours: {' '.join(letters)})")
    return [value.count(x) for x in letters]


def _counts_dict(value: object, field: str, letters: tuple[str, ...]) -> list[int]:
    if not isinstance(value, dict) or sorted(value) != sorted(letters):
        raise _fail(field, f"expected an object with a count for each colour {', '.join(letters)}, got {value!r:.60}")
    return [_int(value[x], f"{field}.{x}", 0, PIECES_PER_COLOUR) for x in letters]


def _colour(value: object, field: str, letters: tuple[str, ...]) -> int:
    if value is None:
        return -1
    if isinstance(value, str) and value in letters:
        return letters.index(value)
    raise _fail(field, f"expected null or a colour letter {', '.join(letters)}, got {value!r:.40}")


def _flags(value: object) -> Flags:
    if not isinstance(value, dict):
        raise _fail("options", f"expected an object of the optional rules ({', '.join(FLAG_NAMES)}), got {value!r:.60}")
    _keys(value, "options", FLAG_NAMES)
    for name in FLAG_NAMES:
        if not isinstance(value[name], bool):
            raise _fail(f"options.{name}", f"expected true or false, got {value[name]!r:.40}")
    return Flags(**value)


def position_from_json(text: object, expect: tuple | None = None) -> Position:
    """Parse and validate a position JSON text (full or one seat's view); return the `Position`.

    Args:
        expect: (players, side, first_player, data, flags) the position must have (a Game's `config()`), or None.

    Raises:
        TypeError: `text` is not a str. PositionError: not JSON, too long, or a wrong field (named).
    """
    return position_from_dict(parse_position_json(text, MAX_JSON_CHARS), expect)


def position_from_dict(root: object, expect: tuple | None = None) -> Position:
    """Build a validated `Position` from a position dict (see `position_from_json`)."""
    d = POSITION.head(root, FORMAT, TOP_FIELDS + OPTIONAL_FIELDS, OPTIONAL_FIELDS)
    flags = _flags(root.get("options", DEFAULT_FLAGS.to_dict()))
    n = _int(d["players"], "players", MIN_PLAYERS, MAX_PLAYERS)
    side = d["side"]
    if side not in SIDES:
        raise _fail("side", f"expected 'A' or 'B', got {side!r:.40}")
    first = _seat(d["first_player"], "first_player", n)
    data = position_data(d["data"], default_data, data_from_dict)
    POSITION.same_config(("players", "side", "first_player", "data", "options"), (n, side, first, data, flags),
                         expect, {"data": "another data file"})
    L = data.letters
    view = _seat(d["view"], "view", n, allow_none=True)
    del view   # a view is the full position (perfect information); its letter is checked only
    try:
        pos = Position(n, side, first, data, flags)
    except OptionError as e:
        raise _fail("options", str(e).removeprefix("azul-sintra ")) from None
    if d["phase"] not in PHASE_NAMES:
        raise _fail("phase", f"expected one of {', '.join(PHASE_NAMES)}, got {d['phase']!r:.40}")
    pos.phase = PHASE_NAMES.index(d["phase"])
    pos.round = _int(d["round"], "round", 1, ROUNDS) - 1
    pos.turn = _int(d["turn"], "turn", 0, 10_000)
    pos.to_move = _seat(d["to_move"], "to_move", n, allow_none=True)
    pos.starter = _seat(d["starter"], "starter", n, allow_none=flags.random_first_player)
    token = d["token"]
    if token == "centre":
        pos.token = -1
    elif isinstance(token, str) and len(token) == 1 and token in SEAT_LETTERS[:n]:
        pos.token = SEAT_LETTERS.index(token)
    else:
        raise _fail("token", f"expected 'centre' or a seat letter {', '.join(SEAT_LETTERS[:n])}, got {token!r:.40}")
    ind = d["indicator"]
    if not isinstance(ind, list) or len(ind) != ROUNDS:
        raise _fail("indicator", f"expected {ROUNDS} colour letters or nulls (rounds I..VI), got {ind!r:.60}")
    pos.indicator = [_colour(x, f"indicator[{i}]", L) for i, x in enumerate(ind)]
    pos.bag = _counts_dict(d["bag"], "bag", L)
    pos.tower = _counts_dict(d["tower"], "tower", L)
    facs = d["factories"]
    if not isinstance(facs, list) or len(facs) != pos.num_factories:
        raise _fail("factories", f"expected {pos.num_factories} factories for {n} players (§3), got {facs!r:.60}")
    pos.factories = [_counts_of_letters(x, f"factories[{i}]", L, PIECES_PER_FACTORY) for i, x in enumerate(facs)]
    pos.centre = _counts_of_letters(d["centre"], "centre", L, 100)
    keep = d["keep"]
    if keep is not None:
        _keys(keep, "keep", ("column", "pieces"))
        pos.keep_column = _int(keep["column"], "keep.column", 1, COLUMNS) - 1
        pos.keep_pieces = _counts_of_letters(keep["pieces"], "keep.pieces", L, STRIP_CELLS)
    for p, (field, entry) in enumerate(POSITION.seats(d["seats"], n, SEAT_FIELDS)):
        b = pos.boards[p]
        score = entry["score"]
        if isinstance(score, bool) or not isinstance(score, int) or abs(score) > 100_000:
            raise _fail(f"{field}.score", f"expected an int, got {score!r:.40}")
        b.score = score
        b.track = _int(entry["track"], f"{field}.track", 0, TRACK_LAST)
        b.hits = _int(entry["hits"], f"{field}.hits", 0, 10_000)
        b.glazier = _int(entry["glazier"], f"{field}.glazier", 1, COLUMNS) - 1
        cols = entry["columns"]
        if not isinstance(cols, list) or len(cols) != COLUMNS:
            raise _fail(f"{field}.columns", f"expected {COLUMNS} columns, got {cols!r:.60}")
        for k, col in enumerate(cols):
            cf = f"{field}.columns[{k}]"
            _keys(col, cf, COLUMN_FIELDS)
            b.strips[k] = -1 if col["strip"] is None else _int(col["strip"], f"{cf}.strip", 1, COLUMNS) - 1
            face = col["face"]
            if face not in (None, "a", "b"):
                raise _fail(f"{cf}.face", f"expected null, 'a' or 'b', got {face!r:.40}")
            b.faces[k] = -1 if face is None else "ab".index(face)
            b.filled[k] = _counts_of_letters(col["pieces"], f"{cf}.pieces", L, STRIP_CELLS)
            b.jokers[k] = _counts_of_letters(col["jokers"], f"{cf}.jokers", L, STRIP_CELLS)
            win = col["window"]
            if not isinstance(win, list) or len(win) != 2:
                raise _fail(f"{cf}.window", f"expected [top, bottom], got {win!r:.40}")
            b.top[k] = _colour(win[0], f"{cf}.window[0]", L)
            b.bottom[k] = _colour(win[1], f"{cf}.window[1]", L)
    validate(pos)
    return pos


__all__ = ["FORMAT", "PlayerBoard", "Position", "check_config", "position_from_dict", "position_from_json",
           "position_to_dict", "position_to_json", "validate", "load_data"]
