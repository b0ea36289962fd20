"""Walking in Burano's vocabulary: phases, chance kinds, action ids and texts, Zobrist cells.

Action encoding (spec §15.4; 619 distinct actions for every player count):

| ids      | move            | decode                                                                   |
|----------|-----------------|--------------------------------------------------------------------------|
| 0..29    | ACQUIRE(j, s)   | column j = a // 6 (0..4), level range s = a % 6 (`RANGES`)               |
| 30       | ACQUIRE_NONE    | the market is empty [WD-19]                                              |
| 31..534  | PLACE(c, t)     | card c = (a - 31) // 7 (0..71), target t = (a - 31) % 7: 0..4 existing house t, 5 new house at the left end, 6 new house at the right end (the only target of an empty street) |
| 535      | END_BUILD       |                                                                          |
| 536..546 | CHARACTER(k)    | type k = a - 536 (data.CHARACTER_NAMES), for the leftmost unserved house |
| 547..618 | RETURN(c)       | card c = a - 547 (hand limit, canonical ascending order)                 |

Move texts (1-based columns and houses): `take 3 L1`, `take 2 L1-L3`, `take 1 L2-L3`, `take none`,
`place 17 h2` (on house 2), `place 17 left`, `place 17 right` (a new house at that end), `end`,
`visit mayor`, `return 40`. Chance outcomes (§15.1): `draw 17` (card 17 is dealt to the pending market
slot) and `first B` (seat B starts).

Zobrist keys: every field of a position is a cell `zobrist(kind, where, value)` (`Z_*` kinds), XORed
together, counters included when zero, so the compiled core keeps a key by XORing the old and the new
cell of each field it changes. Each card has one cell `zobrist(Z_CARD, card, location)` with a
location code (`LOC_*`); a seat's information-set key replaces the location of another seat's pooled
card (spec §14: its place is not known) by `LOC_POOLED + owner`. The turn counter is not keyed.
"""

from __future__ import annotations

import functools
import re

from burano_ai.core.arguments import check_action_id
from burano_ai.core.errors import IllegalMoveError
from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.core.seeds import mix64
from burano_ai.games.walking_in_burano.data import (
    CARDS_PER_LEVEL, CHARACTER_NAMES, LEVELS, MAX_COLUMNS, MAX_HOUSES, MAX_PLAYERS, NUM_CARDS, NUM_CHARACTERS,
)

#: Phases of a position (§15.5). DEAL: the 3N setup deals; FIRST: the first-player draw [WD-25];
#: ACQUIRE, BUILD, VISIT, RETURN: the steps of a turn (§4); REFILL: the refill draws between rounds (§9).
(PHASE_DEAL, PHASE_FIRST, PHASE_ACQUIRE, PHASE_BUILD, PHASE_VISIT, PHASE_RETURN, PHASE_REFILL,
 PHASE_OVER) = range(8)
PHASE_NAMES = ("deal", "first", "acquire", "build", "visit", "return", "refill", "over")
#: The kinds of chance event (`State.chance_kind`), §15.1.
CHANCE_DRAW, CHANCE_FIRST = range(2)
CHANCE_KIND_NAMES = ("draw", "first-player")
#: What every seat sees of a private RETURN (a record step's `kind`): the level of the deck it went under.
RETURN_KIND_NAMES = ("return-L1", "return-L2", "return-L3")

#: The level ranges of ACQUIRE(j, s), s = 0..5: (lowest level, highest level), levels 1..3 (§15.4).
RANGES = ((1, 1), (1, 2), (1, 3), (2, 2), (2, 3), (3, 3))
NUM_RANGES = len(RANGES)
ACQUIRE_NONE = MAX_COLUMNS * NUM_RANGES                  # 30
PLACE0 = ACQUIRE_NONE + 1                                # 31
NUM_TARGETS = MAX_HOUSES + 2                             # 7: houses 0..4, new left, new right
TARGET_LEFT = MAX_HOUSES                                 # 5
TARGET_RIGHT = MAX_HOUSES + 1                            # 6
END_BUILD = PLACE0 + NUM_CARDS * NUM_TARGETS             # 535
CHARACTER0 = END_BUILD + 1                               # 536
RETURN0 = CHARACTER0 + NUM_CHARACTERS                    # 547
NUM_ACTIONS = RETURN0 + NUM_CARDS                        # 619
MAX_CHANCE_OUTCOMES = NUM_CARDS                          # 72 (§15.1)
assert NUM_ACTIONS == 619 and END_BUILD == 535 and CHARACTER0 == 536


