"""Tests of burano_ai.games.burano.notation (position JSON, validation, one-seat views) and burano_ai.games.burano.render.

Bad inputs must raise a narrow ValueError subclass whose message names the offending field or move; full
positions must survive a JSON round trip exactly; a one-seat view must hide what the seat cannot know.
"""

import copy
import json
import random
import re
from importlib import resources
from pathlib import Path

import pytest

from burano_ai.core.errors import BuranoError, IllegalMoveError, OptionError, PositionError
from burano_ai.games.burano.notation import position_from_dict, position_from_json, position_to_dict
from burano_ai.random_play import random_step
from burano_ai.games.burano.reference import Game
from burano_ai.games.burano.render import render_legal_actions, render_state

from positions import random_game_states

EXAMPLE = resources.files("burano_ai.games.burano.data").joinpath("examples/midgame-4p-C.json")
DOC = Path(__file__).resolve().parents[3] / "docs" / "position-format.md"


def load_state(text: str):
    """A reference State loaded from position JSON (full or one-seat view)."""
    return Game(json.loads(text)["players"]).state_from_json(text)


def start_dict(num_players: int = 4, seed: int = 1) -> dict:
    """A full position dict in the rounds: play a random game until its first turn decision."""
    state = Game(num_players).new_initial_state(seed)
    rng = random.Random(seed)
    while state.to_dict()["phase"] != "turn":
        random_step(state, rng)
    return position_to_dict(state)


def raises_position_error(data: dict, *fragments: str) -> str:
    with pytest.raises(PositionError) as info:
        position_from_dict(data)
    message = str(info.value)
    assert isinstance(info.value, ValueError)
    for fragment in fragments:
        assert fragment in message, message
    return message


# ------------------------------------------------------------------------------------------------
# Bad input at the API level


def test_malformed_json_raises_position_error():
    with pytest.raises(PositionError, match="malformed JSON"):
        position_from_json('{"format": "burano-position/1", ')


def test_non_object_json_raises_position_error():
    with pytest.raises(PositionError, match="expected an object"):
        position_from_json("[1, 2, 3]")


def test_121_cubes_are_rejected():
    data = start_dict()
    in_play = 120 - sum(position_from_dict(data).supply())
    seat = data["seats"][0]
    reserve = seat["reserve"] or {}
    # Top the seat's reserve up, colour by colour, until the game holds one cube too many.
    need = 121 - in_play
    for colour in ("pink", "blue", "yellow", "green", "orange", "white"):
        add = min(need, 20)
        reserve[colour] = reserve.get(colour, 0) + add
        need -= add
    seat["reserve"] = reserve
    raises_position_error(data, "121 cubes", "120")


def test_too_many_cubes_of_one_colour_are_rejected():
    data = start_dict()
    data["seats"][1]["prep"] = {"pink": 3}
    data["seats"][0]["reserve"] = {"pink": 20}
    raises_position_error(data, "pink cubes", "20")


@pytest.mark.parametrize("square, problem", [("r9c9", "not a workshop square"),
                                             ("r2c1", "empty in this layout")])
def test_worker_on_a_missing_square_is_rejected(square, problem):
    data = start_dict(4)
    seat = data["seats"][0]
    seat["workshop"] = seat["workshop"] + [square]
    seat["ring"]["workers"] -= 1
    raises_position_error(data, "seats[0].workshop", square, problem)


def test_bad_player_count_is_rejected():
    data = start_dict()
    data["players"] = 5
    raises_position_error(data, "position.players", "5")
    with pytest.raises(OptionError, match="num_players"):
        Game(5)


def test_bad_seat_for_a_view_is_rejected():
    state = Game(2).new_initial_state(0)
    with pytest.raises(PositionError, match="seat 3"):
        position_to_dict(state, 3)
    data = position_to_dict(state, 0)
    data["view"] = "E"
    raises_position_error(data, "position.view", "'E'")


def test_worker_count_must_be_ten():
    data = start_dict()
    data["seats"][2]["ring"]["workers"] += 1
    raises_position_error(data, "seats[2]", "11 workers")


