"""The game registry as the services see it: `get_spec`, an unknown game, a position's game from its
format tag, records of a game (and old records without one), the protocol's `game` and `query_games`
over real pipes. Every service reaches a game only through `burano_ai.games.get_spec`."""

from __future__ import annotations

import json
import random

import pytest

from burano_ai.core.errors import OptionError, PositionError
from burano_ai.core.game import BotDeclaration, GameSpec, OpenSpielSpec, StepVisibility
from burano_ai.engine import load_position, spec_for_position, suggest
from burano_ai.games import DEFAULT_GAME, all_specs, game_keys, get_spec
from burano_ai.record import FORMAT as RECORD_FORMAT
from burano_ai.record import GameRecord, RecordError
from burano_ai.search.limits import Limit
from burano_ai.session import GameSession

#: Engine-side hooks and attributes every spec has (core.game.GameSpec).
ENGINE_HOOKS = ("load_position", "decision_label", "step_visibility", "hidden_in_export",
                "narrate_step", "step_effects", "describe_result", "describe_move", "move_notes", "bots")
ENGINE_ATTRIBUTES = ("score_name", "chance_kinds", "unseen_texts", "position_format", "min_players", "max_players",
                     "default_players")


def test_get_spec_and_an_unknown_game():
    assert game_keys()[0] == DEFAULT_GAME == "burano"
    assert get_spec("burano") is get_spec("burano")            # loaded once
    with pytest.raises(OptionError, match=r"unknown game 'chess' \(known games: burano"):
        get_spec("chess")
    with pytest.raises(OptionError, match="unknown game"):
        get_spec(None)


@pytest.mark.parametrize("spec", all_specs(), ids=lambda s: s.key)
def test_every_spec_declares_the_engine_hooks(spec):
    assert isinstance(spec, GameSpec)
    assert isinstance(spec, OpenSpielSpec) == ("openspiel" in spec.capabilities)
    for name in ENGINE_HOOKS:
        assert callable(getattr(spec, name)), name
    for name in ENGINE_ATTRIBUTES:
        assert getattr(spec, name) is not None, name
    assert 1 <= spec.min_players <= spec.default_players <= spec.max_players <= 6
    assert spec.position_format.endswith("-position/1")
    assert all(isinstance(bot, BotDeclaration) for bot in spec.bots().values())
    state = spec.new_game(spec.default_players).new_initial_state(3)
    rng = random.Random(3)
    for _ in range(40):                         # who sees each step of a random game is the spec's
        if state.is_terminal():
            break
        action = (rng.choice([a for a, _ in state.chance_outcomes()]) if state.is_chance_node()
                  else rng.choice(state.legal_actions()))
        seen = spec.step_visibility(state, action)
        assert isinstance(seen, StepVisibility)
        assert (seen.kind in spec.chance_kinds) == state.is_chance_node()
        assert seen.seen_by is None or all(0 <= p < state.num_players for p in seen.seen_by)
        state.apply_action(action)


def test_a_position_names_its_game_with_its_format_tag():
    burano = get_spec("burano")
    state = burano.new_game(2).new_initial_state(5)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    data = state.to_dict(state.current_player())
    assert spec_for_position(data) is burano
    assert spec_for_position(data, "burano") is burano
    assert spec_for_position({"players": 2}) is burano            # no tag: the default game's checks speak
    loaded, view = load_position(json.dumps(data))
    assert view == state.current_player() and loaded.to_dict(view) == data
    with pytest.raises(OptionError, match="unknown game 'chess'"):
        load_position(data, game="chess")
    other = next((s for s in all_specs() if s.key != "burano"), None)
    if other is not None:                                         # a Burano position is not another game's
        with pytest.raises(PositionError, match=f"not a {other.title} position"):
            load_position(data, game=other.key)
    result = suggest(data, limit=Limit(iterations=30), threads=1, seed=2, game="burano")
    assert result.action in loaded.legal_actions()


def test_a_record_without_a_game_field_is_a_burano_record():
    session = GameSession(2, 9, ["random", "random"])
    session.advance()
    data = session.record.to_dict()
    assert data["format"] == RECORD_FORMAT and data["game"] == "burano"
    del data["game"]                                               # written before there were other games
    old = GameRecord.from_dict(data)
    assert old.game == "burano"
    assert old.replay().to_dict() == session.state.to_dict()
    assert old.result == session.record.result and old.result["winners"]
    with pytest.raises(RecordError, match="record.game: unknown game 'chess'"):
        GameRecord.from_dict({**data, "game": "chess"})
    with pytest.raises(RecordError, match="record.players: must be 2, 3 or 4, not 5"):
        GameRecord.from_dict({**data, "game": "burano", "players": 5})


def test_the_session_takes_the_game_key():
    with pytest.raises(OptionError, match="unknown game 'chess'"):
        GameSession(2, 1, ["random", "random"], game="chess")
    with pytest.raises(OptionError, match="players must be 2, 3 or 4, not 5"):
        GameSession(5, 1, ["random"] * 5, game="burano")
    session = GameSession(2, 1, ["human", "random"], game="burano")
    assert session.game == "burano" and session.record.game == "burano"


