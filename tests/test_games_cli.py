"""The command line over the game registry: `burano games`, `--game` on every command, `--players` in the
game's own range, a file naming another game than `--game`, and the people side of a spec
(`core.people.PeopleSide`, Burano's overrides, its pyramid line).

User mistakes end with one `error:` line on stderr and exit code 2 (as in tests/test_cli.py).
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cli
import burano_ai.games as registry
from burano_ai import Game
from burano_ai.core.errors import OptionError
from burano_ai.core.people import PeopleSide, check_player_count, player_counts
from burano_ai.games import DEFAULT_GAME, all_specs, game_keys, get_spec
from burano_ai.games.burano.render import render_legal_actions, render_position
from burano_ai.record import GameRecord, SeatInfo

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = str(resources.files("burano_ai.games.burano.data").joinpath("examples/midgame-4p-C.json"))


@pytest.fixture
def runner():
    return CliRunner()


def invoke(runner: CliRunner, *args):
    return runner.invoke(cli.app, [str(a) for a in args])


def assert_user_error(result, *fragments: str) -> str:
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def record_file(tmp_path) -> Path:
    """A finished 2-player Burano record (random moves)."""
    path = tmp_path / "game.json"
    result = CliRunner().invoke(cli.app, ["random-game", "--players", "2", "--seed", "3", "--quiet",
                                          "--record", str(path)])
    assert result.exit_code == 0, result.stderr
    return path


@pytest.fixture
def other_game(monkeypatch):
    """A second registered game for the length of a test: Burano's spec under another key and format."""
    spec = dataclasses.replace(get_spec("burano"), key="other", title="Other", position_format="other-position/1")
    monkeypatch.setitem(registry.REGISTRY, "other", "tests:unused")
    monkeypatch.setitem(registry._loaded, "other", spec)
    return spec


# ------------------------------------------------------------------------------------------------
# burano games


def test_games_lists_every_registered_game(runner):
    result = invoke(runner, "games")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["game", "title", "players", "default", "position", "format", "implementations"]
    burano = next(line for line in lines if line.startswith("burano *"))
    assert burano.split() == ["burano", "*", "Burano", "2-4", "4", "burano-position/1", "compiled,", "reference"]
    for spec in all_specs():
        assert any(line.startswith(spec.key) for line in lines[1:])
        assert f"{spec.key}: {', '.join(sorted(spec.capabilities))}" in lines
    assert lines[-1].startswith("* the default game")


def test_games_json(runner):
    result = invoke(runner, "games", "--json")
    assert result.exit_code == 0, result.stderr
    games = json.loads(result.stdout)
    assert [g["key"] for g in games] == game_keys()
    assert games[0] == {
        "key": "burano", "title": "Burano", "min_players": 2, "max_players": 4, "default_players": 4,
        "position_format": "burano-position/1", "implementations": ["compiled", "reference"],
        "capabilities": sorted(get_spec("burano").capabilities), "default": True, "placeholder": None, "options": [],
    }
    assert [g["key"] for g in games if g["default"]] == [DEFAULT_GAME]


def test_a_game_with_placeholder_data_says_so_in_games_and_suggest(runner):
    """Issue 22: stand-in component data is announced in plain words wherever the game is played."""
    placeholder = [spec for spec in all_specs() if "placeholder_data" in spec.capabilities]
    assert placeholder, "azul-sintra ships placeholder data"
    listing = invoke(runner, "games").stdout.splitlines()
    games = {g["key"]: g for g in json.loads(invoke(runner, "games", "--json").stdout)}
    for spec in all_specs():
        notice = games[spec.key]["placeholder"]
        if spec in placeholder:
            assert notice and notice.startswith("placeholder data") and f"{spec.key} uses {notice}" in listing
            text = invoke(runner, "suggest", "--game", spec.key, "--iterations", "60", "--threads", "1")
            assert text.exit_code == 0, text.stderr
            assert text.stdout.rstrip().splitlines()[-1] == f"note: {spec.key} uses {notice}"
            data = json.loads(invoke(runner, "suggest", "--game", spec.key, "--iterations", "60", "--threads", "1",
                                     "--json").stdout)
            assert data["placeholder"] == notice
        else:
            assert notice is None and not any(line.startswith(f"{spec.key} uses") for line in listing)


