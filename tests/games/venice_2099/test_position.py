"""Venice 2099 positions: the `venice-2099-position/1` JSON, its schema, one-seat views that hide the hands
and the set-aside pile, strict validation with one-line errors naming the field, and the text board."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from burano_ai.core.errors import PositionError
from burano_ai.games import get_spec
from burano_ai.games.venice_2099.position import position_from_dict
from burano_ai.games.venice_2099.reference import Game
from positions import check_every_view, random_game_states, set_item

ROOT = Path(__file__).resolve().parents[3]
jsonschema = pytest.importorskip("jsonschema")
SCHEMA = json.loads((ROOT / "docs" / "venice-2099-position.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
SPEC = get_spec("venice-2099")


def positions(n, seed=0, every=7, options=None):
    """Every `every`-th state of a seeded random game, and the last (one state advanced in place)."""
    return random_game_states(n, seed, every, lambda players: Game(players, options))


def test_the_schema_is_valid_and_accepts_every_position_of_random_games_full_and_viewed():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    count = 0
    for n, options in ((2, None), (3, {"treasure_supply": 0}), (4, None), (5, {"forecast_values": "2-8"})):
        for s in positions(n, seed=n, every=11, options=options):
            count += check_every_view(VALIDATOR, s)
    assert count > 300


def test_a_seat_sees_its_own_hand_only_and_nobody_sees_the_set_aside_cards():
    for s in positions(4, seed=3, every=23):
        if s.phase == 0:
            continue
        for seat in range(4):
            view = s.to_dict(seat)
            assert view["set_aside"] is None
            for p, entry in enumerate(view["seats"]):
                assert (entry["hand"] is not None) == (p == seat)
                assert entry["hand_size"] == len(s.hands[p])
            back = s.game.state_from_json(s.to_json(seat))
            assert back.to_json(seat) == s.to_json(seat)
            assert back.information_state_key(seat) == s.information_state_key(seat)
            back.check()


def _mid_game(n=3, seed=9):
    return next(s for i, s in enumerate(positions(n, seed=seed, every=1)) if i > 150 and s.phase == 2).to_dict()


def _set(path, value):
    return lambda d: set_item(d, path, value)


@pytest.mark.parametrize("edit, field", [
    (lambda d: d.update(players=6), "position.players"),
    (lambda d: d.update(extra=1), "position.extra"),
    (lambda d: d.pop("supply"), "position.supply"),
    (lambda d: d.update(phase="bidding"), "position.phase"),
    (lambda d: d.update(to_move="C"), "position.to_move"),
    (lambda d: d.update(turn=d["turn"] + 1), "position.turn"),
    (lambda d: d["options"].update(move_dirs=5), "position.options"),
    (lambda d: d.update(removed_colour="P"), "position.removed_colour"),
    (lambda d: d.update(board=d["board"][:7]), "position.board"),
    (lambda d: d["board"][0].__setitem__(0, "Q5"), "position.board.a1"),
    (lambda d: d["board"][0].__setitem__(0, "~==" ), "position.board.a1"),
    (lambda d: d["coins_on"].update(a1=2), "position.coins_on"),
    (lambda d: d["coins_on"].update(z9=1), "position.coins_on.z9"),
    (lambda d: d.update(coins_sunk=d["coins_sunk"] + 1), "position.coins_sunk"),
    (lambda d: d["supply"].update(K=d["supply"]["K"] - 1), "position.supply.K"),
    (lambda d: d.update(moved=["move"]), "position.moved"),
    (lambda d: d["played"].append(["A", "K3"]), "position.played"),
    (lambda d: d["played"][0].__setitem__(1, "K2"), "position.played[0][1]"),
    (lambda d: d.update(set_aside=d["set_aside"][1:]), "position.set_aside"),
    (lambda d: d["seats"][0].update(coins=-1), "position.seats[0].coins"),
    (lambda d: d["seats"][1].update(gondolas=3), "position.seats[1].gondolas"),
    (lambda d: d["seats"][1].update(hand_size=d["seats"][1]["hand_size"] + 1), "position.seats[1].hand_size"),
    (lambda d: d["seats"][2]["hand"].pop(), "position.seats[2].hand_size"),
    (lambda d: d["seats"][0]["tokens"].update(K=11), "position.supply.K"),
    (lambda d: d["seats"][0]["figures"].__setitem__(0, "water"), "position.phase"),
    (lambda d: d["seats"][0]["figures"].__setitem__(0, None), "position.seats"),
    (lambda d: d["seats"][0].update(figures=["a1"]), "position.seats[0].figures"),
    (lambda d: d["seats"][0].pop("hand"), "position.seats[0].hand"),
    (lambda d: d.update(view="A"), "position.seats[1].hand"),
])
def test_a_malformed_or_impossible_position_is_one_line_naming_the_field(edit, field):
    d = _mid_game()
    edit(d)
    with pytest.raises(PositionError) as info:
        position_from_dict(d)
    message = str(info.value)
    assert message.startswith(field), message
    assert "\n" not in message


def test_impossible_combinations_of_valid_fields_are_refused():
    d = _mid_game()
    # two figures on one square
    squares = [x for seat in d["seats"] for x in seat["figures"] if x not in (None, "lost", "water")]
    bad = copy.deepcopy(d)
    bad["seats"][1]["figures"][0] = squares[0]
    if bad["seats"][1]["figures"][0] != d["seats"][1]["figures"][0]:
        with pytest.raises(PositionError, match="one figure per square"):
            position_from_dict(bad)
    # a card played but its district still standing
    bad = copy.deepcopy(d)
    last = bad["played"][-1][1]
    for row in bad["board"]:
        for i, cell in enumerate(row):
            if cell == "~" + last:
                row[i] = last
    with pytest.raises(PositionError, match="has not sunk"):
        position_from_dict(bad)
    # a seat holding a card below its last play (the lowest card is played first)
    bad = copy.deepcopy(d)
    seat = next(p for p in range(3) if any(q == "ABC"[p] for q, _ in bad["played"]))
    played = [k for q, k in bad["played"] if q == "ABC"[seat]]
    aside = bad["set_aside"]
    low = next((k for k in aside if "3456789X".index(k[1]) < "3456789X".index(played[-1][1])), None)
    if low is not None:
        hand = bad["seats"][seat]["hand"]
        aside[aside.index(low)] = hand[-1]
        hand[-1] = low
        bad["set_aside"] = sorted(aside)
        with pytest.raises(PositionError, match="below its last play"):
            position_from_dict(bad)


def test_the_text_board_fits_80_by_24_for_every_player_count():
    for n in (2, 3, 4, 5):
        for s in positions(n, seed=n, every=17):
            for seat in (None, 0):
                text = SPEC.render(s.to_dict(seat))
                lines = text.rstrip("\n").split("\n")
                assert len(lines) <= 24 and max(len(line) for line in lines) <= 80, text
                if seat is not None:
                    line_b = next(line for line in lines if line[1:3] == "B ")
                    assert line_b.endswith(f"hand ({len(s.hands[1])} cards)"), line_b
