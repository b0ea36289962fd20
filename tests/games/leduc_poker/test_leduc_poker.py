"""Leduc poker (burano_ai/games/leduc_poker/): game for game against pyspiel's `leduc_poker`, its views."""

from __future__ import annotations

import pytest

from burano_ai.games import get_spec
from tests.openspiel_lockstep import check_against_pyspiel

pytest.importorskip("pyspiel")
SPEC = get_spec("leduc-poker")


@pytest.mark.parametrize("players", [2, 3])
def test_agrees_with_pyspiel(players):
    counts = check_against_pyspiel(SPEC, "leduc_poker", players, games=400, seed=players)
    assert counts["games"] == 400 and counts["chance"] >= 400 * players


def test_a_hand_in_words():
    state = SPEC.new_game(2).new_initial_state()
    for text in ("deal Ks", "deal Jh", "raise", "call", "board Js", "call", "raise", "call"):
        state.play(text)
    assert state.is_terminal() and state.returns() == [-7.0, 7.0]     # B pairs the board
    assert state.to_dict(0)["history"][1] == "deal Jh"


def test_a_fold_keeps_the_other_card_hidden():
    state = SPEC.new_game(2).new_initial_state()
    for text in ("deal Ks", "deal Jh", "raise", "fold"):
        state.play(text)
    assert state.returns() == [1.0, -1.0]
    assert state.to_dict(0)["history"] == ["deal Ks", "?", "raise", "fold"]
    world = state.resample(0, 3)
    assert world.to_dict(0) == state.to_dict(0) and world.returns() == state.returns()


@pytest.mark.parametrize("moves, hidden", [
    (("deal Ks", "deal Jh", "raise", "call", "board Js", "call", "raise", "call"), set()),   # the showdown shows both
    (("deal Ks", "deal Jh", "raise", "fold"), {1}),                                          # a fold shows nothing
])
def test_one_seat_exports_replay_to_the_result(moves, hidden):
    from burano_ai.record import GameRecord
    record = GameRecord.new(2, game="leduc-poker")
    state = record.initial_state()
    for text in moves:
        record.add(state, state.string_to_action(text))
        state.play(text)
    record.finish(state)
    export = GameRecord.from_json(record.for_seat(0).to_json())
    assert {i for i, step in enumerate(export.steps) if step.move is None} == hidden
    assert list(export.positions())[-1][1].returns() == state.returns()
