"""Walking in Burano's encoder in readable Python: a position's features for a learned evaluation.

The compiled core's `encode` (src_cython/burano_ai/games/walking_in_burano/_encode.pxi, which documents
the layout) computes the same floats in C inside the search; this form reads a full position's JSON
(`State.to_dict()`, either implementation) and takes the §11 totals from the reference model (`scores()`
of the position loaded into it). Seats are relative to `seat` (`seat` first).
"""

from __future__ import annotations

from typing import Any, Mapping

ENCODER_VERSION = 2
MAX_PLAYERS = 4
GLOBAL_FEATURES = 39
SEAT_FEATURES = 23
NUM_FEATURES = GLOBAL_FEATURES + MAX_PLAYERS * SEAT_FEATURES
PHASES = ("deal", "first", "acquire", "build", "visit", "return", "refill", "over")
SEAT_LETTERS = "ABCD"
CARDS_PER_LEVEL = 24


def num_features(num_players: int) -> int:
    return NUM_FEATURES


def _totals(position: Mapping[str, Any]) -> list[float]:
    from burano_ai.games.walking_in_burano.spec import SPEC
    state, _ = SPEC.load_position(position, SPEC.game_class("reference"))
    return list(state.scores())


def _cards(position: Mapping[str, Any]):
    from burano_ai.games.walking_in_burano.data import data_from_dict, default_data
    return (default_data() if position.get("data") is None else data_from_dict(position["data"])).cards


def _symbols(card) -> int:
    return card.plants + card.flowers + card.cats + len(card.curtains) + card.lanterns + card.chimneys


def encode(position: Mapping[str, Any], seat: int) -> list[float]:
    """The features of the full position `position` (a `to_dict()` without a seat) from `seat`'s side."""
    n = position["players"]
    out = [0.0] * NUM_FEATURES
    cards = _cards(position)

    def rel(letter: str) -> int:
        return (SEAT_LETTERS.index(letter) - seat) % n

    out[PHASES.index(position["phase"])] = 1.0
    out[8] = (position["round"] - 1) / 30.0       # the JSON counts rounds from 1
    if position["to_move"] is not None:
        out[9 + rel(position["to_move"])] = 1.0
    if position["first_player"] is not None:
        out[13 + rel(position["first_player"])] = 1.0
    out[17] = 1.0 if position["last_round"] else 0.0
    out[18] = position["placed"] / 3.0
    for level, deck in enumerate(position["decks"]):
        out[19 + level] = (deck["shuffled"] + len(deck["under"])) / 24.0
        out[33 + level] = sum(1 for card in position["market"][level] if card is not None) / 5.0
        out[36 + level] = sum(_symbols(cards[card]) for card in position["market"][level] if card is not None) / 20.0
    for c, left in enumerate(position["characters"].values()):
        out[22 + c] = left / 2.0
    totals = _totals(position)
    for k in range(n):
        p = (seat + k) % n
        s = position["seats"][p]
        base = GLOBAL_FEATURES + k * SEAT_FEATURES
        out[base] = totals[p] / 50.0
        out[base + 1] = s["coins"] / 6.0
        out[base + 2] = s["tokens"] / 4.0
        street = s["street"]
        out[base + 3] = len(street) / 5.0
        floors = [sum(1 for f in house["floors"] if f is not None) for house in street]
        out[base + 4] = sum(floors) / 15.0
        out[base + 5] = sum(1 for f in floors if f == 3) / 5.0
        out[base + 6] = sum(1 for house in street if house["character"] is not None) / 5.0
        for card in s["hand"]:
            out[base + 7 + card // CARDS_PER_LEVEL] += 1.0 / 3.0
            out[base + 21] += _symbols(cards[card]) / 20.0
            if cards[card].shop_type >= 0:
                out[base + 22] += 1.0 / 3.0
        out[base + 10] = sum(1 for house in street if house["pending"]) / 5.0
        for house in street:
            for f in house["floors"]:
                if isinstance(f, int):
                    c = cards[f]
                    for i, v in enumerate((c.passersby, c.plants, c.flowers, c.cats, len(c.curtains), c.lanterns,
                                           c.chimneys, c.closed_windows)):
                        out[base + 11 + i] += v / 10.0
                    if c.shop_type >= 0:
                        out[base + 19] += 1.0 / 5.0
                        out[base + 20] += c.shop_vp / 20.0
    return out
