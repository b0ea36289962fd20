"""Azul: Stained Glass of Sintra's vocabulary: phases, chance kinds, action ids and texts, Zobrist cells.

Action encoding (spec §11.4; 456 distinct actions for every player count):

| ids     | move                      | decode                                                        |
|---------|---------------------------|---------------------------------------------------------------|
| 0..449  | DRAFT(source, colour, target) | source = a // 45 (0..8 factory, 9 centre), colour = (a // 9) % 5, target = a % 9 (0..7 column, 8 = break all) |
| 450     | RESET                     |                                                               |
| 451..455| KEEP(colour)              | colour = a - 451                                              |
| 456..855| DRAFT jokers first (flag `joker_choice`, AD-13, AD-23) | a - 456 = (source * 5 + colour) * 8 + column |

Move texts (§11.4): `F3 O>5` (factory 3, orange, to column 5; factories and columns 1-based),
`C P>2` (the centre), `F1 Y>x` (break all), `reset`, `keep O`; with `joker_choice`, `F3 O>5j` (the
jokers first). Chance outcomes share the ids of the
actions (0..7); their texts: `S4@3` (strip S4 laid above column 3), `face b`, `indicator II P`
(a round-indicator piece), `draw B` (a factory draw), `first B` (with `random_first_player`: the seat
that starts, AD-17).

The spec's optional rules (`Flags`, game options; the defaults are the spec's rules): `joker_choice`
(AD-13), `indicator_to_tower` (AD-9), `auto_keep` (§11.4, side A only) and `random_first_player` (AD-17).

Zobrist keys: every field of a position is a cell `zobrist(kind, where, value)` (`Z_*` kinds), XORed
together, values included when zero, so the compiled core keeps the key by XORing the old and the new
cell of each field it changes. The turn counter is not part of the key (equal positions, equal keys).
"""

from __future__ import annotations

import functools
import re
from dataclasses import asdict, dataclass

from burano_ai.core.arguments import check_action_id
from burano_ai.core.errors import IllegalMoveError
from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.core.seeds import mix64
from burano_ai.games.azul_sintra.data import COLUMNS, MAX_FACTORIES, NUM_COLOURS

#: Phases of a position.
PHASE_SETUP, PHASE_REFILL, PHASE_DRAFT, PHASE_KEEP, PHASE_OVER = range(5)
PHASE_NAMES = ("setup", "refill", "draft", "keep", "over")
#: The kinds of chance event (`State.chance_kind`), §11.2; CHANCE_FIRST only with `random_first_player`.
CHANCE_STRIP, CHANCE_FACE, CHANCE_INDICATOR, CHANCE_DRAW, CHANCE_FIRST = range(5)
CHANCE_KIND_NAMES = ("strip", "face", "indicator", "draw", "first player")

CENTRE = MAX_FACTORIES            # source 9
NUM_SOURCES = MAX_FACTORIES + 1   # 10
BREAK = COLUMNS                   # target 8
NUM_TARGETS = COLUMNS + 1         # 9
DRAFT_ACTIONS = NUM_SOURCES * NUM_COLOURS * NUM_TARGETS    # 450
RESET = DRAFT_ACTIONS             # 450
KEEP0 = RESET + 1                 # 451..455
NUM_ACTIONS = KEEP0 + NUM_COLOURS                          # 456
#: With `joker_choice` (AD-13, AD-23): "column k, jokers first" drafts after the 456 others.
JOKER_DRAFT0 = NUM_ACTIONS                                 # 456..855
NUM_ACTIONS_JOKER_CHOICE = JOKER_DRAFT0 + NUM_SOURCES * NUM_COLOURS * COLUMNS   # 856
MAX_CHANCE_OUTCOMES = 8
SIDES = ("A", "B")
ROMAN = ("I", "II", "III", "IV", "V", "VI")
#: The order in which setup fills the round indicator: II..VI, then I from the bag (§3 step 8).
INDICATOR_ORDER = (1, 2, 3, 4, 5, 0)


