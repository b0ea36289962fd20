"""Goofspiel's encoder in readable Python: the features of a position for a learned evaluation.

The compiled core's `encode` (src_cython/burano_ai/games/goofspiel/_encode.pxi, which documents the
layout) computes the same floats in C inside the search; this form reads a full position's JSON
(`State.to_dict()`, either implementation) and is what training and the tests compare it with.
Seats are relative to `seat`: `seat` first, then the seats after it in turn order.
"""

from __future__ import annotations

from typing import Any, Mapping

ENCODER_VERSION = 1
MAX_PLAYERS = 5
SEAT_FEATURES = 19
NUM_FEATURES = 24 + MAX_PLAYERS * SEAT_FEATURES


def num_features(num_players: int) -> int:
    return NUM_FEATURES


def encode(position: Mapping[str, Any], seat: int) -> list[float]:
    """The features of the full position `position` (a `to_dict()` without a seat) from `seat`'s side."""
    n = position["players"]
    out = [0.0] * NUM_FEATURES
    prize = position["prize"] or 0
    out[0] = prize / 16.0
    for c in position["prizes_left"]:
        out[c] = 1.0
    out[17] = position["round"] / 16.0
    out[18] = (sum(position["prizes_left"]) + prize) / 136.0
    seats = position["seats"]
    if position["phase"] == "bid":
        bidder = next((p for p in range(n) if seats[p]["bid"] is None), None)
        if bidder is not None:
            out[19 + (bidder - seat) % n] = 1.0
    for k in range(n):
        p = (seat + k) % n
        base = 24 + k * SEAT_FEATURES
        s = seats[p]
        for c in s["hand"]:
            out[base + c - 1] = 1.0
        out[base + 16] = s["points"] / 136.0
        if s["bid"] is not None:
            out[base + 16 + 1] = 1.0
            out[base + 18] = s["bid"] / 16.0
            out[base + s["bid"] - 1] = 1.0      # the hand as at the round's start: the bid card still in it
    return out
