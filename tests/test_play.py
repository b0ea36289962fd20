"""`burano play` (burano_ai/play.py): a person plays through the real terminal program.

The main test spawns `python cli.py play` in a pseudo-terminal (pexpect), so prompt_toolkit and rich run
as they do for a person, and plays a complete 2-player game against the random bot: a typo ("did you
mean"), `hint`, `undo`, `save`, a pyramid in one line. To know what to type, the test keeps a shadow
`GameSession` of the same game (same seed and seats: the bot and the dice replay the same), fed the same
decisions. Then the saved record must replay to the same final scores in both rules implementations,
and the transcript must never show what seat A cannot see (seat B's blind fish cards, its hidden pyramid).
Other tests drive the program through pipes (plain line input), as scripts do.
"""

from __future__ import annotations

import io
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from burano_ai import Game
from burano_ai.games.burano.data.colours import COLOUR_LETTERS, COLOURS
from burano_ai.core.errors import IllegalMoveError
from burano_ai.games import get_spec
from burano_ai.play import resolve_entry
from burano_ai.record import GameRecord, narrate_step
from burano_ai.games.burano.reference import Game as ReferenceGame
from burano_ai.games.burano.render import render_state
from burano_ai.session import GameSession
from pty_helpers import ESCAPES, Screen, quit_at_prompt, spawn_cli, tty_env

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parent.parent
CLI = str(ROOT / "cli.py")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][0-9A-Za-z]|\r")
#: A fresh prompt: prompt_toolkit draws it, then moves the cursor (`ESC[10D`). When a line is accepted it
#: draws the prompt again with the text typed after it, which must not count as a new prompt.
PROMPT = r"([A-D]) to move>(?=\x1b\[\d+D)"
SEED = 11


def plain(text: str) -> str:
    """The terminal transcript without escape sequences and carriage returns."""
    return ANSI.sub("", text)


def cli_env() -> dict[str, str]:
    # No cursor-position request: pexpect does not answer it (a terminal emulator does).
    return dict(os.environ, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm", COLUMNS="140", LINES="50",
                BURANO_DEBUG_TRACEBACK="1")


def run_piped(args: list[str], text: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, CLI, "play", *args], input=text, capture_output=True, text=True,
                          cwd=cwd, timeout=120, env=cli_env())


