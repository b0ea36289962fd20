"""Azul: Stained Glass of Sintra's encoder in readable Python: a position's features for a learned evaluation.

The compiled core's `encode` (src_cython/burano_ai/games/azul_sintra/_encode.pxi, which documents the
layout) computes the same floats in C inside the search; this form reads a full position's JSON
(`State.to_dict()`, either implementation). Seats are relative to `seat` (`seat` first).
"""

from __future__ import annotations

from typing import Any, Mapping

ENCODER_VERSION = 1
MAX_PLAYERS = 4
COLUMNS = 8
GLOBAL_FEATURES = 55
SEAT_FEATURES = 31
NUM_FEATURES = GLOBAL_FEATURES + MAX_PLAYERS * SEAT_FEATURES
PHASES = ("setup", "refill", "draft", "keep", "over")
SEAT_LETTERS = "ABCD"


def num_features(num_players: int) -> int:
    return NUM_FEATURES


def encode(position: Mapping[str, Any], seat: int) -> list[float]:
    """The features of the full position `position` (a `to_dict()` without a seat) from `seat`'s side."""
    n = position["players"]
    out = [0.0] * NUM_FEATURES
    colours = list(position["bag"])                     # the colour letters in colour order
    index = {c: i for i, c in enumerate(colours)}

    def rel(letter: str) -> int:
        return (SEAT_LETTERS.index(letter) - seat) % n

    out[PHASES.index(position["phase"])] = 1.0
    rnd = position["round"] - 1
    out[5] = rnd / 5.0
    if position["to_move"] is not None:
        out[6 + rel(position["to_move"])] = 1.0
    if position["starter"] is not None:
        out[10 + rel(position["starter"])] = 1.0
    if position["token"] == "centre":
        out[14] = 1.0
    else:
        out[15 + rel(position["token"])] = 1.0
    keep = (position.get("keep") or {}).get("pieces", "")
    for c, letter in enumerate(colours):
        out[19 + c] = position["bag"][letter] / 20.0
        out[24 + c] = position["tower"][letter] / 20.0
        out[29 + c] = position["centre"].count(letter) / 10.0
        out[34 + c] = keep.count(letter) / 5.0
        out[39 + c] = sum(f.count(letter) for f in position["factories"]) / 20.0
    out[44] = sum(1 for f in position["factories"] if f) / 9.0
    for k, letter in enumerate(position["indicator"]):
        if letter is None:
            continue
        if k > rnd:
            out[45 + index[letter]] += 1.0 / 6.0
        elif k == rnd:
            out[50 + index[letter]] = 1.0
    for k in range(n):
        s = position["seats"][(seat + k) % n]
        base = GLOBAL_FEATURES + k * SEAT_FEATURES
        out[base] = s["score"] / 50.0
        out[base + 1] = s["hits"] / 3.0
        out[base + 2] = s["track"] / 8.0
        out[base + 3] = (s["glazier"] - 1) / 8.0
        done = 0
        for col, column in enumerate(s["columns"]):
            for letter in column["pieces"]:
                out[base + 4 + index[letter]] += 1.0 / 10.0
            for letter in column["jokers"]:
                out[base + 9 + index[letter]] += 1.0 / 5.0
            out[base + 14 + col] = (len(column["pieces"]) + len(column["jokers"])) / 5.0
            top, bottom = column["window"]
            if top is not None:
                out[base + 22 + col] = 1.0
            if bottom is not None:
                done += 1
        out[base + 30] = done / 8.0
    return out
