"""A whole 2-player game typed by a person in a real 80 x 24 pseudo-terminal (`burano play --game G`)
against the greedy bot: the skeleton every game's pty test shares (tests/games/<game>/test_pty.py).

The terminal's size comes from the pty (no COLUMNS/LINES), as for a person. A pyte screen follows the
output: at every prompt the prompt is on the screen's cursor row and the game's own check of the screen's
rows passes; no output line is wider than 80 columns. A shadow session with the same seed and seats
follows the typed moves, and the game ends with the shadow's scores.
"""

from __future__ import annotations

import io
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from burano_ai.session import GameSession

ROOT = Path(__file__).resolve().parent.parent
CLI = str(ROOT / "cli.py")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][0-9A-Za-z]|\r")
PROMPT = r"([A-F]) to move>(?=\x1b\[\d+D)"
#: Every escape sequence (colours, cursor moves, modes): what is left is the text the program wrote.
ESCAPES = re.compile(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78])")


def tty_env() -> dict[str, str]:
    """The environment of a person's terminal: no COLUMNS/LINES (the pty's size rules), colours on."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    env.update(PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm-256color", BURANO_DEBUG_TRACEBACK="1", PYTHONPATH=str(ROOT))
    return env


def play_a_whole_game_in_a_terminal(tmp_path, game: str, seed: int,
                                    check_rows: Callable[[list[str], str], None], bot: str = "greedy",
                                    min_moves: int = 21) -> str:
    """Seat A typed against `bot` (the greedy bot, or a generic one for a game without its own), alternating
    the first numbered choice and the last listed move's text; `check_rows(rows, where)` asserts what the
    game's screen shows at each prompt; A types at least `min_moves` moves (a poker hand: 1). Returns what
    the program wrote without its escape sequences (the final scores are checked here already)."""
    pexpect = pytest.importorskip("pexpect")
    pyte = pytest.importorskip("pyte")
    child = pexpect.spawn(sys.executable, [CLI, "play", "--game", game, "--you", "A", "--bots", bot,
                                           "--seed", str(seed)],
                          cwd=str(tmp_path), env=tty_env(), dimensions=(24, 80), encoding="utf-8", timeout=120)
    transcript = io.StringIO()
    child.logfile_read = transcript
    screen = pyte.Screen(80, 24)
    stream = pyte.Stream(screen)
    fed = 0
    shadow = GameSession(2, seed, ["human", bot], game=game)
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
            check_rows(rows, where)
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
    assert shadow.is_over() and moves >= min_moves, moves
    # what the program wrote, split where the cursor goes back to a line's start: no piece wraps
    wide = [line for line in re.split(r"\r\n|\n|\r", ESCAPES.sub("", text)) if len(line.rstrip()) > 80]
    assert not wide, wide[:3]
    stream.feed(text[fed:])
    final = "\n".join(screen.display)
    assert "game over: final scores" in final and "winner" in final, final
    scores = [f"{x:g}" for x in shadow.state.scores()]        # 12 VP, -2 chips
    assert re.search(rf"A\D+{re.escape(scores[0])}\b", plain[plain.rindex("game over: final scores"):]), plain[-1500:]
    return plain