def test_sixth_fish_of_a_species_is_the_limit():
    data = start_dict()
    data["seats"][0]["sold"] = {"tuna": 7}
    raises_position_error(data, "tuna", "6")


def test_missing_field_is_named():
    data = start_dict()
    del data["docks"]
    raises_position_error(data, "position.docks", "missing")


def test_unknown_name_is_named():
    data = start_dict()
    data["seats"][1]["boat"] = "I9"
    raises_position_error(data, "position.seats[1].boat", "'I9'")


def test_roof_without_cubes_is_rejected():
    data = start_dict()
    data["island"]["roofs"].append({"level": 1, "cells": ["a1", "c1"], "fields": ["blue", "pink"],
                                    "kind": "flat"})
    raises_position_error(data, "roofs", "a1")


def test_unparseable_move_raises_illegal_move_error():
    state = Game(2).new_initial_state(0)
    with pytest.raises(IllegalMoveError, match="'fly away'"):
        state.play("fly away")


def test_parseable_but_illegal_move_raises_illegal_move_error():
    state = Game(2).new_initial_state(0)
    with pytest.raises(IllegalMoveError, match=re.escape("illegal move 'build pink@e3'")):
        state.play("build pink@e3")
    assert issubclass(IllegalMoveError, BuranoError) and issubclass(IllegalMoveError, ValueError)


def test_play_accepts_a_legal_move_text():
    state = Game(2).new_initial_state(0)
    text = state.action_to_string(state.legal_actions()[0])
    assert state.play(text.upper()) in Game(2).new_initial_state(0).legal_actions()


# ------------------------------------------------------------------------------------------------
# Round trips and views


@pytest.mark.parametrize("num_players, seed", [(2, 1), (3, 2), (4, 3)])
def test_full_json_round_trip_is_exact(num_players, seed):
    checked = set()
    for state in random_game_states(num_players, seed, every=7):
        data = position_to_dict(state)
        loaded = load_state(json.dumps(data))
        assert position_to_dict(loaded) == data
        assert loaded.legal_actions() == state.legal_actions()
        assert loaded.chance_outcomes() == state.chance_outcomes()
        checked.add(data["phase"])
    assert {"roof-pick", "pyramid", "turn", "chance", "game-over"} <= checked


@pytest.mark.parametrize("num_players, seed", [(2, 5), (4, 6)])
def test_view_round_trip_is_exact(num_players, seed):
    for state in random_game_states(num_players, seed, every=11):
        for seat in range(num_players):
            view = position_to_dict(state, seat)
            assert position_to_dict(position_from_json(json.dumps(view)), seat) == view


def test_view_hides_other_seats_blind_cards_and_the_deck():
    state = None
    for state in random_game_states(4, 8):
        if sum(sum(pl.hand_blind) for pl in state.players[1:]) >= 2:
            break
    full = position_to_dict(state)
    view = position_to_dict(state, 0)
    assert view["view"] == "A" and full["view"] is None
    assert isinstance(view["seats"][0]["hand"]["blind"], dict)
    for p in range(1, 4):
        blind = view["seats"][p]["hand"]["blind"]
        assert blind == sum(state.players[p].hand_blind)
        assert view["seats"][p]["hand"]["known"] == full["seats"][p]["hand"]["known"]
    assert "fish_deck" not in view and "fish_deck" not in full
    assert view["fish_deck_size"] == full["fish_deck_size"] == sum(state.fish_deck())
    # Nothing else differs: the board is public.
    for key in full:
        if key not in ("view", "seats"):
            assert view[key] == full[key], key


def test_view_hides_other_pyramids_during_construction():
    state = None
    for state in random_game_states(3, 4):
        if state.to_dict()["stage"] == "pyramid" and state.pyramid_count(state.actor) >= 3:
            break
    builder = state.actor
    other = (builder + 1) % 3
    seen_by_other = position_to_dict(state, other)["seats"][builder]
    assert seen_by_other["pyramid"] is None and seen_by_other["reserve"] is None
    assert seen_by_other["placed"] == state.pyramid_count(builder)
    assert sum(seen_by_other["cubes"].values()) == sum(state.players[builder].reserve) + state.pyramid_count(builder)
    assert position_to_dict(state, builder)["seats"][builder]["pyramid"] is not None
    text = render_state(state, other)
    assert "pyramid hidden" in text
    # The view loads, and the builder's placed cubes are a consistent sample.
    loaded = position_from_json(json.dumps(position_to_dict(state, other)))
    assert loaded.pyramid_count(builder) == state.pyramid_count(builder)


