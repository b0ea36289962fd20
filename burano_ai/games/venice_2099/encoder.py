"""Venice 2099's encoder in readable Python: a position's features for a learned evaluation.

The compiled core's `encode` (src_cython/burano_ai/games/venice_2099/_encode.pxi, which documents the
layout) computes the same floats in C inside the search; this form reads a full position's JSON
(`State.to_dict()`, either implementation) and takes the two §7 scores from the reference model
(`scores()` and `estimated_scores()` of the position loaded into it). Seats are relative to `seat`.
"""

from __future__ import annotations

from typing import Any, Mapping

ENCODER_VERSION = 3
MAX_PLAYERS = 5
GLOBAL_FEATURES = 31
SEAT_FEATURES = 23
NUM_FEATURES = GLOBAL_FEATURES + MAX_PLAYERS * SEAT_FEATURES
PHASES = ("setup", "place", "move", "buy", "card", "rescue", "over")
SEAT_LETTERS = "ABCDE"


def num_features(num_players: int) -> int:
    return NUM_FEATURES


def _on_board(figure: Any) -> bool:
    return isinstance(figure, str) and figure not in ("lost", "water") and len(figure) == 2


def _reference(position: Mapping[str, Any]):
    from burano_ai.games.venice_2099.spec import SPEC
    state, _ = SPEC.load_position(position, SPEC.game_class("reference"))
    return state


def _surviving(state) -> list[bool] | None:
    """The squares whose districts survive every card still in a hand (None: the board as it stands)."""
    from burano_ai.games.venice_2099 import rules
    if state.is_terminal() or state.phase == rules.PHASE_SETUP:
        return None
    doomed = {rules.card_district(k, state.options) for h in state.hands for k in h}
    return [state.is_land(s) and state.tiles[s] not in doomed for s in range(state.n * state.n)]


def encode(position: Mapping[str, Any], seat: int) -> list[float]:
    """The features of the full position `position` (a `to_dict()` without a seat) from `seat`'s side."""
    n = position["players"]
    out = [0.0] * NUM_FEATURES
    out[PHASES.index(position["phase"])] = 1.0
    if position["to_move"] is not None:
        out[7 + (SEAT_LETTERS.index(position["to_move"]) - seat) % n] = 1.0
    out[12] = len(position["played"]) / 42.0
    out[13] = sum(1 for row in position["board"] for tile in row if isinstance(tile, str) and tile.startswith("~")) / 48.0
    out[14] = position["coins_sunk"] / 50.0
    out[15] = sum(position["coins_on"].values()) / 50.0
    for c, left in enumerate(position["supply"].values()):
        out[16 + c] = 1.0 if left is None or left < 0 else left / 10.0
    out[22] = 1.0 if position["phase"] == "rescue" else 0.0
    out[23] = sum(1 for s in position["seats"] for f in s["figures"] if f is not None) / 16.0
    ref = _reference(position)
    now, estimated = list(ref.scores()), list(ref.estimated_scores())
    land = _surviving(ref)
    from burano_ai.games.venice_2099 import rules
    for sq in range(ref.n * ref.n):
        if (ref.is_land(sq) if land is None else land[sq]):
            out[25 + rules.district_colour(ref.tiles[sq])] += 1.0 / 8.0
    for k in range(n):
        p = (seat + k) % n
        s = position["seats"][p]
        base = GLOBAL_FEATURES + k * SEAT_FEATURES
        out[base] = now[p] / 50.0
        out[base + 1] = estimated[p] / 50.0
        out[base + 2] = s["coins"] / 30.0
        for c, count in enumerate(s["tokens"].values()):
            out[base + 3 + c] = count / 5.0
        out[base + 9] = s["gondolas"] / 2.0
        out[base + 10] = sum(1 for f in s["figures"] if _on_board(f)) / 4.0
        out[base + 11] = sum(1 for f in s["figures"] if f in ("lost", "water")) / 4.0
        out[base + 12] = s["hand_size"] / 10.0
        for offset, squares in ((13, None), (16, land)):
            parts = ref.final_breakdown(p, squares)
            for c, name in enumerate(("treasures", "figures", "X districts")):
                out[base + offset + c] = parts[name] / 30.0
        out[base + 21] = (now[p] - max(now[q] for q in range(n) if q != p)) / 50.0
        out[base + 22] = (estimated[p] - max(estimated[q] for q in range(n) if q != p)) / 50.0
        out[24] += s["hand_size"] / 30.0
    return out
