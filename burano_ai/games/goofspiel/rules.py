"""Goofspiel's rules as data: parameters, action ids and texts, key cells and the seeded generator.

The game as our engine plays it (OpenSpiel's `goofspiel` with `imp_info=False`, played sequentially):

- Every seat holds the bid cards 1..`num_cards`; the prize cards are 1..`num_cards` too, a prize
  card worth its number in points.
- A round: the prize is revealed — by a chance node uniform over the prizes left when
  `points_order` is "random" (outcome p = prize card p+1), or automatically, the highest ("descending")
  or lowest ("ascending") prize left — then every seat in turn, A first, bids one card of its hand in
  secret (action a = card a+1). When the last seat has bid, the round resolves: the single highest bid
  takes the prize's points; a tied highest bid means nobody takes it (the prize is lost, even when a
  lower bid is unique: OpenSpiel's rule). The bids are then public and leave the hands.
- The last round (one card left in every hand, one prize left) plays itself, as in OpenSpiel: no
  chance node, no decisions. So a game has `num_cards - 1` rounds of decisions.
- Order of finish: most points; tied leaders share the win (everyone ties: each has 1/n).

Action ids 0..num_cards-1 are shared by bids and prize outcomes (as OpenSpiel's). Limits:
2..`MAX_PLAYERS` players (OpenSpiel allows more; the framework's seats allow 6, five is plenty) and
`MIN_CARDS`..`MAX_CARDS` cards: at least 2 so that a game has a decision (with one card OpenSpiel
still asks for the forced bid, we do not), at most 16 so that a hand is a 16-bit mask in the core.

Zobrist keys: `zobrist(cell, a, b)` hashes a cell (a seat's card in hand, a prize won, a prize
left, the current prize, a bid, a hidden bid, the viewer) with the fixed `ZOBRIST_SEED`; both
implementations compute the same keys.
"""

from __future__ import annotations

import functools
import re

from burano_ai.core.arguments import check_action_id, value_text
from burano_ai.core.errors import IllegalMoveError, OptionError
from burano_ai.core.seats import seat_letter
from burano_ai.core.seeds import mix64

MIN_PLAYERS = 2
MAX_PLAYERS = 5
DEFAULT_PLAYERS = 2
MIN_CARDS = 2
MAX_CARDS = 16
DEFAULT_CARDS = 13
#: How the prizes come: OpenSpiel's `points_order` values (the first is the default).
POINTS_ORDERS = ("random", "descending", "ascending")
#: `turn_id()` = round * TURN_STRIDE + seat: each bid is its own turn.
TURN_STRIDE = 8

#: Phases of a position (derived from its fields, stored in the compiled core's struct).
PHASE_CHANCE, PHASE_BID, PHASE_OVER = 0, 1, 2
PHASE_NAMES = ("chance", "bid", "over")
#: The kinds of chance event (`State.chance_kind`): one, the prize reveal.
CHANCE_KIND_NAMES = ("prize",)


def check_config(num_players: object, num_cards: object, points_order: object) -> tuple[int, int, str]:
    """The validated game parameters.

    Raises:
        OptionError: a parameter out of range or unknown (the message names it).
    """
    for name, value, low, high in (("players", num_players, MIN_PLAYERS, MAX_PLAYERS),
                                   ("num_cards", num_cards, MIN_CARDS, MAX_CARDS)):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise OptionError(f"goofspiel {name} must be an int in {low}..{high}, not {value_text(value)}")
    if points_order not in POINTS_ORDERS:
        raise OptionError(f"goofspiel points_order must be one of {', '.join(POINTS_ORDERS)}, "
                          f"not {value_text(points_order)}")
    return num_players, num_cards, points_order  # type: ignore[return-value]


# --- action ids and texts ------------------------------------------------------------------------

def action_id(action: object) -> int:
    """`action` as an int action id (any int; range is the caller's check).

    Raises:
        TypeError: `action` is not an integer (a bool or a float is no action id; numpy integers are).
    """
    return check_action_id(action)


def action_to_str(action: object, chance: bool) -> str:
    """"bid 7" for action 6 at a decision, "prize 5" for outcome 4 at a chance node.

    Raises:
        TypeError: `action` is not an int.
    """
    action = check_action_id(action)
    return f"{'prize' if chance else 'bid'} {action + 1}"


_MOVE = re.compile(r"^\s*(bid|prize)\s+(\d{1,3})\s*$", re.IGNORECASE)


def parse_action(text: object, num_cards: int) -> tuple[str, int]:
    """("bid" or "prize", action id) of a move text such as "bid 7" or "prize 5".

    Raises:
        TypeError: `text` is not a str.
        IllegalMoveError: the text is not "bid N" / "prize N" with N a card 1..num_cards.
    """
    if not isinstance(text, str):
        raise TypeError(f"a move text must be a str, not {type(text).__name__}")
    m = _MOVE.match(text)
    if not m:
        raise IllegalMoveError(f"invalid move {text.strip()!r}: expected 'bid N' or 'prize N' "
                               f"with N a card 1..{num_cards}")
    card = int(m.group(2))
    if not 1 <= card <= num_cards:
        raise IllegalMoveError(f"invalid move {text.strip()!r}: no card {card} in a {num_cards}-card game")
    return m.group(1).lower(), card - 1


def where(phase: int, round_: int, bidder: int, prize: int) -> str:
    """Where a move is made, for error messages ("in round 3 (seat B bids on prize 7)")."""
    if phase == PHASE_OVER:
        return "after the end of the game"
    if phase == PHASE_CHANCE:
        return f"in round {round_ + 1} (prize reveal)"
    return f"in round {round_ + 1} (seat {seat_letter(bidder)} bids on prize {prize})"


def illegal_move_error(action: int, text: str | None, phase: int, where: str,
                       offered: list[int] | None) -> IllegalMoveError:
    """The IllegalMoveError for `action` (written `text`) at a node of `phase` (both implementations)."""
    chance = phase == PHASE_CHANCE
    shown = text if text is not None else (
        action_to_str(action, chance) if 0 <= action < 100 else f"action {action}")
    if offered is None:
        return IllegalMoveError(f"illegal move {shown!r} {where}: the game is over")
    kind = "prizes left" if chance else "cards in hand"
    cards = " ".join(str(a + 1) for a in offered)
    return IllegalMoveError(f"illegal move {shown!r} {where}: {kind} {cards}")


# --- the prior and the heuristic playout ---------------------------------------------------------

def bid_weight(card: int, prize: int) -> float:
    """Unnormalised prior weight of bidding `card` on `prize`: 1 / (1 + |card - prize|).

    A simple documented heuristic (bid near the prize's value), the same in the compiled core's
    `prior` and heuristic playout policy.
    """
    return 1.0 / (1.0 + abs(card - prize))


# --- Zobrist cells -------------------------------------------------------------------------------

ZOBRIST_SEED = 0x600F_5B1E_2026_0019
#: Cell kinds of `zobrist`.
Z_HAND, Z_WON, Z_LEFT, Z_PRIZE, Z_BID, Z_HIDDEN_BID, Z_VIEWER = range(7)


@functools.cache
def zobrist(cell: int, a: int, b: int = 0) -> int:
    """The 64-bit key of one cell (`Z_*`, seat or card `a`, card `b`): fixed, the same in C (memoised)."""
    return mix64(ZOBRIST_SEED, cell, a, b)
