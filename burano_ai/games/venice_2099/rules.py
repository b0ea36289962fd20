"""Venice 2099's vocabulary: rule options, phases, tiles and cards, squares, action ids and texts, Zobrist cells.

Spec: ../shared/rules/venice-2099.md (§n, decisions VD-n). Every number lives in `data/rules.json`.

Tiles and cards (§1 "Ids"). District `d = 8 * colour + vi` (vi = value index 0..7 for 2..8, X); the
platform tile is `PLATFORM` (48). Forecast card `k = 7 * colour + j`, j = 0..6: with the default
`forecast_values="3-8X"` [VD-1] card k names the district of value index j + 1 (3..8, X), so no card
names a "2"; with "2-8" it names value index j (2..8) and no card names an X.

Squares: `s = r * N + c` (N = 6 with 2 players, 8 otherwise, §2), written `a1`..`h8`: the letter is the
column c (a = 0), the number the row r + 1, row 1 at the top of the board as drawn.

Action encoding (§10.6; 689 distinct actions for every player count):

| ids      | action                | text            |
|----------|-----------------------|-----------------|
| 0..63    | PLACE(s)              | `place d4`      |
| 64..319  | MOVE(f, s) = 64 + 64f + s: figure slot f's normal move to s | `d4-f6` (from the figure's square) |
| 320..575 | GONDOLA(f, s) = 320 + 64f + s | `gondola d4-f6` |
| 576      | PASS_MOVE             | `no move`       |
| 577..580 | BUY(f) = 577 + f: buy at the district under figure f | `buy d4` |
| 581      | PASS_BUY              | `no buy`        |
| 582..623 | PLAY(k) = 582 + k     | `play K3`       |
| 624..687 | RESCUE(s) = 624 + s   | `rescue e5`     |
| 688      | DECLINE_RESCUE        | `no rescue`     |

`pass` is read as the pass of whichever step is pending (`no move`, `no buy`, `no rescue`). Chance
outcomes (§10.2) use 0..48: the 2-player colour removal `remove P` (colour 0..5), a tile laid on the
next square `K5@a1` / `platform@a1` (district id 0..47, 48 = platform), a card dealt `deal K3` (card id).

Zobrist keys: every field of a position is a cell `zobrist(kind, where, value)` (`Z_*` kinds), XORed
together, values included when zero or negative, so the compiled core keeps the key by XORing the old
and the new cell of each field it changes. The information-set key of seat i writes every card i
cannot see (another hand, the set-aside pile) as `Z_CARD(k, CARD_HIDDEN)` and adds `Z_VIEWER(0, i)`.

`resample` draws from `core.seeds.SplitMix64`, the compiled core's generator in Python, so that it draws
the same sample in both implementations; the sampler's exact order is `resample_hands`'s docstring.
"""

from __future__ import annotations

import functools
import re
from dataclasses import asdict, dataclass, fields

from burano_ai.core.arguments import check_action_id, value_text
from burano_ai.core.errors import IllegalMoveError, OptionError
from burano_ai.core.seeds import SplitMix64, mix64
from burano_ai.games.venice_2099.data import (
    CARDS_EACH, COLOUR_LETTERS, FIGURES_EACH, GRID, MAX_FIGURES, MAX_PLAYERS, MIN_PLAYERS, NUM_COLOURS,
    NUM_DISTRICTS, NUM_VALUES, PLATFORMS, TWO_PLAYER_REMOVED_VALUES, VALUE_TEXTS,
)

# --- rule options (§10.10) -----------------------------------------------------------------------

FORECAST_VALUES = ("3-8X", "2-8")


@dataclass(frozen=True)
class Options:
    """The rule flags of spec §10.10 (defaults = the spec's decisions).

    Attributes:
        forecast_values: "3-8X" [VD-1] (no card names a "2") or "2-8" (no card names an X).
        move_dirs: 8 [VD-2] or 4 (orthogonal normal moves only).
        diagonal_squeeze: True [VD-3]: a diagonal step between two blocked squares is allowed.
        gondola_move_is_step1: True [VD-4]: the gondola move replaces the normal move; False: it is
            an extra move (a turn may then hold one normal and one gondola move, in either order).
        rescue_to_platform: False [VD-5]: a rescue goes to a free district only; True: platforms too.
        placement_round_robin: True [VD-6]: one figure at a time, round robin; False: each seat places
            all its figures at once, seat A first.
        treasure_supply: 10 [VD-8] tokens per colour; 0 = unlimited.
        auto_apply_forced: False (§10.5); True: a decision with one legal action is applied at once.
    """

    forecast_values: str = "3-8X"
    move_dirs: int = 8
    diagonal_squeeze: bool = True
    gondola_move_is_step1: bool = True
    rescue_to_platform: bool = False
    placement_round_robin: bool = True
    treasure_supply: int = 10
    auto_apply_forced: bool = False

    def to_dict(self) -> dict[str, object]:
        return asdict(self)

    @property
    def card_offset(self) -> int:
        """Card k names value index k % 7 + card_offset (1 for "3-8X", 0 for "2-8")."""
        return 1 if self.forecast_values == "3-8X" else 0