def test_games_lists_a_newly_registered_game(runner, other_game):
    games = json.loads(invoke(runner, "games", "--json").stdout)
    other = next(g for g in games if g["key"] == "other")
    assert (other["title"], other["position_format"], other["default"]) == ("Other", "other-position/1", False)
    assert any(line.startswith("other ") for line in invoke(runner, "games").stdout.splitlines())


# ------------------------------------------------------------------------------------------------
# --game: unknown games, files of another game


def _commands_with(game: str, record: Path) -> list[list[str]]:
    return [
        ["new", "--game", game],
        ["show", EXAMPLE, "--game", game],
        ["random-game", "--game", game],
        ["apply", EXAMPLE, "done", "--game", game],
        ["replay", str(record), "--game", game],
        ["suggest", "--game", game],
        ["suggest", EXAMPLE, "--game", game],
        ["arena", "--bots", "random,random", "--game", game],
        ["play", "--game", game],
        ["play", "--resume", str(record), "--game", game],
        ["engine", "--game", game],
        ["analyse", str(record), "--game", game],
        ["serve", "--game", game],
    ]


def test_every_command_takes_game_and_refuses_an_unknown_one(runner, record_file):
    for args in _commands_with("chess", record_file):
        line = assert_user_error(invoke(runner, *args), "unknown game 'chess'")
        assert line == f"error: unknown game 'chess' (known games: {', '.join(game_keys())})", args


def test_every_command_takes_game_burano(runner, record_file, tmp_path):
    assert invoke(runner, "new", "--game", "burano", "--players", "2").exit_code == 0
    shown = invoke(runner, "show", EXAMPLE, "--game", "burano")
    assert shown.exit_code == 0 and shown.stdout == invoke(runner, "show", EXAMPLE).stdout
    replayed = invoke(runner, "replay", record_file, "--game", "burano", "--quiet")
    assert replayed.exit_code == 0 and replayed.stdout == invoke(runner, "replay", record_file, "--quiet").stdout
    assert "game over: A " in replayed.stdout and " VP" in replayed.stdout
    outs = []
    for game in (["--game", "burano"], []):
        suggested = invoke(runner, "suggest", *game, "--iterations", "50", "--threads", "1", "--json")
        assert suggested.exit_code == 0, suggested.stderr
        outs.append(json.loads(suggested.stdout))
        outs[-1].pop("elapsed"), outs[-1].pop("iterations_per_second")
    assert outs[0] == outs[1] and outs[0]["seat"] == "C"


def test_a_file_of_another_game_than_game_is_refused(runner, record_file, other_game):
    assert_user_error(invoke(runner, "show", EXAMPLE, "--game", "other"),
                      "midgame-4p-C.json is a Burano position, not one of --game other")
    assert_user_error(invoke(runner, "suggest", EXAMPLE, "--game", "other"), "is a Burano position")
    assert_user_error(invoke(runner, "apply", EXAMPLE, "done", "--game", "other"), "is a Burano position")
    assert_user_error(invoke(runner, "replay", record_file, "--game", "other"),
                      "game.json is a Burano game record, not one of --game other")
    assert_user_error(invoke(runner, "analyse", record_file, "--game", "other"), "is a Burano game record")
    assert_user_error(invoke(runner, "play", "--resume", record_file, "--game", "other"), "is a Burano game record")


