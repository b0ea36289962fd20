"""GameSession: people and bots, seeded chance, undo that replays the same, honest hints and views."""

from __future__ import annotations

import random

import pytest

from burano_ai.core.seats import CHANCE, TERMINAL
from burano_ai.core.errors import IllegalMoveError, OptionError
from burano_ai.record import GameRecord
from burano_ai.games.burano.reference import Game as ReferenceGame
from burano_ai.session import GameSession


def play_out(session: GameSession, seed: int, on_decision=None) -> int:
    """Advance and play the human seats at random to the end; return the number of human decisions.

    A human's choice depends on the seed and the step number only, so a game replays after an undo."""
    decisions = 0
    while True:
        session.advance()
        if session.is_over():
            return decisions
        p = session.to_move()
        if on_decision is not None:
            on_decision(session, p, decisions)
        session.play(p, random.Random(seed * 100_003 + session.ply).choice(session.legal_moves(p)))
        decisions += 1


def test_a_game_against_a_bot_is_recorded_and_replays_in_both_implementations():
    session = GameSession(2, 7, ["human", "random"])
    play_out(session, 1)
    record = GameRecord.from_json(session.record.to_json())
    assert record.result["scores"] == session.state.scores()
    assert record.replay().scores() == record.replay(game_factory=ReferenceGame).scores() == record.result["scores"]
    assert [s.player for s in record.seats] == ["human", "random"]


def test_same_seed_same_game_and_undo_replays_the_same():
    a = GameSession(3, 4, ["human", "random", "greedy"])
    b = GameSession(3, 4, ["human", "random", "greedy"])
    play_out(a, 2)
    undone = []

    def undo_sometimes(session, p, n):
        if n in (5, 17) and not undone.count(n):
            undone.append(n)
            before = session.ply
            assert session.undo(p)
            assert session.ply < before and session.to_move() == p

    play_out(b, 2, undo_sometimes)
    assert undone == [5, 17]
    # undo rewinds chance and bots, so the same human choices give the same game
    assert [s.to_dict() for s in a.record.steps] == [s.to_dict() for s in b.record.steps]


def test_undo_goes_back_to_the_previous_decision():
    session = GameSession(2, 3, ["human", "random"])
    session.advance()
    assert not session.undo(0)            # no earlier decision
    first = session.ply
    session.play(0, session.legal_moves(0)[0])
    session.advance()
    while session.to_move() != 0:
        session.advance()
    assert session.undo(0)
    assert session.ply == first and session.to_move() == 0


def test_play_checks_the_seat_and_the_move():
    session = GameSession(2, 3, ["human", "random"])
    session.advance()
    p = session.to_move()
    with pytest.raises(OptionError, match="played by random"):
        session.play(1, "done")
    with pytest.raises(IllegalMoveError):
        session.play(p, "sail I9")
    before = session.state.to_dict()
    with pytest.raises(IllegalMoveError, match="cannot parse"):
        session.play(p, "flyy")
    assert session.state.to_dict() == before
    assert session.legal_moves(1) == []


def test_hotseat_and_bad_options():
    with pytest.raises(OptionError, match="2 players need 2 seats"):
        GameSession(2, 1, ["human"])
    with pytest.raises(OptionError):
        GameSession(2, 1, ["human", "nosuchbot"])
    with pytest.raises(OptionError, match="players must be"):
        GameSession(5, 1, ["human"] * 5)
    session = GameSession(2, 1, ["human", "human"])
    session.advance()
    assert session.to_move() in (0, 1) and session.humans() == [0, 1]


def test_resume_continues_the_same_game(tmp_path):
    session = GameSession(2, 9, ["human", "random"])
    rng = random.Random(3)
    for _ in range(25):
        session.advance()
        session.play(session.to_move(), rng.choice(session.legal_moves(session.to_move())))
    session.save(tmp_path / "g.json")
    resumed = GameSession.resume(GameRecord.load(tmp_path / "g.json"))
    assert resumed.state.to_dict() == session.state.to_dict()
    # both continue identically (the bot's decision counter is restored)
    play_out(session, 4)
    play_out(resumed, 4)
    assert resumed.record.result == session.record.result
    with pytest.raises(Exception, match="exported for seat A"):
        GameSession.resume(session.record.for_seat("A"))


def test_views_and_hints_are_honest():
    session = GameSession(2, 5, ["human", "random"])
    session.advance()
    assert session.view(0) == session.state.to_dict(0)
    assert session.view(0)["view"] == "A"
    result = session.hint(session.to_move(), seconds=None, iterations=200, threads=1)
    assert result.move in session.legal_moves(session.to_move())
    again = session.hint(session.to_move(), seconds=None, iterations=200, threads=1)
    assert again.move == result.move and again.candidates == result.candidates
    assert session.to_move() not in (CHANCE, TERMINAL)