OPTION_NAMES = tuple(f.name for f in fields(Options))
DEFAULT_OPTIONS = Options()
MAX_TREASURE_SUPPLY = 99


def check_options(values: object = None, what: str = "venice-2099 option") -> Options:
    """Validated `Options` from a mapping of flag -> value (missing flags take the default), or an Options.

    Raises:
        OptionError: an unknown flag or a wrong value (one line naming it).
    """
    if values is None:
        return DEFAULT_OPTIONS
    if isinstance(values, Options):
        values = values.to_dict()
    if not isinstance(values, dict):
        raise OptionError(f"{what}s: expected an object of flags, got {type(values).__name__}")
    unknown = [k for k in values if k not in OPTION_NAMES]
    if unknown:
        raise OptionError(f"{what} {str(unknown[0])[:40]!r}: unknown (options: {', '.join(OPTION_NAMES)})")
    v = DEFAULT_OPTIONS.to_dict()
    v.update(values)
    if v["forecast_values"] not in FORECAST_VALUES:
        raise OptionError(f"{what} forecast_values: expected \"3-8X\" or \"2-8\", "
                          f"got {value_text(v['forecast_values'], 40)}")
    if isinstance(v["move_dirs"], bool) or v["move_dirs"] not in (4, 8):
        raise OptionError(f"{what} move_dirs: expected 8 or 4, got {value_text(v['move_dirs'], 40)}")
    for name in ("diagonal_squeeze", "gondola_move_is_step1", "rescue_to_platform", "placement_round_robin",
                 "auto_apply_forced"):
        if not isinstance(v[name], bool):
            raise OptionError(f"{what} {name}: expected true or false, got {value_text(v[name], 40)}")
    t = v["treasure_supply"]
    if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t <= MAX_TREASURE_SUPPLY:
        raise OptionError(f"{what} treasure_supply: expected an int 0..{MAX_TREASURE_SUPPLY} "
                          f"(0 = unlimited), got {value_text(t, 40)}")
    return Options(**v)


def check_players(num_players: object) -> int:
    if isinstance(num_players, bool) or not isinstance(num_players, int) or \
            not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
        raise OptionError(f"venice-2099 players must be an int in {MIN_PLAYERS}..{MAX_PLAYERS}, "
                          f"not {value_text(num_players)}")
    return num_players


# --- phases and chance kinds (§10.5, §10.2) ------------------------------------------------------

PHASE_SETUP, PHASE_PLACE, PHASE_MOVE, PHASE_BUY, PHASE_CARD, PHASE_RESCUE, PHASE_OVER = range(7)
PHASE_NAMES = ("setup", "place", "move", "buy", "card", "rescue", "over")
CHANCE_COLOUR, CHANCE_LAYOUT, CHANCE_DEAL = range(3)
CHANCE_KIND_NAMES = ("colour", "layout", "deal")

# --- tiles, cards, squares -----------------------------------------------------------------------

PLATFORM = NUM_DISTRICTS          # the tile id of a platform, and its layout outcome (48)
NUM_CARDS = NUM_COLOURS * 7       # 42 card ids for either `forecast_values`
BOARD_WIDTH = 64                  # the action encoding's fixed square range (§10.6)
MAX_CHANCE_OUTCOMES = PLATFORM + 1

#: Figure slot states besides a square (§10.5): not placed yet, removed for good, fallen into the
#: water with a rescue decision pending.
UNPLACED, LOST, IN_WATER = -1, -2, -3


def district(colour: int, vi: int) -> int:
    return colour * NUM_VALUES + vi


def district_colour(d: int) -> int:
    return d // NUM_VALUES


def district_vi(d: int) -> int:
    return d % NUM_VALUES


