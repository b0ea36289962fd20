"""Small inputs that used to crash or lie (issue 20), each a regression test that failed before its fix:
one line naming the problem, exit 2 (or, inside `burano play`, a refusal and the game goes on), nothing
written.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from burano_ai import Game, State
from burano_ai.games.burano.reference import Game as ReferenceGame
from burano_ai.games.burano.reference import State as ReferenceState
from burano_ai.play import resolve_entry

ROOT = Path(__file__).resolve().parent.parent
CLI = str(ROOT / "cli.py")
LEGAL = ["pick workshop", "pick island", "pick flat", "pick fountains"]


def burano(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("BURANO_DEBUG_TRACEBACK", None)
    return subprocess.run([sys.executable, CLI, *args], input=stdin, capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=120)


def one_error_line(proc: subprocess.CompletedProcess, *words: str) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    for word in words:
        assert word in lines[0], lines[0]
    assert "Traceback" not in proc.stderr
    return lines[0]


# ------------------------------------------------------------------------------------------------
# burano play: entries that are digits to str.isdigit but not numbers, and numbers too long for int()


@pytest.mark.parametrize("text", ["²", "①", "٣", "1²"])
def test_unicode_digits_are_not_a_choice(text):
    entry = resolve_entry(text, LEGAL)
    assert entry.kind == "error" and "not a legal move" in entry.message


@pytest.mark.parametrize("digits", [7, 4_301, 100_000])
def test_a_number_of_thousands_of_digits_is_no_choice(digits):
    entry = resolve_entry("9" * digits, LEGAL)
    assert entry.kind == "error" and "there is no choice" in entry.message and "choose 1 to 4" in entry.message
    assert len(entry.message) < 100


def test_a_save_path_keeps_its_case_and_spaces():
    # It was lowercased and its spaces collapsed: 'save My  Game.json' wrote 'my game.json'.
    entry = resolve_entry("  SAVE My  Game.json ", LEGAL)
    assert (entry.kind, entry.command, entry.arg) == ("command", "save", "My  Game.json")
    assert resolve_entry("undo", LEGAL).arg is None


def test_ascii_numbers_still_choose():
    assert resolve_entry("3", LEGAL).moves == ["pick flat"]
    assert resolve_entry("0003", LEGAL).moves == ["pick flat"]


def test_play_refuses_bad_entries_and_a_nul_path_and_goes_on(tmp_path):
    entries = ["²", "①", "9" * 5000, "save a\0b.json", "1", "quit"]
    proc = burano("play", "--players", "2", "--seed", "3", "--bots", "random", cwd=tmp_path, stdin="\n".join(entries) + "\n")
    assert proc.returncode == 0, proc.stderr
    assert "internal error" not in proc.stdout + proc.stderr and "Traceback" not in proc.stderr
    assert proc.stdout.count("is not a legal move here") == 2
    assert "there is no choice 999999... (5000 digits)" in proc.stdout
    assert "cannot save to 'a\\x00b.json'" in proc.stdout
    assert "A: pick island" in proc.stdout          # the game went on after the refusals
    assert sorted(p.name for p in tmp_path.iterdir()) == ["burano-game-3.json"]


# ------------------------------------------------------------------------------------------------
# burano apply: no move at all


@pytest.mark.parametrize("moves", [[""], [";;;;"], [" ; ", ""]])
def test_apply_without_a_move_is_an_error_and_writes_nothing(tmp_path, moves):
    position = tmp_path / "p.json"
    position.write_text(Game(2).new_initial_state(1).to_json(indent=2) + "\n")
    before = position.read_bytes()
    mtime = position.stat().st_mtime_ns
    proc = burano("apply", str(position), *moves, "--output", str(position), cwd=tmp_path)
    one_error_line(proc, "no move given")
    assert position.read_bytes() == before and position.stat().st_mtime_ns == mtime
    assert proc.stdout == ""
    proc = burano("apply", str(position), *moves, cwd=tmp_path)      # to stdout: nothing printed either
    one_error_line(proc, "no move given")
    assert proc.stdout == ""


# ------------------------------------------------------------------------------------------------
# --seed: the option is named, a negative seed is refused


@pytest.mark.parametrize("command", [["new"], ["random-game", "-q"], ["arena", "--bots", "random,random"],
                                     ["suggest", "--iterations", "10"]])
@pytest.mark.parametrize("seed", ["-1", "-3", str(2**63)])
def test_seed_options_out_of_range_name_the_option(tmp_path, command, seed):
    proc = burano(*command, "--seed", seed, cwd=tmp_path)
    line = one_error_line(proc, "--seed")
    assert "record" not in line
    assert proc.stdout == ""
    assert list(tmp_path.iterdir()) == []


def test_random_game_with_a_bad_seed_writes_no_record(tmp_path):
    proc = burano("random-game", "--seed", "-3", "--record", "r.json", cwd=tmp_path)
    one_error_line(proc, "--seed", "from 0 to 2^63-1")
    assert not (tmp_path / "r.json").exists()


def test_the_largest_seed_is_accepted(tmp_path):
    proc = burano("new", "--players", "2", "--seed", str(2**63 - 1), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["players"] == 2


# ------------------------------------------------------------------------------------------------
# State(Game(n)): a valid position, never an empty board


@pytest.mark.parametrize("players", [2, 3, 4])
def test_state_of_a_game_is_its_deal(players):
    state = State(Game(players))
    state.check()
    assert state.to_dict() == Game(players).new_initial_state(0).to_dict()
    seeded = State(Game(players), 9)
    seeded.check()
    assert seeded.to_dict() == Game(players).new_initial_state(9).to_dict()
    reference = ReferenceState(ReferenceGame(players), 9)
    reference.check()
    assert reference.to_dict() == seeded.to_dict()
    assert ReferenceGame(players).new_initial_state(9).to_dict() == seeded.to_dict()
