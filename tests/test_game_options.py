"""A game's options besides its player count (`GameSpec.game_options`, `core.options`), through every entry.

Azul: Stained Glass of Sintra takes a side, a first player and a corrected component data file; Goofspiel
its card count and prize order; Burano none. Each interface is driven the way people and programs use it:
the command line through its typer app (and `burano play` and `burano engine` as real processes on
pipes), records through `GameRecord`; the web API is tested next to the other web tests
(tests/web/test_web_options.py). A corrected data file (a copy of the placeholder file with
`placeholder: false` and other window values) changes the scores of the same seeded game and drops the
placeholder notice; every bad option is exit code 2 and one line naming it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cli
from burano_ai.core.errors import OptionError
from burano_ai.core.game import GameOption
from burano_ai.core.options import (game_for, game_options_json, game_options_text, is_placeholder, make_game,
                                    parse_cli_options, parse_game_options)
from burano_ai.games import all_specs, get_spec
from burano_ai.record import GameRecord, RecordError
from burano_ai.session import GameSession
from games.azul_sintra.helpers import corrected_data

ROOT = Path(__file__).resolve().parent.parent
CLI = str(ROOT / "cli.py")
AZUL = get_spec("azul-sintra")


@pytest.fixture
def corrected(tmp_path) -> Path:
    path = tmp_path / "corrected.json"
    path.write_text(json.dumps(corrected_data(), indent=1), encoding="utf-8")
    return path


@pytest.fixture
def runner():
    return CliRunner()


def invoke(runner, *args):
    return runner.invoke(cli.app, [str(a) for a in args])


def assert_user_error(result, *fragments: str) -> str:
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def random_game_scores(runner, tmp_path, name, *options) -> tuple[list[int], dict]:
    path = tmp_path / f"{name}.json"
    result = invoke(runner, "random-game", "--game", "azul-sintra", "--seed", 5, "-q", "--record", path, *options)
    assert result.exit_code == 0, result.stderr
    record = json.loads(path.read_text(encoding="utf-8"))
    return record["result"]["scores"], record


# -- the declaration and the parser ------------------------------------------------------------------------

def test_every_game_declares_its_options():
    assert dict(get_spec("burano").game_options) == {}
    assert list(get_spec("goofspiel").game_options) == ["num_cards", "points_order"]
    assert {"side", "first_player", "data"} <= set(AZUL.game_options)
    for spec in all_specs():
        for name, option in spec.game_options.items():
            assert isinstance(option, GameOption) and option.name == name and option.help
            # the default is a value of the option, and new_game takes every option by its name
            assert parse_game_options(spec, {name: option.default}) == {}
        make_game(spec, spec.default_players, {name: o.default for name, o in spec.game_options.items()})


def test_a_game_option_has_a_known_kind():
    with pytest.raises(ValueError, match="kind"):
        GameOption("x", "colour")


def test_json_options_are_checked_one_line_each():
    assert parse_game_options(AZUL, {"side": "B", "first_player": 0}) == {"side": "B"}   # defaults left out
    assert parse_game_options(AZUL, None) == {}
    cases = [({"side": "C"}, "options.side: expected A or B, not 'C'"),
             ({"side": 1}, "options.side: expected A or B"),
             ({"first_player": "1"}, "options.first_player: expected a whole number from 0 to 3"),
             ({"first_player": True}, "options.first_player"),
             ({"data": "corrected.json"}, "options.data: expected a JSON object"),
             ({"data": {"format": "x"}}, "options.data: azul-sintra data.format"),
             ({"colour": "red"}, "options: unknown option 'colour' (Azul: Stained Glass of Sintra's options: side"),
             (["side"], "options: expected a JSON object")]
    for raw, message in cases:
        with pytest.raises(OptionError) as info:
            parse_game_options(AZUL, raw)
        assert message in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(OptionError, match="Burano takes no options"):
        parse_game_options(get_spec("burano"), {"side": "B"})
    goof = get_spec("goofspiel")
    assert parse_game_options(goof, {"num_cards": 5, "points_order": "descending"}) == \
        {"num_cards": 5, "points_order": "descending"}
    with pytest.raises(OptionError, match="options.num_cards: expected a whole number from 2 to 16, not 17"):
        parse_game_options(goof, {"num_cards": 17})


def test_command_line_options_are_checked_one_line_each(corrected, tmp_path):
    options = parse_cli_options(AZUL, ["side=B", "first_player=1"], corrected)
    assert options["side"] == "B" and options["first_player"] == 1 and options["data"] == corrected_data()
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{", encoding="utf-8")
    cases = [(["side=C"], None, "--option side: expected A or B, not 'C'"),
             (["side"], None, "--option 'side': expected NAME=VALUE"),
             (["side=A", "side=B"], None, "--option side: given twice"),
             (["first_player=x"], None, "--option first_player: expected a whole number"),
             (["nope=1"], None, "--option 'nope': unknown option (Azul: Stained Glass of Sintra's options:"),
             ([], tmp_path / "missing.json", "cannot read the file"),
             ([], bad_json, f"--data {bad_json}: not JSON"),
             ([f"data={bad_json}"], None, f"--option data={bad_json}: not JSON"),
             ([f"data={corrected}"], corrected, "--data: and --option data= both given")]
    for assignments, data, message in cases:
        with pytest.raises(OptionError) as info:
            parse_cli_options(AZUL, assignments, data)
        assert message in str(info.value), str(info.value)
    with pytest.raises(OptionError, match="--data: Burano has no replaceable data"):
        parse_cli_options(get_spec("burano"), [], corrected)
    with pytest.raises(OptionError, match="--option: azul-sintra first_player must be a seat 0..1, not 3"):
        make_game(AZUL, 2, parse_cli_options(AZUL, ["first_player=3"]), where="--option")


class _PositionalGame:
    """A Game class that takes its options as one positional object, as some games' do."""

    def __init__(self, num_players, options=None):
        self.num_players, self.options = num_players, options