@dataclass(frozen=True)
class Flags:
    """The spec's optional rules, each a game option; the defaults are the rules the spec states.

    Attributes:
        joker_choice: also offer "jokers first" drafts (AD-13: coloured cells first is the default order).
        indicator_to_tower: the used round-indicator piece goes to the tower (AD-9, RU:196); False: it leaves
            the game (the RU:160 note).
        auto_keep: side A only: a completed strip's keep is not asked; the first colour (P, O, Y, B, G order)
            among its pieces is kept (AD-24; score-neutral on side A, RU:178).
        random_first_player: the seat that starts is drawn at setup's first chance event (AD-17), not the
            `first_player` parameter.
    """

    joker_choice: bool = False
    indicator_to_tower: bool = True
    auto_keep: bool = False
    random_first_player: bool = False

    @property
    def is_default(self) -> bool:
        return self == DEFAULT_FLAGS

    def to_dict(self) -> dict[str, bool]:
        return asdict(self)


DEFAULT_FLAGS = Flags()
FLAG_NAMES = tuple(DEFAULT_FLAGS.to_dict())


def joker_draft_action(source: int, colour: int, column: int) -> int:
    """The id of DRAFT(source, colour, column) with the jokers filled first (`joker_choice`)."""
    return JOKER_DRAFT0 + (source * NUM_COLOURS + colour) * COLUMNS + column


def decode_joker_draft(action: int) -> tuple[int, int, int]:
    """(source, colour, column) of a jokers-first DRAFT id 456..855."""
    a = action - JOKER_DRAFT0
    return a // (NUM_COLOURS * COLUMNS), (a // COLUMNS) % NUM_COLOURS, a % COLUMNS


def draft_action(source: int, colour: int, target: int) -> int:
    """The id of DRAFT(source, colour, target)."""
    return (source * NUM_COLOURS + colour) * NUM_TARGETS + target


def decode_draft(action: int) -> tuple[int, int, int]:
    """(source, colour, target) of a DRAFT id 0..449."""
    return action // (NUM_COLOURS * NUM_TARGETS), (action // NUM_TARGETS) % NUM_COLOURS, action % NUM_TARGETS


def action_id(action: object) -> int:
    """`action` as an int (TypeError for a bool, a float or a str)."""
    return check_action_id(action)


def action_to_str(action: int, letters: tuple[str, ...], chance_kind: int | None = None,
                  column: int = 0, slot: int = 0) -> str:
    """The text of a move, or with `chance_kind` of a chance outcome (`column`/`slot`: where it goes)."""
    action = action_id(action)
    if chance_kind is not None:
        if chance_kind == CHANCE_STRIP:
            return f"S{action + 1}@{column + 1}"
        if chance_kind == CHANCE_FACE:
            return f"face {'ab'[action] if action in (0, 1) else action}"
        colour = letters[action] if 0 <= action < NUM_COLOURS else str(action)
        if chance_kind == CHANCE_INDICATOR:
            return f"indicator {ROMAN[slot]} {colour}"
        if chance_kind == CHANCE_FIRST:
            return f"first {SEAT_LETTERS[action]}" if 0 <= action < len(SEAT_LETTERS) else f"first {action}"
        return f"draw {colour}"
    if 0 <= action < DRAFT_ACTIONS:
        source, colour, target = decode_draft(action)
        src = "C" if source == CENTRE else f"F{source + 1}"
        return f"{src} {letters[colour]}>{'x' if target == BREAK else target + 1}"
    if action == RESET:
        return "reset"
    if KEEP0 <= action < NUM_ACTIONS:
        return f"keep {letters[action - KEEP0]}"
    if JOKER_DRAFT0 <= action < NUM_ACTIONS_JOKER_CHOICE:
        source, colour, column = decode_joker_draft(action)
        return f"{'C' if source == CENTRE else f'F{source + 1}'} {letters[colour]}>{column + 1}j"
    return f"action {action}"


_DRAFT = re.compile(r"^(C|F([1-9]))\s*([A-Z])\s*>\s*([1-8]|X)$")
_JOKER_DRAFT = re.compile(r"^(C|F([1-9]))\s*([A-Z])\s*>\s*([1-8])\s*J$")
_FIRST = re.compile(r"^FIRST\s+([A-Z])$")
_KEEP = re.compile(r"^KEEP\s+([A-Z])$")
_STRIP = re.compile(r"^S([1-8])@([1-8])$")
_FACE = re.compile(r"^FACE\s+([AB])$")
_INDICATOR = re.compile(r"^INDICATOR\s+(I|II|III|IV|V|VI)\s+([A-Z])$")
_DRAW = re.compile(r"^DRAW\s+([A-Z])$")


