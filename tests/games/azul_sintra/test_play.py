"""A whole game of Azul: Stained Glass of Sintra played by a person in a real pseudo-terminal (`burano play`).

Seat B types every move (a number, or a move's text) against the random bot; a shadow session with
the same seed follows, and the saved record replays to the same scores on both implementations. The
board the person sees names the placeholder data.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from burano_ai.games import get_spec
from burano_ai.record import GameRecord
from burano_ai.session import GameSession
from pty_helpers import ANSI, spawn_cli, type_a_game

pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parents[3]


def test_a_person_plays_a_whole_game_of_azul_in_the_terminal(tmp_path):
    record_path = tmp_path / "azul.json"
    seed = 4
    env = dict(os.environ, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm", COLUMNS="100", LINES="40",
               BURANO_DEBUG_TRACEBACK="1", PYTHONPATH=str(ROOT))
    child, transcript = spawn_cli(tmp_path, ["play", "--game", "azul-sintra", "--you", "B", "--bots", "random",
                                             "--seed", str(seed), "--record", str(record_path)],
                                  env=env, rows=40, columns=100, timeout=90)
    shadow = GameSession(2, seed, ["random", "human"], game="azul-sintra")
    shadow.advance()
    # every third move by its text (the last listed), the others by number (the first of the list)
    moves = type_a_game(child, shadow, 1, lambda moves, legal: (legal[-1], legal[-1]) if moves % 3 == 1
                        else ("1", legal[0]))
    text = ANSI.sub("", transcript.getvalue())
    assert child.exitstatus == 0, text[-3000:]
    assert shadow.is_over() and moves > 20
    assert "PLACEHOLDER DATA" in text
    record = GameRecord.load(record_path)
    assert record.game == "azul-sintra"
    spec = get_spec("azul-sintra")
    scores = list(record.replay().scores())
    assert scores == list(record.replay(game_factory=spec.game_class("reference")).scores()) \
        == list(shadow.state.scores()) == record.result["scores"]
