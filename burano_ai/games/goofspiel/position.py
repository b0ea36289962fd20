"""A Goofspiel position's fields, their invariants, and the `goofspiel-position/1` JSON (full or one seat's view).

A position stores only what the rules need: each seat's hand (as at the start of the round: this
round's bids leave the hands when the round resolves), the prizes not yet revealed, the current prize,
this round's bids, and the prizes each seat has won. The round, the points, the phase and the seat to
bid are derived from them, so a position cannot contradict itself there; the JSON writes them too, for
people, and loading checks that they agree.

JSON (keys in this order)::

    {"format": "goofspiel-position/1", "view": null, "players": 2, "num_cards": 13,
     "points_order": "random", "round": 0, "phase": "chance", "prize": null,
     "prizes_left": [1, ..., 13],
     "seats": [{"hand": [1, ..., 13], "bid": null, "won": [], "points": 0}, ...]}

`view` is null for a full position or the letter of the seat whose view it is. In a one-seat view the
current round's bids of the other seats are hidden: each is written "?" (their seats have bid, the
card is secret). Loading a view fills each "?" with the lowest card of that seat's hand (a
deterministic consistent sample, so loading is reproducible); a searcher resamples them.

Loading validates every field and raises `PositionError` with a one-line message naming the field
(`position.seats[1].bid: ...`). This module knows the format, not the rules of play.
"""

from __future__ import annotations

import json
from typing import Any

from burano_ai.core.arguments import check_instance
from burano_ai.core.errors import OptionError, PositionError
from burano_ai.core.fields import POSITION, parse_position_json
from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.games.goofspiel.rules import (
    MAX_CARDS,
    MAX_PLAYERS,
    MIN_CARDS,
    MIN_PLAYERS,
    PHASE_BID,
    PHASE_CHANCE,
    PHASE_NAMES,
    PHASE_OVER,
    POINTS_ORDERS,
    check_config,
)

FORMAT = "goofspiel-position/1"
TOP_FIELDS = ("format", "view", "players", "num_cards", "points_order", "round", "phase", "prize",
              "prizes_left", "seats")
SEAT_FIELDS = ("hand", "bid", "won", "points")
#: A hidden bid in a one-seat view.
HIDDEN = "?"
#: Largest position JSON text accepted (a full 5-player 16-card position is under 2 kB).
MAX_JSON_CHARS = 100_000


class Position:
    """The fields of one Goofspiel position (cards are 1..num_cards; 0 means "none").

    Attributes:
        hands: each seat's cards, sorted, as at the start of the round.
        prizes_left: the prize cards not yet revealed, sorted (the current prize is not among them).
        prize: the prize of this round, 0 before it is revealed (and at the end).
        bids: this round's bid of each seat, 0 for a seat that has not bid.
        won: the prize cards each seat has taken, sorted.
    """

    def __init__(self, num_players: int = 2, num_cards: int = 13, points_order: str = "random") -> None:
        check_config(num_players, num_cards, points_order)
        self.num_players = num_players
        self.num_cards = num_cards
        self.points_order = points_order
        cards = list(range(1, num_cards + 1))
        self.hands = [list(cards) for _ in range(num_players)]
        self.prizes_left = list(cards)
        self.prize = 0
        self.bids = [0] * num_players
        self.won: list[list[int]] = [[] for _ in range(num_players)]

    def config(self) -> tuple[int, int, str]:
        """(num_players, num_cards, points_order): the arguments of a Game."""
        return self.num_players, self.num_cards, self.points_order

    # --- derived values

    @property
    def round(self) -> int:
        """Rounds resolved so far (0-based number of the current round)."""
        return self.num_cards - len(self.hands[0])

    @property
    def points(self) -> list[int]:
        """Each seat's points: the sum of the prizes it has won."""
        return [sum(w) for w in self.won]

    @property
    def phase(self) -> int:
        """PHASE_OVER when no card is left, PHASE_CHANCE before the prize is revealed, else PHASE_BID."""
        if not self.hands[0]:
            return PHASE_OVER
        return PHASE_BID if self.prize else PHASE_CHANCE

    @property
    def bidder(self) -> int:
        """The seat to bid (the first that has not), or -1 outside the bidding."""
        if self.phase != PHASE_BID:
            return -1
        return self.bids.index(0)

    # --- copies and invariants

    def copy_fields_from(self, other: Position) -> None:
        check_instance(other, Position, "a Goofspiel position")
        self.num_players, self.num_cards, self.points_order = other.num_players, other.num_cards, other.points_order
        self.hands = [list(h) for h in other.hands]
        self.prizes_left = list(other.prizes_left)
        self.prize = other.prize
        self.bids = list(other.bids)
        self.won = [list(w) for w in other.won]

    def to_position(self) -> Position:
        """A plain `Position` copy of these fields."""
        out = Position.__new__(Position)
        out.copy_fields_from(self)
        return out

    def check(self) -> None:
        """Raise AssertionError naming the first broken invariant (every card once, sizes, order)."""
        n, cards = self.num_players, set(range(1, self.num_cards + 1))
        h = len(self.hands[0])
        assert len(self.hands) == len(self.bids) == len(self.won) == n, "one hand, bid and won list per seat"
        for p in range(n):
            assert len(self.hands[p]) == h, f"seat {p}: every hand has the same size"
            assert self.hands[p] == sorted(set(self.hands[p])) and set(self.hands[p]) <= cards, \
                f"seat {p}: hand sorted, distinct, cards 1..N"
            assert self.won[p] == sorted(set(self.won[p])) and set(self.won[p]) <= cards, \
                f"seat {p}: won sorted, distinct"
        assert h != 1, "the last round plays itself: no position has one card per hand"
        unresolved = list(self.prizes_left) + ([self.prize] if self.prize else [])
        taken = [c for w in self.won for c in w]
        assert len(set(unresolved + taken)) == len(unresolved) + len(taken), "a prize is in two places"
        assert set(unresolved) | set(taken) <= cards, "prizes are cards 1..N"
        assert len(unresolved) == h, "as many prizes unresolved as cards in each hand"
        if self.prize == 0 or h == 0:
            assert all(b == 0 for b in self.bids), "no bids before the prize is revealed or after the end"
            assert h == 0 or self.points_order == "random", "a fixed prize order reveals the prize by itself"
            assert h > 0 or self.prize == 0, "no prize after the end"
        else:
            k = next((p for p in range(n) if self.bids[p] == 0), n)
            assert 0 <= k < n and all(b == 0 for b in self.bids[k:]), "the bids are a prefix of the seats, not all"
            assert all(self.bids[p] in self.hands[p] for p in range(k)), "each bid is a card of its seat's hand"
            if self.points_order == "descending":
                assert self.prize == max(unresolved), "descending order: the highest prize comes first"
            elif self.points_order == "ascending":
                assert self.prize == min(unresolved), "ascending order: the lowest prize comes first"