def parse_action(text: object, letters: tuple[str, ...], chance_kind: int | None,
                 column: int = 0, slot: int = 0) -> int:
    """The action id (or chance outcome) of a move text at a node (`chance_kind` None: a decision).

    Raises:
        TypeError: `text` is not a str.
        IllegalMoveError: the text is no move of this kind of node (the message shows the form).
    """
    if not isinstance(text, str):
        raise TypeError(f"a move text must be a str, not {type(text).__name__}")
    t = " ".join(text.strip().upper().split())
    shown = text.strip()

    def colour(letter: str) -> int:
        if letter not in letters:
            raise IllegalMoveError(f"invalid move {shown!r}: no colour {letter!r} (colours: {' '.join(letters)})")
        return letters.index(letter)

    if chance_kind is None:
        m = _DRAFT.match(t)
        if m:
            source = CENTRE if m.group(1) == "C" else int(m.group(2)) - 1
            target = BREAK if m.group(4) == "X" else int(m.group(4)) - 1
            return draft_action(source, colour(m.group(3)), target)
        m = _JOKER_DRAFT.match(t)
        if m:
            source = CENTRE if m.group(1) == "C" else int(m.group(2)) - 1
            return joker_draft_action(source, colour(m.group(3)), int(m.group(4)) - 1)
        if t == "RESET":
            return RESET
        m = _KEEP.match(t)
        if m:
            return KEEP0 + colour(m.group(1))
        raise IllegalMoveError(f"invalid move {shown!r}: expected 'F3 O>5', 'C P>2', 'F1 Y>x', 'reset' or 'keep O' "
                               "('F3 O>5j': jokers first, with joker_choice)")
    if chance_kind == CHANCE_STRIP:
        m = _STRIP.match(t)
        if m and int(m.group(2)) == column + 1:
            return int(m.group(1)) - 1
        raise IllegalMoveError(f"invalid move {shown!r}: expected a strip for column {column + 1}, 'S4@{column + 1}'")
    if chance_kind == CHANCE_FACE:
        m = _FACE.match(t)
        if m:
            return "AB".index(m.group(1))
        raise IllegalMoveError(f"invalid move {shown!r}: expected 'face a' or 'face b'")
    if chance_kind == CHANCE_INDICATOR:
        m = _INDICATOR.match(t)
        if m and m.group(1) == ROMAN[slot]:
            return colour(m.group(2))
        raise IllegalMoveError(f"invalid move {shown!r}: expected 'indicator {ROMAN[slot]} P'")
    if chance_kind == CHANCE_FIRST:
        m = _FIRST.match(t)
        if m and m.group(1) in SEAT_LETTERS:
            return SEAT_LETTERS.index(m.group(1))
        raise IllegalMoveError(f"invalid move {shown!r}: expected 'first A'")
    m = _DRAW.match(t)
    if m:
        return colour(m.group(1))
    raise IllegalMoveError(f"invalid move {shown!r}: expected 'draw P'")


# --- Zobrist cells -------------------------------------------------------------------------------

ZOBRIST_SEED = 0xA2F1_5147_2026_0022
(Z_PHASE, Z_ROUND, Z_TO_MOVE, Z_STARTER, Z_TOKEN, Z_INDICATOR, Z_BAG, Z_TOWER, Z_FACTORY, Z_CENTRE,
 Z_KEEP_COLUMN, Z_KEEP, Z_SCORE, Z_TRACK, Z_HITS, Z_GLAZIER, Z_STRIP, Z_FACE, Z_FILLED, Z_JOKER,
 Z_WINDOW_TOP, Z_WINDOW_BOTTOM, Z_VIEWER) = range(23)


@functools.lru_cache(maxsize=1 << 16)
def zobrist(kind: int, where: int, value: int = 0) -> int:
    """The 64-bit key of one cell: `mix64(ZOBRIST_SEED, kind, where, value)` (the same formula in C)."""
    return mix64(ZOBRIST_SEED, kind, where, value)