def test_information_state_key_ignores_hidden_cards():
    state = None
    for state in random_game_states(2, 9):
        if sum(state.players[1].hand_blind) >= 1:
            break
    resampled = state.resample(0, seed=3)
    assert resampled.information_state_key(0) == state.information_state_key(0)


# ------------------------------------------------------------------------------------------------
# The example position


def test_example_position_loads_and_is_consistent():
    text = EXAMPLE.read_text(encoding="utf-8")
    state = load_state(text)
    data = json.loads(text)
    assert data["view"] == "C" and data["players"] == 4
    assert state.current_player() == 2 and state.to_dict()["phase"] == "turn"
    assert 120 - sum(state.supply()) <= 120 and min(state.supply()) >= 0
    assert min(state.fish_deck()) >= 0
    for p in range(4):
        assert state.players[p].ring_workers + state.workers_off_ring(p) == 10
    # The view written back equals the file (the file omits the context block of a turn start).
    view = position_to_dict(state, 2)
    del view["context"]
    assert view == data
    assert len(state.legal_actions()) > 10


def test_example_in_the_docs_matches_the_shipped_file():
    doc = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```json\n(.*?)```", doc, flags=re.S)
    assert blocks, "docs/position-format.md has no json example"
    assert json.loads(blocks[-1]) == json.loads(EXAMPLE.read_text(encoding="utf-8"))


# ------------------------------------------------------------------------------------------------
# Rendering


def test_render_full_and_seat_views_through_a_game():
    phases = set()
    for state in random_game_states(4, 11, every=3):
        phases.add(state.to_dict()["phase"])
        full = render_state(state)
        assert full == str(state)
        assert max(len(line) for line in full.splitlines()) <= 120
        for seat in range(4):
            text = render_state(state, seat)
            assert f"view of seat {'ABCD'[seat]}" in text
        assert render_legal_actions(state).strip()
    assert {"roof-pick", "pyramid", "turn", "chance", "game-over"} <= phases
    winners = " ".join("ABCD"[p] for p in state.winners())
    assert f"game over; winners {winners})" in render_state(state)
    assert "game is over" in render_legal_actions(state)


def test_render_shows_blind_cards_as_a_count_to_other_seats():
    state = load_state(EXAMPLE.read_text(encoding="utf-8"))
    text = render_state(state, 2)
    assert "blind: 2 cards (unseen)" in text     # seat B, seen by C
    assert "blind: tuna, eel" in text            # C's own blind cards
    lines = text.splitlines()
    assert len(lines) <= 60
    assert all(len(line) <= 120 for line in lines)
    assert "b1*" not in text and "y1*" in text    # the fountain hole holds the yellow setup cube (lower-case: a colour)
    moves = render_legal_actions(state)
    assert "legal moves for C" in moves and "roof 1 c5-c3" in moves


def test_render_is_stable():
    state = Game(3).new_initial_state(2)
    assert render_state(state) == render_state(copy.deepcopy(state)) == render_state(state.clone())


def test_more_checks_on_load_name_the_field():
    import json as _json
    from burano_ai.games.burano.reference import Game as _Game
    state = _Game(4).new_initial_state(1)
    d = state.to_dict()
    d["fish_display"] = ["tuna", "tuna", "eel", "eel"]
    with pytest.raises(PositionError, match="fish_display"):
        _Game(4).state_from_json(_json.dumps(d))
    d = state.to_dict()
    d["phase"], d["stage"] = "fish-draw", "rounds"
    del d["context"]
    with pytest.raises(PositionError, match="context"):
        _Game(4).state_from_json(_json.dumps(d))