def test_a_record_without_a_game_field_is_burano(runner, tmp_path):
    record = GameRecord.new(2, 5, [SeatInfo("a", "random"), SeatInfo("b", "random")])
    path = tmp_path / "old.json"
    record.save(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data.pop("game", None)   # a burano-game/1 file from before the registry
    path.write_text(json.dumps(data), encoding="utf-8")
    assert cli._record_game(path, None).key == "burano"
    assert cli._record_game(path, "burano").key == "burano"


# ------------------------------------------------------------------------------------------------
# --players in the game's own range


@pytest.mark.parametrize("players", ["1", "5"])
@pytest.mark.parametrize("command", [["new"], ["random-game"], ["arena", "--bots", "random,random"]])
def test_players_out_of_the_game_range(runner, command, players):
    assert_user_error(invoke(runner, *command, "--players", players),
                      f"--players must be 2, 3 or 4 (Burano), not {players}")


def test_players_out_of_range_at_the_terminal(tmp_path):
    result = subprocess.run([sys.executable, str(ROOT / "cli.py"), "play", "--players", "6", "--bots", "random"],
                            input="", capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == "error: --players must be 2, 3 or 4 (Burano), not 6\n"


def test_the_range_comes_from_the_spec(other_game):
    wide = dataclasses.replace(other_game, min_players=2, max_players=5)
    assert player_counts(wide) == "2, 3, 4 or 5" and check_player_count(5, wide) == 5
    with pytest.raises(OptionError, match=r"--players must be 2, 3, 4 or 5 \(Other\), not 6"):
        check_player_count(6, wide)
    with pytest.raises(OptionError, match="--you must be 3"):
        check_player_count(True, dataclasses.replace(other_game, min_players=3, max_players=3), what="--you")
    assert cli._check_players(None, wide) == wide.default_players
    assert cli._check_players(None, wide, default=2) == 2


# ------------------------------------------------------------------------------------------------
# The people side of a spec


class PlainBurano(PeopleSide):
    """Burano's rules with nothing but the generic people side (a game that declares no hooks of its own)."""

    key = "plain"
    title = "Plain"
    default_players = 2

    def new_game(self, num_players: int):
        return Game(num_players)


def test_the_generic_people_side_reads_only_the_state():
    plain = PlainBurano()
    state = Game(2).new_initial_state(4)
    text = plain.render(state.to_dict())
    assert text.endswith("\n") and "players: 2" in text and "format" not in text
    legal = plain.render_legal_actions(state)
    assert legal.splitlines()[0] == f"legal moves for A ({len(state.legal_actions())}):"
    assert legal.splitlines()[1:] == [f"  {state.action_to_string(a)}" for a in state.legal_actions()]
    assert plain.phase_label(state.to_dict()) == "" and plain.turn_label(state.to_dict()) == "Plain"
    assert plain.seat_label(1) == "B" and plain.chance_label(state.to_dict()) == "chance"
    assert plain.score_columns(state) == [("score", ["0", "0"])]
    assert plain.describe_scores([3, 5.5]) == "A 3 points, B 5.5 points"
    assert plain.move_entry() is None
    example = Game(2).state_from_json(plain.example_position())
    assert not example.is_chance_node() and not example.is_terminal()


def test_buranos_people_side_is_its_own_rendering():
    burano = get_spec("burano")
    state = Game(3).new_initial_state(7)
    assert burano.render(state.to_dict(1)) == render_position(state.to_dict(1))
    assert burano.render_legal_actions(state) == render_legal_actions(state)
    assert burano.seat_label(0) == "A (blue)"
    assert [header for header, _ in burano.score_columns(state)] == ["VP", "coins", "prep cubes"]
    assert burano.describe_scores([34, 20]) == "A 34 VP, B 20 VP"
    assert json.loads(burano.example_position())["view"] == "C"
    assert burano.move_entry().unit == "cubes"


# ------------------------------------------------------------------------------------------------
# Goofspiel, the second registered game, through the same commands


def test_games_lists_goofspiel(runner):
    games = {g["key"]: g for g in json.loads(invoke(runner, "games", "--json").stdout)}
    assert {k: games["goofspiel"][k] for k in ("title", "min_players", "max_players", "default_players",
                                               "position_format", "implementations", "default")} == {
        "title": "Goofspiel", "min_players": 2, "max_players": 5, "default_players": 2,
        "position_format": "goofspiel-position/1", "implementations": ["compiled", "reference"], "default": False}
    line = next(line for line in invoke(runner, "games").stdout.splitlines() if line.startswith("goofspiel "))
    assert line.split()[:5] == ["goofspiel", "Goofspiel", "2-5", "2", "goofspiel-position/1"]


def test_suggest_game_goofspiel_searches_its_example(runner):
    example = get_spec("goofspiel").example_position()
    state = get_spec("goofspiel").load_position(json.loads(example))[0]
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    outs = []
    for _ in range(2):
        result = invoke(runner, "suggest", "--game", "goofspiel", "--iterations", "300", "--threads", "1", "--json")
        assert result.exit_code == 0, result.stderr
        outs.append(json.loads(result.stdout))
        outs[-1].pop("elapsed"), outs[-1].pop("iterations_per_second")
    assert outs[0] == outs[1]                    # one thread and a budget: reproducible
    assert outs[0]["seat"] == "B" and outs[0]["move"] in legal and outs[0]["move"].startswith("bid ")
    text = invoke(runner, "suggest", "--game", "goofspiel", "--iterations", "300", "--threads", "1")
    assert text.exit_code == 0 and text.stdout.startswith("seat B: bid ")
    assert "points: expected final points" in " ".join(text.stdout.split())


def test_goofspiel_positions_name_their_game(runner, tmp_path):
    path = tmp_path / "g.json"
    assert invoke(runner, "new", "--game", "goofspiel", "--players", "3", "--seed", "4", "-o", path).exit_code == 0
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == "goofspiel-position/1"
    shown = invoke(runner, "show", path)               # no --game: the file's format names it
    assert shown.exit_code == 0 and shown.stdout.startswith("Goofspiel 3 players, 13 cards")
    assert "round 1: prize 5, seat A to bid" in shown.stdout      # `new` deals: the first prize is drawn
    assert_user_error(invoke(runner, "show", path, "--game", "burano"), "g.json is a Goofspiel position, "
                                                                       "not one of --game burano")
    assert_user_error(invoke(runner, "show", EXAMPLE, "--game", "goofspiel"), "is a Burano position")
    applied = invoke(runner, "apply", path, "bid 4", "-o", path)
    assert applied.exit_code == 0, applied.stderr
    assert applied.stdout.splitlines()[0] == "applied 1 step; round 1: B to move"
    assert " bid ?" in invoke(runner, "show", path, "--seat", "C").stdout     # A's bid is secret from C
    assert_user_error(invoke(runner, "new", "--game", "goofspiel", "--players", "6"),
                      "--players must be 2, 3, 4 or 5 (Goofspiel), not 6")


def test_random_game_and_replay_of_goofspiel(runner, tmp_path):
    path = tmp_path / "g-game.json"
    played = invoke(runner, "random-game", "--game", "goofspiel", "--players", "3", "--seed", "2", "--record", path)
    assert played.exit_code == 0, played.stderr
    record = GameRecord.load(path)
    assert record.game == "goofspiel"
    bids = sum(not step.is_chance for step in record.steps)
    assert f"game over after {bids} decisions" in played.stdout and "seat  points  prizes won" in played.stdout
    assert played.stdout.splitlines()[-1] == "winner: " + ", ".join(record.result["winners"])
    replayed = invoke(runner, "replay", path)
    assert replayed.exit_code == 0, replayed.stderr
    assert replayed.stdout.splitlines()[-1].startswith("result: A ") and " points" in replayed.stdout
    assert_user_error(invoke(runner, "replay", path, "--game", "burano"), "is a Goofspiel game record")


def test_engine_game_is_the_game_of_a_query_that_names_none():
    query = {"id": 1, "position": {"players": 2, "seed": 3, "moves": ["prize 3"]}, "maxIterations": 100,
             "threads": 1}
    answers = []
    for game in (["--game", "goofspiel"], []):
        result = subprocess.run([sys.executable, str(ROOT / "cli.py"), "engine", *game], input=json.dumps(query) + "\n",
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        answers.append(json.loads(result.stdout.splitlines()[-1]))
    assert answers[0]["move"].startswith("bid ") and not answers[0].get("isDuringSearch")
    assert "cannot parse move 'prize 3'" in answers[1]["error"]    # Burano's deal: no prizes there


def test_serve_passes_game_on(runner, monkeypatch):
    server = pytest.importorskip("burano_ai.web.server")
    testclient = pytest.importorskip("fastapi.testclient")
    calls = []
    monkeypatch.setattr(server, "serve", lambda **options: calls.append(options))
    assert invoke(runner, "serve", "--game", "goofspiel", "--port", "8123").exit_code == 0
    assert invoke(runner, "serve").exit_code == 0
    assert calls[0]["game"] == "goofspiel" and calls[0]["port"] == 8123 and "game" not in calls[1]
    from burano_ai.web.app import create_app
    local = "http://127.0.0.1"   # a loopback Host: the board refuses any other
    kinds = testclient.TestClient(create_app("goofspiel"), base_url=local).get("/api/games/kinds").json()
    assert kinds["default"] == "goofspiel" and [k["key"] for k in kinds["kinds"]] == game_keys()
    assert testclient.TestClient(create_app(), base_url=local).get("/api/games/kinds").json()["default"] == DEFAULT_GAME


# ------------------------------------------------------------------------------------------------
# `burano new` deals (issue 34, item 10)


@pytest.mark.parametrize("spec", [pytest.param(s, id=s.key) for s in all_specs()])
def test_new_deals_the_start_of_its_seed_and_suggest_searches_it(runner, tmp_path, spec):
    """`burano new --seed N` wrote the same undealt start for every seed of every game but Burano, and
    `suggest` on it answered `a chance event is pending`: now the seed's dealt start (the same seed, the same
    deal; another seed, another), a secret deal without a seed, and `suggest` searches each file."""
    def new(*args) -> str:
        result = invoke(runner, "new", "--game", spec.key, *args)
        assert result.exit_code == 0, result.stderr
        return result.stdout

    one, two = new("--seed", 1), new("--seed", 2)
    assert one != two and new("--seed", 1) == one
    secret = {new() for _ in range(5)}
    # five secret deals differ from each other and from seed 1's in the board games; a poker hand has so
    # few deals (Kuhn poker, 2 players: 6; Leduc: 30) that a secret one may well be seed 1's
    assert len(secret) > 1 and (one not in secret or "web_board" not in spec.capabilities)
    for n, text in enumerate([one, two, *sorted(secret)[:1]]):
        state = spec.load_position(json.loads(text))[0]
        assert not state.is_chance_node() and not state.is_terminal()
        path = tmp_path / f"start{n}.json"
        path.write_text(text, encoding="utf-8")
        answer = invoke(runner, "suggest", path, "--iterations", 50, "--json")
        assert answer.exit_code == 0, answer.stderr
        assert state.string_to_action(json.loads(answer.stdout)["move"]) in state.legal_actions()


def test_new_with_a_seed_deals_what_play_with_that_seed_deals():
    """`new --seed N` is the start `burano play --seed N` shows (the session's seeded deal)."""
    from burano_ai.session import GameSession
    for spec in all_specs():
        session = GameSession(spec.default_players, 9, ["human"] * spec.default_players, game=spec.key)
        session.advance()
        result = CliRunner().invoke(cli.app, ["new", "--game", spec.key, "--seed", "9"])
        assert json.loads(result.stdout) == session.state.to_dict(), spec.key