def district_text(d: int) -> str:
    """`K5`, `TX`."""
    return COLOUR_LETTERS[d // NUM_VALUES] + VALUE_TEXTS[d % NUM_VALUES]


def card_colour(k: int) -> int:
    return k // 7


def card_vi(k: int, options: Options = DEFAULT_OPTIONS) -> int:
    """The value index (= rank) of card k: 3..8, X -> 1..7 by default, 2..8 -> 0..6 with "2-8" [VD-1]."""
    return k % 7 + options.card_offset


def card_district(k: int, options: Options = DEFAULT_OPTIONS) -> int:
    """The district card k sinks (§5.5)."""
    return district(card_colour(k), card_vi(k, options))


def card_of_district(d: int, options: Options = DEFAULT_OPTIONS) -> int:
    """The card naming district d, or -1 (the "2"s by default, the Xs with "2-8")."""
    j = district_vi(d) - options.card_offset
    return district_colour(d) * 7 + j if 0 <= j < 7 else -1


def card_text(k: int, options: Options = DEFAULT_OPTIONS) -> str:
    return district_text(card_district(k, options))


@functools.lru_cache(maxsize=64)
def config_counts(num_players: int) -> dict[str, int]:
    """Setup numbers of §3.3 for a player count: grid N, cards and figures each, platforms."""
    return {"N": GRID[num_players], "cards_each": CARDS_EACH[num_players],
            "figures_each": FIGURES_EACH[num_players], "platforms": PLATFORMS[num_players]}


def districts_in_play(num_players: int, removed_colour: int) -> list[int]:
    """The district tiles of the game (§3.2 step 1: with 2 players no 7, 8 nor the removed colour)."""
    if num_players == 2:
        return [d for d in range(NUM_DISTRICTS) if district_vi(d) not in TWO_PLAYER_REMOVED_VALUES
                and district_colour(d) != removed_colour]
    return list(range(NUM_DISTRICTS))


def cards_in_play(num_players: int, removed_colour: int, options: Options = DEFAULT_OPTIONS) -> list[int]:
    """The deck (§3.1 step 3, §3.2 step 4): one card per district in play that a card names."""
    keep = set(districts_in_play(num_players, removed_colour))
    return [k for k in range(NUM_CARDS) if card_district(k, options) in keep]


def square_name(s: int, n: int) -> str:
    """`a1` = row 0, column 0; the letter is the column (§2: s = r * N + c)."""
    return f"{'abcdefgh'[s % n]}{s // n + 1}"


_SQUARE = re.compile(r"^([A-H])([1-8])$")


def parse_square(text: str, n: int, shown: str) -> int:
    m = _SQUARE.match(text)
    if not m or "ABCDEFGH".index(m.group(1)) >= n or int(m.group(2)) > n:
        raise IllegalMoveError(f"invalid move {shown!r}: {text.lower()!r} is no square of the {n}x{n} board "
                               f"(a1..{'abcdefgh'[n - 1]}{n})")
    return (int(m.group(2)) - 1) * n + "ABCDEFGH".index(m.group(1))


#: The 8 directions (dr, dc) [VD-2], orthogonal first (the 4 of `move_dirs=4`).
DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))

# --- action ids (§10.6) --------------------------------------------------------------------------

PLACE0 = 0
MOVE0 = 64
GONDOLA0 = 320
PASS_MOVE = 576
BUY0 = 577
PASS_BUY = 581
PLAY0 = 582
RESCUE0 = 624
DECLINE_RESCUE = 688
NUM_ACTIONS = 689


def move_action(slot: int, s: int) -> int:
    return MOVE0 + BOARD_WIDTH * slot + s


def gondola_action(slot: int, s: int) -> int:
    return GONDOLA0 + BOARD_WIDTH * slot + s


def action_id(action: object) -> int:
    """`action` as an int (TypeError for a bool, a float or a str)."""
    return check_action_id(action)