class _PositionalSpec:
    key, title = "positional", "Positional"
    implementations = {"compiled": f"{_PositionalGame.__module__}:{_PositionalGame.__qualname__}"}
    game_options = {"flag": GameOption("flag", "bool", False, "a flag")}

    def game_class(self, implementation="compiled"):
        return _PositionalGame

    def new_game(self, num_players, implementation="compiled", **options):
        return _PositionalGame(num_players, ("made by new_game", implementation, options))


def test_a_dealt_game_with_options_is_made_through_new_game():
    """`game_for`: the services reach the Game class's own arguments only through the spec's `new_game`."""
    spec = _PositionalSpec()
    assert game_for(spec, 2).options is None                               # no options: factory(players)
    assert game_for(spec, 3, {"flag": True}).options == ("made by new_game", "compiled", {"flag": True})

    def own_factory(num_players, **options):
        return ("own", num_players, options)
    assert game_for(spec, 2, {"flag": True}, own_factory) == ("own", 2, {"flag": True})
    azul = game_for(AZUL, 2, {"side": "B"}, AZUL.game_class("reference"))
    assert type(azul) is AZUL.game_class("reference") and azul.side == "B"


def test_the_placeholder_notice_follows_the_data(corrected):
    assert is_placeholder(AZUL)
    assert is_placeholder(AZUL, {"side": "B"})
    assert not is_placeholder(AZUL, {"data": corrected_data()})
    position = make_game(AZUL, 2, {"data": corrected_data()}).new_initial_state(0).to_dict()
    assert not is_placeholder(AZUL, position=position)
    assert is_placeholder(AZUL, position=make_game(AZUL, 2).new_initial_state(0).to_dict())
    assert not is_placeholder(get_spec("burano"))       # no placeholder data at all


