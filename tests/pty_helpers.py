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

from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.session import GameSession

ROOT = Path(__file__).resolve().parent.parent
CLI = str(ROOT / "cli.py")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][0-9A-Za-z]|\r")
PROMPT = r"([A-F]) to move>(?=\x1b\[\d+D)"
#: Every escape sequence (colours, cursor moves, modes): what is left is the text the program wrote.
ESCAPES = re.compile(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78])")


def tty_env(**extra: str) -> dict[str, str]:
    """The environment of a person's terminal: no COLUMNS/LINES (the pty's size rules), colours on; `extra`
    overrides (``NO_COLOR="1"``, ``TERM="dumb"``)."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    env.update(PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm-256color", BURANO_DEBUG_TRACEBACK="1", PYTHONPATH=str(ROOT))
    env.update(extra)
    return env


def spawn_cli(tmp_path, args: list[str], *, env: dict[str, str] | None = None, rows: int = 24, columns: int = 80,
              timeout: float = 120):
    """`cli.py args` in a pseudo-terminal of `rows` x `columns` (in `tmp_path`, `env` or `tty_env()`): the
    pexpect child and the transcript of everything it writes."""
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(sys.executable, [CLI, *args], cwd=str(tmp_path), env=tty_env() if env is None else env,
                          dimensions=(rows, columns), encoding="utf-8", timeout=timeout)
    child.logfile_read = transcript = io.StringIO()
    return child, transcript


def quit_at_prompt(child, prompt: str = PROMPT) -> None:
    """Wait for `prompt`, type ``quit`` and wait for the program's end; the child is closed either way."""
    import pexpect
    try:
        child.expect(prompt)
        child.send("quit\r")
        child.expect(pexpect.EOF)
    finally:
        child.close()


class Screen:
    """A pyte screen (`columns` x `rows`) that follows a pty's transcript: `rows()` feeds it what the
    program wrote since the last look and returns the screen's rows; `fed` is how much it has read."""

    def __init__(self, transcript, columns: int = 80, rows: int = 24) -> None:
        pyte = pytest.importorskip("pyte")
        self.screen = pyte.Screen(columns, rows)
        self._stream = pyte.Stream(self.screen)
        self._transcript = transcript
        self.fed = 0

    def rows(self) -> list[str]:
        text = self._transcript.getvalue()
        self._stream.feed(text[self.fed:])
        self.fed = len(text)
        return self.screen.display

    def cursor_row(self) -> str:
        """The row the cursor is on (the prompt's, at a prompt)."""
        return self.screen.display[self.screen.cursor.y]


def type_a_game(child, shadow, seat: int, choose: Callable[[int, list[str]], tuple[str, str]],
                at_prompt: Callable[[int], None] | None = None) -> int:
    """Seat `seat` types at each of its prompts until the game is over: `choose(moves, legal)` gives what to
    type and the move it means (`moves`: how many were typed before), which the shadow session (the same
    seed and seats) plays too; `at_prompt(moves)` checks the screen first. Waits for the program's end and
    closes the child either way; returns how many moves were typed."""
    import pexpect
    moves = 0
    try:
        while child.expect([PROMPT, "game over: final scores"]) == 0:
            assert child.match.group(1) == SEAT_LETTERS[seat]
            if at_prompt is not None:
                at_prompt(moves)
            typed, move = choose(moves, shadow.legal_moves(seat))
            child.send(typed + "\r")
            shadow.play(seat, move)
            shadow.advance()
            moves += 1
        child.expect(pexpect.EOF)
    finally:
        child.close()
    return moves


def play_a_whole_game_in_a_terminal(tmp_path, game: str, seed: int,
                                    check_rows: Callable[[list[str], str], None], bot: str = "greedy",
                                    min_moves: int = 21) -> str:
    """Seat A typed against `bot` (the greedy bot, or a generic one for a game without its own), alternating
    the first numbered choice and the last listed move's text; `check_rows(rows, where)` asserts what the
    game's screen shows at each prompt; A types at least `min_moves` moves (a poker hand: 1). Returns what
    the program wrote without its escape sequences (the final scores are checked here already)."""
    child, transcript = spawn_cli(tmp_path, ["play", "--game", game, "--you", "A", "--bots", bot,
                                             "--seed", str(seed)])
    screen = Screen(transcript)
    shadow = GameSession(2, seed, ["human", bot], game=game)
    shadow.advance()

    def look(moves):
        rows = screen.rows()
        where = f"prompt {moves}:\n" + "\n".join(rows)
        assert screen.cursor_row().startswith("A to move>"), where
        check_rows(rows, where)

    def alternate(moves, legal):
        """The first numbered choice, then the move's text (the last listed), in turn."""
        return (legal[-1], legal[-1]) if moves % 2 else ("1", legal[0])
    moves = type_a_game(child, shadow, 0, alternate, look)
    text = transcript.getvalue()
    plain = ANSI.sub("", text)
    assert child.exitstatus == 0, plain[-3000:]
    assert shadow.is_over() and moves >= min_moves, moves
    # what the program wrote, split where the cursor goes back to a line's start: no piece wraps
    wide = [line for line in re.split(r"\r\n|\n|\r", ESCAPES.sub("", text)) if len(line.rstrip()) > 80]
    assert not wide, wide[:3]
    final = "\n".join(screen.rows())
    assert "game over: final scores" in final and "winner" in final, final
    scores = [f"{x:g}" for x in shadow.state.scores()]        # 12 VP, -2 chips
    assert re.search(rf"A\D+{re.escape(scores[0])}\b", plain[plain.rindex("game over: final scores"):]), plain[-1500:]
    return plain
