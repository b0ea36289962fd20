"""Every game at every player count in a real 80 x 24 pseudo-terminal (issue 34, items 3 and 8).

Seat A is typed (random legal moves, by their text) against random bots. At every prompt the pyte screen
shows the prompt on its cursor row, no line the program wrote is wider than 80 columns (Azul's 4-player
board cut its centre and its status line at 80), and when the bots moved since A's last decision their last
move is on the screen: the narration has scrolled off under the redrawn board by then, so the `last:` line
under the board recalls the moves (no game had such a line), Azul's in words at every player count (with 4
players it fell back to the move codes). Azul's centre and its keep step are on the
screen; Walking in Burano's legend of what its cards show is on the screen at every player count (the 3-
and 4-player boards showed template codes only). The first prompts of each game, and every prompt of the
shorter games; a game so short that the bots' moves were recalled fewer than 3 times (a poker hand) is
played again with the next seed until they were (at most `PROMPTS` prompts in all).
"""

from __future__ import annotations

import random
import re
import sys

import pytest

from burano_ai.games import all_specs
from burano_ai.play import _brief_words
from burano_ai.session import GameSession
from pty_helpers import CLI, ESCAPES, PROMPT, Screen, spawn_cli, tty_env

CASES = [pytest.param(spec.key, n, id=f"{spec.key}-{n}p")
         for spec in all_specs() for n in range(spec.min_players, spec.max_players + 1)]
#: Prompts typed in each game (its first ones).
PROMPTS = 40


@pytest.mark.parametrize("game,players", CASES)
def test_every_line_fits_80_columns_and_the_bots_last_move_stays_on_screen(tmp_path, game, players):
    prompts = recalled = 0
    seed = 3
    while prompts < PROMPTS and (recalled < 3 or seed == 3):
        done, recalls = _a_game_in_a_terminal(tmp_path, game, players, seed, PROMPTS - prompts)
        prompts, recalled, seed = prompts + done, recalled + recalls, seed + 1
    assert recalled >= 3, recalled


def _a_game_in_a_terminal(tmp_path, game: str, players: int, seed: int, prompts: int) -> tuple[int, int]:
    """Seat A typed for up to `prompts` prompts of game `seed` (every check of the module docstring at each);
    returns (prompts typed, prompts where the bots' last move was recalled)."""
    pexpect = pytest.importorskip("pexpect")
    typed = 0
    child, transcript = spawn_cli(tmp_path, ["play", "--game", game, "--players", str(players), "--you", "A",
                                             "--bots", "random", "--seed", str(seed)])
    screen = Screen(transcript)
    shadow = GameSession(players, seed, ["human"] + ["random"] * (players - 1), game=game)
    shadow.advance()
    rng = random.Random(f"{game}-{players}-{seed}")
    recalled = 0
    last_mine = -1
    try:
        for prompt in range(prompts):
            if child.expect([PROMPT, "game over: final scores"]) != 0:
                break
            typed += 1
            rows = screen.rows()
            where = f"{game} {players}p, prompt {prompt}:\n" + "\n".join(rows)
            assert screen.cursor_row().startswith("A to move>"), where
            if game == "azul-sintra":     # the centre was cut off at 80 columns with 4 players
                view = shadow.view(0)
                assert f"centre {view['centre'] or '-'}" in "\n".join(rows), where
                if view["phase"] == "keep":
                    assert f"A keeps a piece of column {view['keep']['column']}" in "\n".join(rows), where
            if game == "walking-in-burano":   # what the cards show, at every player count (3-4 showed codes only)
                shown = "\n".join(rows)
                assert re.search(r"cards: (G|M|R)\d=", shown) and "W walker P plant F flower" in shown, where
                assert players == 2 or "PLACEHOLDER cards:" in shown, where
            steps = shadow.record.steps
            others = [(ply, s) for ply, s in enumerate(steps) if ply > last_mine and not s.is_chance and s.actor != "A"]
            if others:
                ply, last = others[-1]
                shown = last.move if last.visible_to("A") else None
                on_screen = "\n".join(rows)
                assert "last:" in on_screen, where
                recap = " ".join(on_screen[on_screen.index("last:"):].split())
                words = _brief_words(shadow.words[ply]) if shown is not None else None
                if game == "azul-sintra":     # in words at every player count (4 players fell back to codes)
                    assert words and words in recap, (shadow.words[ply], where)
                elif shown is not None:       # in its brief words, or its text when they do not fit
                    assert shown in recap or (words and words in recap), (shown, words, where)
                recalled += 1
            legal = shadow.legal_moves(0)
            move = rng.choice(legal)
            child.send(move + "\r")
            shadow.play(0, move)
            last_mine = len(shadow.record.steps) - 1
            shadow.advance()
        else:
            child.send("quit\r")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    wide = [line for line in re.split(r"\r\n|\n|\r", ESCAPES.sub("", transcript.getvalue())) if len(line.rstrip()) > 80]
    assert not wide, wide[:3]
    return typed, recalled


def _piped(tmp_path, game: str, players: int, moves: int) -> str:
    """`burano play` through a pipe: seat A types its first legal move `moves` times (numbers), then quits."""
    import subprocess
    env = dict(tty_env(), COLUMNS="80", LINES="24")
    env.pop("TERM", None)
    result = subprocess.run([sys.executable, CLI, "play", "--game", game, "--players", str(players), "--bots",
                             "random", "--seed", "5"], input="1\n" * moves + "quit\n", capture_output=True,
                            text=True, cwd=tmp_path, timeout=300, env=env)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_a_round_end_and_the_refills_are_told_in_words(tmp_path):
    """Issue 34, item 8: an Azul round ended in 15-20 bare `draw G` lines with no word that it ended, and
    Walking in Burano's refills were `draw 6`, `draw 8`. Now the draws of a run are one line, the round's end
    and start are said (with what each factory holds), and each card dealt to the market is told with what
    it shows."""
    azul = _piped(tmp_path, "azul-sintra", 2, 30)
    lines = azul.splitlines()
    assert not any(all(re.match(r"^\s*draw [POYBG]$", line) for line in lines[i:i + 3]) for i in range(len(lines)))
    assert re.search(r"round 1 ends: the factories and the centre are empty", azul)
    assert re.search(r"round 2 begins, [AB] first: factories 1 \w+, 2 \w+", azul)
    assert re.search(r"\d+ x draw: [POYBG]( [POYBG])+", azul)
    walking = _piped(tmp_path, "walking-in-burano", 2, 30)
    assert re.search(r"card \d+ \((pink|green|blue|yellow|orange|purple) L\d: [^)]*\) to the market, L\d column \d",
                     walking)
    assert re.search(r"round 1 ends; round 2 begins", walking)


def test_walking_in_burano_s_board_says_what_its_cards_show(tmp_path):
    """Issue 34, item 7: the terminal showed `7GG4`, `42OM3` (id, colour, template) and a player had to read
    the rules spec's template table. The 2-player board has a legend of the templates on it, in symbols, and
    of the symbols' letters; the moves and the narration say a card's symbols in words."""
    from burano_ai.games import get_spec
    session = GameSession(2, 5, ["human", "random"], game="walking-in-burano")
    session.advance()
    text = get_spec("walking-in-burano").render(session.view(0), 80)
    assert all(len(line) <= 80 for line in text.splitlines())
    assert re.search(r"^cards: (G\d|M\d|R\d)=\S+", text, re.M) and "W walker P plant F flower C cat" in text
    words = " ".join(session.describe_legal(0))
    assert re.search(r"\((pink|green|blue|yellow|orange|purple) L\d: \d+ (passer|plant|flower|cat|lantern|chimney)", words)
