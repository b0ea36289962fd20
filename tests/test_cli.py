"""Tests of the `burano` command line (cli.py), through typer's CliRunner on `cli.app`.

User mistakes must end with exactly one `error:` line on stderr and exit code 2, never a traceback.
"""

import json
from importlib import resources

import pytest
from typer.testing import CliRunner

import cli
from burano_ai.games import get_spec
from burano_ai.games.burano.notation import position_from_json, position_to_dict
from burano_ai.games.burano.reference import Game

EXAMPLE = resources.files("burano_ai.games.burano.data").joinpath("examples/midgame-4p-C.json")


def invoke(runner: CliRunner, *args: str):
    return runner.invoke(cli.app, [str(a) for a in args])


def assert_user_error(result, *fragments: str) -> str:
    """Exit code 2, exactly one line on stderr starting `error:`, no traceback anywhere."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def write_position(tmp_path, data) -> str:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def start_position(players: int = 4, seed: int = 1) -> dict:
    return Game(players).new_initial_state(seed).to_dict()


# ------------------------------------------------------------------------------------------------
# Commands


def test_commands_use_the_compiled_core():
    import burano_ai
    assert cli._spec(None).game_class() is burano_ai.Game
    assert type(cli._spec(None).new_game(2)) is burano_ai.Game
    assert burano_ai.Game.__module__ == "burano_ai.games.burano._core"


def test_new_show_round_trip(runner, tmp_path):
    path = tmp_path / "start.json"
    result = invoke(runner, "new", "--players", "3", "--seed", "7", "-o", path)
    assert result.exit_code == 0, result.output
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["players"] == 3 and data["view"] is None
    assert data == Game(3).new_initial_state(7).to_dict()
    assert position_to_dict(position_from_json(path.read_text(encoding="utf-8"))) == data

    shown = invoke(runner, "show", path)
    assert shown.exit_code == 0, shown.output
    assert "Burano, 3 players" in shown.stdout and "full view" in shown.stdout
    assert "legal moves for A" in shown.stdout and "pick island" in shown.stdout

    as_b = invoke(runner, "show", path, "--seat", "B")
    assert as_b.exit_code == 0
    assert "view of seat B" in as_b.stdout
    assert "legal moves" not in as_b.stdout      # A is to move, not B
    as_a = invoke(runner, "show", path, "--seat", "a")
    assert "view of seat A" in as_a.stdout and "legal moves for A" in as_a.stdout


def test_seats_are_letters_everywhere(runner, tmp_path):
    """One seat syntax where a person types a seat: letters; `--seat 1` is an error naming them."""
    path = tmp_path / "start.json"
    invoke(runner, "new", "--players", "3", "--seed", "7", "-o", path)
    assert_user_error(invoke(runner, "show", path, "--seat", "1"), "A, B, C")


def test_new_writes_pretty_json_to_stdout(runner):
    result = invoke(runner, "new", "--players", "2", "--seed", "3")
    assert result.exit_code == 0
    assert result.stdout.startswith('{\n  "format": "burano-position/1"')
    assert json.loads(result.stdout) == Game(2).new_initial_state(3).to_dict()


def test_show_the_example_view(runner):
    result = invoke(runner, "show", EXAMPLE)
    assert result.exit_code == 0, result.output
    assert "view of seat C" in result.stdout
    assert "legal moves for C" in result.stdout
    assert "blind: 1 card (unseen)" in result.stdout
    assert_user_error(invoke(runner, "show", EXAMPLE, "--seat", "A"), "seat C's view")


def test_random_game_two_players(runner):
    result = invoke(runner, "random-game", "--players", "2", "--seed", "4")
    assert result.exit_code == 0, result.output
    out = result.stdout.splitlines()
    assert out[0] == "random game: 2 players, seed 4"
    assert any(" chance " in line and "roof tile:" in line for line in out)
    assert any(line.startswith("spring r1") for line in out)
    assert "final scores" in out
    assert any(line.startswith("winner") for line in out)
    assert sum(1 for line in out if line.startswith(("A (blue)", "B (red)"))) == 2
    # The same seed gives the same game.
    assert invoke(runner, "random-game", "--players", "2", "--seed", "4").stdout == result.stdout


def test_random_game_quiet_prints_only_scores(runner):
    result = invoke(runner, "random-game", "--players", "3", "--seed", "2", "--quiet")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "final scores" and len(lines) == 1 + 1 + 3 + 1


# ------------------------------------------------------------------------------------------------
# User errors: one line, exit code 2


def test_malformed_json_file(runner, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format": "burano-position/1",\n', encoding="utf-8")
    assert_user_error(invoke(runner, "show", path), "malformed JSON")


def test_missing_file(runner, tmp_path):
    assert_user_error(invoke(runner, "show", tmp_path / "nowhere.json"), "nowhere.json")


def test_unreadable_file(runner, tmp_path):
    path = tmp_path / "binary.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    assert_user_error(invoke(runner, "show", path))
    assert_user_error(invoke(runner, "show", tmp_path))     # a directory


def test_position_with_121_cubes(runner, tmp_path):
    data = start_position(4)
    # 1 fountain cube + 4 x 18 reserve cubes = 73; 3 pyramids of 14 and 6 prep cubes make 121.
    data["seats"][0]["pyramid"] = ["pink"] * 8 + ["blue"] * 6
    data["seats"][1]["pyramid"] = ["yellow"] * 8 + ["green"] * 6
    data["seats"][2]["pyramid"] = ["orange"] * 8 + ["white"] * 6
    data["seats"][0]["prep"] = {"white": 2, "green": 1}
    data["seats"][3]["prep"] = {"blue": 2, "green": 1}
    assert_user_error(invoke(runner, "show", write_position(tmp_path, data)), "121 cubes")


@pytest.mark.parametrize("square", ["r9c9", "r2c1"])
def test_worker_on_a_missing_square(runner, tmp_path, square):
    data = start_position(4)
    data["seats"][0]["workshop"] = [square]
    data["seats"][0]["ring"]["workers"] -= 1
    assert_user_error(invoke(runner, "show", write_position(tmp_path, data)), "seats[0].workshop", square)


@pytest.mark.parametrize("command", ["new", "random-game"])
@pytest.mark.parametrize("players", ["5", "1", "x"])
def test_bad_players(runner, command, players):
    assert_user_error(invoke(runner, command, "--players", players), "--players")


@pytest.mark.parametrize("seat", ["E", "5", "0", "AB"])
def test_bad_seat(runner, tmp_path, seat):
    path = tmp_path / "start.json"
    assert invoke(runner, "new", "--players", "4", "-o", path).exit_code == 0
    assert_user_error(invoke(runner, "show", path, "--seat", seat), "--seat")


def test_seat_beyond_player_count(runner, tmp_path):
    path = tmp_path / "start.json"
    assert invoke(runner, "new", "--players", "2", "-o", path).exit_code == 0
    assert_user_error(invoke(runner, "show", path, "--seat", "C"), "2-player")


def test_usage_errors_are_one_line(runner):
    assert_user_error(invoke(runner, "show"))
    assert_user_error(invoke(runner, "fly"), "fly")
    assert_user_error(invoke(runner, "new", "--colour", "red"), "--colour")


def test_invalid_position_fields_are_named(runner, tmp_path):
    data = start_position(2)
    data["seats"][1]["coins"] = -3
    assert_user_error(invoke(runner, "show", write_position(tmp_path, data)), "seats[1].coins")


# ------------------------------------------------------------------------------------------------
# suggest


def test_suggest_on_the_builtin_example(runner):
    result = invoke(runner, "suggest", "--iterations", "200", "--seed", "3")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("seat C: ")
    assert "plan for this turn:" in result.stdout and "iterations" in result.stdout


def test_suggest_json_is_reproducible(runner, tmp_path):
    path = write_position(tmp_path, json.loads(get_spec("burano").example_position()))
    outs = [json.loads(invoke(runner, "suggest", path, "--iterations", "150", "--threads", "1", "--json",
                              "--top", "3").stdout)
            for _ in range(2)]
    for out in outs:
        out.pop("elapsed"), out.pop("iterations_per_second")
    assert outs[0] == outs[1]
    assert outs[0]["seat"] == "C" and len(outs[0]["candidates"]) <= 3
    assert outs[0]["plan"].split(" → ")[0] == outs[0]["move"]
    assert outs[0]["threads"] == 1 and outs[0]["deterministic"] is True


@pytest.mark.parametrize("args,fragment", [
    (("--seat", "E"), "--seat"),
    (("--seat", "A"), "seat A"),                 # the example is seat C's view
    (("--iterations", "0"), "iterations"),
    (("--time", "-1"), "seconds"),
    (("--workers", "0"), "workers"),
    (("--threads", "0"), "threads must be a whole number from 1"),
    (("--threads", "65"), "threads must be a whole number from 1"),
    (("--threads", "2", "--workers", "2"), "choose one of them"),
    (("--top", "0"), "--top"),
    (("--playout", "smart"), "playout must be one of heuristic, random"),
])
def test_suggest_bad_options_exit_2(runner, args, fragment):
    assert_user_error(invoke(runner, "suggest", *args), fragment)


def test_suggest_playout_option_changes_the_search(runner):
    outs = {}
    for playout in ("heuristic", "random"):
        result = invoke(runner, "suggest", "--iterations", "150", "--json", "--playout", playout)
        assert result.exit_code == 0, result.output
        outs[playout] = json.loads(result.stdout)["candidates"]
    assert outs["heuristic"] != outs["random"]


def test_suggest_bad_positions_exit_2(runner, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert_user_error(invoke(runner, "suggest", str(bad)), "malformed JSON")
    assert_user_error(invoke(runner, "suggest", str(tmp_path / "missing.json")), "no such file")
