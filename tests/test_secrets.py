"""Secret chance (issue 20): what a seat's client receives cannot rebuild what it does not see.

A game people play draws its deal, chance outcomes and bots' seeds from a secret the session keeps; undo
redraws from it; records and exports carry nothing that rebuilds the other seats' hidden parts. The
leak tests play "a seat's client that tries": from everything the seat receives they rebuild the game
with every seed they can find and check that the other seats' hidden parts do not come back.
"""

from __future__ import annotations

import random

import pytest

from burano_ai.record import GameRecord
from burano_ai.session import GameSession


def _to_human_move(session: GameSession) -> int:
    session.advance()
    return session.to_move()


def _first_draw_after_move(session: GameSession, move: str) -> list[str]:
    """Play `move` for the seat to move, advance, and return the texts of the steps that followed."""
    p = session.to_move()
    before = session.ply
    session.play(p, move)
    session.advance()
    return [s.move for s in session.record.steps[before + 1:]]


# -- secret chance --------------------------------------------------------------------------------------


def test_a_game_without_a_seed_has_secret_chance_and_no_seed_anywhere():
    session = GameSession(2, seats=["human", "random"])
    assert not session.seeded and session.seed is None and session.revealed_seed is None
    assert session.record.seed is None and session.record.start is not None
    assert session.record.start.get("view") is None          # the dealt position, the full one
    text = session.record.to_json()
    session.advance()
    assert "secret" not in text
    # Two secret games are two different deals (the ports and docks are dealt from the secret).
    decks = {repr(GameSession(2, seats=["human", "random"]).record.start) for _ in range(4)}
    assert len(decks) > 1


@pytest.mark.parametrize("game,players", [("burano", 2), ("goofspiel", 2)])
def test_undo_redraws_the_chance_after_the_move(game, players):
    """draw -> look -> undo -> the same move: a fresh draw (over several secrets, not always the same)."""
    same = 0
    trials = 12
    for _ in range(trials):
        session = GameSession(players, seats=["human", "random"], game=game)
        assert _to_human_move(session) == 0
        move = session.legal_moves(0)[0]
        first = _first_draw_after_move(session, move)
        assert first, "the move is followed by a chance event or a bot's reply"
        assert session.undo(0) and session.to_move() == 0 and session.undos == 1
        again = _first_draw_after_move(session, move)
        same += first == again
    assert same < trials


def test_a_seeded_game_replays_the_same_after_undo():
    """The explicit, reproducible mode: the seed's holder can compute every draw, and undo replays them."""
    for seed in range(4):
        session = GameSession(2, seed, ["human", "random"])
        assert session.seeded and session.record.seed == seed
        _to_human_move(session)
        move = session.legal_moves(0)[0]
        first = _first_draw_after_move(session, move)
        assert session.undo(0)
        assert _first_draw_after_move(session, move) == first


def test_the_bots_redraw_after_undo_in_a_secret_game():
    """A random bot's reply after undo is drawn afresh (its seed derives from the undos so far)."""
    same = 0
    trials = 12
    for _ in range(trials):
        session = GameSession(2, seats=["human", "random"], game="goofspiel")
        assert _to_human_move(session) == 0
        move = session.legal_moves(0)[0]
        replies = []
        for _ in range(2):
            before = session.ply
            session.play(0, move)
            session.advance()
            replies.append([s.move for s in session.record.steps[before:] if s.actor == "B"])
            assert replies[-1]
            assert session.undo(0)
        same += replies[0] == replies[1]
    assert same < trials


def test_resume_of_a_secret_game_continues_with_a_new_secret(tmp_path):
    """A saved game of secret chance has no seed; every resume draws a new secret, so reloading the save
    does not replay the draws seen after it (the same move meets different draws, not always equal)."""
    session = GameSession(2, seats=["human", "random"], game="goofspiel")
    for _ in range(3):
        _to_human_move(session)
        session.play(0, session.legal_moves(0)[0])
    _to_human_move(session)
    session.save(tmp_path / "g.json")
    record = GameRecord.load(tmp_path / "g.json")
    assert record.seed is None and record.start is not None
    outcomes = set()
    for _ in range(8):
        resumed = GameSession.resume(record)
        assert not resumed.seeded and resumed.state.to_dict() == session.state.to_dict()
        assert _to_human_move(resumed) == 0
        outcomes.add(repr(_first_draw_after_move(resumed, resumed.legal_moves(0)[0])))
    assert len(outcomes) > 1
