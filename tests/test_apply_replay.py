"""`burano apply`, `burano replay` and `random-game --record`: keeping a table's position current, records back."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import burano_ai
from burano_ai.random_play import sample_chance
from burano_ai.record import GameRecord, RecordError, apply_moves
from burano_ai.games.burano.reference import Game as ReferenceGame
from cli import app

ROOT = Path(__file__).resolve().parents[1]


def _random_texts(state, plies: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    texts = []
    for _ in range(plies):
        action = sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        texts.append(state.action_to_string(action))
        state.apply_action(action)
    return texts


def test_apply_round_trips_with_playing_the_moves(runner, tmp_path):
    start = burano_ai.Game(3).new_initial_state(8)
    (tmp_path / "p.json").write_text(start.to_json())
    played = start.clone()
    texts = _random_texts(played, 60, 1)
    # one move per argument, and several separated by ';'
    args = texts[:20] + ["; ".join(texts[20:])]
    result = runner.invoke(app, ["apply", str(tmp_path / "p.json"), *args, "-o", str(tmp_path / "q.json")])
    assert result.exit_code == 0, result.output
    assert "applied 60 steps" in result.stdout
    assert json.loads((tmp_path / "q.json").read_text()) == played.to_dict()
    # without -o the position goes to stdout
    again = runner.invoke(app, ["apply", str(tmp_path / "p.json"), *texts])
    assert json.loads(again.stdout) == played.to_dict()


def test_apply_is_all_or_nothing_and_names_the_move(runner, tmp_path):
    start = burano_ai.Game(2).new_initial_state(5)
    path = tmp_path / "p.json"
    path.write_text(start.to_json())
    before = path.read_text()
    texts = _random_texts(start.clone(), 10, 2)
    result = runner.invoke(app, ["apply", str(path), *texts[:4], "pick flatt", *texts[4:], "-o", str(path)])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert "move 5 'pick flatt'" in result.stderr
    assert path.read_text() == before          # nothing written
    result = runner.invoke(app, ["apply", str(path), "?"])
    assert result.exit_code == 2 and "full position" in result.stderr
    result = runner.invoke(app, ["apply", str(tmp_path / "missing.json"), "done"])
    assert result.exit_code == 2 and "no such file" in result.stderr


def test_did_you_mean_names_the_close_legal_move():
    state = burano_ai.Game(2).new_initial_state(5)
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    typo = legal[0][:-1]
    with pytest.raises(RecordError, match=f"did you mean '{legal[0]}'"):
        apply_moves(state, [typo])


def _to_blind_draw(players: int, seed: int, drawer_not: int):
    """A random game run up to a pending blind draw of a seat other than `drawer_not`."""
    for s in range(seed, seed + 200):
        state = burano_ai.Game(players).new_initial_state(s)
        rng = random.Random(s)
        while not state.is_terminal():
            if state.is_chance_node() and state.chance_kind == 1 and state.actor != drawer_not:
                return state
            state.apply_action(sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    raise AssertionError("no blind draw found")


def test_apply_in_a_one_seat_view_writes_hidden_steps_as_question_marks(runner, tmp_path):
    state = _to_blind_draw(2, 1, drawer_not=0)
    view = tmp_path / "view.json"
    view.write_text(state.to_json(0))
    # naming the outcome of a draw seat A cannot see is refused; '?' is accepted
    outcome = state.action_to_string(state.chance_outcomes()[0][0])
    bad = runner.invoke(app, ["apply", str(view), outcome])
    assert bad.exit_code == 2 and "cannot see this step" in bad.stderr
    good = runner.invoke(app, ["apply", str(view), "?", "-o", str(tmp_path / "after.json")])
    assert good.exit_code == 0, good.output
    after = json.loads((tmp_path / "after.json").read_text())
    assert after["view"] == "A"
    # the same as the umpire's position after any outcome, seen by A
    full = state.clone()
    full.apply_action(state.chance_outcomes()[-1][0])
    assert after == full.to_dict(0)


@pytest.fixture(scope="module")
def record4(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("rec") / "game4.json"
    done = subprocess.run([sys.executable, str(ROOT / "cli.py"), "random-game", "-n", "4", "-s", "11", "-q",
                           "--record", str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"record written to {path}" in done.stdout
    return path


def test_random_game_record_replays_to_its_scores_in_both_implementations(record4):
    record = GameRecord.load(record4)
    assert [s.player for s in record.seats] == ["random"] * 4
    assert record.replay().scores() == record.result["scores"]
    assert record.replay(game_factory=ReferenceGame).scores() == record.result["scores"]


def test_replay_shows_any_step_and_writes_views(runner, record4, tmp_path):
    record = GameRecord.load(record4)
    result = runner.invoke(app, ["replay", str(record4)])
    assert result.exit_code == 0, result.output
    assert f"position after step {len(record.steps)} of {len(record.steps)}" in result.stdout
    assert "result: " in result.stdout
    result = runner.invoke(app, ["replay", str(record4), "--ply", "120", "--seat", "B", "-o", str(tmp_path / "b.json")])
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "b.json").read_text()) == record.replay(120).to_dict(1)
    result = runner.invoke(app, ["replay", str(record4), "--ply", "-1", "--json"])
    assert json.loads(result.stdout) == record.replay(len(record.steps) - 1).to_dict()
    # the listing as B: the other seats' blind draws are not named
    listing = runner.invoke(app, ["replay", str(record4), "--seat", "B"]).stdout
    for i, step in enumerate(record.steps):
        if step.kind == "fish-draw" and step.seat != "B":
            line = next(x for x in listing.splitlines() if x[1:].lstrip().startswith(f"{i} "))
            assert "draws a fish card from the deck" in line and step.move.split(": ")[1] not in line


def test_replay_of_a_one_seat_export(runner, record4, tmp_path):
    export = GameRecord.load(record4).for_seat("C")
    path = tmp_path / "c.json"
    export.save(path)
    result = runner.invoke(app, ["replay", str(path), "--ply", "300", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == GameRecord.load(record4).replay(300).to_dict(2)
    result = runner.invoke(app, ["replay", str(path), "--seat", "A"])
    assert result.exit_code == 2 and "exported for seat C" in result.stderr


@pytest.mark.parametrize("edit,message", [
    (lambda d: d["steps"][30].update(move="sail I9"), "record.steps[30]"),
    (lambda d: d.update(format="pgn"), "record.format"),
    (lambda d: d["steps"].insert(0, {"actor": "Z", "move": "done"}), "record.steps[0].actor"),
])
def test_bad_records_give_one_line(runner, record4, tmp_path, edit, message):
    data = json.loads(record4.read_text())
    edit(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and message in result.stderr and result.stderr.count("\n") == 1


def test_replay_bad_options(runner, record4, tmp_path):
    for args, message in [(["--ply", "100000"], "--ply must be"), (["--seat", "E"], "--seat"),
                          (["-o", str(tmp_path / "no" / "x.json")], "no such directory")]:
        result = runner.invoke(app, ["replay", str(record4), *args])
        assert result.exit_code == 2 and message in result.stderr, result.stderr
    result = runner.invoke(app, ["replay", str(tmp_path)])
    assert result.exit_code == 2 and "directory" in result.stderr