def acquire_action(column: int, lo: int, hi: int) -> int:
    """The id of ACQUIRE(column, levels lo..hi)."""
    return column * NUM_RANGES + RANGES.index((lo, hi))


def decode_acquire(action: int) -> tuple[int, int, int]:
    """(column, lowest level, highest level) of an ACQUIRE id 0..29."""
    lo, hi = RANGES[action % NUM_RANGES]
    return action // NUM_RANGES, lo, hi


def place_action(card: int, target: int) -> int:
    """The id of PLACE(card, target)."""
    return PLACE0 + card * NUM_TARGETS + target


def decode_place(action: int) -> tuple[int, int]:
    """(card, target) of a PLACE id 31..534."""
    return divmod(action - PLACE0, NUM_TARGETS)


def action_kind(action: int) -> str:
    """"acquire", "none", "place", "end", "character", "return" or "invalid"."""
    if 0 <= action < ACQUIRE_NONE:
        return "acquire"
    if action == ACQUIRE_NONE:
        return "none"
    if PLACE0 <= action < END_BUILD:
        return "place"
    if action == END_BUILD:
        return "end"
    if CHARACTER0 <= action < RETURN0:
        return "character"
    if RETURN0 <= action < NUM_ACTIONS:
        return "return"
    return "invalid"


def action_id(action: object) -> int:
    """`action` as an int (TypeError for a bool, a float or a str)."""
    return check_action_id(action)


def levels_text(lo: int, hi: int) -> str:
    return f"L{lo}" if lo == hi else f"L{lo}-L{hi}"


def action_to_str(action: int, chance_kind: int | None = None) -> str:
    """The text of a move, or with `chance_kind` of a chance outcome."""
    action = action_id(action)
    if chance_kind == CHANCE_FIRST:
        return f"first {SEAT_LETTERS[action]}" if 0 <= action < MAX_PLAYERS else f"first {action}"
    if chance_kind == CHANCE_DRAW:
        return f"draw {action}"
    kind = action_kind(action)
    if kind == "acquire":
        column, lo, hi = decode_acquire(action)
        return f"take {column + 1} {levels_text(lo, hi)}"
    if kind == "none":
        return "take none"
    if kind == "place":
        card, target = decode_place(action)
        where = "left" if target == TARGET_LEFT else "right" if target == TARGET_RIGHT else f"h{target + 1}"
        return f"place {card} {where}"
    if kind == "end":
        return "end"
    if kind == "character":
        return f"visit {CHARACTER_NAMES[action - CHARACTER0]}"
    if kind == "return":
        return f"return {action - RETURN0}"
    return f"action {action}"


_TAKE = re.compile(r"^TAKE\s*([1-9])\s*L([1-3])(?:\s*-\s*L?([1-3]))?$")
_PLACE = re.compile(r"^PLACE\s+(\d{1,3})\s+(?:(?:ON\s+)?H(?:OUSE)?\s*([1-9])|(LEFT|RIGHT|L|R))$")
_VISIT = re.compile(r"^VISIT\s+([A-Z -]+)$")
_RETURN = re.compile(r"^RETURN\s+(\d{1,3})$")
_DRAW = re.compile(r"^DRAW\s+(\d{1,3})$")
_FIRST = re.compile(r"^FIRST\s+([A-Z])$")


