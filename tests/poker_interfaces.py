"""The poker games at the table (issue 32), as people and programs use them: the steps every poker game's
tests/games/<game>/test_interfaces.py runs.

- `a_hand_in_a_terminal`: `burano play --game G` in a real 80 x 24 pseudo-terminal, seat A typing against
  the random bot to the end of a hand (tests/pty_helpers.py); values in chips, never VP or win shares.
- `hint_in_chips`: the `hint` command at the table: expected chips per move, no win chance.
- `one_engine_query`: `burano engine` through real pipes (tests/test_protocol.py's `EngineProcess`), one
  query on a one-seat view; the answer's values are chips.
- `suggest_in_chips`: `burano suggest` on a one-seat view file: a table of chips, with no win column.
- `arena_and_replay`: `burano arena --games 2` writes two records; `burano replay` plays each back to the
  arena's result, told in chips.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

from burano_ai.games import get_spec
from burano_ai.record import GameRecord
from pty_helpers import CLI, ESCAPES, PROMPT, ROOT, play_a_whole_game_in_a_terminal, tty_env

#: Words of other games' scores and of win shares: a poker game shows chips.
NOT_CHIPS = re.compile(r"\bVP\b|win share|\bpoints?\b", re.IGNORECASE)
WAIT = 120


def _shows_the_pot(rows: list[str], where: str) -> None:
    assert any('"pot"' in row and '"chips_in"' in row for row in rows), where
    assert not any(NOT_CHIPS.search(row) for row in rows), where


def a_hand_in_a_terminal(tmp_path, game: str, seed: int) -> None:
    plain = play_a_whole_game_in_a_terminal(tmp_path, game, seed, _shows_the_pot, bot="random", min_moves=1)
    end = plain[plain.rindex("game over: final scores"):]
    assert "chips" in end and re.search(r"\bA (wins|and B split)", end), end
    assert not NOT_CHIPS.search(plain), NOT_CHIPS.search(plain)
    assert list(tmp_path.glob(f"{game}-game-*.json")), "the hand's record is saved"


def one_engine_query(game: str, history: list[str], best: str | None = None) -> dict:
    """One query on seat A's view after `history`; its moves are A's legal moves, their expected values
    chips within the game's payoff range. Returns the answer."""
    from test_protocol import EngineProcess
    spec = get_spec(game)
    position = {"format": spec.position_format, "players": 2, "options": {}, "history": history, "view": "A"}
    state, _seat = spec.load_position(position)
    engine = EngineProcess()
    try:
        engine.send({"id": "hand", "position": position, "maxIterations": 600, "seed": 1})
        answer = engine.until_final("hand")[-1]
    finally:
        assert engine.close() == 0, engine.stderr[-2000:]
    assert "error" not in answer, answer
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    assert {info["move"] for info in answer["moveInfos"]} == legal and answer["move"] in legal
    low, high = spec.payoff_range(2)
    values = [info["expectedVp"] for info in answer["moveInfos"]]       # the protocol's field: chips here
    assert all(low <= v <= high for v in values) and max(values) > 1, values     # more than a share of 1
    if best is not None:
        assert answer["move"] == best, answer
    return answer


def arena_and_replay(tmp_path, game: str) -> None:
    records, out = tmp_path / "records", tmp_path / "arena.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, CLI, "arena", "--game", game, "--games", "2", "--seed", "1",
                           "--bots", "random,ismcts:iterations=200", "--records", str(records), "--out", str(out)],
                          capture_output=True, text=True, timeout=WAIT, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "mean CHIPS" in done.stdout and not NOT_CHIPS.search(done.stdout), done.stdout
    games = json.loads(out.read_text())["games"]
    assert len(games) == 2
    for played in games:
        path = records / played["record"]
        record = GameRecord.from_json(path.read_text())
        assert record.game == game
        replayed = subprocess.run([sys.executable, CLI, "replay", str(path)], capture_output=True, text=True,
                                  timeout=WAIT, env=env, cwd=tmp_path)
        assert replayed.returncode == 0, replayed.stderr[-2000:]
        scores = played["scores"]
        told = ", ".join(f"{letter} {s:+g} chip{'' if abs(s) == 1 else 's'}" for letter, s in zip("AB", scores))
        assert f"game over: {told}" in replayed.stdout, (told, replayed.stdout[-800:])
        assert not NOT_CHIPS.search(replayed.stdout), replayed.stdout


def suggest_in_chips(tmp_path, game: str, history: list[str]) -> str:
    """`burano suggest` on seat A's view after `history`: expected chips per move (signed), no chance to win."""
    spec = get_spec(game)
    path = tmp_path / "view.json"
    path.write_text(json.dumps({"format": spec.position_format, "players": 2, "options": {}, "history": history,
                                "view": "A"}))
    done = subprocess.run([sys.executable, CLI, "suggest", str(path), "--iterations", "300", "--seed", "1"],
                          capture_output=True, text=True, timeout=WAIT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    header = next(line for line in done.stdout.splitlines() if line.split()[:2] == ["move", "visits"])
    assert header.split() == ["move", "visits", "chips", "margin"], done.stdout
    assert "%" not in done.stdout and "chance to win" not in done.stdout and not NOT_CHIPS.search(done.stdout)
    assert re.search(r"^ \S+ +\d+ +[+-]\d+\.\d\d ", done.stdout, re.M), done.stdout
    return done.stdout


def hint_in_chips(tmp_path, game: str) -> None:
    """`hint 0.2` at seat A's first prompt in a real terminal: each listed move with its expected chips."""
    import pexpect
    child = pexpect.spawn(sys.executable, [CLI, "play", "--game", game, "--you", "A", "--bots", "random", "--seed", "1"],
                          cwd=str(tmp_path), env=tty_env(), dimensions=(24, 80), encoding="utf-8", timeout=WAIT)
    try:
        child.expect(PROMPT)
        child.send("hint 0.2\r")
        child.expect(r"hint: (\S+) .*?" + PROMPT)
        told = ESCAPES.sub("", child.match.group(0))
        child.send("quit\r")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    lines = [line.split() for line in told.splitlines() if "visits" in line]
    assert lines and all(words[1] == "chips" and re.fullmatch(r"[+-]\d+\.\d\d", words[2]) for words in lines), told
    assert "%" not in told and not NOT_CHIPS.search(told), told