def test_query_games_and_game_over_real_pipes():
    from burano_ai.client import Engine, EngineError
    with Engine.popen(threads=1) as engine:
        games = engine.games()
        assert [g["game"] for g in games] == game_keys()
        burano = games[0]
        assert burano == {"game": "burano", "title": "Burano", "minPlayers": 2, "maxPlayers": 4, "defaultPlayers": 4,
                          "positionFormat": "burano-position/1", "recordFormat": RECORD_FORMAT, "default": True,
                          "options": []}
        deal = {"players": 2, "seed": 3, "moves": []}
        named = engine.analyse(deal, Limit(iterations=40), seed=1, game="burano")
        unnamed = engine.analyse(deal, Limit(iterations=40), seed=1)
        assert named.move == unnamed.move and named.moves[0].visits == unnamed.moves[0].visits
        with pytest.raises(EngineError, match="unknown game 'chess'") as info:
            engine.analyse(deal, Limit(iterations=40), game="chess")
        assert info.value.field == "game"


# ------------------------------------------------------------------------------------------------
# Goofspiel (the second registered game) through the services

def _goofspiel_session(players: int = 3, seed: int = 5) -> GameSession:
    session = GameSession(players, seed, ["random"] * players, game="goofspiel")
    session.advance()
    return session


def test_a_goofspiel_record_replays_and_exports():
    session = _goofspiel_session()
    assert session.is_over() and session.record.game == "goofspiel"
    result = session.record.result
    keys = [session.state.finishing_key(p) for p in range(3)]
    assert result["winners"] == [letter for letter, key in zip("ABC", keys) if key == max(keys)]
    loaded = GameRecord.from_json(session.record.to_json())
    assert loaded.game == "goofspiel" and loaded.replay().to_dict() == session.state.to_dict()
    cut = GameRecord.from_dict(loaded.to_dict())
    cut.truncate(11)                          # B and C have bid, the round is not over for A to see
    export = cut.for_seat("A")
    assert export.game == "goofspiel" and any(step.hidden for step in export.steps)
    assert export.replay().to_dict(0) == cut.replay().to_dict(0)
    spec = get_spec("goofspiel")
    for step in session.record.steps:
        assert step.kind is None or step.kind in spec.chance_kinds
        assert session.narrate(step, None)


def test_a_goofspiel_position_and_deal_through_the_protocol():
    from burano_ai.protocol import QueryError, parse_query
    session = _goofspiel_session(2, 8)
    record = GameRecord.from_dict(session.record.to_dict())
    record.truncate(1)                        # the first prize revealed, seat A to bid
    state = record.replay()
    view = json.loads(state.to_json(0))
    assert spec_for_position(view).key == "goofspiel"
    job = parse_query({"id": 1, "position": view})
    assert job.seat == 0 and type(job.state).__module__.startswith("burano_ai.games.goofspiel")
    job = parse_query({"id": 2, "game": "goofspiel", "position": {"players": 2, "seed": 8,
                                                                 "moves": [record.steps[0].move]}})
    assert job.state.to_dict() == state.to_dict()
    with pytest.raises(QueryError, match="not a Burano position") as info:
        parse_query({"id": 3, "game": "burano", "position": view})
    assert info.value.field == "position"
    with pytest.raises(QueryError, match="position.players must be a whole number from 2 to 5"):
        parse_query({"id": 4, "game": "goofspiel", "position": {"players": 6, "moves": []}})


def test_goofspiel_has_no_openspiel_bots_of_its_own():
    from burano_ai.bots import make_bot
    assert "openspiel" not in get_spec("goofspiel").capabilities
    with pytest.raises(OptionError, match="needs an OpenSpiel adapter, which Goofspiel does not have"):
        make_bot("openspiel-mcts", 0, "goofspiel")
    with pytest.raises(OptionError, match="unknown bot 'greedy'"):
        make_bot("greedy", 0, "goofspiel")             # Burano's own bot


def test_a_goofspiel_query_over_real_pipes():
    from burano_ai.client import Engine
    with Engine.popen(threads=1) as engine:
        assert "goofspiel" in [g["game"] for g in engine.games()]
        result = engine.analyse({"players": 2, "seed": 4, "moves": ["prize 5"]}, Limit(iterations=200), seed=1,
                                game="goofspiel")
        assert result.move.startswith("bid ") and result.iterations == 200


@pytest.mark.parametrize("spec", all_specs(), ids=lambda s: s.key)
def test_one_family_of_labels_for_where_the_game_stands(spec):
    """Issue 32: `core.game.LABEL_FAMILY`. No game spells the State's phase a second time (the deprecated
    `GameSpec.phase_name` alias lives in `Declaration` only), and a decision's label is the phase label of
    the deciding seat's view, the words the analysis table and the web status line show."""
    from burano_ai.core.game import LABEL_FAMILY, Declaration
    assert LABEL_FAMILY == ("phase_name", "phase_label", "turn_label", "decision_label", "chance_label")
    assert all("phase_name" not in vars(cls) for cls in type(spec).__mro__ if cls is not Declaration)
    state = spec.new_game(spec.default_players).new_initial_state(3)
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        seat = state.current_player()
        label = spec.decision_label(state, seat)
        assert label == spec.phase_label(state.to_dict(seat)) and isinstance(state.phase_name(), str)
        assert spec.turn_label(state.to_dict(seat))
        state.apply_action(rng.choice(state.legal_actions()))