# --- JSON out ------------------------------------------------------------------------------------

def position_to_dict(pos: Position, seat: int | None = None) -> dict[str, Any]:
    """The position as a JSON-ready dict, full (`seat` None) or as 0-based seat `seat` sees it."""
    seats = []
    for p in range(pos.num_players):
        bid: int | str | None = pos.bids[p] or None
        if bid is not None and seat is not None and p != seat:
            bid = HIDDEN
        seats.append({"hand": list(pos.hands[p]), "bid": bid, "won": list(pos.won[p]),
                      "points": sum(pos.won[p])})
    return {
        "format": FORMAT,
        "view": None if seat is None else SEAT_LETTERS[seat],
        "players": pos.num_players,
        "num_cards": pos.num_cards,
        "points_order": pos.points_order,
        "round": pos.round,
        "phase": PHASE_NAMES[pos.phase],
        "prize": pos.prize or None,
        "prizes_left": list(pos.prizes_left),
        "seats": seats,
    }


# --- JSON in -------------------------------------------------------------------------------------

_fail, _int, _keys = POSITION.fail, POSITION.int, POSITION.keys


def _cards(value: object, field: str, num_cards: int) -> list[int]:
    if not isinstance(value, list):
        raise _fail(field, f"expected a list of cards 1..{num_cards}, got {value!r}")
    out = [_int(c, f"{field}[{i}]", 1, num_cards) for i, c in enumerate(value)]
    if len(set(out)) != len(out):
        raise _fail(field, f"a card appears twice in {out}")
    return sorted(out)


def position_from_json(text: object, expect: tuple[int, int, str] | None = None) -> Position:
    """Parse and validate a position JSON text (full or one-seat view); return the `Position`.

    Args:
        expect: (players, num_cards, points_order) the position must have (a Game's), or None.

    Raises:
        TypeError: `text` is not a str.
        PositionError: not JSON, too long, or a field is missing, unknown or wrong (named).
    """
    return position_from_dict(parse_position_json(text, MAX_JSON_CHARS), expect)


