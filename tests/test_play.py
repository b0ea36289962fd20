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
    assert pyramid.one_line(["pyramid white", "pyramid green"]) == "pyramid W G"
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