def parse_action(text: object, chance_kind: int | None) -> int:
    """The action id (or chance outcome) of a move text at a node (`chance_kind` None: a decision).

    Raises:
        TypeError: `text` is not a str.
        IllegalMoveError: the text is no move of this kind of node (the message shows the form).
    """
    if not isinstance(text, str):
        raise TypeError(f"a move text must be a str, not {type(text).__name__}")
    t = " ".join(text.strip().upper().split())
    shown = text.strip()[:60]
    if chance_kind == CHANCE_FIRST:
        m = _FIRST.match(t)
        if m and m.group(1) in SEAT_LETTERS[:MAX_PLAYERS]:
            return SEAT_LETTERS.index(m.group(1))
        raise IllegalMoveError(f"invalid move {shown!r}: expected 'first B'")
    if chance_kind == CHANCE_DRAW:
        m = _DRAW.match(t)
        if m and int(m.group(1)) < NUM_CARDS:
            return int(m.group(1))
        raise IllegalMoveError(f"invalid move {shown!r}: expected 'draw 17' (a card id 0..{NUM_CARDS - 1})")
    m = _TAKE.match(t)
    if m:
        column = int(m.group(1)) - 1
        lo = int(m.group(2))
        hi = int(m.group(3)) if m.group(3) else lo
        if column >= MAX_COLUMNS or (lo, hi) not in RANGES:
            raise IllegalMoveError(f"invalid move {shown!r}: a take names a column 1..{MAX_COLUMNS} and levels "
                                   "L1, L1-L2, L1-L3, L2, L2-L3 or L3")
        return acquire_action(column, lo, hi)
    if t in ("TAKE NONE", "NONE"):
        return ACQUIRE_NONE
    m = _PLACE.match(t)
    if m:
        card = int(m.group(1))
        if card >= NUM_CARDS:
            raise IllegalMoveError(f"invalid move {shown!r}: no card {card} (cards 0..{NUM_CARDS - 1})")
        if m.group(2):
            house = int(m.group(2)) - 1
            if house >= MAX_HOUSES:
                raise IllegalMoveError(f"invalid move {shown!r}: a street has houses 1..{MAX_HOUSES}")
            return place_action(card, house)
        return place_action(card, TARGET_LEFT if m.group(3)[0] == "L" else TARGET_RIGHT)
    if t in ("END", "END BUILD", "PASS"):
        return END_BUILD
    m = _VISIT.match(t)
    if m:
        name = m.group(1).replace(" ", "").replace("-", "").lower()
        name = {"shop": "shopowner", "owner": "shopowner", "policeofficer": "police", "santaclaus": "santa"}.get(
            name, name)
        if name not in CHARACTER_NAMES:
            raise IllegalMoveError(f"invalid move {shown!r}: no character {m.group(1).lower()!r} "
                                   f"(characters: {', '.join(CHARACTER_NAMES)})")
        return CHARACTER0 + CHARACTER_NAMES.index(name)
    m = _RETURN.match(t)
    if m:
        card = int(m.group(1))
        if card >= NUM_CARDS:
            raise IllegalMoveError(f"invalid move {shown!r}: no card {card} (cards 0..{NUM_CARDS - 1})")
        return RETURN0 + card
    raise IllegalMoveError(f"invalid move {shown!r}: expected 'take 3 L1-L2', 'take none', 'place 17 h2', "
                           "'place 17 left', 'place 17 right', 'end', 'visit mayor' or 'return 40'")


# --- Zobrist cells -------------------------------------------------------------------------------

ZOBRIST_SEED = 0xB0A2_0C11_2026_0023
(Z_PHASE, Z_ROUND, Z_TO_MOVE, Z_FIRST, Z_LAST_ROUND, Z_PLACED, Z_RETURNED, Z_CARD, Z_UNDER_OWNER, Z_STACK,
 Z_COINS, Z_TOKENS, Z_SCAFFOLD, Z_CHARACTER, Z_PENDING, Z_HAND_SIZE, Z_POOLED, Z_STREET_LEN, Z_VIEWER) = range(19)

#: Card location codes of the Z_CARD cells (also the compiled core's).
LOC_DECK = 0                                   # the shuffled part of its level's deck
LOC_MARKET = 1                                 # + 5 (level - 1) + column: 1..15
LOC_UNDER = LOC_MARKET + LEVELS * MAX_COLUMNS  # + position under its deck (0 = drawn next): 16..39
LOC_HAND = LOC_UNDER + CARDS_PER_LEVEL         # + seat: 40..43
LOC_STREET = LOC_HAND + MAX_PLAYERS            # + 15 seat + 3 house + (level - 1): 44..103
LOC_DISCARD = LOC_STREET + MAX_PLAYERS * MAX_HOUSES * LEVELS   # 104
LOC_POOLED = LOC_DISCARD + 1                   # + owner: 105..108, only in an information-set key
NUM_LOCATIONS = LOC_POOLED + MAX_PLAYERS       # 109


@functools.lru_cache(maxsize=1 << 16)
def zobrist(kind: int, where: int, value: int = 0) -> int:
    """The 64-bit key of one cell: `mix64(ZOBRIST_SEED, kind, where, value)` (the same formula in C)."""
    return mix64(ZOBRIST_SEED, kind, where, value)