def test_options_text_and_json_list_every_option():
    lines = game_options_text(AZUL)
    assert lines[0].startswith("side=A|B (default A): ")
    assert any(line.startswith("first_player=0..3 (default 0): ") for line in lines)
    assert any(line.startswith("data=FILE.json (or --data FILE) (default built-in): ") for line in lines)
    items = game_options_json(AZUL)
    assert items[0] == {"name": "side", "kind": "choice", "default": "A", "help": AZUL.game_options["side"].help,
                        "choices": ["A", "B"]}
    json.dumps(items)
    assert game_options_text(get_spec("burano")) == []


# -- the command line --------------------------------------------------------------------------------------

def test_burano_games_lists_each_games_options(runner):
    result = invoke(runner, "games")
    assert result.exit_code == 0, result.stderr
    assert "azul-sintra options (--option NAME=VALUE):" in result.stdout
    assert "  side=A|B (default A): " in result.stdout
    assert "  num_cards=2..16 (default 13): " in result.stdout
    games = {g["key"]: g for g in json.loads(invoke(runner, "games", "--json").stdout)}
    assert games["burano"]["options"] == []
    assert [o["name"] for o in games["goofspiel"]["options"]] == ["num_cards", "points_order"]
    assert "placeholder data" in games["azul-sintra"]["placeholder"]


def test_burano_games_checks_a_data_file_and_drops_the_notice_for_a_corrected_one(runner, corrected):
    plain = invoke(runner, "games", "--game", "azul-sintra")
    assert plain.exit_code == 0 and "azul-sintra uses placeholder data" in plain.stdout
    assert "burano" not in plain.stdout.replace("burano-game", "")        # that game only
    result = invoke(runner, "games", "--game", "azul-sintra", "--data", corrected, "--option", "side=B")
    assert result.exit_code == 0, result.stderr
    assert "azul-sintra with side=B, data='corrected (test)': valid" in result.stdout
    assert "placeholder data:" not in result.stdout
    listed = json.loads(invoke(runner, "games", "--game", "azul-sintra", "--data", corrected, "--json").stdout)
    assert [g["key"] for g in listed] == ["azul-sintra"] and listed[0]["placeholder"] is None
    assert_user_error(invoke(runner, "games", "--data", corrected), "give --game too")
    assert_user_error(invoke(runner, "games", "--game", "azul-sintra", "--option", "side=Q"), "--option side")


def test_new_makes_the_position_of_the_options(runner, corrected):
    result = invoke(runner, "new", "--game", "azul-sintra", "--option", "side=B", "--option", "first_player=1",
                    "--data", corrected)
    assert result.exit_code == 0, result.stderr
    position = json.loads(result.stdout)
    assert position["side"] == "B" and position["first_player"] == "B" and position["data"] == corrected_data()
    result = invoke(runner, "new", "--game", "goofspiel", "--players", 2, "--option", "num_cards=5",
                    "--option", "points_order=ascending")
    assert result.exit_code == 0, result.stderr
    position = json.loads(result.stdout)
    assert position["num_cards"] == 5 and position["points_order"] == "ascending"