def position_from_dict(root: object, expect: tuple[int, int, str] | None = None) -> Position:
    """Build a validated `Position` from a position dict (see `position_from_json`)."""
    d = POSITION.head(root, FORMAT, TOP_FIELDS)
    n = _int(d["players"], "players", MIN_PLAYERS, MAX_PLAYERS)
    num_cards = _int(d["num_cards"], "num_cards", MIN_CARDS, MAX_CARDS)
    order = d["points_order"]
    if order not in POINTS_ORDERS:
        raise _fail("points_order", f"expected one of {', '.join(POINTS_ORDERS)}, got {order!r}")
    try:
        check_config(n, num_cards, order)
    except OptionError as e:    # cannot happen after the checks above; kept as a PositionError
        raise PositionError(f"position: {e}") from None
    POSITION.same_config(("players", "num_cards", "points_order"), (n, num_cards, order), expect)
    view_value = d["view"]
    if view_value is None:
        view = None
    elif isinstance(view_value, str) and len(view_value) == 1 and view_value in SEAT_LETTERS[:n]:
        view = SEAT_LETTERS.index(view_value)
    else:
        raise _fail("view", f"expected null or a seat letter {', '.join(SEAT_LETTERS[:n])}, got {view_value!r}")

    pos = Position(n, num_cards, order)
    hidden: list[int] = []
    for p, (field, entry) in enumerate(POSITION.seats(d["seats"], n, SEAT_FIELDS)):
        pos.hands[p] = _cards(entry["hand"], f"{field}.hand", num_cards)
        pos.won[p] = _cards(entry["won"], f"{field}.won", num_cards)
        points = _int(entry["points"], f"{field}.points", 0, num_cards * (num_cards + 1) // 2)
        if points != sum(pos.won[p]):
            raise _fail(f"{field}.points", f"{points}, but the prizes won {pos.won[p]} sum to {sum(pos.won[p])}")
        bid = entry["bid"]
        if bid is None:
            pos.bids[p] = 0
        elif bid == HIDDEN:
            if view is None or p == view:
                raise _fail(f"{field}.bid", "a hidden bid '?' is only allowed for other seats in a one-seat view")
            hidden.append(p)
            pos.bids[p] = -1
        else:
            pos.bids[p] = _int(bid, f"{field}.bid", 1, num_cards)
            if view is not None and p != view:
                raise _fail(f"{field}.bid", f"seat {SEAT_LETTERS[view]}'s view cannot see seat "
                                            f"{SEAT_LETTERS[p]}'s bid: write it '?'")
            if bid not in pos.hands[p]:
                raise _fail(f"{field}.bid", f"card {bid} is not in the seat's hand {pos.hands[p]}")

    h = len(pos.hands[0])
    for p in range(1, n):
        if len(pos.hands[p]) != h:
            raise _fail(f"seats[{p}].hand", f"{len(pos.hands[p])} cards, but seat A holds {h}: "
                                            "every seat plays one card a round")
    if h == 1:
        raise _fail("seats[0].hand", "one card per hand: the last round plays itself, so no position has it")
    round_ = _int(d["round"], "round", 0, num_cards)
    if round_ != num_cards - h:
        raise _fail("round", f"{round_}, but the hands hold {h} of {num_cards} cards (round {num_cards - h})")

    pos.prizes_left = _cards(d["prizes_left"], "prizes_left", num_cards)
    prize = d["prize"]
    pos.prize = 0 if prize is None else _int(prize, "prize", 1, num_cards)
    if pos.prize in pos.prizes_left:
        raise _fail("prize", f"prize {pos.prize} is also in prizes_left")
    unresolved = pos.prizes_left + ([pos.prize] if pos.prize else [])
    if len(unresolved) != h:
        raise _fail("prizes_left", f"{len(unresolved)} prizes unresolved (with the current one), "
                                   f"but {h} cards in each hand")
    seen = set(unresolved)
    for p in range(n):
        twice = seen & set(pos.won[p])
        if twice:
            raise _fail(f"seats[{p}].won", f"prize {min(twice)} is also elsewhere (unresolved or won by another seat)")
        seen |= set(pos.won[p])

    if h == 0 or pos.prize == 0:
        if any(pos.bids):
            where = "after the end" if h == 0 else "before the prize is revealed"
            p = next(p for p in range(n) if pos.bids[p])
            raise _fail(f"seats[{p}].bid", f"no bids {where}")
        if h > 0 and order != "random":
            raise _fail("prize", f"null, but with points_order {order!r} the prize is revealed by itself")
    else:
        k = next((p for p in range(n) if pos.bids[p] == 0), n)
        if k == n:
            raise _fail(f"seats[{n - 1}].bid", "every seat has bid: the round would have resolved")
        later = [p for p in range(k, n) if pos.bids[p]]
        if later:
            raise _fail(f"seats[{later[0]}].bid", f"seat {SEAT_LETTERS[k]} bids before seat {SEAT_LETTERS[later[0]]}")
        if order == "descending" and pos.prize != max(unresolved):
            raise _fail("prize", f"{pos.prize}, but in descending order the prize is the highest left ({max(unresolved)})")
        if order == "ascending" and pos.prize != min(unresolved):
            raise _fail("prize", f"{pos.prize}, but in ascending order the prize is the lowest left ({min(unresolved)})")
    phase = d["phase"]
    if phase != PHASE_NAMES[pos.phase]:
        raise _fail("phase", f"{phase!r}, but the position is at {PHASE_NAMES[pos.phase]!r}")
    for p in hidden:   # a deterministic consistent sample of a hidden bid
        pos.bids[p] = pos.hands[p][0]
    return pos


def position_to_json(pos: Position, seat: int | None = None, indent: int | None = None) -> str:
    """`position_to_dict` as JSON text."""
    return json.dumps(position_to_dict(pos, seat), indent=indent)


__all__ = ["FORMAT", "HIDDEN", "Position", "position_from_dict", "position_from_json", "position_to_dict",
           "position_to_json", "PHASE_BID", "PHASE_CHANCE", "PHASE_OVER"]