def seat_block(rendering: str, letter: str) -> str:
    """The lines of one seat in a board rendering (from its `B (red) ...` line to the next seat's)."""
    lines = rendering.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{letter} ("))
    end = next((i for i in range(start + 1, len(lines)) if re.match(r"[A-D] \(", lines[i])), len(lines))
    return "\n".join(lines[start + 1:end])


# ------------------------------------------------------------------------------------------------
# The whole game in a pseudo-terminal


class Person:
    """Types at the real program and mirrors every decision on a shadow session."""

    def __init__(self, child, shadow: GameSession) -> None:
        self.child = child
        self.shadow = shadow

    def prompt(self) -> bool:
        """Wait for the next prompt (True) or the end of the game (False)."""
        i = self.child.expect([PROMPT, "game over: final scores"])
        if i == 1:
            return False
        assert self.child.match.group(1) == "A"
        return True

    def say(self, line: str) -> None:
        self.child.send(line + "\r")

    def move(self, line: str, move: str | list[str]) -> None:
        self.say(line)
        if isinstance(move, list):
            self.shadow.play_many(0, move)
        else:
            self.shadow.play(0, move)
        self.shadow.advance()


def test_a_person_plays_a_complete_game_in_the_terminal(tmp_path):
    record_path = tmp_path / "game.json"
    child = pexpect.spawn(sys.executable, [CLI, "play", "--players", "2", "--you", "A", "--bots", "random",
                                           "--seed", str(SEED), "--record", str(record_path)],
                          cwd=str(tmp_path), env=cli_env(), dimensions=(50, 140), encoding="utf-8", timeout=60)
    transcript = io.StringIO()
    child.logfile_read = transcript
    shadow = GameSession(2, SEED, ["human", "random"])
    shadow.advance()
    person = Person(child, shadow)
    done = set()
    try:
        while person.prompt():
            legal = shadow.legal_moves(0)
            stage = shadow.view(0)["stage"]
            if "typo" not in done:
                done.add("typo")
                person.say(legal[0] + "x")                        # a typo
                child.expect(f"did you mean '{re.escape(legal[0])}'")
                assert person.prompt()
                person.move("y", legal[0])                        # accept the suggestion
            elif "hint" not in done:
                done.add("hint")
                person.say("hint 0.2")
                child.expect("hint: ")
                child.expect(r"searched A's view only")
                assert person.prompt()
                person.move(str(len(legal)), legal[-1])            # a numbered choice
            elif "undo" not in done and len(legal) > 1:
                done.add("undo")
                person.move(legal[1], legal[1])
                assert person.prompt()
                person.say("undo")
                child.expect("taken back")
                assert shadow.undo(0)
            elif stage == "pyramid" and "pyramid" not in done:
                done.add("pyramid")
                person.say("pyramid W W X")                        # not a colour: nothing played
                child.expect(r"'x' \(colour 3\) is not a colour")
                assert person.prompt()
                cubes = _pyramid_line(shadow)
                person.say("pyramid " + " ".join(cubes + cubes[:1]))  # one cube too many: nothing played
                child.expect(r"nothing played: move 15 of 15 .* no longer to move")
                assert person.prompt()
                person.move("pyramid " + " ".join(cubes), [f"pyramid {COLOURS[COLOUR_LETTERS.index(c)]}"
                                                           for c in cubes])
            elif stage == "rounds" and "save" not in done:
                done.add("save")
                person.say("save mid.json")
                child.expect("saved the game to mid.json")
                assert person.prompt()
                prefix = next(legal[0][:n] for n in range(1, len(legal[0]) + 1)   # the shortest unique beginning
                              if sum(m.startswith(legal[0][:n]) for m in legal) == 1)
                person.move(prefix, legal[0])
            else:
                person.move("1", legal[0])
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0, plain(transcript.getvalue())[-3000:]
    assert done == {"typo", "hint", "undo", "pyramid", "save"}
    assert shadow.is_over()
    text = plain(transcript.getvalue())

    # The record: saved, replays in both implementations to the scores the program printed.
    record = GameRecord.load(record_path)
    assert [s.to_dict() for s in record.steps] == [s.to_dict() for s in shadow.record.steps]
    scores = list(record.replay().scores())
    assert scores == list(record.replay(game_factory=ReferenceGame).scores()) == record.result["scores"]
    assert scores == shadow.record.result["scores"]
    assert (tmp_path / "mid.json").is_file()
    GameRecord.load(tmp_path / "mid.json").replay(game_factory=ReferenceGame)
    table = text[text.index("game over: final scores"):]
    for letter, score in zip("AB", scores):
        assert re.search(rf"{letter} \(.*?\)\s*[│|]\s*{score}\b", table), table

    # What A cannot see never reached the terminal.
    hidden_blocks = shown_blocks = 0
    for ply, state in record.positions(Game):
        if state.current_player() != 0:
            continue
        full, view = (seat_block(render_state(state, seat), "B") for seat in (None, 0))
        if full != view:
            hidden_blocks += 1
            assert full not in text, f"seat B's hidden cards at step {ply} were shown"
        shown_blocks += view in text
    assert hidden_blocks > 0 and shown_blocks > 0
    b_draws = [s for s in record.steps if s.kind == "fish-draw" and s.seat == "B"]
    for step in b_draws:
        assert narrate_step(step, None) not in text
    if b_draws:
        assert "B draws a fish card from the deck" in text
    assert "B places a pyramid cube (hidden)" in text


def test_a_person_plays_goofspiel_in_the_terminal(tmp_path):
    # The second registered game through the same table: its renderer, no move shortcut (numbers and move
    # texts), seat B, who must not see A's bid of the round before bidding itself.
    record_path = tmp_path / "goof.json"
    seed = 5
    child = pexpect.spawn(sys.executable, [CLI, "play", "--game", "goofspiel", "--you", "B", "--bots", "random",
                                           "--seed", str(seed), "--record", str(record_path)],
                          cwd=str(tmp_path), env=cli_env(), dimensions=(50, 140), encoding="utf-8", timeout=60)
    transcript = io.StringIO()
    child.logfile_read = transcript
    shadow = GameSession(2, seed, ["random", "human"], game="goofspiel")
    shadow.advance()
    done = []
    try:
        while child.expect([PROMPT, "game over: final scores"]) == 0:
            assert child.match.group(1) == "B"
            legal = shadow.legal_moves(1)
            if not done:
                child.send("bdi " + legal[-1].split()[1] + "\r")      # a typo
                child.expect(f"did you mean '{re.escape(legal[-1])}'")
                child.expect(PROMPT)
                child.send("y\r")
                move = legal[-1]
            elif len(done) == 1:
                child.send("hint 0.2\r")
                child.expect(r"hint: bid \d+ +\(searched B's view only")
                child.expect(PROMPT)
                child.send(f"{len(legal)}\r")                        # a numbered choice
                move = legal[-1]
            elif len(done) == 2:
                child.send(legal[0] + "\r")                          # the move's text
                move = legal[0]
            else:
                child.send("1\r")
                move = legal[0]
            done.append(move)
            shadow.play(1, move)
            shadow.advance()
        child.expect(pexpect.EOF)
    finally:
        child.close()
    text = plain(transcript.getvalue())
    assert child.exitstatus == 0, text[-3000:]
    assert shadow.is_over() and len(done) >= 3
    assert "Goofspiel: new game, 2 players, seed 5" in text and "pyramid" not in text

    record = GameRecord.load(record_path)
    assert record.game == "goofspiel"
    assert [st.to_dict() for st in record.steps] == [st.to_dict() for st in shadow.record.steps]
    reference = get_spec("goofspiel").game_class("reference")
    scores = list(record.replay().scores())
    assert scores == list(record.replay(game_factory=reference).scores()) == record.result["scores"]
    table = text[text.index("game over: final scores"):]
    assert "points" in table
    for letter, score in zip("AB", scores):
        assert re.search(rf"{letter} \(.*?\)\s*[│|]\s*{score}\b", table), table

    # A's bid of the round was never shown to B before B bid: only "bid ?" and "A bids (hidden)".
    spec = get_spec("goofspiel")
    checked = 0
    for ply, state in record.positions():
        if state.current_player() == 1:
            full = spec.render(state.to_dict()).splitlines()[3]         # seat A's line, with its bid
            seen = spec.render(state.to_dict(1)).splitlines()[3]
            assert " bid ?" in seen and full != seen and full not in text and seen in text
            checked += 1
    assert checked == len(done)
    assert "A bids (hidden)" in text and "A: bid" not in text


def _pyramid_line(shadow: GameSession) -> list[str]:
    """Colour letters for seat A's whole pyramid (tried on a copy of the shadow's record)."""
    trial = GameSession.resume(shadow.record)
    letters = []
    while trial.to_move() == 0 and trial.view(0)["stage"] == "pyramid":
        move = trial.legal_moves(0)[len(letters) % len(trial.legal_moves(0))]
        trial.play(0, move)
        letters.append(COLOUR_LETTERS[COLOURS.index(move.split()[1])])
    assert len(letters) == 14
    return letters


def test_tab_completes_and_ctrl_c_saves_the_game_and_exits_130(tmp_path):
    child = pexpect.spawn(sys.executable, [CLI, "play", "--bots", "random", "--seed", "8"], cwd=str(tmp_path),
                          env=cli_env(), dimensions=(50, 140), encoding="utf-8", timeout=60)
    try:
        child.expect(PROMPT)
        child.send("pick wo\t")
        # Completed on the prompt line: prompt_toolkit writes the completion "rkshop" after "pick wo",
        # in the same write or (when the typed keys arrive one by one on a busy machine) a later one.
        child.expect("rkshop")
        child.send("\r")
        child.expect("A: pick workshop")
        child.expect(PROMPT)
        child.sendcontrol("c")
        child.expect("interrupted: the game is saved to")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 130
    record = GameRecord.load(tmp_path / "burano-game-8.json")
    assert [s.actor for s in record.steps].count("A") == 1


def test_hot_seat_in_the_terminal_clears_the_screen_and_waits_for_the_next_person(tmp_path):
    child = pexpect.spawn(sys.executable, [CLI, "play", "--players", "2", "--you", "A,B", "--seed", "3"],
                          cwd=str(tmp_path), env=cli_env(), dimensions=(50, 140), encoding="utf-8", timeout=60)
    try:
        for _ in range(3):                       # A's three roof tiles
            child.expect(PROMPT)
            assert child.match.group(1) == "A"
            child.send("1\r")
        child.expect(r"\x1b\[3J")                # the scrollback is cleared too
        child.expect("pass the terminal to B")
        child.expect("B: press Enter when only you can see the screen")
        child.send("\r")
        child.expect("since your last turn:")
        child.expect(PROMPT)
        assert child.match.group(1) == "B"
        child.send("quit\r")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


# ------------------------------------------------------------------------------------------------
# Pipes: resume, errors, hot-seat


def test_quit_saves_and_resume_continues_the_game(tmp_path):
    first = run_piped(["--bots", "random", "--seed", "5"], "1\n1\nquit\n", tmp_path)
    assert first.returncode == 0, first.stderr
    path = tmp_path / "burano-game-5.json"
    assert f"the game is saved to {path}" in first.stdout
    saved = GameRecord.load(path)
    assert saved.result is None and sum(s.actor == "A" for s in saved.steps) == 2

    again = run_piped(["--resume", str(path)], "1\n", tmp_path)   # end of input: saved again
    assert again.returncode == 0, again.stderr
    assert "resumed" in again.stdout and f"{len(saved.steps)} steps already played" in again.stdout
    resumed = GameRecord.load(path)
    assert resumed.steps[:len(saved.steps)] == saved.steps
    assert sum(s.actor == "A" for s in resumed.steps) == 3
    # A second new game with the same seed does not overwrite the first one's record.
    third = run_piped(["--bots", "random", "--seed", "5"], "quit\n", tmp_path)
    assert "burano-game-5-2.json" in third.stdout and GameRecord.load(path).steps == resumed.steps


@pytest.mark.parametrize("args, message", [
    (["--players", "5"], "--players must be 2, 3 or 4 (Burano), not 5"),
    (["--players", "1"], "--players must be 2, 3 or 4 (Burano), not 1"),
    (["--game", "chess"], "unknown game 'chess' (known games: burano"),
    (["--resume", "good.json", "--game", "chess"], "unknown game 'chess'"),
    (["--you", "E"], "--you"),
    (["--you", "A,A"], "named twice"),
    (["--bots", "nonsense"], "nonsense"),
    (["--players", "4", "--bots", "random;greedy"], "2 bots for 3 other seats"),
    (["--seed", "-1"], "--seed"),
    (["--you", "A", "--bots", "random;random;random;random"], "make 5 players"),
    (["--names", "Ann,Bob,Cy"], "--names"),
    (["--resume", "missing.json"], "missing.json"),
    (["--resume", "bad.json"], "not JSON"),
    (["--resume", "good.json", "--players", "2"], "drop --players"),
    (["--record", "nodir/game.json"], "no such directory"),
    (["--board", "tiny"], "--board must be one of auto, compact, wide, not 'tiny'"),
])
def test_bad_options_give_one_line_and_exit_2(tmp_path, args, message):
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    GameRecord.new(2, 1).save(tmp_path / "good.json")
    result = run_piped(args, "", tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], result.stderr


def test_a_bots_pyramid_stays_hidden_while_the_person_builds(tmp_path):
    # Seat A (the bot) builds first: while B builds, A's finished pyramid is in the full state only.
    result = run_piped(["--you", "B", "--bots", "random", "--seed", "4"], "1\n" * 16 + "quit\n", tmp_path)
    assert result.returncode == 0, result.stderr
    record = GameRecord.load(tmp_path / "burano-game-4.json")
    checked = 0
    for ply, state in record.positions(Game):
        if state.current_player() == 1 and state.to_dict()["stage"] == "pyramid":
            full = seat_block(render_state(state, None), "A")
            assert "pyramid hidden (14 placed" in seat_block(render_state(state, 1), "A")
            assert full not in result.stdout and "(14 cubes)" in full
            checked += 1
    assert checked == 14   # the boards before each of the 13 cubes played, and the one at quit
    assert "A places a pyramid cube (hidden): 14 times in all" in result.stdout


def test_hot_seat_hands_over_and_keeps_each_pyramid_private(tmp_path):
    # Both seats are people: each pyramid cube is placed in secret, so the shared screen hides them.
    moves = "1\n" * 20
    result = run_piped(["--players", "2", "--you", "A,B", "--seed", "3", "--names", "Ann,Bob"], moves, tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "pass the terminal to B (Bob)" in out and "A (Ann) to move" in out
    assert "A places a pyramid cube (hidden)" in out
    assert "A: pyramid" not in out
    # B's screen starts cleared: it is told what happened since its last move, A's pyramid hidden.
    recap = out[out.rindex("pass the terminal to B (Bob)"):]
    assert "since your last turn:" in recap and "A places a pyramid cube (hidden): 14 times" in recap


# ------------------------------------------------------------------------------------------------
# What a typed line means


LEGAL = ["done", "pick island", "pick workshop", "pick fountains", "pick flat", "draw deck", "draw crab"]


@pytest.mark.parametrize("text, moves", [
    ("2", ["pick island"]),
    ("  PICK   Flat ", ["pick flat"]),
    ("pick fl", ["pick flat"]),
    ("pick w", ["pick workshop"]),
    ("dr de", ["draw deck"]),
    ("d", None),              # done, draw deck, draw crab: ambiguous
    ("pick f", None),
    ("9", None),
])
def test_entries_choose_moves(text, moves):
    entry = resolve_entry(text, LEGAL)
    if moves is None:
        assert entry.kind == "error"
    else:
        assert (entry.kind, entry.moves) == ("moves", moves)


def test_typos_get_did_you_mean_and_commands_are_recognised():
    entry = resolve_entry("pick flatt", LEGAL)
    assert entry.kind == "error" and entry.suggestion == "pick flat" and "did you mean 'pick flat'" in entry.message
    assert resolve_entry("hnit", LEGAL).message.endswith("did you mean 'hint'?")
    assert resolve_entry("hint 0.5", LEGAL).command == "hint" and resolve_entry("hint 0.5", LEGAL).arg == "0.5"
    assert resolve_entry("?", LEGAL).command == "help"
    assert resolve_entry("zzzz", LEGAL).suggestion is None
    assert resolve_entry("", LEGAL).kind == "empty"


def test_a_pyramid_in_one_line():
    pyramid = get_spec("burano").move_entry()
    entry = resolve_entry("pyramid W w green Bl p", [], pyramid)
    assert entry.moves == ["pyramid white", "pyramid white", "pyramid green", "pyramid blue", "pyramid pink"]
    assert "not a colour" in resolve_entry("pyramid W Q", [], pyramid).message
    assert resolve_entry("pyramid", [], pyramid).kind == "error"
    # One legal pyramid move typed whole is that move; a game without the shortcut reads only move texts.
    assert resolve_entry("pyramid white", ["pyramid white"], pyramid).moves == ["pyramid white"]
    assert resolve_entry("pyramid W W", ["pyramid white"]).kind == "error"
    assert pyramid.one_line(["pyramid white", "pyramid green"]) == "pyramid w g"   # the board's letters
    assert pyramid.one_line(["pyramid white", "done"]) is None
    assert pyramid.complete_word("pyramid gr") == ["green"] and pyramid.complete_word("take") == []


def test_play_many_is_all_or_nothing():
    session = GameSession(2, SEED, ["human", "random"])
    session.advance()
    while session.view(0)["stage"] != "pyramid":
        session.play(0, session.legal_moves(0)[0])
        session.advance()
    ply = session.ply
    with pytest.raises(IllegalMoveError, match="move 15 of 15 .* no longer to move"):
        session.play_many(0, [f"pyramid {COLOURS[i % 6]}" for i in range(15)])
    with pytest.raises(IllegalMoveError, match="move 2 of 2 'pyramid purple'"):
        session.play_many(0, ["pyramid pink", "pyramid purple"])
    assert session.ply == ply
    assert len(session.play_many(0, ["pyramid pink", "pyramid blue"])) == 2 and session.ply == ply + 2


def test_help_shows_a_move_of_the_game_being_played():
    """Regression: `help` showed Burano's `pick flat` whatever the game."""
    from burano_ai.play import help_text
    text = help_text(None, ["bid 1", "bid 2", "bid 12"])
    assert "bid 12" in text and "pick" not in text and "will do: bid 12)" in text
    assert "will do: pick f)" in help_text(None, ["done", "pick island", "pick flat"])


def test_help_says_what_undo_does_in_this_game_and_fits_80_columns(tmp_path):
    """Issue 34, item 13: `help` said undo replays the same dice, though a game of secret chance redraws what
    followed (README, GameSession.undo); and its lines ran past 80 columns. Typed at `burano play` through a
    real pipe, in a secret and a seeded game of every game."""
    from burano_ai.games import all_specs
    for spec in all_specs():
        secret = run_piped(["--game", spec.key, "--bots", "random"], "help\nquit\n", tmp_path)
        seeded = run_piped(["--game", spec.key, "--bots", "random", "--seed", "3"], "help\nquit\n", tmp_path)
        for result in (secret, seeded):
            assert result.returncode == 0, result.stderr
            lines = plain(result.stdout).splitlines()
            start = next(i for i, line in enumerate(lines) if line.startswith("Type a move in one of these ways"))
            end = next(i for i in range(start, len(lines)) if lines[i].lstrip().startswith("help "))
            assert all(len(line) <= 80 for line in lines[start:end + 1]), (spec.key, lines[start:end + 1])
        undo = [line for line in plain(secret.stdout).splitlines() if line.lstrip().startswith("undo ")]
        assert undo and "drawn afresh" in undo[0] and "same" not in undo[0], (spec.key, undo)
        undo = [line for line in plain(seeded.stdout).splitlines() if line.lstrip().startswith("undo ")]
        assert undo and "seeded: the same draws follow" in undo[0], (spec.key, undo)
        if spec.key == "azul-sintra":    # help explained none of F, C, >n, x (issue 34, item 6)
            text = " ".join(plain(secret.stdout).split())
            assert "factory 3's pink to column 4; C: from the centre >x: break them all" in text


def test_hint_with_one_legal_move_names_it_without_a_search(tmp_path):
    """Issue 34, item 13: `hint` at a decision with one legal move printed `win 0.0% ... visits 0` (a search
    of nothing). A Venice 2099 game played to A's first forced decision, saved, resumed through a pipe."""
    rng = random.Random(2)
    session = GameSession(3, 5, ["human", "random", "random"], game="venice-2099")
    session.advance()
    while len(session.legal_moves(0)) != 1:
        session.play(0, rng.choice(session.legal_moves(0)))
        session.advance()
        assert not session.is_over()
    only = session.legal_moves(0)[0]
    path = tmp_path / "forced.json"
    session.save(path)
    result = run_piped(["--resume", str(path)], "hint\nquit\n", tmp_path)
    assert result.returncode == 0, result.stderr
    hint = [line for line in plain(result.stdout).splitlines() if line.startswith("hint: ")]
    assert hint == [f"hint: {only}  (the only legal move)"]
    assert "visits 0" not in result.stdout and "0.0%" not in result.stdout


def test_an_illegal_venice_placement_says_why_and_guesses_no_square(tmp_path):
    """Issue 34, item 13: typing a placement the rules forbid answered "did you mean" another square (a
    platform, say) without the reason. Now the reason: a square taken, a value A already stands on."""
    from burano_ai.games.venice_2099 import rules
    from burano_ai.games.venice_2099.rules import PLATFORM
    session = GameSession(3, 4, ["human", "random", "random"], game="venice-2099")
    session.advance()
    first = session.legal_moves(0)[0]
    session.play(0, first)
    session.advance()
    state = session.state
    name = lambda sq: rules.square_name(sq, state.n)    # noqa: E731
    taken = name(state.figures[1][0])
    mine = state.figures[0][0]
    value = rules.district_text(state.tiles[mine])[1]
    same = next(name(sq) for sq in range(state.n * state.n)
                if state.tiles[sq] != PLATFORM and rules.district_text(state.tiles[sq])[1] == value
                and all(sq not in f for f in state.figures))
    result = run_piped(["--game", "venice-2099", "--players", "3", "--bots", "random", "--seed", "4"],
                       f"{first}\nplace {taken}\nplace {same}\nquit\n", tmp_path)
    assert result.returncode == 0, result.stderr
    out = plain(result.stdout)
    assert f"'place {taken}' is not legal now: {taken} is taken by B's figure" in out
    a = "an" if value in ("8", "X") else "a"
    assert f"'place {same}' is not legal now: {same} is {a} {value} district and your figure on {name(mine)} " \
           f"already stands on {a} {value}" in out
    assert "did you mean" not in out


# ------------------------------------------------------------------------------------------------
# The board at 80 x 24 and at 140 columns, with and without colour (issue 21 item 4)

#: An SGR sequence that sets a foreground or background colour (not 39/49, the terminal's own colours).
COLOUR_SGR = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:[34][0-7]|9[0-7]|10[0-7]|[34]8;[0-9;]+)(?:;[0-9;]*)?m")
#: The compact board's first line (the island's columns) and the full board's route heading.
COMPACT_TOP = "   a  b  c  d  e  f  g  h  i"
FULL_ROUTE = "sailing route (a cycle, last back to first):"


def output_lines(transcript: str) -> list[str]:
    """What the program wrote, split where the cursor goes back to the line's start (newline or carriage
    return), without escape sequences: a piece longer than the terminal is wide wrapped on the screen."""
    return re.split(r"\r\n|\n|\r", ESCAPES.sub("", transcript))


def first_move_record(path: Path, players: int, seed: int, until: str) -> Path:
    """A record of a game where seat A (a person) always chose its first legal move and random bots the
    rest, saved at the start (`until` "start"), halfway through A's decisions ("mid") or three of them
    before the end ("end")."""
    seats = ["human"] + ["random"] * (players - 1)
    whole = GameSession(players, seed, seats)
    total = 0
    whole.advance()
    while not whole.is_over():
        whole.play(0, whole.legal_moves(0)[0])
        whole.advance()
        total += 1
    stop = {"start": 0, "mid": total // 2, "end": total - 3}[until]
    session = GameSession(players, seed, seats)
    session.advance()
    for _ in range(stop):
        session.play(0, session.legal_moves(0)[0])
        session.advance()
    session.save(path)
    return path


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_board_fits_80_by_24_at_the_start_midgame_and_end(tmp_path, players):
    """At 80 x 24 no line wraps, and at every prompt the whole board is on the screen above it: from its
    first line to the viewer's seat, the choices and the prompt on the last rows."""
    for until in ("start", "mid", "end"):
        path = first_move_record(tmp_path / f"{until}.json", players, 20 + players, until)
        child, transcript = spawn_cli(tmp_path, ["play", "--resume", str(path)], timeout=60)
        screen = Screen(transcript)
        prompts = 0
        try:
            while child.expect([PROMPT, "game over: final scores"]) == 0:
                rows = screen.rows()
                where = f"{players} players, {until}, prompt {prompts}:\n" + "\n".join(rows)
                assert rows[0].startswith(COMPACT_TOP) or rows[1].startswith(COMPACT_TOP), where
                assert any(row.startswith("A (blue)") for row in rows), where
                assert screen.cursor_row().startswith("A to move>"), where
                prompts += 1
                if until != "end" and prompts == 3:
                    child.send("quit\r")
                    break
                child.send("1\r")
            child.expect(pexpect.EOF)
        finally:
            child.close()
        text = transcript.getvalue()
        assert child.exitstatus == 0, plain(text)[-3000:]
        assert prompts == 3, (until, prompts)
        wrapped = [line for line in output_lines(text) if len(line) > 80]
        assert not wrapped, (players, until, wrapped)
        if until == "end":   # the final scores and the winners are on the last screen
            last_prompt = screen.fed
            rows = "\n".join(screen.rows())
            assert "game over: final scores" in rows and "winner" in rows, rows
            assert any(row.startswith(COMPACT_TOP) for row in output_lines(text[last_prompt:])), "no final board"


def test_the_full_board_from_120_columns_and_the_board_option(tmp_path):
    path = first_move_record(tmp_path / "game.json", 3, 5, "mid")
    shown = {}
    for columns, option in ((140, []), (80, []), (140, ["--board", "compact"]), (80, ["--board", "wide"])):
        child, transcript = spawn_cli(tmp_path, ["play", "--resume", str(path), *option], rows=60,
                                      columns=columns, timeout=60)
        quit_at_prompt(child, PROMPT)
        text = plain(transcript.getvalue())
        shown[columns, tuple(option)] = "full" if FULL_ROUTE in text else "compact" if COMPACT_TOP in text else "?"
        if columns == 140 and not option:
            assert "colours are lower-case (p pink, b blue" in text
            assert max(len(line) for line in output_lines(transcript.getvalue())) <= 140
    assert shown == {(140, ()): "full", (80, ()): "compact", (140, ("--board", "compact")): "compact",
                     (80, ("--board", "wide")): "full"}


def test_the_board_is_in_colour_on_a_colour_terminal(tmp_path):
    child, transcript = spawn_cli(tmp_path, ["play", "--bots", "random", "--seed", "12", "--record",
                                             str(tmp_path / "g.json")], timeout=60)
    quit_at_prompt(child, PROMPT)
    text = transcript.getvalue()
    # the docks' letters on the route, each in its colour (bold bright magenta is pink's)
    coloured = re.findall(r"(\x1b\[[0-9;]*m)([pbygow])\x1b\[0m", text)
    assert {letter for _, letter in coloured} == set("pbygow"), coloured
    assert all(COLOUR_SGR.fullmatch(sgr) for sgr, _ in coloured)
    assert len({sgr for sgr, _ in coloured}) == 6            # six colours, six styles


@pytest.mark.parametrize("env", [{"NO_COLOR": "1"}, {"TERM": "dumb"}], ids=["NO_COLOR", "TERM=dumb"])
def test_no_colour_with_no_color_or_a_dumb_terminal(tmp_path, env):
    child, transcript = spawn_cli(tmp_path, ["play", "--bots", "random", "--seed", "12", "--record",
                                             str(tmp_path / "g.json")], env=tty_env(**env), timeout=60)
    quit_at_prompt(child, "to move>")
    text = transcript.getvalue()
    assert COMPACT_TOP in plain(text)
    assert not COLOUR_SGR.search(text), COLOUR_SGR.findall(text)[:5]


def test_no_escape_codes_through_a_pipe(tmp_path):
    # A pipe is a script or a log: the full board (nothing scrolls off) and every legal move, in plain text.
    for option, top, width in (([], FULL_ROUTE, 120), (["--board", "compact"], COMPACT_TOP, 80)):
        result = subprocess.run([sys.executable, CLI, "play", "--bots", "random", "--seed", "12", *option],
                                input="1\nquit\n", capture_output=True, text=True, cwd=tmp_path, timeout=120,
                                env=tty_env(COLUMNS="80", LINES="24"))
        assert result.returncode == 0, result.stderr
        assert top in result.stdout and "\x1b" not in result.stdout
        assert max(len(line) for line in result.stdout.splitlines()) <= width
        assert "more: type legal" not in result.stdout
        assert "4 draw a flat roof tile" in result.stdout      # the first decision's whole list, in words


def test_the_choices_are_shortened_to_the_rows_left_under_the_board(tmp_path):
    from rich.console import Console

    from burano_ai.play import RULE, PlaySetup, Table, Terminal
    session = GameSession(4, 3, ["human", "random", "random", "random"])
    session.advance()
    rng = random.Random(3)
    while len(session.legal_moves(0)) < 20:            # a decision with a long list
        session.play(0, rng.choice(session.legal_moves(0)))
        session.advance()
    legal = session.legal_moves(0)
    console = Console(file=io.StringIO(), width=80, height=24, force_terminal=True)
    table = Table(PlaySetup(session, tmp_path / "g.json"), Terminal(False, console))
    full = table.choice_lines(0, None)
    assert full[0] == RULE and len(full) > 3
    assert table.choice_lines(0, len(full)) == full                  # room for all: all of them
    for rows in range(-1, len(full)):
        lines = table.choice_lines(0, rows)
        assert len(lines) <= max(rows, 1), (rows, lines)
        text = "\n".join(line for line in lines if line != RULE)
        more = re.search(r"\.\.\. (\d+) more: type legal to list them all", text)
        numbers = [int(n) for n in re.findall(r"(?:^|  ) ?(\d+) [a-z]", re.sub(r"\.\.\. \d+ more|\d+ moves: type", "", text))]
        shown = len(numbers)
        assert sorted(numbers) == list(range(1, shown + 1))             # the first moves, numbered as always
        if more:                                                       # never "... 0 more" (issue 34)
            assert int(more.group(1)) == len(legal) - shown > 0
        else:
            assert shown == len(legal) or (shown == 0 and f"{len(legal)} moves: type legal" in text)
        # issue 34, item 13: at 80 x 24 Burano's board leaves 2-4 rows, and the words listed 1 of 12-16 moves:
        # the move texts packed in columns list several
        if rows >= 2:
            assert shown >= min(len(legal), 5), (rows, lines)