def action_to_str(action: int, n: int, figure_squares: tuple[int, ...] = (), phase: int = -1,
                  chance_kind: int | None = None, square: int = 0, options: Options = DEFAULT_OPTIONS) -> str:
    """The text of a move, or with `chance_kind` of a chance outcome.

    Args:
        n: the grid width N. figure_squares: the mover's figure squares by slot (MOVE, GONDOLA, BUY
        texts name the figure by its square). phase: unused but for `pass`. square: the square a
        layout outcome is laid on. options: the card values (`play K3`).
    """
    action = action_id(action)
    if chance_kind is not None:
        if chance_kind == CHANCE_COLOUR:
            return f"remove {COLOUR_LETTERS[action]}" if 0 <= action < NUM_COLOURS else f"remove {action}"
        if chance_kind == CHANCE_LAYOUT:
            tile = "platform" if action == PLATFORM else (district_text(action) if 0 <= action < PLATFORM
                                                           else str(action))
            return f"{tile}@{square_name(square, n)}"
        return f"deal {card_text(action, options)}" if 0 <= action < NUM_CARDS else f"deal {action}"

    def figure(slot: int) -> str:
        if slot < len(figure_squares) and figure_squares[slot] >= 0:
            return square_name(figure_squares[slot], n)
        return f"figure{slot + 1}"

    if PLACE0 <= action < MOVE0:
        return f"place {square_name(action, n)}" if action < n * n else f"place {action}"
    if MOVE0 <= action < GONDOLA0:
        f, s = divmod(action - MOVE0, BOARD_WIDTH)
        return f"{figure(f)}-{square_name(s, n)}" if s < n * n else f"action {action}"
    if GONDOLA0 <= action < PASS_MOVE:
        f, s = divmod(action - GONDOLA0, BOARD_WIDTH)
        return f"gondola {figure(f)}-{square_name(s, n)}" if s < n * n else f"action {action}"
    if action == PASS_MOVE:
        return "no move"
    if BUY0 <= action < PASS_BUY:
        return f"buy {figure(action - BUY0)}"
    if action == PASS_BUY:
        return "no buy"
    if PLAY0 <= action < RESCUE0:
        return f"play {card_text(action - PLAY0, options)}"
    if RESCUE0 <= action < DECLINE_RESCUE:
        s = action - RESCUE0
        return f"rescue {square_name(s, n)}" if s < n * n else f"action {action}"
    if action == DECLINE_RESCUE:
        return "no rescue"
    return f"action {action}"


_MOVE = re.compile(r"^(GONDOLA\s+)?([A-H][1-8])\s*-\s*([A-H][1-8])$")
_ONE_SQUARE = re.compile(r"^(PLACE|BUY|RESCUE)\s+([A-H][1-8])$")
_PLAY = re.compile(r"^PLAY\s+([A-Z])\s*([2-8X])$")
_REMOVE = re.compile(r"^REMOVE\s+([A-Z])$")
_TILE = re.compile(r"^(PLATFORM|([A-Z])([2-8X]))\s*@\s*([A-H][1-8])$")
_DEAL = re.compile(r"^DEAL\s+([A-Z])\s*([2-8X])$")
_PASSES = {"NO MOVE": PASS_MOVE, "NO BUY": PASS_BUY, "NO RESCUE": DECLINE_RESCUE}
_PASS_OF_PHASE = {PHASE_MOVE: PASS_MOVE, PHASE_BUY: PASS_BUY, PHASE_RESCUE: DECLINE_RESCUE}


def _colour(letter: str, shown: str) -> int:
    if letter not in COLOUR_LETTERS:
        raise IllegalMoveError(f"invalid move {shown!r}: no colour {letter!r} (colours: {' '.join(COLOUR_LETTERS)})")
    return COLOUR_LETTERS.index(letter)


def _card(letter: str, value: str, shown: str, options: Options) -> int:
    d = district(_colour(letter, shown), VALUE_TEXTS.index(value))
    k = card_of_district(d, options)
    if k < 0:
        raise IllegalMoveError(f"invalid move {shown!r}: there is no forecast card {district_text(d)} [VD-1]")
    return k


def parse_action(text: object, n: int, figure_squares: tuple[int, ...] = (), phase: int = -1,
                 chance_kind: int | None = None, square: int = 0, options: Options = DEFAULT_OPTIONS) -> int:
    """The action id (or chance outcome) of a move text at a node (`chance_kind` None: a decision).

    `figure_squares`: the mover's figure squares by slot (a move names its figure by its square).

    Raises:
        TypeError: `text` is not a str.
        IllegalMoveError: the text is no move of this kind of node (the message shows the form).
    """
    if not isinstance(text, str):
        raise TypeError(f"a move text must be a str, not {type(text).__name__}")
    t = " ".join(text.strip().upper().split())
    shown = text.strip()

    def slot_at(sq_text: str) -> int:
        s = parse_square(sq_text, n, shown)
        if s in figure_squares:
            return figure_squares.index(s)
        raise IllegalMoveError(f"invalid move {shown!r}: no figure of the player to move on {sq_text.lower()}")

    if chance_kind is None:
        if t == "PASS" and phase in _PASS_OF_PHASE:
            return _PASS_OF_PHASE[phase]
        if t in _PASSES:
            return _PASSES[t]
        m = _MOVE.match(t)
        if m:
            f = slot_at(m.group(2))
            s = parse_square(m.group(3), n, shown)
            return gondola_action(f, s) if m.group(1) else move_action(f, s)
        m = _ONE_SQUARE.match(t)
        if m:
            if m.group(1) == "PLACE":
                return PLACE0 + parse_square(m.group(2), n, shown)
            if m.group(1) == "RESCUE":
                return RESCUE0 + parse_square(m.group(2), n, shown)
            return BUY0 + slot_at(m.group(2))
        m = _PLAY.match(t)
        if m:
            return PLAY0 + _card(m.group(1), m.group(2), shown, options)
        raise IllegalMoveError(f"invalid move {shown!r}: expected 'place d4', 'd4-f6', 'gondola d4-f6', 'no move', "
                               "'buy d4', 'no buy', 'play K3', 'rescue e5', 'no rescue' or 'pass'")
    if chance_kind == CHANCE_COLOUR:
        m = _REMOVE.match(t)
        if m:
            return _colour(m.group(1), shown)
        raise IllegalMoveError(f"invalid move {shown!r}: expected 'remove P' (the colour a 2-player game leaves out)")
    if chance_kind == CHANCE_LAYOUT:
        m = _TILE.match(t)
        if m and parse_square(m.group(4), n, shown) == square:
            if m.group(1) == "PLATFORM":
                return PLATFORM
            return district(_colour(m.group(2), shown), VALUE_TEXTS.index(m.group(3)))
        raise IllegalMoveError(f"invalid move {shown!r}: expected a tile for {square_name(square, n)}, "
                               f"'K5@{square_name(square, n)}' or 'platform@{square_name(square, n)}'")
    m = _DEAL.match(t)
    if m:
        return _card(m.group(1), m.group(2), shown, options)
    raise IllegalMoveError(f"invalid move {shown!r}: expected 'deal K3'")


