"""The services side of the conformance suite, over every registered game (compiled implementation).

A game played between bots in a `GameSession` makes a record that replays to the same final state
through JSON; every seat's one-seat export replays to the seat's own view at every step it could
count; a query with the game's position over the engine protocol's real pipes answers a legal move.
(The web board's smoke over every game is `tests/web/test_web_api.py`.)
"""

from __future__ import annotations

import json

import pytest

from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.games import all_specs
from burano_ai.record import GameRecord
from burano_ai.search import Limit
from burano_ai.session import GameSession

SPECS = [pytest.param(spec, id=spec.key) for spec in all_specs()]


def finished_session(spec, players: int, seed: int) -> GameSession:
    session = GameSession(players, seed, ["random"] * players, game=spec.key)
    session.advance()
    assert session.is_over()
    return session


@pytest.mark.parametrize("spec", SPECS)
def test_a_record_replays_and_its_exports_show_each_seat_its_view(spec):
    players = spec.min_players
    session = finished_session(spec, players, seed=3)
    record = GameRecord.from_json(session.record.to_json())
    assert record.game == spec.key
    assert record.replay().to_dict() == session.state.to_dict()
    winners = [SEAT_LETTERS[p] for p, share in enumerate(session.state.returns()) if share == max(session.state.returns())]
    assert record.result["winners"] == winners
    # Cut the game where something is still hidden from someone, then export it seat by seat.
    cut = None
    for ply in range(len(record.steps) - 1, 0, -1):
        trial = GameRecord.from_dict(record.to_dict())
        trial.truncate(ply)
        state = trial.replay()
        if any(state.to_json(seat) != state.resample(seat, 1).to_json(seat) or
               state.resample(seat, 1).to_json() != state.to_json() for seat in range(players)):
            cut = trial
            break
    assert cut is not None or "hidden_information" not in spec.capabilities
    cut = cut or record
    truth = cut.replay()
    for seat in range(players):
        export = cut.for_seat(SEAT_LETTERS[seat])
        assert export.game == spec.key
        assert export.replay().to_json(seat) == truth.to_json(seat)
        for step in export.steps:
            assert spec.narrate_step(step, step.hidden)


@pytest.mark.parametrize("spec", SPECS)
def test_a_query_with_the_game_s_position_over_real_pipes(spec):
    from burano_ai.client import Engine
    session = GameSession(spec.default_players, 7, ["human"] + ["random"] * (spec.default_players - 1),
                          game=spec.key)
    session.advance()                          # chance and bots until seat A decides
    state = session.state
    seat = state.current_player()
    assert seat == 0
    view = json.loads(state.to_json(seat))
    with Engine.popen(threads=1) as engine:
        assert spec.key in [g["game"] for g in engine.games()]
        result = engine.analyse(view, Limit(iterations=60), seed=1)
    assert state.string_to_action(result.move) in state.legal_actions()
    assert result.iterations == 60


@pytest.mark.parametrize("spec", SPECS)
def test_every_step_is_narrated_with_its_changes_and_the_end_with_its_result(spec):
    """A game's narration (`GameSpec.step_effects`, `describe_result`, `describe_move`): the effects of a
    record's steps are the session's, every seat reads a narration of every step, and the last step
    tells the result."""
    from burano_ai.record import narrate_step, record_narration
    players = spec.min_players
    session = finished_session(spec, players, seed=5)
    words, effects = record_narration(GameRecord.from_json(session.record.to_json()))
    assert len(effects) == len(words) == len(session.record.steps)
    assert [[e.text for e in es] for es in effects] == [[e.text for e in es] for es in session.effects]
    for seat in range(players):
        for step, es, w in zip(session.record.steps, effects, words):
            assert narrate_step(step, seat, spec.key, es, w)
    result = spec.describe_result(session.state)
    assert result and all(line in [e.text for e in effects[-1]] for line in result)