def test_bad_options_are_exit_code_2_and_one_line(runner, corrected, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("[1,", encoding="utf-8")
    wrong = tmp_path / "wrong.json"
    data = corrected_data()
    data["strips"]["value"][3] = ["XXXXX", "XXXXX"]
    wrong.write_text(json.dumps(data), encoding="utf-8")
    for command in (["new"], ["random-game", "-q"], ["arena", "--bots", "random,random"],
                    ["suggest", "--iterations", 10]):
        args = [*command, "--game", "azul-sintra"]
        assert_user_error(invoke(runner, *args, "--option", "side=C"), "--option side: expected A or B, not 'C'")
        assert_user_error(invoke(runner, *args, "--option", "colour=red"), "unknown option", "side, first_player")
        assert_user_error(invoke(runner, *args, "--option", "first_player=3"), "first_player", "0..1")
        assert_user_error(invoke(runner, *args, "--data", tmp_path / "nope.json"), "nope.json", "cannot read")
        assert_user_error(invoke(runner, *args, "--data", bad), "bad.json: not JSON")
        assert_user_error(invoke(runner, *args, "--data", wrong), "wrong.json: azul-sintra data.strips[3]")
        assert_user_error(invoke(runner, *command, "--data", corrected), "Burano has no replaceable data")


def test_corrected_data_changes_the_scores_and_the_record_carries_it(runner, corrected, tmp_path):
    placeholder_scores, plain = random_game_scores(runner, tmp_path, "plain")
    corrected_scores, record = random_game_scores(runner, tmp_path, "corrected", "--data", corrected)
    assert "options" not in plain                                 # no options: the record as before
    assert record["options"] == {"data": corrected_data()}
    assert corrected_scores != placeholder_scores                 # the windows are worth more
    # the record replays on its own (the data is embedded), to the same result
    replayed = GameRecord.from_dict(record).replay()
    assert list(replayed.scores()) == corrected_scores
    result = invoke(runner, "replay", tmp_path / "corrected.json", "-q")
    assert result.exit_code == 0, result.stderr
    assert "PLACEHOLDER" not in result.stdout
    assert "PLACEHOLDER" in invoke(runner, "replay", tmp_path / "plain.json", "-q").stdout


def test_side_and_first_player_reach_the_game(runner, tmp_path):
    _scores, record = random_game_scores(runner, tmp_path, "b", "--option", "side=B", "--option", "first_player=1")
    assert record["options"] == {"side": "B", "first_player": 1}
    state = GameRecord.from_dict(record).replay(0)
    assert state.to_dict()["side"] == "B" and state.to_dict()["first_player"] == "B"


def test_suggest_without_a_file_searches_a_new_game_of_the_options(runner, corrected, tmp_path):
    args = ["suggest", "--game", "azul-sintra", "--iterations", 30, "--threads", 1, "--json"]
    plain = json.loads(invoke(runner, *args).stdout)
    assert "placeholder data" in plain["placeholder"]
    result = invoke(runner, *args, "--data", corrected, "--option", "side=B")
    assert result.exit_code == 0, result.stderr
    assert "placeholder" not in json.loads(result.stdout)
    text = invoke(runner, *args[:-1], "--data", corrected)
    assert text.exit_code == 0 and "placeholder" not in text.stdout
    # a position file carries its own options
    position = tmp_path / "pos.json"
    position.write_text(invoke(runner, "new", "--game", "azul-sintra").stdout, encoding="utf-8")
    assert_user_error(invoke(runner, "suggest", position, "--option", "side=B"), "its own options")


def test_a_position_saved_with_corrected_data_reloads_with_it(runner, corrected, tmp_path):
    position = tmp_path / "pos.json"
    assert invoke(runner, "new", "--game", "azul-sintra", "--data", corrected, "-o", position).exit_code == 0
    shown = invoke(runner, "show", position)
    assert shown.exit_code == 0, shown.stderr
    assert shown.stdout.splitlines()[0] == "Azul: Stained Glass of Sintra, 2 players, side A"
    state, _view = AZUL.load_position(json.loads(position.read_text(encoding="utf-8")))
    assert state.to_dict()["data"] == corrected_data()
    state, _view = AZUL.load_position(json.loads(position.read_text(encoding="utf-8")))
    while state.is_chance_node():                                   # to the first decision
        state.apply_action(state.chance_outcomes()[0][0])
    position.write_text(state.to_json(), encoding="utf-8")
    result = invoke(runner, "suggest", position, "--iterations", 30, "--threads", 1, "--json")
    assert result.exit_code == 0, result.stderr
    assert "placeholder" not in json.loads(result.stdout)


def test_arena_plays_and_records_with_the_options(runner, corrected, tmp_path):
    records = tmp_path / "records"
    out = tmp_path / "results.json"
    result = invoke(runner, "arena", "--game", "azul-sintra", "--bots", "random,random", "--games", 2,
                    "--option", "side=B", "--data", corrected, "--records", records, "--out", out)
    assert result.exit_code == 0, result.stderr
    results = json.loads(out.read_text(encoding="utf-8"))
    assert results["config"]["options"]["side"] == "B"
    for path in sorted(records.iterdir()):
        record = GameRecord.load(path)
        assert record.options == {"side": "B", "data": corrected_data()}
        assert record.replay().to_dict()["side"] == "B"
    plain = tmp_path / "plain.json"
    assert invoke(runner, "arena", "--game", "azul-sintra", "--bots", "random,random", "--out", plain).exit_code == 0
    assert "options" not in json.loads(plain.read_text(encoding="utf-8"))["config"]


def test_play_starts_a_game_of_the_options_and_saves_them(corrected, tmp_path):
    record = tmp_path / "game.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    run = subprocess.run([sys.executable, CLI, "play", "--game", "azul-sintra", "--bots", "random", "--seed", "3",
                          "--option", "side=B", "--data", str(corrected), "--record", str(record)],
                         input="quit\n", capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "side B" in run.stdout and "PLACEHOLDER" not in run.stdout and "placeholder" not in run.stdout
    saved = GameRecord.load(record)
    assert saved.options == {"side": "B", "data": corrected_data()}
    # resumed, it keeps them
    resumed = GameSession.resume(saved)
    assert resumed.record.options == saved.options and resumed.state.to_dict()["side"] == "B"
    run = subprocess.run([sys.executable, CLI, "play", "--resume", str(record), "--option", "side=A"],
                         input="quit\n", capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and "--option/--data" in run.stderr
    run = subprocess.run([sys.executable, CLI, "play", "--game", "azul-sintra", "--option", "side=Z"],
                         input="quit\n", capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert run.returncode == 2 and run.stderr == "error: --option side: expected A or B, not 'Z'\n"


# -- records -----------------------------------------------------------------------------------------------

def test_a_record_with_options_replays_identically():
    options = {"side": "B", "first_player": 1, "data": corrected_data()}
    session = GameSession(2, 7, ["random", "random"], game="azul-sintra", options=options)
    session.advance()
    assert session.is_over()
    record = session.record
    again = GameRecord.from_json(record.to_json())
    assert again.options == options
    assert again.to_dict() == record.to_dict()
    assert list(again.replay().scores()) == list(session.state.scores())
    plain = GameRecord.from_dict({**record.to_dict(), "options": None, "result": None})
    assert plain.options is None
    try:                # without its options the record is another game: a step does not fit, or other scores
        differs = list(plain.replay().scores()) != list(session.state.scores())
    except RecordError:
        differs = True
    assert differs
    export = record.for_seat("A")
    assert export.options == options and GameRecord.from_json(export.to_json()).options == options


def test_a_record_without_options_loads_unchanged():
    session = GameSession(2, 1, ["random", "random"], game="azul-sintra")
    session.advance()
    data = session.record.to_dict()
    assert "options" not in data
    assert GameRecord.from_dict(data).to_dict() == data
    burano = ROOT / "tests" / "golden"
    for path in sorted(burano.glob("*.json"))[:3]:
        raw = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(raw, dict) and raw.get("format") == "burano-game/1":
            assert GameRecord.from_dict(raw).options is None


def test_bad_record_options_are_one_line_record_errors():
    record = GameRecord.new(2, 0, game="azul-sintra").to_dict()
    cases = [({"side": "C"}, "record.options.side: expected A or B, not 'C'"),
             ({"nope": 1}, "record.options: unknown option 'nope'"),
             ({"data": {"format": "x"}}, "record.options.data: azul-sintra data.format"),
             ("B", "record.options: expected a JSON object")]
    for options, message in cases:
        with pytest.raises(RecordError) as info:
            GameRecord.from_dict({**record, "options": options})
        assert message in str(info.value)
    beyond = GameRecord.from_dict({**record, "options": {"first_player": 3}})     # checked with the players
    with pytest.raises(RecordError, match="record.options: azul-sintra first_player must be a seat 0..1, not 3"):
        beyond.replay()
    with pytest.raises(RecordError, match="Burano takes no options"):
        GameRecord.from_dict({**GameRecord.new(2, 0).to_dict(), "options": {"side": "B"}})


# -- the engine protocol on real pipes ---------------------------------------------------------------------

def _engine(queries: list[dict]) -> dict[str, dict]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    run = subprocess.run([sys.executable, CLI, "engine", "--threads", "1"],
                         input="".join(json.dumps(q) + "\n" for q in queries), capture_output=True, text=True,
                         env=env, timeout=300)
    assert run.returncode == 0, run.stderr
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    return {a["id"]: a for a in answers if not a.get("isDuringSearch")}


def test_the_engine_deals_a_game_of_the_options():
    options = {"side": "B", "data": corrected_data()}
    record = GameRecord.new(2, 9, game="azul-sintra", options=options)
    state = record.initial_state()
    moves = []
    while state.is_chance_node():
        action = state.chance_outcomes()[0][0]
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    deal = {"players": 2, "seed": 9, "options": options, "moves": moves}
    answers = _engine([
        {"id": "games", "action": "query_games"},
        {"id": "ok", "game": "azul-sintra", "position": deal, "maxIterations": 30},
        {"id": "plain", "game": "azul-sintra", "position": {**deal, "options": {}}, "maxIterations": 30},
        {"id": "side", "game": "azul-sintra", "position": {**deal, "options": {"side": "C"}}},
        {"id": "unknown", "game": "azul-sintra", "position": {**deal, "options": {"colour": 1}}},
        {"id": "beyond", "game": "azul-sintra", "position": {**deal, "options": {"first_player": 3}}},
        {"id": "data", "game": "azul-sintra", "position": {**deal, "options": {"data": {"format": "x"}}}},
        {"id": "burano", "position": {"players": 2, "options": {"side": "B"}}},
    ])
    games = {g["game"]: g for g in answers["games"]["games"]}
    assert [o["name"] for o in games["azul-sintra"]["options"]][:3] == ["side", "first_player", "data"]
    assert "error" not in answers["ok"], answers["ok"]
    assert "error" not in answers["plain"], answers["plain"]
    expected = {"side": "position.options.side: expected A or B, not 'C'",
                "unknown": "position.options: unknown option 'colour'",
                "beyond": "position.options: azul-sintra first_player must be a seat 0..1, not 3",
                "data": "position.options.data: azul-sintra data.format",
                "burano": "position.options: unknown option 'side' (Burano takes no options)"}
    for key, message in expected.items():
        assert message in answers[key]["error"], answers[key]
        assert answers[key]["field"] == "position.options"


def test_a_game_of_secret_chance_deals_with_the_options():
    """No seed: the secret deal is made with the options and written out as the record's start."""
    session = GameSession(2, None, ["human", "random"], game="azul-sintra", options={"side": "B", "first_player": 1})
    assert session.record.seed is None and session.record.options == {"side": "B", "first_player": 1}
    assert session.record.start["side"] == "B" and session.state.to_dict()["first_player"] == "B"
    again = GameRecord.from_json(session.record.to_json())
    assert again.options == session.record.options and again.initial_state().to_dict()["side"] == "B"


def test_goofspiel_options_travel_the_same_way(runner, tmp_path):
    path = tmp_path / "goof.json"
    result = invoke(runner, "random-game", "--game", "goofspiel", "--players", 3, "--seed", 2, "-q",
                    "--option", "num_cards=4", "--option", "points_order=descending", "--record", path)
    assert result.exit_code == 0, result.stderr
    record = GameRecord.load(path)
    assert record.options == {"num_cards": 4, "points_order": "descending"}
    final = record.replay()
    assert final.is_terminal() and final.to_dict()["num_cards"] == 4
    # 4 cards a hand: 3 bids each (the last card of every hand is played for it), not 12 of 13 cards
    assert sum(1 for step in record.steps if not step.is_chance) == 3 * 3
    assert_user_error(invoke(runner, "random-game", "--game", "goofspiel", "--option", "num_cards=40"),
                      "--option num_cards: expected a whole number from 2 to 16, not 40")


# -- Walking in Burano: the same path for its variants, first player and placeholder deck ---------------------

WIB = get_spec("walking-in-burano")
WIB_PLACEHOLDER = ROOT / "burano_ai/games/walking_in_burano/data/placeholder.json"


def test_walking_in_burano_declares_its_variants_first_player_and_deck():
    assert list(WIB.game_options) == ["fewer_characters", "no_window_penalty", "public_returns", "literal_cost",
                                      "first_player", "boy_scoring", "data"]
    assert parse_game_options(WIB, {"first_player": "chance", "public_returns": False}) == {}
    with pytest.raises(OptionError, match="first_player"):
        parse_game_options(WIB, {"first_player": "E"})


def test_walking_in_burano_options_reach_the_game_and_a_corrected_deck_drops_the_notice(runner, tmp_path):
    result = invoke(runner, "new", "--game", "walking-in-burano", "--option", "first_player=B",
                    "--option", "public_returns=true", "--seed", 3)
    assert result.exit_code == 0, result.stderr
    position = json.loads(result.stdout)
    assert position["options"]["first_player"] == "B" and position["options"]["public_returns"] is True
    assert_user_error(invoke(runner, "new", "--game", "walking-in-burano", "--option", "first_player=C"),
                      "first_player")
    data = json.loads(WIB_PLACEHOLDER.read_text(encoding="utf-8"))
    data["placeholder"], data["name"] = False, "transcribed (test)"
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert is_placeholder(WIB) and not is_placeholder(WIB, {"data": data})
    plain = invoke(runner, "games", "--game", "walking-in-burano")
    assert plain.exit_code == 0 and WIB.placeholder_notice in plain.stdout
    checked = invoke(runner, "games", "--game", "walking-in-burano", "--data", path)
    assert checked.exit_code == 0, checked.stderr
    assert "transcribed (test)': valid" in checked.stdout and WIB.placeholder_notice not in checked.stdout
    data["cards"] = "none"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert_user_error(invoke(runner, "games", "--game", "walking-in-burano", "--data", path), "cards")


def test_an_option_of_some_whole_numbers_lists_and_takes_only_those(runner):
    """Issue 34, item 13: `burano games` listed Venice 2099's `move_dirs=4..8`, and 5, 6, 7 were then
    refused by the game: the option declares its values (4 or 8), listed as such everywhere (the command
    line, its JSON, the web form's options) and checked against them in one line."""
    from burano_ai.core.options import game_options_json, game_options_text
    spec = get_spec("venice-2099")
    assert any(line.startswith("move_dirs=4|8 (default 8)") for line in game_options_text(spec))
    listed = invoke(runner, "games", "--game", "venice-2099")
    assert "move_dirs=4|8" in listed.stdout and "4..8" not in listed.stdout
    item = next(o for o in game_options_json(spec) if o["name"] == "move_dirs")
    assert item["values"] == [4, 8]
    for value in (5, 6, 7):
        assert_user_error(invoke(runner, "new", "--game", "venice-2099", "--option", f"move_dirs={value}"),
                          f"--option move_dirs: expected 4 or 8, not {value}")
        with pytest.raises(OptionError, match="options.move_dirs: expected 4 or 8"):
            parse_game_options(spec, {"move_dirs": value})
    assert parse_game_options(spec, {"move_dirs": 4}) == {"move_dirs": 4}