# --- Zobrist cells -------------------------------------------------------------------------------

ZOBRIST_SEED = 0x7E21_C0E2_2099_0024
(Z_PHASE, Z_REMOVED, Z_SQUARE, Z_COINS_ON, Z_FIGURE, Z_SEAT_COINS, Z_TOKENS, Z_GONDOLAS, Z_CARD, Z_HAND_SIZE,
 Z_SUPPLY, Z_MOVED, Z_COINS_SUNK, Z_VIEWER) = range(14)
#: Z_SQUARE values: -1 not laid, d (0..47) an unsunk district, PLATFORM, WATER_CODE + d a sunk district.
WATER_CODE = 64
#: Z_CARD(k, where) values: seat p (in p's hand), PLAYED_CODE + p (played by p), CARD_UNDEALT (not
#: dealt yet, or set aside), CARD_HIDDEN (in the information-set key: a card the viewer cannot see).
PLAYED_CODE = 8
CARD_UNDEALT = 16
CARD_HIDDEN = 17
#: Z_FIGURE is indexed p * MAX_FIGURES + slot; Z_TOKENS p * NUM_COLOURS + c.
assert MAX_FIGURES == 4


@functools.lru_cache(maxsize=1 << 16)
def zobrist(kind: int, where: int, value: int = 0) -> int:
    """The 64-bit key of one cell: `mix64(ZOBRIST_SEED, kind, where, value)` (the same formula in C)."""
    return mix64(ZOBRIST_SEED, kind, where, value)


def resample_hands(unseen: list[int], opponents: list[tuple[int, int, int]], options: Options,
                   rng: SplitMix64 | None) -> dict[int, list[int]]:
    """§10.3's exact uniform sampler: new hands for the opponents of a seat.

    Args:
        unseen: the cards the seat cannot see (other hands and the set-aside pile), any order.
        opponents: (seat, hand size h_j, bound b_j = rank of j's last play, 0 before its first).
        rng: the generator, or None for the deterministic fill (the lowest eligible cards; used when
            a one-seat view is loaded).

    The order, which the compiled core repeats exactly: opponents by bound, highest first, ties by
    seat number; for each, `eligible` = the remaining unseen cards of rank >= b_j in increasing card
    id; h_j times: `i = rng.below(len(eligible))`, take `eligible.pop(i)` (or `eligible.pop(0)`
    without rng). The nested eligible sets make the draw uniform over every consistent deal (§10.3).
    """
    left = sorted(unseen)
    out: dict[int, list[int]] = {}
    for seat, size, bound in sorted(opponents, key=lambda o: (-o[2], o[0])):
        eligible = [k for k in left if card_vi(k, options) >= bound]
        if len(eligible) < size:
            raise AssertionError(f"resample: seat {seat} needs {size} cards of rank >= {bound}, "
                                 f"{len(eligible)} are unseen")
        hand = [eligible.pop(rng.below(len(eligible)) if rng is not None else 0) for _ in range(size)]
        taken = set(hand)
        left = [k for k in left if k not in taken]
        out[seat] = sorted(hand)
    return out

