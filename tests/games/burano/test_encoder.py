"""Burano's encoder (src_cython/burano_ai/games/burano/_encode.pxi and burano_ai/games/burano/encoder.py) on a
hand-edited position: the documented slots hold what the layout says, from each seat's side.

tests/test_learn.py holds the C encoder equal to the Python one on random states of every player count and
checks the seat blocks rotate; this test pins the meaning of a few slots against numbers worked out by hand.
"""

from __future__ import annotations

import numpy as np
import pytest

from burano_ai.games.burano import encoder
from burano_ai.games.burano.spec import SPEC
from positions import rounds_state

G, S = encoder.GLOBAL_FEATURES, encoder.SEAT_FEATURES


@pytest.fixture(scope="module")
def position():
    """A 3-player position at the first turn of spring, seat B edited: 37 VP, 12 coins, 3 privilege, the
    Monument and two tuna in hand (face up)."""
    data = rounds_state(3, seed=4).to_dict()
    b = data["seats"][1]
    b.update(vp=37, coins=12, privilege=3, buildings=["monument"])
    b["hand"] = {"known": {"tuna": 2}, "blind": {}}
    data["building_display"] = [c for c in data["building_display"] if c != "monument"]
    del data["fish_deck_size"]                           # optional: derived from the cards elsewhere
    return data


def test_the_slots_hold_the_documented_numbers_from_every_seat(position):
    state, _ = SPEC.load_position(position)
    # B's §10 end bonus now: (12 + 3) // 5 coins, 2 fish cards in hand, 9 for the Monument = 14.
    for seat, k in ((1, 0), (0, 1), (2, 2)):          # seat B is relative seat (1 - seat) mod 3
        out = np.array(state.encode(seat))
        block = out[G + k * S:G + (k + 1) * S]
        assert block[0] == pytest.approx(0.37)           # VP / 100
        assert block[1] == pytest.approx(12 / 20)        # coins / 20
        assert block[2] == pytest.approx(3 / 10)         # privilege / 10
        assert block[3] == pytest.approx(14 / 30)        # the end bonus as it stands / 30
        assert block[4] == pytest.approx(51 / 100)       # VP + that bonus
        assert block[5] == pytest.approx(2 / 10)         # fish cards in hand / 10
        assert block[6] == pytest.approx(1 / 4)          # one species held
        assert block[7] == pytest.approx(2 / 4)          # two of it
        assert block[8] == pytest.approx(1 / 3) and block[9] == 0.0   # held twice, not three times
        assert out[0] == 1.0 and out[5 + 2] == 1.0       # spring; the stage of the rounds
        assert out[14 + (0 - seat) % 3] == 1.0           # A is to move, relative to `seat`
        assert not out[G + 3 * S:].any()                 # no fourth seat at 3 players
        assert out[50 + 9] == 0.0                        # the Monument left the display
        assert np.allclose(out, encoder.encode(position, seat), atol=1e-5)


def test_a_finished_game_has_no_end_bonus_left():
    from positions import random_game_states
    *_, last = random_game_states(2, 7, every=1000, game_class=SPEC.game_class())
    assert last.is_terminal()
    out = last.encode(0)
    for k in range(2):
        assert out[G + k * S + 3] == 0.0 and out[G + k * S + 4] == out[G + k * S]
