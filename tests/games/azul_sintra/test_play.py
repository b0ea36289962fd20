"""A whole game of Azul: Stained Glass of Sintra played by a person in a real pseudo-terminal (`burano play`).

Seat B types every move (a number, or a move's text) against the random bot; a shadow session with
the same seed follows, and the saved record replays to the same scores on both implementations. The
board the person sees names the placeholder data.
"""

from __future__ import annotations

import io
import os
import re
import sys
from pathlib import Path

import pytest

from burano_ai.games import get_spec
from burano_ai.record import GameRecord
from burano_ai.session import GameSession

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parents[3]
CLI = str(ROOT / "cli.py")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][0-9A-Za-z]|\r")
PROMPT = r"([A-D]) to move>(?=\x1b\[\d+D)"


def test_a_person_plays_a_whole_game_of_azul_in_the_terminal(tmp_path):
    record_path = tmp_path / "azul.json"
    seed = 4
    env = dict(os.environ, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm", COLUMNS="100", LINES="40",
               BURANO_DEBUG_TRACEBACK="1", PYTHONPATH=str(ROOT))
    child = pexpect.spawn(sys.executable, [CLI, "play", "--game", "azul-sintra", "--you", "B", "--bots", "random",
                                           "--seed", str(seed), "--record", str(record_path)],
                          cwd=str(tmp_path), env=env, dimensions=(40, 100), encoding="utf-8", timeout=90)
    transcript = io.StringIO()
    child.logfile_read = transcript
    shadow = GameSession(2, seed, ["random", "human"], game="azul-sintra")
    shadow.advance()
    moves = 0
    try:
        while child.expect([PROMPT, "game over: final scores"]) == 0:
            assert child.match.group(1) == "B"
            legal = shadow.legal_moves(1)
            if moves % 3 == 1:
                child.send(legal[-1] + "\r")                   # the move's text
                move = legal[-1]
            else:
                child.send("1\r")                              # the first move of the numbered list
                move = legal[0]
            shadow.play(1, move)
            shadow.advance()
            moves += 1
        child.expect(pexpect.EOF)
    finally:
        child.close()
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
