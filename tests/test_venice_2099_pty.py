"""A whole 2-player game of Venice 2099 typed by a person in a real 80 x 24 pseudo-terminal
(`burano play --game venice-2099`) against the greedy bot.

The terminal's size comes from the pty (no COLUMNS/LINES), as for a person. A pyte screen follows the
output: at every prompt the prompt is on the screen's cursor row, seat A's line (with its own hand) is
visible and seat B's hand is not; no output line is wider than 80 columns. A
shadow session with the same seed and seats follows the typed moves, and the game ends with the shadow's
scores and the final scoring by category.
"""

from __future__ import annotations

import io
import os
import re
import sys
from pathlib import Path

import pytest

from burano_ai.session import GameSession

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

ROOT = Path(__file__).resolve().parent.parent
CLI = str(ROOT / "cli.py")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][0-9A-Za-z]|\r")
PROMPT = r"([A-E]) to move>(?=\x1b\[\d+D)"
#: Every escape sequence (colours, cursor moves, modes): what is left is the text the program wrote.
ESCAPES = re.compile(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78])")


def _tty_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    env.update(PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm-256color", BURANO_DEBUG_TRACEBACK="1", PYTHONPATH=str(ROOT))
    return env


def test_a_whole_venice_2099_game_in_an_80_by_24_terminal(tmp_path):
    seed = 9
    child = pexpect.spawn(sys.executable, [CLI, "play", "--game", "venice-2099", "--you", "A", "--bots", "greedy",
                                           "--seed", str(seed)],
                          cwd=str(tmp_path), env=_tty_env(), dimensions=(24, 80), encoding="utf-8", timeout=120)
    transcript = io.StringIO()
    child.logfile_read = transcript
    screen = pyte.Screen(80, 24)
    stream = pyte.Stream(screen)
    fed = 0
    shadow = GameSession(2, seed, ["human", "greedy"], game="venice-2099")
    shadow.advance()
    moves = 0
    try:
        while child.expect([PROMPT, "game over: final scores"]) == 0:
            assert child.match.group(1) == "A"
            text = transcript.getvalue()
            stream.feed(text[fed:])
            fed = len(text)
            rows = screen.display
            where = f"prompt {moves}:\n" + "\n".join(rows)
            assert rows[screen.cursor.y].startswith("A to move>"), where
            assert any(row[1:3] == "A " and " hand " in row and "cards)" not in row for row in rows), where
            assert any(row[1:3] == "B " and row.rstrip().endswith("cards)") for row in rows), where
            legal = shadow.legal_moves(0)
            # alternate: the move's text (the last listed), the first numbered choice
            move = legal[-1] if moves % 2 else legal[0]
            child.send((move if moves % 2 else "1") + "\r")
            shadow.play(0, move)
            shadow.advance()
            moves += 1
        child.expect(pexpect.EOF)
    finally:
        child.close()
    text = transcript.getvalue()
    plain = ANSI.sub("", text)
    assert child.exitstatus == 0, plain[-3000:]
    assert shadow.is_over() and moves > 20, moves
    # what the program wrote, split where the cursor goes back to a line's start: no piece wraps
    wide = [line for line in re.split(r"\r\n|\n|\r", ESCAPES.sub("", text)) if len(line.rstrip()) > 80]
    assert not wide, wide[:3]
    stream.feed(text[fed:])
    final = "\n".join(screen.display)
    assert "game over: final scores" in final and "winner" in final, final
    assert "treasures" in plain and "X districts" in plain and "tie-break" in plain
    scores = [int(x) for x in shadow.state.scores()]
    assert re.search(rf"A\D+{scores[0]}\b", plain[plain.rindex("game over: final scores"):]), plain[-1500:]
